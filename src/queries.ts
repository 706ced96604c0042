// The queries every quadkit index shares: validation of query arguments at the boundary, the
// slot-to-item mapping, the walk guards, and each query in an allocating and an allocation-free
// form. DynamicIndex adds the mutators; StaticQuadtree uses these as they are.

import type { QueryEngine } from './engine/engine.js';
import { CIRCLE, POINT, RAY, SEGMENT } from './engine/scan.js';
import { WalkInProgressError } from './errors.js';
import type {
  IndexSummary,
  Neighbour,
  PairCallback,
  RayHit,
  Rect,
  VisitCallback,
  VisitNode,
} from './types.js';
import {
  checkCount,
  checkFinite,
  checkFunction,
  checkInteger,
  checkNonNegative,
  maxDistanceOf,
  readQueryRect,
} from './validate.js';

// Puts four query numbers in an index's argument array (`args`) and returns it.
function stage(args: Float64Array, a: number, b: number, c: number, d: number): Float64Array {
  args[0] = a;
  args[1] = b;
  args[2] = c;
  args[3] = d;
  return args;
}

/**
 * The read-only queries of a quadkit index over items of type T. Queries call no user code but
 * a `nearest` filter; `pairs` and `visit` do.
 *
 * @typeParam T - the item type (item indices, `number`, for indexes without item objects).
 */
export abstract class QueryIndex<T> {
  /** @internal */
  protected readonly engine: QueryEngine;
  /**
   * The argument array of this index's engine calls: the four numbers of the query under way,
   * or the bounds of the item being inserted or moved (the engines read them from offset 0).
   * Each index has its own, so that user code run during a call (`toRect`, a `nearest` filter)
   * may query other indexes without touching it.
   * @internal
   */
  protected readonly args = new Float64Array(4);

  // The filter of the nearest query under way (typed without T, which would make the class
  // contravariant in it), and the engine's view of it, by slot.
  private filter: ((item: unknown) => unknown) | null = null;
  private filterQuery: Float64Array | null = null;
  private readonly acceptSlot = (slot: number): boolean => {
    const items = this.slotItems();
    return !!this.filter!(items === null ? slot : items[slot]);
  };

  /** @internal */
  protected constructor(engine: QueryEngine) {
    this.engine = engine;
  }

  /** Number of items in the index. */
  get size(): number {
    return this.engine.size;
  }

  /**
   * The items by the numbers the engine answers (slots, or the static tree's leaf positions), or
   * null when those numbers are the answers (item indices).
   * @internal
   */
  protected abstract slotItems(): readonly T[] | null;

  /** Every item, in no particular order. */
  abstract all(): T[];

  /**
   * A small summary for `JSON.stringify` and logs: `{ kind, size, nodes, depth, options }`,
   * never the items or the engine. Like `visit`, not from inside a `pairs` or `visit` callback.
   */
  abstract toJSON(): IndexSummary;

  /**
   * Items whose bounds overlap the rectangle (closed: touching counts).
   * @param rect - `{ x, y, width, height }`.
   */
  search(rect: Rect): T[] {
    return this.hitList(this.rectQuery(rect, 0));
  }

  /**
   * Allocation-free `search`: writes the items to `out` from index 0 and returns their count
   * (entries of `out` past it are left as they were).
   */
  searchInto(rect: Rect, out: T[]): number {
    return this.hitInto(this.rectQuery(rect, 0), out);
  }

  /** Items whose bounds contain the point (x, y) (edges count). */
  searchPoint(x: number, y: number): T[] {
    return this.hitList(this.pointQuery(x, y));
  }

  /** Allocation-free `searchPoint`: writes the items to `out` and returns their count. */
  searchPointInto(x: number, y: number, out: T[]): number {
    return this.hitInto(this.pointQuery(x, y), out);
  }

  /**
   * Items whose bounds intersect the closed disc of centre (x, y) and radius r, decided exactly.
   */
  searchCircle(x: number, y: number, r: number): T[] {
    return this.hitList(this.circleQuery(x, y, r));
  }

