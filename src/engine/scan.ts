// The entry kernels every index shares. Query numbers come in a Float64Array at an offset, not
// as arguments: V8 boxes a double passed to (or returned from) a call it does not inline, and the
// frame loop and the *Into queries must not allocate. The kernels for entries that are points
// are in scan-points.ts.
//
// A node, cell or leaf holds a run of entries: boxes (4 doubles each, minX, minY, maxX, maxY)
// and item slots, side by side. A query tests a run against its shape; the walks over nodes
// differ per index, these loops over entries do not.

import {
  boxDistance,
  boxGapSq,
  boxIntersectsCircle,
  boxIntersectsSegment,
  segmentBoxEntry,
} from '../geometry/rect.js';
import { havBoxBound, havBoxNearest, havPoints } from '../geometry/sphere.js';
import type { KBest } from './queue.js';

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
 * Writes into `out` from index `n` the slots of entries [from, to) whose boxes overlap the query
 * box q[qi..qi+3] (minX, minY, maxX, maxY); returns the new count.
 */
export function scanRect(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  q: Float64Array,
  qi: number,
  out: Int32Array,
  n: number,
): number {
  const minX = q[qi]!;
  const minY = q[qi + 1]!;
  const maxX = q[qi + 2]!;
  const maxY = q[qi + 3]!;
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
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    if (shapeHits(shape, box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, a, b, c, d))
      out[n++] = slot[e]!;
  }
  return n;
}

/**
 * `scanShape` for a circle (q[qi], q[qi+1], radius q[qi+2]) whose squared radius r2 lies where
 * floating point is relative (1e-280 to 1e280; the caller checks): an entry clearly inside or
 * outside by a 2^-40 relative margin (far above the squared distance's rounding) is decided by
 * one comparison, and only one on the circle's rim by the exact test.
 */
export function scanCircle(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  q: Float64Array,
  qi: number,
  out: Int32Array,
  n: number,
): number {
  const x = q[qi]!;
  const y = q[qi + 1]!;
  const r = q[qi + 2]!;
  const lo = r * r * (1 - 2 ** -40);
  const hi = r * r * (1 + 2 ** -40);
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    const d2 = boxGapSq(box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, x, y);
    // As in scanCirclePoints (scan-points.ts): branch-free for the clear cases, the exact test
    // on the rim (and for a NaN, which boxGapSq gives when a side overflows).
    out[n] = slot[e]!;
    n += +(d2 < lo);
    if (
      (+(d2 < lo) | +(d2 > hi)) === 0 &&
      boxIntersectsCircle(box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, x, y, r)
    )
      n++;
  }
  return n;
}

/**
 * The GEO key of an item: the haversine of the central angle from (lon a, lat b), whose cosine
 * of latitude is c, to its point, or to the nearest point of its box (monotone in the distance,
 * and no asin or square root per item).
 */
function geoItemKey(
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  a: number,
  b: number,
  c: number,
): number {
  return minX === maxX && minY === maxY
    ? havPoints(a, b, c, minX, minY)
    : havBoxNearest(a, b, c, minX, minY, maxX, maxY);
}

/**
 * Offers the slot of each entry of [from, to) to `best`, keyed by `boxKey` for the query q[qi..]
 * under `metric` (GEO: by `geoItemKey`), when the key is within `maxKey`.
 */
export function scanNearest(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  metric: number,
  q: Float64Array,
  qi: number,
  best: KBest,
): void {
  const a = q[qi]!;
  const b = q[qi + 1]!;
  const c = q[qi + 2]!;
  const d = q[qi + 3]!;
  const limit = maxKey(metric, q, qi);
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    const key =
      metric === GEO
        ? geoItemKey(box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, a, b, c)
        : boxKey(metric, box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, a, b, c, d);
    if (key <= limit) best.offer(slot[e]!, key);
  }
}

/** Entries per block of a pair scan: a block pair yields at most BLOCK * BLOCK pairs. */
const BLOCK = 32;
/** Room for buffered pairs (2 numbers each): room for four block pairs' worth. */
const PAIR_ROOM = 8 * BLOCK * BLOCK;

/**
 * The pair scans of the trees: each overlapping pair is written to a buffer without branching on
 * the outcome of the test, and the buffer is reported to the callback in a tight loop (as the
 * grid's row sweeps do, see rows.ts). The scans work block by block and the buffer is flushed
 * between blocks, so the kernels make no calls at all: V8 compiles a call or property access
 * that has not run yet as a deoptimization, which (with on-stack replacement) repeated at every
 * entry. One buffer per index: a pair walk of another index inside a callback has its own.
 */
export class PairBuffer {
  readonly out = new Int32Array(PAIR_ROOM);
  /** Numbers in `out` not yet reported. */
  n = 0;

