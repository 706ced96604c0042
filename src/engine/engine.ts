// The index contract in one place: what an engine offers its front door (QueryEngine for the
// queries of QueryIndex, Engine for the mutators of DynamicIndex, ListingEngine for visitAfter),
// the node every `visit` hands out, and what the add-ons built on the indexes (quadkit/geo,
// ContactTracker) use of them beyond the public queries.
//
// Who does what. A front door (src/queries.ts, src/dynamic.ts and the index classes) checks the
// arguments of every call and the bounds of every item it is handed one by one, stages the
// numbers in its own argument array, and maps the slots an engine answers back to items. An
// engine works on slots and numbers, with three exceptions, each where the speed or the format
// needs it:
// - the packed build reads the caller's items itself, through a BoxSource (sources.ts), in the
//   passes that use their numbers, and names a bad item through validate.ts;
// - an engine whose input is binary or a mesh checks it where it reads it (PackedTree.open for a
//   buffer, triangle-mesh.ts for a mesh) and throws;
// - `pairs` is handed the items by slot and calls back with the items, so that there is no
//   wrapper call per pair.
// Numbers travel in Float64Arrays (src, offset), not as double arguments, which V8 would box on
// calls it does not inline (see scan.ts).

import type { VisitNode } from '../types.js';
import type { NodeTable } from './aggregate.js';
import type { ItemStore } from './items.js';
import type { KBest } from './queue.js';

/**
 * The node an engine's `visit` passes to its callback: the public `VisitNode` (cell, depth and
 * the items stored in the node itself), one object reused for every call.
 */
export type { VisitNode };

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
   * Writes into `results` the k slots (k may be Infinity: every slot within the limit) with the
   * smallest keys under `metric` (see `boxKey` in scan.ts: POINT, the distance from (q[qi],
   * q[qi+1]) up to q[qi+2]; RAY, where the segment q[qi..qi+3] first meets the box), smallest
   * first, ties by slot (the packed tree over items answers leaf positions, tied by item index);
   * returns the count and leaves the keys in `best.keys`.
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
  visit(callback: (node: VisitNode) => unknown): void;
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
   * inserting them one by one). The engine may keep `src` (the caller's, never used again) and
   * reorder it. Returns -1, or the first item listed twice (nothing added).
   */
  loadAll?(items: readonly T[] | null, n: number, src: Float64Array<ArrayBuffer>): number;
  /** Gives every item the new box src[4 * slot..+3], as `move` would (when it is faster). */
  moveAll?(src: Float64Array): void;
  clear(): void;
  /** Frees what removals and moves left empty. */
  cleanup(): void;
}

/** What `visitAfter` (src/aggregates.ts) needs of an engine: its nodes listed into a table. */
export interface ListingEngine {
  /** Walks that call user code are under way (visitAfter is one). */
  walking: number;
  /**
   * Lists the nodes in pre-order and the entries of each, at the centre of their boxes, into
   * `table` (see aggregate.ts).
   */
  listNodes(table: NodeTable): void;
}

/**
 * What quadkit/geo uses of an index beyond its public queries: members of QueryIndex marked
 * `@internal` (left out of the published types, so an add-on outside this package cannot use
 * them). The arguments are checked by the add-on.
 * @typeParam T - the item type.
 */
export interface GeoAccess<T> {
  /**
   * Items whose bounds overlap the closed box (minX, minY)-(maxX, maxY), whose edges may be
   * infinite, stopping soon after `limit`.
   */
  searchEdges(minX: number, minY: number, maxX: number, maxY: number, limit: number): T[];
  /** Whether every item is known to be a point (a zero-size box). */
  pointItems(): boolean;
  /**
   * Best-first search under an engine metric with the query numbers q[0..]: the items with the
   * k smallest keys into `out`, their keys into `keys`; returns how many.
   */
  bestFirstInto(
    metric: number,
    q: Float64Array,
    k: number,
    out: T[],
    keys: Float64Array | number[],
    filter?: (item: T) => unknown,
  ): number;
}

/**
 * What ContactTracker uses of a dynamic index beyond its public methods: its pairs by slot and
 * the slots' items and generations (members of QueryIndex and DynamicIndex marked `@internal`).
 * @typeParam T - the item type.
 */
export interface SlotAccess<T> {
  /** Calls back once for every overlapping pair, with the slots. */
  pairSlots(callback: (a: number, b: number) => void): void;
  /** The item in a slot. */
  itemOf(slot: number): T;
  /** The slot's generation: it changes when the slot is freed. */
  generationOf(slot: number): number;
  /** The slot of an item, or -1. */
  slotOf(item: T): number;
}
