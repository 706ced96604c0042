// The planar best-first kernels key nodes and items by squared distances, boxes and points
// alike (a tree of boxes takes the greedy first descent too): nearest on StaticQuadtree,
// PointQuadtree and Quadtree against the brute-force ranking of test/oracle.ts, on seeded data
// full of duplicates and ties, with boxes and points mixed, k past the size, maxDistance, and a
// filter; twice per index, the second search reusing the first one's queue and heap.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PointQuadtree, Quadtree, StaticQuadtree } from '../../src/index.js';
import { boxesOf, checkNearest } from '../oracle.js';

const INF = Number.POSITIVE_INFINITY;
const BOUNDS = { x: 0, y: 0, width: 40, height: 40 };

type Item = { id: number; x: number; y: number; width: number; height: number };

// Items on a small lattice (many duplicates and equal distances), some outside BOUNDS; boxes of
// size 0 to 3 when `boxes`, else points.
const lattice = fc.array(
  fc.tuple(
    fc.integer({ min: -5, max: 45 }),
    fc.integer({ min: -5, max: 45 }),
    fc.integer({ min: 0, max: 3 }),
    fc.integer({ min: 0, max: 3 }),
  ),
  { maxLength: 120 },
);
const query = fc.tuple(fc.integer({ min: -10, max: 50 }), fc.integer({ min: -10, max: 50 }));
const count = fc.oneof(fc.constant(INF), fc.integer({ min: 0, max: 130 }));
const reach = fc.oneof(fc.constant(INF), fc.integer({ min: 0, max: 30 }));

function itemOf([x, y, w, h]: [number, number, number, number], id: number, box: boolean): Item {
  return box ? { id, x, y, width: w, height: h } : { id, x, y, width: 0, height: 0 };
}

function itemsOf(raw: [number, number, number, number][], boxes: boolean): Item[] {
  return raw.map((r, id) => itemOf(r, id, boxes));
}

describe('planar nearest kernels', () => {
  it('StaticQuadtree nearest(x, y, k, maxDistance, filter) over boxes, points, or both equals brute force for node sizes 2 to 64', () => {
    fc.assert(
      fc.property(
        lattice,
        fc.constantFrom('boxes', 'points', 'mixed'),
        fc.constantFrom(2, 3, 5, 16, 64),
        query,
        count,
        reach,
        fc.integer({ min: 1, max: 4 }),
        (raw, shape, nodeSize, [x, y], k, maxDistance, mod) => {
          const items = raw.map((r, id) =>
            itemOf(r, id, shape === 'boxes' || (shape === 'mixed' && id % 2 === 0)),
          );
          const tree = StaticQuadtree.from(items, { nodeSize });
          const boxes = boxesOf(items, (it) => it);
          for (let pass = 0; pass < 2; pass++) {
            expect(
              checkNearest(tree.nearest(x, y, k, maxDistance), boxes, x, y, k, maxDistance),
            ).toBe(null);
          }
          const keep = (it: Item) => it.id % mod === 0;
          const kept = boxes.filter((b) => keep(b.item));
          const got = tree.nearest(x, y, k, maxDistance, keep);
          expect(checkNearest(got, kept, x, y, k, maxDistance)).toBe(null);
        },
      ),
      { seed: 4242, numRuns: 300 },
    );
  });

  it('PointQuadtree and Quadtree nearest(x, y, k, maxDistance, filter) equal brute force on duplicates, items outside the bounds and k past the size', () => {
    fc.assert(
      fc.property(
        lattice,
        fc.integer({ min: 1, max: 8 }),
        query,
        count,
        reach,
        fc.integer({ min: 1, max: 4 }),
        (raw, bucket, [x, y], k, maxDistance, mod) => {
          const points = itemsOf(raw, false);
          const boxes = itemsOf(raw, true);
          const trees: [PointQuadtree<Item> | Quadtree<Item>, Item[]][] = [
            [PointQuadtree.from(points, { bounds: BOUNDS, bucketSize: bucket }), points],
            [Quadtree.from(boxes, { bounds: BOUNDS, maxObjects: bucket }), boxes],
            [Quadtree.from(boxes, { bounds: BOUNDS, maxObjects: bucket, looseness: 2 }), boxes],
          ];
          for (const [tree, items] of trees) {
            const all = boxesOf(items, (it) => it);
            for (let pass = 0; pass < 2; pass++) {
              const got = tree.nearest(x, y, k, maxDistance);
              expect(checkNearest(got, all, x, y, k, maxDistance)).toBe(null);
            }
            const keep = (it: Item) => it.id % mod === 0;
            const got = tree.nearest(x, y, k, maxDistance, keep);
            const kept = all.filter((b) => keep(b.item));
            expect(checkNearest(got, kept, x, y, k, maxDistance)).toBe(null);
          }
        },
      ),
      { seed: 4343, numRuns: 200 },
    );
  });

  it('nearest on 0 and 1 items, and on one point repeated, answers all of them in insertion order', () => {
    const one = [{ id: 0, x: 3, y: 4, width: 0, height: 0 }];
    const same = Array.from({ length: 40 }, (_, id) => ({ id, x: 7, y: 7, width: 0, height: 0 }));
    for (const items of [[], one, same]) {
      const trees = [
        StaticQuadtree.from(items, { nodeSize: 4 }),
        PointQuadtree.from(items, { bounds: BOUNDS, bucketSize: 2 }),
        Quadtree.from(items, { bounds: BOUNDS, maxObjects: 2 }),
      ];
      for (const tree of trees) {
        expect(tree.nearest(0, 0, INF)).toEqual(items);
        expect(tree.nearest(0, 0, 3)).toEqual(items.slice(0, 3));
        expect(tree.nearest(0, 0, 5, 1)).toEqual([]);
      }
    }
  });
});
