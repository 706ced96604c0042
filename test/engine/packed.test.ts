import { describe, expect, it } from 'vitest';
import { PackedTree } from '../../src/engine/packed.js';
import { arraySource, hilbert } from '../../src/engine/packed-build.js';
import { exposeGc, settle } from '../gc.js';
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
  /** A tree over n unit boxes on a diagonal that answers leaf positions. */
  function positionsTree(n: number): PackedTree {
    const boxes = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) boxes.set([i, i, i + 1, i + 1], 4 * i);
    const tree = PackedTree.build(arraySource(boxes, n), 4, false, null, null)!;
    tree.answerPositions();
    return tree;
  }

  it('trees share one array of leaf positions 0, 1, 2, ..., which goes with the last tree that uses it', async () => {
    const gc = exposeGc();
    let big: PackedTree | null = positionsTree(5000);
    const small = positionsTree(100);
    expect(small.emit).toBe(big.emit);
    expect(Array.from(big.emit.subarray(0, 5000))).toEqual(
      Array.from({ length: 5000 }, (_, i) => i),
    );
    const gone = new WeakRef(big.emit);
    big = null;
    // `small` still holds it.
    await settle();
    gc();
    expect(gone.deref()).toBeDefined();
    // With no tree left that uses it, it is collected, and the next tree gets one of its own size.
    const size = small.emit.length;
    (small as { emit: Int32Array }).emit = new Int32Array(0);
    await settle();
    gc();
    expect(gone.deref()).toBeUndefined();
    expect(size).toBe(5000);
    expect(positionsTree(300).emit.length).toBe(300);
  });
});
