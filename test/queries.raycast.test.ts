// raycast / raycastAll / raycastInto on every index against a brute-force scan: the hit set is
// decided by the oracle's exact segment test, distances by an independent Liang–Barsky clip, over
// random dynamic sequences (with items outside the bounds, removals and moves), static trees and
// point trees, plus fixtures for ties, zero-length rays, rays starting inside items and bad input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GridLooseQuadtree,
  PointQuadtree,
  Quadtree,
  type RayHit,
  type Rect,
  StaticQuadtree,
} from '../src/index.js';
import {
  type Box,
  boxesOf,
  type IdItem as Item,
  intersectsSegment,
  mulberry32,
  type Rng,
  randInt,
} from './oracle.js';

/** The entry parameter of the segment into the closed box (Liang–Barsky), or -1 if it misses. */
function clipEntry(b: Box<unknown>, x1: number, y1: number, x2: number, y2: number): number {
  let lo = 0;
  let hi = 1;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const sides: [number, number][] = [
    [-dx, x1 - b.minX],
    [dx, b.maxX - x1],
    [-dy, y1 - b.minY],
    [dy, b.maxY - y1],
  ];
  for (const [p, q] of sides) {
    if (p === 0) {
      if (q < 0) return -1;
      continue;
    }
    const r = q / p;
    if (p < 0) lo = Math.max(lo, r);
    else hi = Math.min(hi, r);
  }
  return lo <= hi ? lo : -1;
}

/** Every box the segment meets (exact oracle), with its distance along the segment. */
function bruteRay<T>(
  boxes: readonly Box<T>[],
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): Map<T, number> {
  const len = Math.hypot(x2 - x1, y2 - y1);
  const hits = new Map<T, number>();
  for (const b of boxes) {
    if (!intersectsSegment(b, x1, y1, x2, y2)) continue;
    // A hit the float clip calls a miss by a rounding hair is at the clip's nearest parameter.
    const t = Math.max(0, clipEntry(b, x1, y1, x2, y2));
    hits.set(b.item, t * len);
  }
  return hits;
}

const near = (a: number, b: number, scale: number) => Math.abs(a - b) <= 1e-9 * (1 + scale);

interface RayIndex<T> {
  raycast(x1: number, y1: number, x2: number, y2: number): RayHit<T> | null;
  raycastAll(x1: number, y1: number, x2: number, y2: number): RayHit<T>[];
  raycastInto(
    x1: number,
    y1: number,
    x2: number,
    y2: number,
    k: number,
    items: T[],
    distances: Float64Array | number[],
  ): number;
}

/** Checks the three ray cast forms of `index` against brute force for one segment. */
function checkRay<T>(
  index: RayIndex<T>,
  boxes: readonly Box<T>[],
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): void {
  const expected = bruteRay(boxes, x1, y1, x2, y2);
  const scale = Math.hypot(x2 - x1, y2 - y1) + Math.abs(x1) + Math.abs(y1);
  const all = index.raycastAll(x1, y1, x2, y2);
  // The same items, each once, at the right distances, in order of distance.
  expect(all.length).toBe(expected.size);
  expect(new Set(all.map((h) => h.item)).size).toBe(all.length);
  for (let i = 0; i < all.length; i++) {
    const h = all[i]!;
    expect(expected.has(h.item)).toBe(true);
    expect(near(h.distance, expected.get(h.item)!, scale)).toBe(true);
    if (i > 0) expect(h.distance).toBeGreaterThanOrEqual(all[i - 1]!.distance);
  }
  // The first hit is a nearest one.
  const first = index.raycast(x1, y1, x2, y2);
  if (expected.size === 0) {
    expect(first).toBeNull();
  } else {
    const best = Math.min(...expected.values());
    expect(first).not.toBeNull();
    expect(near(first!.distance, best, scale)).toBe(true);
    expect(near(expected.get(first!.item)!, best, scale)).toBe(true);
    expect(first!.item).toBe(all[0]!.item);
  }
  // The allocation-free form agrees with raycastAll on its first k.
  const k = 3;
  const items: T[] = [];
  const distances = new Float64Array(k);
  const n = index.raycastInto(x1, y1, x2, y2, k, items, distances);
  expect(n).toBe(Math.min(k, all.length));
  for (let i = 0; i < n; i++) {
    expect(items[i]).toBe(all[i]!.item);
    expect(distances[i]).toBe(all[i]!.distance);
  }
}

