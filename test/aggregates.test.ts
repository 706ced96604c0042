import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AggregateNode, PointQuadtree, StaticQuadtree } from '../src/index.js';
import { mulberry32 } from './oracle.js';

interface P {
  x: number;
  y: number;
  mass: number;
}

const BOUNDS = { x: 0, y: 0, width: 100, height: 100 };
const OPTIONS = {
  weight: (p: P) => p.mass,
  map: (p: P) => p.mass,
  reduce: Math.max,
  initial: Number.NEGATIVE_INFINITY,
};

/** The brute-force aggregate of some items. */
function brute(items: readonly P[]) {
  let weight = 0;
  let wx = 0;
  let wy = 0;
  let value = Number.NEGATIVE_INFINITY;
  for (const p of items) {
    weight += p.mass;
    wx += p.mass * p.x;
    wy += p.mass * p.y;
    value = Math.max(value, p.mass);
  }
  return { count: items.length, weight, cx: wx / weight, cy: wy / weight, value };
}

function expectAggregate(node: AggregateNode, want: ReturnType<typeof brute>): void {
  expect(node.count).toBe(want.count);
  expect(node.weight).toBeCloseTo(want.weight, 9);
  expect(node.value).toBe(want.value);
  if (want.count > 0) {
    expect(node.cx).toBeCloseTo(want.cx, 9);
    expect(node.cy).toBeCloseTo(want.cy, 9);
  }
}

/** Copies of the nodes visitAfter shows, in its order. */
function collect(visit: (cb: (n: AggregateNode) => void) => void): AggregateNode[] {
  const out: AggregateNode[] = [];
  visit((n) => {
    out.push({ ...n });
  });
  return out;
}

/**
 * Checks the post-order (each node after its descendants: the pending deeper nodes when a node
 * comes are exactly its children) and that an inner node without items of its own sums its
 * children.
 */
function checkPostOrder(nodes: AggregateNode[], ownItems: (n: AggregateNode) => boolean): void {
  const pending: AggregateNode[] = [];
  for (const n of nodes) {
    const children: AggregateNode[] = [];
    while (pending.length && pending[pending.length - 1]!.depth > n.depth) {
      const c = pending.pop()!;
      expect(c.depth).toBe(n.depth + 1);
      children.push(c);
    }
    if (children.length && !ownItems(n)) {
      const count = children.reduce((s, c) => s + c.count, 0);
      expect(n.count).toBe(count);
      const w = children.reduce((s, c) => s + c.weight, 0);
      expect(n.weight).toBeCloseTo(w, 9);
      expect(n.cx).toBeCloseTo(children.reduce((s, c) => s + c.weight * c.cx, 0) / w, 9);
      expect(n.value).toBe(Math.max(...children.map((c) => c.value)));
    }
    pending.push(n);
  }
  // Only the root is left, last.
  expect(pending.length).toBe(nodes.length ? 1 : 0);
  if (nodes.length) expect(nodes[nodes.length - 1]!.depth).toBe(0);
}

interface Cell {
  x: number;
  y: number;
  width: number;
  height: number;
  depth: number;
  sub: number;
}

/**
 * The post-order (children in order, then the parent) of the nodes `visit` shows in pre-order,
 * each with the count of items in its subtree.
 */
function postOrderOfVisit(
  visit: (cb: (n: Omit<Cell, 'sub'> & { count: number }) => void) => void,
): Cell[] {
  const out: Cell[] = [];
  const open: Cell[] = [];
  const close = (depth: number) => {
    while (open.length && open[open.length - 1]!.depth >= depth) {
      const c = open.pop()!;
      if (open.length) open[open.length - 1]!.sub += c.sub;
      out.push(c);
    }
  };
  visit((n) => {
    close(n.depth);
    open.push({ x: n.x, y: n.y, width: n.width, height: n.height, depth: n.depth, sub: n.count });
  });
  close(0);
  return out;
}

