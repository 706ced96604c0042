import { DynamicIndex } from './dynamic.js';
import { LooseGrid } from './engine/grid.js';
import { DEPTH_LIMIT } from './engine/grid-depth.js';
import { boxesReader, openDoor } from './typed-items.js';
import type { IndexSummary, Rect, RectLike, RequireToRect, ToRect } from './types.js';
import { checkBounds, checkInteger, checkOptions, rectReader } from './validate.js';

/**
 * Options of a {@link GridLooseQuadtree}. When the items are not `{ x, y, width?, height? }`,
 * the constructor also requires `toRect` (see {@link RequireToRect}).
 */
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
   * `load` or the first insert, again when the count doubles or falls to a quarter, and when
   * moves (`update`, `updateAll`) take the ideal depth a level or more away (all items are then
   * placed again); {@link DEFAULT_GRID_DEPTH} while the index is empty.
   */
  depth?: number | undefined;
  /** Reads an item's bounds when items are not `{ x, y, width?, height? }`. */
  toRect?: ToRect<T> | undefined;
}

/** The depth of an empty index that chooses its own (until items come). */
export const DEFAULT_GRID_DEPTH = 6;
const OPTIONS = [
  'bounds',
  'depth',
  'toRect',
] as const satisfies readonly (keyof GridLooseQuadtreeOptions<unknown>)[];

/** The settings in a GridLooseQuadtree's `toJSON()`. */
export interface GridLooseQuadtreeSettings {
  /** The `bounds` option. */
  bounds: Rect;
  /** The finest level (given, or chosen from the items). */
  depth: number;
}

/**
 * A grid-loose quadtree: a complete loose quadtree stored as one grid per level, for scenes
 * where everything moves every frame. An item's level follows from its size and its cell from
 * its centre, so placing and relocating it is O(1); `update` of an item that stays inside its
 * cell's loose bounds (twice the cell) only writes its new bounds. Exact in every answer.
 *
 * The item type follows the data as for {@link Quadtree}: the parameter of `toRect`, the items of
 * `GridLooseQuadtree.from(items, options)`, the declared type, or the written one; else
 * {@link RectLike}. Items that are not rectangles need `toRect`, or the call does not compile.
 *
 * @typeParam T - the item type.
 */
export class GridLooseQuadtree<T = RectLike> extends DynamicIndex<T> {
  /** The `bounds` option. */
  readonly bounds: Rect;
  private readonly grid: LooseGrid<T>;
  /** Whether the `depth` option was given. */
  private readonly pinned: boolean;

  /**
   * Creates an empty grid-loose quadtree.
   * @param options - `{ bounds, depth, toRect }` (depth: chosen from the items unless given);
   * `toRect` is required when the items are not `{ x, y, width?, height? }`. An unknown option
   * throws an UnknownOptionError.
   */
  constructor(options: GridLooseQuadtreeOptions<T> & RequireToRect<T>) {
    checkOptions(options, 'GridLooseQuadtree', OPTIONS, false);
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
    this.pinned = options.depth !== undefined;
    this.bounds = bounds;
  }

  /**
   * The finest level: the `depth` option, or the one chosen from the items; without the option,
   * {@link DEFAULT_GRID_DEPTH} while the index is empty (after `clear()` or the last `remove`
   * too, as in a new index: the next items choose the depth again).
   */
  get depth(): number {
    this.grid.flush();
    return this.pinned || this.size > 0 ? this.grid.depth : DEFAULT_GRID_DEPTH;
  }

  /**
   * Creates a grid holding `items` (as `load` adds them), its item type inferred from them.
   * @param items - the first items.
   * @param options - as for the constructor.
   */
  static from<T>(
    items: readonly T[],
    options: GridLooseQuadtreeOptions<T> & RequireToRect<T>,
  ): GridLooseQuadtree<T> {
    return new GridLooseQuadtree<T>(options).load(items);
  }

  /**
   * Creates a grid over the numbers 0 to n - 1, item i the box boxes[4i..4i+3]
   * (minX, minY, maxX, maxY): the typed-array door, with no object per item. The array is kept,
   * not copied: after writing new numbers for item i, `update(i)` re-reads them, and
   * `updateAll()` re-reads every item's; `insert(i)` adds item i (the array may grow). Queries
   * and `pairs` answer the numbers.
   * @param boxes - 4 numbers per item (a Float64Array, or any array of numbers), kept by
   * reference.
   * @param options - as for the constructor, without `toRect`.
   */
  static fromBoxes(
    boxes: ArrayLike<number>,
    options: Omit<GridLooseQuadtreeOptions<number>, 'toRect'>,
  ): GridLooseQuadtree<number> {
    const n = openDoor(boxes, 'GridLooseQuadtree.fromBoxes', options, OPTIONS, false);
    const grid = new GridLooseQuadtree<number>(
      options as GridLooseQuadtreeOptions<number> & RequireToRect<number>,
    );
    return grid.loadNumbered(boxesReader(boxes), n);
  }

  /**
   * A small summary for `JSON.stringify` and logs: `{ kind: 'GridLooseQuadtree', size, nodes,
   * depth, options: { bounds, depth } }` (`nodes`: the cells `visit` reports), never the items.
   */
  toJSON(): IndexSummary<GridLooseQuadtreeSettings> {
    return this.summary('GridLooseQuadtree', { bounds: { ...this.bounds }, depth: this.depth });
  }
}
