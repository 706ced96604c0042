// Closed triangle predicates and distances. A triangle is six numbers ax, ay, bx, by, cx, cy in
// either winding; its edges and vertices belong to it. A zero-area triangle is its hull: a segment
// or a point. Every yes/no answer is decided exactly from the signs of orient2d.

import { crossingParameter, orient2d, orientValue } from './orient.js';
import { boxIntersectsSegment } from './rect.js';
import { closestPointOnSegment, segmentContainsPoint, segmentsIntersect } from './segment.js';

/**
 * Whether the closed triangle abc contains the point (px, py), decided exactly. Points on an edge
 * or a vertex are inside; a zero-area triangle contains exactly the points of its hull segment.
 *
 * @param ax - x of the first vertex; `ay`, `bx`, `by`, `cx`, `cy` likewise, in either winding.
 * @param px - x of the point; `py` its y.
 */
export function triangleContainsPoint(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  px: number,
  py: number,
): boolean {
  return containsPoint(ax, ay, bx, by, cx, cy, orient2d(ax, ay, bx, by, cx, cy), px, py);
}

/** triangleContainsPoint, given the triangle's orientation `s` (the sign of orient2d(a, b, c)). */
function containsPoint(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  s: number,
  px: number,
  py: number,
): boolean {
  if (s === 0) {
    // Zero area: the union of the three edges is the hull.
    return (
      segmentContainsPoint(ax, ay, bx, by, px, py) ||
      segmentContainsPoint(bx, by, cx, cy, px, py) ||
      segmentContainsPoint(cx, cy, ax, ay, px, py)
    );
  }
  // Inside or on every edge: no edge sees the point on the side opposite the third vertex.
  const o1 = orient2d(ax, ay, bx, by, px, py);
  if (s > 0 ? o1 < 0 : o1 > 0) return false;
  const o2 = orient2d(bx, by, cx, cy, px, py);
  if (s > 0 ? o2 < 0 : o2 > 0) return false;
  const o3 = orient2d(cx, cy, ax, ay, px, py);
  return s > 0 ? o3 >= 0 : o3 <= 0;
}

/**
 * Whether the closed triangle abc and the closed box intersect, decided exactly (separating axes:
 * the two box axes, then each edge's normal, tested on the box corner farthest inside that edge).
 *
 * @param ax - x of the first vertex; `ay`, `bx`, `by`, `cx`, `cy` likewise, in either winding.
 * @param minX - the box's left edge; `minY`, `maxX`, `maxY` likewise (a zero-size box is a point).
 */
export function triangleIntersectsBox(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): boolean {
  // The box axes: the triangle's bounding box must overlap the box.
  if (ax < minX && bx < minX && cx < minX) return false;
  if (ax > maxX && bx > maxX && cx > maxX) return false;
  if (ay < minY && by < minY && cy < minY) return false;
  if (ay > maxY && by > maxY && cy > maxY) return false;
  const s = orient2d(ax, ay, bx, by, cx, cy);
  if (s === 0) {
    // Zero area: the hull is the union of the edges.
    return (
      boxIntersectsSegment(minX, minY, maxX, maxY, ax, ay, bx, by) ||
      boxIntersectsSegment(minX, minY, maxX, maxY, bx, by, cx, cy) ||
      boxIntersectsSegment(minX, minY, maxX, maxY, cx, cy, ax, ay)
    );
  }
  // The edge normals: the box must reach the inner side of every edge line.
  return (
    boxReachesInside(ax, ay, bx, by, s, minX, minY, maxX, maxY) &&
    boxReachesInside(bx, by, cx, cy, s, minX, minY, maxX, maxY) &&
    boxReachesInside(cx, cy, ax, ay, s, minX, minY, maxX, maxY)
  );
}

/**
 * Whether some corner of the box lies on the closed inner side of the directed edge (x0, y0) to
 * (x1, y1) of a triangle of orientation s. Only the corner farthest along the inward normal needs
 * testing; the signs of the edge's coordinate differences, exact in floating point, choose it.
 */
