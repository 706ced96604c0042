// Closed disc predicates, decided exactly: each compares a squared distance with a squared radius,
// first in floating point with an error bound, then (within a few ulps of tangency) in exact
// expansion arithmetic or, for the degree-4 comparisons and extreme magnitudes, in BigInt.

import {
  addProduct,
  addSquaredDifference,
  beginSum,
  bigSign,
  EPSILON,
  inSafeRange,
  sumSign,
  toBig,
} from './exact.js';
import { orient2d } from './orient.js';

// Error bound of a rounded a*b ± c*d with rounded differences inside (Shewchuk's ccwerrboundA).
const PRODUCT_SUM_BOUND = (3 + 16 * EPSILON) * EPSILON;
// Where squared magnitudes keep a relative rounding error: the filters trust only this range.
const LOW = 1e-280;
const HIGH = 1e280;

/** Adds -(a + b)^2, exactly, to the running exact sum. */
function subtractSquaredSum(a: number, b: number): void {
  // a + b = s + e exactly (two-sum), so (a + b)^2 = s*s + 2*s*e + e*e.
  const s = a + b;
  const bv = s - a;
  const e = a - (s - bv) + (b - bv);
  addProduct(-s, s);
  addProduct(-2 * s, e);
  addProduct(-e, e);
}

/**
 * The exact sign of (px - qx)^2 + (py - qy)^2 - r^2: whether the point p is inside (-1), on (0)
 * or outside (1) the circle of centre q and radius r.
 */
export function pointCircleSign(px: number, py: number, qx: number, qy: number, r: number): number {
  const dx = px - qx;
  const dy = py - qy;
  const d2 = dx * dx + dy * dy;
  const r2 = r * r;
  const sum = d2 + r2;
  if (sum > LOW && sum < HIGH) {
    const tol = 8 * EPSILON * sum;
    if (d2 < r2 - tol) return -1;
    if (d2 > r2 + tol) return 1;
  }
  if (!inSafeRange(px, py, qx, qy, r)) {
    const bx = toBig(px) - toBig(qx);
    const by = toBig(py) - toBig(qy);
    const R = toBig(r);
    return bigSign(bx * bx + by * by - R * R);
  }
  beginSum();
  addSquaredDifference(px, qx);
  addSquaredDifference(py, qy);
  addProduct(-r, r);
  return sumSign();
}

/**
 * Whether the closed disc of centre (x, y) and radius r contains the point (px, py), decided
 * exactly (a point on the circle is inside).
 *
 * @param x - x of the centre; `y` its y, `r` the radius (>= 0).
 * @param px - x of the point; `py` its y.
 */
export function circleContainsPoint(
  x: number,
  y: number,
  r: number,
  px: number,
  py: number,
): boolean {
  return pointCircleSign(px, py, x, y, r) <= 0;
}

/**
 * Whether two closed discs intersect, decided exactly: (x1 - x2)^2 + (y1 - y2)^2 <= (r1 + r2)^2.
 * Tangent discs intersect.
 *
 * @param x1 - x of the first centre; `y1` its y, `r1` its radius (>= 0).
 * @param x2 - x of the second centre; `y2` its y, `r2` its radius (>= 0).
 */
export function circlesIntersect(
  x1: number,
  y1: number,
  r1: number,
  x2: number,
  y2: number,
  r2: number,
): boolean {
  return centreGapSign(x1, y1, x2, y2, r1, r2, 1) <= 0;
}

/**
 * Whether the closed disc 1 contains the closed disc 2 entirely, decided exactly:
 * r1 >= r2 and (x1 - x2)^2 + (y1 - y2)^2 <= (r1 - r2)^2. Equal discs contain each other.
 *
 * @param x1 - x of the outer centre; `y1` its y, `r1` its radius (>= 0).
 * @param x2 - x of the inner centre; `y2` its y, `r2` its radius (>= 0).
 */
export function circleContainsCircle(
  x1: number,
  y1: number,
  r1: number,
  x2: number,
  y2: number,
  r2: number,
): boolean {
  return r1 >= r2 && centreGapSign(x1, y1, x2, y2, r1, r2, -1) <= 0;
}

/** The exact sign of (x1 - x2)^2 + (y1 - y2)^2 - (r1 + sign * r2)^2. */
function centreGapSign(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  r1: number,
  r2: number,
  sign: number,
): number {
  const dx = x1 - x2;
  const dy = y1 - y2;
  const d2 = dx * dx + dy * dy;
  const s = r1 + sign * r2;
  const s2 = s * s;
  const sum = d2 + s2;
  if (sum > LOW && sum < HIGH) {
    const tol = 8 * EPSILON * (d2 + (r1 + r2) * (r1 + r2));
    if (d2 < s2 - tol) return -1;
    if (d2 > s2 + tol) return 1;
  }
  if (!inSafeRange(x1, y1, x2, y2, r1, r2)) {
    const bx = toBig(x1) - toBig(x2);
    const by = toBig(y1) - toBig(y2);
    const S = toBig(r1) + BigInt(sign) * toBig(r2);
    return bigSign(bx * bx + by * by - S * S);
  }
  beginSum();
  addSquaredDifference(x1, x2);
  addSquaredDifference(y1, y2);
  subtractSquaredSum(r1, sign * r2);
  return sumSign();
}

