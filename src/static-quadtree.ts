import { type AggregateCallback, type AggregateOptions, visitAfter } from './aggregates.js';
import { NodeTable } from './engine/aggregate.js';
import { PackedTree } from './engine/packed.js';
import type { BoxSource } from './engine/packed-build.js';
import { runLength } from './engine/packed-walk.js';
import { arraySource, itemSource, pointSource } from './engine/sources.js';
import { InvalidTypeError, InvalidValueError, wrongType } from './errors.js';
import { QueryIndex } from './queries.js';
import { boxesReader } from './typed-items.js';
import type { IndexSummary, Rect, RectLike, RequireToRect, ToRect } from './types.js';
import {
  BOX_LAYOUT,
  checkBounds,
  checkFlag,
  checkFunction,
  checkInteger,
  checkOptions,
  itemCount,
  POINT_LAYOUT,
} from './validate.js';

/** Options of {@link StaticQuadtree.fromBoxes} and `fromPoints`. */
export interface StaticBuildOptions {
  /** Children per node (default 16, from 2 to 65536). */
  nodeSize?: number | undefined;
  /**
   * The area for the space-filling curve (it steers only the order of the items, never which are
   * found); by default a box around the items: a sample's extent, widened, if it holds them all,
   * else their extent.
   */
  bounds?: Rect | undefined;
  /** Build in a SharedArrayBuffer, to share with worker threads (default false). */
  shared?: boolean | undefined;
}

/**
 * Options of {@link StaticQuadtree.from}: those of `fromBoxes`, and `toRect`, required when the
 * items are not `{ x, y, width?, height? }`.
 */
export interface StaticQuadtreeOptions<T> extends StaticBuildOptions {
  /**
   * Reads an item's bounds when items are not `{ x, y, width?, height? }`. The build calls it
   * about twice per item (it reads the items in two passes and keeps no copy of their boxes;
   * see `from`), never after; every answer is checked.
   */
  toRect?: ToRect<T> | undefined;
}

/** The settings in a StaticQuadtree's `toJSON()`. */
export interface StaticQuadtreeSettings {
  /** Children per node. */
  nodeSize: number;
  /** Whether the tree lives in a SharedArrayBuffer. */
  shared: boolean;
}

/** Default `nodeSize` (chosen by `npm run bench`). */
export const DEFAULT_NODE_SIZE = 16;
const BUILD_OPTIONS = [
  'nodeSize',
  'bounds',
  'shared',
] as const satisfies readonly (keyof StaticBuildOptions)[];
const FROM_OPTIONS = [
  ...BUILD_OPTIONS,
  'toRect',
] as const satisfies readonly (keyof StaticQuadtreeOptions<unknown>)[];

/**
 * A bulk-loaded, immutable spatial index packed into one ArrayBuffer: items sorted along a
 * Hilbert curve by radix sort and grouped bottom-up into nodes. The same queries as the dynamic
 * indexes (search, searchPoint, searchCircle, searchSegment, collides, nearest, pairs,
 * retrieve, visit, with allocation-free forms), minus the mutators. `toBuffer()` and
 * `StaticQuadtree.fromBuffer(buffer)` save and reopen it, also in a worker thread.
 *
 * The item type of `from(items)` is that of the items; items that are not rectangles need
 * `toRect`, or the call does not compile.
 *
 * @typeParam T - the item type; `number` (item indices) for trees built from raw coordinates or
 * opened from a buffer.
 */
export class StaticQuadtree<T = number> extends QueryIndex<T> {
  /** Children per node. */
  readonly nodeSize: number;
  private readonly tree: PackedTree;
  // The items in curve order (a copy), when there are items: every query answers leaf positions
  // and reads their items from here (window and shape queries in runs), not scattered over the
  // input order; leaf p holds item tree.indices[p] (input order).
  private readonly sorted: readonly T[] | null;
  private table: NodeTable | null = null;

  // `rank` (item i's leaf position, from the build) puts the items in curve order and is dropped.
  private constructor(tree: PackedTree, items: readonly T[] | null, rank: Uint32Array | null) {
    super(tree);
    this.tree = tree;
    this.nodeSize = tree.nodeSize;
    this.sorted = items === null || rank === null ? null : curveOrder(items, rank);
    if (this.sorted !== null) tree.answerPositions();
  }

