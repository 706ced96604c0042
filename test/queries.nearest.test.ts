// nearest with k = Infinity, nearestWithDistances and nearestInto's distances on every index
// that has nearest, against the brute-force ranking of test/oracle.ts: random items (duplicates,
// coincident points, items outside the bounds, removals), random query points, k from 0 past the
// size and Infinity, finite and infinite maxDistance; plus fixtures and bad k.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GridLooseQuadtree,
  InvalidTypeError,
  InvalidValueError,
  PointQuadtree,
  Quadtree,
  type QueryIndex,
  type Rect,
  StaticQuadtree,
} from '../src/index.js';
import { type Box, boxesOf, callInto, checkNearest, distanceToBox } from './oracle.js';

/** An item: its id and its bounds. */
type Item = { id: number } & Rect;

const BOUNDS = { x: 0, y: 0, width: 64, height: 64 };
const INF = Number.POSITIVE_INFINITY;

/** The nearest forms every index shares. */
type Nearby<T> = Pick<QueryIndex<T>, 'nearest' | 'nearestWithDistances' | 'nearestInto'>;

/** An index over the items, and the boxes the oracle ranks (items, or their indices). */
interface Built<T> {
  index: Nearby<T>;
  boxes: Box<T>[];
}

const KINDS: { name: string; points: boolean; build(items: Item[]): Built<unknown> }[] = [
  {
    name: 'Quadtree',
    points: false,
    build(items) {
      // Insert then remove a few, so that slots are reused and answers skip freed ones.
      const tree = new Quadtree({ bounds: BOUNDS, maxObjects: 2 });
      const extra = items.map((it) => ({ ...it }));
      tree.load(extra);
      for (const it of extra) tree.remove(it);
      tree.load(items);
      return { index: tree, boxes: boxesOf<unknown>(items as unknown[], (it) => it as Item) };
    },
  },
  {
    name: 'loose Quadtree',
    points: false,
    build: (items) => ({
      index: Quadtree.from(items, { bounds: BOUNDS, maxObjects: 2, looseness: 2 }),
      boxes: boxesOf<unknown>(items as unknown[], (it) => it as Item),
    }),
  },
  {
    name: 'GridLooseQuadtree',
    points: false,
    build: (items) => ({
      index: GridLooseQuadtree.from(items, { bounds: BOUNDS, depth: 3 }),
      boxes: boxesOf<unknown>(items as unknown[], (it) => it as Item),
    }),
  },
  {
    name: 'PointQuadtree',
    points: true,
    build: (items) => ({
      index: PointQuadtree.from(items, { bounds: BOUNDS, bucketSize: 2 }),
      boxes: boxesOf<unknown>(items as unknown[], (it) => ({
        x: (it as Item).x,
        y: (it as Item).y,
      })),
    }),
  },
  {
    name: 'StaticQuadtree.from',
    points: false,
    build: (items) => ({
      index: StaticQuadtree.from(items, { nodeSize: 4 }),
      boxes: boxesOf<unknown>(items as unknown[], (it) => it as Item),
    }),
  },
  {
    name: 'StaticQuadtree.fromBoxes',
    points: false,
    build(items) {
      const raw = items.flatMap((it) => [it.x, it.y, it.x + it.width, it.y + it.height]);
      return {
        index: StaticQuadtree.fromBoxes(raw, { nodeSize: 4 }),
        boxes: boxesOf<unknown>(
          items.map((_, i) => i),
          (i) => items[i as number]!,
        ),
      };
    },
  },
];

