import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boxIntersectsSegment,
  closestPointOnTriangle,
  segmentBoxEntry,
  segmentTriangleEntry,
  triangleContainsPoint,
  triangleIntersectsBox,
  triangleIntersectsSegment,
} from '../../src/index.js';
import { segmentHitsBoxSlow } from './exact-reference.js';
import {
  boxEdges,
  fractionValue,
  regionEntrySlow,
  regionsMeetSlow,
  segmentDistanceSlow,
  triangleContainsSlow,
  triangleEdges,
} from './triangle-reference.js';

// Coordinates on a coarse grid make vertices on edges, collinear triples, zero-area triangles and
// zero-size boxes common; scaling the grid by 2^±600 keeps every relation exact while pushing the
// products of coordinates out of the double range.
const grid = fc.integer({ min: -6, max: 6 }).map((v) => v / 2);
const scale = fc.constantFrom(1, 1, 1, 2 ** 600, 2 ** -600, 3);
const tri = fc.tuple(grid, grid, grid, grid, grid, grid);
const seg = fc.tuple(grid, grid, grid, grid);

/** A few ulps away from v (and off zero). */
function nudge(v: number, ulps: number): number {
  return v + ulps * (Math.abs(v) * 2 ** -52 + 2 ** -1060);
}

const inside = (t: number[]) => (x: number, y: number) =>
  triangleContainsSlow(t[0]!, t[1]!, t[2]!, t[3]!, t[4]!, t[5]!, x, y);
const inBox = (b: number[]) => (x: number, y: number) =>
  b[0]! <= x && x <= b[2]! && b[1]! <= y && y <= b[3]!;

