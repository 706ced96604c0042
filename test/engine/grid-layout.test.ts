// The whole-grid operations of GridLooseQuadtree (src/engine/grid-layout.ts): load(items) into an
// empty grid places every item at once by a counting sort over the cells, and a new depth places
// every item again the same way. These tests check that such a grid is the one that inserting
// the items one by one builds (the same cells and counts), that it answers like brute force, and
// that every later mutation (insert, remove, update, updateAll, a new depth) keeps it exact.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Buckets } from '../../src/engine/buckets.js';
import type { LooseGrid } from '../../src/engine/grid.js';
import {
  CELL_CLASS,
  CELL_COUNT,
  CELL_START,
  CELL_SUB,
  levelOf,
} from '../../src/engine/grid-cells.js';
import { DuplicateItemError, GridLooseQuadtree, type Rect } from '../../src/index.js';
import {
  boxesOf,
  brutePairs,
  bruteSearch,
  bruteSearchPoint,
  mulberry32,
  type Rng,
  recordVisit,
  sameItems,
  samePairs,
} from '../oracle.js';

interface Item extends Rect {
  id: number;
}

const BOUNDS = { x: 0, y: 0, width: 100, height: 100 };

// n items of sizes from points to a third of the world, some of them outside the bounds, some
// on the far edges, and some repeated at one point.
function scene(rng: Rng, n: number): Item[] {
  const items: Item[] = [];
  for (let id = 0; id < n; id++) {
    const kind = rng();
    const size = kind < 0.2 ? 0 : kind < 0.9 ? rng() * 4 : rng() * 35;
    let x = rng() * 100 - size / 2;
    let y = rng() * 100 - size / 2;
    if (kind > 0.95) [x, y] = [150 + rng() * 50, -80 + rng() * 30];
    else if (kind > 0.93) [x, y] = [100, 100];
    else if (kind > 0.9) [x, y] = [42, 42];
    items.push({ id, x, y, width: size, height: size });
  }
  return items;
}

// The cells (position, depth, own count) a visit walk reports, in walk order.
function cellsOf(tree: GridLooseQuadtree<Item>): string[] {
  return recordVisit(tree).map((r) => `${r.x},${r.y},${r.width},${r.depth}:${r.count}`);
}

// Every window of a small set and every point of a few, plus the pairs, against brute force.
function expectExact(tree: GridLooseQuadtree<Item>, items: readonly Item[], rng: Rng): void {
  const boxes = boxesOf(items);
  expect(tree.size).toBe(items.length);
  for (let q = 0; q < 20; q++) {
    const w = rng() * 40;
    const rect = { x: rng() * 140 - 20, y: rng() * 140 - 20, width: w, height: w * rng() };
    expect(sameItems(tree.search(rect), bruteSearch(boxes, rect))).toBeNull();
    const [x, y] = [rng() * 100, rng() * 100];
    expect(sameItems(tree.searchPoint(x, y), bruteSearchPoint(boxes, x, y))).toBeNull();
  }
  const pairs: [Item, Item][] = [];
  tree.pairs((a, b) => pairs.push([a, b]));
  expect(samePairs(pairs, brutePairs(boxes))).toBeNull();
}

