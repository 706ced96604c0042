// The best-first nearest kernel of the static tree over points keys its nodes by squared
// distances: checked against the brute-force ranking where squares of the coordinates' scale
// underflow or overflow, and with queries on an item (the k-th best at distance 0). Over items,
// the tree answers leaf positions and orders ties by item index: checked against the same boxes
// by index on a lattice full of ties.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { squaredCut } from '../../src/engine/scan-points.js';
import { StaticQuadtree } from '../../src/index.js';
import { boxesOf, checkNearest, distanceToBox } from '../oracle.js';

const INF = Number.POSITIVE_INFINITY;
// Scales whose squared distances are subnormal (1e-160, 1e-300), normal (1), or overflow (1e160,
// 1e300).
const SCALES = [1e-300, 1e-160, 1, 1e160, 1e300];

describe('StaticQuadtree nearest over points', () => {
  it('nearest(x, y, k, maxDistance) equals brute force at scales where squared distances underflow or overflow', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SCALES),
        fc.array(fc.tuple(fc.integer({ min: -40, max: 40 }), fc.integer({ min: -40, max: 40 })), {
          maxLength: 50,
        }),
        fc.integer({ min: 2, max: 5 }),
        fc.option(fc.nat(), { nil: undefined }),
        fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: -50, max: 50 })),
        fc.oneof(fc.constant(INF), fc.integer({ min: 0, max: 60 })),
        fc.oneof(fc.constant(INF), fc.integer({ min: 0, max: 60 })),
        (scale, raw, nodeSize, onItem, [qx, qy], k, maxSteps) => {
          const flat = raw.flatMap(([x, y]) => [x * scale, y * scale]);
          const tree = StaticQuadtree.fromPoints(flat, { nodeSize });
          // Sometimes query exactly at an item: the best is then at distance 0.
          const at = onItem !== undefined && raw.length > 0 ? raw[onItem % raw.length]! : null;
          const x = at === null ? qx * scale : at[0] * scale;
          const y = at === null ? qy * scale : at[1] * scale;
          const maxDistance = maxSteps === INF ? INF : maxSteps * scale * 0.7;
          const boxes = boxesOf(
            raw.map((_, i) => i),
            (i) => ({ x: flat[2 * i]!, y: flat[2 * i + 1]!, width: 0, height: 0 }),
          );
          const got = tree.nearest(x, y, k, maxDistance);
          expect(checkNearest(got, boxes, x, y, k, maxDistance)).toBe(null);
          if (at !== null && k > 0) expect(distanceToBox(boxes[got[0]!]!, x, y)).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('nearest(x, y, k, maxDistance) equals brute force for node sizes from 2 to more than the items, with limits that stop the first descent early', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 999 })), {
          minLength: 1,
          maxLength: 400,
        }),
        fc.constantFrom(2, 3, 7, 16, 64, 1000),
        fc.tuple(fc.integer({ min: -100, max: 1100 }), fc.integer({ min: -100, max: 1100 })),
        fc.oneof(fc.constant(INF), fc.integer({ min: 1, max: 12 })),
        fc.oneof(fc.constant(INF), fc.integer({ min: 0, max: 300 })),
        (raw, nodeSize, [x, y], k, maxDistance) => {
          const flat = raw.flat();
          const tree = StaticQuadtree.fromPoints(flat, { nodeSize });
          const boxes = boxesOf(
            raw.map((_, i) => i),
            (i) => ({ x: flat[2 * i]!, y: flat[2 * i + 1]!, width: 0, height: 0 }),
          );
          // Twice: the second search reuses the first one's scratch.
          for (let pass = 0; pass < 2; pass++) {
            const got = tree.nearest(x, y, k, maxDistance);
            expect(checkNearest(got, boxes, x, y, k, maxDistance)).toBe(null);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('squaredCut(w) is never below the square of w, nor below 1e-280, and is Infinity for Infinity', () => {
    for (const w of [0, 1e-300, 1e-160, 1e-140, 1, 3, 1e150, 1e154, 1e155, 1e300]) {
      const cut = squaredCut(w);
      expect(cut).toBeGreaterThanOrEqual(1e-280);
      expect(cut).toBeGreaterThanOrEqual(w * w);
    }
    expect(squaredCut(INF)).toBe(INF);
    expect(squaredCut(1e200)).toBe(INF);
  });
});

describe('StaticQuadtree nearest over items', () => {
  it('from(items) answers nearest, nearestInto and raycastAll with the items fromBoxes answers by index, ties in input order, on points and boxes of a small lattice (many ties)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 6 }),
            fc.integer({ min: 0, max: 6 }),
            fc.integer({ min: 0, max: 2 }),
            fc.integer({ min: 0, max: 2 }),
          ),
          { maxLength: 80 },
        ),
        fc.boolean(),
        fc.integer({ min: 2, max: 8 }),
        fc.tuple(fc.integer({ min: -2, max: 8 }), fc.integer({ min: -2, max: 8 })),
        fc.integer({ min: 0, max: 90 }),
        (raw, points, nodeSize, [qx, qy], k) => {
          type Item = { id: number; x: number; y: number; width?: number; height?: number };
          const items = raw.map(
            ([x, y, w, h], id): Item => (points ? { id, x, y } : { id, x, y, width: w, height: h }),
          );
          const flat = raw.flatMap(([x, y, w, h]) =>
            points ? [x, y, x, y] : [x, y, x + w, y + h],
          );
          const byItem = StaticQuadtree.from(items, { nodeSize });
          const byIndex = StaticQuadtree.fromBoxes(flat, { nodeSize });
          const ids = (found: readonly { id: number }[]) => found.map((it) => it.id);
          expect(ids(byItem.nearest(qx, qy, k))).toEqual(byIndex.nearest(qx, qy, k));
          expect(ids(byItem.nearest(qx, qy, INF, 3))).toEqual(byIndex.nearest(qx, qy, INF, 3));
          const out: Item[] = [];
          const n = byItem.nearestInto(qx, qy, k, INF, out);
          expect(ids(out.slice(0, n))).toEqual(byIndex.nearest(qx, qy, k));
          const hits = byItem.raycastAll(qx - 10, qy - 0.5, qx + 10, qy + 0.5);
          const want = byIndex.raycastAll(qx - 10, qy - 0.5, qx + 10, qy + 0.5);
          expect(hits.map((h) => h.item.id)).toEqual(want.map((h) => h.item));
          expect(byItem.all()).toEqual(items);
        },
      ),
      { numRuns: 300 },
    );
  });
});