describe('triangle kernels', () => {
  it('triangleContainsPoint counts edges and vertices as inside, in either winding', () => {
    for (const t of [
      [0, 0, 4, 0, 0, 4],
      [0, 0, 0, 4, 4, 0],
    ] as const) {
      const [ax, ay, bx, by, cx, cy] = t;
      expect(triangleContainsPoint(ax, ay, bx, by, cx, cy, 1, 1)).toBe(true);
      expect(triangleContainsPoint(ax, ay, bx, by, cx, cy, 0, 0)).toBe(true); // a vertex
      expect(triangleContainsPoint(ax, ay, bx, by, cx, cy, 2, 2)).toBe(true); // the hypotenuse
      expect(triangleContainsPoint(ax, ay, bx, by, cx, cy, 2, 0)).toBe(true); // an edge
      expect(triangleContainsPoint(ax, ay, bx, by, cx, cy, 2, 2.0000000000000004)).toBe(false);
      expect(triangleContainsPoint(ax, ay, bx, by, cx, cy, -1, 1)).toBe(false);
    }
  });

  it('triangleContainsPoint of a zero-area triangle is its hull segment or point', () => {
    expect(triangleContainsPoint(0, 0, 2, 2, 1, 1, 1.5, 1.5)).toBe(true);
    expect(triangleContainsPoint(0, 0, 2, 2, 1, 1, 3, 3)).toBe(false); // on the line, past the hull
    expect(triangleContainsPoint(0, 0, 2, 2, 1, 1, 1, 1.5)).toBe(false);
    expect(triangleContainsPoint(1, 1, 1, 1, 1, 1, 1, 1)).toBe(true);
    expect(triangleContainsPoint(1, 1, 1, 1, 1, 1, 1, 1.0000000000000002)).toBe(false);
  });

  it('triangleContainsPoint agrees with exact arithmetic on grid, scaled and nearly collinear input', () => {
    fc.assert(
      fc.property(tri, grid, grid, scale, (t, px, py, k) => {
        const [ax, ay, bx, by, cx, cy] = t.map((v) => v * k) as typeof t;
        expect(triangleContainsPoint(ax, ay, bx, by, cx, cy, px * k, py * k)).toBe(
          triangleContainsSlow(ax, ay, bx, by, cx, cy, px * k, py * k),
        );
      }),
      { numRuns: 3000 },
    );
    // Points on an edge (exactly representable), then nudged off it by a few ulps.
    fc.assert(
      fc.property(
        tri,
        fc.integer({ min: 0, max: 16 }),
        fc.integer({ min: -2, max: 2 }),
        fc.integer({ min: -2, max: 2 }),
        (t, i, ux, uy) => {
          const [ax, ay, bx, by, cx, cy] = t;
          const px = nudge(ax + (i / 16) * (bx - ax), ux);
          const py = nudge(ay + (i / 16) * (by - ay), uy);
          expect(triangleContainsPoint(ax, ay, bx, by, cx, cy, px, py)).toBe(
            triangleContainsSlow(ax, ay, bx, by, cx, cy, px, py),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('triangleIntersectsBox counts touching edges and corners, and rejects a corner just outside', () => {
    expect(triangleIntersectsBox(0, 0, 4, 0, 0, 4, 1, 1, 2, 2)).toBe(true); // box inside
    expect(triangleIntersectsBox(0, 0, 4, 0, 0, 4, -10, -10, 10, 10)).toBe(true); // triangle inside
    expect(triangleIntersectsBox(0, 0, 4, 0, 0, 4, 2, 2, 3, 3)).toBe(true); // corner on the hypotenuse
    expect(triangleIntersectsBox(0, 0, 4, 0, 0, 4, 2.0000000000000004, 2, 3, 3)).toBe(false);
    expect(triangleIntersectsBox(0, 0, 4, 0, 0, 4, 4, -1, 5, 0)).toBe(true); // touches vertex b
    expect(triangleIntersectsBox(0, 0, 0, 4, 4, 0, 3, 3, 5, 5)).toBe(false); // clockwise, outside
    expect(triangleIntersectsBox(0, 0, 2, 2, 4, 4, 1, 2, 1, 3)).toBe(false); // zero area
    expect(triangleIntersectsBox(0, 0, 2, 2, 4, 4, 3, 2, 4, 3)).toBe(true); // zero area, touching
  });

  it('triangleIntersectsBox agrees with an exact vertex-and-edge reference', () => {
    fc.assert(
      fc.property(tri, seg, scale, (t, b, k) => {
        const [ax, ay, bx, by, cx, cy] = t.map((v) => v * k) as typeof t;
        const box = [
          Math.min(b[0], b[2]) * k,
          Math.min(b[1], b[3]) * k,
          Math.max(b[0], b[2]) * k,
          Math.max(b[1], b[3]) * k,
        ];
        const [minX, minY, maxX, maxY] = box as [number, number, number, number];
        const want = regionsMeetSlow(
          triangleEdges(ax, ay, bx, by, cx, cy),
          inside([ax, ay, bx, by, cx, cy]),
          boxEdges(minX, minY, maxX, maxY),
          inBox(box),
        );
        expect(triangleIntersectsBox(ax, ay, bx, by, cx, cy, minX, minY, maxX, maxY)).toBe(want);
      }),
      { numRuns: 5000 },
    );
  });

  it('triangleIntersectsSegment counts a touch at a vertex or along an edge', () => {
    expect(triangleIntersectsSegment(0, 0, 4, 0, 0, 4, 1, 1, 1, 1)).toBe(true); // a point inside
    expect(triangleIntersectsSegment(0, 0, 4, 0, 0, 4, 2, 2, 5, 5)).toBe(true); // starts on an edge
    expect(triangleIntersectsSegment(0, 0, 4, 0, 0, 4, 4, 4, 0, 8)).toBe(false);
    expect(triangleIntersectsSegment(0, 0, 4, 0, 0, 4, 5, 0, 6, 0)).toBe(false); // collinear, past b
    expect(triangleIntersectsSegment(0, 0, 4, 0, 0, 4, 4, 0, 6, 0)).toBe(true); // collinear, touching b
    expect(triangleIntersectsSegment(0, 0, 4, 0, 0, 4, -1, 5, 5, -1)).toBe(true); // along the hypotenuse
    expect(triangleIntersectsSegment(0, 0, 4, 0, 0, 4, -1, 5, 5, -0.9999999999999999)).toBe(false);
    expect(triangleIntersectsSegment(0, 0, 1, 1, 2, 2, 0, 2, 2, 0)).toBe(true); // zero area, crossing
  });

  it('triangleIntersectsSegment agrees with an exact vertex-and-edge reference', () => {
    fc.assert(
      fc.property(tri, seg, scale, (t, s, k) => {
        const [ax, ay, bx, by, cx, cy] = t.map((v) => v * k) as typeof t;
        const [x1, y1, x2, y2] = s.map((v) => v * k) as typeof s;
        const want = regionsMeetSlow(
          triangleEdges(ax, ay, bx, by, cx, cy),
          inside([ax, ay, bx, by, cx, cy]),
          [[x1, y1, x2, y2]],
          () => false,
        );
        expect(triangleIntersectsSegment(ax, ay, bx, by, cx, cy, x1, y1, x2, y2)).toBe(want);
      }),
      { numRuns: 5000 },
    );
  });

  it('segmentTriangleEntry returns the first parameter on the triangle, 0 from inside, -1 on a miss', () => {
    expect(segmentTriangleEntry(0, 0, 4, 0, 0, 4, -2, 1, 2, 1)).toBe(0.5);
    expect(segmentTriangleEntry(0, 0, 4, 0, 0, 4, 1, 1, 9, 9)).toBe(0);
    expect(segmentTriangleEntry(0, 0, 4, 0, 0, 4, 4, 4, 0, 8)).toBe(-1);
    expect(segmentTriangleEntry(0, 0, 4, 0, 0, 4, 8, 0, 4, 0)).toBe(1); // touches b at the end
    expect(segmentTriangleEntry(0, 0, 4, 0, 0, 4, 8, 0, 0, 0)).toBe(0.5); // collinear with ab
    expect(segmentTriangleEntry(0, 0, 2, 0, 4, 0, 6, 0, -2, 0)).toBe(0.25); // zero area
    expect(segmentTriangleEntry(0, 0, 2, 0, 4, 0, 1, 2, 1, -2)).toBe(0.5); // zero area, crossing
  });

  it('segmentTriangleEntry hits exactly when triangleIntersectsSegment does, at the exact parameter', () => {
    fc.assert(
      fc.property(tri, seg, scale, (t, s, k) => {
        const [ax, ay, bx, by, cx, cy] = t.map((v) => v * k) as typeof t;
        const [x1, y1, x2, y2] = s.map((v) => v * k) as typeof s;
        const got = segmentTriangleEntry(ax, ay, bx, by, cx, cy, x1, y1, x2, y2);
        const hit = triangleIntersectsSegment(ax, ay, bx, by, cx, cy, x1, y1, x2, y2);
        const want = regionEntrySlow(
          triangleEdges(ax, ay, bx, by, cx, cy),
          inside([ax, ay, bx, by, cx, cy]),
          x1,
          y1,
          x2,
          y2,
        );
        expect(got === -1).toBe(!hit);
        expect(want === null).toBe(!hit);
        if (want !== null) expect(Math.abs(got - fractionValue(want))).toBeLessThan(1e-12);
      }),
      { numRuns: 5000 },
    );
  });

  it('segmentTriangleEntry is 1 for a start a rounding error outside an edge and an end on its line', () => {
    // A sliver whose edge (2.3, -3)-(0.3, 2) passes a hair beside the start; the segment ends
    // at that edge's vertex. A plain cross product puts the start inside that edge's half-plane.
    const sliver = [2.3, -3, 2, 1e6, 0.30000000000000004, 2] as const;
    const [x1, y1, x2, y2] = [1.2999999999999998, -0.5, 2.3, -3];
    expect(triangleContainsPoint(...sliver, x1, y1)).toBe(false);
    expect(segmentTriangleEntry(...sliver, x1, y1, x2, y2)).toBe(1);
    // Subnormal coordinates: the segment runs along an edge's line into the triangle at its end.
    const tiny = [0, 5e-324, 1e-310, 5e-324, 1e-300, 0] as const;
    expect(segmentTriangleEntry(...tiny, -2.420774137135595, 5e-324, 1e-310, 5e-324)).toBeCloseTo(
      1,
      12,
    );
  });

  it('segmentTriangleEntry stays within 1e-11 of the exact parameter for starts beside an edge, offsets of 1e15, subnormal and huge coordinates', () => {
    const coord = fc.oneof(
      grid,
      fc.integer({ min: -4, max: 4 }).map((v) => 1e15 + v),
      fc.constantFrom(0, -0, 5e-324, 1e-310, 1e-300, -1e-300, 2e-300),
      fc.constantFrom(1e300, -1e300, 1e308, -1.7e308),
      fc.double({ min: -10, max: 10, noNaN: true }),
    );
    const triangle = fc.tuple(coord, coord, coord, coord, coord, coord);
    // The start: anywhere, or on an edge's line (at u along it) nudged a few ulps off it.
    const start = fc.tuple(
      coord,
      coord,
      fc.integer({ min: 0, max: 3 }),
      fc.double({ min: -2, max: 3, noNaN: true }),
      fc.integer({ min: -3, max: 3 }),
    );
    fc.assert(
      fc.property(
        triangle,
        start,
        coord,
        coord,
        fc.integer({ min: 0, max: 3 }),
        (t, st, x2, y2, end) => {
          const [ax, ay, bx, by, cx, cy] = t;
          const [sx, sy, edge, u, ulps] = st;
          const e = triangleEdges(ax, ay, bx, by, cx, cy)[edge % 3]!;
          const x1 = edge === 3 ? sx : nudge(e[0]! + u * (e[2]! - e[0]!), ulps);
          const y1 = edge === 3 ? sy : e[1]! + u * (e[3]! - e[1]!);
          // (A point along an edge of huge coordinates can pass the largest double.)
          fc.pre(Number.isFinite(x1) && Number.isFinite(y1));
          // The end: anywhere, or at a vertex.
          const qx = end === 3 ? x2 : t[2 * end]!;
          const qy = end === 3 ? y2 : t[2 * end + 1]!;
          const got = segmentTriangleEntry(ax, ay, bx, by, cx, cy, x1, y1, qx, qy);
          const want = regionEntrySlow(
            triangleEdges(ax, ay, bx, by, cx, cy),
            inside(t),
            x1,
            y1,
            qx,
            qy,
          );
          expect(got === -1).toBe(want === null);
          if (want !== null) expect(Math.abs(got - fractionValue(want))).toBeLessThan(1e-11);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('segmentTriangleEntry measures tiny triangles beside huge segments, and tiny coordinates beside huge ones', () => {
    // (Rescaling all coordinates to the largest underflowed the tiny ones.)
    expect(segmentTriangleEntry(0, -1e-30, 1e-30, 1e-30, -1e-30, 1e-30, -1e300, 0, 1e300, 0)).toBe(
      0.5,
    );
    for (const end of [1e-300, 1e-200]) {
      const t = segmentTriangleEntry(-1, 1e-100, 1e-310, 0, 1e300, -1, -1e-310, 0, 0, end);
      expect(t).toBeGreaterThanOrEqual(0);
      expect(t).toBeLessThan(1e-100); // exactly about 2e-110 and 2e-210
    }
    // A segment whose length passes the largest double.
    expect(segmentTriangleEntry(-1e308, 1, 1e308, 1, 0, -1, -1.5e308, 0, 1.5e308, 0)).toBeCloseTo(
      1 / 3,
      12,
    );
    // Distances from the edges' lines past the largest double (the start 1.7e308 from one).
    expect(segmentTriangleEntry(0, 1.5, -1.7e308, 0, 1e300, 0.5, 0, 0, 0, 1.5)).toBeCloseTo(
      0.33333333137254906,
      12,
    );
  });

  it('segmentTriangleEntry decides grazing segments exactly and stays on the triangle', () => {
    // Segments through a point of an edge (exactly representable), nudged by a few ulps.
    fc.assert(
      fc.property(
        tri,
        grid,
        grid,
        fc.integer({ min: 0, max: 16 }),
        fc.integer({ min: -2, max: 2 }),
        (t, x1, y1, i, u) => {
          const [ax, ay, bx, by, cx, cy] = t;
          const x2 = nudge(2 * (ax + (i / 16) * (bx - ax)) - x1, u);
          const y2 = 2 * (ay + (i / 16) * (by - ay)) - y1;
          const got = segmentTriangleEntry(ax, ay, bx, by, cx, cy, x1, y1, x2, y2);
          const want = regionsMeetSlow(
            triangleEdges(ax, ay, bx, by, cx, cy),
            inside(t),
            [[x1, y1, x2, y2]],
            () => false,
          );
          expect(got !== -1).toBe(want);
          if (got !== -1) {
            // The point at t lies on the triangle, to rounding.
            const out = new Float64Array(2);
            const px = x1 + got * (x2 - x1);
            const py = y1 + got * (y2 - y1);
            expect(closestPointOnTriangle(ax, ay, bx, by, cx, cy, px, py, out)).toBeLessThan(1e-9);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('segmentBoxEntry returns the first parameter on the box, 0 from inside, -1 on a miss', () => {
    expect(segmentBoxEntry(0, 0, 1, 1, -1, 0.5, 3, 0.5)).toBe(0.25);
    expect(segmentBoxEntry(0, 0, 1, 1, 0.5, 0.5, 3, 0.5)).toBe(0);
    expect(segmentBoxEntry(0, 0, 1, 1, 2, 0.5, 3, 0.5)).toBe(-1);
    expect(segmentBoxEntry(0, 0, 1, 1, 0, 2, 2, 0)).toBe(0.5); // through the corner (1, 1)
    expect(segmentBoxEntry(0, 0, 1, 1, 1, 2, 2, 1)).toBe(-1); // passes the corner outside
    expect(segmentBoxEntry(0, 0, 1, 1, 1, -3, 1, 1)).toBe(0.75); // along the right edge
    expect(segmentBoxEntry(-1, -1, 1, 1, 0, -5, -0, 5)).toBe(0.4); // a -0 direction
    expect(segmentBoxEntry(2, 2, 2, 2, 0, 0, 4, 4)).toBe(0.5); // a point box
    // x2 - x1 past the largest double.
    expect(segmentBoxEntry(1e308, -1, 1.7e308, 1, -1.5e308, -1, 1.5e308, 1)).toBeCloseTo(5 / 6, 12);
  });

  it('segmentBoxEntry hits exactly when boxIntersectsSegment does, at the exact parameter', () => {
    fc.assert(
      fc.property(seg, seg, scale, (b, s, k) => {
        const box = [
          Math.min(b[0], b[2]) * k,
          Math.min(b[1], b[3]) * k,
          Math.max(b[0], b[2]) * k,
          Math.max(b[1], b[3]) * k,
        ];
        const [minX, minY, maxX, maxY] = box as [number, number, number, number];
        const [x1, y1, x2, y2] = s.map((v) => v * k) as typeof s;
        const got = segmentBoxEntry(minX, minY, maxX, maxY, x1, y1, x2, y2);
        expect(got === -1).toBe(!boxIntersectsSegment(minX, minY, maxX, maxY, x1, y1, x2, y2));
        const want = regionEntrySlow(boxEdges(minX, minY, maxX, maxY), inBox(box), x1, y1, x2, y2);
        expect(want === null).toBe(!segmentHitsBoxSlow(minX, minY, maxX, maxY, x1, y1, x2, y2));
        expect(got === -1).toBe(want === null);
        if (want !== null) expect(Math.abs(got - fractionValue(want))).toBeLessThan(1e-12);
      }),
      { numRuns: 5000 },
    );
  });

  it('closestPointOnTriangle returns the point itself inside, else the nearest vertex or edge point', () => {
    const out = new Float64Array(2);
    expect(closestPointOnTriangle(0, 0, 4, 0, 0, 4, 1, 1, out)).toBe(0);
    expect([...out]).toEqual([1, 1]);
    expect(closestPointOnTriangle(0, 0, 4, 0, 0, 4, 2, 2, out)).toBe(0); // on the hypotenuse
    expect(closestPointOnTriangle(0, 0, 4, 0, 0, 4, -3, -4, out)).toBe(5); // vertex region a
    expect([...out]).toEqual([0, 0]);
    expect(closestPointOnTriangle(0, 0, 0, 4, 4, 0, 2, -3, out)).toBe(3); // edge region, clockwise
    expect([...out]).toEqual([2, 0]);
    expect(closestPointOnTriangle(0, 0, 4, 0, 0, 4, 3, 3, out)).toBeCloseTo(Math.SQRT2, 15);
    expect([...out]).toEqual([2, 2]);
    expect(closestPointOnTriangle(0, 0, 2, 0, 4, 0, 1, 3, out)).toBe(3); // zero area
    expect([...out]).toEqual([1, 0]);
  });

  it('closestPointOnTriangle agrees with the nearest of the edges, at every scale', () => {
    const out = new Float64Array(2);
    const real = fc.double({ min: -8, max: 8, noNaN: true });
    fc.assert(
      fc.property(
        fc.tuple(real, real, real, real, real, real),
        real,
        real,
        fc.constantFrom(1, 2 ** 700, 2 ** -700),
        (t, x, y, k) => {
          const [ax, ay, bx, by, cx, cy] = t.map((v) => v * k) as typeof t;
          const px = x * k;
          const py = y * k;
          const d = closestPointOnTriangle(ax, ay, bx, by, cx, cy, px, py, out);
          if (triangleContainsSlow(ax, ay, bx, by, cx, cy, px, py)) {
            expect(d).toBe(0);
            expect([...out]).toEqual([px, py]);
            return;
          }
          const edges = triangleEdges(ax / k, ay / k, bx / k, by / k, cx / k, cy / k);
          const want = Math.min(...edges.map((e) => segmentDistanceSlow(e, x, y)));
          expect(Math.abs(d / k - want)).toBeLessThanOrEqual(1e-12 * (1 + want));
          // The closest point is at that distance, and on the triangle's boundary.
          const qx = out[0]! / k;
          const qy = out[1]! / k;
          expect(Math.abs(Math.hypot(x - qx, y - qy) - d / k)).toBeLessThanOrEqual(1e-12);
          const off = Math.min(...edges.map((e) => segmentDistanceSlow(e, qx, qy)));
          expect(off).toBeLessThanOrEqual(1e-12);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
