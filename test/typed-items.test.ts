// The typed-array door of the dynamic indexes (Quadtree.fromBoxes, GridLooseQuadtree.fromBoxes,
// PointQuadtree.fromPoints): items are the numbers 0..n-1 whose bounds live in the caller's array.
// Every answer is compared with brute force over the array as the index last read it, before
// and after the caller writes new numbers and calls updateAll() or update(i); then degenerate
// arrays and bad input, which must throw naming the item and leave the index as it was.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ContactTracker,
  DuplicateItemError,
  GridLooseQuadtree,
  InvalidTypeError,
  InvalidValueError,
  PointQuadtree,
  Quadtree,
  type Rect,
} from '../src/index.js';
import {
  type Box,
  brutePairs,
  bruteSearch,
  bruteSearchCircle,
  checkNearest,
  mulberry32,
  type Rng,
  randFloat,
  randInt,
  sameItems,
  samePairs,
} from './oracle.js';

const bounds: Rect = { x: 0, y: 0, width: 100, height: 100 };
type BoxIndex = Quadtree<number> | GridLooseQuadtree<number>;

const doors: [string, (boxes: ArrayLike<number>) => BoxIndex][] = [
  ['Quadtree.fromBoxes (classic)', (b) => Quadtree.fromBoxes(b, { bounds, maxObjects: 4 })],
  ['Quadtree.fromBoxes (loose)', (b) => Quadtree.fromBoxes(b, { bounds, looseness: 2 })],
  ['GridLooseQuadtree.fromBoxes', (b) => GridLooseQuadtree.fromBoxes(b, { bounds })],
  [
    'GridLooseQuadtree.fromBoxes (depth 3)',
    (b) => GridLooseQuadtree.fromBoxes(b, { bounds, depth: 3 }),
  ],
];

