export {
  circleContainsCircle,
  circleContainsPoint,
  circleIntersectsSegment,
  circlesIntersect,
} from './circle.js';
export { contains, distance, intersects } from './narrow.js';
export { orient2d } from './orient.js';
export {
  boxContainsBox,
  boxContainsPoint,
  boxDistance,
  boxDistanceSq,
  boxesOverlap,
  boxIntersectsCircle,
  boxIntersectsSegment,
  segmentBoxEntry,
} from './rect.js';
export { type Relation, refine, refineInto, type ToShape } from './refine.js';
export { closestPointOnSegment, segmentContainsPoint, segmentsIntersect } from './segment.js';
export {
  type CircleShape,
  circle,
  type PointShape,
  type PolygonShape,
  point,
  polygon,
  type RectShape,
  rect,
  type SegmentShape,
  type Shape,
  segment,
  shapeBounds,
  type TriangleShape,
  triangle,
} from './shapes.js';
export {
  closestPointOnTriangle,
  segmentTriangleEntry,
  triangleContainsPoint,
  triangleIntersectsBox,
  triangleIntersectsSegment,
} from './triangle.js';
