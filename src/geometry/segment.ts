// Closed segment predicates, decided exactly by the signs of orient2d: an endpoint on the other
// segment, or a shared collinear stretch, counts as an intersection.

import { norm, rescaleFactor } from './metric.js';
import { orient2d } from './orient.js';

/** Whether the point (px, py) lies on the closed segment (x1, y1)-(x2, y2), exactly. */
export function segmentContainsPoint(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  px: number,
  py: number,
): boolean {
  // On the segment's line, within its bounding box (a zero-length segment: the point itself).
  if ((x1 < x2 ? x1 : x2) > px || (x1 > x2 ? x1 : x2) < px) return false;
  if ((y1 < y2 ? y1 : y2) > py || (y1 > y2 ? y1 : y2) < py) return false;
  return orient2d(x1, y1, x2, y2, px, py) === 0;
}

/**
 * Whether the closed segments (ax, ay)-(bx, by) and (cx, cy)-(dx, dy) intersect, decided exactly.
 * Touching at an endpoint and overlapping collinear segments count; a zero-length segment is a
 * point.
 *
 * @param ax - x of the first segment's start; `ay`, `bx`, `by` likewise.
 * @param cx - x of the second segment's start; `cy`, `dx`, `dy` likewise.
 */
export function segmentsIntersect(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  // The axes: the bounding boxes must overlap (this alone decides collinear pairs).
  if ((ax < bx ? ax : bx) > (cx > dx ? cx : dx) || (ax > bx ? ax : bx) < (cx < dx ? cx : dx)) {
    return false;
  }
  if ((ay < by ? ay : by) > (cy > dy ? cy : dy) || (ay > by ? ay : by) < (cy < dy ? cy : dy)) {
    return false;
  }
  // Each segment's line: the other segment must not lie strictly on one side of it.
  const c = orient2d(ax, ay, bx, by, cx, cy);
  const d = orient2d(ax, ay, bx, by, dx, dy);
  if ((c > 0 && d > 0) || (c < 0 && d < 0)) return false;
  const a = orient2d(cx, cy, dx, dy, ax, ay);
  const b = orient2d(cx, cy, dx, dy, bx, by);
  return !((a > 0 && b > 0) || (a < 0 && b < 0));
}

/**
 * Writes the point of the closed segment (x1, y1)-(x2, y2) closest to (px, py) to `out[0]`,
 * `out[1]` and returns the distance between them (Ericson, Real-Time Collision Detection, 2005,
 * §5.1.2: project onto the segment's line, then clamp to the endpoints).
 *
 * @param x1 - x of the segment's start; `y1`, `x2`, `y2` likewise.
 * @param px - x of the point; `py` its y.
 * @param out - receives the closest point's x and y.
 */
export function closestPointOnSegment(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  px: number,
  py: number,
  out: Float64Array,
): number {
  // Huge or tiny coordinates: work at a scale where the squares below stay finite and normal.
  const k = rescaleFactor(
    Math.max(Math.abs(x1), Math.abs(y1), Math.abs(x2), Math.abs(y2), Math.abs(px), Math.abs(py)),
  );
  if (k !== 1) {
    const d = closestPointOnSegment(k * x1, k * y1, k * x2, k * y2, k * px, k * py, out);
    out[0] = out[0]! / k;
    out[1] = out[1]! / k;
    return d / k;
  }
  const ex = x2 - x1;
  const ey = y2 - y1;
  // The projection's parameter, scaled by the squared length: clamp before dividing.
  const t = (px - x1) * ex + (py - y1) * ey;
  const len2 = ex * ex + ey * ey;
  let qx = x1;
  let qy = y1;
  if (t >= len2) {
    qx = x2;
    qy = y2;
  } else if (t > 0) {
    const f = t / len2;
    qx = x1 + f * ex;
    qy = y1 + f * ey;
  }
  out[0] = qx;
  out[1] = qy;
  return norm(px - qx, py - qy);
}
