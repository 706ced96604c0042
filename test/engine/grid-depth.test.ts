// GridLooseQuadtree without a `depth` option chooses its depth from the items (src/engine/
// grid-depth.ts): these tests check that the chosen depths answer exactly on scenes like those of
// the depth sweep in bench/workloads/depth.js (scaled down), that the depth is chosen again when
// the items' count or sizes drift (each time the count doubles or falls below a quarter), that an
// empty index reads the depth of a new one, and that a pinned depth never changes.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GRID_DEPTH, GridLooseQuadtree } from '../../src/index.js';
import {
  boxesOf,
  bruteNearest,
  brutePairs,
  bruteSearch,
  mulberry32,
  type Rng,
  randFloat,
  sameItems,
  samePairs,
} from '../oracle.js';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  vx: number;
  vy: number;
}

interface SceneSpec {
  name: string;
  width: number;
  height: number;
  count: number;
  /** Box sides, as fractions of the world's larger side. */
  minSize: number;
  maxSize: number;
  clustered: boolean;
  /** Speed per frame, as a fraction of the world's larger side. */
  speed: number;
}

// The kinds of scene of the sweep: world aspects, sizes from tiny to 5% of the world, uniform
// and clustered, slow and fast movers, and the demo's moving scene (1500 x 1000, boxes sized
// for a fixed coverage).
const SCENES: SceneSpec[] = [
  {
    name: 'square, tiny, slow',
    width: 1000,
    height: 1000,
    count: 2000,
    minSize: 1e-4,
    maxSize: 5e-4,
    clustered: false,
    speed: 2e-4,
  },
  {
    name: 'square, 5% of the world',
    width: 1000,
    height: 1000,
    count: 300,
    minSize: 0.01,
    maxSize: 0.05,
    clustered: false,
    speed: 0.005,
  },
  {
    name: 'wide (16:1), small, fast',
    width: 4000,
    height: 250,
    count: 1500,
    minSize: 2e-4,
    maxSize: 1e-3,
    clustered: false,
    speed: 0.005,
  },
  {
    name: 'tall (1:8), clustered',
    width: 200,
    height: 1600,
    count: 2000,
    minSize: 5e-4,
    maxSize: 4e-3,
    clustered: true,
    speed: 1e-3,
  },
  {
    name: 'the demo scene (1500 x 1000, 25% coverage)',
    width: 1500,
    height: 1000,
    count: 2000,
    minSize: 0.0065,
    maxSize: 0.0195,
    clustered: false,
    speed: 0.0018,
  },
  {
    name: 'mixed sizes, clustered',
    width: 2000,
    height: 2000,
    count: 1500,
    minSize: 2.5e-4,
    maxSize: 0.05,
    clustered: true,
    speed: 5e-4,
  },
];

function makeScene(spec: SceneSpec, rng: Rng): Box[] {
  const side = Math.max(spec.width, spec.height);
  const centres = Array.from({ length: 8 }, () => [
    randFloat(rng, 0, spec.width),
    randFloat(rng, 0, spec.height),
  ]);
  return Array.from({ length: spec.count }, (_, i) => {
    const width = randFloat(rng, spec.minSize, spec.maxSize) * side;
    const height = randFloat(rng, spec.minSize, spec.maxSize) * side;
    let x = randFloat(rng, 0, spec.width - width);
    let y = randFloat(rng, 0, spec.height - height);
    if (spec.clustered) {
      const [cx, cy] = centres[i % centres.length]!;
      x = Math.min(Math.max(cx! + randFloat(rng, -0.05, 0.05) * spec.width, 0), spec.width - width);
      y = Math.min(
        Math.max(cy! + randFloat(rng, -0.05, 0.05) * spec.height, 0),
        spec.height - height,
      );
    }
    const angle = randFloat(rng, 0, 2 * Math.PI);
    const speed = randFloat(rng, 0, spec.speed) * side;
    return { x, y, width, height, vx: Math.cos(angle) * speed, vy: Math.sin(angle) * speed };
  });
}