  /** Allocation-free `searchCircle`: writes the items to `out` and returns their count. */
  searchCircleInto(x: number, y: number, r: number, out: T[]): number {
    return this.hitInto(this.circleQuery(x, y, r), out);
  }

  /**
   * Items whose bounds intersect the closed segment (x1, y1)-(x2, y2), decided exactly.
   */
  searchSegment(x1: number, y1: number, x2: number, y2: number): T[] {
    return this.hitList(this.segmentQuery(x1, y1, x2, y2));
  }

  /** Allocation-free `searchSegment`: writes the items to `out` and returns their count. */
  searchSegmentInto(x1: number, y1: number, x2: number, y2: number, out: T[]): number {
    return this.hitInto(this.segmentQuery(x1, y1, x2, y2), out);
  }

  /** Whether any item's bounds overlap the rectangle; stops at the first. */
  collides(rect: Rect): boolean {
    this.notFiltering();
    readQueryRect(rect, this.args);
    return this.engine.queryRect(this.args, 0, 0, 1) > 0;
  }

  /**
   * The k items nearest to (x, y), nearest first, by the distance from the point to their bounds
   * (0 inside); only items within `maxDistance`. Among items at equal distance the order is that
   * of insertion slots. `k = Infinity` gives every item within `maxDistance`, sorted (with
   * `maxDistance = Infinity` too: every item, sorted by distance, in O(n log n)).
   * @param x - the query point's x.
   * @param y - the query point's y.
   * @param k - how many: an integer >= 0, or Infinity for all (default 1).
   * @param maxDistance - farthest distance included (default Infinity; null or undefined is
   * Infinity too, as d3-quadtree's `find` takes a missing radius).
   * @param filter - keeps only the items it returns true for (as flatbush's `neighbors` filter):
   * the k nearest of those. It is called only for items near enough to be among them, and must
   * not query or change the index.
   */
  nearest(
    x: number,
    y: number,
    k = 1,
    maxDistance: number | null = Number.POSITIVE_INFINITY,
    filter?: (item: T) => unknown,
  ): T[] {
    return this.list(this.nearestQuery(x, y, k, maxDistance, filter), this.slotItems());
  }

  /**
   * `nearest` with the distances: `{ item, distance }` for each of the k nearest items, nearest
   * first (the same items in the same order as `nearest`).
   * @param x - the query point's x.
   * @param y - the query point's y.
   * @param k - how many: an integer >= 0, or Infinity for all within `maxDistance` (default 1).
   * @param maxDistance - farthest distance included (default Infinity; null or undefined is
   * Infinity too, as d3-quadtree's `find` takes a missing radius).
   * @param filter - keeps only the items it returns true for (see `nearest`).
   */
  nearestWithDistances(
    x: number,
    y: number,
    k = 1,
    maxDistance: number | null = Number.POSITIVE_INFINITY,
    filter?: (item: T) => unknown,
  ): Neighbour<T>[] {
    const n = this.nearestQuery(x, y, k, maxDistance, filter);
    const keys = this.engine.best.keys;
    const out = new Array<Neighbour<T>>(n);
    for (let i = 0; i < n; i++) out[i] = { item: this.itemAt(i), distance: keys[i]! };
    return out;
  }

  /**
   * Allocation-free `nearest`: writes the items to `out` nearest first, and their distances to
   * `distances` when given, and returns their count.
   * @param x - the query point's x.
   * @param y - the query point's y.
   * @param k - how many: an integer >= 0, or Infinity for all within `maxDistance`.
   * @param maxDistance - farthest distance included (null or undefined: Infinity).
   * @param out - receives the items from index 0.
   * @param distances - receives the distances from index 0 (optional).
   * @param filter - keeps only the items it returns true for (see `nearest`).
   */
  nearestInto(
    x: number,
    y: number,
    k: number,
    maxDistance: number | null | undefined,
    out: T[],
    distances?: Float64Array | number[],
    filter?: (item: T) => unknown,
  ): number {
    const n = this.fill(this.nearestQuery(x, y, k, maxDistance, filter), out, this.slotItems());
    if (distances !== undefined) {
      const keys = this.engine.best.keys;
      for (let i = 0; i < n; i++) distances[i] = keys[i]!;
    }
    return n;
  }

