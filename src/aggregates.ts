// visitAfter: per-node aggregates (count, weighted centroid, a user's reduce) handed to a
// callback in post-order, as d3-quadtree's visitAfter walks (M. Bostock's d3-quadtree), for the
// trees whose engines list their nodes (PointQuadtree, StaticQuadtree). The pass itself is in
// engine/aggregate.ts.

import type { NodeTable } from './engine/aggregate.js';
import type { ListingEngine } from './engine/engine.js';
import { InvalidTypeError, WalkInProgressError } from './errors.js';
import type { AggregateNode } from './types.js';
import { checkFunction } from './validate.js';

/** Called by `visitAfter` for each node, after all of its descendants. */
export type AggregateCallback = (node: AggregateNode) => void;

/** Options of `visitAfter`. */
export interface AggregateOptions<T> {
  /** An item's weight in the centroid (default 1). */
  weight?: ((item: T) => number) | undefined;
  /** An item's value, folded by `reduce` (for example a property to sum). */
  map?: ((item: T) => number) | undefined;
  /**
   * Folds two values into one (default: their sum); it must be associative and commutative (sum,
   * min, max), as the fold order follows the tree.
   */
  reduce?: ((a: number, b: number) => number) | undefined;
  /** The value of a node with no items (default 0). */
  initial?: number | undefined;
}

const sum = (a: number, b: number): number => a + b;

function itemNumber(name: string, value: unknown, i: number): number {
  if (typeof value !== 'number' || value - value !== 0) {
    throw new RangeError(
      `quadkit: ${name}(item) must return a finite number, got ${String(value)} (item of slot ${i}); return a number for every item`,
    );
  }
  return value;
}

/**
 * Runs one bottom-up aggregate pass over `engine`'s nodes and calls `callback` for each node in
 * post-order (children in order, then the parent), with one reused object.
 * @param engine - the tree (it lists its nodes into `table`).
 * @param table - the reused arrays of the pass.
 * @param items - the items by the numbers the engine lists, or null when those numbers are the
 * items (item indices).
 * @param callback - receives each node and its aggregate.
 * @param options - `{ weight, map, reduce, initial }`.
 * @param slots - the slot an error message names for a listed number n: `slots[n]`, or n itself
 * when null (the static tree over objects lists leaf positions, and names input indices).
 * @internal
 */
export function visitAfter<T>(
  engine: ListingEngine,
  table: NodeTable,
  items: readonly T[] | null,
  callback: AggregateCallback,
  options: AggregateOptions<T>,
  slots: Int32Array | null = null,
): void {
  checkFunction('callback', callback);
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `quadkit: visitAfter options must be an object { weight, map, reduce, initial }, got ${String(options)}`,
    );
  }
  const { weight, map, reduce = sum, initial = 0 } = options;
  if (weight !== undefined) checkFunction('options.weight', weight);
  if (map !== undefined) checkFunction('options.map', map);
  checkFunction('options.reduce', reduce);
  if (typeof initial !== 'number') {
    throw new InvalidTypeError(`quadkit: options.initial must be a number, got ${typeof initial}`);
  }
  if (engine.walking !== 0) {
    throw new WalkInProgressError(
      'quadkit: visitAfter() cannot run inside a pairs(), visit() or visitAfter() callback or a nearest() filter; collect first',
    );
  }
  engine.listNodes(table);
  // Each item's weight and value, by the user's functions.
  const { entrySlot, entryWeight, entryValue } = table;
  for (let e = 0; e < table.entries; e++) {
    const s = entrySlot[e]!;
    const item = (items === null ? s : items[s]) as T;
    const slot = slots === null ? s : slots[s]!;
    entryWeight[e] = weight === undefined ? 1 : itemNumber('options.weight', weight(item), slot);
    if (map !== undefined) entryValue[e] = itemNumber('options.map', map(item), slot);
  }
  table.accumulate(map === undefined ? null : reduce, initial);
  // Post-order, user code guarded against mutating the tree.
  const view = table.view;
  engine.walking++;
  try {
    const { order } = table;
    for (let i = 0; i < table.nodes; i++) {
      table.read(order[i]!, view);
      callback(view);
    }
  } finally {
    engine.walking--;
  }
}
