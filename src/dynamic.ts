// The front door every dynamic index shares: it validates input at the boundary, maps item
// slots to items, guards walks against mutation, and offers each query in an allocating and an
// allocation-free form. Subclasses (Quadtree, GridLooseQuadtree, ...) only choose the engine.

import type { Engine } from './engine/engine.js';
import { CIRCLE, SEGMENT } from './engine/scan.js';
import type { PairCallback, Rect, VisitCallback } from './types.js';
import {
  BOUNDS,
  checkFinite,
  checkFunction,
  checkInteger,
  checkNonNegative,
  readQueryRect,
} from './validate.js';

const noPair = (): void => {};

// Puts four query numbers in the engine's argument array.
function stage(a: number, b: number, c: number, d: number): Float64Array {
  BOUNDS[0] = a;
  BOUNDS[1] = b;
  BOUNDS[2] = c;
  BOUNDS[3] = d;
  return BOUNDS;
}

/**
 * A dynamic spatial index of items kept by reference, exact in every answer.
 *
 * Items' bounds are copied in at `insert` and re-read by `update`. Queries never call user code;
 * `pairs` and `visit` do, and mutating the index from inside their callbacks throws an Error
 * (queries from inside them are fine).
 *
 * @typeParam T - the item type.
 */
export abstract class DynamicIndex<T> {
  /** @internal */
  protected readonly engine: Engine<T>;
  /** Reads an item's bounds into BOUNDS, or throws. */
  private readonly read: (item: T) => void;
  private scratch = new Float64Array(0);
  private pairCallback: PairCallback<T> = noPair;
  private pairItems: T[] = [];
  // Maps a pair of slots to the user's callback; made once, so pairs() allocates nothing.
  private readonly emitPair = (a: number, b: number): void => {
    const items = this.pairItems;
    this.pairCallback(items[a]!, items[b]!);
  };

  /** @internal */
  protected constructor(engine: Engine<T>, read: (item: T) => void) {
    this.engine = engine;
    this.read = read;
  }

  /** Number of items in the index. */
  get size(): number {
    return this.engine.size;
  }

  /**
   * Adds an item.
   * @param item - the item; its bounds are read now (and again by `update`).
   * @throws Error if the item is already in the index; RangeError/TypeError for bad bounds.
   */
  insert(item: T): this {
    this.idle('insert');
    this.read(item);
    if (this.engine.store.slots.has(item)) {
      throw new Error(
        'quadkit: insert(item): the item is already in the index; call update(item) after moving it',
      );
    }
    this.engine.insert(item, BOUNDS, 0);
    return this;
  }

