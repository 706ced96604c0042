import { createRequire } from 'node:module';
import { feature as topoFeature } from 'topojson-client';
import { describe, expect, it } from 'vitest';
import {
  type Feature,
  type FeatureCollection,
  GeoIndex,
  type Geometry,
} from '../../src/geo/index.js';
import { closestPointOnSegment, InvalidTypeError } from '../../src/index.js';
import { mulberry32, orientSign, type Rng, randFloat, randInt } from '../oracle.js';

type Ring = number[][];

// The polygons of a geometry (the brute force's view), each a list of rings.
function polygonsOf(g: Geometry | null): Ring[][] {
  if (g === null) return [];
  if (g.type === 'Polygon') return [g.coordinates];
  if (g.type === 'MultiPolygon') return g.coordinates;
  if (g.type === 'GeometryCollection') return g.geometries.flatMap(polygonsOf);
  return [];
}

// Brute-force ray crossing with exact (BigInt) orientation: 1 inside or on the boundary.
function bruteInPolygon(rings: Ring[], x: number, y: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0; i + 1 < ring.length; i++) {
      const [ax, ay] = ring[i] as [number, number];
      const [bx, by] = ring[i + 1] as [number, number];
      const o = orientSign(ax, ay, bx, by, x, y);
      const inBox =
        x >= Math.min(ax, bx) &&
        x <= Math.max(ax, bx) &&
        y >= Math.min(ay, by) &&
        y <= Math.max(ay, by);
      if (o === 0 && inBox) return true;
      if (ay > y !== by > y && (by > ay ? o > 0 : o < 0)) inside = !inside;
    }
  }
  return inside;
}

// Whether (x, y) is on the edge a-b, which does not cross the antimeridian (exactly).
function onEdge(a: number[], b: number[], x: number, y: number): boolean {
  const [ax, ay, bx, by] = [a[0]!, a[1]!, b[0]!, b[1]!];
  if (Math.abs(bx - ax) > 180) return false;
  const inBox =
    x >= Math.min(ax, bx) &&
    x <= Math.max(ax, bx) &&
    y >= Math.min(ay, by) &&
    y <= Math.max(ay, by);
  return inBox && orientSign(ax, ay, bx, by, x, y) === 0;
}

// How many edges of a ring are longer than 180 degrees of longitude (cross the antimeridian).
const jumpsOf = (ring: Ring): number =>
  ring.filter((p, i) => i > 0 && Math.abs(p[0]! - ring[i - 1]![0]!) > 180).length;

// The brute force of a polygon as a flat map reads it (independent of antimeridian.ts): a ring
// that crosses the antimeridian an odd number of times encloses the pole on the side of its
// crossing, and holds a point when the meridian from the point to that pole crosses its other
// edges an even number of times; rings that cross it an even number of times are unwrapped
// (longitudes continuous from the first ring's first) and hold a point that they hold at x,
// x + 360 or x - 360. Rings combine even-odd.
function bruteOnMap(rings: Ring[], x: number, y: number): boolean {
  const jumps = rings.map(jumpsOf);
  if (jumps.every((j) => j === 0)) return bruteInPolygon(rings, x, y);
  if (jumps.some((j) => j % 2 === 1)) {
    let inside = false;
    rings.forEach((ring, r) => {
      if (jumps[r]! % 2 === 0) {
        if (bruteInPolygon([ring], x, y)) inside = !inside;
        return;
      }
      // (On an edge: inside, as bruteInPolygon says for its rings.)
      const edges = ring.filter((p, i) => i > 0 && Math.abs(p[0]! - ring[i - 1]![0]!) <= 180);
      if (edges.length > 0 && ring.some((p, i) => i > 0 && onEdge(ring[i - 1]!, p, x, y))) {
        inside = true;
        return;
      }
      const jump = ring.findIndex((p, i) => i > 0 && Math.abs(p[0]! - ring[i - 1]![0]!) > 180);
      const pole = ring[jump]![1]! < 0 ? -90 : 90;
      let crossings = 0;
      for (let i = 0; i + 1 < ring.length; i++) {
        const [ax, ay] = ring[i] as [number, number];
        const [bx, by] = ring[i + 1] as [number, number];
        if (Math.abs(bx - ax) > 180 || ax > x === bx > x) continue;
        // The edge passes between the point and the pole: the point is on its far side from
        // the pole (exact orientation; above the edge for the South Pole).
        const above = (bx > ax ? 1 : -1) * orientSign(ax, ay, bx, by, x, y) > 0;
        if (above === pole < 0) crossings++;
      }
      if (crossings % 2 === 0) inside = !inside;
    });
    return inside;
  }
  let last = rings[0]![0]![0]!;
  const unwrapped = rings.map((ring) =>
    ring.map(([px, py]) => {
      last = px! + 360 * Math.round((last - px!) / 360);
      return [last, py!];
    }),
  );
  return [x, x + 360, x - 360].some((u) => bruteInPolygon(unwrapped, u, y));
}