  /**
   * The first item whose bounds the segment from (x1, y1) to (x2, y2) meets, and its distance
   * from (x1, y1) along the segment (0 when the start is inside it), or null when it meets none.
   * Nodes are visited nearest first and the search shrinks to the best hit so far. Among hits at
   * equal distance, the first in insertion-slot order wins.
   */
  raycast(x1: number, y1: number, x2: number, y2: number): RayHit<T> | null {
    const n = this.rayQuery(x1, y1, x2, y2, 1);
    if (n === 0) return null;
    return { item: this.itemAt(0), distance: this.rayDistance(0, x1, y1, x2, y2) };
  }

  /** Every item whose bounds the segment meets, in order of distance along it (see `raycast`). */
  raycastAll(x1: number, y1: number, x2: number, y2: number): RayHit<T>[] {
    const n = this.rayQuery(x1, y1, x2, y2, this.size);
    const hits = new Array<RayHit<T>>(n);
    for (let i = 0; i < n; i++) {
      hits[i] = { item: this.itemAt(i), distance: this.rayDistance(i, x1, y1, x2, y2) };
    }
    return hits;
  }

  /**
   * Allocation-free ray cast: writes the first `k` hits in order of distance, their items to
   * `items` and their distances to `distances`, and returns how many (k = 1: the first hit).
   */
  raycastInto(
    x1: number,
    y1: number,
    x2: number,
    y2: number,
    k: number,
    items: T[],
    distances: Float64Array | number[],
  ): number {
    const n = this.rayQuery(x1, y1, x2, y2, k);
    for (let i = 0; i < n; i++) {
      items[i] = this.itemAt(i);
      distances[i] = this.rayDistance(i, x1, y1, x2, y2);
    }
    return n;
  }

  // The three members below are what quadkit/geo uses of an index (GeoAccess in
  // engine/engine.ts); pairSlots, with DynamicIndex's itemOf, generationOf and slotOf, what
  // ContactTracker uses (SlotAccess there).

  /**
   * Items whose bounds overlap the closed box from (minX, minY) to (maxX, maxY), whose edges may
   * be infinite; with `limit`, the search stops soon after finding that many. The arguments are
   * checked by the caller (the quadkit/geo front doors).
   * @internal
   */
  searchEdges(minX: number, minY: number, maxX: number, maxY: number, limit: number): T[] {
    this.notFiltering();
    return this.hitList(
      this.engine.queryRect(stage(this.args, minX, minY, maxX, maxY), 0, 0, limit),
    );
  }

  /**
   * Whether every item is known to be a point (a zero-size box): true for a PointQuadtree and a
   * StaticQuadtree of points.
   * @internal
   */
  pointItems(): boolean {
    return false;
  }

  /**
   * Best-first search under an engine metric (see `boxKey` in engine/scan.ts) with the query
   * numbers q[0..]: writes the items with the k smallest keys (k clipped to the size),
   * smallest first, ties by insertion slot, to `out` and their keys to `keys`; returns how many.
   * The arguments are checked by the caller (the quadkit/geo front doors), but the filter.
   * @internal
   */
  bestFirstInto(
    metric: number,
    q: Float64Array,
    k: number,
    out: T[],
    keys: Float64Array | number[],
    filter?: (item: T) => unknown,
  ): number {
    this.notFiltering();
    const n = this.bestFirst(metric, q, k, filter);
    const found = this.engine.best.keys;
    for (let i = 0; i < n; i++) keys[i] = found[i]!;
    return this.fill(n, out, this.slotItems());
  }

  /**
   * Calls `callback(a, b)` once for each pair of items whose bounds overlap, in a deterministic
   * order for a given state. Mutating the index from the callback throws.
   */
  pairs(callback: PairCallback<T>): void {
    checkFunction('callback', callback);
    // The engine maps slots to items itself: one call per pair, straight to the callback.
    const items = this.slotItems();
    const cb = callback as unknown as (a: number, b: number) => void;
    this.walk('pairs', () => this.engine.pairs(cb, items));
  }