  /**
   * Adds many items. All are validated first: if any is bad, or already present, or listed
   * twice, nothing is added.
   * @param items - the items to add.
   */
  load(items: readonly T[]): this {
    this.idle('load');
    const boxes = new Float64Array(4 * items.length);
    const seen = new Set<T>();
    const slots = this.engine.store.slots;
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as T;
      try {
        this.read(item);
      } catch (e) {
        if (e instanceof Error) e.message = `${e.message} (items[${i}]; nothing was loaded)`;
        throw e;
      }
      if (slots.has(item) || seen.has(item)) {
        throw new Error(
          `quadkit: load(items): items[${i}] is already in the index or listed twice; nothing was loaded`,
        );
      }
      seen.add(item);
      boxes.set(BOUNDS, 4 * i);
    }
    for (let i = 0; i < items.length; i++) {
      this.engine.insert(items[i] as T, boxes, 4 * i);
    }
    return this;
  }

  /**
   * Removes an item.
   * @returns false when the item was not in the index.
   */
  remove(item: T): boolean {
    this.idle('remove');
    const s = this.engine.store.slots.get(item);
    if (s === undefined) return false;
    this.engine.remove(s);
    return true;
  }

  /**
   * Re-reads the bounds of an item that moved or resized. O(1) while the item stays inside its
   * node's bounds; otherwise it climbs to the nearest node that contains it and descends again.
   * @returns false when the item is not in the index.
   * @throws RangeError/TypeError for bad bounds (the item keeps its previous bounds).
   */
  update(item: T): boolean {
    this.idle('update');
    const s = this.engine.store.slots.get(item);
    if (s === undefined) return false;
    this.read(item);
    this.engine.move(s, BOUNDS, 0);
    return true;
  }

  /**
   * Re-reads the bounds of every item (after a simulation step), with no lookup per item.
   * All bounds are read and checked first: if any is bad, it throws and no item is moved.
   */
  updateAll(): this {
    this.idle('updateAll');
    const { engine, read } = this;
    const { items, used } = engine.store;
    if (this.scratch.length < 4 * used) this.scratch = new Float64Array(4 * engine.store.capacity);
    const scratch = this.scratch;
    for (let s = 0; s < used; s++) {
      const item = items[s];
      if (item === undefined) continue;
      read(item);
      scratch[4 * s] = BOUNDS[0]!;
      scratch[4 * s + 1] = BOUNDS[1]!;
      scratch[4 * s + 2] = BOUNDS[2]!;
      scratch[4 * s + 3] = BOUNDS[3]!;
    }
    for (let s = 0; s < used; s++) {
      if (items[s] === undefined) continue;
      engine.move(s, scratch, 4 * s);
    }
    return this;
  }

  /** Whether the item is in the index. */
  has(item: T): boolean {
    return this.engine.store.slots.has(item);
  }

  /** Removes every item. */
  clear(): void {
    this.idle('clear');
    this.engine.clear();
  }

  /**
   * Collapses subtrees that hold at most `maxObjects` items. Runs by itself as items are removed
   * or move; call it after a large batch of removals to free memory at once. Answers are unchanged.
   */
  cleanup(): this {
    this.idle('cleanup');
    this.engine.cleanup();
    return this;
  }

  /** Every item, in no particular order. */
  all(): T[] {
    const { items, used } = this.engine.store;
    const out = new Array<T>(this.size);
    let n = 0;
    for (let s = 0; s < used; s++) {
      const item = items[s];
      if (item !== undefined) out[n++] = item;
    }
    return out;
  }

  /**
   * Items whose bounds overlap the rectangle (closed: touching counts).
   * @param rect - `{ x, y, width, height }`.
   */
  search(rect: Rect): T[] {
    return this.list(this.rectQuery(rect, 0));
  }

  /**
   * Allocation-free `search`: writes the items to `out` from index 0 and returns their count
   * (entries of `out` past it are left as they were).
   */
  searchInto(rect: Rect, out: T[]): number {
    return this.into(this.rectQuery(rect, 0), out);
  }

  /** Items whose bounds contain the point (x, y) (edges count). */
  searchPoint(x: number, y: number): T[] {
    return this.list(this.pointQuery(x, y));
  }

  /** Allocation-free `searchPoint`: writes the items to `out` and returns their count. */
  searchPointInto(x: number, y: number, out: T[]): number {
    return this.into(this.pointQuery(x, y), out);
  }

  /**
   * Items whose bounds intersect the closed disc of centre (x, y) and radius r, decided exactly.
   */
  searchCircle(x: number, y: number, r: number): T[] {
    return this.list(this.circleQuery(x, y, r));
  }

  /** Allocation-free `searchCircle`: writes the items to `out` and returns their count. */
  searchCircleInto(x: number, y: number, r: number, out: T[]): number {
    return this.into(this.circleQuery(x, y, r), out);
  }

  /**
   * Items whose bounds intersect the closed segment (x1, y1)-(x2, y2), decided exactly.
   */
  searchSegment(x1: number, y1: number, x2: number, y2: number): T[] {
    return this.list(this.segmentQuery(x1, y1, x2, y2));
  }

  /** Allocation-free `searchSegment`: writes the items to `out` and returns their count. */
  searchSegmentInto(x1: number, y1: number, x2: number, y2: number, out: T[]): number {
    return this.into(this.segmentQuery(x1, y1, x2, y2), out);
  }

  /** Whether any item's bounds overlap the rectangle; stops at the first. */
  collides(rect: Rect): boolean {
    readQueryRect(rect);
    return this.engine.queryRect(BOUNDS, 0, 0, 1) > 0;
  }

  /**
   * The k items nearest to (x, y), nearest first, by the distance from the point to their bounds
   * (0 inside); only items within `maxDistance`. Among items at equal distance the order is that
   * of insertion slots.
   * @param k - how many (default 1).
   * @param maxDistance - farthest distance included (default Infinity).
   */
  nearest(x: number, y: number, k = 1, maxDistance = Number.POSITIVE_INFINITY): T[] {
    return this.list(this.nearestQuery(x, y, k, maxDistance));
  }

  /** Allocation-free `nearest`: writes the items to `out` nearest first and returns their count. */
  nearestInto(x: number, y: number, k: number, maxDistance: number, out: T[]): number {
    return this.into(this.nearestQuery(x, y, k, maxDistance), out);
  }

  /**
   * Calls `callback(a, b)` once for each pair of items whose bounds overlap, in a deterministic
   * order for a given state. Mutating the index from the callback throws.
   */
  pairs(callback: PairCallback<T>): void {
    checkFunction('callback', callback);
    this.notWalking('pairs');
    this.pairCallback = callback;
    this.pairItems = this.engine.store.items as T[];
    try {
      this.pairSlots(this.emitPair);
    } finally {
      this.pairCallback = noPair;
      this.pairItems = [];
    }
  }

  /**
   * Collision candidates in the manner of quadtree-js: every item of every node whose bounds the
   * rectangle touches. A superset of `search(rect)`, without duplicates.
   */
  retrieve(rect: Rect): T[] {
    return this.list(this.rectQuery(rect, 1));
  }

  /** Allocation-free `retrieve`: writes the items to `out` and returns their count. */
  retrieveInto(rect: Rect, out: T[]): number {
    return this.into(this.rectQuery(rect, 1), out);
  }

  /**
   * Calls `callback(node)` for each node, parents before children: `node` is
   * `{ x, y, width, height, depth, count }`, one object reused for every call. Return `true`
   * to skip the node's children. Mutating the index from the callback throws.
   */
  visit(callback: VisitCallback): void {
    checkFunction('callback', callback);
    this.notWalking('visit');
    this.engine.walking++;
    try {
      this.engine.visit(callback);
    } finally {
      this.engine.walking--;
    }
  }

  /**
   * Calls `callback(slotA, slotB)` for every overlapping pair, by item slot (for trackers
   * built on the index; see `ContactTracker`). Same rules as `pairs`.
   * @internal
   */
  pairSlots(callback: (a: number, b: number) => void): void {
    checkFunction('callback', callback);
    this.notWalking('pairs');
    this.engine.walking++;
    try {
      this.engine.pairs(callback);
    } finally {
      this.engine.walking--;
    }
  }

  /**
   * The item in a slot, and the slot's generation (it changes when the slot is freed), for
   * trackers built on `pairSlots`. The slot of an item, or -1.
   * @internal
   */
  itemOf(slot: number): T {
    return this.engine.store.items[slot] as T;
  }

  /** @internal */
  generationOf(slot: number): number {
    return this.engine.store.gen[slot]!;
  }

  /** @internal */
  slotOf(item: T): number {
    const s = this.engine.store.slots.get(item);
    return s === undefined ? -1 : s;
  }

  // Refuses to start a walk that calls user code inside another one (they share scratch space).
  private notWalking(method: string): void {
    if (this.engine.walking !== 0) {
      throw new Error(
        `quadkit: ${method}() cannot run inside a pairs() or visit() callback; collect first`,
      );
    }
  }

  private idle(method: string): void {
    if (this.engine.walking !== 0) {
      throw new Error(
        `quadkit: ${method}() was called from inside a pairs() or visit() callback; collect the changes and apply them after the walk`,
      );
    }
  }

  private rectQuery(rect: Rect, all: number): number {
    readQueryRect(rect);
    return this.engine.queryRect(BOUNDS, 0, all, Number.POSITIVE_INFINITY);
  }

  private pointQuery(x: number, y: number): number {
    checkFinite('x', x);
    checkFinite('y', y);
    return this.engine.queryRect(stage(x, y, x, y), 0, 0, Number.POSITIVE_INFINITY);
  }

  private circleQuery(x: number, y: number, r: number): number {
    checkFinite('x', x);
    checkFinite('y', y);
    checkNonNegative('r', r, false);
    return this.engine.searchShape(CIRCLE, stage(x, y, r, 0), 0);
  }

  private segmentQuery(x1: number, y1: number, x2: number, y2: number): number {
    checkFinite('x1', x1);
    checkFinite('y1', y1);
    checkFinite('x2', x2);
    checkFinite('y2', y2);
    return this.engine.searchShape(SEGMENT, stage(x1, y1, x2, y2), 0);
  }

  private nearestQuery(x: number, y: number, k: number, maxDistance: number): number {
    checkFinite('x', x);
    checkFinite('y', y);
    checkInteger('k', k, 0, Number.MAX_SAFE_INTEGER);
    checkNonNegative('maxDistance', maxDistance, true);
    return this.engine.nearest(stage(x, y, maxDistance, 0), 0, Math.min(k, this.size));
  }

  // The first n result slots as a new array of items, built at its exact length.
  private list(n: number): T[] {
    const { results, store } = this.engine;
    const items = store.items as T[];
    const out = new Array<T>(n);
    for (let i = 0; i < n; i++) out[i] = items[results[i]!]!;
    return out;
  }

  private into(n: number, out: T[]): number {
    const { results, store } = this.engine;
    const items = store.items as T[];
    for (let i = 0; i < n; i++) out[i] = items[results[i]!]!;
    return n;
  }
}