function bruteContaining(features: readonly Feature[], x: number, y: number): number[] {
  const out: number[] = [];
  features.forEach((f, i) => {
    if (polygonsOf(f.geometry).some((rings) => bruteOnMap(rings, x, y))) out.push(i);
  });
  return out;
}

const require = createRequire(import.meta.url);
const topo = require('world-atlas/countries-110m.json') as { objects: { countries: unknown } };
const countries = topoFeature(topo, topo.objects.countries) as FeatureCollection;

describe('GeoIndex.containing on the world-atlas countries', () => {
  const index = GeoIndex.from(countries);
  const feats = countries.features;
  const ids = (x: number, y: number) => index.containing(x, y).map((f) => feats.indexOf(f));

  it('agrees with a brute-force ray-crossing test over every polygon at random points', () => {
    const rng = mulberry32(21);
    for (let i = 0; i < 3000; i++) {
      const x = randFloat(rng, -180, 180);
      const y = randFloat(rng, -90, 90);
      expect(ids(x, y)).toEqual(bruteContaining(feats, x, y));
    }
  });

  it('counts vertices and shared borders as inside every country that has them', () => {
    const rng = mulberry32(22);
    const vertices: [number, number][] = [];
    for (const f of feats)
      for (const rings of polygonsOf(f.geometry))
        for (const r of rings) for (const p of r) vertices.push(p as [number, number]);
    for (let i = 0; i < 1500; i++) {
      const [x, y] = vertices[randInt(rng, 0, vertices.length - 1)]!;
      const got = ids(x, y);
      expect(got.length).toBeGreaterThan(0);
      expect(got, `vertex ${x}, ${y}`).toEqual(bruteContaining(feats, x, y));
    }
    // Edge midpoints (on the edge or a rounding away from it: the exact test decides).
    for (let i = 0; i < 1500; i++) {
      const j = randInt(rng, 0, vertices.length - 2);
      const [ax, ay] = vertices[j]!;
      const [bx, by] = vertices[j + 1]!;
      const x = (ax + bx) / 2;
      const y = (ay + by) / 2;
      expect(ids(x, y), `midpoint ${x}, ${y}`).toEqual(bruteContaining(feats, x, y));
    }
  });

  it('a query that meets many features returns them each once, in input order', () => {
    const rng = mulberry32(23);
    const points = Array.from({ length: 5000 }, () => ({
      type: 'Point' as const,
      coordinates: [randFloat(rng, -180, 180), randFloat(rng, -90, 90)],
    }));
    const many = GeoIndex.from(points);
    const everything = many.intersectingBox(-180, -90, 180, 90);
    expect(everything).toEqual(many.features);
    const west = many.intersectingBox(-180, -90, 0, 90);
    expect(west).toEqual(
      many.features.filter((f) => (f.geometry as { coordinates: number[] }).coordinates[0]! <= 0),
    );
  });

  it("a point inside a hole (Lesotho in South Africa) is in the hole's country only", () => {
    const southAfrica = feats.findIndex((f) => f.properties?.name === 'South Africa');
    const lesotho = feats.findIndex((f) => f.properties?.name === 'Lesotho');
    expect(ids(28.2, -29.6)).toEqual([lesotho]);
    expect(bruteContaining(feats, 28.2, -29.6)).toEqual([lesotho]);
    expect(ids(25, -30)).toEqual([southAfrica]);
  });
});

