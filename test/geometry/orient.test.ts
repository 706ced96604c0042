import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orient2d } from '../../src/index.js';
import { orientSign as exactSign } from './exact-reference.js';

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
});
