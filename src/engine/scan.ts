// The entry kernels every index shares. Query numbers come in a Float64Array at an offset, not
// as arguments: V8 boxes a double passed to (or returned from) a call it does not inline, and the
// frame loop and the *Into queries must not allocate. The kernels for entries that are points
// are in scan-points.ts, the nearest-first scan in scan-nearest.ts, the pair scans in
// scan-pairs.ts.
//
// A node, cell or leaf holds a run of entries: boxes (4 doubles each, minX, minY, maxX, maxY)
// and item slots, side by side. A query tests a run against its shape; the walks over nodes
// differ per index, these loops over entries do not.

import {
  boxDistance,
  boxIntersectsCircle,
  boxIntersectsSegment,
  segmentBoxEntry,
} from '../geometry/rect.js';
import { havBoxBound } from '../geometry/sphere.js';

/** Query shapes of `shapeHits`/`scanShape`. */
export const CIRCLE = 0;
export const SEGMENT = 1;

/**
 * Metrics of best-first search (`boxKey`): the distance from a point (q = x, y, maxDistance),
 * where a segment first meets a box (q = x1, y1, x2, y2), for ray casts, or the great-circle
 * distance from a lon/lat point in degrees as the haversine of its central angle (q = lon, lat,
 * cos(lat), unused, largest haversine kept; see sphere.ts).
 */
export const POINT = 0;
export const RAY = 1;
export const GEO = 2;
/**
 * A node's key is multiplied by this in best-first walks: shaded by a few ulps, so that rounding
 * never ranks a node behind an item inside it.
 */
export const NODE_SHADE = 1 - 2 ** -50;

/**
 * The slot table that stands for the entries' own positions: a kernel given it writes entry e
 * as e (the packed tree over items answers leaf positions; no table of 0, 1, 2, ... to read).
 */
export const POSITIONS = new Int32Array(0);

const NEG_INF = Number.NEGATIVE_INFINITY;
const INF = Number.POSITIVE_INFINITY;

/**
 * The key of a box in a best-first search. POINT: its distance from the point (a, b). RAY: the
 * parameter t in [0, 1] at which the segment (a, b)-(c, d) first meets it (0 when it starts
 * inside), or Infinity when it misses (decided exactly). GEO: a lower bound on the haversine of
 * the central angle from (lon a, lat b), whose cosine of latitude is c, to any point of the box
 * (`geoItemKey` gives items theirs).
 */
export function boxKey(
  metric: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  a: number,
  b: number,
  c: number,
  d: number,
): number {
  if (metric === POINT) return boxDistance(minX, minY, maxX, maxY, a, b);
  if (metric === GEO) {
    return havBoxBound(a, b, c, minX, minY, maxX, maxY);
  }
  const t = segmentBoxEntry(minX, minY, maxX, maxY, a, b, c, d);
  return t < 0 ? INF : t;
}

/**
 * The largest key a best-first search keeps: maxDistance q[qi+2] for POINT, its haversine
 * q[qi+4] for GEO, t = 1 for RAY.
 */
export function maxKey(metric: number, q: Float64Array, qi: number): number {
  return metric === POINT ? q[qi + 2]! : metric === GEO ? q[qi + 4]! : 1;
}

// A POINT key (`boxDistance`) is within a few ulps of the distance (its differences, squares,
// sum and square root round once each), or within a few subnormal ulps of it below 2^-1022; a
// key nearer to maxDistance than KEY_SLACK of it is decided exactly.
const KEY_SLACK = 2 ** -48;
// Below this maxDistance the relative margin would be lost in subnormal rounding.
const TRUSTED = 2 ** -960;

/**
 * For the POINT keys of a search that keeps distances up to `limit` (maxDistance): a key at most
 * this is surely within it (keys above it and up to `beyondKey` are decided exactly).
 */
export function withinKey(metric: number, limit: number): number {
  if (metric !== POINT) return limit;
  return limit >= TRUSTED ? limit * (1 - KEY_SLACK) : 0;
}

/** For the POINT keys of a search up to `limit`: a key above this is surely beyond it. */
export function beyondKey(metric: number, limit: number): number {
  if (metric !== POINT) return limit;
  return limit >= TRUSTED ? limit * (1 + KEY_SLACK) : limit > 0 ? 2 ** -900 : 0;
}

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
 * Edge k (0: minX, 1: minY, 2: maxX, 3: maxY) of a box around the shape of `shapeHits`: a finite
 * box that misses it misses the shape, so a walk drops such boxes by four comparisons before the
 * exact test (a call with eight numbers, which V8 does not always inline). A segment's is its
 * end points' box, exactly; a circle's is centre ± radius widened by more than its rounding.
 */
export function shapeBound(
  shape: number,
  a: number,
  b: number,
  c: number,
  d: number,
  k: number,
): number {
  if (shape !== CIRCLE) {
    if (k === 0) return a < c ? a : c;
    if (k === 1) return b < d ? b : d;
    if (k === 2) return a > c ? a : c;
    return b > d ? b : d;
  }
  const e = k === 0 ? a - c : k === 1 ? b - c : k === 2 ? a + c : b + c;
  return k < 2 ? e - Math.abs(e) * 2 ** -50 : e + Math.abs(e) * 2 ** -50;
}

/**
 * Writes into `out` from index `n` the slots of entries [from, to) whose boxes overlap the query
 * box (minX, minY, maxX, maxY); returns the new count. (Here and below, `slot` may be
 * POSITIONS.) The query comes as numbers, not read from an array: a walk calls this once per
 * leaf group, and before V8 optimises the walk each number read from a Float64Array is a new
 * heap object.
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
    out[n] = slot === POSITIONS ? e : slot[e]!;
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
  for (let e = from; e < to; e++) out[n++] = slot === POSITIONS ? e : slot[e]!;
  return n;
}

/**
 * Like `scanRect` for a circle (q[qi], q[qi+1], radius q[qi+2]) or a segment (q[qi], q[qi+1])-
 * (q[qi+2], q[qi+3]) (see `shapeHits`).
 */
export function scanShape(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  shape: number,
  q: Float64Array,
  qi: number,
  out: Int32Array,
  n: number,
): number {
  const a = q[qi]!;
  const b = q[qi + 1]!;
  const c = q[qi + 2]!;
  const d = q[qi + 3]!;
  const x0 = shapeBound(shape, a, b, c, d, 0);
  const y0 = shapeBound(shape, a, b, c, d, 1);
  const x1 = shapeBound(shape, a, b, c, d, 2);
  const y1 = shapeBound(shape, a, b, c, d, 3);
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    // (The entries' boxes are finite: only a tree's root may be unbounded.)
    if (box[i]! > x1 || box[i + 1]! > y1 || box[i + 2]! < x0 || box[i + 3]! < y0) continue;
    if (shapeHits(shape, box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, a, b, c, d))
      out[n++] = slot === POSITIONS ? e : slot[e]!;
  }
  return n;
}
