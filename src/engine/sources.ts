// Where the packed build reads its boxes (see BoxSource in packed-build.ts): one Float64Array
// of boxes, an array-like of points read a chunk at a time, or the caller's items.
// The items are read where their numbers are used, in each of the build's two passes, not
// copied into a buffer of boxes a chunk at a time first: over 1M `{ x, y, width, height }`
// objects a key pass took 6.2-6.5 ms against 8.8-9.4 through a buffer, and the whole build
// 71-74 ms against 76-78.

import type { RectLike, ToRect } from '../types.js';
import { badRectItem, checkFinite, isRectNumbers, itemError, putRect } from '../validate.js';
import { centreKey } from './hilbert.js';
import {
  type BoxSource,
  countKey,
  gridScale,
  hilbertKeys,
  placeLeaves,
  putBox,
  widenBox,
} from './packed-build.js';

/** Points read at a time from an array-like of points. */
const CHUNK = 16384;

/** The items of a sample of n: every `step`-th one, the last taken after the others. */
function sampled(n: number, step: number): Int32Array {
  const m = Math.ceil(n / step);
  const picks = new Int32Array(m);
  for (let s = 0; s < m; s++) picks[s] = s + 1 < m ? s * step : n - 1;
  return picks;
}

/**
 * A BoxSource over one Float64Array of n boxes.
 * @param src - minX, minY, maxX, maxY per box.
 * @param n - the number of boxes.
 */
export function arraySource(src: Float64Array, n: number): BoxSource {
  return {
    n,
    pass: (grid, keys, counts, seen, rank, boxes, shift) => {
      if (rank === null) return hilbertKeys(src, n, grid, keys, 0, counts, seen);
      placeLeaves(src, n, 0, rank, boxes, shift);
      return true;
    },
    sample: (step) => {
      const picks = sampled(n, step);
      const out = new Float64Array(4 * picks.length);
      for (let s = 0; s < picks.length; s++)
        out.set(src.subarray(4 * picks[s]!, 4 * picks[s]! + 4), 4 * s);
      return out;
    },
  };
}

/**
 * A BoxSource over n points (x, y per point) read a chunk at a time as boxes (x, y, x, y), each
 * number checked (a null or a string would otherwise become a number).
 * @param points - x, y per point.
 * @param n - the number of points.
 */
export function pointSource(points: ArrayLike<number>, n: number): BoxSource {
  const chunk = Math.max(1, Math.min(n, CHUNK));
  const buffer = new Float64Array(4 * chunk);
  const put = (out: Float64Array, j: number, i: number): void => {
    const x = points[2 * i]!;
    const y = points[2 * i + 1]!;
    if (typeof x !== 'number' || x - x !== 0) checkFinite(`points[${2 * i}]`, x);
    if (typeof y !== 'number' || y - y !== 0) checkFinite(`points[${2 * i + 1}]`, y);
    out[j] = x;
    out[j + 1] = y;
    out[j + 2] = x;
    out[j + 3] = y;
  };
  const read = (start: number, count: number): Float64Array => {
    for (let i = 0; i < count; i++) put(buffer, 4 * i, start + i);
    return buffer;
  };
  return {
    points: true,
    n,
    // (Points are checked as they are read: every box is good.)
    pass: (grid, keys, counts, seen, rank, boxes, shift) => {
      for (let start = 0; start < n; start += chunk) {
        const count = Math.min(chunk, n - start);
        const src = read(start, count);
        if (rank === null) hilbertKeys(src, count, grid, keys, start, counts, seen);
        else placeLeaves(src, count, start, rank, boxes, shift);
      }
      return true;
    },
    sample: (step) => {
      const picks = sampled(n, step);
      const out = new Float64Array(4 * picks.length);
      for (let s = 0; s < picks.length; s++) put(out, 4 * s, picks[s]!);
      return out;
    },
  };
}

/**
 * A BoxSource over items that are `{ x, y, width?, height? }`, or read through `toRect`; a bad
 * item throws naming it (see badRectItem).
 * @param items - the items.
 * @param toRect - reads an item's bounds, or undefined.
 */
