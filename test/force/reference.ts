/**
 * Reference figures for the many-body force: the exact O(n²) sum with d3-force's per-pair rule,
 * the force a force object adds in one tick, the error of one against the other, and a layout's
 * energy.
 */

import type { ManyBodyForce } from '../../src/force.js';

/** A simulation node. */
export interface Body {
  x: number;
  y: number;
  vx: number;
  vy: number;
  index?: number;
}

/** Per-pair options of the exact sum. */
export interface PairRule {
  strength: (i: number) => number;
  distanceMin?: number;
  distanceMax?: number;
}

/**
 * The exact force on each node (alpha = 1), d3-force's per-pair rule: other node j pulls by
 * s_j * d / l with l the squared distance raised to sqrt(dmin² l) below dmin², ignored at dmax²
 * or beyond. Also returns, per node, the sum of the magnitudes of its terms (the scale of the
 * rounding error of any summation order). Nodes must not be level on an axis (no jiggle).
 */
export function exactForces(
  nodes: readonly Body[],
  rule: PairRule,
): { fx: Float64Array; fy: Float64Array; scale: Float64Array } {
  const n = nodes.length;
  const dmin2 = (rule.distanceMin ?? 1) ** 2;
  const dmax2 = (rule.distanceMax ?? Number.POSITIVE_INFINITY) ** 2;
  const s = new Float64Array(n);
  for (let j = 0; j < n; j++) s[j] = rule.strength(j);
  const fx = new Float64Array(n);
  const fy = new Float64Array(n);
  const scale = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = nodes[i]!;
    let x = 0;
    let y = 0;
    let m = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const dx = nodes[j]!.x - a.x;
      const dy = nodes[j]!.y - a.y;
      let l = dx * dx + dy * dy;
      if (l >= dmax2) continue;
      if (l < dmin2) l = Math.sqrt(dmin2 * l);
      const w = s[j]! / l;
      x += dx * w;
      y += dy * w;
      m += Math.abs(w) * Math.sqrt(dx * dx + dy * dy);
    }
    fx[i] = x;
    fy[i] = y;
    scale[i] = m;
  }
  return { fx, fy, scale };
}

/** A d3-force-like force (d3's or quadkit's). */
export type AnyForce = Pick<ManyBodyForce<Body>, 'initialize'> & ((alpha: number) => void);

/**
 * The velocity one tick of `force` (alpha = 1) adds to each of copies of `nodes`, with the
 * random source `random`.
 */
export function tickForces(
  force: AnyForce,
  nodes: readonly Body[],
  random: () => number = () => 0.5,
): { fx: Float64Array; fy: Float64Array } {
  const copies = nodes.map((b, index) => ({ x: b.x, y: b.y, vx: 0, vy: 0, index }));
  force.initialize(copies, random);
  force(1);
  return {
    fx: Float64Array.from(copies, (b) => b.vx),
    fy: Float64Array.from(copies, (b) => b.vy),
  };
}

/** Mean and max over nodes of |F - exact| / |exact|. */
export function relativeError(
  f: { fx: Float64Array; fy: Float64Array },
  exact: { fx: Float64Array; fy: Float64Array },
): { mean: number; max: number } {
  const n = f.fx.length;
  let sum = 0;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.hypot(f.fx[i]! - exact.fx[i]!, f.fy[i]! - exact.fy[i]!);
    const r = e / Math.hypot(exact.fx[i]!, exact.fy[i]!);
    sum += r;
    if (r > max) max = r;
  }
  return { mean: sum / n, max };
}

/** Random nodes in a square of side `size`, from a seeded generator. */
export function randomBodies(n: number, size: number, rng: () => number): Body[] {
  return Array.from({ length: n }, (_, index) => ({
    x: rng() * size,
    y: rng() * size,
    vx: 0,
    vy: 0,
    index,
  }));
}

/**
 * The energy of a layout with one strength s for every node: the springs' (k/2 (d - L)² per link,
 * as d3's forceLink with strength k and distance L pulls) plus the many-body potential of which
 * d3's force is minus the gradient: s ln r per pair at distance r, and below distanceMin (where
 * the force is held at s / dmin) s (r / dmin + ln dmin - 1), continuous at dmin.
 */
export function layoutEnergy(
  nodes: readonly Body[],
  links: readonly { source: number; target: number }[],
  spring: { strength: number; distance: number },
  strength: number,
  distanceMin = 1,
): number {
  let e = 0;
  for (const { source, target } of links) {
    const a = nodes[source]!;
    const b = nodes[target]!;
    const d = Math.hypot(b.x - a.x, b.y - a.y) - spring.distance;
    e += 0.5 * spring.strength * d * d;
  }
  const n = nodes.length;
  const c = Math.log(distanceMin) - 1;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const r = Math.hypot(nodes[j]!.x - nodes[i]!.x, nodes[j]!.y - nodes[i]!.y);
      e += r < distanceMin ? strength * (r / distanceMin + c) : strength * Math.log(r);
    }
  }
  return e;
}
