import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crossingParameter, orientValue } from '../../src/geometry/orient.js';
import { orient2d } from '../../src/index.js';
import { big, orientSign as exactSign } from './exact-reference.js';
import { fractionValue } from './triangle-reference.js';

// Coordinates that make the determinant's products round or underflow: near-collinear points on
// an ordinary grid, offsets of 1e15, and subnormal or 1e-300 values beside ordinary ones.
const ordinary = fc.integer({ min: -40, max: 40 }).map((v) => v / 8);
const awkward = fc.oneof(
  ordinary,
  fc.integer({ min: -4, max: 4 }).map((v) => 1e15 + v),
  fc.constantFrom(0, -0, 5e-324, -5e-324, 1e-310, 1e-300, -1e-300, 2e-300, 2 ** -600),
  fc.double({ min: -1e3, max: 1e3, noNaN: true }),
);

/** Three points, a, b, c, of such coordinates. */
const points = fc.tuple(awkward, awkward, awkward, awkward, awkward, awkward);

/** The exact determinant of orient2d(a, b, c), as a fraction over 2^2200 (see big). */
function determinant(ax: number, ay: number, bx: number, by: number, cx: number, cy: number) {
  const [Ax, Ay, Bx, By, Cx, Cy] = [ax, ay, bx, by, cx, cy].map(big) as bigint[];
  return { num: (Ax! - Cx!) * (By! - Cy!) - (Ay! - Cy!) * (Bx! - Cx!), den: 2n ** 2200n };
}

describe('orient2d', () => {
  it('orient2d(a, b, c) is positive for a counter-clockwise turn, negative for clockwise, 0 for collinear', () => {
    expect(orient2d(0, 0, 1, 0, 0, 1)).toBeGreaterThan(0);
    expect(orient2d(0, 0, 0, 1, 1, 0)).toBeLessThan(0);
    expect(orient2d(0, 0, 1, 1, 2, 2)).toBe(0);
    expect(orient2d(0, 0, 0, 0, 5, 7)).toBe(0);
  });

  it('orient2d decides nearly collinear points exactly where naive arithmetic fails', () => {
    // Points on the line y = x shifted by one ulp: the naive determinant is wrong for some.
    let naiveWrong = 0;
    for (let i = 0; i < 200; i++) {
      const x = 0.5 + i * 2 ** -40;
      const y = x + (i % 3 === 0 ? 0 : (i % 3 === 1 ? 1 : -1) * 2 ** -52);
      const want = exactSign(12, 12, 24, 24, x, y);
      expect(Math.sign(orient2d(12, 12, 24, 24, x, y))).toBe(want);
      const naive = (12 - x) * (24 - y) - (12 - y) * (24 - x);
      if (Math.sign(naive) !== want) naiveWrong++;
    }
    expect(naiveWrong).toBeGreaterThan(0);
  });

  it('orient2d agrees with exact BigInt arithmetic on random nearly degenerate input', () => {
    const coord = fc.integer({ min: -1000, max: 1000 }).map((v) => v / 8);
    const jitter = fc.integer({ min: -4, max: 4 });
    fc.assert(
      fc.property(
        coord,
        coord,
        coord,
        coord,
        fc.double({ min: 0, max: 1, noNaN: true }),
        jitter,
        (ax, ay, bx, by, t, j) => {
          // c on the segment ab, nudged by a few ulps.
          let cx = ax + t * (bx - ax);
          const cy = ay + t * (by - ay);
          for (let i = 0; i < Math.abs(j); i++)
            cx =
              j > 0
                ? cx + Math.abs(cx) * 2 ** -52 + 2 ** -1000
                : cx - Math.abs(cx) * 2 ** -52 - 2 ** -1000;
          expect(Math.sign(orient2d(ax, ay, bx, by, cx, cy))).toBe(
            exactSign(ax, ay, bx, by, cx, cy),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('orient2d stays exact for huge and tiny coordinates', () => {
    expect(orient2d(0, 0, 1e300, 1e300, 2e300, 2e300)).toBe(0);
    expect(orient2d(0, 0, 1e300, 1e300, 2e300, 2e300 * (1 + 2 ** -52))).toBeGreaterThan(0);
    expect(orient2d(0, 0, 1e-300, 1e-300, 2e-300, 2e-300)).toBe(0);
    expect(orient2d(0, 0, 1e-300, 1e-300, 2e-300, 2e-300 * (1 - 2 ** -53))).toBeLessThan(0);
  });

  it('orient2d decides the sign exactly beside offsets of 1e15 and coordinates of 1e-300 or subnormal', () => {
    fc.assert(
      fc.property(points, ([ax, ay, bx, by, cx, cy]) => {
        expect(Math.sign(orient2d(ax, ay, bx, by, cx, cy))).toBe(exactSign(ax, ay, bx, by, cx, cy));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('orientValue and crossingParameter', () => {
  it('orientValue has the exact sign and, from 2^-1000 up, the value to 2^-38', () => {
    fc.assert(
      fc.property(points, ([ax, ay, bx, by, cx, cy]) => {
        const got = orientValue(ax, ay, bx, by, cx, cy);
        const want = fractionValue(determinant(ax, ay, bx, by, cx, cy));
        expect(Math.sign(got)).toBe(exactSign(ax, ay, bx, by, cx, cy));
        if (Math.abs(want) > 2 ** -1000 && Number.isFinite(want)) {
          expect(Math.abs(got - want)).toBeLessThanOrEqual(Math.abs(want) * 2 ** -38);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('crossingParameter is where p to q crosses the line ab, to 2^-36, however small the distances', () => {
    fc.assert(
      fc.property(
        awkward,
        awkward,
        awkward,
        awkward,
        awkward,
        awkward,
        awkward,
        awkward,
        (ax, ay, bx, by, px, py, qx, qy) => {
          const d0 = orientValue(ax, ay, bx, by, px, py);
          const d1 = orientValue(ax, ay, bx, by, qx, qy);
          // p and q on opposite sides of the line, or q on it.
          fc.pre(d0 !== 0 && (d0 > 0 ? d1 <= 0 : d1 >= 0));
          const D0 = determinant(ax, ay, bx, by, px, py).num;
          const D1 = determinant(ax, ay, bx, by, qx, qy).num;
          const want = fractionValue({ num: D0 < D1 ? -D0 : D0, den: D0 < D1 ? D1 - D0 : D0 - D1 });
          const got = crossingParameter(ax, ay, bx, by, px, py, qx, qy, d0, d1);
          expect(Math.abs(got - want)).toBeLessThanOrEqual(2 ** -36);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
