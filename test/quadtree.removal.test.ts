// Removal leaves the tree a fresh build of its items would make: after inserts and removes (all of
// them, or any subset), a Quadtree's summary and the nodes `visit` reports equal those of a tree
// built from the remaining items, and every query still equals the brute-force model.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PointQuadtree, Quadtree } from '../src/index.js';
import { checkQueries, type Labelled, type Probe } from './dynamic-checks.js';
import { BruteIndex, recordVisit } from './oracle.js';

interface Item extends Labelled {
  x: number;
  y: number;
  width: number;
  height: number;
}

const coord = fc.integer({ min: -4, max: 36 });
const size = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 0, max: 3 }),
  fc.integer({ min: 0, max: 20 }),
);
const rectArb = fc.record({ x: coord, y: coord, width: size, height: size });

const configArb = fc.record({
  bounds: fc.constantFrom(
    { x: 0, y: 0, width: 32, height: 32 },
    { x: -8, y: 0, width: 48, height: 24 },
  ),
  maxObjects: fc.integer({ min: 1, max: 4 }),
  maxLevels: fc.constantFrom(0, 1, 3, 6, 10),
  looseness: fc.constantFrom(1, 1.5, 2),
});

const qcoord = fc.integer({ min: -6, max: 40 });
const probeArb: fc.Arbitrary<Probe> = fc.record({
  rect: fc.record({
    x: qcoord,
    y: qcoord,
    width: fc.integer({ min: 0, max: 20 }),
    height: fc.integer({ min: 0, max: 20 }),
  }),
  px: qcoord,
  py: qcoord,
  cx: qcoord,
  cy: qcoord,
  r: fc.constantFrom(0, 1, 2.5, 8),
  x1: qcoord,
  y1: qcoord,
  x2: qcoord,
  y2: qcoord,
  nx: qcoord,
  ny: qcoord,
  k: fc.integer({ min: 0, max: 5 }),
  maxD: fc.constantFrom(Infinity, 0, 3, 10),
  prefill: fc.integer({ min: 0, max: 3 }),
});

/** Which items a removal step takes out: all of them, or those whose flag is set. */
const removalArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant('all' as const) },
  { weight: 3, arbitrary: fc.array(fc.boolean(), { minLength: 120, maxLength: 120 }) },
);

function makeItems(rects: readonly Omit<Item, 'id'>[], from: number): Item[] {
  return rects.map((r, i) => ({ id: from + i, ...r }));
}

/** The summary and the node listing of `visit`, the parts a fresh tree must reproduce. */
function shape(tree: Quadtree<Item> | PointQuadtree<Item>) {
  return {
    summary: tree.toJSON(),
    nodes: recordVisit(tree).map(({ x, y, width, height, depth, count }) => ({
      x,
      y,
      width,
      height,
      depth,
      count,
    })),
  };
}

describe('Quadtree after removals', () => {
  it('equals a tree freshly built from the remaining items, and answers like brute force', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(rectArb, { maxLength: 120 }),
        fc.boolean(),
        removalArb,
        fc.array(rectArb, { maxLength: 30 }),
        removalArb,
        fc.array(probeArb, { minLength: 1, maxLength: 3 }),
        (cfg, rects, oneByOne, first, more, second, probes) => {
          const tree = new Quadtree<Item>(cfg);
          const model = new BruteIndex<Item>();
          const items = makeItems(rects, 0);
          if (oneByOne) {
            for (const it of items) {
              tree.insert(it);
              // A read places each insert on its own (no bulk rebuild).
              tree.searchPoint(it.x, it.y);
            }
          } else {
            tree.load(items);
          }
          for (const it of items) model.set(it);
          const removeSome = (which: 'all' | boolean[]) => {
            const present = model.items();
            present.forEach((it, i) => {
              if (which === 'all' || which[i % which.length]) {
                expect(tree.remove(it)).toBe(true);
                model.delete(it);
              }
            });
          };
          const compare = () => {
            const fresh = new Quadtree<Item>(cfg).load(model.items());
            expect(shape(tree)).toEqual(shape(fresh));
            for (const p of probes) checkQueries(tree, model, p);
          };
          removeSome(first);
          compare();
          // Inserts after removals, then removals again.
          for (const it of makeItems(more, items.length)) {
            tree.insert(it);
            model.set(it);
          }
          removeSome(second);
          compare();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is, once emptied, a fresh tree: one node at depth 0', () => {
    for (const looseness of [1, 2]) {
      const bounds = { x: 0, y: 0, width: 100, height: 100 };
      const options = { bounds, maxObjects: 4, maxLevels: 4, looseness };
      const items = makeItems(
        Array.from({ length: 100 }, (_, i) => ({
          x: (i * 37) % 100,
          y: (i * 61) % 100,
          width: 1,
          height: 1,
        })),
        0,
      );
      const tree = new Quadtree<Item>(options).load(items);
      expect(tree.toJSON().nodes).toBeGreaterThan(1);
      for (const it of items) tree.remove(it);
      expect(tree.toJSON()).toEqual(new Quadtree<Item>(options).toJSON());
      expect(shape(tree).nodes).toEqual([{ ...bounds, depth: 0, count: 0 }]);
      // And it grows again as a fresh tree does.
      tree.load(items.slice(0, 50));
      expect(shape(tree)).toEqual(shape(new Quadtree<Item>(options).load(items.slice(0, 50))));
    }
  });
});

describe('PointQuadtree after removals', () => {
  it('equals a tree freshly built from the remaining points', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ x: fc.integer({ min: 0, max: 31 }), y: fc.integer({ min: 0, max: 31 }) }),
          {
            maxLength: 100,
          },
        ),
        removalArb,
        (points, which) => {
          const options = { bounds: { x: 0, y: 0, width: 32, height: 32 }, bucketSize: 2 };
          const items = makeItems(
            points.map((p) => ({ ...p, width: 0, height: 0 })),
            0,
          );
          const tree = PointQuadtree.from(items, options);
          const left = items.filter((_, i) => which !== 'all' && which[i]!);
          for (const it of items) if (!left.includes(it)) tree.remove(it);
          expect(shape(tree)).toEqual(shape(PointQuadtree.from(left, options)));
        },
      ),
      { numRuns: 100 },
    );
  });
});
