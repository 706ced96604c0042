import { addProduct, beginSum, bigSign, EPSILON, inSafeRange, sumSign, toBig } from './exact.js';

// Error bound of the floating-point determinant below (Shewchuk's ccwerrboundA).
const ORIENT_BOUND = (3 + 16 * EPSILON) * EPSILON;

/**
 * The exact orientation of three points: positive when a, b, c turn counter-clockwise (with the
 * y axis up), negative when clockwise, 0 when collinear. The magnitude is not meaningful.
 *
 * A floating-point filter decides almost every case; near-collinear input falls back to exact
 * expansion arithmetic (Shewchuk 1997), so the sign is always right.
 */
export function orient2d(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number {
  const left = (ax - cx) * (by - cy);
  const right = (ay - cy) * (bx - cx);
  const det = left - right;
  const bound = ORIENT_BOUND * (Math.abs(left) + Math.abs(right));
  if (det > bound || -det > bound) return det;
  return orient2dExact(ax, ay, bx, by, cx, cy);
}

const ARGS = new Float64Array(6);

function orient2dExact(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number {
  ARGS[0] = ax;
  ARGS[1] = ay;
  ARGS[2] = bx;
  ARGS[3] = by;
  ARGS[4] = cx;
  ARGS[5] = cy;
  if (!inSafeRange(ARGS, 6)) {
    // Magnitudes beyond what double-double products hold: exact integers (rare inputs only).
    const [Ax, Ay, Bx, By, Cx, Cy] = [ax, ay, bx, by, cx, cy].map(toBig) as [
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
    ];
    return bigSign((Ax - Cx) * (By - Cy) - (Ay - Cy) * (Bx - Cx));
  }
  // (ax-cx)(by-cy) - (ay-cy)(bx-cx) expanded: the cx*cy terms cancel, six exact products remain.
  beginSum();
  addProduct(ax, by);
  addProduct(-ax, cy);
  addProduct(-cx, by);
  addProduct(-ay, bx);
  addProduct(ay, cx);
  addProduct(cy, bx);
  return sumSign();
}
