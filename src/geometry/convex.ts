// Closed convex polygons as flat vertex lists [x0, y0, x1, y1, ...] of n vertices in positive
// (counter-clockwise with y up) order. n = 2 is a segment and n = 1 a point, so that boxes,
// segments, zero-area triangles and points go through the same code. Yes/no answers are exact:
// orient2d for the polygonal pairs, the exact disc tests of circle.ts for discs.

import { lineDistanceSign, pointCircleSign, segmentDistanceSign } from './circle.js';
import { norm } from './metric.js';
import { orient2d } from './orient.js';
import { closestPointOnSegment, segmentContainsPoint } from './segment.js';

const OUT = new Float64Array(2);

/**
 * Whether the closed convex polygons a (na vertices) and b (nb vertices) intersect, by the
 * separating axis theorem (Gottschalk, Lin and Manocha, "OBBTree", 1996; Ericson 2005, §5.2.1):
 * they are disjoint exactly when the coordinate axes or an edge line of one of them separates
 * them. An edge separates when every vertex of the other polygon lies strictly on its outer side.
 */
export function convexIntersects(
  a: Float64Array,
  na: number,
  b: Float64Array,
  nb: number,
): boolean {
  // The coordinate axes: the bounding boxes must overlap (this separates collinear degenerate
  // pairs, such as two segments on one line, that no edge normal separates).
  if (!boundsOverlap(a, na, b, nb)) return false;
  // The edge normals of each polygon (both sides of a segment; a point has none).
  return !anyEdgeSeparates(a, na, b, nb) && !anyEdgeSeparates(b, nb, a, na);
}

function boundsOverlap(a: Float64Array, na: number, b: Float64Array, nb: number): boolean {
  let aMinX = a[0]!;
  let aMaxX = aMinX;
  let aMinY = a[1]!;
  let aMaxY = aMinY;
  for (let i = 1; i < na; i++) {
    const x = a[2 * i]!;
    const y = a[2 * i + 1]!;
    if (x < aMinX) aMinX = x;
    else if (x > aMaxX) aMaxX = x;
    if (y < aMinY) aMinY = y;
    else if (y > aMaxY) aMaxY = y;
  }
  let left = true;
  let right = true;
  let below = true;
  let above = true;
  for (let i = 0; i < nb; i++) {
    const x = b[2 * i]!;
    const y = b[2 * i + 1]!;
    if (x >= aMinX) left = false;
    if (x <= aMaxX) right = false;
    if (y >= aMinY) below = false;
    if (y <= aMaxY) above = false;
  }
  return !(left || right || below || above);
}

/** Whether some edge of a has every vertex of b strictly on its outer (right) side. */
function anyEdgeSeparates(a: Float64Array, na: number, b: Float64Array, nb: number): boolean {
  if (na < 2) return false;
  for (let i = 0; i < na; i++) {
    const j = i + 1 === na ? 0 : i + 1;
    const x0 = a[2 * i]!;
    const y0 = a[2 * i + 1]!;
    const x1 = a[2 * j]!;
    const y1 = a[2 * j + 1]!;
    let separates = true;
    for (let k = 0; k < nb; k++) {
      if (orient2d(x0, y0, x1, y1, b[2 * k]!, b[2 * k + 1]!) >= 0) {
        separates = false;
        break;
      }
    }
    if (separates) return true;
  }
  return false;
}

/** Whether the closed convex polygon a contains the point (x, y), exactly. */
export function convexContainsPoint(a: Float64Array, na: number, x: number, y: number): boolean {
  if (na === 1) return a[0] === x && a[1] === y;
  if (na === 2) return segmentContainsPoint(a[0]!, a[1]!, a[2]!, a[3]!, x, y);
  for (let i = 0; i < na; i++) {
    const j = i + 1 === na ? 0 : i + 1;
    if (orient2d(a[2 * i]!, a[2 * i + 1]!, a[2 * j]!, a[2 * j + 1]!, x, y) < 0) return false;
  }
  return true;
}

/** Whether the closed convex polygon a contains the closed convex polygon b: all its vertices. */
export function convexContainsConvex(
  a: Float64Array,
  na: number,
  b: Float64Array,
  nb: number,
): boolean {
  for (let k = 0; k < nb; k++) {
    if (!convexContainsPoint(a, na, b[2 * k]!, b[2 * k + 1]!)) return false;
  }
  return true;
}

/**
 * The distance from the point (x, y) to the closed convex polygon a, 0 inside (decided exactly).
 * Outside, the closest point lies on an edge whose outer side holds the point.
 */
