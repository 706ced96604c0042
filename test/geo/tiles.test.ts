import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  itemsByTile,
  lonLatToQuadkey,
  lonLatToTile,
  MAX_MERCATOR_LATITUDE,
  quadkeyToTile,
  tileBounds,
  tileRange,
  tileToQuadkey,
} from '../../src/geo/index.js';
import { GridLooseQuadtree, PointQuadtree, Quadtree, StaticQuadtree } from '../../src/index.js';
import { mulberry32, randFloat, randInt } from '../oracle.js';

// Whether the half-open tile [west, east) × (south, north] holds the point, edge tiles taking in
// everything beyond them.
function holds(x: number, y: number, z: number, lon: number, lat: number): boolean {
  const b = tileBounds(x, y, z);
  const last = 2 ** z - 1;
  const inX = (x === 0 || lon >= b.west) && (x === last || lon < b.east);
  const inY = (y === last || lat > b.south) && (y === 0 || lat <= b.north);
  return inX && inY;
}

// Points anywhere, on tile edges and corners, and past the Mercator and ±180 limits.
function points(seed: number, n: number, z: number): [number, number][] {
  const rng = mulberry32(seed);
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const kind = randInt(rng, 0, 3);
    if (kind === 0) out.push([randFloat(rng, -180, 180), randFloat(rng, -85, 85)]);
    else if (kind === 1) out.push([randFloat(rng, -200, 200), randFloat(rng, -90, 90)]);
    else {
      const t = 2 ** z;
      const b = tileBounds(randInt(rng, 0, t - 1), randInt(rng, 0, t - 1), z);
      out.push([
        kind === 2 ? b.west : randFloat(rng, b.west, b.east),
        rng() < 0.5 ? b.north : b.south,
      ]);
    }
  }
  return out;
}

describe('tiles', () => {
  it('tileToQuadkey follows the Bing Maps Tile System (tile 3, 5 at zoom 3 is "213")', () => {
    expect(tileToQuadkey(3, 5, 3)).toBe('213');
    expect(quadkeyToTile('213')).toEqual({ x: 3, y: 5, z: 3 });
    expect(tileToQuadkey(0, 0, 0)).toBe('');
  });

  it('quadkeyToTile inverts tileToQuadkey at every zoom', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (z, u, v) => {
          const x = Math.floor(u * 2 ** z);
          const y = Math.floor(v * 2 ** z);
          expect(quadkeyToTile(tileToQuadkey(x, y, z))).toEqual({ x, y, z });
        },
      ),
      { seed: 4, numRuns: 300 },
    );
  });

  it('lonLatToTile gives the one tile that holds the point, on edges too', () => {
    for (const z of [0, 1, 3, 8, 17, 30]) {
      for (const [lon, lat] of points(z + 1, 400, z)) {
        const t = lonLatToTile(lon, lat, z);
        expect(holds(t.x, t.y, z, lon, lat)).toBe(true);
        expect(lonLatToQuadkey(lon, lat, z)).toBe(tileToQuadkey(t.x, t.y, z));
        // The same point one level up lies in the parent tile.
        if (z > 0) {
          const p = lonLatToTile(lon, lat, z - 1);
          expect([p.x, p.y]).toEqual([t.x >> 1, t.y >> 1]);
        }
      }
    }
  });

  it('tileBounds are the Web Mercator squares of PostGIS ST_TileEnvelope', () => {
    // Spherical Mercator (EPSG:3857): y = R ln(tan(π/4 + φ/2)), the square ±π R wide.
    const R = 6378137;
    const half = Math.PI * R;
    const rng = mulberry32(2);
    for (let i = 0; i < 200; i++) {
      const z = randInt(rng, 0, 20);
      const x = randInt(rng, 0, 2 ** z - 1);
      const y = randInt(rng, 0, 2 ** z - 1);
      const b = tileBounds(x, y, z);
      const size = (2 * half) / 2 ** z;
      const merc = (lat: number) => R * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
      expect((b.west * Math.PI * R) / 180).toBeCloseTo(-half + x * size, 4);
      expect((b.east * Math.PI * R) / 180).toBeCloseTo(-half + (x + 1) * size, 4);
      expect(merc(b.north)).toBeCloseTo(half - y * size, 3);
      expect(merc(b.south)).toBeCloseTo(half - (y + 1) * size, 3);
    }
    expect(tileBounds(0, 0, 0).north).toBe(MAX_MERCATOR_LATITUDE);
  });

  it('tileRange(west, south, east, north, z) spans the tiles of its corners, wrapping when west > east', () => {
    const rng = mulberry32(9);
    for (let i = 0; i < 300; i++) {
      const z = randInt(rng, 0, 12);
      const west = randFloat(rng, -180, 180);
      const east = randFloat(rng, -180, 180);
      const south = randFloat(rng, -89, 89);
      const north = randFloat(rng, south, 89);
      const r = tileRange(west, south, east, north, z);
      const nw = lonLatToTile(west, north, z);
      const se = lonLatToTile(east, south, z);
      expect(r).toEqual({ minX: nw.x, minY: nw.y, maxX: se.x, maxY: se.y, z });
      expect(r.minY).toBeLessThanOrEqual(r.maxY);
      if (west <= east) expect(r.minX).toBeLessThanOrEqual(r.maxX);
    }
  });

  it('bad tiles, zooms and quadkeys throw naming the argument', () => {
    expect(() => lonLatToTile(0, 0, 31)).toThrow(/z/);
    expect(() => lonLatToTile(Number.NaN, 0, 1)).toThrow(/lon/);
    expect(() => tileBounds(2, 0, 1)).toThrow(/x/);
    expect(() => tileToQuadkey(0, -1, 1)).toThrow(/y/);
    expect(() => quadkeyToTile('0124')).toThrow(/quadkey/);
    expect(() => tileRange(0, 1, 1, 0, 3)).toThrow(/north/);
  });
});

