import { DynamicIndex } from './dynamic.js';
import { LooseGrid } from './engine/grid.js';
import { DEPTH_LIMIT } from './engine/grid-depth.js';
import type { Rect, RectLike, ToRect } from './types.js';
import { checkBounds, checkInteger, rectReader } from './validate.js';

/** Options of a {@link GridLooseQuadtree}. */
export interface GridLooseQuadtreeOptions<T> {
  /**
   * The area the items live in; the grid covers a square of side max(width, height) from its
   * minimum corner. Items outside it are still indexed (in an outside list).
   */
  bounds: Rect;
  /**
   * Pins the finest level (0 to 10): the grid has 4^depth cells there, of side
   * max(width, height) / 2^depth; memory is 16 bytes per cell, (4^(depth+1) - 1) / 3 cells in
   * all. By default the index chooses it from the items: finest cells that hold about 32 items
   * of the area the items cover, at most one level finer than the median item; chosen at
   * `load`, again when the count doubles or falls to a quarter, and when moves (`update`,
   * `updateAll`) take the ideal depth a level or more away (all items are then placed again).
   */
  depth?: number;
  /** Reads an item's bounds when items are not `{ x, y, width?, height? }`. */
  toRect?: ToRect<T>;
}

/** The depth of an empty index that chooses its own (until items come). */
export const DEFAULT_GRID_DEPTH = 6;

/**
 * A grid-loose quadtree: a complete loose quadtree stored as one grid per level, for scenes
 * where everything moves every frame. An item's level follows from its size and its cell from
 * its centre, so placing and relocating it is O(1); `update` of an item that stays inside its
 * cell's loose bounds (twice the cell) only writes its new bounds. Exact in every answer.
 *
 * @typeParam T - the item type.
 */
export class GridLooseQuadtree<T = RectLike> extends DynamicIndex<T> {
  /** The `bounds` option. */
  readonly bounds: Rect;
  private readonly grid: LooseGrid<T>;

  /**
   * Creates an empty grid-loose quadtree.
   * @param options - `{ bounds, depth, toRect }` (depth: chosen from the items unless given).
   */
  constructor(options: GridLooseQuadtreeOptions<T>) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(
        'quadkit: new GridLooseQuadtree(options) needs an options object with bounds',
      );
    }
    const bounds = checkBounds('options.bounds', options.bounds);
    const { depth = DEFAULT_GRID_DEPTH } = options;
    checkInteger('options.depth', depth, 0, DEPTH_LIMIT);
    const grid = new LooseGrid<T>(
      bounds.x,
      bounds.y,
      bounds.width,
      bounds.height,
      depth,
      options.depth === undefined,
    );
    super(grid, rectReader(options.toRect));
    this.grid = grid;
    this.bounds = bounds;
  }

  /** The finest level: the `depth` option, or the one chosen from the items. */
  get depth(): number {
    return this.grid.depth;
  }
}