function step(boxes: Box[], spec: SceneSpec): void {
  for (const b of boxes) {
    b.x += b.vx;
    b.y += b.vy;
    if (b.x < 0 || b.x + b.width > spec.width) {
      b.vx = -b.vx;
      b.x = Math.min(Math.max(b.x, 0), spec.width - b.width);
    }
    if (b.y < 0 || b.y + b.height > spec.height) {
      b.vy = -b.vy;
      b.y = Math.min(Math.max(b.y, 0), spec.height - b.height);
    }
  }
}

// Pairs, a few windows and a few nearest queries against brute force (with `pairCount`, the
// pairs by their number only: scenes where nearly every box overlaps every other).
function expectExact(
  tree: GridLooseQuadtree<Box>,
  boxes: Box[],
  rng: Rng,
  what: string,
  pairCount = false,
): void {
  const oracle = boxesOf(boxes);
  const pairs: [Box, Box][] = [];
  tree.pairs((a, b) => pairs.push([a, b]));
  if (pairCount) expect(pairs.length, `${what}: pairs`).toBe(brutePairs(oracle).length);
  else expect(samePairs(pairs, brutePairs(oracle)), `${what}: pairs`).toBeNull();
  const side = Math.max(tree.bounds.width, tree.bounds.height);
  for (let q = 0; q < 10; q++) {
    const r = {
      x: randFloat(rng, -0.1, 1) * side,
      y: randFloat(rng, -0.1, 1) * side,
      width: randFloat(rng, 0, 0.2) * side,
      height: randFloat(rng, 0, 0.2) * side,
    };
    expect(sameItems(tree.search(r), bruteSearch(oracle, r)), `${what}: search`).toBeNull();
    const x = randFloat(rng, 0, side);
    const y = randFloat(rng, 0, side);
    const got = tree.nearest(x, y, 5);
    const want = bruteNearest(oracle, x, y, 5);
    expect(got.length, `${what}: nearest`).toBe(want.length);
    // Equal distances may come in another order: compare the distances.
    const dist = (b: Box): number =>
      Math.hypot(Math.max(b.x - x, 0, x - b.x - b.width), Math.max(b.y - y, 0, y - b.y - b.height));
    expect(got.map(dist), `${what}: nearest`).toEqual(want.map(dist));
  }
}

