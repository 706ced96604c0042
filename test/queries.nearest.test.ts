// nearest with k = Infinity, nearestWithDistances and nearestInto's distances on every index
// that has nearest, against the brute-force ranking of test/oracle.ts: random items (duplicates,
// coincident points, items outside the bounds, removals), random query points, k from 0 past the
// size and Infinity, finite and infinite maxDistance (null and undefined: none); plus fixtures,
// bad k and bad maxDistance.
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
  WalkInProgressError,
} from '../src/index.js';
import {
  type Box,
  boxesOf,
  callInto,
  checkNearest,
  intersectsCircle,
  reportedDistance,
} from './oracle.js';

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
  maxDistance: number | null | undefined,
): string | null {
  const items = index.nearest(x, y, k, maxDistance);
  // null and undefined mean no limit, as d3-quadtree's find(x, y, radius) takes them.
  const limit = maxDistance ?? INF;
  const wrong = checkNearest(items, boxes, x, y, k, limit, (it) => JSON.stringify(it));
  if (wrong !== null) return `nearest: ${wrong}`;
  const byItem = new Map(boxes.map((b) => [b.item, b]));
  // nearestWithDistances: the same items in the same order, each with its distance.
  const hits = index.nearestWithDistances(x, y, k, maxDistance);
  if (hits.length !== items.length) return `nearestWithDistances gave ${hits.length} hits`;
  for (let i = 0; i < hits.length; i++) {
    const { item, distance } = hits[i]!;
    if (item !== items[i]) return `nearestWithDistances[${i}] is not nearest()[${i}]`;
    const d = reportedDistance(byItem.get(item)!, x, y, limit);
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

// Coordinates off the half-integer grid, where distances round.
const fineCoordinate = fc.double({ min: -4, max: 68, noNaN: true });
const fineItemArb = fc.record({
  x: fineCoordinate,
  y: fineCoordinate,
  width: fc.double({ min: 0, max: 12, noNaN: true }),
  height: fc.double({ min: 0, max: 12, noNaN: true }),
});

/** The gaps (dx, dy) from (x, y) to a box, 0 inside. */
function gapOf(b: Box<unknown>, x: number, y: number): [number, number] {
  const dx = x < b.minX ? b.minX - x : x > b.maxX ? x - b.maxX : 0;
  const dy = y < b.minY ? b.minY - y : y > b.maxY ? y - b.maxY : 0;
  return [dx, dy];
}

/** maxDistance: Infinity, or 0 to 20 by halves. */
const maxDistanceArb = fc.oneof(
  fc.constant(INF),
  fc.integer({ min: 0, max: 40 }).map((v) => v / 2),
);

/** The drawn rectangles as items with ids (points: of zero size). */
function withIds(raw: Omit<Item, 'id'>[], points: boolean): Item[] {
  return raw.map((r, id) => ({ id, ...r, ...(points ? { width: 0, height: 0 } : {}) }));
}

describe.each(KINDS)('$name', ({ points, build }) => {
  it('nearest(x, y, k, maxDistance) with k = Infinity gives every item within maxDistance, sorted, and the distances forms agree, against brute force', () => {
    fc.assert(
      fc.property(
        fc.array(itemArb, { maxLength: 60 }),
        coordinate,
        coordinate,
        fc.oneof(fc.constant(INF), fc.integer({ min: 0, max: 70 })),
        maxDistanceArb,
        (raw, x, y, k, maxDistance) => {
          const items = withIds(raw, points);
          const built = build(items);
          expect(checkAll(built, x, y, k, maxDistance)).toBe(null);
          if (k === INF) {
            const within = built.boxes.filter((b) => intersectsCircle(b, x, y, maxDistance));
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

  it('nearest(x, y, k, maxDistance) keeps exactly the items searchCircle(x, y, maxDistance) finds, also when maxDistance is within an ulp of an item distance', () => {
    fc.assert(
      fc.property(
        fc.array(fineItemArb, { minLength: 1, maxLength: 40 }),
        fineCoordinate,
        fineCoordinate,
        fc.nat(),
        fc.integer({ min: -3, max: 3 }),
        fc.constantFrom(1, 2 ** 400, 2 ** -400),
        (raw, qx, qy, pickAt, ulps, scale) => {
          const items = raw.map((r, id) => ({
            id,
            x: r.x * scale,
            y: r.y * scale,
            width: points ? 0 : r.width * scale,
            height: points ? 0 : r.height * scale,
          }));
          const built = build(items);
          const [x, y] = [qx * scale, qy * scale];
          // maxDistance: the rounded distance of one item, moved a few ulps.
          const target = built.boxes[pickAt % built.boxes.length]!;
          const d = Math.hypot(...gapOf(target, x, y));
          const maxDistance = Math.max(0, d + ulps * d * 2 ** -52);
          const circle = (built.index as unknown as QueryIndex<unknown>).searchCircle(
            x,
            y,
            maxDistance,
          );
          const exact = built.boxes.filter((b) => intersectsCircle(b, x, y, maxDistance));
          expect(new Set(circle)).toEqual(new Set(exact.map((b) => b.item)));
          const got = built.index.nearestWithDistances(x, y, INF, maxDistance);
          expect(new Set(got.map((h) => h.item))).toEqual(new Set(circle));
          for (const h of got) expect(h.distance).toBeLessThanOrEqual(maxDistance);
          expect(checkAll(built, x, y, 2, maxDistance)).toBe(null);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('nearest(x, y, Infinity, maxDistance) leaves out an item whose rounded distance is maxDistance but whose exact distance is larger, as searchCircle does', () => {
    // 0.1² + 0.6² (of the doubles) is larger than hypot(0.1, 0.6)², which rounds down to it.
    const r = Math.hypot(0.1, 0.6);
    const { index } = build([{ id: 0, x: 0.1, y: 0.6, width: 0, height: 0 }]);
    expect(index.nearest(0, 0, INF, r)).toEqual([]);
    expect(index.nearestWithDistances(0, 0, 1, r)).toEqual([]);
    expect((index as unknown as QueryIndex<unknown>).searchCircle(0, 0, r)).toEqual([]);
    expect(index.nearest(0, 0, INF, r + 2 ** -53)).toHaveLength(1);
  });

  it('nearest(x, y, Infinity, maxDistance) keeps an item whose rounded distance is past maxDistance but whose exact distance is not, at distance maxDistance', () => {
    // From (6.9, 4.9) the point (0.8, 6.7) is at most 6.360031446463139 away, exactly; its
    // distance rounds to the next double.
    const r = 6.360031446463139;
    const { index, boxes } = build([{ id: 0, x: 0.8, y: 6.7, width: 0, height: 0 }]);
    expect(Math.hypot(6.9 - 0.8, 6.7 - 4.9)).toBeGreaterThan(r);
    expect(intersectsCircle(boxes[0]!, 6.9, 4.9, r)).toBe(true);
    expect(index.nearestWithDistances(6.9, 4.9, INF, r)).toEqual([
      { item: boxes[0]!.item, distance: r },
    ]);
    expect((index as unknown as QueryIndex<unknown>).searchCircle(6.9, 4.9, r)).toHaveLength(1);
  });

  it('nearest(x, y, k, maxDistance, filter) gives the k nearest of the items the filter keeps, against brute force, in every form', () => {
    fc.assert(
      fc.property(
        fc.array(itemArb, { maxLength: 60 }),
        coordinate,
        coordinate,
        fc.oneof(fc.constant(INF), fc.integer({ min: 0, max: 12 })),
        maxDistanceArb,
        fc.integer({ min: 0, max: 3 }),
        (raw, x, y, k, maxDistance, mod) => {
          const items = withIds(raw, points);
          const built = build(items);
          // Keep every item whose position in the list is not a multiple of mod + 1 (mod 0:
          // none), and record what the filter is asked.
          const kept = new Set(
            built.boxes.filter((_, i) => i % (mod + 1) !== 0).map((b) => b.item),
          );
          const asked: unknown[] = [];
          const filter = (it: unknown) => {
            asked.push(it);
            return kept.has(it);
          };
          const wanted = built.boxes.filter((b) => kept.has(b.item));
          const got = built.index.nearest(x, y, k, maxDistance, filter);
          expect(checkNearest(got, wanted, x, y, k, maxDistance, (it) => JSON.stringify(it))).toBe(
            null,
          );
          const all = new Set(built.boxes.map((b) => b.item));
          for (const it of asked) expect(all.has(it)).toBe(true);
          const hits = built.index.nearestWithDistances(x, y, k, maxDistance, filter);
          expect(hits.map((h) => h.item)).toEqual(got);
          const out: unknown[] = [];
          const distances: number[] = [];
          const n = built.index.nearestInto(x, y, k, maxDistance, out, distances, filter);
          expect(out.slice(0, n)).toEqual(got);
          expect(distances.slice(0, n)).toEqual(hits.map((h) => h.distance));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a nearest filter that throws rejects the query and leaves the index as it was; inside a filter the index can be neither queried nor changed', () => {
    const items = Array.from({ length: 30 }, (_, id) => ({
      id,
      x: id,
      y: id,
      width: 0,
      height: 0,
    }));
    const { index } = build(items);
    const boom = new Error('boom');
    expect(() =>
      index.nearest(0, 0, 5, INF, () => {
        throw boom;
      }),
    ).toThrow(boom);
    const dynamic = index as unknown as Partial<Quadtree<unknown>> & QueryIndex<unknown>;
    const inside = [
      () => dynamic.nearest(1, 1),
      () => dynamic.search({ x: 0, y: 0, width: 1, height: 1 }),
      () => dynamic.searchCircle(0, 0, 1),
      () => dynamic.raycast(0, 0, 1, 1),
      () => dynamic.visit(() => {}),
      ...('visitAfter' in dynamic
        ? [() => (dynamic as unknown as PointQuadtree<unknown>).visitAfter(() => {})]
        : []),
      ...(dynamic.clear === undefined ? [] : [() => dynamic.clear!()]),
    ];
    for (const call of inside) {
      let thrown: unknown;
      index.nearest(0, 0, 1, INF, () => {
        try {
          call();
        } catch (e) {
          thrown = e;
        }
        return true;
      });
      expect(thrown).toBeInstanceOf(WalkInProgressError);
    }
    // Afterwards: the same answers as before, and no filter left behind.
    expect(index.nearest(0, 0, 3)).toHaveLength(3);
    expect(index.nearest(0, 0, 3, INF, () => false)).toEqual([]);
    expect(index.nearest(0, 0, INF)).toHaveLength(30);
    expect(() => index.nearest(0, 0, 1, INF, 'yes' as never)).toThrow(InvalidTypeError);
  });

  it('a nearest filter may query other indexes, even with filters of their own: the answers are still the brute force', () => {
    fc.assert(
      fc.property(
        fc.array(itemArb, { maxLength: 60 }),
        coordinate,
        coordinate,
        fc.integer({ min: 1, max: 12 }),
        (raw, x, y, k) => {
          const items = withIds(raw, points);
          const built = build(items);
          const others = KINDS.map(
            (kind) => kind.build(items).index as Partial<QueryIndex<unknown>>,
          );
          // Each of the filter's own queries stages other numbers for the engines to read.
          const kept = new Set(built.boxes.filter((_, i) => i % 2 === 1).map((b) => b.item));
          const filter = (it: unknown) => {
            for (const other of others) {
              other.nearest!(64 - x, 64 - y, 2, INF, () => true);
              other.searchCircle!(y, x, 3);
            }
            return kept.has(it);
          };
          const wanted = built.boxes.filter((b) => kept.has(b.item));
          expect(
            checkNearest(built.index.nearest(x, y, k, INF, filter), wanted, x, y, k, INF, (it) =>
              JSON.stringify(it),
            ),
          ).toBe(null);
        },
      ),
      { numRuns: 60 },
    );
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

  it('nearest takes a null or undefined maxDistance as Infinity, in every form, against brute force', () => {
    fc.assert(
      fc.property(
        fc.array(itemArb, { maxLength: 40 }),
        coordinate,
        coordinate,
        fc.oneof(fc.constant(INF), fc.integer({ min: 0, max: 50 })),
        fc.constantFrom(null, undefined),
        (raw, x, y, k, maxDistance) => {
          const built = build(withIds(raw, points));
          expect(checkAll(built, x, y, k, maxDistance)).toBe(null);
          expect(built.index.nearest(x, y, k, maxDistance)).toEqual(built.index.nearest(x, y, k));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('nearest refuses any other maxDistance that is not a number >= 0, naming it, and answers as before afterwards', () => {
    const items = withIds(
      [
        { x: 1, y: 1, width: 1, height: 1 },
        { x: 9, y: 9, width: 0, height: 0 },
      ],
      points,
    );
    const { index } = build(items);
    const before = index.nearest(0, 0, 2);
    for (const bad of ['5', true, {}, [], Number.NaN, -1, Number.NEGATIVE_INFINITY]) {
      const kind = typeof bad === 'number' ? InvalidValueError : InvalidTypeError;
      const d = bad as never;
      expect(() => index.nearest(0, 0, 1, d)).toThrow(kind);
      expect(() => index.nearestWithDistances(0, 0, 1, d)).toThrow(
        /maxDistance must be a number >= 0/,
      );
      expect(() => index.nearestInto(0, 0, 1, d, [], [])).toThrow(kind);
    }
    expect(index.nearest(0, 0, 2)).toEqual(before);
  });
});
