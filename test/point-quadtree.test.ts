import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PointQuadtree } from '../src/index.js';
import { BruteIndex, checkNearest, mulberry32, randFloat, sameItems, samePairs } from './oracle.js';

interface P {
  id: number;
  x: number;
  y: number;
}

const BOUNDS = { x: 0, y: 0, width: 16, height: 16 };
const label = (p: P) => `#${p.id}`;
const coord = fc.integer({ min: -8, max: 48 }).map((v) => v / 2); // half-steps, some outside

type Op =
  | { kind: 'insert'; x: number; y: number }
  | { kind: 'remove'; pick: number }
  | { kind: 'move'; pick: number; x: number; y: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('insert' as const), x: coord, y: coord }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      pick: fc.nat(),
      x: coord,
      y: coord,
    }),
  },
);

// Random window, disc, nearest and exact-point queries, each against brute force.
function checkQueries(
  tree: PointQuadtree<P>,
  model: BruteIndex<P>,
  live: readonly P[],
  rng: () => number,
  k: number,
): void {
  const x = randFloat(rng, -4, 24);
  const y = randFloat(rng, -4, 24);
  const q = { x: x - 3, y: y - 3, width: randFloat(rng, 0, 8), height: randFloat(rng, 0, 8) };
  expect(sameItems(tree.search(q), model.search(q), label)).toBeNull();
  expect(sameItems(tree.searchCircle(x, y, 3), model.searchCircle(x, y, 3), label)).toBeNull();
  if (live.length > 0) {
    // The exact-point lookup: the items at exactly a point that holds some.
    const at = live[0]!;
    expect(
      sameItems(tree.searchPoint(at.x, at.y), model.searchPoint(at.x, at.y), label),
    ).toBeNull();
  }
  const inf = Number.POSITIVE_INFINITY;
  expect(checkNearest(tree.nearest(x, y, k), model.boxes(), x, y, k, inf, label)).toBeNull();
}

describe('PointQuadtree', () => {
  it('answers every query like brute force after every insert, remove and move', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 8 }),
        fc.array(op, { maxLength: 80 }),
        fc.integer({ min: 1, max: 1000 }),
        (bucketSize, maxLevels, ops, seed) => {
          const rng = mulberry32(seed);
          const tree = new PointQuadtree<P>({ bounds: BOUNDS, bucketSize, maxLevels });
          const model = new BruteIndex<P>();
          const live: P[] = [];
          let id = 0;
          for (const o of ops) {
            if (o.kind === 'insert') {
              const p = { id: id++, x: o.x, y: o.y };
              tree.insert(p);
              model.set(p);
              live.push(p);
            } else if (live.length > 0) {
              const k = o.pick % live.length;
              const p = live[k]!;
              if (o.kind === 'remove') {
                expect(tree.remove(p)).toBe(true);
                model.delete(p);
                live.splice(k, 1);
              } else {
                p.x = o.x;
                p.y = o.y;
                expect(tree.update(p)).toBe(true);
                model.set(p);
              }
            }
            expect(tree.size).toBe(live.length);
            checkQueries(tree, model, live, rng, 1 + (id % 5));
          }
          const pairs: [P, P][] = [];
          tree.pairs((a, b) => pairs.push([a, b]));
          expect(samePairs(pairs, model.pairs(), label)).toBeNull();
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers like brute force after bursts of inserts, which the next read places in bulk', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 10 }),
        fc.array(fc.tuple(fc.integer({ min: 256, max: 900 }), fc.nat(600)), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.integer({ min: 1, max: 1000 }),
        (bucketSize, maxLevels, rounds, seed) => {
          const rng = mulberry32(seed);
          // Half-steps over the bounds and beyond: many coincident points.
          const at = () => Math.floor(randFloat(rng, -8, 48)) / 2;
          const tree = new PointQuadtree<P>({ bounds: BOUNDS, bucketSize, maxLevels });
          const model = new BruteIndex<P>();
          const live: P[] = [];
          let id = 0;
          for (const [burst, removals] of rounds) {
            // A burst (placed by the next read), then removals, which place it first.
            for (let i = 0; i < burst; i++) {
              const p = { id: id++, x: at(), y: at() };
              tree.insert(p);
              model.set(p);
              live.push(p);
            }
            for (let i = 0; i < removals && live.length > 0; i++) {
              const p = live.splice(Math.floor(rng() * live.length), 1)[0]!;
              expect(tree.remove(p)).toBe(true);
              model.delete(p);
            }
            expect(tree.size).toBe(live.length);
            for (let q = 0; q < 20; q++) checkQueries(tree, model, live, rng, 1 + (q % 7));
          }
          expect(sameItems(tree.all(), live, label)).toBeNull();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('searchPoint(x, y) finds every one of 100,000 coincident points, and remove() takes only one', () => {
    const tree = new PointQuadtree<P>({ bounds: BOUNDS, bucketSize: 4 });
    const pts = Array.from({ length: 100_000 }, (_, id) => ({ id, x: 3.5, y: 7.25 }));
    tree.load(pts);
    let deepest = 0;
    tree.visit((n) => {
      deepest = Math.max(deepest, n.depth);
    });
    expect(deepest).toBeLessThanOrEqual(tree.maxLevels);
    expect(tree.searchPoint(3.5, 7.25).length).toBe(100_000);
    expect(tree.remove(pts[123]!)).toBe(true);
    const left = tree.searchPoint(3.5, 7.25);
    expect(left.length).toBe(99_999);
    expect(left.includes(pts[123]!)).toBe(false);
    expect(tree.nearest(0, 0, 3).length).toBe(3);
  });

  it('points on split lines and outside the bounds are found; item fields other than x, y are ignored', () => {
    const tree = new PointQuadtree<P & { width?: number }>({ bounds: BOUNDS, bucketSize: 1 });
    const pts = [
      { id: 0, x: 8, y: 8, width: 100 },
      { id: 1, x: 8, y: 3 },
      { id: 2, x: 0, y: 16 },
      { id: 3, x: -5, y: 40 },
      { id: 4, x: 4, y: 4 },
    ];
    tree.load(pts);
    for (const p of pts) expect(tree.searchPoint(p.x, p.y)).toEqual([p]);
    expect(tree.search({ x: 8, y: 0, width: 0, height: 16 }).length).toBe(2);
  });

  it('toPoint reads positions from items of another shape; bad positions throw and change nothing', () => {
    const tree = new PointQuadtree<{ pos: [number, number] }>({
      bounds: BOUNDS,
      toPoint: (it) => ({ x: it.pos[0], y: it.pos[1] }),
    });
    const a = { pos: [1, 2] as [number, number] };
    tree.insert(a);
    expect(tree.searchPoint(1, 2)).toEqual([a]);
    expect(() => tree.insert({ pos: [Number.NaN, 2] })).toThrow(/toPoint\(item\)\.x.*NaN/);
    expect(tree.size).toBe(1);
    expect(() => new PointQuadtree({ bounds: BOUNDS, bucketSize: 0 })).toThrow(RangeError);
    expect(() => new PointQuadtree({ bounds: BOUNDS, toPoint: 5 as never })).toThrow(/toPoint/);
  });
});