function boxReachesInside(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  s: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): boolean {
  const ex = x1 - x0;
  const ey = y1 - y0;
  // Inward normal: (-ey, ex) for a counter-clockwise triangle, (ey, -ex) for a clockwise one.
  const qx = (s > 0 ? ey < 0 : ey > 0) ? maxX : minX;
  const qy = (s > 0 ? ex > 0 : ex < 0) ? maxY : minY;
  const o = orient2d(x0, y0, x1, y1, qx, qy);
  return s > 0 ? o >= 0 : o <= 0;
}

/**
 * Whether the closed triangle abc and the closed segment (x1, y1)-(x2, y2) intersect, decided
 * exactly (separating axes: the triangle's edge normals and the segment's normal). A zero-length
 * segment is a point.
 *
 * @param ax - x of the first vertex; `ay`, `bx`, `by`, `cx`, `cy` likewise, in either winding.
 * @param x1 - x of the segment's start; `y1`, `x2`, `y2` likewise.
 */
export function triangleIntersectsSegment(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): boolean {
  const s = orient2d(ax, ay, bx, by, cx, cy);
  return intersectsSegment(ax, ay, bx, by, cx, cy, s, x1, y1, x2, y2);
}

/** triangleIntersectsSegment, given the triangle's orientation `s`. */
function intersectsSegment(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  s: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): boolean {
  // The box axes: a cheap rejection of far segments.
  if (x1 < x2) {
    if ((ax < x1 && bx < x1 && cx < x1) || (ax > x2 && bx > x2 && cx > x2)) return false;
  } else if ((ax < x2 && bx < x2 && cx < x2) || (ax > x1 && bx > x1 && cx > x1)) return false;
  if (y1 < y2) {
    if ((ay < y1 && by < y1 && cy < y1) || (ay > y2 && by > y2 && cy > y2)) return false;
  } else if ((ay < y2 && by < y2 && cy < y2) || (ay > y1 && by > y1 && cy > y1)) return false;
  if (s === 0) {
    // Zero area: the hull is the union of the edges.
    return (
      segmentsIntersect(ax, ay, bx, by, x1, y1, x2, y2) ||
      segmentsIntersect(bx, by, cx, cy, x1, y1, x2, y2) ||
      segmentsIntersect(cx, cy, ax, ay, x1, y1, x2, y2)
    );
  }
  // The edge normals: both endpoints strictly outside one edge line separate.
  if (bothOutside(ax, ay, bx, by, s, x1, y1, x2, y2)) return false;
  if (bothOutside(bx, by, cx, cy, s, x1, y1, x2, y2)) return false;
  if (bothOutside(cx, cy, ax, ay, s, x1, y1, x2, y2)) return false;
  // The segment's normal: all three vertices strictly on one side of its line separate.
  const oa = orient2d(x1, y1, x2, y2, ax, ay);
  const ob = orient2d(x1, y1, x2, y2, bx, by);
  const oc = orient2d(x1, y1, x2, y2, cx, cy);
  return !((oa > 0 && ob > 0 && oc > 0) || (oa < 0 && ob < 0 && oc < 0));
}

/** Whether both points lie strictly outside the directed edge of a triangle of orientation s. */
function bothOutside(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  s: number,
  px: number,
  py: number,
  qx: number,
  qy: number,
): boolean {
  const p = orient2d(x0, y0, x1, y1, px, py);
  if (s > 0 ? p >= 0 : p <= 0) return false;
  const q = orient2d(x0, y0, x1, y1, qx, qy);
  return s > 0 ? q < 0 : q > 0;
}

