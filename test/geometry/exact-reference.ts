// Slow exact references for the geometry tests: every double is a dyadic rational, so scaling by
// 2^1100 turns the doubles used in the tests into BigInts and the predicates into integer sums.

const SCALE = 2n ** 1100n;

/** The double `v` times 2^1100, exactly. */
export function big(v: number): bigint {
  let e = 0;
  let m = v;
  while (!Number.isInteger(m)) {
    m *= 2;
    e++;
  }
  return (BigInt(m) * SCALE) / 2n ** BigInt(e);
}

/** The exact sign of orient2d(a, b, c). */
export function orientSign(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number {
  const [Ax, Ay, Bx, By, Cx, Cy] = [ax, ay, bx, by, cx, cy].map(big) as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  const det = (Ax - Cx) * (By - Cy) - (Ay - Cy) * (Bx - Cx);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}

function onSegment(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  px: number,
  py: number,
): boolean {
  return (
    Math.min(ax, bx) <= px &&
    px <= Math.max(ax, bx) &&
    Math.min(ay, by) <= py &&
    py <= Math.max(ay, by)
  );
}

/** Whether closed segments ab and cd intersect, exactly. */
export function segmentsIntersect(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const d1 = orientSign(cx, cy, dx, dy, ax, ay);
  const d2 = orientSign(cx, cy, dx, dy, bx, by);
  const d3 = orientSign(ax, ay, bx, by, cx, cy);
  const d4 = orientSign(ax, ay, bx, by, dx, dy);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  if (d1 === 0 && onSegment(cx, cy, dx, dy, ax, ay)) return true;
  if (d2 === 0 && onSegment(cx, cy, dx, dy, bx, by)) return true;
  if (d3 === 0 && onSegment(ax, ay, bx, by, cx, cy)) return true;
  if (d4 === 0 && onSegment(ax, ay, bx, by, dx, dy)) return true;
  return false;
}

/** Whether the closed segment meets the closed box: an endpoint inside, or an edge crossed. */
export function segmentHitsBoxSlow(
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): boolean {
  const inside = (x: number, y: number) => minX <= x && x <= maxX && minY <= y && y <= maxY;
  if (inside(x1, y1) || inside(x2, y2)) return true;
  return (
    segmentsIntersect(x1, y1, x2, y2, minX, minY, maxX, minY) ||
    segmentsIntersect(x1, y1, x2, y2, maxX, minY, maxX, maxY) ||
    segmentsIntersect(x1, y1, x2, y2, maxX, maxY, minX, maxY) ||
    segmentsIntersect(x1, y1, x2, y2, minX, maxY, minX, minY)
  );
}

/** Whether the closed disc meets the closed box, exactly. */
export function circleHitsBoxSlow(
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  x: number,
  y: number,
  r: number,
): boolean {
  const nx = Math.min(Math.max(x, minX), maxX);
  const ny = Math.min(Math.max(y, minY), maxY);
  const dx = big(nx) - big(x);
  const dy = big(ny) - big(y);
  const R = big(r);
  return dx * dx + dy * dy <= R * R;
}
