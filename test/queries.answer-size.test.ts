// Queries cost what they find, not what the index holds: on every index, a small index and a
// large one hold the same cluster of items, and each query door gives the same small answer in
// both. The arrays a query writes its answers into (the engine's answer array, the k-best heap,
// the arrays the great-circle doors hand the search) are read back after the queries: they must
// stay of the answer's order of size on the large index, where sizing them from the index (as
// a k = Infinity search once did) makes them as long as the index.
import { describe, expect, it } from 'vitest';
import type { QueryEngine } from '../src/engine/engine.js';
import { BUILT_RESULTS } from '../src/engine/packed.js';
import { GeoIndex, geoNearest, geoWithin } from '../src/geo/index.js';
import {
  GridLooseQuadtree,
  PointQuadtree,
  Quadtree,
  type QueryIndex,
  StaticQuadtree,
  TriangleIndex,
} from '../src/index.js';

const INF = Number.POSITIVE_INFINITY;
/** Items in the cluster every index holds: a 40 x 25 grid of points. */
const CLUSTER = 1000;
/** Items of the large dynamic indexes; the static tree over points gets a million. */
const LARGE = 100_000;
const MILLION = 1_000_000;
/** Room an answer of at most a few dozen items may have made (16, doubled twice). */
const ROOM = 64;
/** Room an answer array may have: ROOM, or the fixed room a tree built at once starts with. */
const RESULTS_ROOM = Math.max(ROOM, BUILT_RESULTS);

type Pt = { x: number; y: number };

// Point i of the cluster (i < CLUSTER) at (i % 40, floor(i / 40)); the others spread over
// [1000, 2000)^2, far from every query.
function coordsOf(n: number): Float64Array {
  const out = new Float64Array(2 * n);
  const far = n - CLUSTER;
  const side = Math.ceil(Math.sqrt(Math.max(far, 1)));
  for (let i = 0; i < n; i++) {
    if (i < CLUSTER) {
      out[2 * i] = i % 40;
      out[2 * i + 1] = Math.floor(i / 40);
    } else {
      const j = i - CLUSTER;
      out[2 * i] = 1000 + ((j % side) * 1000) / side;
      out[2 * i + 1] = 1000 + (Math.floor(j / side) * 1000) / side;
    }
  }
  return out;
}

function pointsOf(n: number): Pt[] {
  const c = coordsOf(n);
  return Array.from({ length: n }, (_, i) => ({ x: c[2 * i]!, y: c[2 * i + 1]! }));
}

const BOUNDS = { x: 0, y: 0, width: 2048, height: 2048 };

// The engine behind an index (a protected member): its answer array and k-best heap.
function engineOf(index: object): QueryEngine {
  return (index as { engine: QueryEngine }).engine;
}

/** The kinds of index, each built over n items, with a key per answer to compare answers. */
const KINDS: [string, (n: number) => QueryIndex<unknown>, number][] = [
  ['Quadtree', (n) => Quadtree.from(pointsOf(n), { bounds: BOUNDS }), LARGE],
  ['loose Quadtree', (n) => Quadtree.from(pointsOf(n), { bounds: BOUNDS, looseness: 2 }), LARGE],
  // (Its depth pinned: chosen from the items, it would give the two indexes different cells.)
  [
    'GridLooseQuadtree',
    (n) => GridLooseQuadtree.from(pointsOf(n), { bounds: BOUNDS, depth: 9 }),
    LARGE,
  ],
  ['PointQuadtree', (n) => PointQuadtree.from(pointsOf(n), { bounds: BOUNDS }), LARGE],
  ['StaticQuadtree.from', (n) => StaticQuadtree.from(pointsOf(n)), LARGE],
  ['StaticQuadtree.fromPoints', (n) => StaticQuadtree.fromPoints(coordsOf(n)), MILLION],
];

// An answer as sorted keys, the same for an item and its copy in the other index.
function keysOf(answer: readonly unknown[]): string[] {
  return answer
    .map((a) => (typeof a === 'number' ? `#${a}` : `${(a as Pt).x},${(a as Pt).y}`))
    .sort();
}