  /**
   * Reports each overlapping pair within entries [from, to), and each pair of one of the frame
   * entries [fs, fe) (of `fbox`, `fslot`) and one of them that overlap, frame first; some may
   * stay in the buffer until `flush`.
   */
  scan(
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
    for (let a = from; a < to; a += BLOCK) {
      const aEnd = Math.min(a + BLOCK, to);
      this.room(callback);
      this.n = pairsWithin(box, slot, a, aEnd, this.out, this.n);
      for (let b = aEnd; b < to; b += BLOCK) {
        this.room(callback);
        this.n = pairsAcross(
          box,
          slot,
          a,
          aEnd,
          box,
          slot,
          b,
          Math.min(b + BLOCK, to),
          this.out,
          this.n,
        );
      }
      for (let f = fs; f < fe; f += BLOCK) {
        this.room(callback);
        this.n = pairsAcross(
          fbox,
          fslot,
          f,
          Math.min(f + BLOCK, fe),
          box,
          slot,
          a,
          aEnd,
          this.out,
          this.n,
        );
      }
    }
  }

  /** Calls `callback` for the buffered pairs and empties the buffer (first, in case it throws). */
  flush(callback: (a: number, b: number) => void): void {
    const { out, n } = this;
    this.n = 0;
    for (let k = 0; k < n; k += 2) callback(out[k]!, out[k + 1]!);
  }

  // Flushes unless the buffer has room for a block pair's pairs.
  private room(callback: (a: number, b: number) => void): void {
    if (this.n > PAIR_ROOM - 2 * BLOCK * BLOCK) this.flush(callback);
  }
}

// Writes into out from n the slots of each overlapping pair of entries within [from, to);
// returns the new count.
function pairsWithin(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  out: Int32Array,
  n: number,
): number {
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    const minX = box[i]!;
    const minY = box[i + 1]!;
    const maxX = box[i + 2]!;
    const maxY = box[i + 3]!;
    const s = slot[e]!;
    for (let f = e + 1; f < to; f++) {
      const j = 4 * f;
      // Branch-free: write the pair, keep it when the boxes overlap.
      out[n] = s;
      out[n + 1] = slot[f]!;
      n +=
        2 *
        (+(box[j]! <= maxX) &
          +(box[j + 1]! <= maxY) &
          +(box[j + 2]! >= minX) &
          +(box[j + 3]! >= minY));
    }
  }
  return n;
}

// Writes into out from n the slots (a, b) of each overlapping pair of an entry a of [aFrom, aTo)
// (of `abox`, `aslot`) and an entry b of [bFrom, bTo) (of `bbox`, `bslot`); returns the new count.
function pairsAcross(
  abox: Float64Array,
  aslot: Int32Array,
  aFrom: number,
  aTo: number,
  bbox: Float64Array,
  bslot: Int32Array,
  bFrom: number,
  bTo: number,
  out: Int32Array,
  n: number,
): number {
  for (let f = bFrom; f < bTo; f++) {
    const j = 4 * f;
    const minX = bbox[j]!;
    const minY = bbox[j + 1]!;
    const maxX = bbox[j + 2]!;
    const maxY = bbox[j + 3]!;
    const s = bslot[f]!;
    for (let e = aFrom; e < aTo; e++) {
      const i = 4 * e;
      out[n] = aslot[e]!;
      out[n + 1] = s;
      n +=
        2 *
        (+(abox[i]! <= maxX) &
          +(abox[i + 1]! <= maxY) &
          +(abox[i + 2]! >= minX) &
          +(abox[i + 3]! >= minY));
    }
  }
  return n;
}

/**
 * Copies to `dbox`/`dslot` from index `n` the entries [from, to) of `sbox`/`sslot` whose boxes
 * overlap the box q[qi..qi+3]; returns the new count. The source and destination may be the
 * same arrays when n >= to.
 */
export function copyOverlapping(
  sbox: Float64Array,
  sslot: Int32Array,
  from: number,
  to: number,
  q: Float64Array,
  qi: number,
  dbox: Float64Array,
  dslot: Int32Array,
  n: number,
): number {
  const minX = q[qi]!;
  const minY = q[qi + 1]!;
  const maxX = q[qi + 2]!;
  const maxY = q[qi + 3]!;
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

/**
 * Sorts entries [from, to) by minX with insertion sort (near-linear on last frame's order, as
 * motion is coherent), telling each moved slot its new position: pos[slot] = index - base.
 */
export function sortByMinX(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  pos: Int32Array,
  base: number,
): void {
  for (let e = from + 1; e < to; e++) {
    const minX = box[4 * e]!;
    if (box[4 * e - 4]! <= minX) continue;
    const minY = box[4 * e + 1]!;
    const maxX = box[4 * e + 2]!;
    const maxY = box[4 * e + 3]!;
    const s = slot[e]!;
    let f = e;
    do {
      box[4 * f] = box[4 * f - 4]!;
      box[4 * f + 1] = box[4 * f - 3]!;
      box[4 * f + 2] = box[4 * f - 2]!;
      box[4 * f + 3] = box[4 * f - 1]!;
      const moved = slot[f - 1]!;
      slot[f] = moved;
      pos[moved] = f - base;
      f--;
    } while (f > from && box[4 * f - 4]! > minX);
    box[4 * f] = minX;
    box[4 * f + 1] = minY;
    box[4 * f + 2] = maxX;
    box[4 * f + 3] = maxY;
    slot[f] = s;
    pos[s] = f - base;
  }
}
