// The item-list kernels every dynamic index shares: each node or cell holds a linked list of item
// slots (ItemStore.next), and a query tests the list against its shape. The walks over nodes
// differ per index; these loops over items do not.

import { boxDistanceSq, boxIntersectsCircle, boxIntersectsSegment } from '../geometry/rect.js';
import type { ItemStore } from './items.js';
import type { KBest } from './queue.js';

/** Query shapes of `shapeHits`/`scanShape`. */
export const CIRCLE = 0;
export const SEGMENT = 1;

const NEG_INF = Number.NEGATIVE_INFINITY;

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
 * Writes into `out` from index `n` the slots of the list starting at `s` whose boxes overlap
 * (minX, minY, maxX, maxY), or every slot when `all` is 1; returns the new count.
 */
export function scanRect<T>(
  store: ItemStore<T>,
  s: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  all: number,
  out: Int32Array,
  n: number,
): number {
  const { box, next } = store;
  for (; s >= 0; s = next[s]!) {
    const i = 8 * s;
    // Branch-free: write the slot, keep it when it passes.
    out[n] = s;
    n +=
      all |
      (+(box[i]! <= maxX) &
        +(box[i + 1]! <= maxY) &
        +(box[i + 2]! >= minX) &
        +(box[i + 3]! >= minY));
  }
  return n;
}

/** Writes into `out` from index `n` every slot of the list starting at `s`; returns the new count. */
export function scanAll<T>(store: ItemStore<T>, s: number, out: Int32Array, n: number): number {
  const next = store.next;
  for (; s >= 0; s = next[s]!) out[n++] = s;
  return n;
}

/** Like `scanRect` for a circle or a segment (see `shapeHits`). */
export function scanShape<T>(
  store: ItemStore<T>,
  s: number,
  shape: number,
  a: number,
  b: number,
  c: number,
  d: number,
  out: Int32Array,
  n: number,
): number {
  const { box, next } = store;
  for (; s >= 0; s = next[s]!) {
    const i = 8 * s;
    if (shapeHits(shape, box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, a, b, c, d)) out[n++] = s;
  }
  return n;
}

/** Offers each slot of the list starting at `s` within `maxDistSq` of (x, y) to `best`. */
export function scanNearest<T>(
  store: ItemStore<T>,
  s: number,
  x: number,
  y: number,
  maxDistSq: number,
  best: KBest,
): void {
  const { box, next } = store;
  for (; s >= 0; s = next[s]!) {
    const i = 8 * s;
    const d = boxDistanceSq(box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, x, y);
    if (d <= maxDistSq) best.offer(s, d);
  }
}

/**
 * Calls `callback` for each overlapping pair within the list starting at `s`, and for each pair
 * of one of its slots and one of `frame[fs..fe)` that overlap (frame slot first).
 */
export function scanPairs<T>(
  store: ItemStore<T>,
  s: number,
  frame: Int32Array,
  fs: number,
  fe: number,
  callback: (a: number, b: number) => void,
): void {
  const { box, next } = store;
  for (; s >= 0; s = next[s]!) {
    const i = 8 * s;
    const minX = box[i]!;
    const minY = box[i + 1]!;
    const maxX = box[i + 2]!;
    const maxY = box[i + 3]!;
    for (let t = next[s]!; t >= 0; t = next[t]!) {
      const j = 8 * t;
      if (box[j]! <= maxX && box[j + 1]! <= maxY && box[j + 2]! >= minX && box[j + 3]! >= minY)
        callback(s, t);
    }
    for (let f = fs; f < fe; f++) {
      const t = frame[f]!;
      const j = 8 * t;
      if (box[j]! <= maxX && box[j + 1]! <= maxY && box[j + 2]! >= minX && box[j + 3]! >= minY)
        callback(t, s);
    }
  }
}

/**
 * Appends to `out` from index `n` the slots of `src[from..to)` whose boxes overlap the box
 * (minX, minY, maxX, maxY); returns the new count. `out` may be `src` when n >= to.
 */
export function filterSlots<T>(
  store: ItemStore<T>,
  src: Int32Array,
  from: number,
  to: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  out: Int32Array,
  n: number,
): number {
  const box = store.box;
  for (let f = from; f < to; f++) {
    const t = src[f]!;
    const j = 8 * t;
    out[n] = t;
    n +=
      +(box[j]! <= maxX) & +(box[j + 1]! <= maxY) & +(box[j + 2]! >= minX) & +(box[j + 3]! >= minY);
  }
  return n;
}
