import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  circle,
  contains,
  distance,
  intersects,
  point,
  polygon,
  rect,
  type Shape,
  segment,
  shapeBounds,
  triangle,
} from '../../src/index.js';
import { containsSlow, distanceSlow, intersectsSlow } from './shapes-reference.js';

// Shapes on a coarse grid, so that touching, tangent (3-4-5), collinear and coincident pairs are
// common; radii are grid steps, some of them nudged by an ulp to just miss or just reach.
const coord = fc.integer({ min: -8, max: 8 }).map((v) => v / 2);
const size = fc.integer({ min: 0, max: 8 }).map((v) => v / 2);
const radius = fc
  .tuple(fc.integer({ min: 0, max: 10 }), fc.constantFrom(0, 0, 0, 1, -1))
  .map(([v, u]) => Math.max(0, (v / 2) * (1 + u * 2 ** -52)));

/** The convex hull of some points, counter-clockwise, collinear points dropped (Andrew 1979). */
function hull(points: [number, number][]): [number, number][] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: number[], a: number[], b: number[]) =>
    (a[0]! - o[0]!) * (b[1]! - o[1]!) - (a[1]! - o[1]!) * (b[0]! - o[0]!);
  const half = (pts: [number, number][]) => {
    const h: [number, number][] = [];
    for (const q of pts) {
      while (h.length >= 2 && cross(h[h.length - 2]!, h[h.length - 1]!, q) <= 0) h.pop();
      h.push(q);
    }
    h.pop();
    return h;
  };
  return [...half(p), ...half(p.reverse())];
}

const convexPolygon = fc
  .tuple(fc.array(fc.tuple(coord, coord), { minLength: 3, maxLength: 8 }), fc.boolean())
  .map(([pts, reverse]) => {
    const h = hull(pts);
    if (h.length < 3) return triangle(0, 0, 1, 0, 0, 1);
    if (reverse) h.reverse();
    return polygon(h.flat());
  });

const shape: fc.Arbitrary<Shape> = fc.oneof(
  fc.tuple(coord, coord).map(([x, y]) => point(x, y)),
  fc.tuple(coord, coord, size, size).map(([x, y, w, h]) => rect(x, y, w, h)),
  fc.tuple(coord, coord, radius).map(([x, y, r]) => circle(x, y, r)),
  fc.tuple(coord, coord, coord, coord).map(([a, b, c, d]) => segment(a, b, c, d)),
  fc.tuple(coord, coord, coord, coord, coord, coord).map((v) => triangle(...v)),
  convexPolygon,
);

/** The shape with every coordinate and length multiplied by k (a power of two: exact). */
function scaled(s: Shape, k: number): Shape {
  switch (s.type) {
    case 'point':
      return point(s.x * k, s.y * k);
    case 'rect':
      return rect(s.x * k, s.y * k, s.width * k, s.height * k);
    case 'circle':
      return circle(s.x * k, s.y * k, s.radius * k);
    case 'segment':
      return segment(s.x1 * k, s.y1 * k, s.x2 * k, s.y2 * k);
    case 'triangle':
      return triangle(s.ax * k, s.ay * k, s.bx * k, s.by * k, s.cx * k, s.cy * k);
    case 'polygon':
      return polygon([...s.points].map((v) => v * k));
  }
}

const scale = fc.constantFrom(1, 1, 1, 2 ** 520, 2 ** -520);