function randomItem(rng: Rng, id: number): Item {
  // Mostly inside [0, 1000), some outside the bounds, some points and lines, integer coordinates
  // so that exact touching happens often.
  const lo = rng() < 0.1 ? -400 : 0;
  const hi = rng() < 0.1 ? 1400 : 1000;
  const x = randInt(rng, lo, hi);
  const y = randInt(rng, lo, hi);
  const r = rng();
  const width = r < 0.15 ? 0 : randInt(rng, 0, r < 0.9 ? 40 : 600);
  const height = r < 0.2 ? 0 : randInt(rng, 0, r < 0.9 ? 40 : 600);
  return { id, x, y, width, height };
}

function randomSegment(rng: Rng): [number, number, number, number] {
  const x1 = randInt(rng, -500, 1500);
  const y1 = randInt(rng, -500, 1500);
  const r = rng();
  // Axis-parallel, zero-length and general segments.
  if (r < 0.15) return [x1, y1, randInt(rng, -500, 1500), y1];
  if (r < 0.3) return [x1, y1, x1, randInt(rng, -500, 1500)];
  if (r < 0.35) return [x1, y1, x1, y1];
  return [x1, y1, randInt(rng, -500, 1500), randInt(rng, -500, 1500)];
}

const BOUNDS: Rect = { x: 0, y: 0, width: 1000, height: 1000 };

type Dynamic = Quadtree<Item> | GridLooseQuadtree<Item>;
const DYNAMIC: [string, () => Dynamic][] = [
  ['Quadtree (classic)', () => new Quadtree<Item>({ bounds: BOUNDS, maxObjects: 4 })],
  ['Quadtree (loose)', () => new Quadtree<Item>({ bounds: BOUNDS, maxObjects: 4, looseness: 2 })],
  ['GridLooseQuadtree', () => new GridLooseQuadtree<Item>({ bounds: BOUNDS, depth: 5 })],
];

describe.each(DYNAMIC)('%s raycast', (_name, make) => {
  it('raycast(x1, y1, x2, y2) returns the nearest item whose bounds the segment meets, and raycastAll every one in order of distance', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 300 }), (seed, count) => {
        const rng = mulberry32(seed);
        const tree = make();
        const items: Item[] = [];
        for (let i = 0; i < count; i++) {
          const it = randomItem(rng, i);
          items.push(it);
          tree.insert(it);
        }
        // Remove some, move some, so that the walk meets emptied and relocated entries.
        for (let i = 0; i < count / 5; i++) {
          const j = randInt(rng, 0, items.length - 1);
          const it = items[j]!;
          if (rng() < 0.5) {
            tree.remove(it);
            items.splice(j, 1);
          } else {
            Object.assign(it, randomItem(rng, it.id));
            tree.update(it);
          }
        }
        const boxes = boxesOf(items);
        for (let q = 0; q < 20; q++) checkRay(tree, boxes, ...randomSegment(rng));
      }),
      { numRuns: 60 },
    );
  });
});