// Random features on a small integer grid (exact float arithmetic), for the other queries.
function randomGeometry(rng: Rng): Geometry {
  const pt = () => [randInt(rng, 0, 40), randInt(rng, 0, 40)];
  const square = (x: number, y: number, s: number) => [
    [x, y],
    [x + s, y],
    [x + s, y + s],
    [x, y + s],
    [x, y],
  ];
  switch (randInt(rng, 0, 6)) {
    case 6: {
      // A star of many edges (banded), with a square hole at its centre.
      const cx = randInt(rng, 10, 30);
      const cy = randInt(rng, 10, 30);
      const ring: number[][] = [];
      for (let i = 0; i < 48; i++) {
        const a = (i / 48) * 2 * Math.PI;
        const r = i % 2 === 0 ? 10 : randInt(rng, 3, 6);
        ring.push([cx + Math.round(r * Math.cos(a)), cy + Math.round(r * Math.sin(a))]);
      }
      ring.push(ring[0]!);
      return { type: 'Polygon', coordinates: [ring, square(cx - 1, cy - 1, 2).reverse()] };
    }
    case 0:
      return { type: 'Point', coordinates: pt() };
    case 1:
      return { type: 'MultiPoint', coordinates: [pt(), pt(), pt()] };
    case 2:
      return { type: 'LineString', coordinates: [pt(), pt(), pt()] };
    case 3:
      return {
        type: 'MultiLineString',
        coordinates: [
          [pt(), pt()],
          [pt(), pt(), pt()],
        ],
      };
    case 4: {
      const x = randInt(rng, 0, 30);
      const y = randInt(rng, 0, 30);
      const s = randInt(rng, 4, 10);
      // A square with a square hole.
      return {
        type: 'Polygon',
        coordinates: [square(x, y, s), square(x + 1, y + 1, s - 2).reverse()],
      };
    }
    default:
      return {
        type: 'GeometryCollection',
        geometries: [
          {
            type: 'MultiPolygon',
            coordinates: [[[pt(), pt(), pt(), [0, 0]].map((p, i, a) => (i === 3 ? a[0]! : p))]],
          },
          { type: 'Point', coordinates: pt() },
        ],
      };
  }
}

// Every segment (a point is a segment of length zero) of a geometry.
function segmentsOf(g: Geometry | null): number[][] {
  if (g === null) return [];
  const path = (ps: number[][]) =>
    ps.length === 1 ? [[...ps[0]!, ...ps[0]!]] : ps.slice(1).map((p, i) => [...ps[i]!, ...p]);
  switch (g.type) {
    case 'Point':
      return path([g.coordinates]);
    case 'MultiPoint':
      return g.coordinates.flatMap((p) => path([p]));
    case 'LineString':
      return path(g.coordinates);
    case 'MultiLineString':
    case 'Polygon':
      return g.coordinates.flatMap(path);
    case 'MultiPolygon':
      return g.coordinates.flatMap((poly) => poly.flatMap(path));
    default:
      return g.geometries.flatMap(segmentsOf);
  }
}

const cross = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) =>
  Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
const onSeg = (s: number[], x: number, y: number) =>
  cross(s[0]!, s[1]!, s[2]!, s[3]!, x, y) === 0 &&
  x >= Math.min(s[0]!, s[2]!) &&
  x <= Math.max(s[0]!, s[2]!) &&
  y >= Math.min(s[1]!, s[3]!) &&
  y <= Math.max(s[1]!, s[3]!);