describe('narrow phase', () => {
  it('intersects counts touching shapes: shared edges, tangent circles, collinear segments', () => {
    expect(intersects(rect(0, 0, 1, 1), rect(1, 0, 1, 1))).toBe(true);
    expect(intersects(rect(0, 0, 1, 1), rect(1.0000000000000002, 0, 1, 1))).toBe(false);
    expect(intersects(circle(0, 0, 2), circle(3, 4, 3))).toBe(true); // tangent (3-4-5)
    expect(intersects(circle(0, 0, 2), circle(3, 4, 2.9999999999999996))).toBe(false);
    expect(intersects(circle(0, 0, 1), segment(-2, 1, 2, 1))).toBe(true); // tangent line
    expect(intersects(circle(0, 0, 1), segment(-2, 1.0000000000000002, 2, 1))).toBe(false);
    expect(intersects(segment(0, 0, 2, 2), segment(2, 2, 3, 3))).toBe(true); // collinear, touching
    expect(intersects(segment(0, 0, 2, 2), segment(3, 3, 4, 4))).toBe(false);
    // The hypotenuse is sqrt(2) from (3, 3): Math.SQRT2 lies just above it, the double below not.
    expect(intersects(triangle(0, 0, 4, 0, 0, 4), circle(3, 3, Math.SQRT2))).toBe(true);
    expect(intersects(triangle(0, 0, 4, 0, 0, 4), circle(3, 3, Math.SQRT2 - 2 ** -52))).toBe(false);
    expect(intersects(polygon([0, 0, 2, 0, 2, 2, 0, 2]), point(2, 1))).toBe(true);
    expect(intersects(polygon([0, 0, 2, 0, 1, 2]), polygon([2, 0, 4, 0, 3, 2]))).toBe(true); // a shared vertex
    expect(intersects(polygon([0, 0, 2, 0, 1, 2]), polygon([2.5, 0, 4, 0, 3, 2]))).toBe(false);
    expect(intersects(rect(0, 0, 2, 2), circle(3, 3, Math.SQRT2))).toBe(true); // the corner (2, 2)
    expect(intersects(rect(0, 0, 2, 2), circle(3, 3, Math.SQRT2 - 2 ** -52))).toBe(false);
    expect(intersects(rect(0, 0, 2, 2), circle(5, 6, 5))).toBe(true); // corner at 3-4-5
  });

  it('contains is closed: a shape contains itself and what touches its boundary from inside', () => {
    expect(contains(rect(0, 0, 4, 4), circle(2, 2, 2))).toBe(true); // inscribed
    expect(contains(rect(0, 0, 4, 4), circle(2, 2, 2.0000000000000004))).toBe(false);
    expect(contains(circle(0, 0, 5), rect(-3, -4, 6, 8))).toBe(true); // inscribed (3-4-5)
    expect(contains(circle(0, 0, 5), circle(1, 0, 4))).toBe(true); // internally tangent
    expect(contains(circle(0, 0, 5), circle(1, 0, 4.000000000000001))).toBe(false);
    expect(contains(triangle(0, 0, 4, 0, 0, 4), segment(4, 0, 0, 4))).toBe(true); // its own edge
    expect(contains(segment(0, 0, 4, 4), point(1, 1))).toBe(true);
    expect(contains(point(1, 1), segment(1, 1, 1, 1))).toBe(true);
    expect(contains(polygon([0, 0, 4, 0, 4, 4, 0, 4]), rect(0, 0, 4, 4))).toBe(true); // coincident
    expect(contains(triangle(0, 0, 6, 0, 0, 6), circle(1, 1, 1))).toBe(true); // touching two legs
    expect(contains(triangle(0, 0, 6, 0, 0, 6), circle(1, 1, 1.0000000000000002))).toBe(false);
  });

  it('distance is 0 for touching shapes and the gap otherwise', () => {
    expect(distance(rect(0, 0, 1, 1), rect(1, 0, 1, 1))).toBe(0);
    expect(distance(rect(0, 0, 1, 1), rect(4, 5, 1, 1))).toBe(5);
    expect(distance(circle(0, 0, 1), circle(6, 8, 2))).toBe(7);
    expect(distance(circle(0, 0, 1), segment(-5, 3, 5, 3))).toBe(2);
    expect(distance(triangle(0, 0, 4, 0, 0, 4), point(4, 4))).toBeCloseTo(2 * Math.SQRT2, 14);
    expect(distance(polygon([0, 0, 1, 0, 0, 1]), polygon([3, 0, 4, 0, 4, 1]))).toBe(2);
    expect(distance(segment(0, 0, 1, 0), segment(0, 1e-300, 1, 1e-300))).toBe(1e-300);
  });

  it('intersects, contains and distance agree with slow exact references on random shapes', () => {
    fc.assert(
      fc.property(shape, shape, scale, (s, t, k) => {
        const a = scaled(s, k);
        const b = scaled(t, k);
        const hit = intersectsSlow(a, b);
        expect(intersects(a, b)).toBe(hit);
        expect(intersects(b, a)).toBe(hit);
        expect(contains(a, b)).toBe(containsSlow(a, b));
        expect(contains(b, a)).toBe(containsSlow(b, a));
        const d = distance(a, b);
        expect(d === 0).toBe(hit);
        if (!hit) {
          const want = distanceSlow(s, t) * k;
          expect(Math.abs(d - want)).toBeLessThanOrEqual(1e-12 * k * (1 + want / k));
        }
      }),
      { numRuns: 6000 },
    );
  });

  it('contains implies intersects, and every shape contains itself', () => {
    fc.assert(
      fc.property(shape, shape, (a, b) => {
        if (contains(a, b)) expect(intersects(a, b)).toBe(true);
        expect(contains(a, a)).toBe(true);
        expect(distance(a, a)).toBe(0);
      }),
      { numRuns: 3000 },
    );
  });

  it('intersects decides near-tangent discs and segments exactly where rounding would not', () => {
    // A segment through a point at distance r from the centre, r rounded either way.
    fc.assert(
      fc.property(
        fc.double({ min: -4, max: 4, noNaN: true }),
        fc.double({ min: -4, max: 4, noNaN: true }),
        fc.integer({ min: -2, max: 2 }),
        coord,
        coord,
        (x, y, ulps, dx, dy) => {
          const r = Math.hypot(x, y) * (1 + ulps * 2 ** -53);
          const c = circle(0, 0, r);
          const targets: Shape[] = [
            point(x, y),
            segment(x - dy, y + dx, x + dy, y - dx), // perpendicular to the radius at (x, y)
            circle(2 * x, 2 * y, r),
            rect(x, y, Math.abs(dx), Math.abs(dy)),
          ];
          for (const t of targets) {
            expect(intersects(c, t)).toBe(intersectsSlow(c, t));
            expect(contains(c, t)).toBe(containsSlow(c, t));
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('intersects and contains decide exactly tangent slanted edges and their one-ulp neighbours', () => {
    // A line with a Pythagorean normal (a, b)/c touches the circle of radius k*c/4 exactly at
    // centre + k*(a, b)/4; segments along it, and triangles and polygons with it as an edge, are
    // tangent, and one ulp of radius either way decides.
    const triple = fc.constantFrom([3, 4, 5], [5, 12, 13], [8, 15, 17], [-4, 3, 5], [12, -5, 13]);
    fc.assert(
      fc.property(
        coord,
        coord,
        triple,
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: -6, max: 6 }),
        fc.integer({ min: -6, max: 6 }),
        fc.constantFrom(-1, 0, 1),
        scale,
        (x, y, [a, b, c], k, j1, j2, ulps, s) => {
          const r = ((k * c!) / 4) * (1 + ulps * 2 ** -52);
          const tx = x + (k * a!) / 4;
          const ty = y + (k * b!) / 4;
          const [ex, ey] = [(-b! * j1) / 4, (a! * j1) / 4];
          const [fx, fy] = [(-b! * j2) / 4, (a! * j2) / 4];
          const disc = scaled(circle(x, y, r), s);
          const targets: Shape[] = [
            segment(tx + ex, ty + ey, tx + fx, ty + fy),
            triangle(tx + ex, ty + ey, tx + fx, ty + fy, tx + a!, ty + b!),
          ];
          if (j1 !== j2) {
            targets.push(polygon([tx + ex, ty + ey, tx + fx, ty + fy, tx + a! - ex, ty + b! - ey]));
          }
          for (const t of targets) {
            const u = scaled(t, s);
            expect(intersects(disc, u)).toBe(intersectsSlow(disc, u));
            expect(contains(u, disc)).toBe(containsSlow(u, disc));
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('shapeBounds covers the shape exactly as the indexes round x + width', () => {
    fc.assert(
      fc.property(shape, fc.double({ min: -1e6, max: 1e6, noNaN: true }), (s, shift) => {
        // Shifting by an arbitrary double makes the sums round.
        const moved: Shape =
          s.type === 'circle'
            ? circle(s.x + shift, s.y - shift, s.radius * 1.1)
            : s.type === 'point'
              ? point(s.x + shift, s.y)
              : s;
        const b = shapeBounds(moved);
        const box = rect(b.x, b.y, b.width, b.height);
        expect(contains(box, moved)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('the constructors reject bad input with an error naming the field and the fix', () => {
    expect(() => point(Number.NaN, 0)).toThrow(/point x must be a finite number, got NaN/);
    expect(() => rect(0, 0, -1, 1)).toThrow(RangeError);
    expect(() => rect(0, 0, -1, 1)).toThrow(/rect width must be a finite number >= 0, got -1/);
    expect(() => rect(1e308, 0, 1e308, 1)).toThrow(/rect x \+ width/);
    expect(() => circle(0, 0, -2)).toThrow(/circle radius must be a finite number >= 0, got -2/);
    expect(() => circle(0, 0, Number.POSITIVE_INFINITY)).toThrow(/circle radius/);
    expect(() => segment(0, 0, 0, '1' as unknown as number)).toThrow(TypeError);
    expect(() => triangle(0, 0, 1, 0, 0, Number.NEGATIVE_INFINITY)).toThrow(/triangle cy/);
    expect(() => polygon([0, 0, 1, 0])).toThrow(/vertex count must be at least 3.*got 2/);
    expect(() => polygon([0, 0, 1, 0, 1])).toThrow(/even/);
    expect(() => polygon([0, 0, 1, 0, Number.NaN, 1])).toThrow(/polygon coords\[4\]/);
    expect(() => polygon([0, 0, 4, 0, 1, 1, 0, 4])).toThrow(/vertex 2 \(1, 1\).*convex/);
    expect(() => polygon([0, 0, 1, 0, 1, 0, 0, 1])).toThrow(/repeat/);
    expect(() => polygon([0, 0, 1, 1, 2, 2])).toThrow(/non-zero area/);
    expect(() => polygon([0, 0, 2, 0, 1, 0, 1, 1])).toThrow(
      /vertex 2 \(1, 0\) must be a convex corner/,
    );
    // A pentagram: every turn the same way, but it winds twice.
    const pentagram = [0, 2, 4, 1, 3].flatMap((i) => [
      Math.round(1000 * Math.cos((2 * Math.PI * i) / 5)),
      Math.round(1000 * Math.sin((2 * Math.PI * i) / 5)),
    ]);
    expect(() => polygon(pentagram)).toThrow(/wind around more than once/);
    expect(() => polygon(null as unknown as number[])).toThrow(TypeError);
  });

  it('polygon accepts either winding and collinear vertices along an edge', () => {
    const ccw = polygon([0, 0, 2, 0, 4, 0, 4, 4, 0, 4]);
    const cw = polygon([0, 4, 4, 4, 4, 0, 2, 0, 0, 0]);
    expect([...cw.points]).toEqual([0, 0, 2, 0, 4, 0, 4, 4, 0, 4]);
    for (const p of [ccw, cw]) {
      expect(intersects(p, point(3, 0))).toBe(true);
      expect(contains(p, circle(2, 2, 2))).toBe(true);
      expect(contains(p, circle(2, 2.0000000000000004, 2))).toBe(false);
    }
  });
});
