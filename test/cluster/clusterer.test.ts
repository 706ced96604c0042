// Clusterer against a brute-force greedy reference (seeded, fast-check) and against supercluster
// on the same input; the invariants of every zoom (each point in exactly one item, counts add up,
// the greedy rule's spacing), children and leaves, boxes across the antimeridian, tiles,
// map/reduce, degenerate data and bad input.
import fc from 'fast-check';
import Supercluster from 'supercluster';
import { describe, expect, it } from 'vitest';
import { Clusterer, type ClusterFeature, type PointFeature } from '../../src/cluster/index.js';
import { decode, encode, latY, lngX, SCALE, xLng, yLat } from '../../src/cluster/mercator.js';
import { mulberry32, randFloat } from '../oracle.js';
import { feature, type RefOptions, referenceClusters, seededPoints } from './oracle.js';

type P = { i: number };
type F = PointFeature<P> | ClusterFeature<Record<string, never>>;
const WORLD = [-180, -90, 180, 90];

function isCluster(f: F): f is ClusterFeature<Record<string, never>> {
  return (f.properties as { cluster?: boolean }).cluster === true;
}

// The input indices of a feature's points, sorted.
function leavesOf(c: Clusterer<P>, f: F): number[] {
  if (!isCluster(f)) return [(f as PointFeature<P>).properties.i];
  return c
    .getLeaves(f.properties.cluster_id, Number.POSITIVE_INFINITY)
    .map((p) => p.properties.i)
    .sort((a, b) => a - b);
}

// A zoom's items as sorted "leaves@lng,lat" keys (a cluster's centre as the library writes it).
function keysOf(c: Clusterer<P>, features: F[]): string[] {
  return features
    .map((f) => `${leavesOf(c, f).join(',')}@${f.geometry.coordinates.join(',')}`)
    .sort();
}

const options = (o: Partial<RefOptions>): RefOptions => ({
  radius: 40,
  extent: 512,
  minZoom: 0,
  maxZoom: 16,
  minPoints: 2,
  ...o,
});

// Checks one clusterer against the reference at every zoom, and the invariants.
function checkAgainstReference(points: PointFeature<P>[], o: RefOptions): void {
  const c = new Clusterer<P>(o).load(points);
  const ref = referenceClusters(points, o);
  const n = points.length;
  for (let z = o.minZoom; z <= o.maxZoom + 1; z++) {
    const got = c.getClusters(WORLD, z);
    // Every point in exactly one item; the counts add up to n.
    const seen = new Array<number>(n).fill(0);
    let total = 0;
    for (const f of got) {
      const leaves = leavesOf(c, f);
      for (const i of leaves) seen[i]!++;
      const count = isCluster(f) ? f.properties.point_count : 1;
      expect(leaves.length).toBe(count);
      total += count;
    }
    expect(total).toBe(n);
    expect(seen.every((s) => s === 1)).toBe(true);
    // The same items as the reference (leaves and centres).
    const want = ref[z]!.map((it) => {
      const leaves = [...it.leaves].sort((a, b) => a - b);
      const coords =
        it.num === 1
          ? points[it.leaves[0]!]!.geometry.coordinates
          : [xLng(decode(it.x)), yLat(decode(it.y))];
      return `${leaves.join(',')}@${coords.join(',')}`;
    });
    expect(keysOf(c, got)).toEqual(want.sort());
  }
}