function segsMeet(s: number[], t: number[]): boolean {
  const [ax, ay, bx, by] = s as [number, number, number, number];
  const [cx, cy, dx, dy] = t as [number, number, number, number];
  const d1 = cross(ax, ay, bx, by, cx, cy);
  const d2 = cross(ax, ay, bx, by, dx, dy);
  const d3 = cross(cx, cy, dx, dy, ax, ay);
  const d4 = cross(cx, cy, dx, dy, bx, by);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return onSeg(s, cx, cy) || onSeg(s, dx, dy) || onSeg(t, ax, ay) || onSeg(t, bx, by);
}
// Squared distance from (x, y) to the segment, as a fraction compared with r² exactly.
function segWithin(s: number[], x: number, y: number, r: number): boolean {
  const [ax, ay, bx, by] = s as [number, number, number, number];
  const ex = bx - ax;
  const ey = by - ay;
  const t = (x - ax) * ex + (y - ay) * ey;
  const len2 = ex * ex + ey * ey;
  if (t <= 0 || len2 === 0) return (x - ax) ** 2 + (y - ay) ** 2 <= r * r;
  if (t >= len2) return (x - bx) ** 2 + (y - by) ** 2 <= r * r;
  const c = ex * (y - ay) - ey * (x - ax);
  return c * c <= r * r * len2;
}
// The distance kernel of src/geometry (tested on its own), so that the brute force rounds alike.
const CLOSEST = new Float64Array(2);
const segDistance = (s: number[], x: number, y: number) =>
  closestPointOnSegment(s[0]!, s[1]!, s[2]!, s[3]!, x, y, CLOSEST);
const inAnyPolygon = (g: Geometry | null, x: number, y: number) =>
  polygonsOf(g).some((rings) => bruteInPolygon(rings, x, y));