  /**
   * Builds a tree over items that are `{ x, y, width?, height? }`; queries return the items.
   * @param items - the items; their bounds are read now and no later: twice, and without
   *   `bounds` once more for a sample (every item once more when the sample misses one).
   * @param options - `{ nodeSize = 16, bounds, shared = false, toRect }`.
   */
  static from<T extends RectLike>(
    items: readonly T[],
    options?: StaticQuadtreeOptions<T>,
  ): StaticQuadtree<T>;
  /**
   * Builds a tree over items whose bounds `toRect` reads; queries return the items.
   * @param items - the items; their bounds are read now and no later: twice, and without
   *   `bounds` once more for a sample (every item once more when the sample misses one).
   * @param options - `{ toRect, nodeSize = 16, bounds, shared = false }`.
   */
  static from<T>(
    items: readonly T[],
    options: StaticQuadtreeOptions<T> & RequireToRect<T>,
  ): StaticQuadtree<T>;
  static from<T>(items: readonly T[], options?: StaticQuadtreeOptions<T>): StaticQuadtree<T> {
    if (!Array.isArray(items))
      wrongType('StaticQuadtree.from(items): items', items, 'an array of items');
    const { toRect } = checkOptions(options, 'StaticQuadtree.from', FROM_OPTIONS, true);
    if (toRect !== undefined) checkFunction('options.toRect', toRect);
    const rank = new Uint32Array(items.length);
    return new StaticQuadtree<T>(
      build(itemSource(items, toRect), options ?? {}, rank, null),
      items,
      rank,
    );
  }

  /**
   * Builds a tree over raw boxes (minX, minY, maxX, maxY per item); queries return item indices.
   * @param boxes - 4 numbers per item.
   * @param options - `{ nodeSize = 16, bounds, shared = false }`.
   */
  static fromBoxes(
    boxes: ArrayLike<number>,
    options: StaticBuildOptions = {},
  ): StaticQuadtree<number> {
    const n = itemCount(boxes, 'StaticQuadtree.fromBoxes(boxes)', 4, BOX_LAYOUT);
    checkOptions(options, 'StaticQuadtree.fromBoxes', BUILD_OPTIONS, true);
    // The build only reads its input: a Float64Array is used as it is; other arrays are checked
    // and copied (a null or a string would otherwise become a number).
    const src = boxes instanceof Float64Array ? boxes : readBoxes(boxes, n);
    // (The build checks every box in its first pass over them.)
    return new StaticQuadtree<number>(build(arraySource(src, n), options, null, src), null, null);
  }

  /**
   * Builds a tree over raw points (x, y per item); queries return item indices.
   * @param points - 2 numbers per point.
   * @param options - `{ nodeSize = 16, bounds, shared = false }`.
   */
  static fromPoints(
    points: ArrayLike<number>,
    options: StaticBuildOptions = {},
  ): StaticQuadtree<number> {
    const n = itemCount(points, 'StaticQuadtree.fromPoints(points)', 2, POINT_LAYOUT);
    checkOptions(options, 'StaticQuadtree.fromPoints', BUILD_OPTIONS, true);
    // Read a chunk at a time as zero-size boxes (no copy of all the points at 32 bytes each).
    return new StaticQuadtree<number>(
      build(pointSource(points, n), options, null, null),
      null,
      null,
    );
  }

  /**
   * Opens a tree saved by `toBuffer()`, in O(1) plus a check of the whole buffer (header, size,
   * checksum and structure): a truncated, corrupted or foreign buffer throws an Error. Queries
   * return item indices. The buffer is used as it is, not copied.
   * @param buffer - an ArrayBuffer or SharedArrayBuffer from `toBuffer()`.
   */
  static fromBuffer(buffer: ArrayBuffer | SharedArrayBuffer): StaticQuadtree<number> {
    return new StaticQuadtree<number>(PackedTree.open(buffer), null, null);
  }

  /**
   * The whole tree as one buffer, to save, or to send to a worker (`postMessage(buffer,
   * [buffer])` transfers it; a SharedArrayBuffer is shared). A tree built with `shared` returns
   * its own SharedArrayBuffer; otherwise this is a copy, so transferring it leaves the tree intact.
   */
  toBuffer(): ArrayBuffer | SharedArrayBuffer {
    this.tree.seal();
    const data = this.tree.data;
    return data instanceof ArrayBuffer ? data.slice(0) : data;
  }

  /** Every item (or item index), in input order. */
  all(): T[] {
    const sorted = this.sorted;
    if (sorted === null) return Array.from({ length: this.size }, (_, i) => i as T);
    const indices = this.tree.indices;
    const out = sorted.slice();
    for (let p = 0; p < out.length; p++) out[indices[p]!] = sorted[p]!;
    return out;
  }

  /**
   * A small summary for `JSON.stringify` and logs: `{ kind: 'StaticQuadtree', size, nodes, depth,
   * options: { nodeSize, shared } }`, never the items or the buffer.
   */
  toJSON(): IndexSummary<StaticQuadtreeSettings> {
    const shared =
      typeof SharedArrayBuffer !== 'undefined' && this.tree.data instanceof SharedArrayBuffer;
    return this.summary('StaticQuadtree', { nodeSize: this.nodeSize, shared });
  }