// The grid's records, recounted from its items: each cell's CELL_COUNT and CELL_SUB (items in its
// subtree; none for the outside list), the items per level, each size class large enough (the
// exact class for the count right after a load, `exact`), live buckets apart and below the
// pool's top, each slot's cell, bucket entry, box and fit box. Returns the first mismatch.
function gridError(tree: GridLooseQuadtree<Item>, exact: boolean): string | null {
  const g = (tree as unknown as { engine: LooseGrid<Item> }).engine as unknown as {
    cells: Int32Array;
    outside: number;
    depth: number;
    x: number;
    y: number;
    side: number;
    first: Int32Array;
    levelCount: Int32Array;
    fit: Float64Array;
    store: LooseGrid<Item>['store'];
    buckets: { box: Float64Array; slot: Int32Array; top: number };
    looseBox(c: number): Float64Array;
    flush(): void;
  };
  // (Inserts are placed by the next read.)
  g.flush();
  const { cells, outside, depth, first, levelCount, fit, store, buckets } = g;
  const count = new Int32Array(outside + 1);
  for (let s = 0; s < store.used; s++) {
    const item = store.items[s];
    if (item === undefined) continue;
    const c = store.node[s]!;
    count[c]!++;
    const e = cells[4 * c + CELL_START]! + store.pos[s]!;
    if (buckets.slot[e] !== s) return `slot ${s}: its entry holds slot ${buckets.slot[e]}`;
    const box = [item.x, item.y, item.x + item.width, item.y + item.height];
    if (box.some((v, k) => buckets.box[4 * e + k] !== v)) return `slot ${s}: wrong box`;
    if (c === outside) {
      if ([Infinity, Infinity, -Infinity, -Infinity].some((v, k) => fit[4 * s + k] !== v))
        return `slot ${s}: wrong fit box`;
      continue;
    }
    // The loose box, narrowed where the cell has a neighbour to keep the centre in the cell.
    const lb = [...g.looseBox(c)];
    const side = (lb[2]! - lb[0]!) / 2;
    for (const axis of [0, 1]) {
      const half = (box[axis + 2]! - box[axis]!) / 2;
      const start = lb[axis]! + side / 2;
      const origin = axis === 0 ? g.x : g.y;
      const tol = 1e-9 * side;
      if (start > origin + tol && box[axis]! >= start - half) lb[axis] = start - half;
      if (start + side < origin + g.side - tol && box[axis + 2]! < start + side + half)
        lb[axis + 2] = start + side + half;
    }
    if (lb.some((v, k) => Math.abs(fit[4 * s + k]! - v) > 1e-9 * side)) {
      return `slot ${s}: wrong fit box`;
    }
    const inside =
      box[0]! >= fit[4 * s]! &&
      box[1]! >= fit[4 * s + 1]! &&
      box[2]! < fit[4 * s + 2]! &&
      box[3]! < fit[4 * s + 3]!;
    if (!inside) return `slot ${s}: its box leaves its fit box`;
  }
  const sub = Int32Array.from(count);
  for (let L = depth; L > 0; L--) {
    for (let c = first[L]!; c < first[L + 1]!; c++)
      sub[first[L - 1]! + ((c - first[L]!) >>> 2)]! += sub[c]!;
  }
  sub[outside] = 0;
  const perLevel = new Int32Array(depth + 2);
  const live: [number, number][] = [];
  for (let c = 0; c <= outside; c++) {
    const k = cells[4 * c + CELL_CLASS]!;
    if (cells[4 * c + CELL_COUNT] !== count[c])
      return `cell ${c}: CELL_COUNT ${cells[4 * c + CELL_COUNT]}, holds ${count[c]}`;
    if (cells[4 * c + CELL_SUB] !== sub[c])
      return `cell ${c}: CELL_SUB ${cells[4 * c + CELL_SUB]}, subtree ${sub[c]}`;
    if (count[c]! > 0 && (k < 0 || 1 << k < count[c]!))
      return `cell ${c}: class ${k} for ${count[c]}`;
    if (exact && k !== (count[c] === 0 ? -1 : Buckets.classFor(count[c]!)))
      return `cell ${c}: class ${k} not exact`;
    if (k >= 0) live.push([cells[4 * c + CELL_START]!, cells[4 * c + CELL_START]! + (1 << k)]);
    perLevel[c === outside ? depth + 1 : levelOf(c)]! += count[c]!;
  }
  if (perLevel.some((v, L) => levelCount[L] !== v)) return 'items per level differ';
  live.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < live.length; i++) if (live[i]![0] < live[i - 1]![1]) return 'buckets overlap';
  if (live.length > 0 && live[live.length - 1]![1] > buckets.top) return 'a bucket past the top';
  return null;
}