describe('itemsByTile', () => {
  it('groups every item once, under the quadkey of its point, in quadkey order', () => {
    for (const z of [0, 2, 5, 9]) {
      const pts = points(50 + z, 1500, z);
      // Repeated points too.
      for (let i = 0; i < 50; i++) pts.push(pts[i]!);
      const flat = pts.flat();
      const indexes = [
        StaticQuadtree.fromPoints(flat),
        (() => {
          const pq = new PointQuadtree<number>({
            bounds: { x: -180, y: -90, width: 360, height: 180 },
            toPoint: (i) => ({ x: flat[2 * i]!, y: flat[2 * i + 1]! }),
          });
          pq.load(pts.map((_, i) => i));
          return pq;
        })(),
      ];
      const want = new Map<string, number[]>();
      pts.forEach(([lon, lat], i) => {
        const key = lonLatToQuadkey(lon, lat, z);
        want.set(key, [...(want.get(key) ?? []), i]);
      });
      const wantKeys = [...want.keys()].sort();
      for (const index of indexes) {
        const got = itemsByTile(index, z);
        expect([...got.keys()]).toEqual(wantKeys);
        for (const [key, items] of got)
          expect([...items].sort((a, b) => a - b)).toEqual(want.get(key));
      }
    }
  });

  it('box items go to the tile of their south-east corner; an empty index has no tiles', () => {
    const rng = mulberry32(77);
    const boxes: number[] = [];
    for (let i = 0; i < 500; i++) {
      const x = randFloat(rng, -180, 170);
      const y = randFloat(rng, -80, 70);
      boxes.push(x, y, x + randFloat(rng, 0, 10), y + randFloat(rng, 0, 10));
    }
    const index = StaticQuadtree.fromBoxes(boxes);
    const got = itemsByTile(index, 4);
    let total = 0;
    for (const [key, items] of got) {
      total += items.length;
      for (const i of items)
        expect(lonLatToQuadkey(boxes[4 * i + 2]!, boxes[4 * i + 1]!, 4)).toBe(key);
    }
    expect(total).toBe(500);
    expect(itemsByTile(StaticQuadtree.fromPoints([]), 3).size).toBe(0);
  });

  it('box items, tile edges and items beyond the map group as lonLatToQuadkey of their south-east corner, on every index', () => {
    // Coordinates on tile edges of zoom 3 (and beyond the map), so that corners fall on edges.
    const lon = fc.oneof(
      fc.integer({ min: -9, max: 9 }).map((k) => k * 45),
      fc.double({ min: -200, max: 200, noNaN: true }),
    );
    const lat = fc.oneof(
      fc.constantFrom(
        -90,
        -85.0511287798066,
        -40.97989806962013,
        0,
        40.97989806962013,
        85.0511287798066,
        90,
      ),
      fc.double({ min: -90, max: 90, noNaN: true }),
    );
    const box = fc.tuple(lon, lat, lon, lat).map(([a, b, c, d]) => ({
      x: Math.min(a, c),
      y: Math.min(b, d),
      width: Math.abs(c - a),
      height: Math.abs(d - b),
    }));
    fc.assert(
      fc.property(fc.array(box, { maxLength: 40 }), fc.integer({ min: 0, max: 6 }), (items, z) => {
        const want = new Map<string, Set<unknown>>();
        for (const b of items) {
          const key = lonLatToQuadkey(b.x + b.width, b.y, z);
          want.set(key, (want.get(key) ?? new Set()).add(b));
        }
        const world = { x: -180, y: -90, width: 360, height: 180 };
        for (const index of [
          StaticQuadtree.from(items),
          new Quadtree({ bounds: world }).load(items),
          new GridLooseQuadtree({ bounds: world }).load(items),
        ]) {
          const got = itemsByTile(index, z);
          expect([...got.keys()]).toEqual([...want.keys()].sort());
          for (const [key, group] of got) expect(new Set(group)).toEqual(want.get(key));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a box over many tiles costs the walk to its corner tile, not a walk over every tile it covers', () => {
    const tall = { x: 10, y: -60, width: 0, height: 60 };
    const wide = { x: -20, y: 10, width: 40, height: 40 };
    const world = { x: -180, y: -90, width: 360, height: 180 };
    for (const z of [12, 20]) {
      for (const index of [
        StaticQuadtree.from([tall, wide]),
        new Quadtree({ bounds: world }).load([tall, wide]),
      ]) {
        let calls = 0;
        const search = index.searchEdges.bind(index);
        index.searchEdges = (...args) => {
          calls++;
          return search(...args);
        };
        expect(itemsByTile(index, z)).toEqual(
          new Map([
            [lonLatToQuadkey(10, -60, z), [tall]],
            [lonLatToQuadkey(20, 10, z), [wide]],
          ]),
        );
        // Three searches for each tile on the way down to the two corner tiles and for the
        // other children met there, at most.
        expect(calls).toBeLessThanOrEqual(3 * 2 * 4 * (z + 1));
      }
    }
  });
});