const shape = (n: Omit<Cell, 'sub'>) => [n.x, n.y, n.width, n.height, n.depth];

const point = fc.record({
  // Off the split lines of a 100-wide root (odd multiples of 1/1024 plus 1/3), some outside.
  x: fc.integer({ min: -100, max: 1100 }).map((v) => v / 10 + 1 / 3),
  y: fc.integer({ min: -100, max: 1100 }).map((v) => v / 10 + 1 / 3),
  mass: fc.integer({ min: 1, max: 9 }),
});

describe('PointQuadtree.visitAfter', () => {
  it('gives each node the count, weighted centroid and reduce of the items in its cell, children first, after inserts, removes and moves', () => {
    fc.assert(
      fc.property(
        fc.array(point, { maxLength: 300 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 2 ** 31 }),
        (items, bucketSize, seed) => {
          const tree = new PointQuadtree<P>({ bounds: BOUNDS, bucketSize });
          // Duplicates: some items repeat another's point.
          const all = items.map((p, i) => (i % 7 === 3 && i > 0 ? { ...items[i - 1]! } : { ...p }));
          for (const p of all) tree.insert(p);
          const rng = mulberry32(seed);
          const live = new Set(all);
          for (const p of all) {
            const r = rng();
            if (r < 0.2) {
              tree.remove(p);
              live.delete(p);
            } else if (r < 0.4) {
              p.x = rng() * 100 + 1 / 3;
              p.y = rng() * 100 + 1 / 3;
              tree.update(p);
            }
          }
          const nodes = collect((cb) => tree.visitAfter(cb, OPTIONS));
          const items2 = [...live];
          expect(nodes[nodes.length - 1]!.depth).toBe(0);
          expectAggregate(nodes[nodes.length - 1]!, brute(items2));
          // The order is visit's pre-order turned into post-order, empty subtrees left out.
          const want = postOrderOfVisit((cb) => tree.visit(cb)).filter(
            (c) => c.sub > 0 || c.depth === 0,
          );
          expect(nodes.map(shape)).toEqual(want.map(shape));
          expect(nodes.map((n) => n.count)).toEqual(want.map((c) => c.sub));
          // Points never straddle, so only the root holds items of its own (those outside).
          checkPostOrder(nodes, (n) => n.depth === 0);
          // Each non-root node aggregates exactly the items in its cell.
          for (const n of nodes) {
            if (n.depth === 0) continue;
            const inside = items2.filter(
              (p) => p.x >= n.x && p.x < n.x + n.width && p.y >= n.y && p.y < n.y + n.height,
            );
            expectAggregate(n, brute(inside));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('counts items and takes the plain centroid without options; an empty tree has a root of count 0', () => {
    const tree = new PointQuadtree<P>({ bounds: BOUNDS });
    const empty = collect((cb) => tree.visitAfter(cb));
    expect(empty.length).toBe(1);
    expect([empty[0]!.count, empty[0]!.weight, empty[0]!.value]).toEqual([0, 0, 0]);
    tree.insert({ x: 10, y: 20, mass: 5 });
    tree.insert({ x: 30, y: 40, mass: 1 });
    const root = collect((cb) => tree.visitAfter(cb)).pop()!;
    expect([root.count, root.weight, root.cx, root.cy, root.value]).toEqual([2, 2, 20, 30, 0]);
    // The default reduce is a sum.
    const sum = collect((cb) => tree.visitAfter(cb, { map: (p) => p.mass })).pop()!;
    expect(sum.value).toBe(6);
  });

  it('rejects bad options and callbacks that mutate the tree, leaving it unchanged', () => {
    const tree = new PointQuadtree<P>({ bounds: BOUNDS });
    const p = { x: 1, y: 1, mass: 1 };
    tree.insert(p);
    expect(() => tree.visitAfter(null as never)).toThrow(TypeError);
    expect(() => tree.visitAfter(() => {}, { weight: 3 as never })).toThrow(/options.weight/);
    expect(() => tree.visitAfter(() => {}, { map: () => Number.NaN })).toThrow(/options.map/);
    expect(() => tree.visitAfter(() => {}, { weight: () => 'x' as never })).toThrow(RangeError);
    expect(() => tree.visitAfter(() => tree.remove(p))).toThrow(/inside/);
    expect(tree.has(p)).toBe(true);
    expect(tree.size).toBe(1);
  });
});

describe('StaticQuadtree.visitAfter', () => {
  it('gives each inner node the aggregate of the items under it, children first', () => {
    fc.assert(
      fc.property(
        fc.array(point, { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 2, max: 16 }),
        (items, nodeSize) => {
          const tree = StaticQuadtree.from(items, { nodeSize });
          const nodes = collect((cb) => tree.visitAfter(cb, OPTIONS));
          expectAggregate(nodes[nodes.length - 1]!, brute(items));
          checkPostOrder(nodes, () => false);
          // The order is visit's pre-order (inner nodes) turned into post-order.
          const want = postOrderOfVisit((cb) => tree.visit(cb));
          expect(nodes.map(shape)).toEqual(want.map(shape));
          expect(nodes.map((n) => n.count)).toEqual(want.map((c) => c.sub));
          // The lowest nodes (all on one level) hold every item once, at most nodeSize each;
          // every centroid lies in its node's box.
          const deepest = Math.max(...nodes.map((n) => n.depth));
          const lowest = nodes.filter((n) => n.depth === deepest);
          expect(lowest.reduce((s, n) => s + n.count, 0)).toBe(items.length);
          for (const n of lowest) expect(n.count).toBeLessThanOrEqual(nodeSize);
          for (const n of nodes) {
            expect(n.cx).toBeGreaterThanOrEqual(n.x - 1e-9);
            expect(n.cx).toBeLessThanOrEqual(n.x + n.width + 1e-9);
            expect(n.cy).toBeGreaterThanOrEqual(n.y - 1e-9);
            expect(n.cy).toBeLessThanOrEqual(n.y + n.height + 1e-9);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('names the input index of an item whose weight is not a number, for trees of objects and of raw points', () => {
    // Points placed so that the curve order differs from the input order.
    const coords = [9, 9, 0, 0, 9, 0, 0, 9, 5, 5];
    const objects = Array.from({ length: 5 }, (_, i) => ({
      x: coords[2 * i]!,
      y: coords[2 * i + 1]!,
    }));
    for (const bad of [0, 2, 4]) {
      const fromObjects = StaticQuadtree.from(objects, { nodeSize: 2 });
      expect(() =>
        fromObjects.visitAfter(() => {}, { weight: (o) => (o === objects[bad] ? Number.NaN : 1) }),
      ).toThrow(new RegExp(`slot ${bad}\\)`));
      const fromPoints = StaticQuadtree.fromPoints(coords, { nodeSize: 2 });
      expect(() =>
        fromPoints.visitAfter(() => {}, { weight: (i) => (i === bad ? Number.NaN : 1) }),
      ).toThrow(new RegExp(`slot ${bad}\\)`));
    }
  });

  it('passes item indices to the options of a tree built from raw points', () => {
    const coords = [1, 1, 3, 3, 5, 5];
    const tree = StaticQuadtree.fromPoints(coords);
    const root = collect((cb) =>
      tree.visitAfter(cb, { weight: (i) => i + 1, map: (i) => i * 10 }),
    ).pop()!;
    expect([root.count, root.weight, root.value]).toEqual([3, 6, 30]);
    expect(root.cx).toBeCloseTo((1 * 1 + 2 * 3 + 3 * 5) / 6, 12);
    expect(collect((cb) => StaticQuadtree.fromPoints([]).visitAfter(cb)).length).toBe(0);
  });
});