/** Each query door, near the middle of the cluster. */
const DOORS: [string, (ix: QueryIndex<unknown>) => unknown[]][] = [
  ['search', (ix) => ix.search({ x: 19.5, y: 11.5, width: 2, height: 2 })],
  [
    'searchInto',
    (ix) => {
      const out: unknown[] = [];
      return out.slice(0, ix.searchInto({ x: 19.5, y: 11.5, width: 2, height: 2 }, out));
    },
  ],
  ['searchPoint', (ix) => ix.searchPoint(20, 12)],
  ['searchCircle', (ix) => ix.searchCircle(20.5, 12.5, 1.5)],
  ['searchSegment', (ix) => ix.searchSegment(17, 12, 23, 12)],
  ['nearest k = Infinity', (ix) => ix.nearest(20.2, 12.1, INF, 2.5)],
  [
    'nearestWithDistances k = Infinity',
    (ix) => ix.nearestWithDistances(20.2, 12.1, INF, 2.5).map((h) => h.item),
  ],
  [
    'nearestInto k = Infinity',
    (ix) => {
      const out: unknown[] = [];
      return out.slice(0, ix.nearestInto(20.2, 12.1, INF, 2.5, out, []));
    },
  ],
  ['nearest k = size', (ix) => ix.nearest(20.2, 12.1, ix.size, 2.5)],
  ['raycastAll', (ix) => ix.raycastAll(15.5, 12, 25.5, 12).map((h) => h.item)],
];

describe.each(KINDS)('%s: query arrays grow with the answer, not the index', (_, build, n) => {
  const small = build(CLUSTER);
  const large = build(n);

  it.each(DOORS)('%s', (_door, query) => {
    const want = query(small);
    const got = query(large);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(40);
    expect(keysOf(got)).toEqual(keysOf(want));
    const engine = engineOf(large);
    expect(engine.results.length).toBeLessThanOrEqual(RESULTS_ROOM);
    expect(engine.best.keys.length).toBeLessThanOrEqual(ROOM);
  });
});

describe('TriangleIndex: raycastAll holds room for its hits, not for every triangle', () => {
  // Two triangles per unit square of a g x g grid.
  function grid(g: number): TriangleIndex {
    const coords: number[] = [];
    for (let j = 0; j <= g; j++) for (let i = 0; i <= g; i++) coords.push(i, j);
    const triangles: number[] = [];
    for (let j = 0; j < g; j++) {
      for (let i = 0; i < g; i++) {
        const a = j * (g + 1) + i;
        triangles.push(a, a + 1, a + g + 2, a, a + g + 2, a + g + 1);
      }
    }
    return new TriangleIndex(coords, triangles);
  }
  it('a short ray on 2k and 200k triangles', () => {
    const hits = (ix: TriangleIndex) => ix.raycastAll(1.5, 1.25, 4.5, 1.25).map((h) => h.item);
    const small = grid(32);
    const large = grid(320);
    expect(hits(small).length).toBeGreaterThan(0);
    expect(hits(large).length).toBe(hits(small).length);
    const best = (large as unknown as { best: { keys: Float64Array } }).best;
    expect(best.keys.length).toBeLessThanOrEqual(ROOM);
  });
});

