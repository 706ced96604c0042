// The entry kernels every index shares. A node, cell or leaf holds a run of entries: boxes
// (4 doubles each, minX, minY, maxX, maxY) and item slots, side by side. A query tests a run
// against its shape; the walks over nodes differ per index, these loops over entries do not.

import { boxDistance, boxIntersectsCircle, boxIntersectsSegment } from '../geometry/rect.js';
import type { KBest } from './queue.js';

/** Query shapes of `shapeHits`/`scanShape`. */
export const CIRCLE = 0;
export const SEGMENT = 1;

const NEG_INF = Number.NEGATIVE_INFINITY;

/**
 * Whether the box meets the shape: a circle (a, b, radius c) or a segment (a, b)-(c, d), decided
 * exactly. An unbounded box (a root's) always does.
 */
export function shapeHits(
  shape: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  a: number,
  b: number,
  c: number,
  d: number,
): boolean {
  if (minX === NEG_INF) return true;
  return shape === CIRCLE
    ? boxIntersectsCircle(minX, minY, maxX, maxY, a, b, c)
    : boxIntersectsSegment(minX, minY, maxX, maxY, a, b, c, d);
}

/**
 * Writes into `out` from index `n` the slots of entries [from, to) whose boxes overlap
 * (minX, minY, maxX, maxY); returns the new count.
 */
export function scanRect(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  out: Int32Array,
  n: number,
): number {
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    // Branch-free: write the slot, keep it when it passes.
    out[n] = slot[e]!;
    n +=
      +(box[i]! <= maxX) & +(box[i + 1]! <= maxY) & +(box[i + 2]! >= minX) & +(box[i + 3]! >= minY);
  }
  return n;
}

/** Writes into `out` from index `n` the slots of entries [from, to); returns the new count. */
export function scanAll(
  slot: Int32Array,
  from: number,
  to: number,
  out: Int32Array,
  n: number,
): number {
  for (let e = from; e < to; e++) out[n++] = slot[e]!;
  return n;
}

/** Like `scanRect` for a circle or a segment (see `shapeHits`). */
export function scanShape(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  shape: number,
  a: number,
  b: number,
  c: number,
  d: number,
  out: Int32Array,
  n: number,
): number {
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    if (shapeHits(shape, box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, a, b, c, d))
      out[n++] = slot[e]!;
  }
  return n;
}

/**
 * Offers the slot of each entry of [from, to) within `maxDistance` of (x, y) to `best`, keyed by
 * its distance (`boxDistance`).
 */
export function scanNearest(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  x: number,
  y: number,
  maxDistance: number,
  best: KBest,
): void {
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    const d = boxDistance(box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, x, y);
    if (d <= maxDistance) best.offer(slot[e]!, d);
  }
}

/**
 * Calls `callback` for each overlapping pair within entries [from, to), and for each pair of one
 * of them and one of the frame entries [fs, fe) (of `fbox`, `fslot`) that overlap, frame first.
 */
export function scanPairs(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  fbox: Float64Array,
  fslot: Int32Array,
  fs: number,
  fe: number,
  callback: (a: number, b: number) => void,
): void {
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    const minX = box[i]!;
    const minY = box[i + 1]!;
    const maxX = box[i + 2]!;
    const maxY = box[i + 3]!;
    for (let f = e + 1; f < to; f++) {
      const j = 4 * f;
      if (box[j]! <= maxX && box[j + 1]! <= maxY && box[j + 2]! >= minX && box[j + 3]! >= minY) {
        callback(slot[e]!, slot[f]!);
      }
    }
    for (let f = fs; f < fe; f++) {
      const j = 4 * f;
      if (
        fbox[j]! <= maxX &&
        fbox[j + 1]! <= maxY &&
        fbox[j + 2]! >= minX &&
        fbox[j + 3]! >= minY
      ) {
        callback(fslot[f]!, slot[e]!);
      }
    }
  }
}

/**
 * Copies to `dbox`/`dslot` from index `n` the entries [from, to) of `sbox`/`sslot` whose boxes
 * overlap (minX, minY, maxX, maxY); returns the new count. The source and destination may be
 * the same arrays when n >= to.
 */
export function copyOverlapping(
  sbox: Float64Array,
  sslot: Int32Array,
  from: number,
  to: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  dbox: Float64Array,
  dslot: Int32Array,
  n: number,
): number {
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    const a = sbox[i]!;
    const b = sbox[i + 1]!;
    const c = sbox[i + 2]!;
    const d = sbox[i + 3]!;
    const j = 4 * n;
    dbox[j] = a;
    dbox[j + 1] = b;
    dbox[j + 2] = c;
    dbox[j + 3] = d;
    dslot[n] = sslot[e]!;
    n += +(a <= maxX) & +(b <= maxY) & +(c >= minX) & +(d >= minY);
  }
  return n;
}
