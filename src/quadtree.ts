import { DynamicIndex } from './dynamic.js';
import { RegionTree } from './engine/tree.js';
import { boxesReader, openDoor } from './typed-items.js';
import type { IndexSummary, Rect, RectLike, RequireToRect, ToRect } from './types.js';
import { checkBounds, checkInteger, checkOptions, checkRange, rectReader } from './validate.js';

/**
 * Options of a {@link Quadtree}. When the items are not `{ x, y, width?, height? }`, the
 * constructor also requires `toRect` (see {@link RequireToRect}).
 */
export interface QuadtreeOptions<T> {
  /** The area the items live in. Items outside it are still indexed (in the root node). */
  bounds: Rect;
  /** Items a node holds before it splits (default 32). */
  maxObjects?: number | undefined;
  /** Depth of the deepest node; the root is level 0 (default 12, at most 30). */
  maxLevels?: number | undefined;
  /**
   * How much larger than its cell a node's bounds are, from 1 to 2 (default 1). 1 is the classic
   * quadtree of quadtree-js: an item that straddles a split line stays in the parent. 2 is the
   * loose quadtree: an item's depth depends only on its size, never on where it is.
   */
  looseness?: number | undefined;
  /** Reads an item's bounds when items are not `{ x, y, width?, height? }`. */
  toRect?: ToRect<T> | undefined;
}

/** The settings in a Quadtree's `toJSON()`. */
export interface QuadtreeSettings {
  /** The `bounds` option. */
  bounds: Rect;
  /** Items a node holds before it splits. */
  maxObjects: number;
  /** Depth of the deepest node. */
  maxLevels: number;
  /** Node bounds relative to their cells. */
  looseness: number;
}

/** Default `maxObjects` (chosen by `npm run bench`). */
export const DEFAULT_MAX_OBJECTS = 32;
/** Default `maxLevels` (chosen by `npm run bench`). */
export const DEFAULT_MAX_LEVELS = 12;
const LEVEL_LIMIT = 30;
const OPTIONS = [
  'bounds',
  'maxObjects',
  'maxLevels',
  'looseness',
  'toRect',
] as const satisfies readonly (keyof QuadtreeOptions<unknown>)[];

/**
 * A dynamic region quadtree of rectangles (and points), exact in every answer: the classic
 * quadtree of quadtree-js (looseness 1) or a loose quadtree (looseness up to 2).
 *
 * Items are kept by reference; their bounds are copied in at `insert` and re-read by `update`.
 * Queries never call user code; `pairs` and `visit` do, and mutating the tree from inside their
 * callbacks throws a WalkInProgressError (queries from inside them are fine).
 *
 * The item type follows the data: the parameter of `toRect`
 * (`new Quadtree({ bounds, toRect: (p: Player) => p.box })` is a `Quadtree<Player>`), the items of
 * `Quadtree.from(items, options)`, the declared type (`const tree: Quadtree<Player> = new
 * Quadtree({ bounds })`), or `new Quadtree<Player>({ bounds })`; with none of these it is
 * {@link RectLike}. Items that are not rectangles need `toRect`, or the call does not compile.
 *
 * @typeParam T - the item type.
 */
export class Quadtree<T = RectLike> extends DynamicIndex<T> {
  /** The `bounds` option. */
  readonly bounds: Rect;
  /** Items a node holds before it splits. */
  readonly maxObjects: number;
  /** Depth of the deepest node. */
  readonly maxLevels: number;
  /** Node bounds relative to their cells: 1 classic, 2 loose. */
  readonly looseness: number;

  /**
   * Creates an empty tree.
   * @param options - `{ bounds, maxObjects = 32, maxLevels = 12, looseness = 1, toRect }`;
   * `toRect` is required when the items are not `{ x, y, width?, height? }`. An unknown option
   * throws an UnknownOptionError listing the known ones.
   */
  constructor(options: QuadtreeOptions<T> & RequireToRect<T>) {
    checkOptions(options, 'Quadtree', OPTIONS, false);
    const bounds = checkBounds('options.bounds', options.bounds);
    const {
      maxObjects = DEFAULT_MAX_OBJECTS,
      maxLevels = DEFAULT_MAX_LEVELS,
      looseness = 1,
    } = options;
    checkInteger('options.maxObjects', maxObjects, 1, 2 ** 30);
    checkInteger('options.maxLevels', maxLevels, 0, LEVEL_LIMIT);
    checkRange('options.looseness', looseness, 1, 2);
    const { x, y, width, height } = bounds;
    super(
      new RegionTree<T>(x, y, width, height, maxObjects, maxLevels, looseness),
      rectReader(options.toRect),
    );
    this.bounds = bounds;
    this.maxObjects = maxObjects;
    this.maxLevels = maxLevels;
    this.looseness = looseness;
  }

  /**
   * Creates a tree holding `items` (as `load` adds them), its item type inferred from them:
   * `Quadtree.from(players, { bounds })` is a `Quadtree<Player>`.
   * @param items - the first items.
   * @param options - as for the constructor.
   */
  static from<T>(items: readonly T[], options: QuadtreeOptions<T> & RequireToRect<T>): Quadtree<T> {
    return new Quadtree<T>(options).load(items);
  }

  /**
   * Creates a tree over the numbers 0 to n - 1, item i the box boxes[4i..4i+3]
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
    options: Omit<QuadtreeOptions<number>, 'toRect'>,
  ): Quadtree<number> {
    const n = openDoor(boxes, 'Quadtree.fromBoxes', options, OPTIONS, false);
    const tree = new Quadtree<number>(options as QuadtreeOptions<number> & RequireToRect<number>);
    return tree.loadNumbered(boxesReader(boxes), n);
  }

  /**
   * A small summary for `JSON.stringify` and logs: `{ kind: 'Quadtree', size, nodes, depth,
   * options: { bounds, maxObjects, maxLevels, looseness } }`, never the items.
   */
  toJSON(): IndexSummary<QuadtreeSettings> {
    const { bounds, maxObjects, maxLevels, looseness } = this;
    return this.summary('Quadtree', { bounds: { ...bounds }, maxObjects, maxLevels, looseness });
  }
}