/**
 * The smallest parameter t in [0, 1] at which the segment (x1, y1) to (x2, y2) meets the closed
 * triangle abc: 0 when the start is inside, -1 when the segment misses it. Hit or miss is decided
 * exactly and always agrees with {@link triangleIntersectsSegment}; t itself is rounded
 * (Cyrus and Beck 1978 clipping against the three edge lines).
 *
 * @param ax - x of the first vertex; `ay`, `bx`, `by`, `cx`, `cy` likewise, in either winding.
 * @param x1 - x of the segment's start; `y1`, `x2`, `y2` likewise.
 */
export function segmentTriangleEntry(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): number {
  const s = orient2d(ax, ay, bx, by, cx, cy);
  if (!intersectsSegment(ax, ay, bx, by, cx, cy, s, x1, y1, x2, y2)) return -1;
  if (containsPoint(ax, ay, bx, by, cx, cy, s, x1, y1)) return 0;
  // (No rescaling of huge or tiny coordinates, which would underflow the tiny ones beside huge
  // ones: the distances below come exact in sign and, where a double cannot hold them, the
  // parameter from exact integers.)
  if (s === 0) {
    // Zero area: the first edge met along the segment.
    let t = 1;
    if (segmentsIntersect(ax, ay, bx, by, x1, y1, x2, y2)) {
      t = Math.min(t, segmentEntry(ax, ay, bx, by, x1, y1, x2, y2));
    }
    if (segmentsIntersect(bx, by, cx, cy, x1, y1, x2, y2)) {
      t = Math.min(t, segmentEntry(bx, by, cx, cy, x1, y1, x2, y2));
    }
    if (segmentsIntersect(cx, cy, ax, ay, x1, y1, x2, y2)) {
      t = Math.min(t, segmentEntry(cx, cy, ax, ay, x1, y1, x2, y2));
    }
    return t;
  }
  // The segment enters the triangle when it has crossed into the last of the edge half-planes.
  let t = 0;
  t = enterHalfPlane(ax, ay, bx, by, s, x1, y1, x2, y2, t);
  t = enterHalfPlane(bx, by, cx, cy, s, x1, y1, x2, y2, t);
  t = enterHalfPlane(cx, cy, ax, ay, s, x1, y1, x2, y2, t);
  return t > 1 ? 1 : t;
}

/**
 * The later of `t` and the parameter at which the segment crosses into the inner side of the
 * directed edge (x0, y0) to (x1, y1) of a triangle of orientation s (when it starts outside).
 * Called only for a segment that meets the triangle: one that starts strictly outside an edge's
 * half-plane ends inside it or on its line.
 */
function enterHalfPlane(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  s: number,
  px: number,
  py: number,
  qx: number,
  qy: number,
  t: number,
): number {
  // Signed distances (times the edge length) of the endpoints, positive outside, with exact
  // signs: a start outside by less than the rounding of a plain cross product is still outside.
  const d0 = s > 0 ? -orientValue(x0, y0, x1, y1, px, py) : orientValue(x0, y0, x1, y1, px, py);
  if (d0 <= 0) return t;
  const d1 = s > 0 ? -orientValue(x0, y0, x1, y1, qx, qy) : orientValue(x0, y0, x1, y1, qx, qy);
  // (d1 <= 0, so 0 < te <= 1, and te = 1 when the segment ends on the edge's line.)
  const te = crossingParameter(x0, y0, x1, y1, px, py, qx, qy, d0, d1);
  return te > t ? te : t;
}

/**
 * The parameter at which the segment p to q first meets the segment (x0, y0)-(x1, y1), given
 * that they intersect and p is not on it.
 */
