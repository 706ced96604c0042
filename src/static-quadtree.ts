import {
  type AggregateCallback,
  type AggregateOptions,
  NodeTable,
  visitAfter,
} from './aggregates.js';
import { PackedTree } from './engine/packed.js';
import { QueryIndex } from './queries.js';
import type { Rect, RectLike, ToRect } from './types.js';
import { BOUNDS, checkBounds, checkFunction, checkInteger, readItem } from './validate.js';

/** Options of {@link StaticQuadtree.from}, `fromBoxes` and `fromPoints`. */
export interface StaticQuadtreeOptions<T> {
  /** Children per node (default 16, from 2 to 65536). */
  nodeSize?: number;
  /**
   * The area for the space-filling curve (it steers only the order of the items, never which are
   * found); by default a box around the items: a sample's extent, widened, if it holds them all,
   * else their extent.
   */
  bounds?: Rect;
  /** Build in a SharedArrayBuffer, to share with worker threads (default false). */
  shared?: boolean;
  /** Reads an item's bounds when items are not `{ x, y, width?, height? }` (`from` only). */
  toRect?: ToRect<T>;
}

/** Default `nodeSize` (chosen by `npm run bench`). */
export const DEFAULT_NODE_SIZE = 16;

/**
 * A bulk-loaded, immutable spatial index packed into one ArrayBuffer: items sorted along a
 * Hilbert curve by radix sort and grouped bottom-up into nodes. The same queries as the dynamic
 * indexes (search, searchPoint, searchCircle, searchSegment, collides, nearest, pairs,
 * retrieve, visit, with allocation-free forms), minus the mutators. `toBuffer()` and
 * `StaticQuadtree.fromBuffer(buffer)` save and reopen it, also in a worker thread.
 *
 * @typeParam T - the item type; `number` (item indices) for trees built from raw coordinates or
 * opened from a buffer.
 */
export class StaticQuadtree<T = number> extends QueryIndex<T> {
  /** Children per node. */
  readonly nodeSize: number;
  private readonly tree: PackedTree;
  private readonly items: readonly T[] | null;
  private table: NodeTable | null = null;

  private constructor(tree: PackedTree, items: readonly T[] | null) {
    super(tree);
    this.tree = tree;
    this.items = items;
    this.nodeSize = tree.nodeSize;
  }

