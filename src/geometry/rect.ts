// Closed-interval predicates on boxes given as minX, minY, maxX, maxY. Touching boxes overlap and
// a point on an edge is inside: every index uses these same tests for nodes and for items, so
// pruning and testing can never disagree.

import { pointCircleSign } from './circle.js';
import { EPSILON } from './exact.js';
import { orient2d } from './orient.js';

/** Whether box a and box b overlap (closed: touching counts). */
export function boxesOverlap(
  aMinX: number,
  aMinY: number,
  aMaxX: number,
  aMaxY: number,
  bMinX: number,
  bMinY: number,
  bMaxX: number,
  bMaxY: number,
): boolean {
  return aMinX <= bMaxX && bMinX <= aMaxX && aMinY <= bMaxY && bMinY <= aMaxY;
}

/** Whether box a contains box b entirely (closed). */
export function boxContainsBox(
  aMinX: number,
  aMinY: number,
  aMaxX: number,
  aMaxY: number,
  bMinX: number,
  bMinY: number,
  bMaxX: number,
  bMaxY: number,
): boolean {
  return aMinX <= bMinX && aMinY <= bMinY && bMaxX <= aMaxX && bMaxY <= aMaxY;
}

/** Whether the box contains the point (x, y) (closed: edges count). */
export function boxContainsPoint(
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  x: number,
  y: number,
): boolean {
  return minX <= x && x <= maxX && minY <= y && y <= maxY;
}

/**
 * The squared distance from the point (x, y) to the box, 0 inside. Rounding is monotone, so a box
 * that contains another is never reported farther than it.
 */
export function boxDistanceSq(
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  x: number,
  y: number,
): number {
  const dx = x < minX ? minX - x : x > maxX ? x - maxX : 0;
  const dy = y < minY ? minY - y : y > maxY ? y - maxY : 0;
  return dx * dx + dy * dy;
}

/**
 * `boxDistanceSq` for the walks' hot loops, without a branch per axis (a coin-flip branch costs
 * more than the arithmetic): max(a, 0) is (a + |a|) / 2, exactly, and at most one side of each
 * axis of a box (min <= max) is positive. Each side is summed on its own: one of them is 0, so the
 * other is not rounded away. The same value as `boxDistanceSq` for finite boxes and points, but
 * NaN where a side is -Infinity (an infinite edge, or a difference that overflows), which every
 * caller takes as "decide exactly".
 * @internal
 */
export function boxGapSq(
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  x: number,
  y: number,
): number {
  const ax = minX - x;
  const bx = x - maxX;
  const ay = minY - y;
  const by = y - maxY;
  const dx = (ax + Math.abs(ax) + (bx + Math.abs(bx))) * 0.5;
  const dy = (ay + Math.abs(ay) + (by + Math.abs(by))) * 0.5;
  return dx * dx + dy * dy;
}

const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * The distance from the point (x, y) to the box, 0 inside: the correctly rounded
 * `sqrt(dx * dx + dy * dy)`, or `Math.hypot(dx, dy)` where the square would overflow or
 * underflow, so that distances of 1e300 or 1e-300 still rank right.
 */
export function boxDistance(
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  x: number,
  y: number,
): number {
  const dx = x < minX ? minX - x : x > maxX ? x - maxX : 0;
  const dy = y < minY ? minY - y : y > maxY ? y - maxY : 0;
  const d2 = dx * dx + dy * dy;
  if (d2 >= MIN_NORMAL && d2 < Number.POSITIVE_INFINITY) return Math.sqrt(d2);
  return dx === 0 && dy === 0 ? 0 : Math.hypot(dx, dy);
}

/**
 * Whether the box intersects the closed disc of centre (x, y) and radius r, decided exactly: a
 * floating-point filter, then exact arithmetic within a few ulps of tangency.
 */
