// Polygons across the antimeridian and round the poles, as GeoIndex reads them: against the
// intervals they cover on the map (a rectangle across 180 degrees is two), drawn at random.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Areal, cutAtAntimeridian, GeoIndex } from '../../src/geo/index.js';

// A closed ring through the corners of the rectangle [west, east] x [south, north], east given
// past 180 for one across the antimeridian and written back into [-180, 180].
function rectangle(west: number, south: number, east: number, north: number): number[][] {
  const wrap = (x: number) => (x > 180 ? x - 360 : x);
  return [
    [wrap(west), south],
    [wrap(east), south],
    [wrap(east), north],
    [wrap(west), north],
    [wrap(west), south],
  ];
}

describe('cutAtAntimeridian', () => {
  it('splits a rectangle across 180 degrees into its two sides, and leaves others as they are', () => {
    const across: Areal = { type: 'Polygon', coordinates: [rectangle(170, -10, 190, 10)] };
    const cut = cutAtAntimeridian(across);
    expect(cut.type).toBe('MultiPolygon');
    const boxes = (cut.coordinates as number[][][][]).map((rings) => {
      const xs = rings[0]!.map((p) => p[0]!);
      return [Math.min(...xs), Math.max(...xs)];
    });
    expect(boxes.sort((a, b) => a[0]! - b[0]!)).toEqual([
      [-180, -170],
      [170, 180],
    ]);
    const plain: Areal = { type: 'Polygon', coordinates: [rectangle(10, 0, 20, 5)] };
    expect(cutAtAntimeridian(plain)).toBe(plain);
  });

  it('closes a ring that crosses once round the pole on the side of its crossing', () => {
    // A ring round the South Pole at latitude -80 (world-atlas's Antarctica steps so, once).
    const ring = [-180, -90, 0, 90, 180].map((x) => [x, -80]);
    ring.push([-180, -80]);
    const index = GeoIndex.from([{ type: 'Polygon', coordinates: [ring] }]);
    for (const x of [-179.5, -45, 0, 120, 180]) {
      expect(index.containing(x, -85)).toHaveLength(1);
      expect(index.containing(x, -90)).toHaveLength(1);
      expect(index.containing(x, -75)).toHaveLength(0);
      expect(index.containing(x, 85)).toHaveLength(0);
    }
  });

  it('a hole across the antimeridian stays a hole, in a cap round the pole and in a band that does not cross', () => {
    // A cap north of 70 degrees (one crossing) and a band round the world at 0..10 (none), each
    // with a hole from 175E to 175W.
    const cap = [-180, -90, 0, 90, 180].map((x) => [x, 70]);
    cap.push([-180, 70]);
    const band = [
      ...[-180, -90, 0, 90, 180].map((x) => [x, 0]),
      ...[180, 90, 0, -90, -180].map((x) => [x, 10]),
      [-180, 0],
    ];
    for (const [outer, y] of [
      [cap, 77],
      [band, 3],
    ] as const) {
      const hole = rectangle(175, y - 1, 185, y + 1);
      const index = GeoIndex.from([{ type: 'Polygon', coordinates: [outer, hole] }]);
      expect(index.containing(0, y)).toHaveLength(1);
      expect(index.containing(178, y)).toHaveLength(0);
      expect(index.containing(-178, y)).toHaveLength(0);
      expect(index.containing(170, y)).toHaveLength(1);
    }
  });

  it('GeoIndex finds a point in a rectangle across the antimeridian on either side, and not in the band between', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 179 }),
        fc.integer({ min: 181, max: 260 }),
        fc.integer({ min: -80, max: 70 }),
        fc.integer({ min: 1, max: 10 }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: -90, max: 90, noNaN: true }),
        (west, east, south, height, x, y) => {
          const north = south + height;
          const index = GeoIndex.from([
            { type: 'Polygon', coordinates: [rectangle(west, south, east, north)] },
          ]);
          const inLon = x >= west || x <= east - 360;
          const want = inLon && y >= south && y <= north ? 1 : 0;
          expect(index.containing(x, y)).toHaveLength(want);
        },
      ),
      { numRuns: 500 },
    );
  });
});
