// Slow references for the triangle and segment-entry tests: the closed shapes are handled as a
// list of boundary edges (a convex polygon's, or a zero-area triangle's three edges), every
// decision in BigInt arithmetic, and entry parameters as exact fractions.

import { big, orientSign, segmentsIntersect } from './exact-reference.js';

/** Whether p lies on the closed segment ab, exactly. */
export function onSegmentSlow(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  px: number,
  py: number,
): boolean {
  return segmentsIntersect(ax, ay, bx, by, px, py, px, py);
}

/** The edges of the triangle abc as [x0, y0, x1, y1] quadruples. */
export function triangleEdges(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number[][] {
  return [
    [ax, ay, bx, by],
    [bx, by, cx, cy],
    [cx, cy, ax, ay],
  ];
}

/** Whether the closed triangle contains p: on an edge, or strictly on the inner side of all three. */
export function triangleContainsSlow(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  px: number,
  py: number,
): boolean {
  for (const [x0, y0, x1, y1] of triangleEdges(ax, ay, bx, by, cx, cy)) {
    if (onSegmentSlow(x0!, y0!, x1!, y1!, px, py)) return true;
  }
  const s1 = orientSign(ax, ay, bx, by, px, py);
  const s2 = orientSign(bx, by, cx, cy, px, py);
  const s3 = orientSign(cx, cy, ax, ay, px, py);
  return s1 !== 0 && s1 === s2 && s2 === s3;
}

/**
 * Whether two closed convex regions, each given by its boundary edges and an inside test, meet:
 * a vertex of one inside the other, or two boundary edges crossing.
 */
export function regionsMeetSlow(
  edgesA: number[][],
  insideA: (x: number, y: number) => boolean,
  edgesB: number[][],
  insideB: (x: number, y: number) => boolean,
): boolean {
  for (const [x, y] of edgesA) if (insideB(x!, y!)) return true;
  for (const [x, y] of edgesB) if (insideA(x!, y!)) return true;
  for (const [a, b, c, d] of edgesA) {
    for (const [e, f, g, h] of edgesB) {
      if (segmentsIntersect(a!, b!, c!, d!, e!, f!, g!, h!)) return true;
    }
  }
  return false;
}

/** The four edges of a box (degenerate ones included). */
export function boxEdges(minX: number, minY: number, maxX: number, maxY: number): number[][] {
  return [
    [minX, minY, maxX, minY],
    [maxX, minY, maxX, maxY],
    [maxX, maxY, minX, maxY],
    [minX, maxY, minX, minY],
  ];
}

/** An exact fraction num/den with den > 0. */
export interface Fraction {
  num: bigint;
  den: bigint;
}

/** A fraction's nearest double (to about 2^-60 relative). */
export function fractionValue(f: Fraction): number {
  const neg = f.num < 0n;
  const n = neg ? -f.num : f.num;
  if (n === 0n) return 0;
  let shift = 0n;
  while (n << shift < f.den << 64n) shift += 32n;
  const v = Number((n << shift) / f.den) / 2 ** Number(shift);
  return neg ? -v : v;
}

function less(a: Fraction, b: Fraction): boolean {
  return a.num * b.den < b.num * a.den;
}

/**
 * The exact parameter at which the segment p to q first meets the closed segment e0-e1 (assumed
 * to intersect it), or null when they do not intersect.
 */
export function segmentEntrySlow(
  px: number,
  py: number,
  qx: number,
  qy: number,
  e: number[],
): Fraction | null {
  const [x0, y0, x1, y1] = e as [number, number, number, number];
  if (!segmentsIntersect(px, py, qx, qy, x0, y0, x1, y1)) return null;
  const [Px, Py, Qx, Qy, X0, Y0, X1, Y1] = [px, py, qx, qy, x0, y0, x1, y1].map(big) as bigint[];
  const dx = Qx! - Px!;
  const dy = Qy! - Py!;
  const ex = X1! - X0!;
  const ey = Y1! - Y0!;
  const cross = dx * ey - dy * ex;
  if (cross !== 0n) {
    // Lines cross: solve P + t d = E0 + u e for t.
    const num = (X0! - Px!) * ey - (Y0! - Py!) * ex;
    return cross > 0n ? { num, den: cross } : { num: -num, den: -cross };
  }
  // Parallel and touching: collinear, or the edge is a point. The nearer end of the edge on d
  // (the start is not on the edge, so both ends lie ahead of it).
  const den = dx * dx + dy * dy;
  if (den === 0n) return { num: 0n, den: 1n };
  const t0 = { num: (X0! - Px!) * dx + (Y0! - Py!) * dy, den };
  const t1 = { num: (X1! - Px!) * dx + (Y1! - Py!) * dy, den };
  const t = less(t0, t1) ? t0 : t1;
  return t.num < 0n ? { num: 0n, den: 1n } : t;
}

/**
 * The exact entry parameter of the segment p to q into a closed convex region given by its
 * boundary edges and an inside test: 0 when p is inside, null when it misses.
 */
export function regionEntrySlow(
  edges: number[][],
  inside: (x: number, y: number) => boolean,
  px: number,
  py: number,
  qx: number,
  qy: number,
): Fraction | null {
  if (inside(px, py)) return { num: 0n, den: 1n };
  let best: Fraction | null = null;
  for (const e of edges) {
    const t = segmentEntrySlow(px, py, qx, qy, e);
    if (t !== null && (best === null || less(t, best))) best = t;
  }
  return best;
}

/** The distance from p to the closed segment e0-e1, by plain projection (a float reference). */
export function segmentDistanceSlow(e: number[], px: number, py: number): number {
  const [x0, y0, x1, y1] = e as [number, number, number, number];
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - x0) * dx + (py - y0) * dy) / len2;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(px - (x0 + t * dx), py - (y0 + t * dy));
}