describe('GeoIndex queries against brute force on random features', () => {
  const rng = mulberry32(31);
  const features: Feature[] = Array.from({ length: 300 }, (_, i) => ({
    type: 'Feature',
    geometry: randomGeometry(rng),
    properties: { i },
  }));
  features.push({ type: 'Feature', geometry: null, properties: { i: 300 } });
  features.push({ ...features[0]! }); // the same geometry twice
  const index = GeoIndex.from(features);
  const ids = (fs: Feature[]) => fs.map((f) => features.indexOf(f));
  const idsAt = (fs: Feature[]) => fs.map((f) => index.features.indexOf(f));
  const brute = (test: (f: Feature) => boolean) => features.flatMap((f, i) => (test(f) ? [i] : []));

  it('intersectingBox, intersectingCircle and intersectingSegment list the features met, once, in input order', () => {
    for (let t = 0; t < 400; t++) {
      const x = randInt(rng, -2, 42);
      const y = randInt(rng, -2, 42);
      const w = randInt(rng, 0, 8);
      const h = randInt(rng, 0, 8);
      const corners = [
        [x, y, x + w, y],
        [x + w, y, x + w, y + h],
        [x + w, y + h, x, y + h],
        [x, y + h, x, y],
      ];
      const inBox = (s: number[]) =>
        (s[0]! >= x && s[0]! <= x + w && s[1]! >= y && s[1]! <= y + h) ||
        corners.some((c) => segsMeet(c, s));
      expect(idsAt(index.intersectingBox(x, y, x + w, y + h))).toEqual(
        brute((f) => segmentsOf(f.geometry).some(inBox) || inAnyPolygon(f.geometry, x, y)),
      );
      const r = randInt(rng, 0, 5);
      expect(idsAt(index.intersectingCircle(x, y, r))).toEqual(
        brute(
          (f) =>
            segmentsOf(f.geometry).some((s) => segWithin(s, x, y, r)) ||
            inAnyPolygon(f.geometry, x, y),
        ),
      );
      const seg = [x, y, x + w - 4, y + h - 4];
      expect(idsAt(index.intersectingSegment(x, y, x + w - 4, y + h - 4))).toEqual(
        brute(
          (f) =>
            segmentsOf(f.geometry).some((s) => segsMeet(s, seg)) ||
            inAnyPolygon(f.geometry, x, y) ||
            inAnyPolygon(f.geometry, x + w - 4, y + h - 4),
        ),
      );
      expect(idsAt(index.containing(x, y))).toEqual(
        brute(
          (f) =>
            segmentsOf(f.geometry).some((s) => onSeg(s, x, y)) || inAnyPolygon(f.geometry, x, y),
        ),
      );
    }
    expect(ids([features[0]!])).toEqual([0]);
  });

  // Brute force: the features within max of (x, y) that `keep` keeps, nearest first, ties in
  // input order, the first k (a feature without geometry has no distance: it is never near).
  const bruteNearest = (
    x: number,
    y: number,
    k: number,
    max: number,
    keep: (i: number) => boolean = () => true,
  ) =>
    features
      .map((f, i) => ({
        i,
        d: inAnyPolygon(f.geometry, x, y)
          ? 0
          : Math.min(
              Number.POSITIVE_INFINITY,
              ...segmentsOf(f.geometry).map((s) => segDistance(s, x, y)),
            ),
      }))
      .filter((e) => keep(e.i) && e.d <= max && e.d < Number.POSITIVE_INFINITY)
      .sort((a, b) => a.d - b.d || a.i - b.i)
      .slice(0, k);

  it('nearest(lon, lat, k, maxDistance) ranks features by distance to their geometry, ties in input order', () => {
    for (let t = 0; t < 200; t++) {
      const x = randFloat(rng, -5, 45);
      const y = randFloat(rng, -5, 45);
      // (k = Infinity: every feature within max.)
      const k = rng() < 0.15 ? Number.POSITIVE_INFINITY : randInt(rng, 0, 12);
      const max = rng() < 0.5 ? Number.POSITIVE_INFINITY : randFloat(rng, 0, 6);
      const want = bruteNearest(x, y, k, max);
      const got = index.nearest(x, y, k, max);
      expect(got.map((h) => h.distance)).toEqual(want.map((e) => e.d));
      expect(got.map((h) => h.index)).toEqual(want.map((e) => e.i));
      for (const h of got) expect(h.feature).toBe(index.features[h.index]);
    }
  });

  it('nearest and geoNearest take a null or undefined maxDistance as Infinity; any other non-number throws a TypeError naming it', () => {
    for (let t = 0; t < 20; t++) {
      const x = randFloat(rng, -5, 45);
      const y = randFloat(rng, -5, 45);
      const k = randInt(rng, 0, 12);
      for (const d of [null, undefined]) {
        const want = bruteNearest(x, y, k, Number.POSITIVE_INFINITY);
        const got = index.nearest(x, y, k, d);
        expect(got.map((h) => h.index)).toEqual(want.map((e) => e.i));
        expect(got.map((h) => h.distance)).toEqual(want.map((e) => e.d));
        expect(index.geoNearest(x, y, k, d)).toEqual(index.geoNearest(x, y, k));
      }
    }
    expect(() => index.nearest(0, 0, 1, '1' as never)).toThrow(InvalidTypeError);
    expect(() => index.geoNearest(0, 0, 1, '1' as never)).toThrow(/maxDistance must be a number/);
  });

  it('nearest(lon, lat, k, maxDistance, filter) ranks only the features the filter keeps, asking once per feature', () => {
    for (let t = 0; t < 200; t++) {
      const x = randFloat(rng, -5, 45);
      const y = randFloat(rng, -5, 45);
      const k = rng() < 0.15 ? Number.POSITIVE_INFINITY : randInt(rng, 0, 12);
      const max = rng() < 0.5 ? Number.POSITIVE_INFINITY : randFloat(rng, 0, 6);
      const mod = randInt(rng, 2, 4);
      const want = bruteNearest(x, y, k, max, (i) => i % mod !== 0);
      const asked: number[] = [];
      const got = index.nearest(x, y, k, max, (feature, i) => {
        expect(feature).toBe(index.features[i]);
        asked.push(i);
        return i % mod !== 0;
      });
      expect(got.map((h) => h.index)).toEqual(want.map((e) => e.i));
      expect(got.map((h) => h.distance)).toEqual(want.map((e) => e.d));
      expect(new Set(asked).size).toBe(asked.length);
    }
    expect(() => index.nearest(0, 0, 1, 1, 'yes' as never)).toThrow(TypeError);
  });

  it('a box with west > east crosses the antimeridian', () => {
    const across = GeoIndex.from([
      { type: 'Point', coordinates: [179.5, 0] },
      { type: 'Point', coordinates: [-179.5, 0] },
      { type: 'Point', coordinates: [0, 0] },
      {
        type: 'LineString',
        coordinates: [
          [170, 5],
          [180, 5],
        ],
      },
    ]);
    expect(
      across.intersectingBox(179, -10, -179, 10).map((f) => across.features.indexOf(f)),
    ).toEqual([0, 1, 3]);
  });

  it('empty input builds an empty index; geometries alone become features with null properties', () => {
    const empty = GeoIndex.from({ type: 'FeatureCollection', features: [] });
    expect(empty.size).toBe(0);
    expect(empty.containing(0, 0)).toEqual([]);
    expect(empty.nearest(0, 0, 3)).toEqual([]);
    const one = GeoIndex.from([{ type: 'Point', coordinates: [1, 2] }]);
    expect(one.features[0]).toEqual({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [1, 2] },
      properties: null,
    });
    expect(one.containing(1, 2)).toEqual([one.features[0]]);
  });
});

