import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boxGapSq } from '../../src/geometry/rect.js';
import {
  boxContainsBox,
  boxContainsPoint,
  boxDistanceSq,
  boxesOverlap,
  boxIntersectsCircle,
  boxIntersectsSegment,
} from '../../src/index.js';
import { circleHitsBoxSlow, segmentHitsBoxSlow } from './exact-reference.js';

describe('box predicates', () => {
  it('boxesOverlap counts touching edges and corners as overlap', () => {
    expect(boxesOverlap(0, 0, 1, 1, 1, 0, 2, 1)).toBe(true); // shared edge
    expect(boxesOverlap(0, 0, 1, 1, 1, 1, 2, 2)).toBe(true); // shared corner
    expect(boxesOverlap(0, 0, 1, 1, 1.0000000000000002, 0, 2, 1)).toBe(false);
    expect(boxesOverlap(0, 0, 1, 1, 0.5, 0.5, 0.5, 0.5)).toBe(true); // zero-size inside
    expect(boxesOverlap(2, 2, 2, 2, 2, 2, 2, 2)).toBe(true); // two equal points
    expect(boxesOverlap(0, 0, 1, 1, 0, 2, 1, 3)).toBe(false);
  });

  it('boxContainsPoint counts points on edges and corners as inside', () => {
    expect(boxContainsPoint(0, 0, 1, 1, 0, 0)).toBe(true);
    expect(boxContainsPoint(0, 0, 1, 1, 1, 0.5)).toBe(true);
    expect(boxContainsPoint(0, 0, 1, 1, 1.0000000000000002, 0.5)).toBe(false);
    expect(boxContainsPoint(3, 3, 3, 3, 3, 3)).toBe(true);
  });

  it('boxContainsBox is closed and accepts equal boxes', () => {
    expect(boxContainsBox(0, 0, 4, 4, 0, 0, 4, 4)).toBe(true);
    expect(boxContainsBox(0, 0, 4, 4, 4, 4, 4, 4)).toBe(true);
    expect(boxContainsBox(0, 0, 4, 4, 3, 3, 5, 4)).toBe(false);
  });

  it("the walks' branch-free boxGapSq equals boxDistanceSq on finite boxes, with tiny gaps beside huge boxes", () => {
    // The gap per axis, one side at a time (the reference the branch-free form must equal).
    const gap = (lo: number, hi: number, v: number): number =>
      v < lo ? lo - v : v > hi ? v - hi : 0;
    const scale = fc.constantFrom(1e-300, 1e-145, 1e-20, 1, 1e20, 1e150);
    const value = fc.tuple(fc.double({ min: -4, max: 4, noNaN: true }), scale);
    fc.assert(
      fc.property(value, value, value, value, value, value, (a, b, c, d, e, f) => {
        const [x0, x1] = [a[0] * a[1], b[0] * b[1]].sort((p, q) => p - q) as [number, number];
        const [y0, y1] = [c[0] * c[1], d[0] * d[1]].sort((p, q) => p - q) as [number, number];
        const x = e[0] * e[1];
        const y = f[0] * f[1];
        const dx = gap(x0, x1, x);
        const dy = gap(y0, y1, y);
        expect(boxGapSq(x0, y0, x1, y1, x, y)).toBe(dx * dx + dy * dy);
        expect(boxDistanceSq(x0, y0, x1, y1, x, y)).toBe(dx * dx + dy * dy);
      }),
      { numRuns: 5000 },
    );
    // A point 1e-145 below a box half a unit tall: the gap is not lost beside the far side.
    expect(boxGapSq(0, 1e-145, 0, 0.5, 0, 0)).toBe(1e-145 * 1e-145);
  });

  it('boxDistanceSq takes boxes with infinite edges: 0 inside, the gap to the finite side outside', () => {
    const inf = Number.POSITIVE_INFINITY;
    expect(boxDistanceSq(-inf, -inf, inf, inf, 0, 0)).toBe(0);
    expect(boxDistanceSq(0, 0, inf, 1, 5, 0.5)).toBe(0);
    expect(boxDistanceSq(0, 0, inf, 1, -3, 0.5)).toBe(9);
    expect(boxDistanceSq(-1e308, 0, 1e308, 0, 1e308, 0)).toBe(0);
  });

  it('boxDistanceSq is 0 inside and on the edge, and the squared gap outside', () => {
    expect(boxDistanceSq(0, 0, 2, 2, 1, 1)).toBe(0);
    expect(boxDistanceSq(0, 0, 2, 2, 2, 1)).toBe(0);
    expect(boxDistanceSq(0, 0, 2, 2, 5, 6)).toBe(25);
    expect(boxDistanceSq(0, 0, 2, 2, -3, 1)).toBe(9);
  });

  it('boxIntersectsCircle is closed: tangent discs touch', () => {
    expect(boxIntersectsCircle(0, 0, 1, 1, 2, 0.5, 1)).toBe(true); // tangent to the right edge
    expect(boxIntersectsCircle(0, 0, 1, 1, 4, 5, 5)).toBe(true); // 3-4-5 to the corner (1,1)
    expect(boxIntersectsCircle(0, 0, 1, 1, 4, 5, 4.999999999999999)).toBe(false);
    expect(boxIntersectsCircle(0, 0, 1, 1, 0.5, 0.5, 0)).toBe(true); // zero radius inside
    expect(boxIntersectsCircle(2, 2, 2, 2, 2, 2, 0)).toBe(true); // zero radius on a point box
  });

  it('boxIntersectsCircle decides tangency exactly where the rounded distance is wrong', () => {
    // The corner (0.1, 0.2) lies at distance exactly |(0.1,0.2) - c| from c; r = that distance,
    // rounded either way, must flip the answer exactly where exact arithmetic says so.
    const x = 0.7;
    const y = 0.9;
    const r = Math.hypot(x - 0.1, y - 0.2);
    for (const rr of [r, r * (1 - 2 ** -52), r * (1 + 2 ** -52)]) {
      expect(boxIntersectsCircle(-1, -1, 0.1, 0.2, x, y, rr)).toBe(
        circleHitsBoxSlow(-1, -1, 0.1, 0.2, x, y, rr),
      );
    }
  });

  it('boxIntersectsCircle agrees with exact arithmetic on random near-tangent cases', () => {
    const c = fc.integer({ min: -64, max: 64 }).map((v) => v / 4);
    fc.assert(
      fc.property(
        c,
        c,
        c,
        c,
        c,
        c,
        fc.integer({ min: -3, max: 3 }),
        (ax, ay, bx, by, x, y, ulps) => {
          const minX = Math.min(ax, bx);
          const maxX = Math.max(ax, bx);
          const minY = Math.min(ay, by);
          const maxY = Math.max(ay, by);
          let r = Math.sqrt(boxDistanceSq(minX, minY, maxX, maxY, x, y));
          r *= 1 + ulps * 2 ** -53;
          expect(boxIntersectsCircle(minX, minY, maxX, maxY, x, y, r)).toBe(
            circleHitsBoxSlow(minX, minY, maxX, maxY, x, y, r),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('boxIntersectsSegment counts segments that touch an edge or a corner', () => {
    expect(boxIntersectsSegment(0, 0, 1, 1, 1, 2, 2, 1)).toBe(false); // passes the corner (1,1) outside
    expect(boxIntersectsSegment(0, 0, 1, 1, 0, 2, 2, 0)).toBe(true); // through the corner (1,1)
    expect(boxIntersectsSegment(0, 0, 1, 1, 1, -5, 1, 5)).toBe(true); // along the right edge
    expect(boxIntersectsSegment(0, 0, 1, 1, 2, -5, 2, 5)).toBe(false);
    expect(boxIntersectsSegment(0, 0, 1, 1, -1, -1, 2, 2)).toBe(true); // the diagonal
    expect(boxIntersectsSegment(0, 0, 1, 1, 0.5, 0.5, 0.5, 0.5)).toBe(true); // a point inside
    expect(boxIntersectsSegment(0, 0, 1, 1, 1, 1, 1, 1)).toBe(true); // a point on the corner
    expect(boxIntersectsSegment(0, 0, 1, 1, 1.5, 0.5, 1.5, 0.5)).toBe(false); // a point outside
    expect(boxIntersectsSegment(3, 3, 3, 3, 0, 0, 6, 6)).toBe(true); // a point box on the segment
    expect(boxIntersectsSegment(3, 3, 3, 3, 0, 0, 6, 6.000000000000001)).toBe(false);
  });

  it('boxIntersectsSegment agrees with an exact edge-crossing reference on random input', () => {
    const c = fc.integer({ min: -16, max: 16 }).map((v) => v / 2);
    fc.assert(
      fc.property(c, c, c, c, c, c, c, c, (ax, ay, bx, by, x1, y1, x2, y2) => {
        const minX = Math.min(ax, bx);
        const maxX = Math.max(ax, bx);
        const minY = Math.min(ay, by);
        const maxY = Math.max(ay, by);
        expect(boxIntersectsSegment(minX, minY, maxX, maxY, x1, y1, x2, y2)).toBe(
          segmentHitsBoxSlow(minX, minY, maxX, maxY, x1, y1, x2, y2),
        );
      }),
      { numRuns: 5000 },
    );
  });
});
