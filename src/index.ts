// quadkit: exact, fast quadtree-family spatial indexes for 2D.

export type { AggregateCallback, AggregateOptions } from './aggregates.js';
export { ContactTracker, type TrackerSummary } from './contacts.js';
export { DynamicIndex } from './dynamic.js';
export {
  CorruptBufferError,
  DuplicateItemError,
  InvalidTypeError,
  InvalidValueError,
  type QuadkitErrorCode,
  UnknownOptionError,
  WalkInProgressError,
} from './errors.js';
export * from './geometry/index.js';
export {
  DEFAULT_GRID_DEPTH,
  GridLooseQuadtree,
  type GridLooseQuadtreeOptions,
  type GridLooseQuadtreeSettings,
} from './grid-loose-quadtree.js';
export {
  DEFAULT_BUCKET_SIZE,
  DEFAULT_POINT_LEVELS,
  PointQuadtree,
  type PointQuadtreeOptions,
  type PointQuadtreeSettings,
} from './point-quadtree.js';
export {
  DEFAULT_MAX_LEVELS,
  DEFAULT_MAX_OBJECTS,
  Quadtree,
  type QuadtreeOptions,
  type QuadtreeSettings,
} from './quadtree.js';
export { QueryIndex } from './queries.js';
export {
  DEFAULT_NODE_SIZE,
  type StaticBuildOptions,
  StaticQuadtree,
  type StaticQuadtreeOptions,
  type StaticQuadtreeSettings,
} from './static-quadtree.js';
export {
  type NearestTriangle,
  TriangleIndex,
  type TriangleIndexOptions,
  type TriangleIndexSettings,
} from './triangle-index.js';
export type {
  AggregateNode,
  IndexSummary,
  Neighbour,
  PairCallback,
  PointLike,
  RayHit,
  Rect,
  RectLike,
  RequireToPoint,
  RequireToRect,
  ToPoint,
  ToRect,
  VisitCallback,
  VisitNode,
} from './types.js';