  /**
   * Calls `callback(node)` for each inner node after all of its descendants (d3-quadtree's
   * visitAfter order), with the aggregate of the items under it: `count`, `weight`, the weighted
   * centroid `cx, cy` of the items' box centres, and `value`, the items' `map` values folded by
   * `reduce`. One bottom-up pass (O(nodes + items), no allocation once warm); `node` is one
   * object reused for every call. Items are item indices for trees without item objects.
   * @param callback - receives each node and its aggregate.
   * @param options - `{ weight = 1, map, reduce = sum, initial = 0 }`.
   */
  visitAfter(callback: AggregateCallback, options: AggregateOptions<T> = {}): void {
    this.table ??= new NodeTable();
    const slots = this.sorted === null ? null : this.tree.indices;
    visitAfter(this.tree, this.table, this.sorted, callback, options, slots);
  }

  protected slotItems(): readonly T[] | null {
    return this.sorted;
  }

  /** @internal */
  override pointItems(): boolean {
    return this.tree.allPoints();
  }

  // Over items, a window or shape query answers the leaves of a node inside the query as one run
  // of the items in curve order (see PackedTree.runs), read from there without a position each.
  protected override hitList(n: number): T[] {
    const sorted = this.sorted;
    if (sorted === null) return super.hitList(n);
    const entries = this.tree.results;
    const out = sorted.slice(0, runLength(entries, n));
    takeRuns(sorted, entries, n, out);
    return out;
  }

  protected override hitInto(n: number, out: T[]): number {
    const sorted = this.sorted;
    if (sorted === null) return super.hitInto(n, out);
    return takeRuns(sorted, this.tree.results, n, out);
  }
}

// The items in the order of the tree's leaves, item i at rank[i]: a copy of the array, then
// overwritten in input order (3x faster than pushing; `new Array(n)` takes as long at 1M items,
// about 5 ms in all, and is a slow dictionary-mode array past 32M).
function curveOrder<T>(items: readonly T[], rank: Uint32Array): T[] {
  // (A plain Array even when `items` is a subclass, whose slice would make one of its own.)
  const sorted: T[] =
    Object.getPrototypeOf(items) === Array.prototype ? items.slice() : Array.from(items);
  for (let i = 0; i < rank.length; i++) sorted[rank[i]!] = items[i]!;
  return sorted;
}

// Writes to `out` from 0 the items at the leaf positions of a walk's entries [0, n) (runs
// included, see runLength), in order; returns how many. A new array starts as a slice of
// `sorted` (see QueryIndex.list).
function takeRuns<T>(sorted: readonly T[], entries: Int32Array, n: number, out: T[]): number {
  let i = 0;
  for (let k = 0; k < n; k++) {
    const p = entries[k]!;
    if (p >= 0) {
      out[i++] = sorted[p]!;
      continue;
    }
    const end = ~p + entries[++k]!;
    for (let q = ~p; q < end; q++) out[i++] = sorted[q]!;
  }
  return i;
}

// Copies boxes 0..n-1 of `boxes` into a Float64Array, or throws naming the first that is not 4
// finite numbers with min <= max, as the typed-array door of the dynamic indexes does.
function readBoxes(boxes: ArrayLike<number>, n: number): Float64Array {
  const out = new Float64Array(4 * n);
  boxesReader(boxes).first(n, out, '');
  return out;
}

// Builds the packed tree. Items and points that are not boxes throw as they are read; a bad box
// of `boxes`, the Float64Array of the source if it is one, is named by readBoxes.
function build<T>(
  source: BoxSource,
  options: StaticQuadtreeOptions<T>,
  rank: Uint32Array | null,
  boxes: Float64Array | null,
): PackedTree {
  const { nodeSize = DEFAULT_NODE_SIZE, shared = false } = options;
  checkInteger('options.nodeSize', nodeSize, 2, 65536);
  checkFlag('options.shared', shared);
  let bounds: Float64Array | null = null;
  if (options.bounds !== undefined) {
    const b = checkBounds('options.bounds', options.bounds);
    bounds = Float64Array.of(b.x, b.y, b.x + b.width, b.y + b.height);
  }
  if (shared && typeof SharedArrayBuffer === 'undefined') {
    throw new InvalidTypeError(
      'quadkit: options.shared needs SharedArrayBuffer (a cross-origin isolated page)',
    );
  }
  const tree = PackedTree.build(source, nodeSize, shared === true, bounds, rank);
  if (tree === null) {
    if (boxes !== null) readBoxes(boxes, source.n);
    throw new InvalidValueError('quadkit: a box is not 4 finite numbers with min <= max');
  }
  return tree;
}
