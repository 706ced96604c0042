import {
  addProduct,
  beginSum,
  bigSign,
  bigToNumber,
  EPSILON,
  inSafeRange,
  sumSign,
  sumValue,
  toBig,
} from './exact.js';

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

/**
 * The determinant that orient2d takes the sign of, (ax - cx)(by - cy) - (ay - cy)(bx - cx)
 * (twice the signed area of abc, or the distance of c from the line ab times the length of ab),
 * for parameters computed from it: with the exact sign, and accurate to about 2^-39 of its own
 * size where that is 2^-1000 or more; smaller values are rough, and one below the smallest double
 * is given as the smallest double of its sign.
 */
export function orientValue(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number {
  // orient2d's filter with a tighter bound, written out again (a function shared with orient2d
  // cost it 10 ns of a 70 ns TriangleIndex.locate): the rounded determinant where its error is
  // at most 2^-39 of it; else the exact expansion, rounded.
  const left = (ax - cx) * (by - cy);
  const right = (ay - cy) * (bx - cx);
  const det = left - right;
  const bound = VALUE_BOUND * (Math.abs(left) + Math.abs(right));
  if (det > bound || -det > bound) return det;
  if (!inSafeRange(ax, ay, bx, by, cx, cy)) {
    return bigToNumber(bigDeterminant(ax, ay, bx, by, cx, cy), 2148);
  }
  exactTerms(ax, ay, bx, by, cx, cy);
  return sumValue();
}

const VALUE_BOUND = 2 ** 39 * ORIENT_BOUND;
/**
 * orientValue results from this size up carry their full precision (normal numbers), and below
 * it do not.
 */
const PRECISE = 2 ** -1000;
const INF = Number.POSITIVE_INFINITY;

/**
 * d0 / (d0 - d1), where d0 and d1 are the orientValue of p and of q against the line through a
 * and b (d0 !== d1): the parameter along p to q at which the line is crossed. Accurate also when
 * a distance is too small or too large for a double to hold (then from the exact integers).
 */
export function crossingParameter(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  px: number,
  py: number,
  qx: number,
  qy: number,
  d0: number,
  d1: number,
): number {
  const a0 = d0 < 0 ? -d0 : d0;
  const a1 = d1 < 0 ? -d1 : d1;
  if ((a0 === 0 || (a0 > PRECISE && a0 < INF)) && (a1 === 0 || (a1 > PRECISE && a1 < INF))) {
    // (Halved, so that d0 - d1 cannot pass the largest double: exact for normal numbers.)
    return d0 / 2 / (d0 / 2 - d1 / 2);
  }
  const D0 = bigDeterminant(ax, ay, bx, by, px, py);
  const D1 = bigDeterminant(ax, ay, bx, by, qx, qy);
  let n = D0;
  let d = D0 - D1;
  if (d === 0n) return 0; // (d0 === d1: outside the contract)
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  return Number((n << 64n) / d) / 2 ** 64;
}

function orient2dExact(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number {
  if (!inSafeRange(ax, ay, bx, by, cx, cy)) {
    return bigSign(bigDeterminant(ax, ay, bx, by, cx, cy));
  }
  exactTerms(ax, ay, bx, by, cx, cy);
  return sumSign();
}

// The determinant times 2^2148 as an exact integer (each double times 2^1074, see toBig): for
// magnitudes beyond what double-double products hold (rare inputs only).
function bigDeterminant(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): bigint {
  const Ax = toBig(ax);
  const Ay = toBig(ay);
  const Bx = toBig(bx);
  const By = toBig(by);
  const Cx = toBig(cx);
  const Cy = toBig(cy);
  return (Ax - Cx) * (By - Cy) - (Ay - Cy) * (Bx - Cx);
}

// Starts an exact sum of (ax-cx)(by-cy) - (ay-cy)(bx-cx), expanded: the cx*cy terms cancel, six
// exact products remain.
function exactTerms(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): void {
  beginSum();
  addProduct(ax, by);
  addProduct(-ax, cy);
  addProduct(-cx, by);
  addProduct(-ay, bx);
  addProduct(ay, cx);
  addProduct(cy, bx);
}