describe('GeoIndex.from refuses bad GeoJSON, naming where and what', () => {
  const ring = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 0],
  ];
  const fc = (geometry: unknown) =>
    ({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [0, 0] }, properties: null },
        { type: 'Feature', geometry, properties: null },
      ],
    }) as never;
  const cases: [string, unknown, RegExp][] = [
    ['input', 42, /input must be a FeatureCollection/],
    ['features', { type: 'FeatureCollection', features: {} }, /features must be an array/],
    [
      'feature type',
      { type: 'FeatureCollection', features: [{ type: 'Thing' }] },
      /features\[0\] must be a GeoJSON Feature/,
    ],
    [
      'missing geometry',
      { type: 'FeatureCollection', features: [{ type: 'Feature', properties: null }] },
      /features\[0\]\.geometry must be a geometry/,
    ],
    [
      'geometry type',
      fc({ type: 'Circle', coordinates: [0, 0] }),
      /features\[1\]\.geometry\.type must be one of .*got "Circle"/,
    ],
    [
      'missing coordinates',
      fc({ type: 'Point' }),
      /features\[1\]\.geometry\.coordinates must be a position.*got undefined/,
    ],
    [
      'non-numeric',
      fc({ type: 'Point', coordinates: [0, '1'] }),
      /features\[1\]\.geometry\.coordinates\[1\] must be a finite number, got "1"/,
    ],
    [
      'NaN',
      fc({
        type: 'LineString',
        coordinates: [
          [0, 0],
          [Number.NaN, 1],
        ],
      }),
      /features\[1\]\.geometry\.coordinates\[1\]\[0\] must be a finite number, got NaN/,
    ],
    [
      'Infinity',
      fc({ type: 'MultiPoint', coordinates: [[0, Number.POSITIVE_INFINITY]] }),
      /coordinates\[0\]\[1\] must be a finite number, got Infinity/,
    ],
    ['short position', fc({ type: 'Point', coordinates: [0] }), /coordinates must be a position/],
    [
      'short line',
      fc({ type: 'LineString', coordinates: [[0, 0]] }),
      /coordinates must be a line: an array of 2 or more/,
    ],
    [
      'unclosed ring',
      fc({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ],
      }),
      /coordinates\[0\] must be a closed linear ring.*first \[0, 0\] and last \[0, 1\]/,
    ],
    [
      'short ring',
      fc({
        type: 'Polygon',
        coordinates: [
          ring,
          [
            [0, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      }),
      /coordinates\[1\] must be a linear ring: an array of 4 or more positions/,
    ],
    [
      'deep position',
      fc({ type: 'MultiPolygon', coordinates: [[ring], [ring, [[0, 0], [1, 0], null, [0, 0]]]] }),
      /coordinates\[1\]\[1\]\[2\] must be a position/,
    ],
    [
      'collection member',
      fc({
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [0, 0] },
          { type: 'Polygon', coordinates: 'x' },
        ],
      }),
      /geometries\[1\]\.coordinates must be a polygon/,
    ],
    [
      'array of geometries',
      [
        { type: 'Point', coordinates: [0, 0] },
        { type: 'Point', coordinates: [0, null] },
      ],
      /geometries\[1\]\.coordinates\[1\] must be a finite number, got null/,
    ],
  ];
  for (const [name, input, message] of cases) {
    it(`${name}: throws ${message.source.slice(0, 40)}…`, () => {
      expect(() => GeoIndex.from(input as never)).toThrow(message);
    });
  }

  it('an unknown option throws an UnknownOptionError naming GeoIndex.from and its one option', () => {
    const points = [{ type: 'Point', coordinates: [1, 2] }] as const;
    for (const options of [
      { nodesize: 4 },
      { shared: true },
      { bounds: { x: 0, y: 0, width: 1, height: 1 } },
    ]) {
      expect(() => GeoIndex.from(points as never, options as never)).toThrow(
        /unknown option ".*" for GeoIndex.from; known options: nodeSize/,
      );
    }
    expect(GeoIndex.from(points as never, { nodeSize: 4 }).size).toBe(1);
  });

  it('non-finite numbers throw a RangeError, wrong types a TypeError', () => {
    expect(() => GeoIndex.from(fc({ type: 'Point', coordinates: [0, Number.NaN] }))).toThrow(
      RangeError,
    );
    expect(() => GeoIndex.from(fc({ type: 'Point', coordinates: [0, '1'] }))).toThrow(TypeError);
  });
});

