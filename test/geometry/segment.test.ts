import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { norm } from '../../src/geometry/metric.js';
import { closestPointOnSegment, segmentContainsPoint, segmentsIntersect } from '../../src/index.js';
import { segmentsIntersect as segmentsIntersectSlow } from './exact-reference.js';
import { onSegmentSlow, segmentDistanceSlow } from './triangle-reference.js';

const grid = fc.integer({ min: -6, max: 6 }).map((v) => v / 2);
const scale = fc.constantFrom(1, 2 ** 600, 2 ** -600);

describe('segment kernels', () => {
  it('segmentsIntersect counts touching endpoints and collinear overlap', () => {
    expect(segmentsIntersect(0, 0, 2, 2, 0, 2, 2, 0)).toBe(true); // crossing
    expect(segmentsIntersect(0, 0, 2, 2, 2, 2, 3, 0)).toBe(true); // shared endpoint
    expect(segmentsIntersect(0, 0, 2, 2, 1, 1, 5, 5)).toBe(true); // collinear overlap
    expect(segmentsIntersect(0, 0, 2, 2, 3, 3, 5, 5)).toBe(false); // collinear, apart
    expect(segmentsIntersect(0, 0, 2, 2, 1, 1, 1, 1)).toBe(true); // a point on it
    expect(segmentsIntersect(0, 0, 2, 2, 1, 1.0000000000000002, 1, 1.0000000000000002)).toBe(false);
    expect(segmentsIntersect(0, 0, 2, 0, 0, 1, 2, 1)).toBe(false); // parallel
  });

  it('segmentsIntersect and segmentContainsPoint agree with exact arithmetic', () => {
    fc.assert(
      fc.property(grid, grid, grid, grid, grid, grid, grid, grid, scale, (...v) => {
        const k = v[8];
        const [a, b, c, d, e, f, g, h] = v.slice(0, 8).map((x) => x * k) as number[];
        expect(segmentsIntersect(a!, b!, c!, d!, e!, f!, g!, h!)).toBe(
          segmentsIntersectSlow(a!, b!, c!, d!, e!, f!, g!, h!),
        );
        expect(segmentContainsPoint(a!, b!, c!, d!, e!, f!)).toBe(
          onSegmentSlow(a!, b!, c!, d!, e!, f!),
        );
      }),
      { numRuns: 4000 },
    );
  });

  it('closestPointOnSegment clamps to the endpoints and projects in between', () => {
    const out = new Float64Array(2);
    expect(closestPointOnSegment(0, 0, 4, 0, 1, 3, out)).toBe(3);
    expect([...out]).toEqual([1, 0]);
    expect(closestPointOnSegment(0, 0, 4, 0, -3, 4, out)).toBe(5);
    expect([...out]).toEqual([0, 0]);
    expect(closestPointOnSegment(0, 0, 4, 0, 7, -4, out)).toBe(5);
    expect([...out]).toEqual([4, 0]);
    expect(closestPointOnSegment(1, 1, 1, 1, 4, 5, out)).toBe(5); // zero length
    expect(closestPointOnSegment(0, 0, 4e300, 0, 1e300, 3e300, out)).toBe(3e300); // huge
    expect(closestPointOnSegment(0, 0, 4e-300, 0, 1e-300, 3e-300, out)).toBe(3e-300); // tiny
  });

  it('closestPointOnSegment agrees with a plain projection', () => {
    const real = fc.double({ min: -8, max: 8, noNaN: true });
    const out = new Float64Array(2);
    fc.assert(
      fc.property(real, real, real, real, real, real, (x1, y1, x2, y2, px, py) => {
        const d = closestPointOnSegment(x1, y1, x2, y2, px, py, out);
        const want = segmentDistanceSlow([x1, y1, x2, y2], px, py);
        expect(Math.abs(d - want)).toBeLessThanOrEqual(1e-12);
        expect(Math.abs(norm(px - out[0]!, py - out[1]!) - d)).toBeLessThanOrEqual(1e-12);
      }),
      { numRuns: 2000 },
    );
  });

  it('norm is accurate from subnormal to near-overflow lengths', () => {
    expect(norm(3, 4)).toBe(5);
    expect(norm(3e300, 4e300)).toBe(5e300);
    expect(norm(3e-310, 4e-310)).toBe(Math.hypot(3e-310, 4e-310));
    expect(norm(0, 0)).toBe(0);
    expect(norm(-0, 5)).toBe(5);
  });
});
