export { norm } from './metric.js';
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
export { closestPointOnSegment, segmentContainsPoint, segmentsIntersect } from './segment.js';
export {
  closestPointOnTriangle,
  segmentTriangleEntry,
  triangleContainsPoint,
  triangleIntersectsBox,
  triangleIntersectsSegment,
} from './triangle.js';
