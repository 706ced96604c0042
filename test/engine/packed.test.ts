import { describe, expect, it } from 'vitest';
import { hilbert } from '../../src/engine/hilbert.js';
import { PackedTree } from '../../src/engine/packed.js';
import { CIRCLE, POINT } from '../../src/engine/scan.js';
import { arraySource } from '../../src/engine/sources.js';
import { mulberry32 } from '../oracle.js';

// The branch-free Hilbert index of "Fast Hilbert curve generation, sorting, and range queries"
// (rawrunprotected.com), as flatbush computes it: the reference for the table-driven one.
function reference(x: number, y: number): number {
  let a = x ^ y;
  let b = 0xffff ^ a;
  let c = 0xffff ^ (x | y);
  let d = x & (y ^ 0xffff);
  let A = a | (b >>> 1);
  let B = (a >>> 1) ^ a;
  let C = (c >>> 1) ^ (b & (d >>> 1)) ^ c;
  let D = (a & (c >>> 1)) ^ (d >>> 1) ^ d;
  a = A;
  b = B;
  c = C;
  d = D;
  A = (a & (a >>> 2)) ^ (b & (b >>> 2));
  B = (a & (b >>> 2)) ^ (b & ((a ^ b) >>> 2));
  C ^= (a & (c >>> 2)) ^ (b & (d >>> 2));
  D ^= (b & (c >>> 2)) ^ ((a ^ b) & (d >>> 2));
  a = A;
  b = B;
  c = C;
  d = D;
  A = (a & (a >>> 4)) ^ (b & (b >>> 4));
  B = (a & (b >>> 4)) ^ (b & ((a ^ b) >>> 4));
  C ^= (a & (c >>> 4)) ^ (b & (d >>> 4));
  D ^= (b & (c >>> 4)) ^ ((a ^ b) & (d >>> 4));
  a = A;
  b = B;
  c = C;
  d = D;
  C ^= (a & (c >>> 8)) ^ (b & (d >>> 8));
  D ^= (b & (c >>> 8)) ^ ((a ^ b) & (d >>> 8));
  a = C ^ (C >>> 1);
  b = D ^ (D >>> 1);
  let i0 = x ^ y;
  let i1 = b | (0xffff ^ (i0 | a));
  i0 = (i0 | (i0 << 8)) & 0x00ff00ff;
  i0 = (i0 | (i0 << 4)) & 0x0f0f0f0f;
  i0 = (i0 | (i0 << 2)) & 0x33333333;
  i0 = (i0 | (i0 << 1)) & 0x55555555;
  i1 = (i1 | (i1 << 8)) & 0x00ff00ff;
  i1 = (i1 | (i1 << 4)) & 0x0f0f0f0f;
  i1 = (i1 | (i1 << 2)) & 0x33333333;
  i1 = (i1 | (i1 << 1)) & 0x55555555;
  return ((i1 << 1) | i0) >>> 0;
}

describe('hilbert(x, y)', () => {
  it('equals the branch-free reference (the curve flatbush uses) on every 16-bit row and column sampled, the edges and random points', () => {
    const edges = [0, 1, 2, 15, 16, 255, 256, 4095, 4096, 32767, 32768, 65534, 65535];
    const rng = mulberry32(21);
    const values = [...edges, ...Array.from({ length: 60 }, () => Math.floor(rng() * 65536))];
    let checked = 0;
    for (const x of values) {
      for (const y of values) {
        expect(hilbert(x, y), `hilbert(${x}, ${y})`).toBe(reference(x, y));
        checked++;
      }
    }
    // Whole low corner: every cell of a 256 x 256 grid.
    for (let x = 0; x < 256; x++) {
      for (let y = 0; y < 256; y++) {
        if (hilbert(x, y) !== reference(x, y)) expect(hilbert(x, y)).toBe(reference(x, y));
        checked++;
      }
    }
    expect(checked).toBe(values.length ** 2 + 65536);
  });

  it('is a bijection on a 64 x 64 block whose consecutive indices are neighbouring cells', () => {
    // The block [0, 64)^2 at the origin is the first 4096 indices of the curve.
    const at = new Map<number, [number, number]>();
    for (let x = 0; x < 64; x++) for (let y = 0; y < 64; y++) at.set(hilbert(x, y), [x, y]);
    expect(at.size).toBe(4096);
    for (let h = 1; h < 4096; h++) {
      const [x0, y0] = at.get(h - 1)!;
      const [x1, y1] = at.get(h)!;
      expect(Math.abs(x1 - x0) + Math.abs(y1 - y0)).toBe(1);
    }
  });
});

