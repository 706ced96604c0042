// Slow references for the narrow phase: every shape as a list of boundary edges plus an exact
// inside test, discs by exact squared distances in BigInt, distances by plain vertex-to-edge
// minima. Deliberately written another way than the library (edges and vertices, no separating
// axes, distances to edge segments rather than to lines).

import type { Shape } from '../../src/index.js';
import { big, orientSign } from './exact-reference.js';
import {
  boxEdges,
  onSegmentSlow,
  regionsMeetSlow,
  segmentDistanceSlow,
  triangleContainsSlow,
  triangleEdges,
} from './triangle-reference.js';

type Polygonal = Exclude<Shape, { type: 'circle' }>;

/** The boundary edges of a polygonal shape, as [x0, y0, x1, y1]. */
export function edgesOf(s: Polygonal): number[][] {
  switch (s.type) {
    case 'point':
      return [[s.x, s.y, s.x, s.y]];
    case 'rect':
      return boxEdges(s.x, s.y, s.x + s.width, s.y + s.height);
    case 'segment':
      return [[s.x1, s.y1, s.x2, s.y2]];
    case 'triangle':
      return triangleEdges(s.ax, s.ay, s.bx, s.by, s.cx, s.cy);
    case 'polygon': {
      const p = [...s.points];
      const n = p.length / 2;
      return Array.from({ length: n }, (_, i) => {
        const j = (i + 1) % n;
        return [p[2 * i]!, p[2 * i + 1]!, p[2 * j]!, p[2 * j + 1]!];
      });
    }
  }
}

/** The vertices of a polygonal shape (with repeats). */
export function verticesOf(s: Polygonal): number[][] {
  return edgesOf(s).flatMap(([a, b, c, d]) => [
    [a!, b!],
    [c!, d!],
  ]);
}

/** Whether the closed polygonal shape contains the point, exactly. */
export function insideSlow(s: Polygonal, x: number, y: number): boolean {
  switch (s.type) {
    case 'point':
      return s.x === x && s.y === y;
    case 'rect':
      return s.x <= x && x <= s.x + s.width && s.y <= y && y <= s.y + s.height;
    case 'segment':
      return onSegmentSlow(s.x1, s.y1, s.x2, s.y2, x, y);
    case 'triangle':
      return triangleContainsSlow(s.ax, s.ay, s.bx, s.by, s.cx, s.cy, x, y);
    case 'polygon': {
      const edges = edgesOf(s);
      if (edges.some(([a, b, c, d]) => onSegmentSlow(a!, b!, c!, d!, x, y))) return true;
      const signs = edges.map(([a, b, c, d]) => orientSign(a!, b!, c!, d!, x, y));
      return signs.every((v) => v === signs[0] && v !== 0);
    }
  }
}

/** The exact sign of dist(p, segment e)^2 - r^2. */
export function segmentCircleSignSlow(e: number[], px: number, py: number, r: number): number {
  const [X0, Y0, X1, Y1, Px, Py, R] = [...e, px, py, r].map(big) as bigint[];
  const ex = X1! - X0!;
  const ey = Y1! - Y0!;
  const wx = Px! - X0!;
  const wy = Py! - Y0!;
  const dot = wx * ex + wy * ey;
  const len2 = ex * ex + ey * ey;
  const r2 = R! * R!;
  let v: bigint;
  if (dot <= 0n) v = wx * wx + wy * wy - r2;
  else if (dot >= len2) {
    const ux = Px! - X1!;
    const uy = Py! - Y1!;
    v = ux * ux + uy * uy - r2;
  } else {
    const cross = ex * wy - ey * wx;
    v = cross * cross - r2 * len2;
  }
  return v > 0n ? 1 : v < 0n ? -1 : 0;
}

/** The exact sign of |p - q|^2 - r^2. */
function pointSignSlow(px: number, py: number, qx: number, qy: number, r: number): number {
  const dx = big(px) - big(qx);
  const dy = big(py) - big(qy);
  const R = big(r);
  const v = dx * dx + dy * dy - R * R;
  return v > 0n ? 1 : v < 0n ? -1 : 0;
}

/** Whether two shapes intersect, slowly and exactly. */
export function intersectsSlow(a: Shape, b: Shape): boolean {
  if (a.type === 'circle' && b.type === 'circle') {
    const dx = big(a.x) - big(b.x);
    const dy = big(a.y) - big(b.y);
    const s = big(a.radius) + big(b.radius);
    return dx * dx + dy * dy <= s * s;
  }
  if (a.type === 'circle') return intersectsSlow(b, a);
  if (b.type === 'circle') {
    if (insideSlow(a, b.x, b.y)) return true;
    return edgesOf(a).some((e) => segmentCircleSignSlow(e, b.x, b.y, b.radius) <= 0);
  }
  return regionsMeetSlow(
    edgesOf(a),
    (x, y) => insideSlow(a, x, y),
    edgesOf(b),
    (x, y) => insideSlow(b, x, y),
  );
}

/** Whether shape a contains shape b, slowly and exactly. */
export function containsSlow(a: Shape, b: Shape): boolean {
  if (a.type === 'circle') {
    if (b.type === 'circle') {
      if (b.radius > a.radius) return false;
      const dx = big(a.x) - big(b.x);
      const dy = big(a.y) - big(b.y);
      const s = big(a.radius) - big(b.radius);
      return dx * dx + dy * dy <= s * s;
    }
    return verticesOf(b).every(([x, y]) => pointSignSlow(x!, y!, a.x, a.y, a.radius) <= 0);
  }
  if (b.type === 'circle') {
    // The centre inside, and no boundary edge closer than the radius.
    if (!insideSlow(a, b.x, b.y)) return false;
    return edgesOf(a).every((e) => segmentCircleSignSlow(e, b.x, b.y, b.radius) >= 0);
  }
  return verticesOf(b).every(([x, y]) => insideSlow(a, x!, y!));
}

/** The distance between two shapes by plain vertex-to-edge minima (a float reference). */
export function distanceSlow(a: Shape, b: Shape): number {
  if (intersectsSlow(a, b)) return 0;
  if (a.type === 'circle' && b.type === 'circle') {
    return Math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius;
  }
  if (a.type === 'circle') return distanceSlow(b, a);
  if (b.type === 'circle') {
    return Math.min(...edgesOf(a).map((e) => segmentDistanceSlow(e, b.x, b.y))) - b.radius;
  }
  let best = Number.POSITIVE_INFINITY;
  for (const [x, y] of verticesOf(a)) {
    for (const e of edgesOf(b)) best = Math.min(best, segmentDistanceSlow(e, x!, y!));
  }
  for (const [x, y] of verticesOf(b)) {
    for (const e of edgesOf(a)) best = Math.min(best, segmentDistanceSlow(e, x!, y!));
  }
  return best;
}
