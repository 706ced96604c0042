import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { havBoxBound, havBoxNearest, havPoints } from '../../src/geometry/sphere.js';

const RAD = Math.PI / 180;
const lat = fc.oneof(
  fc.double({ min: -90, max: 90, noNaN: true }),
  fc.constantFrom(-90, 90, 0, 89.999999, -89.999999),
);
const lon = fc.oneof(
  fc.double({ min: -540, max: 540, noNaN: true }),
  fc.constantFrom(-180, 180, 179.99999, -179.99999),
);
// A box (minX, minY, maxX, maxY) and a point inside it, by fractions of its sides.
const boxAndPoint = fc
  .tuple(lon, fc.double({ min: 0, max: 400, noNaN: true }), lat, lat)
  .chain(([x, w, y1, y2]) =>
    fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([u, v]) => {
        const [s, n] = y1 < y2 ? [y1, y2] : [y2, y1];
        return { box: [x, s, x + w, n] as const, px: x + u * w, py: s + v * (n - s) };
      }),
  );

describe('havBoxBound and havBoxNearest', () => {
  it('havBoxBound never exceeds the haversine of any point of the box, nor does havBoxNearest', () => {
    fc.assert(
      fc.property(lon, lat, boxAndPoint, (qx, qy, { box, px, py }) => {
        const c = Math.cos(qy * RAD);
        const h = havPoints(qx, qy, c, px, py);
        expect(havBoxBound(qx, qy, c, ...box)).toBeLessThanOrEqual(h);
        expect(havBoxNearest(qx, qy, c, ...box)).toBeLessThanOrEqual(h * (1 + 1e-12) + 1e-15);
      }),
      { seed: 77, numRuns: 20000 },
    );
  });

  it('havBoxNearest is the smallest haversine over a dense sample of the box, and the bound is below it', () => {
    fc.assert(
      fc.property(lon, lat, boxAndPoint, (qx, qy, { box }) => {
        const [x0, y0, x1, y1] = box;
        const c = Math.cos(qy * RAD);
        let min = Number.POSITIVE_INFINITY;
        for (let i = 0; i <= 60; i++) {
          for (let j = 0; j <= 60; j++) {
            const h = havPoints(qx, qy, c, x0 + ((x1 - x0) * i) / 60, y0 + ((y1 - y0) * j) / 60);
            if (h < min) min = h;
          }
        }
        const nearest = havBoxNearest(qx, qy, c, ...box);
        // The sample's best is no better than the true nearest point, and not far above it.
        expect(nearest).toBeLessThanOrEqual(min * (1 + 1e-12) + 1e-15);
        expect(Math.sqrt(min) - Math.sqrt(nearest)).toBeLessThan(0.05);
        expect(havBoxBound(qx, qy, c, ...box)).toBeLessThanOrEqual(nearest * (1 + 1e-12) + 1e-15);
      }),
      { seed: 78, numRuns: 500 },
    );
  });

  it('unbounded and full-width boxes span every meridian', () => {
    const c = Math.cos(10 * RAD);
    const inf = Number.POSITIVE_INFINITY;
    const boxes: [number, number, number, number][] = [
      [-inf, -inf, inf, inf],
      [-inf, 20, inf, 30],
      [0, 20, 360, 30],
    ];
    for (const box of boxes) {
      const a = Math.sin((box[1] === -inf ? 0 : 10) * (Math.PI / 360));
      expect(havBoxBound(77, 10, c, ...box)).toBeCloseTo(a * a, 12);
      expect(havBoxNearest(77, 10, c, ...box)).toBeCloseTo(a * a, 12);
    }
  });
});
