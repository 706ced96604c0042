// What every dynamic index engine offers its front door: item slots, mutation by slot, and
// queries that write slots into `results`. The front door (src/dynamic.ts) validates input and
// maps slots to items; the engines never see user objects except as opaque keys.

import type { ItemStore } from './items.js';

/** The node passed to `visit` callbacks; one object, reused. */
export interface NodeView {
  x: number;
  y: number;
  width: number;
  height: number;
  depth: number;
  count: number;
}

/** A dynamic spatial index over item slots. */
export interface Engine<T> {
  readonly store: ItemStore<T>;
  /** Slots written by the last query. */
  readonly results: Int32Array;
  /** Walks that call user code are under way: mutation is refused. */
  walking: number;
  readonly size: number;
  /** Adds an item; returns its slot, or -1 if it is already present. */
  insert(item: T, minX: number, minY: number, maxX: number, maxY: number): number;
  remove(slot: number): void;
  /** Gives a slot new bounds. */
  move(slot: number, minX: number, minY: number, maxX: number, maxY: number): void;
  clear(): void;
  /** Frees what removals and moves left empty. */
  cleanup(): void;
  /**
   * Writes into `results` the slots whose boxes overlap the box (every slot of every node or
   * cell whose bounds it meets, when `all` is 1), stopping soon after `limit`; returns the count.
   */
  queryRect(
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
    all: number,
    limit: number,
  ): number;
  /** Writes into `results` the slots whose boxes meet a circle or a segment (see scan.ts). */
  searchShape(shape: number, a: number, b: number, c: number, d: number): number;
  /** Writes into `results` the k nearest slots within maxDistance, nearest first. */
  nearest(x: number, y: number, k: number, maxDistance: number): number;
  /** Calls back once for every overlapping pair of slots. */
  pairs(callback: (a: number, b: number) => void): void;
  /** Calls back for every node or cell, parents first; `true` skips the children. */
  visit(callback: (node: NodeView) => unknown): void;
}