/**
 * The exact sign of (p - a) . (b - a): positive when the projection of p on the line ab falls
 * past a towards b.
 */
function dotSign(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  const l = (px - ax) * (bx - ax);
  const r = (py - ay) * (by - ay);
  const dot = l + r;
  const bound = PRODUCT_SUM_BOUND * (Math.abs(l) + Math.abs(r));
  if (dot > bound) return 1;
  if (-dot > bound) return -1;
  if (!inSafeRange(ax, ay, bx, by, px, py)) {
    const [Ax, Ay, Bx, By, Px, Py] = [ax, ay, bx, by, px, py].map(toBig) as bigint[];
    return bigSign((Px! - Ax!) * (Bx! - Ax!) + (Py! - Ay!) * (By! - Ay!));
  }
  // (px - ax)(bx - ax) = px*bx - px*ax - ax*bx + ax*ax, and likewise in y: eight exact products.
  beginSum();
  addProduct(px, bx);
  addProduct(-px, ax);
  addProduct(-ax, bx);
  addProduct(ax, ax);
  addProduct(py, by);
  addProduct(-py, ay);
  addProduct(-ay, by);
  addProduct(ay, ay);
  return sumSign();
}

/**
 * The exact sign of cross^2 - r^2 * |b - a|^2, where cross = (b - a) x (p - a): the squared
 * distance from p to the line through a and b (a != b), minus r^2, times |b - a|^2.
 */
export function lineDistanceSign(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  px: number,
  py: number,
  r: number,
): number {
  const ex = bx - ax;
  const ey = by - ay;
  // Axis-parallel lines and zero radius reduce to exact lower-degree tests.
  if (ey === 0) return pointCircleSign(0, py, 0, ay, r);
  if (ex === 0) return pointCircleSign(px, 0, ax, 0, r);
  if (r === 0) return orient2d(ax, ay, bx, by, px, py) === 0 ? 0 : 1;
  const l = ex * (py - ay);
  const rr = ey * (px - ax);
  const c = Math.abs(l - rr);
  const ce = PRODUCT_SUM_BOUND * (Math.abs(l) + Math.abs(rr));
  const rhs = r * r * (ex * ex + ey * ey);
  if (rhs > LOW && rhs < HIGH) {
    // cross lies within c ± ce; the squares and the right side carry a few more roundings.
    const hi = (c + ce) * (c + ce) * (1 + 8 * EPSILON);
    const lo = c > ce ? (c - ce) * (c - ce) * (1 - 8 * EPSILON) : 0;
    if (hi < rhs * (1 - 16 * EPSILON)) return -1;
    if (lo > rhs * (1 + 16 * EPSILON) && lo < HIGH) return 1;
  }
  // Near tangency, or magnitudes outside the filter's range: exact integers.
  const [Ax, Ay, Bx, By, Px, Py, R] = [ax, ay, bx, by, px, py, r].map(toBig) as bigint[];
  const Ex = Bx! - Ax!;
  const Ey = By! - Ay!;
  const cross = Ex * (Py! - Ay!) - Ey * (Px! - Ax!);
  return bigSign(cross * cross - R! * R! * (Ex * Ex + Ey * Ey));
}

/**
 * The exact sign of dist(p, segment ab)^2 - r^2: whether the point p is closer than r to the
 * closed segment (-1), at distance exactly r (0), or farther (1).
 */
export function segmentDistanceSign(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  px: number,
  py: number,
  r: number,
): number {
  // The nearest point is an endpoint, or the foot of the perpendicular when it falls strictly
  // between them; the distance is the smallest of those that exist.
  const sa = pointCircleSign(ax, ay, px, py, r);
  if (sa < 0) return sa;
  const sb = pointCircleSign(bx, by, px, py, r);
  if (sb < 0) return sb;
  if (dotSign(ax, ay, bx, by, px, py) > 0 && dotSign(bx, by, ax, ay, px, py) > 0) {
    // The signs of the candidates' squared distances minus r^2: the smallest decides.
    return Math.min(lineDistanceSign(ax, ay, bx, by, px, py, r), sa, sb);
  }
  return Math.min(sa, sb);
}

/**
 * Whether the closed disc of centre (x, y) and radius r meets the closed segment (x1, y1)-(x2, y2),
 * decided exactly (a tangent segment touches).
 *
 * @param x - x of the centre; `y` its y, `r` the radius (>= 0).
 * @param x1 - x of the segment's start; `y1`, `x2`, `y2` likewise.
 */
export function circleIntersectsSegment(
  x: number,
  y: number,
  r: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): boolean {
  return segmentDistanceSign(x1, y1, x2, y2, x, y, r) <= 0;
}