export function itemSource<T>(items: readonly T[], toRect: ToRect<T> | undefined): BoxSource {
  const n = items.length;
  // Whether every box is a point, as the last key pass found.
  let points = true;
  return {
    n,
    get points() {
      return points;
    },
    // (n as it was when the build began: an array that grows or shrinks under the build's
    // callbacks is read over its first n items, a missing one refused.)
    pass: (grid, keys, counts, seen, rank, boxes, shift) => {
      const all = itemPass(items, n, toRect, grid, keys, counts, seen, rank, boxes, shift);
      if (rank === null) points = all;
      return true;
    },
    // (A sample with a bad item, or whose toRect throws, is no sample: the key pass names the
    // item, and the error thrown here is left as it was, for that pass to throw again.)
    sample: (step) => {
      const picks = sampled(n, step);
      const out = new Float64Array(4 * picks.length);
      try {
        for (let s = 0; s < picks.length; s++) {
          const item = items[picks[s]!];
          const r =
            toRect === undefined || item === undefined || item === null ? item : toRect(item);
          if (!putRect(r as RectLike, out, 4 * s)) return new Float64Array(0);
        }
      } catch {
        return new Float64Array(0);
      }
      return out;
    },
  };
}

// One pass over items [0, n) (see BoxSource.pass): hilbertKeys's steps or placeLeaves's on each
// item's bounds, returning whether every box was a point (the key pass; the placement's answer
// is true); throws naming a bad item (the placement checks them again: a getter may answer
// differently the second time), and names the item in an error toRect throws. An item's four
// numbers are read in one branch for items read as they are and one for items read through
// toRect, then checked (isRectNumbers): toRect's new rectangle goes from the call straight to
// its reads, and optimized code never allocates it. Measured over 1M items: with one variable
// holding either the item or toRect's rectangle, each rectangle was allocated and the toRect
// build took 110 ms against 72; checking the whole object first and then reading its fields
// again cost 1.5-2 ms more per build.
function itemPass<T>(
  items: readonly T[],
  n: number,
  toRect: ToRect<T> | undefined,
  grid: Float64Array,
  keys: Uint32Array,
  counts: Int32Array,
  seen: Float64Array,
  rank: Uint32Array | null,
  boxes: Float64Array,
  shift: number,
): boolean {
  const minX = grid[0]!;
  const minY = grid[1]!;
  const sx = gridScale(grid, 0);
  const sy = gridScale(grid, 1);
  let x0 = seen[0]!;
  let y0 = seen[1]!;
  let x1 = seen[2]!;
  let y1 = seen[3]!;
  let points = true;
  // (Bounded by the array's length too, the loop reads it without a bounds check per item;
  // items missing from the first n are refused below.)
  const end = items.length < n ? items.length : n;
  let i = 0;
  try {
    for (; i < end; i++) {
      const item = items[i];
      let x: unknown;
      let y: unknown;
      let w: unknown;
      let h: unknown;
      if (toRect === undefined) {
        if (item === null || typeof item !== 'object') break;
        const r = item as unknown as RectLike;
        x = r.x;
        y = r.y;
        w = r.width;
        h = r.height;
      } else {
        if (item === undefined || item === null) break;
        const r = toRect(item);
        if (r === null || typeof r !== 'object') break;
        x = r.x;
        y = r.y;
        w = r.width;
        h = r.height;
      }
      // The box, checked.
      if (!isRectNumbers(x, y, w, h)) break;
      const a = x as number;
      const b = y as number;
      const c = a + ((w as number | undefined) ?? 0);
      const d = b + ((h as number | undefined) ?? 0);
      // Its key and the extent, or its leaf and the leaf's parent.
      if (rank === null) {
        if (a < x0) x0 = a;
        if (b < y0) y0 = b;
        if (c > x1) x1 = c;
        if (d > y1) y1 = d;
        if (c !== a || d !== b) points = false;
        const k = centreKey(a, b, c, d, minX, minY, sx, sy);
        keys[i] = k;
        countKey(counts, k);
      } else {
        const p = rank[i]!;
        putBox(boxes, p, a, b, c, d);
        if (shift >= 0) widenBox(boxes, n + (p >> shift), a, b, c, d);
      }
    }
  } catch (e) {
    // (An error of the items' own getters goes out as it was thrown, as the dynamic indexes
    // let it.)
    throw toRect === undefined ? e : itemError(e, i, '');
  }
  if (i < n) badRectItem(items, toRect, i);
  if (rank === null) {
    seen[0] = x0;
    seen[1] = y0;
    seen[2] = x1;
    seen[3] = y1;
  }
  return points;
}