describe('GridLooseQuadtree chooses its depth from the items', () => {
  for (const spec of SCENES) {
    it(`answers like brute force at the depth it chooses: ${spec.name}`, () => {
      const rng = mulberry32(spec.count + spec.width);
      const boxes = makeScene(spec, rng);
      const bounds = { x: 0, y: 0, width: spec.width, height: spec.height };
      const tree = new GridLooseQuadtree<Box>({ bounds }).load(boxes);
      expect(tree.depth).toBeGreaterThanOrEqual(0);
      expect(tree.depth).toBeLessThanOrEqual(10);
      expectExact(tree, boxes, rng, `${spec.name}, loaded at depth ${tree.depth}`);
      for (let f = 0; f < 20; f++) {
        step(boxes, spec);
        if (f % 2 === 0) tree.updateAll();
        else for (const b of boxes) tree.update(b);
      }
      expectExact(tree, boxes, rng, `${spec.name}, after 20 frames at depth ${tree.depth}`);
    });
  }

  it('chooses a coarser depth for fewer or larger items, and a finer one for more or smaller', () => {
    const bounds = { x: 0, y: 0, width: 1000, height: 1000 };
    const depthFor = (count: number, size: number): number => {
      const rng = mulberry32(count);
      const boxes = Array.from({ length: count }, () => ({
        x: randFloat(rng, 0, 990),
        y: randFloat(rng, 0, 990),
        width: size,
        height: size,
      }));
      return new GridLooseQuadtree({ bounds }).load(boxes).depth;
    };
    expect(depthFor(100, 1)).toBeLessThan(depthFor(20_000, 1));
    expect(depthFor(20_000, 1)).toBeGreaterThan(depthFor(20_000, 200));
    expect(depthFor(1, 1)).toBeLessThanOrEqual(1);
  });

  it('chooses again when the sizes drift (updateAll and update), and stays exact', () => {
    for (const byOne of [false, true]) {
      const rng = mulberry32(byOne ? 5 : 6);
      const bounds = { x: 0, y: 0, width: 1000, height: 1000 };
      // 1000 small boxes in a 50 x 50 corner of the world: a fine grid.
      const sized = (size: number) => (b: Box) => {
        b.width = size;
        b.height = size;
      };
      const boxes = Array.from({ length: 1000 }, () => ({
        x: randFloat(rng, 400, 450),
        y: randFloat(rng, 400, 450),
        width: 0.1,
        height: 0.1,
        vx: 0,
        vy: 0,
      }));
      const tree = new GridLooseQuadtree<Box>({ bounds }).load(boxes);
      const before = tree.depth;
      const frames = (size: number): void => {
        for (let f = 0; f < 2; f++) {
          boxes.forEach(sized(size));
          if (byOne) for (const b of boxes) tree.update(b);
          else tree.updateAll();
        }
      };
      // The boxes grow 1000-fold: the finest cells are now far smaller than any box.
      frames(100);
      expect(tree.depth).toBeLessThan(before);
      expectExact(tree, boxes, rng, `grown boxes, depth ${before} -> ${tree.depth}`, true);
      // And back to small: finer again.
      const grown = tree.depth;
      frames(0.1);
      expect(tree.depth).toBeGreaterThan(grown);
      expectExact(tree, boxes, rng, `shrunk boxes, depth ${grown} -> ${tree.depth}`);
    }
  });

  it('chooses again as the count grows by inserts and falls by removals, and stays exact', () => {
    const rng = mulberry32(8);
    const bounds = { x: 0, y: 0, width: 1000, height: 1000 };
    const tree = new GridLooseQuadtree<Box>({ bounds });
    const boxes: Box[] = [];
    for (let i = 0; i < 4000; i++) {
      const b = {
        x: randFloat(rng, 0, 200),
        y: randFloat(rng, 0, 200),
        width: 0.5,
        height: 0.5,
        vx: 0,
        vy: 0,
      };
      boxes.push(b);
      tree.insert(b);
      if (i === 20) expect(tree.depth).toBeLessThan(4);
    }
    const grown = tree.depth;
    expect(grown).toBeGreaterThanOrEqual(4);
    expectExact(tree, boxes, rng, `4000 inserted one by one, depth ${grown}`);
    while (boxes.length > 30) tree.remove(boxes.pop()!);
    expect(tree.depth).toBeLessThan(grown);
    expectExact(tree, boxes, rng, `after removals, depth ${tree.depth}`);
  });

  it('keeps a pinned depth whatever the items do', () => {
    const rng = mulberry32(9);
    const bounds = { x: 0, y: 0, width: 1000, height: 1000 };
    const boxes = Array.from({ length: 3000 }, () => ({
      x: randFloat(rng, 0, 900),
      y: randFloat(rng, 0, 900),
      width: 0.5,
      height: 0.5,
      vx: 0,
      vy: 0,
    }));
    const tree = new GridLooseQuadtree<Box>({ bounds, depth: 2 }).load(boxes);
    expect(tree.depth).toBe(2);
    for (const b of boxes) b.width = b.height = 100;
    tree.updateAll();
    for (const b of boxes) tree.update(b);
    for (let i = 0; i < 2900; i++) tree.remove(boxes.pop()!);
    expect(tree.depth).toBe(2);
    expectExact(tree, boxes, rng, 'pinned depth 2');
  });
});

