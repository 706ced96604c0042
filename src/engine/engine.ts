// Numbers travel in Float64Arrays (src, offset), not as double arguments, which V8 would box on
// calls it does not inline (see scan.ts).
//
// What every dynamic index engine offers its front door: item slots, mutation by slot, and
// queries that write slots into `results`. The front door (src/dynamic.ts) validates input and
// maps slots to items; the engines never see user objects except as opaque keys.

import type { ItemStore } from './items.js';
import type { KBest } from './queue.js';

/** The node passed to `visit` callbacks; one object, reused. */
export interface NodeView {
  x: number;
  y: number;
  width: number;
  height: number;
  depth: number;
  count: number;
}

/** A spatial index over item slots, as the queries see it. */
export interface QueryEngine {
  /**
   * The answers of the last query: item slots (the static tree over objects answers window,
   * shape and pair queries by leaf position). An engine may replace the array when it grows:
   * read it after each query, never keep it across one.
   */
  readonly results: Int32Array;
  /** Walks that call user code are under way: mutation and nested walks are refused. */
  walking: number;
  readonly size: number;
  /**
   * Writes into `results` the slots whose boxes overlap the box q[qi..qi+3] (every slot of
   * every node or cell whose bounds it meets, when `all` is 1), stopping soon after `limit`;
   * returns the count.
   */
  queryRect(q: Float64Array, qi: number, all: number, limit: number): number;
  /**
   * Writes into `results` the slots whose boxes meet a circle or a segment given by
   * q[qi..qi+3] (see scan.ts); returns the count.
   */
  searchShape(shape: number, q: Float64Array, qi: number): number;
  /**
   * Writes into `results` the k slots with the smallest keys under `metric` (see `boxKey` in
   * scan.ts: POINT, the distance from (q[qi], q[qi+1]) up to q[qi+2]; RAY, where the segment
   * q[qi..qi+3] first meets the box), smallest first, ties by slot (the packed tree over items
   * answers leaf positions, tied by item index); returns the count and leaves the keys in
   * `best.keys`.
   */
  nearest(metric: number, q: Float64Array, qi: number, k: number): number;
  /** The k-best heap of `nearest`; after it, `best.keys[i]` is the key of `results[i]`. */
  readonly best: KBest;
  /**
   * Calls back once for every overlapping pair of slots: with the slots, or with items[slot]
   * when `items` is given.
   */
  pairs(callback: (a: number, b: number) => void, items: readonly unknown[] | null): void;
  /** Calls back for every node or cell, parents first; `true` skips the children. */
  visit(callback: (node: NodeView) => unknown): void;
}

/** A dynamic spatial index over item slots. */
export interface Engine<T> extends QueryEngine {
  readonly store: ItemStore<T>;
  /** Adds an item with the box src[i..i+3]; returns its slot, or -1 if it is already present. */
  insert(item: T, src: Float64Array, i: number): number;
  remove(slot: number): void;
  /** Gives a slot the new box src[i..i+3]. */
  move(slot: number, src: Float64Array, i: number): void;
  /** Before `count` items with the boxes src[0..4 * count) are inserted (a bulk load). */
  prepare?(src: Float64Array, count: number): void;
  /**
   * Adds n items (the numbers 0..n-1 when `items` is null) with the boxes src[4i..4i+3] at once,
   * item i in slot i, to an index whose store has handed out no slot yet (when it is faster than
   * inserting them one by one). Returns -1, or the first item listed twice (nothing added).
   */
  loadAll?(items: readonly T[] | null, n: number, src: Float64Array): number;
  /** Gives every item the new box src[4 * slot..+3], as `move` would (when it is faster). */
  moveAll?(src: Float64Array): void;
  clear(): void;
  /** Frees what removals and moves left empty. */
  cleanup(): void;
}
