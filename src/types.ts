/** An axis-aligned rectangle: `x`, `y` the minimum corner, `width`, `height` non-negative. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What an item's bounds are read from: a rectangle, or a point when `width`/`height` are absent. */
export interface RectLike {
  readonly x: number;
  readonly y: number;
  readonly width?: number | undefined;
  readonly height?: number | undefined;
}

/** Reads the bounds of an item that is not itself `{ x, y, width?, height? }`. */
export type ToRect<T> = (item: T) => RectLike;

/** A point. */
export interface PointLike {
  readonly x: number;
  readonly y: number;
}

/** Reads the position of an item that is not itself `{ x, y }`. */
export type ToPoint<T> = (item: T) => PointLike;

/**
 * A node as `visit` reports it. The object is reused from one call to the next: copy the fields
 * you want to keep.
 */
export interface VisitNode {
  /** Minimum corner and size of the node's cell (its loose bounds are wider when looseness > 1). */
  x: number;
  y: number;
  width: number;
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
  /** Weighted centroid of the items' positions (box centres); NaN when the weight is 0. */
  cx: number;
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
  item: T;
  distance: number;
}
