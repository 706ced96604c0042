/** An axis-aligned rectangle: `x`, `y` the minimum corner, `width`, `height` non-negative. */
export interface Rect {
  /** The minimum x (left edge). */
  x: number;
  /** The minimum y. */
  y: number;
  /** The size along x, >= 0. */
  width: number;
  /** The size along y, >= 0. */
  height: number;
}

/** What an item's bounds are read from: a rectangle, or a point when `width`/`height` are absent. */
export interface RectLike {
  /** The minimum x (left edge), or the point's x. */
  readonly x: number;
  /** The minimum y, or the point's y. */
  readonly y: number;
  /** The size along x, >= 0; absent or `undefined` is 0. */
  readonly width?: number | undefined;
  /** The size along y, >= 0; absent or `undefined` is 0. */
  readonly height?: number | undefined;
}

/** Reads the bounds of an item that is not itself `{ x, y, width?, height? }`. */
export type ToRect<T> = (item: T) => RectLike;

/** A point. */
export interface PointLike {
  /** The point's x. */
  readonly x: number;
  /** The point's y. */
  readonly y: number;
}

/** Reads the position of an item that is not itself `{ x, y }`. */
export type ToPoint<T> = (item: T) => PointLike;

/**
 * A node as `visit` reports it. The object is reused from one call to the next: copy the fields
 * you want to keep.
 */
export interface VisitNode {
  /** The minimum x of the node's cell (its loose bounds are wider when looseness > 1). */
  x: number;
  /** The minimum y of the node's cell. */
  y: number;
  /** The cell's size along x. */
  width: number;
  /** The cell's size along y. */
  height: number;
  /** 0 for the root. */
  depth: number;
  /** Items stored in this node itself (not in its descendants). */
  count: number;
}

/** A node and the aggregate of the items in its subtree, as `visitAfter` shows it. */
export interface AggregateNode extends VisitNode {
  /** Items in the node's subtree (not only in the node itself, as in `visit`). */
  count: number;
  /** Sum of the items' weights (their count when no `weight` is given). */
  weight: number;
  /** Weighted centroid x of the items' positions (box centres); NaN when the weight is 0. */
  cx: number;
  /** Weighted centroid y of the items' positions (box centres); NaN when the weight is 0. */
  cy: number;
  /** The items' values folded by `reduce` from `initial` (`initial` without `map`). */
  value: number;
}

/** Called by `visit` for each node, parents before children; return `true` to skip the children. */
export type VisitCallback = (node: VisitNode) => boolean | undefined | void;

/** Called by `pairs` once for each pair of items whose bounds overlap. */
export type PairCallback<T> = (a: T, b: T) => void;

/** A ray cast's hit: the item, and its distance from the start of the segment along it. */
export interface RayHit<T> {
  /** The item hit. */
  item: T;
  /** From the segment's start to where it first meets the item's bounds, along the segment. */
  distance: number;
}

/**
 * What an index's options add when its items are not rectangles: nothing when `T` is
 * {@link RectLike} (the items' own `x`, `y`, `width`, `height` are read), else a required
 * `toRect`. So `new Quadtree<{ id: string }>({ bounds })` does not compile.
 * @typeParam T - the item type.
 */
export type RequireToRect<T> = [T] extends [RectLike]
  ? unknown
  : {
      /** Reads an item's bounds: required, since the items are not rectangles. */
      toRect: ToRect<T>;
    };

/**
 * What a point index's options add when its items are not points: nothing when `T` is
 * {@link PointLike}, else a required `toPoint`.
 * @typeParam T - the item type.
 */
export type RequireToPoint<T> = [T] extends [PointLike]
  ? unknown
  : {
      /** Reads an item's point: required, since the items are not points. */
      toPoint: ToPoint<T>;
    };

/** One of the answers of `nearestWithDistances`: an item and its distance from the query point. */
export interface Neighbour<T> {
  /** The item. */
  item: T;
  /** The distance from the query point to the item's bounds (0 inside them). */
  distance: number;
}

/**
 * What `toJSON()` (and so `JSON.stringify`) gives for an index: what kind it is, its size and
 * shape, and its settings; never the items or the engine's arrays.
 * @typeParam O - the settings of that kind of index.
 */
export interface IndexSummary<O extends object = object> {
  /** The class: `'Quadtree'`, `'GridLooseQuadtree'`, `'PointQuadtree'`, `'StaticQuadtree'`. */
  kind: string;
  /** Number of items. */
  size: number;
  /** Number of nodes (cells, for a GridLooseQuadtree) that `visit` reports. */
  nodes: number;
  /** Depth of the deepest of them (the root is 0). */
  depth: number;
  /** The settings the index was built with (its options with their defaults filled in). */
  options: O;
}
