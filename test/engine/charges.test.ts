import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChargeTree } from '../../src/engine/charges.js';

/** Builds a tree over points and charges. */
function build(points: readonly [number, number, number][], tree = new ChargeTree()): ChargeTree {
  const n = points.length;
  tree.reserve(n);
  points.forEach(([x, y, s], i) => {
    tree.bx[i] = x;
    tree.by[i] = y;
    tree.bs[i] = s;
  });
  tree.build(n, 0.81);
  return tree;
}

/** Checks the structure of a built tree against its bodies. */
function checkTree(t: ChargeTree, points: readonly [number, number, number][]): void {
  const n = points.length;
  if (n === 0) {
    expect(t.nodes).toBe(0);
    return;
  }
  // Every body once, in tree order, as given.
  const seen = new Set<number>();
  for (let j = 0; j < n; j++) {
    const i = t.sid[j]!;
    seen.add(i);
    expect([t.sx[j], t.sy[j], t.ss[j]]).toEqual(points[i]);
  }
  expect(seen.size).toBe(n);
  expect([t.lo[0], t.hi[0], t.skip[0], t.parent[0]]).toEqual([0, n, t.nodes, -1]);
  for (let k = 0; k < t.nodes; k++) {
    const lo = t.lo[k]!;
    const hi = t.hi[k]!;
    const x0 = t.cellX[k]!;
    const y0 = t.cellY[k]!;
    const w = t.cellW[k]!;
    let charge = 0;
    let alike = true;
    for (let j = lo; j < hi; j++) {
      // Each body lies in the cell of each node that holds it.
      expect(t.sx[j]!).toBeGreaterThanOrEqual(x0);
      expect(t.sx[j]!).toBeLessThan(x0 + w);
      expect(t.sy[j]!).toBeGreaterThanOrEqual(y0);
      expect(t.sy[j]!).toBeLessThan(y0 + w);
      charge += t.ss[j]!;
      if (t.sx[j] !== t.sx[lo] || t.sy[j] !== t.sy[lo]) alike = false;
    }
    // All charges have one sign here: the node's charge is its bodies' sum.
    expect(t.charge[k]!).toBeCloseTo(charge, 6);
    // Children: the nodes from k + 1 to the skip, chained by their own skips, splitting the range
    // in order; an inner node has at least two; a leaf holds at most 8 bodies or one point.
    const children: number[] = [];
    for (let c = k + 1; c < t.skip[k]!; c = t.skip[c]!) children.push(c);
    if (children.length === 0) {
      expect(hi - lo <= 8 || alike).toBe(true);
    } else {
      expect(children.length).toBeGreaterThanOrEqual(2);
      expect(children.length).toBeLessThanOrEqual(4);
      let at = lo;
      for (const c of children) {
        expect(t.parent[c]).toBe(k);
        expect(t.lo[c]).toBe(at);
        expect(t.cellW[c]!).toBeLessThanOrEqual(w / 2);
        at = t.hi[c]!;
      }
      expect(at).toBe(hi);
    }
  }
}

const coord = fc.oneof(
  fc.double({ min: -1e4, max: 1e4, noNaN: true }),
  fc.integer({ min: -3, max: 3 }),
);

describe('ChargeTree', () => {
  it('partitions the bodies into cells in pre-order with skip pointers, charges summed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coord, coord, fc.integer({ min: 1, max: 50 })), { maxLength: 300 }),
        (raw) => {
          const points = raw.map(([x, y, s]) => [x, y, -s] as [number, number, number]);
          checkTree(build(points), points);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps 1,000 bodies at one point in one leaf, and separates a cluster 1e-9 wide far from the rest', () => {
    const same = Array.from({ length: 1000 }, () => [7.5, -2, -1] as [number, number, number]);
    const t = build(same);
    expect(t.nodes).toBe(1);
    checkTree(t, same);
    const cluster = Array.from(
      { length: 50 },
      (_, i) => [1e6 + i * 1e-9, 1e6 - i * 2e-9, -1] as [number, number, number],
    );
    const mixed = [...cluster, [0, 0, -1] as [number, number, number]];
    checkTree(build(mixed), mixed);
  });

  it('reuses its arrays for a build of the same or fewer bodies', () => {
    const t = new ChargeTree();
    const points = Array.from(
      { length: 100 },
      (_, i) => [i, (i * 7) % 13, -1] as [number, number, number],
    );
    build(points, t);
    const arrays = [t.bx, t.sx, t.lo, t.skip, t.charge];
    build(points.slice(0, 40), t);
    checkTree(t, points.slice(0, 40));
    const now = [t.bx, t.sx, t.lo, t.skip, t.charge];
    for (let k = 0; k < arrays.length; k++) expect(now[k]).toBe(arrays[k]);
  });
});