describe('GridLooseQuadtree load(items): every item placed at once', () => {
  it("a loaded grid's records (counts, subtree counts, size classes, buckets, fit boxes) are those of its items, and stay so through moves, removes, inserts and a new depth", () => {
    const rng = mulberry32(21);
    for (const depth of [undefined, 0, 4]) {
      const items = scene(rng, 2500);
      const tree = new GridLooseQuadtree<Item>({
        bounds: BOUNDS,
        ...(depth === undefined ? {} : { depth }),
      }).load(items);
      expect(gridError(tree, true)).toBeNull();
      for (const item of items) item.x += (rng() - 0.5) * 30;
      tree.updateAll();
      expect(gridError(tree, false)).toBeNull();
      for (let i = 0; i < items.length; i += 3) tree.remove(items[i]!);
      for (const item of scene(rng, 400)) tree.insert({ ...item, id: item.id + 5000 });
      expect(gridError(tree, false)).toBeNull();
    }
    // A new depth: the sizes drift until the chooser places every item again.
    const items = scene(rng, 3000).map((item) => ({
      ...item,
      width: item.width / 8,
      height: item.height / 8,
    }));
    const tree = new GridLooseQuadtree<Item>({ bounds: BOUNDS }).load(items);
    const before = tree.depth;
    for (let step = 0; step < 6 && tree.depth === before; step++) {
      for (const item of items) {
        item.width *= 3;
        item.height *= 3;
      }
      tree.updateAll();
    }
    expect(tree.depth).not.toBe(before);
    expect(gridError(tree, true)).toBeNull();
  });

  it('load(items) into an empty grid builds the cells and counts that inserting them one by one builds', () => {
    for (const depth of [0, 3, 6]) {
      const items = scene(mulberry32(depth + 1), 2000);
      const loaded = new GridLooseQuadtree<Item>({ bounds: BOUNDS, depth }).load(items);
      const inserted = new GridLooseQuadtree<Item>({ bounds: BOUNDS, depth });
      for (const item of items) inserted.insert(item);
      expect(cellsOf(loaded)).toEqual(cellsOf(inserted));
      expectExact(loaded, items, mulberry32(depth + 100));
    }
  });

  it('a grid that chose its depth for the loaded items answers like brute force, and stays exact through inserts, removes, update and updateAll', () => {
    const rng = mulberry32(7);
    const items = scene(rng, 3000);
    const tree = new GridLooseQuadtree<Item>({ bounds: BOUNDS }).load(items);
    expectExact(tree, items, rng);
    // Moves small and large (some out of the world and back), one by one and all at once.
    for (let step = 0; step < 4; step++) {
      for (const item of items) {
        item.x += (rng() - 0.5) * (step % 2 === 0 ? 2 : 60);
        item.y += (rng() - 0.5) * (step % 2 === 0 ? 2 : 60);
      }
      if (step < 2) tree.updateAll();
      else for (const item of items) tree.update(item);
      expectExact(tree, items, rng);
    }
    // Removes of half, inserts of new ones (the buckets laid out by the load grow and shrink).
    const kept = items.filter((_, i) => i % 2 === 0);
    for (let i = 1; i < items.length; i += 2) expect(tree.remove(items[i]!)).toBe(true);
    const more = scene(rng, 1500).map((item) => ({ ...item, id: item.id + 10_000 }));
    for (const item of more) tree.insert(item);
    expectExact(tree, [...kept, ...more], rng);
  });

  it('load(items) equals brute force for any boxes, inside, outside and on the bounds (property)', () => {
    const coord = fc.double({ min: -50, max: 150, noNaN: true });
    const side = fc.oneof(fc.constant(0), fc.double({ min: 0, max: 60, noNaN: true }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coord, coord, side, side), { maxLength: 300 }),
        fc.option(fc.integer({ min: 0, max: 7 }), { nil: undefined }),
        (raw, depth) => {
          const items = raw.map(([x, y, width, height], id) => ({ id, x, y, width, height }));
          const tree = new GridLooseQuadtree<Item>({
            bounds: BOUNDS,
            ...(depth === undefined ? {} : { depth }),
          }).load(items);
          expectExact(tree, items, mulberry32(items.length));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('load(items) with an item listed twice throws DuplicateItemError naming it and leaves the grid empty and usable', () => {
    const items = scene(mulberry32(3), 50);
    const tree = new GridLooseQuadtree<Item>({ bounds: BOUNDS });
    expect(() => tree.load([...items, items[17]!])).toThrow(DuplicateItemError);
    expect(() => tree.load([...items, items[17]!])).toThrow(/items\[50\]/);
    expect(tree.size).toBe(0);
    expect(tree.search(BOUNDS)).toEqual([]);
    tree.load(items);
    expectExact(tree, items, mulberry32(4));
  });

  it('load(items) after clear(), after removing every item, and into a grid that holds items stays exact', () => {
    const rng = mulberry32(11);
    const first = scene(rng, 800);
    const second = scene(rng, 900).map((item) => ({ ...item, id: item.id + 1000 }));
    const third = scene(rng, 700).map((item) => ({ ...item, id: item.id + 2000 }));
    const tree = new GridLooseQuadtree<Item>({ bounds: BOUNDS }).load(first);
    tree.clear();
    tree.load(second);
    expectExact(tree, second, rng);
    // Every item removed: the slots handed out stay, so this load inserts one by one.
    for (const item of second) tree.remove(item);
    tree.load(first);
    expectExact(tree, first, rng);
    tree.load(third);
    expectExact(tree, [...first, ...third], rng);
  });

  it('a burst of inserts into an emptied grid of pinned depth, whose slots come back out of order, is placed at once and answers like brute force', () => {
    const rng = mulberry32(12);
    const first = scene(rng, 800);
    const second = scene(rng, 900).map((item) => ({ ...item, id: item.id + 1000 }));
    const tree = new GridLooseQuadtree<Item>({ bounds: BOUNDS, depth: 3 });
    for (const item of first) tree.insert(item);
    expectExact(tree, first, rng);
    // (A pinned depth keeps the store's free slots: the next burst takes them last-freed first.)
    for (const item of first) tree.remove(item);
    for (const item of second) tree.insert(item);
    expectExact(tree, second, rng);
    expect(gridError(tree, false)).toBeNull();
    expect(cellsOf(tree)).toEqual(
      cellsOf(new GridLooseQuadtree<Item>({ bounds: BOUNDS, depth: 3 }).load(second)),
    );
  });

  it('load of 0 items, of 1 item, and of 5000 items at one point (one cell, one bucket of 8192 entries)', () => {
    const tree = new GridLooseQuadtree<Item>({ bounds: BOUNDS }).load([]);
    expect(tree.size).toBe(0);
    const one = [{ id: 0, x: 3, y: 4, width: 1, height: 2 }];
    expectExact(new GridLooseQuadtree<Item>({ bounds: BOUNDS }).load(one), one, mulberry32(1));
    const same = Array.from({ length: 5000 }, (_, id) => ({ id, x: 7, y: 7, width: 0, height: 0 }));
    const crowded = new GridLooseQuadtree<Item>({ bounds: BOUNDS }).load(same);
    expect(crowded.searchPoint(7, 7)).toHaveLength(5000);
    let pairs = 0;
    crowded.pairs(() => {
      pairs++;
    });
    expect(pairs).toBe((5000 * 4999) / 2);
    crowded.remove(same[0]!);
    expect(crowded.searchPoint(7, 7)).toHaveLength(4999);
  });

  it('fromBoxes(boxes) loads the numbers 0..n-1 at once and answers them like load(objects) answers the objects', () => {
    const items = scene(mulberry32(5), 1500);
    const boxes = new Float64Array(4 * items.length);
    for (const [i, it] of items.entries()) {
      boxes.set([it.x, it.y, it.x + it.width, it.y + it.height], 4 * i);
    }
    const typed = GridLooseQuadtree.fromBoxes(boxes, { bounds: BOUNDS });
    const objects = new GridLooseQuadtree<Item>({ bounds: BOUNDS }).load(items);
    expect(recordVisit(typed)).toEqual(recordVisit(objects));
    const rng = mulberry32(6);
    for (let q = 0; q < 30; q++) {
      const rect = { x: rng() * 100, y: rng() * 100, width: rng() * 30, height: rng() * 30 };
      expect(typed.search(rect).sort((a, b) => a - b)).toEqual(
        objects
          .search(rect)
          .map((i) => i.id)
          .sort((a, b) => a - b),
      );
    }
  });
});
