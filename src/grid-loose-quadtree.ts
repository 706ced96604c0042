import { DynamicIndex } from './dynamic.js';
import { LooseGrid } from './engine/grid.js';
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
   * The finest level (default 6, at most 10): the grid has 4^depth cells there, of side
   * max(width, height) / 2^depth. Choose it so that the finest cells are about the size of
   * your smallest items; memory is 16 bytes per cell, (4^(depth+1) - 1) / 3 cells in all.
   */
  depth?: number;
  /** Reads an item's bounds when items are not `{ x, y, width?, height? }`. */
  toRect?: ToRect<T>;
}

/** Default `depth` (chosen by `npm run bench`). */
export const DEFAULT_GRID_DEPTH = 6;
const DEPTH_LIMIT = 10;

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
  /** The finest level. */
  readonly depth: number;

  /**
   * Creates an empty grid-loose quadtree.
   * @param options - `{ bounds, depth = 6, toRect }`.
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
    super(
      new LooseGrid<T>(bounds.x, bounds.y, bounds.width, bounds.height, depth),
      rectReader(options.toRect),
    );
    this.bounds = bounds;
    this.depth = depth;
  }
}