function segmentEntry(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  px: number,
  py: number,
  qx: number,
  qy: number,
): number {
  // Signed distances (times the edge length) of p and q from the edge's line, with exact signs.
  const d0 = orientValue(x0, y0, x1, y1, px, py);
  const d1 = orientValue(x0, y0, x1, y1, qx, qy);
  if (d0 === 0 && d1 === 0) {
    // Collinear (or the edge is a point): the nearer end of the edge, along p to q, measured on
    // the axis it moves most along (no squared length, which a tiny segment underflows), at half
    // the scale where a difference passes the largest double.
    const dx = qx - px;
    const dy = qy - py;
    if (!(Math.abs(dx) < Number.POSITIVE_INFINITY && Math.abs(dy) < Number.POSITIVE_INFINITY)) {
      return segmentEntry(x0 / 2, y0 / 2, x1 / 2, y1 / 2, px / 2, py / 2, qx / 2, qy / 2);
    }
    const alongX = (dx < 0 ? -dx : dx) >= (dy < 0 ? -dy : dy);
    const t0 = alongX ? (x0 - px) / dx : (y0 - py) / dy;
    const t1 = alongX ? (x1 - px) / dx : (y1 - py) / dy;
    return clamp01(t0 < t1 ? t0 : t1);
  }
  // Crossing: where the distance to the edge line reaches 0.
  return clamp01(crossingParameter(x0, y0, x1, y1, px, py, qx, qy, d0, d1));
}

/** t clamped to [0, 1], with NaN taken as 0. */
function clamp01(t: number): number {
  return t > 0 ? (t < 1 ? t : 1) : 0;
}

const SCRATCH = new Float64Array(2);

/**
 * Writes the point of the closed triangle abc closest to (px, py) to `out[0]`, `out[1]` and
 * returns the Euclidean distance between them: 0, and the point itself, when it is inside
 * (decided exactly). Outside, the closest point lies in the Voronoi region of a vertex or an edge
 * (Ericson, Real-Time Collision Detection, 2005, §5.1.5), and always on an edge whose outer side
 * holds the point; those edges are chosen exactly by orient2d and each is projected onto as in
 * §5.1.2, which stays accurate for slivers where the book's rounded region tests do not. The
 * distance is rounded: a point outside by less than the rounding of the coordinates can read 0
 * too (triangleContainsPoint tells inside exactly).
 *
 * @param ax - x of the first vertex; `ay`, `bx`, `by`, `cx`, `cy` likewise, in either winding.
 * @param px - x of the point; `py` its y.
 * @param out - receives the closest point's x and y.
 */
export function closestPointOnTriangle(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  px: number,
  py: number,
  out: Float64Array,
): number {
  const s = orient2d(ax, ay, bx, by, cx, cy);
  // The edges that face the point: on zero area all three (unless the point is on the hull).
  let facing = 7;
  if (s === 0) {
    if (containsPoint(ax, ay, bx, by, cx, cy, 0, px, py)) facing = 0;
  } else {
    const o1 = orient2d(ax, ay, bx, by, px, py);
    const o2 = orient2d(bx, by, cx, cy, px, py);
    const o3 = orient2d(cx, cy, ax, ay, px, py);
    facing =
      ((s > 0 ? o1 < 0 : o1 > 0) ? 1 : 0) |
      ((s > 0 ? o2 < 0 : o2 > 0) ? 2 : 0) |
      ((s > 0 ? o3 < 0 : o3 > 0) ? 4 : 0);
  }
  // Inside: the point itself.
  if (facing === 0) {
    out[0] = px;
    out[1] = py;
    return 0;
  }
  // Outside: the closest of the facing edges.
  let best = Number.POSITIVE_INFINITY;
  if (facing & 1) best = closestPointOnSegment(ax, ay, bx, by, px, py, out);
  if (facing & 2) best = closer(best, closestPointOnSegment(bx, by, cx, cy, px, py, SCRATCH), out);
  if (facing & 4) best = closer(best, closestPointOnSegment(cx, cy, ax, ay, px, py, SCRATCH), out);
  return best;
}

/** Keeps the closer of the best so far (in `out`) and the candidate in SCRATCH at distance d. */
function closer(best: number, d: number, out: Float64Array): number {
  if (d >= best) return best;
  out[0] = SCRATCH[0]!;
  out[1] = SCRATCH[1]!;
  return d;
}