describe('GridLooseQuadtree depth: the rule of the README', () => {
  const bounds = { x: 0, y: 0, width: 1000, height: 1000 };
  type Rect = { x: number; y: number; width: number; height: number };
  const boxArb = fc.record({
    x: fc.integer({ min: 0, max: 999 }),
    y: fc.integer({ min: 0, max: 999 }),
    width: fc.constantFrom(0, 0.5, 2, 10, 60, 300),
    height: fc.constantFrom(0, 0.5, 2, 10, 60, 300),
  });
  const loadedDepth = (boxes: readonly Rect[]): number =>
    new GridLooseQuadtree<Rect>({ bounds }).load(boxes).depth;

  it('chooses again each time inserts double the count since the last choice', () => {
    fc.assert(
      fc.property(
        fc.array(boxArb, { minLength: 1, maxLength: 150 }),
        fc.integer({ min: 0, max: 20 }),
        (boxes, loaded) => {
          const first = Math.min(loaded, boxes.length);
          const tree = new GridLooseQuadtree<Rect>({ bounds }).load(boxes.slice(0, first));
          // The last choice: at load (of a non-empty list), else at the first insert.
          let chosenAt = first;
          if (first > 0) expect(tree.depth).toBe(loadedDepth(boxes.slice(0, first)));
          for (let n = first + 1; n <= boxes.length; n++) {
            tree.insert(boxes[n - 1]!);
            if (chosenAt === 0 || n === 2 * chosenAt) chosenAt = n;
            // A choice depends only on the items it samples (all of them here, in slot order):
            // the depth a load of the items present at the last choice picks.
            expect(tree.depth, `${n} items, chosen at ${chosenAt}`).toBe(
              loadedDepth(boxes.slice(0, chosenAt)),
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads the depth of a new index once empty (new, cleared, or emptied by removals), and refills as one', () => {
    fc.assert(
      fc.property(
        fc.array(boxArb, { minLength: 1, maxLength: 120 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 40 }),
        (boxes, byClear, refill) => {
          const fresh = new GridLooseQuadtree<Rect>({ bounds });
          expect(fresh.depth).toBe(DEFAULT_GRID_DEPTH);
          const tree = new GridLooseQuadtree<Rect>({ bounds }).load(boxes);
          if (byClear) tree.clear();
          else for (const b of boxes) tree.remove(b);
          expect(tree.size).toBe(0);
          expect(tree.depth).toBe(DEFAULT_GRID_DEPTH);
          expect(tree.toJSON()).toEqual(fresh.toJSON());
          // The next items choose the depth as they would in the new index.
          const again = boxes.slice(0, refill);
          for (const b of again) {
            tree.insert(b);
            fresh.insert(b);
            expect(tree.depth).toBe(fresh.depth);
          }
          expect(tree.toJSON()).toEqual(fresh.toJSON());
          tree.clear();
          expect(tree.load(again).depth).toBe(loadedDepth(again));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('an index emptied by removals refills as a new one (the slots the depth sample reads too)', () => {
    // Found by the property above: the refilled items took the freed slots in reverse, so the
    // sample of the choice at 8 items read other items than a new index's.
    const at = (x: number, y: number, width: number, height: number): Rect => ({
      x,
      y,
      width,
      height,
    });
    const boxes = [
      ...Array.from({ length: 3 }, () => at(0, 0, 0, 0)),
      at(0, 0, 0, 300),
      ...Array.from({ length: 3 }, () => at(0, 0, 0, 0)),
      at(0, 0, 300, 0),
      ...Array.from({ length: 3 }, () => at(0, 0, 0, 0)),
    ];
    const tree = new GridLooseQuadtree<Rect>({ bounds }).load(boxes);
    for (const b of boxes) tree.remove(b);
    const fresh = new GridLooseQuadtree<Rect>({ bounds });
    for (const b of boxes.slice(0, 8)) {
      tree.insert(b);
      fresh.insert(b);
      expect(tree.depth).toBe(fresh.depth);
    }
    expect(tree.toJSON()).toEqual(fresh.toJSON());
  });

  it('keeps a pinned depth through clear() and removals', () => {
    const tree = new GridLooseQuadtree({ bounds, depth: 3 }).load([{ x: 1, y: 1 }]);
    tree.clear();
    expect(tree.depth).toBe(3);
    expect(tree.toJSON()).toEqual(new GridLooseQuadtree({ bounds, depth: 3 }).toJSON());
  });
});