  /**
   * Collision candidates in the manner of quadtree-js: every item of every node whose bounds the
   * rectangle touches. A superset of `search(rect)`, without duplicates.
   */
  retrieve(rect: Rect): T[] {
    return this.hitList(this.rectQuery(rect, 1));
  }

  /** Allocation-free `retrieve`: writes the items to `out` and returns their count. */
  retrieveInto(rect: Rect, out: T[]): number {
    return this.hitInto(this.rectQuery(rect, 1), out);
  }

  /**
   * Calls `callback(node)` for each node, parents before children: `node` is
   * `{ x, y, width, height, depth, count }`, one object reused for every call. Return `true`
   * to skip the node's children. Mutating the index from the callback throws.
   */
  visit(callback: VisitCallback): void {
    checkFunction('callback', callback);
    this.walk('visit', () => this.engine.visit(callback));
  }

  /**
   * The summary `toJSON` gives: kind, size, the nodes `visit` reports and their depth, and the
   * settings. Like `visit`, it cannot run inside a `pairs` or `visit` callback.
   * @internal
   */
  protected summary<O extends object>(kind: string, options: O): IndexSummary<O> {
    let nodes = 0;
    let depth = 0;
    this.visit((node: VisitNode) => {
      nodes++;
      if (node.depth > depth) depth = node.depth;
    });
    return { kind, size: this.size, nodes, depth, options };
  }

  /**
   * Calls `callback(slotA, slotB)` for every overlapping pair, by item slot (for trackers
   * built on a dynamic index; see `ContactTracker`), or by the numbers of `slotItems()` on a
   * static tree over objects. Same rules as `pairs`.
   * @internal
   */
  pairSlots(callback: (a: number, b: number) => void): void {
    checkFunction('callback', callback);
    this.walk('pairs', () => this.engine.pairs(callback, null));
  }

  // Runs a walk that calls user code (`visit`, the pair walk of `pairs` and `pairSlots`): refused
  // inside another one (they share scratch space); the index refuses changes until it ends.
  private walk(method: string, run: () => void): void {
    if (this.engine.walking !== 0) {
      throw new WalkInProgressError(
        `quadkit: ${method}() cannot run inside a pairs() or visit() callback or a nearest() filter; collect first`,
      );
    }
    this.engine.walking++;
    try {
      run();
    } finally {
      this.engine.walking--;
    }
  }

  // Refuses a query from inside a nearest filter: the search under way holds the engine's
  // scratch (its queue, heap and stack).
  private notFiltering(): void {
    if (this.filter !== null) {
      throw new WalkInProgressError(
        'quadkit: the index cannot be queried from inside a nearest() filter (it is mid-search); the filter should only read the item',
      );
    }
  }

  private rectQuery(rect: Rect, all: number): number {
    this.notFiltering();
    readQueryRect(rect, this.args);
    return this.engine.queryRect(this.args, 0, all, Number.POSITIVE_INFINITY);
  }

  private pointQuery(x: number, y: number): number {
    this.notFiltering();
    checkFinite('x', x);
    checkFinite('y', y);
    return this.engine.queryRect(stage(this.args, x, y, x, y), 0, 0, Number.POSITIVE_INFINITY);
  }

  private circleQuery(x: number, y: number, r: number): number {
    this.notFiltering();
    checkFinite('x', x);
    checkFinite('y', y);
    checkNonNegative('r', r, false);
    return this.engine.searchShape(CIRCLE, stage(this.args, x, y, r, 0), 0);
  }

  private segmentQuery(x1: number, y1: number, x2: number, y2: number): number {
    this.notFiltering();
    checkFinite('x1', x1);
    checkFinite('y1', y1);
    checkFinite('x2', x2);
    checkFinite('y2', y2);
    return this.engine.searchShape(SEGMENT, stage(this.args, x1, y1, x2, y2), 0);
  }

