/**
 * Moving-box scenes for tests of dynamic indexes: boxes with velocities that bounce inside an
 * arena (usually wider than the index's bounds, so boxes keep leaving and re-entering them), some
 * of them pulsing in size (so they change level in a loose grid), plus clusters of coincident
 * boxes. `stepScene` moves every box in place and allocates nothing, so it can run inside a
 * measured frame loop.
 */
import type { QueryRect, Rng } from './oracle.js';
import { randFloat } from './oracle.js';

/** A box that moves: `{ x, y, width, height }` plus its velocity and size pulse. */
export interface MovingBox {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
  vx: number;
  vy: number;
  /** The size it has when not pulsing. */
  baseWidth: number;
  baseHeight: number;
  /** How much larger it gets while pulsing (1: never pulses). */
  pulse: number;
}

/** How a scene is drawn. Fractions are of `count`. */
export interface SceneOptions {
  count: number;
  /** Where the boxes move (they bounce off its edges). */
  arena: QueryRect;
  /** Sizes of ordinary boxes: uniform in [minSize, maxSize]. */
  minSize: number;
  maxSize: number;
  /** Largest speed per step along each axis. */
  maxSpeed: number;
  /** Boxes of size up to `largeSize` (e.g. larger than the index's root cell). */
  largeFraction?: number;
  largeSize?: number;
  /** Zero-size boxes (points). */
  pointFraction?: number;
  /** Boxes that keep still, in clusters of identical boxes (`clusterSize` each). */
  coincidentFraction?: number;
  clusterSize?: number;
  /** Boxes whose size is multiplied by `pulseFactor` during part of every 64 steps. */
  pulseFraction?: number;
  pulseFactor?: number;
  /** Round positions, sizes and speeds to multiples of this (0: no rounding), so edges touch. */
  snap?: number;
}

const snapTo = (v: number, step: number): number => (step > 0 ? Math.round(v / step) * step : v);

/** Draws a scene. Deterministic for a given rng state. */
export function makeScene(rng: Rng, o: SceneOptions): MovingBox[] {
  const {
    count,
    arena,
    minSize,
    maxSize,
    maxSpeed,
    largeFraction = 0,
    largeSize = maxSize,
    pointFraction = 0,
    coincidentFraction = 0,
    clusterSize = 8,
    pulseFraction = 0,
    pulseFactor = 1,
    snap = 0,
  } = o;
  const boxes: MovingBox[] = [];
  const nCoincident = Math.floor(count * coincidentFraction);
  let id = 0;
  // Clusters of identical boxes that keep still.
  while (boxes.length < nCoincident) {
    const w = snapTo(rng() < 0.3 ? 0 : randFloat(rng, minSize, maxSize), snap);
    const h = snapTo(rng() < 0.3 ? 0 : randFloat(rng, minSize, maxSize), snap);
    const x = snapTo(randFloat(rng, arena.x, arena.x + arena.width - w), snap);
    const y = snapTo(randFloat(rng, arena.y, arena.y + arena.height - h), snap);
    const n = Math.min(clusterSize, nCoincident - boxes.length);
    for (let k = 0; k < n; k++) {
      boxes.push({
        id: id++,
        x,
        y,
        width: w,
        height: h,
        vx: 0,
        vy: 0,
        baseWidth: w,
        baseHeight: h,
        pulse: 1,
      });
    }
  }
  while (boxes.length < count) {
    const r = rng();
    let w: number;
    let h: number;
    if (r < largeFraction) {
      w = randFloat(rng, maxSize, largeSize);
      h = randFloat(rng, maxSize, largeSize);
    } else if (r < largeFraction + pointFraction) {
      w = 0;
      h = 0;
    } else {
      w = randFloat(rng, minSize, maxSize);
      h = randFloat(rng, minSize, maxSize);
    }
    w = snapTo(w, snap);
    h = snapTo(h, snap);
    const x = snapTo(randFloat(rng, arena.x, arena.x + arena.width) - w / 2, snap);
    const y = snapTo(randFloat(rng, arena.y, arena.y + arena.height) - h / 2, snap);
    const vx = snapTo(randFloat(rng, -maxSpeed, maxSpeed), snap);
    const vy = snapTo(randFloat(rng, -maxSpeed, maxSpeed), snap);
    const pulse = rng() < pulseFraction ? pulseFactor : 1;
    boxes.push({ id: id++, x, y, width: w, height: h, vx, vy, baseWidth: w, baseHeight: h, pulse });
  }
  return boxes;
}

/**
 * Moves every box by its velocity (its centre bouncing off the arena's edges) and applies the size pulse of
 * step `frame`: a pulsing box is `pulse` times larger during 16 steps of every 64 (staggered by
 * id). In place, allocation-free.
 */
export function stepScene(boxes: readonly MovingBox[], arena: QueryRect, frame: number): void {
  const minX = arena.x;
  const minY = arena.y;
  const maxX = arena.x + arena.width;
  const maxY = arena.y + arena.height;
  for (let i = 0; i < boxes.length; i++) {
    const b = boxes[i]!;
    if (b.pulse !== 1) {
      const big = ((frame + b.id) & 63) < 16;
      b.width = big ? b.baseWidth * b.pulse : b.baseWidth;
      b.height = big ? b.baseHeight * b.pulse : b.baseHeight;
    }
    // The centre bounces off the arena's edges, so large boxes move too.
    const x = b.x + b.vx;
    const y = b.y + b.vy;
    const cx = x + b.width / 2;
    const cy = y + b.height / 2;
    if (cx < minX || cx > maxX) b.vx = -b.vx;
    else b.x = x;
    if (cy < minY || cy > maxY) b.vy = -b.vy;
    else b.y = y;
  }
}