  /**
   * Builds a tree over items; queries return the items.
   * @param items - the items; their bounds are read once, now.
   * @param options - `{ nodeSize = 16, bounds, shared = false, toRect }`.
   */
  static from<T = RectLike>(
    items: readonly T[],
    options: StaticQuadtreeOptions<T> = {},
  ): StaticQuadtree<T> {
    if (!Array.isArray(items))
      throw new TypeError('quadkit: StaticQuadtree.from(items) needs an array of items');
    checkOptions(options);
    const { toRect } = options;
    if (toRect !== undefined) checkFunction('options.toRect', toRect);
    const n = items.length;
    const boxes = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      try {
        readItem(items[i] as T, toRect);
      } catch (e) {
        if (e instanceof Error) e.message = `${e.message} (items[${i}])`;
        throw e;
      }
      boxes[4 * i] = BOUNDS[0]!;
      boxes[4 * i + 1] = BOUNDS[1]!;
      boxes[4 * i + 2] = BOUNDS[2]!;
      boxes[4 * i + 3] = BOUNDS[3]!;
    }
    return new StaticQuadtree<T>(build(boxes, n, options), items.slice());
  }

  /**
   * Builds a tree over raw boxes (minX, minY, maxX, maxY per item); queries return item indices.
   * @param boxes - 4 numbers per item.
   * @param options - `{ nodeSize = 16, bounds, shared = false }`.
   */
  static fromBoxes(
    boxes: ArrayLike<number>,
    options: StaticQuadtreeOptions<number> = {},
  ): StaticQuadtree<number> {
    if (
      boxes === null ||
      typeof boxes !== 'object' ||
      typeof boxes.length !== 'number' ||
      boxes.length % 4 !== 0
    ) {
      throw new TypeError(
        'quadkit: StaticQuadtree.fromBoxes(boxes) needs an array of 4 numbers per box',
      );
    }
    checkOptions(options);
    const n = boxes.length / 4;
    // The build only reads its input: a Float64Array is used as it is; other arrays are checked
    // (a null or a string would otherwise become a number).
    const src = boxes instanceof Float64Array ? boxes : toNumbers(boxes, 'boxes');
    // (The build checks every box in its first pass over them.)
    return new StaticQuadtree<number>(build(src, n, options), null);
  }

  /**
   * Builds a tree over raw points (x, y per item); queries return item indices.
   * @param points - 2 numbers per point.
   * @param options - `{ nodeSize = 16, bounds, shared = false }`.
   */
  static fromPoints(
    points: ArrayLike<number>,
    options: StaticQuadtreeOptions<number> = {},
  ): StaticQuadtree<number> {
    if (
      points === null ||
      typeof points !== 'object' ||
      typeof points.length !== 'number' ||
      points.length % 2 !== 0
    ) {
      throw new TypeError(
        'quadkit: StaticQuadtree.fromPoints(points) needs an array of 2 numbers per point',
      );
    }
    checkOptions(options);
    const n = points.length / 2;
    const src = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      const x = points[2 * i]!;
      const y = points[2 * i + 1]!;
      if (typeof x !== 'number' || x - x !== 0)
        throw new RangeError(`quadkit: points[${2 * i}] must be a finite number, got ${x}`);
      if (typeof y !== 'number' || y - y !== 0)
        throw new RangeError(`quadkit: points[${2 * i + 1}] must be a finite number, got ${y}`);
      src[4 * i] = x;
      src[4 * i + 1] = y;
      src[4 * i + 2] = x;
      src[4 * i + 3] = y;
    }
    return new StaticQuadtree<number>(build(src, n, options), null);
  }

  /**
   * Opens a tree saved by `toBuffer()`, in O(1) plus a check of the whole buffer (header, size,
   * checksum and structure): a truncated, corrupted or foreign buffer throws an Error. Queries
   * return item indices. The buffer is used as it is, not copied.
   * @param buffer - an ArrayBuffer or SharedArrayBuffer from `toBuffer()`.
   */
  static fromBuffer(buffer: ArrayBuffer | SharedArrayBuffer): StaticQuadtree<number> {
    return new StaticQuadtree<number>(PackedTree.open(buffer), null);
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
    if (this.items !== null) return this.items.slice();
    return Array.from({ length: this.size }, (_, i) => i as T);
  }

  /** @internal */
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
    visitAfter(this.tree, this.table, this.items, callback, options);
  }

  protected slotItems(): readonly T[] | null {
    return this.items;
  }
}

function checkOptions(options: unknown): void {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `quadkit: options must be an object { nodeSize, bounds, shared, toRect }, got ${String(options)}`,
    );
  }
}

// Throws naming the first box that is not 4 finite numbers with min <= max.
function checkBoxes(src: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const j = 4 * i;
    const a = src[j]!;
    const b = src[j + 1]!;
    const c = src[j + 2]!;
    const d = src[j + 3]!;
    if (!(a <= c && b <= d && a - a === 0 && b - b === 0 && c - c === 0 && d - d === 0)) {
      throw new RangeError(
        `quadkit: box ${i} must be 4 finite numbers minX <= maxX, minY <= maxY, got [${a}, ${b}, ${c}, ${d}]`,
      );
    }
  }
}

// Copies an array of numbers into a Float64Array, refusing anything that is not a number.
function toNumbers(values: ArrayLike<number>, name: string): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number') {
      throw new TypeError(
        `quadkit: ${name}[${i}] (box ${Math.floor(i / 4)}) must be a number, got ${v === null ? 'null' : typeof v}`,
      );
    }
    out[i] = v;
  }
  return out;
}

// Builds the packed tree; a bad box is named by checkBoxes.
function build<T>(boxes: Float64Array, n: number, options: StaticQuadtreeOptions<T>): PackedTree {
  const { nodeSize = DEFAULT_NODE_SIZE, shared = false } = options;
  checkInteger('options.nodeSize', nodeSize, 2, 65536);
  let bounds: Float64Array | null = null;
  if (options.bounds !== undefined) {
    const b = checkBounds('options.bounds', options.bounds);
    bounds = Float64Array.of(b.x, b.y, b.x + b.width, b.y + b.height);
  }
  if (shared && typeof SharedArrayBuffer === 'undefined') {
    throw new TypeError(
      'quadkit: options.shared needs SharedArrayBuffer (a cross-origin isolated page)',
    );
  }
  const tree = PackedTree.build(boxes, n, nodeSize, shared === true, bounds);
  if (tree === null) {
    checkBoxes(boxes, n);
    throw new RangeError('quadkit: a box is not 4 finite numbers with min <= max');
  }
  return tree;
}