describe('PackedTree.answerPositions()', () => {
  const KINDS: [string, boolean][] = [
    ['boxes', false],
    ['points', true],
  ];

  // The leaf positions that walk entries [0, n) stand for (runs expanded, see runLength).
  function expand(entries: Int32Array, n: number): number[] {
    const out: number[] = [];
    for (let k = 0; k < n; k++) {
      const e = entries[k]!;
      if (e >= 0) out.push(e);
      else for (let p = ~e, end = ~e + entries[++k]!; p < end; p++) out.push(p);
    }
    return out;
  }

  /**
   * Seeded boxes (points on whole coordinates, so that some coincide, when `points`), as two
   * trees: one answers indices, one positions.
   */
  function twoTrees(n: number, points: boolean, seed: number): [PackedTree, PackedTree] {
    const rnd = mulberry32(seed);
    const boxes = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      const x = points ? Math.floor(rnd() * 100) : rnd() * 100;
      const y = points ? Math.floor(rnd() * 100) : rnd() * 100;
      const s = points ? 0 : rnd() * 4;
      boxes.set([x, y, x + s, y + s], 4 * i);
    }
    const build = () => PackedTree.build(arraySource(boxes, n), 4, false, null, null)!;
    const positions = build();
    positions.answerPositions();
    return [build(), positions];
  }

  it.each(KINDS)(
    'makes window, circle and pair walks over %s answer leaf positions p, the items indices[p], with no table of positions kept',
    (_, points) => {
      const [byIndex, byPosition] = twoTrees(3000, points, 17);
      expect(byPosition.emit.length).toBe(0);
      const rnd = mulberry32(18);
      const q = new Float64Array(4);
      let seen = 0;
      for (let t = 0; t < 50; t++) {
        const x = rnd() * 100;
        const y = rnd() * 100;
        const r = rnd() * 20;
        // Windows: every leaf through the slot table (runs off), then the circle walk (runs on).
        q.set([x - r, y - r, x + r, y + r]);
        const n1 = byIndex.searchRect(q, 0, 0, Number.POSITIVE_INFINITY, byIndex.results, 0, -1);
        const want = Array.from(byIndex.results.subarray(0, n1));
        const n2 = byPosition.searchRect(
          q,
          0,
          0,
          Number.POSITIVE_INFINITY,
          byPosition.results,
          0,
          -1,
        );
        const got = Array.from(byPosition.results.subarray(0, n2));
        expect(got.map((p) => byPosition.indices[p])).toEqual(want);
        q.set([x, y, r, 0]);
        const c1 = Array.from(byIndex.results.subarray(0, byIndex.searchShape(CIRCLE, q, 0)));
        const c2 = expand(byPosition.results, byPosition.searchShape(CIRCLE, q, 0));
        expect(c2.map((p) => byPosition.indices[p]).sort((a, b) => a - b)).toEqual(
          c1.sort((a, b) => a - b),
        );
        seen += n1 + c1.length;
      }
      expect(seen).toBeGreaterThan(1000);
      const pairsOf = (tree: PackedTree, map: (a: number) => number) => {
        const out: string[] = [];
        tree.pairs(
          (a, b) => out.push(`${Math.min(map(a), map(b))},${Math.max(map(a), map(b))}`),
          null,
        );
        return out.sort();
      };
      const want = pairsOf(byIndex, (a) => a);
      expect(want.length).toBeGreaterThan(100);
      expect(pairsOf(byPosition, (p) => byPosition.indices[p]!)).toEqual(want);
    },
  );

  it.each(KINDS)(
    'makes nearest-first walks over %s answer leaf positions p whose items indices[p] are the item answers, ties in item order, keys alike',
    (_, points) => {
      const [byIndex, byPosition] = twoTrees(3000, points, 19);
      const rnd = mulberry32(20);
      const q = new Float64Array(4);
      for (let t = 0; t < 200; t++) {
        // Whole coordinates: on the points, many items tie (same point or same distance).
        q.set([Math.floor(rnd() * 100), Math.floor(rnd() * 100), Number.POSITIVE_INFINITY, 0]);
        const k = 1 + Math.floor(rnd() * 40);
        const n1 = byIndex.nearest(POINT, q, 0, k);
        const want = Array.from(byIndex.results.subarray(0, n1));
        const keys = Array.from(byIndex.best.keys.subarray(0, n1));
        const n2 = byPosition.nearest(POINT, q, 0, k);
        const got = Array.from(byPosition.results.subarray(0, n2));
        expect(got.map((p) => byPosition.indices[p])).toEqual(want);
        expect(Array.from(byPosition.best.keys.subarray(0, n2))).toEqual(keys);
      }
    },
  );
});

