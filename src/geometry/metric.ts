// Lengths of difference vectors, as accurate as doubles allow across the whole range.

const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * The length of the vector (dx, dy): `sqrt(dx * dx + dy * dy)` in floating point, or
 * `Math.hypot(dx, dy)` where the squares would overflow or underflow.
 *
 * @param dx - the vector's x; `dy` its y.
 */
export function norm(dx: number, dy: number): number {
  const d2 = dx * dx + dy * dy;
  if (d2 >= MIN_NORMAL && d2 < Number.POSITIVE_INFINITY) return Math.sqrt(d2);
  return dx === 0 && dy === 0 ? 0 : Math.hypot(dx, dy);
}

const BIG = 2 ** 400;
const SMALL = 2 ** -400;

/**
 * A power of two that brings `m` (the largest magnitude among some coordinates) near 1 when it is
 * so large or so small that products of coordinates would overflow or underflow, else 1. Scaling
 * by a power of two is exact, so rounded computations can run on the scaled coordinates.
 */
export function rescaleFactor(m: number): number {
  if ((m < BIG && m > SMALL) || m === 0 || !(m < Number.POSITIVE_INFINITY)) return 1;
  const e = Math.floor(Math.log2(m));
  return 2 ** (e > 1000 ? -1000 : e < -1000 ? 1000 : -e);
}
