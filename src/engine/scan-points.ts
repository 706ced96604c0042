// The scan kernels for entries whose boxes are points (minX === maxX, minY === maxY), the fast
// paths of trees over points: circle scans decided by squared distances, no square root per
// entry (the shared kernels, and the conventions they follow, are in scan.ts).

import { boxIntersectsCircle } from '../geometry/rect.js';
import { POSITIONS } from './scan.js';

// The squared distance from (x, y) of entry e, a point (its box's min corner): the value
// `boxDistanceSq` gives for its box.
function pointDistanceSq(box: Float64Array, e: number, x: number, y: number): number {
  const dx = box[4 * e]! - x;
  const dy = box[4 * e + 1]! - y;
  return dx * dx + dy * dy;
}

// Whether entry e, a point, is in the closed disc (x, y, r), decided exactly.
function pointBoxIn(box: Float64Array, e: number, x: number, y: number, r: number): boolean {
  const px = box[4 * e]!;
  const py = box[4 * e + 1]!;
  return boxIntersectsCircle(px, py, px, py, x, y, r);
}

/**
 * The circle leaf scan of `searchShape` (packed-walk.ts) for entries whose boxes are points
 * (minX === maxX, minY === maxY), centre (x, y), radius r: reads only x and y, one squared
 * distance decides (the value `boxDistanceSq` gives for a point), the exact test only on the rim.
 */
export function scanCirclePoints(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  x: number,
  y: number,
  r: number,
  out: Int32Array,
  n: number,
): number {
  const lo = r * r * (1 - 2 ** -40);
  const hi = r * r * (1 + 2 ** -40);
  for (let e = from; e < to; e++) {
    const d2 = pointDistanceSq(box, e, x, y);
    // Branch-free for the clear cases (write the slot, keep it when clearly inside); one rarely
    // taken branch for a point on the rim (or a NaN from an overflow), decided exactly.
    out[n] = slot === POSITIONS ? e : slot[e]!;
    n += +(d2 < lo);
    if ((+(d2 < lo) | +(d2 > hi)) === 0 && pointBoxIn(box, e, x, y, r)) n++;
  }
  return n;
}

/**
 * A squared distance beyond which nothing is within distance w, for tests in squares (no square
 * root): w² widened by far more than the rounding of a computed squared distance, and never
 * below 1e-280, where squares of differences lose that relative precision (a computed square
 * above it is still within a few ulps). Infinity when w² overflows, or w is Infinity.
 * @param w - a distance, >= 0.
 */
export function squaredCut(w: number): number {
  const cut = w * w * (1 + 2 ** -40);
  return cut > 1e-280 ? cut : 1e-280;
}