describe('PackedTree answer array', () => {
  // Random boxes of up to 1 x 1 in a 100 x 100 world.
  function tree(n: number): PackedTree {
    const rnd = mulberry32(31);
    const boxes = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      const x = rnd() * 100;
      const y = rnd() * 100;
      boxes.set([x, y, x + rnd(), y + rnd()], 4 * i);
    }
    return PackedTree.build(arraySource(boxes, n), 16, false, null, null)!;
  }

  it('starts with room for 1024 answers (at most the item count), which the first small windows use without growing it', () => {
    expect(tree(10).results.length).toBe(10);
    const big = tree(20_000);
    const first = big.results;
    expect(first.length).toBe(1024);
    const rnd = mulberry32(32);
    const q = new Float64Array(4);
    let answers = 0;
    for (let t = 0; t < 200; t++) {
      const x = rnd() * 95;
      const y = rnd() * 95;
      q.set([x, y, x + 5, y + 5]);
      answers += big.queryRect(q, 0, 0, Number.POSITIVE_INFINITY);
    }
    expect(answers).toBeGreaterThan(200 * 20);
    expect(big.results).toBe(first);
    // A window that answers more than that grows it, keeping every answer.
    q.set([0, 0, 100, 100]);
    expect(big.queryRect(q, 0, 0, Number.POSITIVE_INFINITY)).toBe(20_000);
    expect(big.results.length).toBeGreaterThanOrEqual(20_000);
  });

  it('starts with room for the first nearest searches (k up to 64), which they use without growing it', () => {
    const big = tree(20_000);
    const { keys, ids } = big.best;
    const queueKeys = big.queue.keys;
    const rnd = mulberry32(33);
    const q = new Float64Array(5);
    for (let t = 0; t < 200; t++) {
      q.set([rnd() * 100, rnd() * 100, Number.POSITIVE_INFINITY]);
      expect(big.nearest(POINT, q, 0, t % 2 === 0 ? 10 : 64)).toBe(t % 2 === 0 ? 10 : 64);
    }
    expect(big.best.keys).toBe(keys);
    expect(big.best.ids).toBe(ids);
    expect(big.queue.keys).toBe(queueKeys);
    // More than that grows the heap, keeping every answer.
    q.set([50, 50, Number.POSITIVE_INFINITY]);
    expect(big.nearest(POINT, q, 0, 500)).toBe(500);
    expect(big.best.keys.length).toBeGreaterThanOrEqual(500);
  });
});