  private nearestQuery(
    x: number,
    y: number,
    k: number,
    maxDistance: number | null | undefined,
    filter: ((item: T) => unknown) | undefined,
  ): number {
    this.notFiltering();
    checkFinite('x', x);
    checkFinite('y', y);
    checkCount('k', k);
    return this.bestFirst(POINT, stage(this.args, x, y, maxDistanceOf(maxDistance), 0), k, filter);
  }

  // The best-first search of `nearest` and of the quadkit/geo doors, with or without a filter.
  private bestFirst(
    metric: number,
    q: Float64Array,
    k: number,
    filter: ((item: T) => unknown) | undefined,
  ): number {
    const { engine } = this;
    if (filter === undefined) return engine.nearest(metric, q, 0, k);
    checkFunction('filter', filter);
    // The heap asks the filter for each item it would keep; meanwhile the index is read-only.
    // The filter may query other indexes, and the quadkit/geo doors stage the numbers of every
    // index's search in one array of their own (the walk reads q as it goes): this search reads
    // a copy of its own.
    if (this.filterQuery === null) this.filterQuery = new Float64Array(8);
    const own = this.filterQuery;
    own.set(q);
    this.filter = filter as (item: unknown) => unknown;
    engine.best.accept = this.acceptSlot;
    engine.walking++;
    try {
      return engine.nearest(metric, own, 0, k);
    } finally {
      engine.walking--;
      engine.best.accept = null;
      this.filter = null;
    }
  }

  private rayQuery(x1: number, y1: number, x2: number, y2: number, k: number): number {
    this.notFiltering();
    checkFinite('x1', x1);
    checkFinite('y1', y1);
    checkFinite('x2', x2);
    checkFinite('y2', y2);
    checkInteger('k', k, 0, Number.MAX_SAFE_INTEGER);
    return this.engine.nearest(RAY, stage(this.args, x1, y1, x2, y2), 0, k);
  }

  // The distance along the segment of the i-th hit of the last ray cast.
  private rayDistance(i: number, x1: number, y1: number, x2: number, y2: number): number {
    const t = this.engine.best.keys[i]!;
    return t === 0 ? 0 : t * Math.hypot(x2 - x1, y2 - y1);
  }

  // The item of the i-th result slot.
  private itemAt(i: number): T {
    const slot = this.engine.results[i]!;
    const items = this.slotItems();
    return items === null ? (slot as T) : items[slot]!;
  }

  /**
   * The items of the first n answers of a window or shape query, as a new array.
   * @internal
   */
  protected hitList(n: number): T[] {
    return this.list(n, this.slotItems());
  }

  /**
   * Writes the items of the first n answers of a window or shape query to `out`; returns how
   * many.
   * @internal
   */
  protected hitInto(n: number, out: T[]): number {
    return this.fill(n, out, this.slotItems());
  }

  // The first n results as a new array of items (`items` by result, or the results themselves
  // when null), built at its exact length. An item array starts as a slice of `items` (n <= its
  // length): a copy of the right elements kind, so the stores below need no transition, about
  // 1.5 ns per item less than filling `new Array(n)`; its own loop keeps its stores' feedback
  // apart from `fill`'s, whose arrays are the caller's.
  private list(n: number, items: readonly T[] | null): T[] {
    if (items === null) {
      const numbers = new Array<T>(n);
      this.fill(n, numbers, null);
      return numbers;
    }
    const out = items.slice(0, n);
    const results = this.engine.results;
    for (let i = 0; i < n; i++) out[i] = items[results[i]!]!;
    return out;
  }

  // Writes the first n results to `out` as items (`items` by result, or the results themselves
  // when null); returns n.
  private fill(n: number, out: T[], items: readonly T[] | null): number {
    const results = this.engine.results;
    if (items === null) for (let i = 0; i < n; i++) out[i] = results[i]! as T;
    else for (let i = 0; i < n; i++) out[i] = items[results[i]!]!;
    return n;
  }
}