export function boxIntersectsCircle(
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  x: number,
  y: number,
  r: number,
): boolean {
  if (r === Number.POSITIVE_INFINITY) return true;
  const d2 = boxDistanceSq(minX, minY, maxX, maxY, x, y);
  const r2 = r * r;
  // The filter trusts floating point only well inside the normal range, where its error is
  // relative: far from tangency, and away from overflow and subnormal squares.
  const tol = 8 * EPSILON * (d2 + r2);
  if (d2 + r2 > 1e-290 && d2 + r2 < 1e290) {
    if (d2 < r2 - tol) return true;
    if (d2 > r2 + tol) return false;
  }
  // Near tangency: the sign of (nearest point - centre)^2 - r^2, exactly.
  const nx = x < minX ? minX : x > maxX ? maxX : x;
  const ny = y < minY ? minY : y > maxY ? maxY : y;
  return pointCircleSign(nx, ny, x, y, r) <= 0;
}

/**
 * Whether the closed segment (x1, y1)-(x2, y2) intersects the box, decided exactly (separating
 * axes: the two box axes, then the segment's normal by exact orientation of the four corners).
 * A zero-length segment is a point.
 */
export function boxIntersectsSegment(
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): boolean {
  // The box axes: the segment's bounding box must overlap the box.
  if ((x1 < x2 ? x1 : x2) > maxX || (x1 > x2 ? x1 : x2) < minX) return false;
  if ((y1 < y2 ? y1 : y2) > maxY || (y1 > y2 ? y1 : y2) < minY) return false;
  // An axis-parallel segment (or a point) is decided by the box axes alone.
  if (x1 === x2 || y1 === y2) return true;
  // The segment's normal: the corners must not all lie strictly on one side of its line.
  const a = orient2d(x1, y1, x2, y2, minX, minY);
  const b = orient2d(x1, y1, x2, y2, maxX, minY);
  if ((a > 0 && b < 0) || (a < 0 && b > 0) || a === 0 || b === 0) return true;
  const c = orient2d(x1, y1, x2, y2, maxX, maxY);
  if (a > 0 ? c <= 0 : c >= 0) return true;
  const d = orient2d(x1, y1, x2, y2, minX, maxY);
  return a > 0 ? d <= 0 : d >= 0;
}

/**
 * The smallest parameter t in [0, 1] at which the segment (x1, y1) to (x2, y2) meets the closed
 * box: 0 when the start is inside, -1 when the segment misses it. Hit or miss is decided exactly
 * and always agrees with {@link boxIntersectsSegment}; t itself is rounded (the slab method of
 * Williams, Barrus, Morley and Shirley, "An Efficient and Robust Ray-Box Intersection Algorithm",
 * 2005).
 *
 * @param minX - the box's left edge; `minY`, `maxX`, `maxY` likewise.
 * @param x1 - x of the segment's start; `y1`, `x2`, `y2` likewise.
 */
export function segmentBoxEntry(
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): number {
  if (!boxIntersectsSegment(minX, minY, maxX, maxY, x1, y1, x2, y2)) return -1;
  if (minX <= x1 && x1 <= maxX && minY <= y1 && y1 <= maxY) return 0;
  // The entry is where the segment has crossed into the last of the two slabs: the later of the
  // near-side crossings. A segment parallel to a slab lies within it (it hits the box), so that
  // slab is skipped rather than divided by a zero of either sign.
  const dx = x2 - x1;
  const dy = y2 - y1;
  if (!(Math.abs(dx) < Number.POSITIVE_INFINITY && Math.abs(dy) < Number.POSITIVE_INFINITY)) {
    // A difference past the largest double: the same parameter at half the scale.
    return segmentBoxEntry(minX / 2, minY / 2, maxX / 2, maxY / 2, x1 / 2, y1 / 2, x2 / 2, y2 / 2);
  }
  let t = 0;
  if (dx !== 0) {
    const tx = ((dx < 0 ? maxX : minX) - x1) / dx;
    if (tx > t) t = tx;
  }
  if (dy !== 0) {
    const ty = ((dy < 0 ? maxY : minY) - y1) / dy;
    if (ty > t) t = ty;
  }
  return t < 1 ? t : 1;
}