describe('Clusterer against the brute-force greedy reference', () => {
  it('getClusters(world, z) at every zoom gives the reference items, each point in exactly one, counts adding up to n', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 0, max: 250 }),
        fc.record({
          radius: fc.constantFrom(10, 40, 60, 200),
          extent: fc.constantFrom(256, 512),
          minZoom: fc.integer({ min: 0, max: 3 }),
          maxZoom: fc.integer({ min: 3, max: 12 }),
          minPoints: fc.integer({ min: 1, max: 5 }),
        }),
        (seed, n, o) => checkAgainstReference(seededPoints(seed, n), options(o)),
      ),
      { seed: 14, numRuns: 60 },
    );
  });

  it('clusters the 0-, 1-point, all-identical, antimeridian and pole cases as the reference does', () => {
    const o = options({ maxZoom: 10 });
    checkAgainstReference([], o);
    checkAgainstReference([feature(12, 34, 0)], o);
    checkAgainstReference(
      Array.from({ length: 500 }, (_, i) => feature(-71.06, 42.36, i)),
      options({ maxZoom: 10, minPoints: 3 }),
    );
    const edge = [
      feature(-180, 0, 0),
      feature(180, 0, 1),
      feature(180, 0.0001, 2),
      feature(0, 90, 3),
      feature(10, 90, 4),
      feature(0, -90, 5),
      feature(0, 89, 6),
      feature(-180, -90, 7),
      feature(180, 90, 8),
    ];
    checkAgainstReference(edge, o);
  });

  it('a point set with 1,000 identical points is one cluster at every zoom up to maxZoom, and 1,000 points above it', () => {
    const points = Array.from({ length: 1000 }, (_, i) => feature(2.35, 48.85, i));
    const c = new Clusterer<P>({ maxZoom: 14 }).load(points);
    for (let z = 0; z <= 14; z++) {
      const got = c.getClusters(WORLD, z);
      expect(got.length).toBe(1);
      expect(isCluster(got[0]!) && got[0].properties.point_count).toBe(1000);
    }
    expect(c.getClusters(WORLD, 15).length).toBe(1000);
  });
});

describe('the greedy rule', () => {
  it('at each zoom, two items that did not change from the zoom above are farther apart than the radius, and each is farther than the radius from some child of every new cluster', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const points = seededPoints(seed, 300);
      const c = new Clusterer<P>({ maxZoom: 12, radius: 60 }).load(points);
      const fixed = (f: F) => [
        Math.trunc(encode(lngX(f.geometry.coordinates[0]!))),
        Math.trunc(encode(latY(f.geometry.coordinates[1]!))),
      ];
      for (let z = 0; z <= 12; z++) {
        const r = (60 / (512 * 2 ** z)) * SCALE;
        const above = new Set(c.getClusters(WORLD, z + 1).map((f) => leavesOf(c, f).join(',')));
        const items = c.getClusters(WORLD, z);
        const kept = items.filter((f) => above.has(leavesOf(c, f).join(',')));
        const made = items.filter((f) => !above.has(leavesOf(c, f).join(',')));
        // (2 units of slack: a cluster's centre is decoded to degrees and encoded back.)
        const far = (a: F, b: F) => {
          const [ax, ay] = fixed(a);
          const [bx, by] = fixed(b);
          return Math.hypot(ax! - bx!, ay! - by!) > r - 2;
        };
        for (let i = 0; i < kept.length; i++)
          for (let j = i + 1; j < kept.length; j++) expect(far(kept[i]!, kept[j]!)).toBe(true);
        for (const k of made) {
          expect(isCluster(k)).toBe(true);
          const children = c.getChildren((k as ClusterFeature<object>).properties.cluster_id);
          for (const f of kept) expect(children.some((ch) => far(f, ch as F))).toBe(true);
        }
      }
    }
  });
});

