// The Hilbert curve the packed tree orders its leaves by, on a 65536 x 65536 grid.

// The Hilbert curve as a state machine: in state s, the quadrant q = xBit | yBit << 1 of the next
// bit of each axis gives two digits of the index, HILBERT_DIGIT[4s + q], and the state of the
// next bits, HILBERT_NEXT[4s + q]. (Read off the branch-free function of "Fast Hilbert curve
// generation, sorting, and range queries" (rawrunprotected.com), which flatbush uses: the same
// curve, the same indices.)
const HILBERT_DIGIT = [0, 3, 1, 2, 0, 1, 3, 2, 2, 3, 1, 0, 2, 1, 3, 0];
const HILBERT_NEXT = [1, 2, 0, 0, 0, 1, 3, 1, 2, 0, 2, 3, 3, 3, 1, 2];

// The machine 4 bits per axis at a time: entry (s << 8 | xNibble << 4 | yNibble) holds the next
// state << 8 | 8 bits of the index.
const HILBERT_TABLE = hilbertTable();

function hilbertTable(): Uint16Array {
  const table = new Uint16Array(4 * 256);
  for (let s = 0; s < 4; s++) {
    for (let x = 0; x < 16; x++) {
      for (let y = 0; y < 16; y++) {
        let state = s;
        let digits = 0;
        for (let b = 3; b >= 0; b--) {
          const q = 4 * state + (((x >> b) & 1) | (((y >> b) & 1) << 1));
          digits = (digits << 2) | HILBERT_DIGIT[q]!;
          state = HILBERT_NEXT[q]!;
        }
        table[(s << 8) | (x << 4) | y] = (state << 8) | digits;
      }
    }
  }
  return table;
}

/**
 * The Hilbert index of (x, y), 16 bits each: four lookups, each 4 bits of both axes (about 4x
 * faster than the branch-free bit version).
 * @internal
 */
export function hilbert(x: number, y: number): number {
  const t = HILBERT_TABLE;
  let e = t[((x >>> 8) & 0xf0) | (y >>> 12)]!;
  let h = e & 255;
  e = t[((e >>> 8) << 8) | ((x >>> 4) & 0xf0) | ((y >>> 8) & 15)]!;
  h = (h << 8) | (e & 255);
  e = t[((e >>> 8) << 8) | (x & 0xf0) | ((y >>> 4) & 15)]!;
  h = (h << 8) | (e & 255);
  e = t[((e >>> 8) << 8) | ((x << 4) & 0xf0) | (y & 15)]!;
  return ((h << 8) | (e & 255)) >>> 0;
}

/**
 * The Hilbert key of the centre of the box (a, b, c, d) on the grid from (minX, minY) at sx, sy
 * cells per unit, clamped: items outside the grid get edge keys (the tree stays exact, only
 * looser).
 */
export function centreKey(
  a: number,
  b: number,
  c: number,
  d: number,
  minX: number,
  minY: number,
  sx: number,
  sy: number,
): number {
  let cx = Math.floor(sx * ((a + c) / 2 - minX));
  let cy = Math.floor(sy * ((b + d) / 2 - minY));
  cx = cx > 65535 ? 65535 : cx > 0 ? cx : 0;
  cy = cy > 65535 ? 65535 : cy > 0 ? cy : 0;
  return hilbert(cx, cy);
}
