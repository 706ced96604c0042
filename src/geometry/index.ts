export { orient2d } from './orient.js';
export {
  boxContainsBox,
  boxContainsPoint,
  boxDistanceSq,
  boxesOverlap,
  boxIntersectsCircle,
  boxIntersectsSegment,
} from './rect.js';