describe('children, leaves and expansion zoom', () => {
  const points = seededPoints(77, 400);
  const c = new Clusterer<P>({ maxZoom: 14 }).load(points);

  it("getChildren(id) are items of zoom getClusterExpansionZoom(id) whose leaves together are the cluster's leaves", () => {
    let checked = 0;
    for (let z = 0; z <= 14; z++) {
      for (const f of c.getClusters(WORLD, z)) {
        if (!isCluster(f)) continue;
        const id = f.properties.cluster_id;
        const zoom = c.getClusterExpansionZoom(id);
        expect(zoom).toBeGreaterThan(z);
        expect(zoom).toBeLessThanOrEqual(15);
        const below = new Set(c.getClusters(WORLD, zoom).map((g) => leavesOf(c, g).join(',')));
        const children = c.getChildren(id) as F[];
        expect(children.length).toBeGreaterThanOrEqual(2);
        const union: number[] = [];
        for (const ch of children) {
          expect(below.has(leavesOf(c, ch).join(','))).toBe(true);
          union.push(...leavesOf(c, ch));
        }
        expect(union.sort((a, b) => a - b)).toEqual(leavesOf(c, f));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('getLeaves(id, limit, offset) pages through getLeaves(id, Infinity) in order', () => {
    for (const f of c.getClusters(WORLD, 3)) {
      if (!isCluster(f)) continue;
      const id = f.properties.cluster_id;
      const all = c.getLeaves(id, Number.POSITIVE_INFINITY);
      expect(all.length).toBe(f.properties.point_count);
      expect(c.getLeaves(id)).toEqual(all.slice(0, 10));
      for (const [limit, offset] of [
        [1, 0],
        [3, 2],
        [7, 5],
        [50, 13],
        [5, all.length - 2],
        [5, all.length + 3],
        [0, 1],
      ] as const) {
        expect(c.getLeaves(id, limit, offset)).toEqual(all.slice(offset, offset + limit));
      }
    }
  });

  it('getClusters returns the loaded point features themselves and new cluster features', () => {
    const got = c.getClusters(WORLD, 15);
    expect(got.length).toBe(points.length);
    const set = new Set<unknown>(points);
    expect(got.every((f) => set.has(f))).toBe(true);
  });
});

describe('boxes', () => {
  const points = seededPoints(5, 600);
  const c = new Clusterer<P>({ maxZoom: 10 }).load(points);
  const ids = (fs: F[]) => fs.map((f) => leavesOf(c, f).join(',')).sort();

  it('getClusters on a box across the antimeridian equals the union of its two halves', () => {
    const rng = mulberry32(3);
    for (let t = 0; t < 200; t++) {
      const west = randFloat(rng, 0, 180);
      const east = randFloat(rng, -180, 0);
      const south = randFloat(rng, -90, 60);
      const north = randFloat(rng, south, 90);
      const z = Math.floor(rng() * 12);
      const whole = c.getClusters([west, south, east, north], z);
      const halves = [
        ...c.getClusters([west, south, 180, north], z),
        ...c.getClusters([-180, south, east, north], z),
      ];
      expect(ids(whole)).toEqual(ids(halves));
    }
  });

  it('getClusters(bbox, z) holds the items of the world inside the box (brute force, away from its edges)', () => {
    const rng = mulberry32(8);
    const eps = 1e-7;
    for (let t = 0; t < 200; t++) {
      const west = randFloat(rng, -180, 180);
      const east = randFloat(rng, west, 180);
      const south = randFloat(rng, -85, 85);
      const north = randFloat(rng, south, 85);
      const z = Math.floor(rng() * 12);
      const got = new Set(ids(c.getClusters([west, south, east, north], z)));
      for (const f of c.getClusters(WORLD, z)) {
        // (Latitudes beyond the Mercator square's edge, ±85.0511°, are on its edge.)
        const [lng, lat0] = f.geometry.coordinates as [number, number];
        const lat = Math.max(-85.0511287798, Math.min(85.0511287798, lat0));
        const key = leavesOf(c, f).join(',');
        if (lng > west + eps && lng < east - eps && lat > south + eps && lat < north - eps)
          expect(got.has(key)).toBe(true);
        if (lng < west - eps || lng > east + eps || lat < south - eps || lat > north + eps)
          expect(got.has(key)).toBe(false);
      }
    }
  });

  it('a box 360° wide or more, or given in wrapped longitudes, takes every longitude', () => {
    expect(ids(c.getClusters([-200, -90, 170, 90], 4))).toEqual(ids(c.getClusters(WORLD, 4)));
    expect(ids(c.getClusters([180, -90, 540, 90], 4))).toEqual(ids(c.getClusters(WORLD, 4)));
  });
});

describe('against supercluster on the same input', () => {
  const cases: Array<[string, PointFeature<P>[], Partial<RefOptions>]> = [
    ['seeded groups', seededPoints(11, 3000), {}],
    ['seeded groups, radius 80, extent 256', seededPoints(12, 3000), { radius: 80, extent: 256 }],
    ['uniform points', uniform(13, 5000), { maxZoom: 12 }],
    ['seeded groups, minZoom 3, maxZoom 9', seededPoints(14, 2000), { minZoom: 3, maxZoom: 9 }],
  ];
  for (const [name, points, o] of cases) {
    it(`${name}: the same clusters at every zoom (the same points, centres and counts)`, () => {
      const ours = new Clusterer<P>(o).load(points);
      const theirs = new Supercluster<P>(o).load(points);
      for (let z = 0; z <= (o.maxZoom ?? 16) + 1; z++) {
        const a = ours.getClusters(WORLD, z);
        const b = theirs.getClusters([-180, -90, 180, 90], z) as F[];
        expect(a.length).toBe(b.length);
        const describe = (f: F, leaves: number[]) =>
          isCluster(f)
            ? `${leaves.join(',')}@${f.geometry.coordinates.join(',')}`
            : `${leaves.join(',')}`;
        const mine = a.map((f) => describe(f, leavesOf(ours, f))).sort();
        const other = b
          .map((f) =>
            describe(
              f,
              isCluster(f)
                ? theirs
                    .getLeaves(f.properties.cluster_id, Number.POSITIVE_INFINITY)
                    .map((p) => p.properties.i)
                    .sort((x, y) => x - y)
                : [(f as PointFeature<P>).properties.i],
            ),
          )
          .sort();
        expect(mine).toEqual(other);
      }
    });
  }

  it('minPoints 3: the same number of clusters and points at every zoom as supercluster', () => {
    const points = seededPoints(21, 3000);
    const ours = new Clusterer<P>({ minPoints: 3 }).load(points);
    const theirs = new Supercluster<P>({ minPoints: 3 }).load(points);
    for (let z = 0; z <= 17; z++) {
      const count = (fs: F[]) => [fs.length, fs.filter(isCluster).length];
      expect(count(ours.getClusters(WORLD, z))).toEqual(
        count(theirs.getClusters([-180, -90, 180, 90], z) as F[]),
      );
    }
  });

  it('map and reduce sum a property as supercluster does', () => {
    const points = seededPoints(31, 2000);
    const o = {
      map: (p: P) => ({ sum: p.i % 7 }),
      reduce: (a: { sum: number }, b: { sum: number }) => {
        a.sum += b.sum;
      },
    };
    const ours = new Clusterer<P, { sum: number }>(o).load(points);
    const theirs = new Supercluster<P, { sum: number }>(o).load(points);
    for (let z = 0; z <= 16; z++) {
      const sums = (fs: Array<{ properties: unknown }>) =>
        fs
          .map((f) => f.properties as { cluster?: boolean; sum: number; point_count: number })
          .filter((p) => p.cluster)
          .map((p) => `${p.point_count}:${p.sum}`)
          .sort();
      const mine = ours.getClusters(WORLD, z);
      expect(sums(mine)).toEqual(sums(theirs.getClusters([-180, -90, 180, 90], z)));
      for (const f of mine) {
        if (!(f.properties as { cluster?: boolean }).cluster) continue;
        const id = (f as ClusterFeature<{ sum: number }>).properties.cluster_id;
        const leaves = ours.getLeaves(id, Number.POSITIVE_INFINITY);
        const want = leaves.reduce((t, p) => t + (p.properties.i % 7), 0);
        expect((f as ClusterFeature<{ sum: number }>).properties.sum).toBe(want);
      }
    }
    // The points' own properties are left alone.
    expect(points.every((p) => Object.keys(p.properties).join() === 'i')).toBe(true);
  });

  it("getTile(z, x, y) gives the features of supercluster's tile (pixel positions, counts, tags)", () => {
    const points = seededPoints(41, 3000);
    const ours = new Clusterer<P>({}).load(points);
    const theirs = new Supercluster<P>({}).load(points);
    const rng = mulberry32(2);
    const tiles: Array<[number, number, number]> = [
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 1],
    ];
    for (const f of points.slice(0, 40)) {
      const z = Math.floor(rng() * 17);
      const [lng, lat] = f.geometry.coordinates as [number, number];
      const x = Math.min(2 ** z - 1, Math.floor(lngX(lng) * 2 ** z));
      const y = Math.min(2 ** z - 1, Math.floor(latY(lat) * 2 ** z));
      tiles.push([z, x, y]);
    }
    tiles.push([3, 0, 2], [3, 7, 2]);
    for (const [z, x, y] of tiles) {
      const key = (t: { features: Array<{ geometry: unknown; tags: unknown }> } | null) =>
        (t?.features ?? [])
          .map((f) => {
            const tags = f.tags as { i?: number; point_count?: number };
            return `${JSON.stringify(f.geometry)}:${tags.point_count ?? `p${tags.i}`}`;
          })
          .sort();
      const tile = ours.getTile(z, x, y);
      const other = theirs.getTile(z, x, y);
      expect(key(tile)).toEqual(key(other));
      expect(tile === null).toBe(other === null);
    }
  });
});

describe('bad input', () => {
  const good = seededPoints(1, 50);

  it('load throws naming the point and field for NaN, latitude beyond ±90, longitude beyond ±180, and non-points, and keeps the previous points', () => {
    const c = new Clusterer<P>({ maxZoom: 8 }).load(good);
    const before = c.getClusters(WORLD, 3).length;
    const cases: Array<[unknown, RegExp, ErrorConstructor]> = [
      [
        [feature(Number.NaN, 0, 0)],
        /points\[0\]\.geometry\.coordinates\[0\] \(longitude\).*NaN/,
        RangeError,
      ],
      [
        [feature(0, 91, 0)],
        /points\[0\]\.geometry\.coordinates\[1\] \(latitude\).*-90 to 90.*91/,
        RangeError,
      ],
      [[feature(0, -90.5, 0)], /latitude.*-90\.5/, RangeError],
      [
        [...good, feature(200, 0, 50)],
        /points\[50\].*longitude.*-180 to 180.*200.*wrap/,
        RangeError,
      ],
      [[feature(0, Number.POSITIVE_INFINITY, 0)], /latitude.*Infinity/, RangeError],
      [
        [{ type: 'Feature', properties: null, geometry: null }],
        /points\[0\]\.geometry.*Point/,
        TypeError,
      ],
      [
        [{ type: 'Feature', properties: null, geometry: { type: 'LineString', coordinates: [] } }],
        /LineString/,
        TypeError,
      ],
      [[null], /points\[0\] must be a GeoJSON Point feature/, TypeError],
      [[feature('1' as unknown as number, 0, 0)], /longitude.*"?1"?/, TypeError],
      ['nope', /array of GeoJSON Point features/, TypeError],
    ];
    for (const [input, message, type] of cases) {
      expect(() => c.load(input as PointFeature<P>[])).toThrow(type);
      expect(() => c.load(input as PointFeature<P>[])).toThrow(message);
      expect(c.getClusters(WORLD, 3).length).toBe(before);
      expect(c.size).toBe(50);
    }
  });

  it('queries throw for a zoom out of range, a bad box, an unknown cluster id and bad paging', () => {
    const c = new Clusterer<P>({ maxZoom: 8 }).load(good);
    expect(() => c.getClusters(WORLD, -1)).toThrow(/zoom must be a number from 0 to 30, got -1/);
    expect(() => c.getClusters(WORLD, Number.NaN)).toThrow(RangeError);
    expect(() => c.getClusters(WORLD, 31)).toThrow(/zoom.*31/);
    expect(() => c.getClusters([0, 0, 1] as unknown as number[], 1)).toThrow(
      /bbox must be an array/,
    );
    expect(() => c.getClusters([0, Number.NaN, 1, 1], 1)).toThrow(
      /bbox\[1\] \(south\) must be a finite number, got NaN/,
    );
    const cluster = c.getClusters(WORLD, 0).find(isCluster)!;
    const id = cluster.properties.cluster_id;
    for (const bad of [0, 49, -1, 1e9, 50.5, Number.NaN]) {
      expect(() => c.getChildren(bad)).toThrow(/clusterId/);
      expect(() => c.getLeaves(bad)).toThrow(RangeError);
      expect(() => c.getClusterExpansionZoom(bad)).toThrow(/clusterId.*got/);
    }
    expect(() => c.getLeaves(id, -1)).toThrow(/limit/);
    expect(() => c.getLeaves(id, 10, 1.5)).toThrow(/offset/);
    expect(() => c.getTile(2, 4, 0)).toThrow(/x must be an integer from 0 to 3, got 4/);
    expect(() => c.getTile(-1, 0, 0)).toThrow(/z must be an integer from 0 to 30, got -1/);
    expect(() => c.getTile(2.5, 0, 0)).toThrow(/z must be an integer/);
    expect(() => new Clusterer<P>({}).getChildren(0)).toThrow(/no clusters/);
  });

  it('the constructor throws for bad options, naming them', () => {
    const bad: Array<[object, RegExp]> = [
      [{ radius: 0 }, /options\.radius.*got 0/],
      [{ radius: Number.NaN }, /options\.radius/],
      [{ extent: -1 }, /options\.extent.*-1/],
      [{ maxZoom: 31 }, /options\.maxZoom.*0 to 30.*31/],
      [{ minZoom: 5, maxZoom: 4 }, /options\.minZoom.*0 to 4.*5/],
      [{ minPoints: 0 }, /options\.minPoints/],
      [{ map: 3 }, /options\.map must be a function/],
      [{ reduce: 'sum' }, /options\.reduce must be a function/],
      [{ log: true }, /unknown option "log" for Clusterer; known options: minZoom, maxZoom/],
      [{ generateId: 1 }, /options\.generateId must be true or false, got 1/],
      [{ radius: '40' }, /options\.radius \(pixels\) must be a finite number > 0, got "40"/],
    ];
    for (const [o, message] of bad) expect(() => new Clusterer(o)).toThrow(message);
    // The messages and error classes of every index's options (validate.ts).
    expect(() => new Clusterer({ radius: '40' } as never)).toThrow(TypeError);
    expect(() => new Clusterer({ radius: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => new Clusterer({ generateId: 1 } as never)).toThrow(TypeError);
    expect(() => new Clusterer(null as unknown as object)).toThrow(
      /options of Clusterer must be an object \{ minZoom, maxZoom, .* got null/,
    );
  });
});

describe('degenerate data', () => {
  it('0 points: every zoom is empty and there are no clusters', () => {
    const c = new Clusterer({}).load([]);
    for (let z = 0; z <= 17; z++) expect(c.getClusters(WORLD, z)).toEqual([]);
    expect(c.getTile(0, 0, 0)).toBe(null);
  });

  it('1 point: returned itself at every zoom, and from its tile', () => {
    const p = feature(-122.4, 37.8, 0);
    const c = new Clusterer<P>({}).load([p]);
    for (let z = 0; z <= 20; z++) expect(c.getClusters(WORLD, z)).toEqual([p]);
    expect(c.getTile(0, 0, 0)?.features.length).toBe(1);
  });
});

// `n` points uniform in longitude and latitude.
function uniform(seed: number, n: number): PointFeature<P>[] {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, (_, i) =>
    feature(randFloat(rng, -180, 180), randFloat(rng, -85, 85), i),
  );
}
