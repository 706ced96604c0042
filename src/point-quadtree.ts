import {
  type AggregateCallback,
  type AggregateOptions,
  NodeTable,
  visitAfter,
} from './aggregates.js';
import { DynamicIndex } from './dynamic.js';
import { RegionTree } from './engine/tree.js';
import type { PointLike, Rect, ToPoint } from './types.js';
import { checkBounds, checkInteger, pointReader } from './validate.js';

/** Options of a {@link PointQuadtree}. */
export interface PointQuadtreeOptions<T> {
  /** The area the points live in. Points outside it are still indexed (in the root node). */
  bounds: Rect;
  /** Points a leaf holds before it splits (default 32). */
  bucketSize?: number;
  /**
   * Depth of the deepest leaf (default 16, at most 30): it bounds splitting, so any number of
   * coincident points costs no more than one long leaf.
   */
  maxLevels?: number;
  /** Reads an item's position when items are not `{ x, y }`. */
  toPoint?: ToPoint<T>;
}

/** Default `bucketSize`. */
export const DEFAULT_BUCKET_SIZE = 32;
/** Default `maxLevels` of a PointQuadtree. */
export const DEFAULT_POINT_LEVELS = 16;

/**
 * A dynamic point quadtree (a bucket PR quadtree: each leaf holds up to `bucketSize` points and
 * splits into four quadrants beyond that), exact in every answer. `searchPoint(x, y)` finds the
 * items at exactly that point (seed 004's lookup); `nearest` finds the k nearest points.
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
   * @param options - `{ bounds, bucketSize = 32, maxLevels = 16, toPoint }`.
   */
  constructor(options: PointQuadtreeOptions<T>) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(
        'quadkit: new PointQuadtree(options) needs an options object with bounds',
      );
    }
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