describe('PointQuadtree raycast', () => {
  it('raycast finds the points lying exactly on the segment, nearest first', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 400 }), (seed, count) => {
        const rng = mulberry32(seed);
        const tree = new PointQuadtree<{ x: number; y: number }>({ bounds: BOUNDS, bucketSize: 4 });
        const points: { x: number; y: number }[] = [];
        for (let i = 0; i < count; i++) {
          // A coarse lattice, so that many points lie exactly on the random segments.
          const p = { x: 50 * randInt(rng, -2, 22), y: 50 * randInt(rng, -2, 22) };
          points.push(p);
          tree.insert(p);
        }
        const boxes = boxesOf(points);
        for (let q = 0; q < 20; q++) {
          const s = randomSegment(rng).map((v) => 50 * Math.round(v / 50)) as [
            number,
            number,
            number,
            number,
          ];
          checkRay(tree, boxes, ...s);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('StaticQuadtree raycast', () => {
  it('raycast over a packed tree equals brute force, with items and with item indices', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 2, max: 20 }),
        (seed, count, nodeSize) => {
          const rng = mulberry32(seed);
          const items: Item[] = [];
          for (let i = 0; i < count; i++) items.push(randomItem(rng, i));
          const tree = StaticQuadtree.from(items, { nodeSize });
          const coords = new Float64Array(4 * count);
          items.forEach((it, i) => {
            coords.set([it.x, it.y, it.x + it.width, it.y + it.height], 4 * i);
          });
          const raw = StaticQuadtree.fromBoxes(coords, { nodeSize });
          const boxes = boxesOf(items);
          const indexed = boxes.map((b, i) => ({ ...b, item: i }));
          for (let q = 0; q < 20; q++) {
            const s = randomSegment(rng);
            checkRay(tree, boxes, ...s);
            checkRay(raw, indexed, ...s);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('raycast fixtures', () => {
  const make = () => new Quadtree<Item>({ bounds: BOUNDS, maxObjects: 2 });
  const box = (id: number, x: number, y: number, width: number, height: number): Item => ({
    id,
    x,
    y,
    width,
    height,
  });

  it('raycast returns the distance to the first face the ray crosses', () => {
    const tree = make();
    const a = box(0, 100, 0, 10, 10);
    const b = box(1, 50, 0, 10, 10);
    tree.insert(a);
    tree.insert(b);
    expect(tree.raycast(0, 5, 200, 5)).toEqual({ item: b, distance: 50 });
    expect(tree.raycastAll(0, 5, 200, 5)).toEqual([
      { item: b, distance: 50 },
      { item: a, distance: 100 },
    ]);
    // Backwards, the order flips and the distance is to the far faces.
    expect(tree.raycastAll(200, 5, 0, 5)).toEqual([
      { item: a, distance: 90 },
      { item: b, distance: 140 },
    ]);
  });

  it('raycast starting inside an item hits it at distance 0', () => {
    const tree = make();
    const a = box(0, 0, 0, 100, 100);
    tree.insert(a);
    expect(tree.raycast(50, 50, 500, 500)).toEqual({ item: a, distance: 0 });
  });

  it('raycast counts touching: a segment ending on an edge or grazing a corner hits', () => {
    const tree = make();
    const a = box(0, 10, 10, 10, 10);
    tree.insert(a);
    expect(tree.raycast(0, 15, 10, 15)).toEqual({ item: a, distance: 10 });
    expect(tree.raycast(0, 0, 10, 10)?.item).toBe(a);
    expect(tree.raycast(0, 0, 9.999, 9.999)).toBeNull();
    expect(tree.raycast(0, 10 - 2 ** -40, 30, 10 - 2 ** -40)).toBeNull();
  });

  it('raycast of a zero-length segment hits the items containing the point', () => {
    const tree = make();
    const a = box(0, 10, 10, 10, 10);
    tree.insert(a);
    expect(tree.raycast(15, 20, 15, 20)).toEqual({ item: a, distance: 0 });
    expect(tree.raycast(25, 25, 25, 25)).toBeNull();
  });

  it('raycast among items at equal distance returns the first inserted', () => {
    const tree = make();
    const items = Array.from({ length: 50 }, (_, i) => box(i, 100, 100, 20, 20));
    for (const it of items) tree.insert(it);
    expect(tree.raycast(0, 110, 500, 110)?.item).toBe(items[0]);
    expect(tree.raycastAll(0, 110, 500, 110).map((h) => h.item)).toEqual(items);
  });

  it('raycast finds items outside the bounds', () => {
    const tree = make();
    const far = box(0, 5000, -3000, 10, 10);
    tree.insert(far);
    const hit = tree.raycast(0, 0, 10000, -6000);
    expect(hit?.item).toBe(far);
    expect(hit?.distance).toBeCloseTo(Math.hypot(5000, 3000), 6);
  });

  it('raycast on an empty index returns null and raycastAll an empty array', () => {
    expect(make().raycast(0, 0, 1, 1)).toBeNull();
    expect(make().raycastAll(0, 0, 1, 1)).toEqual([]);
  });

  it('raycast rejects non-finite coordinates and raycastInto a bad k, naming the argument', () => {
    const tree = make();
    expect(() => tree.raycast(Number.NaN, 0, 1, 1)).toThrow(/x1.*NaN/);
    expect(() => tree.raycast(0, 0, Number.POSITIVE_INFINITY, 1)).toThrow(RangeError);
    expect(() => tree.raycastInto(0, 0, 1, 1, -1, [], [])).toThrow(/k/);
    expect(() => tree.raycastInto(0, 0, 1, 1, 1.5, [], [])).toThrow(RangeError);
  });
});