// The brute-force model: item i is boxes[4i..4i+3] (of the items listed).
function boxesOf(raw: ArrayLike<number>, items: Iterable<number>): Box<number>[] {
  return Array.from(items, (i) => ({
    item: i,
    minX: raw[4 * i]!,
    minY: raw[4 * i + 1]!,
    maxX: raw[4 * i + 2]!,
    maxY: raw[4 * i + 3]!,
  }));
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

// Writes a random box for item i: inside the bounds mostly, some outside, some of size 0.
function writeBox(rng: Rng, raw: Float64Array | number[], i: number): void {
  const x = randFloat(rng, -20, 120);
  const y = randFloat(rng, -20, 120);
  const w = rng() < 0.1 ? 0 : randFloat(rng, 0, 15);
  const h = rng() < 0.1 ? 0 : randFloat(rng, 0, 15);
  raw[4 * i] = x;
  raw[4 * i + 1] = y;
  raw[4 * i + 2] = x + w;
  raw[4 * i + 3] = y + h;
}

// Every query of the index against brute force over `model`.
function checkAll(tree: BoxIndex, model: Box<number>[], rng: Rng, what: string): void {
  expect(tree.size, `${what}: size`).toBe(model.length);
  for (let q = 0; q < 25; q++) {
    const rect = {
      x: randFloat(rng, -30, 110),
      y: randFloat(rng, -30, 110),
      width: randFloat(rng, 0, 40),
      height: randFloat(rng, 0, 40),
    };
    expect(sameItems(tree.search(rect), bruteSearch(model, rect)), `${what}: search`).toBeNull();
    const x = randFloat(rng, -20, 120);
    const y = randFloat(rng, -20, 120);
    const r = randFloat(rng, 0, 25);
    expect(
      sameItems(tree.searchCircle(x, y, r), bruteSearchCircle(model, x, y, r)),
      `${what}: searchCircle`,
    ).toBeNull();
    const k = randInt(rng, 1, 8);
    expect(
      checkNearest(tree.nearest(x, y, k), model, x, y, k, Infinity),
      `${what}: nearest`,
    ).toBeNull();
  }
  const pairs: [number, number][] = [];
  tree.pairs((a, b) => pairs.push([a, b]));
  expect(samePairs(pairs, brutePairs(model)), `${what}: pairs`).toBeNull();
}

describe.each(doors)('%s', (_name, make) => {
  it('answers the item numbers brute force finds, before and after updateAll() and update(i)', () => {
    const rng = mulberry32(11);
    const n = 300;
    const raw = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) writeBox(rng, raw, i);
    // Some items share a box.
    raw.copyWithin(40, 0, 8);
    const tree = make(raw);
    checkAll(tree, boxesOf(raw, range(n)), rng, 'loaded');
    for (let frame = 0; frame < 3; frame++) {
      for (let i = 0; i < n; i++) {
        if (rng() < 0.7) writeBox(rng, raw, i);
      }
      expect(tree.updateAll()).toBe(tree);
      checkAll(tree, boxesOf(raw, range(n)), rng, `updateAll ${frame}`);
    }
    for (let k = 0; k < 40; k++) {
      const i = randInt(rng, 0, n - 1);
      writeBox(rng, raw, i);
      expect(tree.update(i)).toBe(true);
    }
    checkAll(tree, boxesOf(raw, range(n)), rng, 'update(i)');
  });

  it('keeps the array by reference: the index answers the bounds it last read', () => {
    const raw = new Float64Array([0, 0, 1, 1, 50, 50, 51, 51]);
    const tree = make(raw);
    raw.set([90, 90, 91, 91], 0);
    const old = { x: 0, y: 0, width: 2, height: 2 };
    expect(tree.search(old)).toEqual([0]);
    tree.update(0);
    expect(tree.search(old)).toEqual([]);
    expect(tree.search({ x: 89, y: 89, width: 1, height: 1 })).toEqual([0]);
  });

  it('insert(i) reads item i from the array, which may grow; remove(i) takes it out', () => {
    const raw = [0, 0, 10, 10];
    const tree = make(raw);
    raw.push(5, 5, 6, 6);
    expect(tree.insert(1)).toBe(tree);
    expect(tree.search({ x: 5.5, y: 5.5, width: 0, height: 0 }).sort()).toEqual([0, 1]);
    expect(() => tree.insert(1)).toThrow(DuplicateItemError);
    expect(tree.remove(0)).toBe(true);
    expect(tree.remove(0)).toBe(false);
    expect(tree.search({ x: 0, y: 0, width: 100, height: 100 })).toEqual([1]);
  });

  it('holds 0 items, 1 item, one repeated box and items outside the bounds', () => {
    const empty = make(new Float64Array(0));
    expect(empty.size).toBe(0);
    expect(empty.search(bounds)).toEqual([]);
    expect(empty.nearest(1, 1, 3)).toEqual([]);
    const one = make([3, 4, 3, 4]);
    expect(one.searchPoint(3, 4)).toEqual([0]);
    expect(one.nearest(0, 0, 2)).toEqual([0]);
    const same = make(new Array(4 * 40).fill(0).map((_, k) => (k % 4 < 2 ? 7 : 8)));
    const pairs: [number, number][] = [];
    same.pairs((a, b) => pairs.push([a, b]));
    expect(pairs.length).toBe((40 * 39) / 2);
    expect(same.searchPoint(7.5, 7.5).length).toBe(40);
    const outside = make([-500, -500, -490, -490, 1e6, 2e6, 1e6 + 1, 2e6 + 1]);
    expect(outside.search({ x: -501, y: -501, width: 20, height: 20 })).toEqual([0]);
    expect(outside.nearest(1e6, 2e6, 1)).toEqual([1]);
  });

  it('property: search and pairs equal brute force for any boxes and moves', () => {
    const box = fc
      .tuple(
        fc.integer({ min: -20, max: 120 }),
        fc.integer({ min: -20, max: 120 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
      )
      .map(([x, y, w, h]) => [x / 2, y / 2, x / 2 + w, y / 2 + h]);
    fc.assert(
      fc.property(
        fc.array(box, { maxLength: 40 }),
        fc.array(box, { maxLength: 40 }),
        (first, moved) => {
          const raw = new Float64Array(first.flat());
          const tree = make(raw);
          const n = first.length;
          for (let i = 0; i < Math.min(n, moved.length); i++) raw.set(moved[i]!, 4 * i);
          tree.updateAll();
          const model = boxesOf(raw, range(n));
          const rect = { x: 10, y: 10, width: 30, height: 25 };
          expect(sameItems(tree.search(rect), bruteSearch(model, rect))).toBeNull();
          const pairs: [number, number][] = [];
          tree.pairs((a, b) => pairs.push([a, b]));
          expect(samePairs(pairs, brutePairs(model))).toBeNull();
        },
      ),
      { seed: 5, numRuns: 60 },
    );
  });

  it('refuses a bad array, naming the door, the item and the numbers; nothing is loaded', () => {
    expect(() => make('boxes' as unknown as number[])).toThrow(
      /fromBoxes\(boxes\) must be an array of numbers/,
    );
    expect(() => make(new Float64Array(5))).toThrow(InvalidValueError);
    expect(() => make(new Float64Array(5))).toThrow(/has length 5, not a multiple of 4/);
    expect(() => make([0, 0, 1, 1, 2, 2, Number.NaN, 3])).toThrow(
      /item 1 \(boxes\[4\.\.7\]\) must be 4 finite numbers.*got \[2, 2, NaN, 3\]; nothing was loaded/,
    );
    expect(() => make([0, 0, 1, 1, 5, 5, 4, 6])).toThrow(InvalidValueError);
    // Each number of a box is checked: infinite, or not a number, anywhere in it.
    for (let k = 0; k < 4; k++) {
      const inf = [0, 0, 1, 1];
      inf[k] = k < 2 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
      expect(() => make(inf), `box number ${k} infinite`).toThrow(/item 0 \(boxes\[0\.\.3\]\)/);
      const text: unknown[] = [0, 0, 1, 1];
      text[k] = String(text[k]);
      expect(() => make(text as number[]), `box number ${k} a string`).toThrow(
        new RegExp(`boxes\\[${k}\\] \\(item 0\\) must be a number`),
      );
    }
    expect(() => make({ length: -4 } as ArrayLike<number>)).toThrow(
      /\.length must be an integer from 0 to/,
    );
    expect(() => make([0, 0, 1, 1, 2, '2', 3, 3] as unknown as number[])).toThrow(InvalidTypeError);
    expect(() => make([0, 0, 1, 1, 2, '2', 3, 3] as unknown as number[])).toThrow(
      /boxes\[5\] \(item 1\) must be a number, got "2"/,
    );
  });

  it('updateAll() with a bad box throws naming the item and moves no item', () => {
    const rng = mulberry32(3);
    const raw = new Float64Array(4 * 50);
    for (let i = 0; i < 50; i++) writeBox(rng, raw, i);
    const tree = make(raw);
    const before = boxesOf(raw.slice(), range(50));
    for (let i = 0; i < 50; i++) writeBox(rng, raw, i);
    raw[4 * 30 + 2] = Number.POSITIVE_INFINITY;
    expect(() => tree.updateAll()).toThrow(/item 30 \(boxes\[120\.\.123\]\)/);
    checkAll(tree, before, rng, 'after the failed updateAll');
    expect(() => tree.update(30)).toThrow(InvalidValueError);
    checkAll(tree, before, rng, 'after the failed update');
  });

  it('insert and update refuse a number that is not an item of the array', () => {
    const raw = [0, 0, 1, 1, 2, 2, 3, 3];
    const tree = make(raw);
    expect(() => tree.insert(2)).toThrow(
      /item 2 is past the end of boxes, which holds 2 items .*grow the array first, or remove\(2\) before shrinking it/,
    );
    expect(() => tree.insert(-1)).toThrow(InvalidValueError);
    expect(() => tree.insert(0.5)).toThrow(/an integer from 0 .*got 0\.5/);
    expect(() => tree.insert('1' as unknown as number)).toThrow(InvalidTypeError);
    expect(() => tree.insert(1n as unknown as number)).toThrow(InvalidTypeError);
    expect(tree.remove(0)).toBe(true);
    expect(() => tree.insert(-0)).toThrow(/got -0/);
    expect(tree.insert(0).all().sort()).toEqual([0, 1]);
    expect(tree.size).toBe(2);
    expect(tree.update(7)).toBe(false);
    // The caller shrank the array without removing item 1: updateAll says so and moves nothing.
    raw.length = 4;
    raw[0] = 5;
    raw[2] = 6;
    expect(() => tree.updateAll()).toThrow(/item 1 is past the end of boxes, which holds 1 item /);
    expect(tree.searchPoint(0.5, 0.5)).toEqual([0]);
    tree.remove(1);
    tree.updateAll();
    expect(tree.searchPoint(5.5, 0.5)).toEqual([0]);
  });

  it('load(numbers) adds more items of the array, clear() empties it, toJSON() summarises it', () => {
    const raw = [0, 0, 1, 1, 5, 5, 6, 6];
    const tree = make(raw.slice(0, 4));
    expect(tree.toJSON().size).toBe(1);
    const grown = make(raw);
    grown.remove(1);
    expect(grown.load([1]).search(bounds).sort()).toEqual([0, 1]);
    expect(() => grown.load([1])).toThrow(DuplicateItemError);
    expect(() => grown.load([2])).toThrow(/item 2 is past the end of boxes.*; nothing was loaded/);
    expect(grown.size).toBe(2);
    grown.clear();
    expect(grown.size).toBe(0);
    expect(grown.search(bounds)).toEqual([]);
    expect(grown.insert(1).search(bounds)).toEqual([1]);
  });

  it('ContactTracker reports contacts between item numbers as the boxes move', () => {
    const raw = new Float64Array([0, 0, 2, 2, 1, 1, 3, 3, 10, 10, 11, 11]);
    const tree = make(raw);
    const contacts = new ContactTracker(tree);
    const begun: string[] = [];
    const ended: string[] = [];
    const key = (a: number, b: number) => (a < b ? `${a}-${b}` : `${b}-${a}`);
    contacts.update((a, b) => begun.push(key(a, b)));
    expect(begun).toEqual(['0-1']);
    // Item 2 moves onto item 1; item 0 moves away.
    raw.set([2.5, 2.5, 3.5, 3.5], 8);
    raw.set([50, 50, 52, 52], 0);
    tree.updateAll();
    contacts.update(
      (a, b) => begun.push(key(a, b)),
      (a, b) => ended.push(key(a, b)),
    );
    expect(begun).toEqual(['0-1', '1-2']);
    expect(ended).toEqual(['0-1']);
    expect(contacts.has(2, 1)).toBe(true);
  });

  it('takes no toRect: the door reads the bounds from its array', () => {
    const options = { bounds, toRect: () => ({ x: 0, y: 0 }) } as unknown as { bounds: Rect };
    expect(() => Quadtree.fromBoxes([0, 0, 1, 1], options)).toThrow(/takes no options\.toRect/);
    expect(() => GridLooseQuadtree.fromBoxes([0, 0, 1, 1], options)).toThrow(InvalidTypeError);
    const typo = { bounds, maxObject: 4 } as unknown as { bounds: Rect };
    expect(() => Quadtree.fromBoxes([0, 0, 1, 1], typo)).toThrow(
      /unknown option "maxObject" for Quadtree\.fromBoxes; known options: bounds, maxObjects, maxLevels, looseness$/,
    );
    expect(() =>
      GridLooseQuadtree.fromBoxes([0, 0, 1, 1], undefined as unknown as { bounds: Rect }),
    ).toThrow(/options of GridLooseQuadtree\.fromBoxes must be an object/);
  });
});

describe('PointQuadtree.fromPoints', () => {
  const make = (p: ArrayLike<number>) => PointQuadtree.fromPoints(p, { bounds, bucketSize: 4 });
  const pointsOf = (raw: ArrayLike<number>, n: number): Box<number>[] =>
    range(n).map((i) => ({
      item: i,
      minX: raw[2 * i]!,
      minY: raw[2 * i + 1]!,
      maxX: raw[2 * i]!,
      maxY: raw[2 * i + 1]!,
    }));

  it('answers the point numbers brute force finds, before and after updateAll() and update(i)', () => {
    const rng = mulberry32(7);
    const n = 400;
    const raw = new Float64Array(2 * n);
    const move = (i: number) => {
      raw[2 * i] = rng() < 0.2 ? 30 : randFloat(rng, -10, 110);
      raw[2 * i + 1] = rng() < 0.2 ? 30 : randFloat(rng, -10, 110);
    };
    for (let i = 0; i < n; i++) move(i);
    const tree = make(raw);
    const check = (what: string) => {
      const model = pointsOf(raw, n);
      for (let q = 0; q < 20; q++) {
        const x = randFloat(rng, 0, 100);
        const y = randFloat(rng, 0, 100);
        const r = randFloat(rng, 0, 20);
        expect(
          sameItems(tree.searchCircle(x, y, r), bruteSearchCircle(model, x, y, r)),
          what,
        ).toBeNull();
        expect(checkNearest(tree.nearest(x, y, 5), model, x, y, 5, Infinity), what).toBeNull();
      }
    };
    check('loaded');
    for (let i = 0; i < n; i++) move(i);
    tree.updateAll();
    check('updateAll');
    for (let i = 0; i < n; i += 7) {
      move(i);
      tree.update(i);
    }
    check('update(i)');
  });

  it('refuses a bad array or point, naming the item; nothing is loaded or moved', () => {
    expect(() => make(new Float64Array(3))).toThrow(/has length 3, not a multiple of 2/);
    expect(() => make([1, 2, 3, Number.NaN])).toThrow(
      /points\[3\] \(item 1\) must be a finite number, got NaN; nothing was loaded/,
    );
    const raw = [1, 2, 3, 4];
    const tree = make(raw);
    raw[0] = 50;
    raw[2] = Number.NaN;
    expect(() => tree.updateAll()).toThrow(/points\[2\] \(item 1\)/);
    expect(tree.searchPoint(1, 2)).toEqual([0]);
    expect(() => tree.insert(2)).toThrow(/item 2 is past the end of points, which holds 2 items/);
    expect(() => tree.insert(0.5)).toThrow(InvalidValueError);
    raw.push(7, 8);
    expect(tree.insert(2).searchPoint(7, 8)).toEqual([2]);
    expect(tree.remove(2)).toBe(true);
    expect(tree.searchPoint(7, 8)).toEqual([]);
    expect(() =>
      PointQuadtree.fromPoints([], { bounds, toPoint: () => ({ x: 0, y: 0 }) } as unknown as {
        bounds: Rect;
      }),
    ).toThrow(/takes no options\.toPoint/);
  });
});
