// Hilbert order of boxes by their centres, as the packed R-tree of FlatGeobuf and the rows of a
// GeoParquet file are sorted: the centres on a 65536 x 65536 grid over the boxes' extent, keyed
// by the Hilbert curve of "Fast Hilbert curve generation, sorting, and range queries"
// (rawrunprotected.com), the function flatbush and FlatGeobuf use.

/** The side of the grid the centres are placed on (16 bits per axis). */
export const HILBERT_GRID = 65535;

/**
 * The Hilbert index of the cell (x, y) of a 65536 x 65536 grid (each in [0, 65535]).
 * @param x - the column; `y` the row.
 */
export function hilbert(x: number, y: number): number {
  // Phase 1: the curve's state for each level, built from the top bit down.
  let a = x ^ y;
  let b = 0xffff ^ a;
  let c = 0xffff ^ (x | y);
  let d = x & (y ^ 0xffff);
  let A = a | (b >> 1);
  let B = (a >> 1) ^ a;
  let C = (c >> 1) ^ (b & (d >> 1)) ^ c;
  let D = (a & (c >> 1)) ^ (d >> 1) ^ d;
  a = A;
  b = B;
  c = C;
  d = D;
  A = (a & (a >> 2)) ^ (b & (b >> 2));
  B = (a & (b >> 2)) ^ (b & ((a ^ b) >> 2));
  C ^= (a & (c >> 2)) ^ (b & (d >> 2));
  D ^= (b & (c >> 2)) ^ ((a ^ b) & (d >> 2));
  a = A;
  b = B;
  c = C;
  d = D;
  A = (a & (a >> 4)) ^ (b & (b >> 4));
  B = (a & (b >> 4)) ^ (b & ((a ^ b) >> 4));
  C ^= (a & (c >> 4)) ^ (b & (d >> 4));
  D ^= (b & (c >> 4)) ^ ((a ^ b) & (d >> 4));
  a = A;
  b = B;
  c = C;
  d = D;
  C ^= (a & (c >> 8)) ^ (b & (d >> 8));
  D ^= (b & (c >> 8)) ^ ((a ^ b) & (d >> 8));
  // Phase 2: undo the transformation prefix scan, then interleave the bits.
  a = C ^ (C >> 1);
  b = D ^ (D >> 1);
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

/**
 * The indices 0..n-1 of the boxes sorted by the Hilbert index of their centres on the grid over
 * `extent` (ties in input order).
 * @param boxes - n boxes as [minX, minY, maxX, maxY] in a row.
 * @param extent - [minX, minY, maxX, maxY] of all of them.
 */
export function hilbertOrder(
  boxes: Float64Array,
  extent: readonly [number, number, number, number],
): Uint32Array {
  const n = boxes.length / 4;
  const [minX, minY, maxX, maxY] = extent;
  const width = maxX - minX || 1;
  const height = maxY - minY || 1;
  // Key and index packed in one 64-bit integer per box (key << 32 | index), sorted as numbers:
  // no comparator, no objects, ties in input order.
  const packed = new BigUint64Array(n);
  for (let i = 0; i < n; i++) {
    const x = Math.floor((HILBERT_GRID * ((boxes[4 * i]! + boxes[4 * i + 2]!) / 2 - minX)) / width);
    const y = Math.floor(
      (HILBERT_GRID * ((boxes[4 * i + 1]! + boxes[4 * i + 3]!) / 2 - minY)) / height,
    );
    packed[i] = (BigInt(hilbert(x, y)) << 32n) | BigInt(i);
  }
  packed.sort();
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = Number(packed[i]! & 0xffffffffn);
  return order;
}
