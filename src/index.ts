// quadkit: exact, fast quadtree-family spatial indexes for 2D.
//
// A map of src/ for a first reading. Every file opens with a paragraph on what it holds and
// where its neighbours are; read those paragraphs in this order and the design follows.
//
// 1. The front doors, one class each: quadtree.ts (Quadtree, classic and loose),
//    grid-loose-quadtree.ts, point-quadtree.ts, static-quadtree.ts and triangle-index.ts. They
//    check their options and choose an engine. What they share: queries.ts (QueryIndex, every
//    query in an allocating and an allocation-free form, and the slot-to-item mapping) and
//    dynamic.ts (DynamicIndex, the mutators). contacts.ts (ContactTracker) and aggregates.ts
//    (visitAfter) work on top of them.
// 2. The boundary helpers: validate.ts (every argument and item is checked there, and items'
//    bounds are read there), errors.ts (the error classes and their messages), typed-items.ts
//    (the typed-array doors fromBoxes and fromPoints), types.ts (the public types).
// 3. The contract between the two: engine/engine.ts, what an engine offers a front door and what
//    the add-ons use of an index.
// 4. The engines, each a group of files: engine/tree*.ts, the region tree of Quadtree and
//    PointQuadtree (start at tree.ts); engine/grid*.ts and rows.ts, the grid-loose quadtree
//    (grid-cells.ts, then grid-layout.ts, then grid.ts); engine/packed*.ts, sources.ts and
//    hilbert.ts, the packed tree of StaticQuadtree (start at packed.ts). bins.ts and
//    triangle-mesh.ts serve TriangleIndex, charges.ts the force, aggregate.ts visitAfter.
// 5. The kernels the engines share: engine/scan*.ts (the leaf scans, and why numbers travel in
//    Float64Arrays), queue.ts (the best-first heaps), buckets.ts, items.ts and grown.ts.
// 6. geometry/: exact predicates (expansion arithmetic, a BigInt fallback) and the narrow phase.
//
// The add-ons are entry points of their own: canvas.ts (quadkit/canvas), force.ts
// (quadkit/force), geo/, cluster/ and batch/. Imports run one way: front doors and add-ons, then
// engines, then kernels, then geometry/; validate.ts, errors.ts and types.ts, which every layer
// uses, import nothing but each other.

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