describe('great-circle doors: arrays sized by the answer', () => {
  // The cluster at lon 10 + (i % 40) / 100, lat 20 + floor(i / 40) / 100 (about a kilometre
  // apart); the other points over lon [100, 170), lat [-60, 60).
  function lonLat(n: number): Float64Array {
    const c = coordsOf(n);
    for (let i = 0; i < n; i++) {
      if (i < CLUSTER) {
        c[2 * i] = 10 + c[2 * i]! / 100;
        c[2 * i + 1] = 20 + c[2 * i + 1]! / 100;
      } else {
        c[2 * i] = 100 + (c[2 * i]! - 1000) * 0.07;
        c[2 * i + 1] = -60 + (c[2 * i + 1]! - 1000) * 0.12;
      }
    }
    return c;
  }
  const world = { x: -180, y: -90, width: 360, height: 180 };
  const geoKinds: [string, (n: number) => QueryIndex<unknown>, number][] = [
    ['StaticQuadtree.fromPoints', (n) => StaticQuadtree.fromPoints(lonLat(n)), MILLION],
    [
      'PointQuadtree',
      (n) => {
        const c = lonLat(n);
        return PointQuadtree.from(
          Array.from({ length: n }, (_, i) => i),
          { bounds: world, toPoint: (i) => ({ x: c[2 * i]!, y: c[2 * i + 1]! }) },
        );
      },
      LARGE,
    ],
  ];

  // Records the lengths of the arrays each search is handed, then runs it.
  function spy(index: QueryIndex<unknown>): number[] {
    const lengths: number[] = [];
    const target = index as unknown as {
      bestFirstInto: (...args: unknown[]) => number;
    };
    const run = target.bestFirstInto;
    target.bestFirstInto = function (this: unknown, ...args: unknown[]): number {
      lengths.push((args[3] as unknown[]).length, (args[4] as ArrayLike<number>).length);
      return run.apply(this, args);
    };
    return lengths;
  }

  // Each query gives the same small answer on both indexes; the great-circle searches on
  // `tree` (the large index, or the tree under it) are handed arrays, and leave an answer array
  // and a heap, of at most ROOM entries.
  function checkGeo<I>(
    small: I,
    large: I,
    tree: QueryIndex<unknown>,
    queries: [string, (ix: I) => unknown[]][],
  ): void {
    const lengths = spy(tree);
    for (const [name, query] of queries) {
      const want = query(small);
      expect(want.length, name).toBeGreaterThan(0);
      expect(want.length, name).toBeLessThan(40);
      expect(query(large), name).toEqual(want);
    }
    expect(lengths.length).toBe(4);
    for (const length of lengths) expect(length).toBeLessThanOrEqual(ROOM);
    expect(engineOf(tree).best.keys.length).toBeLessThanOrEqual(ROOM);
    expect(engineOf(tree).results.length).toBeLessThanOrEqual(RESULTS_ROOM);
  }

  it.each(geoKinds)('geoWithin and geoNearest(k = Infinity) on %s', (_, build, n) => {
    const small = build(CLUSTER);
    const large = build(n);
    checkGeo(small, large, large, [
      ['geoWithin', (ix) => geoWithin(ix, 10.2, 20.12, 3)],
      ['geoNearest', (ix) => geoNearest(ix, 10.2, 20.12, INF, 3)],
    ]);
  });

  it('GeoIndex.geoWithin, geoNearest(k = Infinity) and nearest(k = Infinity)', () => {
    const features = (n: number) => {
      const c = lonLat(n);
      return Array.from({ length: n }, (_, i) => ({
        type: 'Point' as const,
        coordinates: [c[2 * i]!, c[2 * i + 1]!],
      }));
    };
    const small = GeoIndex.from(features(CLUSTER));
    const large = GeoIndex.from(features(LARGE));
    const tree = (large as unknown as { tree: QueryIndex<unknown> }).tree;
    const indices = (hits: { index: number }[]) => hits.map((h) => h.index);
    checkGeo(small, large, tree, [
      ['geoWithin', (ix) => indices(ix.geoWithin(10.2, 20.12, 3))],
      ['geoNearest', (ix) => indices(ix.geoNearest(10.2, 20.12, INF, 3))],
      ['nearest', (ix) => indices(ix.nearest(10.2, 20.12, INF, 0.025))],
    ]);
  });
});

describe('BatchPool: nearest with k = Infinity', () => {
  it('holds room for the answers, not for the tree, on the main thread', async () => {
    const { BatchPool } = await import('../src/batch/index.js');
    const tree = StaticQuadtree.fromPoints(coordsOf(MILLION));
    const pool = await BatchPool.create(tree, { workers: 0, mainThread: true });
    try {
      const result = await pool.nearest(Float64Array.of(20.2, 12.1, 5.3, 7.2), INF, 2.5);
      const want = [tree.nearest(20.2, 12.1, INF, 2.5), tree.nearest(5.3, 7.2, INF, 2.5)];
      expect(result.items(0)).toEqual(want[0]);
      expect(result.items(1)).toEqual(want[1]);
      const engine = (pool as unknown as { tree: QueryEngine }).tree;
      expect(engine.best.keys.length).toBeLessThanOrEqual(ROOM);
    } finally {
      await pool.close();
    }
  });
});