/** Checks every nearest form at one query; returns what is wrong, or null. */
function checkAll<T>(
  { index, boxes }: Built<T>,
  x: number,
  y: number,
  k: number,
  maxDistance: number,
): string | null {
  const items = index.nearest(x, y, k, maxDistance);
  const wrong = checkNearest(items, boxes, x, y, k, maxDistance, (it) => JSON.stringify(it));
  if (wrong !== null) return `nearest: ${wrong}`;
  const byItem = new Map(boxes.map((b) => [b.item, b]));
  // nearestWithDistances: the same items in the same order, each with its distance.
  const hits = index.nearestWithDistances(x, y, k, maxDistance);
  if (hits.length !== items.length) return `nearestWithDistances gave ${hits.length} hits`;
  for (let i = 0; i < hits.length; i++) {
    const { item, distance } = hits[i]!;
    if (item !== items[i]) return `nearestWithDistances[${i}] is not nearest()[${i}]`;
    const d = distanceToBox(byItem.get(item)!, x, y);
    if (distance !== d) return `nearestWithDistances[${i}].distance ${distance}, expected ${d}`;
  }
  // nearestInto, with and without distances; entries past the count are left alone.
  const distances = new Array<number>(items.length + 2).fill(-1);
  const into = callInto<T>(
    (out) => index.nearestInto(x, y, k, maxDistance, out, distances),
    items.length + 2,
  );
  if (into.error !== null) return `nearestInto: ${into.error}`;
  for (let i = 0; i < items.length; i++) {
    if (into.items[i] !== items[i]) return `nearestInto out[${i}] is not nearest()[${i}]`;
    if (distances[i] !== hits[i]!.distance) return `nearestInto distances[${i}] is wrong`;
  }
  if (distances[items.length] !== -1) return 'nearestInto wrote past the count in distances';
  const plain = callInto<T>((out) => index.nearestInto(x, y, k, maxDistance, out), 1);
  if (plain.error !== null || plain.items.length !== items.length)
    return 'nearestInto(no distances)';
  return null;
}

const coordinate = fc.integer({ min: -8, max: 72 }).map((v) => v / 2);
const itemArb = fc.record({
  x: coordinate,
  y: coordinate,
  width: fc.integer({ min: 0, max: 12 }),
  height: fc.integer({ min: 0, max: 12 }),
});

describe.each(KINDS)('$name', ({ points, build }) => {
  it('nearest(x, y, k, maxDistance) with k = Infinity gives every item within maxDistance, sorted, and the distances forms agree, against brute force', () => {
    fc.assert(
      fc.property(
        fc.array(itemArb, { maxLength: 60 }),
        coordinate,
        coordinate,
        fc.oneof(fc.constant(INF), fc.integer({ min: 0, max: 70 })),
        fc.oneof(
          fc.constant(INF),
          fc.integer({ min: 0, max: 40 }).map((v) => v / 2),
        ),
        (raw, x, y, k, maxDistance) => {
          const items = raw.map((r, id) => ({
            id,
            ...r,
            ...(points ? { width: 0, height: 0 } : {}),
          }));
          const built = build(items);
          expect(checkAll(built, x, y, k, maxDistance)).toBe(null);
          if (k === INF) {
            const within = built.boxes.filter((b) => distanceToBox(b, x, y) <= maxDistance);
            expect(built.index.nearest(x, y, k, maxDistance)).toHaveLength(within.length);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('nearest(x, y, Infinity) on 0 and 1 items, and on one repeated point, lists all with their distances', () => {
    expect(build([]).index.nearest(1, 1, INF)).toEqual([]);
    expect(build([]).index.nearestWithDistances(1, 1, INF, 3)).toEqual([]);
    const one = build([{ id: 0, x: 5, y: 5, width: 0, height: 0 }]);
    expect(one.index.nearestWithDistances(2, 1, INF)).toEqual([
      { item: one.boxes[0]!.item, distance: 5 },
    ]);
    expect(one.index.nearestWithDistances(2, 1, INF, 4.5)).toEqual([]);
    const same = Array.from({ length: 40 }, (_, id) => ({ id, x: 3, y: 4, width: 0, height: 0 }));
    const built = build(same);
    const hits = built.index.nearestWithDistances(0, 0, INF, 5);
    expect(hits.map((h) => h.distance)).toEqual(same.map(() => 5));
    expect(new Set(hits.map((h) => h.item))).toEqual(new Set(built.boxes.map((b) => b.item)));
    expect(hits.map((h) => h.item)).toEqual(built.index.nearest(0, 0, INF, 5));
  });

  it('nearest refuses a k that is negative, fractional, NaN, -Infinity or not a number', () => {
    const { index } = build([{ id: 0, x: 1, y: 1, width: 1, height: 1 }]);
    for (const k of [-1, 1.5, Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(() => index.nearest(0, 0, k)).toThrow(InvalidValueError);
      expect(() => index.nearestWithDistances(0, 0, k)).toThrow(
        /k must be an integer >= 0, or Infinity/,
      );
      expect(() => index.nearestInto(0, 0, k, INF, [], [])).toThrow(RangeError);
    }
    expect(() => index.nearest(0, 0, '2' as never)).toThrow(InvalidTypeError);
    expect(() => index.nearestWithDistances(0, 0, 1, -1)).toThrow(InvalidValueError);
  });
});
