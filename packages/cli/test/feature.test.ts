// What every reader does with a parsed value (src/feature.ts): a feature or a bare geometry
// taken, anything else refused, and each position off the globe named, however the coordinates
// are nested.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asFeature } from '../src/feature.js';

// The first position off the globe in nested arrays, as a plain recursion finds it: an array
// whose first element is a number is a position; it is off the globe when both its first two
// elements are finite numbers and the longitude is outside [-180, 180] or the latitude outside
// [-90, 90].
function firstOff(c: unknown): [number, number] | null {
  if (!Array.isArray(c)) return null;
  if (typeof c[0] === 'number') {
    const [x, y] = c as [number, unknown];
    if (typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) return null;
    return Math.abs(x) > 180 || Math.abs(y) > 90 ? [x, y] : null;
  }
  for (const part of c) {
    const off = firstOff(part);
    if (off !== null) return off;
  }
  return null;
}

function firstOffIn(geometry: {
  coordinates?: unknown;
  geometries?: unknown[];
}): [number, number] | null {
  for (const part of geometry.geometries ?? []) {
    const off = firstOffIn(part as typeof geometry);
    if (off !== null) return off;
  }
  return firstOff(geometry.coordinates);
}

// What asFeature throws for a value, or null.
function thrown(value: unknown): string | null {
  try {
    asFeature(value, 'here');
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

// Positions mostly on the globe, some off it (by a little or a lot), some not numbers.
const coordinate = fc.oneof(
  { weight: 8, arbitrary: fc.double({ min: -90, max: 90, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(180, -180, 90.5, -181, 1e9, Number.NaN, Infinity) },
  { weight: 1, arbitrary: fc.constantFrom('1', null, true, [5], [] as unknown[]) },
);
const position = fc.array(coordinate, { minLength: 0, maxLength: 3 });
// Coordinates nested as a type says, or not: positions, lists of them, and stray values.
const { nested } = fc.letrec<{ nested: unknown }>((tie) => ({
  nested: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: position },
    { weight: 1, arbitrary: fc.constantFrom(null, 7, 'x') },
    { weight: 4, arbitrary: fc.array(tie('nested'), { maxLength: 5 }) },
  ),
}));
const type = fc.constantFrom(
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
  'Curve',
);
const geometry = fc.record({ type, coordinates: nested });

describe('asFeature(value, place)', () => {
  it('names the first position off the globe exactly where a plain recursion over the coordinates finds one, whatever the type and nesting', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          geometry,
          fc.record({ type: fc.constant('GeometryCollection'), geometries: fc.array(geometry) }),
        ),
        fc.boolean(),
        (g, wrapped) => {
          const value = wrapped ? { type: 'Feature', geometry: g, properties: {} } : g;
          const off = firstOffIn(g as Parameters<typeof firstOffIn>[0]);
          const message = thrown(value);
          if (off === null) expect(message).toBeNull();
          else
            expect(message).toBe(
              `here: position [${off[0]}, ${off[1]}] is off the globe (longitude in [-180, 180], latitude in [-90, 90])`,
            );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('finds a position off the globe in coordinates nested deeper or shallower than their type says', () => {
    const deep = {
      type: 'Polygon',
      coordinates: [
        [
          [[0, 0]],
          [
            [0, 1],
            [200, 1],
          ],
        ],
      ],
    };
    const shallow = {
      type: 'MultiPolygon',
      coordinates: [
        [0, 0],
        [1, 95],
      ],
    };
    const ring = { type: 'LineString', coordinates: [[0], [0], [[10, -91]]] };
    expect(thrown(deep)).toMatch(/^here: position \[200, 1\] is off the globe/);
    expect(thrown(shallow)).toMatch(/^here: position \[1, 95\] is off the globe/);
    expect(thrown(ring)).toMatch(/^here: position \[10, -91\] is off the globe/);
    expect(
      thrown({
        type: 'Polygon',
        coordinates: [
          [
            [180, 90],
            [-180, -90],
          ],
        ],
      }),
    ).toBeNull();
  });

  it('wraps a bare geometry in a feature and gives a feature its null properties', () => {
    const point = { type: 'Point', coordinates: [1, 2] };
    expect(asFeature(point, 'here')).toEqual({
      type: 'Feature',
      geometry: point,
      properties: null,
    });
    expect(asFeature({ type: 'Feature', geometry: point }, 'here').properties).toBeNull();
    expect(thrown([point])).toBe('here: expected a GeoJSON feature or geometry, got an array');
    expect(thrown({ type: 'FeatureCollection', features: [] })).toMatch(
      /got type "FeatureCollection"/,
    );
  });
});
