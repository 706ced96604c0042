// Exact tests of one part (point, line or polygon with holes; see geojson.ts) against a query,
// on planar lon/lat coordinates, from the segment and orientation kernels of src/geometry: every
// side and touch decision is made by exact orientation (Shewchuk's orient2d), so points on a
// boundary, on a vertex or on a shared border are decided the same way every time.

import { circleIntersectsSegment } from '../geometry/circle.js';
import { orient2d } from '../geometry/orient.js';
import { boxIntersectsSegment } from '../geometry/rect.js';
import {
  closestPointOnSegment,
  segmentContainsPoint,
  segmentsIntersect,
} from '../geometry/segment.js';
import { bandOf } from './bands.js';
import { LINE_PART, type Parts, POINT_PART, POLYGON_PART } from './geojson.js';

/** Query shapes of `partMeets`. */
export const AT_POINT = 0;
export const IN_BOX = 1;
export const IN_CIRCLE = 2;
export const ON_SEGMENT = 3;

/** `pointInPolygon` answers. */
const OUTSIDE = 0;
const INSIDE = 1;
const BOUNDARY = 2;

/**
 * Where the point (x, y) lies in the polygon part p: OUTSIDE, INSIDE or on its BOUNDARY (any
 * ring's edge or vertex). Even-odd crossing count over all its rings (holes included) of a ray
 * from the point towards +x: an edge counts when it straddles the ray's line (one end strictly
 * above, the other not: the half-open rule, so a vertex on the ray is counted once) and the
 * point lies strictly on its left going up (on its right going down), by exact orientation.
 */
function pointInPolygon(parts: Parts, p: number, x: number, y: number): number {
  const { partRing, ringStart, bands } = parts;
  const n = bands.count[p]!;
  if (n > 0) {
    // Only the edges of the point's band can meet the ray's line.
    const band = bands.first[p]! + bandOf(y, bands.minY[p]!, bands.scale[p]!, n);
    return edgesCross(parts, bands.edges, bands.offsets[band]!, bands.offsets[band + 1]!, x, y);
  }
  let inside = false;
  for (let r = partRing[p]!; r < partRing[p + 1]!; r++) {
    const s = edgesCross(parts, null, ringStart[r]!, ringStart[r + 1]! - 1, x, y);
    if (s === BOUNDARY) return BOUNDARY;
    if (s === INSIDE) inside = !inside;
  }
  return inside ? INSIDE : OUTSIDE;
}

// The crossing parity (INSIDE for odd, OUTSIDE for even) of the edges whose first vertices are
// list[from..to) (or from..to themselves when list is null: a run of one ring), or BOUNDARY when
// the point is on one.
function edgesCross(
  parts: Parts,
  list: Int32Array | null,
  from: number,
  to: number,
  x: number,
  y: number,
): number {
  let inside = false;
  for (let i = from; i < to; i++) {
    const s = edgeCross(parts.xy, list === null ? i : list[i]!, x, y);
    if (s === BOUNDARY) return BOUNDARY;
    if (s === INSIDE) inside = !inside;
  }
  return inside ? INSIDE : OUTSIDE;
}

// Whether the edge v -> v + 1 crosses the ray from (x, y) towards +x (INSIDE), holds the point
// (BOUNDARY) or neither (OUTSIDE).
function edgeCross(xy: Float64Array, v: number, x: number, y: number): number {
  const ax = xy[2 * v]!;
  const ay = xy[2 * v + 1]!;
  const bx = xy[2 * v + 2]!;
  const by = xy[2 * v + 3]!;
  // Cheapest rejection first: an edge wholly above, below or left of the point.
  if ((ay > y && by > y) || (ay < y && by < y) || (ax < x && bx < x)) return OUTSIDE;
  if (ay > y !== by > y) {
    const o = orient2d(ax, ay, bx, by, x, y);
    if (o === 0) return BOUNDARY;
    return by > ay === o > 0 ? INSIDE : OUTSIDE;
  }
  return segmentContainsPoint(ax, ay, bx, by, x, y) ? BOUNDARY : OUTSIDE;
}

/**
 * Whether part p meets the query (closed sets: touching counts): AT_POINT, the point (a, b);
 * IN_BOX, the box (a, b)-(c, d); IN_CIRCLE, the disc of centre (a, b) and radius c; ON_SEGMENT,
 * the segment (a, b)-(c, d).
 */
export function partMeets(
  parts: Parts,
  p: number,
  shape: number,
  a: number,
  b: number,
  c: number,
  d: number,
): boolean {
  const kind = parts.kind[p]!;
  if (kind === POLYGON_PART && shape === AT_POINT)
    return pointInPolygon(parts, p, a, b) !== OUTSIDE;
  // A polygon may hold the query whole: test one point of the query inside it (the box's
  // corner, the circle's centre, the segment's start); else an edge must meet the query.
  if (kind === POLYGON_PART && pointInPolygon(parts, p, a, b) !== OUTSIDE) return true;
  const { partRing, ringStart, xy } = parts;
  for (let r = partRing[p]!; r < partRing[p + 1]!; r++) {
    const start = ringStart[r]!;
    // A point part's one vertex is a segment of length zero.
    const last = Math.max(ringStart[r + 1]! - 1, start + 1);
    for (let v = start; v < last; v++) {
      const w = kind === POINT_PART ? v : v + 1;
      if (edgeMeets(shape, xy[2 * v]!, xy[2 * v + 1]!, xy[2 * w]!, xy[2 * w + 1]!, a, b, c, d))
        return true;
    }
  }
  return false;
}

// Whether the closed segment (x1, y1)-(x2, y2) meets the query shape (see partMeets).
function edgeMeets(
  shape: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  a: number,
  b: number,
  c: number,
  d: number,
): boolean {
  if (shape === AT_POINT) return segmentContainsPoint(x1, y1, x2, y2, a, b);
  if (shape === IN_BOX) return boxIntersectsSegment(a, b, c, d, x1, y1, x2, y2);
  if (shape === IN_CIRCLE) return circleIntersectsSegment(a, b, c, x1, y1, x2, y2);
  return segmentsIntersect(x1, y1, x2, y2, a, b, c, d);
}

const CLOSEST = new Float64Array(2);

/**
 * The planar distance from (x, y) to part p: 0 inside a polygon or on any part, else the
 * distance to its nearest edge or vertex.
 */
export function partDistance(parts: Parts, p: number, x: number, y: number): number {
  const kind = parts.kind[p]!;
  if (kind === POLYGON_PART && pointInPolygon(parts, p, x, y) !== OUTSIDE) return 0;
  const { partRing, ringStart, xy } = parts;
  let best = Number.POSITIVE_INFINITY;
  for (let r = partRing[p]!; r < partRing[p + 1]!; r++) {
    const start = ringStart[r]!;
    const last = Math.max(ringStart[r + 1]! - 1, start + 1);
    for (let v = start; v < last; v++) {
      const w = kind === LINE_PART || kind === POLYGON_PART ? v + 1 : v;
      const dist = closestPointOnSegment(
        xy[2 * v]!,
        xy[2 * v + 1]!,
        xy[2 * w]!,
        xy[2 * w + 1]!,
        x,
        y,
        CLOSEST,
      );
      if (dist < best) best = dist;
    }
  }
  return best;
}