describe('GeoIndex.geoNearest and geoWithin', () => {
  const rng = mulberry32(61);
  const geometries: Geometry[] = [];
  for (let i = 0; i < 400; i++) {
    const pt = () => [randFloat(rng, -180, 180), randFloat(rng, -89, 89)];
    geometries.push(
      i % 4 === 0
        ? { type: 'MultiPoint', coordinates: [pt(), pt()] }
        : { type: 'Point', coordinates: pt() },
    );
  }
  const index = GeoIndex.from(geometries);
  // Brute force: the haversine distance to each feature's nearest point.
  const hav = (lon: number, lat: number, p: number[]) => {
    const a = Math.sin((p[1]! - lat) * (Math.PI / 360));
    const b = Math.sin((p[0]! - lon) * (Math.PI / 360));
    const h = a * a + Math.cos(lat * (Math.PI / 180)) * Math.cos(p[1]! * (Math.PI / 180)) * b * b;
    return 2 * 6371.0088 * Math.asin(Math.sqrt(Math.min(h, 1)));
  };
  const pointsOf = (g: Geometry) =>
    g.type === 'Point' ? [g.coordinates] : g.type === 'MultiPoint' ? g.coordinates : [];

  it('ranks point features by great-circle distance to their nearest point, in km', () => {
    for (let t = 0; t < 100; t++) {
      const lon = randFloat(rng, -180, 180);
      const lat = randFloat(rng, -90, 90);
      const k = rng() < 0.15 ? Number.POSITIVE_INFINITY : randInt(rng, 0, 20);
      const max = rng() < 0.5 ? Number.POSITIVE_INFINITY : randFloat(rng, 0, 3000);
      const all = geometries
        .map((g, i) => ({ i, d: Math.min(...pointsOf(g).map((p) => hav(lon, lat, p))) }))
        .sort((a, b) => a.d - b.d || a.i - b.i);
      const want = all.filter((e) => e.d <= max);
      const got = index.geoNearest(lon, lat, k, max);
      expect(got.map((h) => h.index)).toEqual(want.slice(0, k).map((e) => e.i));
      expect(got.map((h) => h.distance)).toEqual(want.slice(0, k).map((e) => e.d));
      const within = randFloat(rng, 0, 2000);
      expect(index.geoWithin(lon, lat, within).map((h) => h.index)).toEqual(
        all.filter((e) => e.d <= within).map((e) => e.i),
      );
      // With a filter: the same ranking over the features it keeps, each asked once.
      const asked: number[] = [];
      const keep = (_: unknown, i: number) => {
        asked.push(i);
        return i % 3 !== 0;
      };
      const kept = want.filter((e) => e.i % 3 !== 0).slice(0, k);
      const filtered = index.geoNearest(lon, lat, k, max, keep);
      expect(filtered.map((h) => h.index)).toEqual(kept.map((e) => e.i));
      expect(filtered.map((h) => h.distance)).toEqual(kept.map((e) => e.d));
      expect(new Set(asked).size).toBe(asked.length);
      // k = 0 asks nothing.
      expect(index.geoNearest(lon, lat, 0, max, () => expect.unreachable())).toEqual([]);
      expect(index.nearest(lon, lat, 0, max, () => expect.unreachable())).toEqual([]);
      // A number in the filter's place is the radius, as before.
      expect(index.geoNearest(lon, lat, 3, Number.POSITIVE_INFINITY, 1)).toEqual(
        index.geoNearest(lon, lat, 3, Number.POSITIVE_INFINITY, undefined, 1),
      );
    }
  });
});
