import { type AggregateCallback, type AggregateOptions, visitAfter } from './aggregates.js';
import { DynamicIndex } from './dynamic.js';
import { NodeTable } from './engine/aggregate.js';
import { RegionTree } from './engine/tree.js';
import { openDoor, pointsReader } from './typed-items.js';
import type { IndexSummary, PointLike, Rect, RequireToPoint, ToPoint } from './types.js';
import { checkBounds, checkInteger, checkOptions, pointReader } from './validate.js';

/**
 * Options of a {@link PointQuadtree}. When the items are not `{ x, y }`, the constructor also
 * requires `toPoint` (see {@link RequireToPoint}).
 */
export interface PointQuadtreeOptions<T> {
  /** The area the points live in. Points outside it are still indexed (in the root node). */
  bounds: Rect;
  /** Points a leaf holds before it splits (default 32). */
  bucketSize?: number | undefined;
  /**
   * Depth of the deepest leaf (default 16, at most 30): it bounds splitting, so any number of
   * coincident points costs no more than one long leaf.
   */
  maxLevels?: number | undefined;
  /** Reads an item's position when items are not `{ x, y }`. */
  toPoint?: ToPoint<T> | undefined;
}

/** Default `bucketSize`. */
export const DEFAULT_BUCKET_SIZE = 32;
/** Default `maxLevels` of a PointQuadtree. */
export const DEFAULT_POINT_LEVELS = 16;
const OPTIONS = [
  'bounds',
  'bucketSize',
  'maxLevels',
  'toPoint',
] as const satisfies readonly (keyof PointQuadtreeOptions<unknown>)[];

/** The settings in a PointQuadtree's `toJSON()`. */
export interface PointQuadtreeSettings {
  /** The `bounds` option. */
  bounds: Rect;
  /** Points a leaf holds before it splits. */
  bucketSize: number;
  /** Depth of the deepest node. */
  maxLevels: number;
}

/**
 * A dynamic point quadtree (a bucket PR quadtree: each leaf holds up to `bucketSize` points and
 * splits into four quadrants beyond that), exact in every answer. `searchPoint(x, y)` finds the
 * items at exactly that point (the lookup of XZDXRZ's C++ point quadtree, "四叉树学习笔记");
 * `nearest` finds the k nearest points.
 *
 * The item type follows the data as for {@link Quadtree}: the parameter of `toPoint`, the items
 * of `PointQuadtree.from(items, options)`, the declared type, or the written one; else
 * {@link PointLike}. Items that are not points need `toPoint`, or the call does not compile.
 *
 * @typeParam T - the item type.
 */
export class PointQuadtree<T = PointLike> extends DynamicIndex<T> {
  /** The `bounds` option. */
  readonly bounds: Rect;
  /** Points a leaf holds before it splits. */
  readonly bucketSize: number;
  /** Depth of the deepest leaf. */
  readonly maxLevels: number;
  private readonly tree: RegionTree<T>;
  private table: NodeTable | null = null;

  /**
   * Creates an empty point quadtree.
   * @param options - `{ bounds, bucketSize = 32, maxLevels = 16, toPoint }`; `toPoint` is
   * required when the items are not `{ x, y }`. An unknown option throws an UnknownOptionError.
   */
  constructor(options: PointQuadtreeOptions<T> & RequireToPoint<T>) {
    checkOptions(options, 'PointQuadtree', OPTIONS, false);
    const bounds = checkBounds('options.bounds', options.bounds);
    const { bucketSize = DEFAULT_BUCKET_SIZE, maxLevels = DEFAULT_POINT_LEVELS } = options;
    checkInteger('options.bucketSize', bucketSize, 1, 2 ** 30);
    checkInteger('options.maxLevels', maxLevels, 0, 30);
    // Points never straddle a split line (a point on one goes right or up, and fits there), so
    // the region tree's classic placement puts every point in a leaf.
    const { x, y, width, height } = bounds;
    const tree = new RegionTree<T>(x, y, width, height, bucketSize, maxLevels, 1);
    super(tree, pointReader(options.toPoint));
    this.tree = tree;
    this.bounds = bounds;
    this.bucketSize = bucketSize;
    this.maxLevels = maxLevels;
  }

  /**
   * Creates a point quadtree holding `items` (as `load` adds them), its item type inferred from
   * them.
   * @param items - the first items.
   * @param options - as for the constructor.
   */
  static from<T>(
    items: readonly T[],
    options: PointQuadtreeOptions<T> & RequireToPoint<T>,
  ): PointQuadtree<T> {
    return new PointQuadtree<T>(options).load(items);
  }

  /**
   * Creates a point quadtree over the numbers 0 to n - 1, item i the point
   * (points[2i], points[2i+1]): the typed-array door, with no object per item. The array is
   * kept, not copied: after writing new numbers for item i, `update(i)` re-reads them, and
   * `updateAll()` re-reads every item's; `insert(i)` adds item i (the array may grow). Queries
   * and `pairs` answer the numbers.
   * @param points - 2 numbers per item (a Float64Array, or any array of numbers), kept by
   * reference.
   * @param options - as for the constructor, without `toPoint`.
   */
  static fromPoints(
    points: ArrayLike<number>,
    options: Omit<PointQuadtreeOptions<number>, 'toPoint'>,
  ): PointQuadtree<number> {
    const n = openDoor(points, 'PointQuadtree.fromPoints', options, OPTIONS, true);
    const tree = new PointQuadtree<number>(
      options as PointQuadtreeOptions<number> & RequireToPoint<number>,
    );
    return tree.loadNumbered(pointsReader(points), n);
  }

  /** @internal */
  override pointItems(): boolean {
    return true;
  }

  /**
   * A small summary for `JSON.stringify` and logs: `{ kind: 'PointQuadtree', size, nodes, depth,
   * options: { bounds, bucketSize, maxLevels } }`, never the items.
   */
  toJSON(): IndexSummary<PointQuadtreeSettings> {
    const { bounds, bucketSize, maxLevels } = this;
    return this.summary('PointQuadtree', { bounds: { ...bounds }, bucketSize, maxLevels });
  }

  /**
   * Calls `callback(node)` for each non-empty node after all of its descendants (d3-quadtree's
   * visitAfter order), with the aggregate of the items in its subtree: `count`, `weight`, the
   * weighted centroid `cx, cy`, and `value`, the items' `map` values folded by `reduce`. Computed
   * in one bottom-up pass over the tree as it is now (O(nodes + items), no allocation once
   * warm); `node` is one object reused for every call. Mutating the tree from the callback throws.
   * @param callback - receives each node and its aggregate.
   * @param options - `{ weight = 1, map, reduce = sum, initial = 0 }`.
   */
  visitAfter(callback: AggregateCallback, options: AggregateOptions<T> = {}): void {
    this.table ??= new NodeTable();
    visitAfter(this.tree, this.table, this.slotItems(), callback, options);
  }
}