export function convexPointDistance(a: Float64Array, na: number, x: number, y: number): number {
  if (na === 1) return norm(x - a[0]!, y - a[1]!);
  if (na === 2) return closestPointOnSegment(a[0]!, a[1]!, a[2]!, a[3]!, x, y, OUT);
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < na; i++) {
    const j = i + 1 === na ? 0 : i + 1;
    const x0 = a[2 * i]!;
    const y0 = a[2 * i + 1]!;
    const x1 = a[2 * j]!;
    const y1 = a[2 * j + 1]!;
    if (orient2d(x0, y0, x1, y1, x, y) < 0) {
      const d = closestPointOnSegment(x0, y0, x1, y1, x, y, OUT);
      if (d < best) best = d;
    }
  }
  // No edge faces the point: it is inside.
  return best === Number.POSITIVE_INFINITY ? 0 : best;
}

/**
 * The distance between two disjoint closed convex polygons: the smallest distance from a vertex
 * of one to an edge of the other (a closest pair of points of two disjoint convex polygons always
 * includes a vertex of one of them).
 */
export function convexDistance(a: Float64Array, na: number, b: Float64Array, nb: number): number {
  const d = verticesToEdges(a, na, b, nb);
  const e = verticesToEdges(b, nb, a, na);
  return d < e ? d : e;
}

function verticesToEdges(a: Float64Array, na: number, b: Float64Array, nb: number): number {
  // A segment has one edge; a point is an edge of zero length.
  const edges = nb < 3 ? 1 : nb;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < edges; i++) {
    const j = i + 1 >= nb ? 0 : i + 1;
    const x0 = b[2 * i]!;
    const y0 = b[2 * i + 1]!;
    const x1 = b[2 * j]!;
    const y1 = b[2 * j + 1]!;
    for (let k = 0; k < na; k++) {
      const d = closestPointOnSegment(x0, y0, x1, y1, a[2 * k]!, a[2 * k + 1]!, OUT);
      if (d < best) best = d;
    }
  }
  return best;
}

/**
 * Whether the closed convex polygon a meets the closed disc of centre (x, y) and radius r,
 * exactly: the centre is inside, or an edge facing the centre comes within r of it.
 */
export function convexIntersectsCircle(
  a: Float64Array,
  na: number,
  x: number,
  y: number,
  r: number,
): boolean {
  if (na === 1) return pointCircleSign(a[0]!, a[1]!, x, y, r) <= 0;
  if (na === 2) return segmentDistanceSign(a[0]!, a[1]!, a[2]!, a[3]!, x, y, r) <= 0;
  let inside = true;
  for (let i = 0; i < na; i++) {
    const j = i + 1 === na ? 0 : i + 1;
    const x0 = a[2 * i]!;
    const y0 = a[2 * i + 1]!;
    const x1 = a[2 * j]!;
    const y1 = a[2 * j + 1]!;
    if (orient2d(x0, y0, x1, y1, x, y) < 0) {
      inside = false;
      if (segmentDistanceSign(x0, y0, x1, y1, x, y, r) <= 0) return true;
    }
  }
  return inside;
}

/**
 * Whether the closed convex polygon a contains the closed disc of centre (x, y) and radius r,
 * exactly: the centre lies on the inner side of every edge line, at distance r or more.
 */
export function convexContainsCircle(
  a: Float64Array,
  na: number,
  x: number,
  y: number,
  r: number,
): boolean {
  if (r === 0) return convexContainsPoint(a, na, x, y);
  if (na < 3) return false;
  for (let i = 0; i < na; i++) {
    const j = i + 1 === na ? 0 : i + 1;
    const x0 = a[2 * i]!;
    const y0 = a[2 * i + 1]!;
    const x1 = a[2 * j]!;
    const y1 = a[2 * j + 1]!;
    if (orient2d(x0, y0, x1, y1, x, y) <= 0) return false;
    if (lineDistanceSign(x0, y0, x1, y1, x, y, r) < 0) return false;
  }
  return true;
}

/** Whether the closed disc of centre (x, y) and radius r contains the convex polygon a. */
export function circleContainsConvex(
  x: number,
  y: number,
  r: number,
  a: Float64Array,
  na: number,
): boolean {
  for (let k = 0; k < na; k++) {
    if (pointCircleSign(a[2 * k]!, a[2 * k + 1]!, x, y, r) > 0) return false;
  }
  return true;
}
