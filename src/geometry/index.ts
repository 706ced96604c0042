export { orient2d } from './orient.js';
export {
  boxContainsBox,
  boxContainsPoint,
  boxDistance,
  boxDistanceSq,
  boxesOverlap,
  boxIntersectsCircle,
  boxIntersectsSegment,
} from './rect.js';
