// quadkit: exact, fast quadtree-family spatial indexes for 2D.

export type { AggregateCallback, AggregateOptions } from './aggregates.js';
export { ContactTracker } from './contacts.js';
export { DynamicIndex } from './dynamic.js';
export * from './geometry/index.js';
export {
  DEFAULT_GRID_DEPTH,
  GridLooseQuadtree,
  type GridLooseQuadtreeOptions,
} from './grid-loose-quadtree.js';
export {
  DEFAULT_BUCKET_SIZE,
  DEFAULT_POINT_LEVELS,
  PointQuadtree,
  type PointQuadtreeOptions,
} from './point-quadtree.js';
export {
  DEFAULT_MAX_LEVELS,
  DEFAULT_MAX_OBJECTS,
  Quadtree,
  type QuadtreeOptions,
} from './quadtree.js';
export { QueryIndex } from './queries.js';
export {
  DEFAULT_NODE_SIZE,
  StaticQuadtree,
  type StaticQuadtreeOptions,
} from './static-quadtree.js';
export {
  type NearestTriangle,
  TriangleIndex,
  type TriangleIndexOptions,
} from './triangle-index.js';
export type {
  AggregateNode,
  PairCallback,
  PointLike,
  RayHit,
  Rect,
  RectLike,
  ToPoint,
  ToRect,
  VisitCallback,
  VisitNode,
} from './types.js';
