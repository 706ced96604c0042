// The build of the packed static tree (see packed.ts for the layout): Hilbert keys of the box
// centres, an LSD radix sort of the keys, the leaves placed in curve order, then each level of
// parents. The boxes come from a BoxSource, a chunk at a time: one Float64Array of the caller's,
// or items read into a small buffer twice (keys, then placement), so that building from objects
// allocates no array of all their boxes (32 bytes per item that would also make V8 collect the
// whole heap on the way, for the external memory).
// Reading each object once was measured two ways over 1M boxes and set aside: holding every box
// between the passes sent 8 of 12 builds to 200-250 ms (a full collection, against 110-120 ms
// now); reading the boxes into the leaves in input order and sorting them there (an in-place
// MSD radix sort, the "American flag sort" of McIlroy, Bostic and McIlroy, 1993, then small
// sorts per bucket) moved 40 bytes per leaf where the radix sort below moves 8, and the build
// from a Float64Array went from 82 to 123 ms: more than the second read of the objects saves.

/** Where a build reads its boxes (minX, minY, maxX, maxY per item), a chunk at a time. */
export interface BoxSource {
  /** The number of items. */
  readonly n: number;
  /** The most items `read` is asked for at a time. */
  readonly chunk: number;
  /**
   * The boxes of items [start, start + count), from index 0 of the array returned; the array
   * may be reused by the next call. Throws, or returns boxes the build refuses, for bad items.
   */
  read(start: number, count: number): Float64Array;
  /** The boxes of every `step`-th item and of the last, packed in one array. */
  sample(step: number): Float64Array;
}

/** The items of a sample of n: every `step`-th one, the last taken after the others. */
export function sampled(n: number, step: number): Int32Array {
  const m = Math.ceil(n / step);
  const picks = new Int32Array(m);
  for (let s = 0; s < m; s++) picks[s] = s + 1 < m ? s * step : n - 1;
  return picks;
}

/** A BoxSource over one Float64Array of n boxes. */
export function arraySource(src: Float64Array, n: number): BoxSource {
  return {
    n,
    chunk: Math.max(n, 1),
    read: (start, count) =>
      start === 0 && 4 * count === src.length ? src : src.subarray(4 * start, 4 * (start + count)),
    sample: (step) => {
      const picks = sampled(n, step);
      const out = new Float64Array(4 * picks.length);
      for (let s = 0; s < picks.length; s++)
        out.set(src.subarray(4 * picks[s]!, 4 * picks[s]! + 4), 4 * s);
      return out;
    },
  };
}

/** Bytes of the buffer's header. */
export const HEADER = 64;
/** Boxes sampled for the curve's grid when no bounds are given. */
const SAMPLE = 4096;
/** Items read at a time from a source of boxes that is not one array. */
export const CHUNK = 16384;
const INF = Number.POSITIVE_INFINITY;

/** The number of nodes on each level, from the leaves up, for n items: at least one level of
 * inner nodes, so the root is never a leaf. */
export function levelSizes(n: number, nodeSize: number): number[] {
  const sizes = [n];
  let m = n;
  do {
    m = Math.ceil(m / nodeSize);
    sizes.push(m);
  } while (m > 1);
  return sizes;
}

/** Bytes of a buffer holding `nodes` nodes: header, boxes, then indices padded to 8 bytes. */
export function byteSize(nodes: number): number {
  return HEADER + nodes * 32 + Math.ceil((nodes * 4) / 8) * 8;
}

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

// Sorts the items by key: an LSD radix sort of the items 0..n-1 by `keys` in three passes of 11
// bits through the scratch arrays `keys2`, `ids2` and `ids`, skipping a pass whose digit is the
// same for every key (the first pass that runs reads the items in order, so no array of ids is
// filled). The last pass that runs writes the items in order to `indices` and each item's rank
// to `rank`. `counts` holds the histograms of the three digits (2048 each, see `hilbertKeys`);
// they are used up.
function radixSort(
  keys: Uint32Array,
  ids: Int32Array,
  keys2: Uint32Array,
  ids2: Int32Array,
  counts: Int32Array,
  indices: Int32Array,
  rank: Uint32Array,
): void {
  const n = keys.length;
  let last = -1;
  for (let pass = 0; pass < 3; pass++) if (!singleDigit(counts, 2048 * pass, n)) last = pass;
  let srcK = keys;
  let srcI = ids;
  let dstK = keys2;
  let dstI = ids2;
  let first = 1;
  for (let pass = 0; pass <= last; pass++) {
    const base = 2048 * pass;
    if (singleDigit(counts, base, n)) continue;
    // Prefix sums, then scatter.
    let sum = 0;
    for (let b = 0; b < 2048; b++) {
      const c = counts[base + b]!;
      counts[base + b] = sum;
      sum += c;
    }
    if (pass === last) {
      rankPass(srcK, srcI, first, counts, base, 11 * pass, indices, rank);
      return;
    }
    scatterPass(srcK, srcI, first, dstK, dstI, counts, base, 11 * pass);
    first = 0;
    const tk = srcK;
    srcK = dstK;
    dstK = tk;
    const ti = srcI;
    srcI = dstI;
    dstI = ti;
  }
  // No pass ran (n <= 1, or every key is the same): the input order.
  for (let i = 0; i < n; i++) {
    indices[i] = i;
    rank[i] = i;
  }
}

// Whether all n keys have the same digit: one bucket of the histogram at `base` holds them all.
function singleDigit(counts: Int32Array, base: number, n: number): boolean {
  for (let b = 0; b < 2048; b++) {
    const c = counts[base + b]!;
    if (c !== 0) return c === n;
  }
  return true;
}

// One radix pass: moves key and id i (i itself in the `first` pass) to position
// counts[base + digit]++.
function scatterPass(
  srcK: Uint32Array,
  srcI: Int32Array,
  first: number,
  dstK: Uint32Array,
  dstI: Int32Array,
  counts: Int32Array,
  base: number,
  shift: number,
): void {
  const n = srcK.length;
  for (let i = 0; i < n; i++) {
    const k = srcK[i]!;
    const p = counts[base + ((k >>> shift) & 2047)]!++;
    dstK[p] = k;
    dstI[p] = first ? i : srcI[i]!;
  }
}

// The last radix pass: item srcI[i] (i in the `first` pass) goes to position
// p = counts[base + digit]++ of `indices`, and its rank p to rank[item].
function rankPass(
  srcK: Uint32Array,
  srcI: Int32Array,
  first: number,
  counts: Int32Array,
  base: number,
  shift: number,
  indices: Int32Array,
  rank: Uint32Array,
): void {
  const n = srcK.length;
  for (let i = 0; i < n; i++) {
    const p = counts[base + ((srcK[i]! >>> shift) & 2047)]!++;
    const id = first ? i : srcI[i]!;
    indices[p] = id;
    rank[id] = p;
  }
}

/**
 * The extent (minX, minY, maxX, maxY) of every `step`-th of n boxes and the last one, widened on
 * each side by `widen` times its size.
 */
function sampleExtent(src: Float64Array, n: number, step: number, widen: number): Float64Array {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i += step) {
    // (The last box is taken after the others.)
    const j = 4 * (i + step < n ? i : n - 1);
    if (src[j]! < minX) minX = src[j]!;
    if (src[j + 1]! < minY) minY = src[j + 1]!;
    if (src[j + 2]! > maxX) maxX = src[j + 2]!;
    if (src[j + 3]! > maxY) maxY = src[j + 3]!;
  }
  const w = (maxX - minX) * widen;
  const h = (maxY - minY) * widen;
  return Float64Array.of(minX - w, minY - h, maxX + w, maxY + h);
}

// Writes the Hilbert keys of the centres of n boxes on a 65536 x 65536 grid over the extent
// ext (minX, minY, maxX, maxY) to `keys` from `at` (the first box's item), and adds the keys' digits to the histograms in
// `counts` (see `radixSort`). On the way it checks each box (min <= max, so no NaN) and takes
// the boxes' extent into `seen` (widening what it holds); returns false if a box failed the check.
function hilbertKeys(
  src: Float64Array,
  n: number,
  ext: Float64Array,
  keys: Uint32Array,
  at: number,
  counts: Int32Array,
  seen: Float64Array,
): boolean {
  const minX = ext[0]!;
  const minY = ext[1]!;
  const maxX = ext[2]!;
  const maxY = ext[3]!;
  const sx = maxX > minX ? 65535 / (maxX - minX) : 0;
  const sy = maxY > minY ? 65535 / (maxY - minY) : 0;
  let x0 = seen[0]!;
  let y0 = seen[1]!;
  let x1 = seen[2]!;
  let y1 = seen[3]!;
  let ok = true;
  for (let i = 0; i < n; i++) {
    const j = 4 * i;
    const a = src[j]!;
    const b = src[j + 1]!;
    const c = src[j + 2]!;
    const d = src[j + 3]!;
    if (!(a <= c && b <= d)) ok = false;
    if (a < x0) x0 = a;
    if (b < y0) y0 = b;
    if (c > x1) x1 = c;
    if (d > y1) y1 = d;
    // Clamped: items outside the grid get edge keys (the tree stays exact, only looser).
    let cx = Math.floor(sx * ((a + c) / 2 - minX));
    let cy = Math.floor(sy * ((b + d) / 2 - minY));
    cx = cx > 65535 ? 65535 : cx > 0 ? cx : 0;
    cy = cy > 65535 ? 65535 : cy > 0 ? cy : 0;
    const k = hilbert(cx, cy);
    keys[at + i] = k;
    // The histograms of the radix sort's three digits.
    counts[k & 2047]!++;
    counts[2048 + ((k >>> 11) & 2047)]!++;
    counts[4096 + (k >>> 22)]!++;
  }
  seen[0] = x0;
  seen[1] = y0;
  seen[2] = x1;
  seen[3] = y1;
  return ok;
}

// Writes the leaves' boxes in curve order: box i of `src`, item at + i, goes to node
// rank[at + i]. Reads the input
// in order and scatters (random writes stall less than random reads).
function placeLeaves(
  src: Float64Array,
  n: number,
  at: number,
  rank: Uint32Array,
  boxes: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const p = rank[at + i]!;
    boxes[4 * p] = src[4 * i]!;
    boxes[4 * p + 1] = src[4 * i + 1]!;
    boxes[4 * p + 2] = src[4 * i + 2]!;
    boxes[4 * p + 3] = src[4 * i + 3]!;
  }
}

// Writes the leaves as placeLeaves does, and widens their parents (nodes n.., one per 2^shift
// leaves, set up by initParents) to the box around their leaves.
function placeLeavesAndParents(
  src: Float64Array,
  count: number,
  at: number,
  rank: Uint32Array,
  boxes: Float64Array,
  n: number,
  shift: number,
): void {
  for (let i = 0; i < count; i++) {
    const p = rank[at + i]!;
    const minX = src[4 * i]!;
    const minY = src[4 * i + 1]!;
    const maxX = src[4 * i + 2]!;
    const maxY = src[4 * i + 3]!;
    boxes[4 * p] = minX;
    boxes[4 * p + 1] = minY;
    boxes[4 * p + 2] = maxX;
    boxes[4 * p + 3] = maxY;
    const q = 4 * (n + (p >> shift));
    if (minX < boxes[q]!) boxes[q] = minX;
    if (minY < boxes[q + 1]!) boxes[q + 1] = minY;
    if (maxX > boxes[q + 2]!) boxes[q + 2] = maxX;
    if (maxY > boxes[q + 3]!) boxes[q + 3] = maxY;
  }
}

// Writes from node `pos` on the parents of nodes [from, end), one per nodeSize of them: the
// box around the children and the first child's position; returns the next free node.
function buildLevel(
  boxes: Float64Array,
  indices: Int32Array,
  from: number,
  end: number,
  nodeSize: number,
  pos: number,
): number {
  for (let c = from; c < end; c += nodeSize) {
    const last = Math.min(c + nodeSize, end);
    let a = Number.POSITIVE_INFINITY;
    let b = Number.POSITIVE_INFINITY;
    let d = Number.NEGATIVE_INFINITY;
    let e = Number.NEGATIVE_INFINITY;
    for (let k = c; k < last; k++) {
      if (boxes[4 * k]! < a) a = boxes[4 * k]!;
      if (boxes[4 * k + 1]! < b) b = boxes[4 * k + 1]!;
      if (boxes[4 * k + 2]! > d) d = boxes[4 * k + 2]!;
      if (boxes[4 * k + 3]! > e) e = boxes[4 * k + 3]!;
    }
    boxes[4 * pos] = a;
    boxes[4 * pos + 1] = b;
    boxes[4 * pos + 2] = d;
    boxes[4 * pos + 3] = e;
    indices[pos] = c;
    pos++;
  }
  return pos;
}

/**
 * Builds the tree of `source`'s boxes into `boxes` and `indices` (the views of a new buffer laid
 * out for levels `sizes`), over the curve's grid `bounds` (minX, minY, maxX, maxY) or, when null,
 * a box around the boxes, and writes each item's leaf position to `rank` (n entries). Returns
 * false, with the tree half built, when a box has min > max, a NaN or an infinite coordinate.
 */
export function fillTree(
  source: BoxSource,
  sizes: number[],
  nodeSize: number,
  bounds: Float64Array | null,
  boxes: Float64Array,
  indices: Int32Array,
  rank: Uint32Array,
): boolean {
  const n = source.n;
  // Each step is a function of its own with one hot loop: V8 optimizes each on its own, with
  // complete type feedback, instead of re-optimizing one long function part by part.
  // Hilbert keys of the box centres on a 65536 x 65536 grid, with the histograms of the
  // sort's digits. The sort's scratch lives where the boxes will go (16 of their 32 bytes per
  // item): memory touched once instead of twice, as a fresh page costs more than the writes.
  const scratch = boxes.buffer;
  const at = boxes.byteOffset;
  const keys = new Uint32Array(scratch, at, n);
  const counts = new Int32Array(3 * 2048);
  // The grid: the given bounds, else the extent of a sample of the boxes, widened. The key pass
  // checks the boxes and takes their extent on the way (one pass over the input, not two), and
  // runs again over that extent in the rare case that some box lies outside the sample's.
  let ext = bounds;
  if (ext === null) {
    const sample = source.sample(Math.max(1, Math.floor(n / SAMPLE)));
    ext = sampleExtent(sample, sample.length / 4, 1, 1 / 64);
  }
  const seen = new Float64Array(4);
  if (!keyPass(source, ext, keys, counts, seen)) return false;
  // An infinite coordinate makes the extent infinite.
  if (n > 0 && !(-seen[0]! < INF && -seen[1]! < INF && seen[2]! < INF && seen[3]! < INF)) {
    return false;
  }
  // (A sample's grid that overflowed when widened is not used either.)
  if (
    bounds === null &&
    !(
      seen[0]! >= ext[0]! &&
      seen[1]! >= ext[1]! &&
      seen[2]! <= ext[2]! &&
      seen[3]! <= ext[3]! &&
      ext[2]! - ext[0]! < INF &&
      ext[3]! - ext[1]! < INF
    )
  ) {
    counts.fill(0);
    if (!keyPass(source, seen.slice(), keys, counts, seen)) return false;
  }
  // The leaves, in curve order.
  const ids = new Int32Array(scratch, at + 4 * n, n);
  const keys2 = new Uint32Array(scratch, at + 8 * n, n);
  const ids2 = new Int32Array(scratch, at + 12 * n, n);
  radixSort(keys, ids, keys2, ids2, counts, indices, rank);
  // Each level up: a node's box bounds its nodeSize children. With a power-of-two nodeSize
  // the leaves' parents are taken while the leaves are placed (they fit in cache; the leaves
  // do not, and are not read again).
  let from = 0;
  let pos = n;
  let l = 1;
  const shift = 31 - Math.clz32(nodeSize);
  const fused = sizes.length > 1 && 1 << shift === nodeSize;
  if (fused) {
    pos = n + sizes[1]!;
    initParents(boxes, indices, n, shift);
    from = n;
    l = 2;
  }
  for (let start = 0; start < n; start += source.chunk) {
    const count = Math.min(source.chunk, n - start);
    const src = source.read(start, count);
    if (fused) placeLeavesAndParents(src, count, start, rank, boxes, n, shift);
    else placeLeaves(src, count, start, rank, boxes);
  }
  for (; l < sizes.length; l++) {
    const end = from + sizes[l - 1]!;
    pos = buildLevel(boxes, indices, from, end, nodeSize, pos);
    from = end;
  }
  return true;
}

// The key pass over every chunk of the source (see hilbertKeys); `seen` starts empty.
function keyPass(
  source: BoxSource,
  ext: Float64Array,
  keys: Uint32Array,
  counts: Int32Array,
  seen: Float64Array,
): boolean {
  seen[0] = INF;
  seen[1] = INF;
  seen[2] = -INF;
  seen[3] = -INF;
  let ok = true;
  for (let start = 0; start < source.n; start += source.chunk) {
    const count = Math.min(source.chunk, source.n - start);
    ok = hilbertKeys(source.read(start, count), count, ext, keys, start, counts, seen) && ok;
  }
  return ok;
}

// Empties the parents of the leaves (nodes n.., one per 2^shift leaves) and points each at its
// first leaf.
function initParents(boxes: Float64Array, indices: Int32Array, n: number, shift: number): void {
  const parents = ((n - 1) >> shift) + 1;
  for (let j = 0; j < parents; j++) {
    boxes[4 * (n + j)] = INF;
    boxes[4 * (n + j) + 1] = INF;
    boxes[4 * (n + j) + 2] = -INF;
    boxes[4 * (n + j) + 3] = -INF;
    indices[n + j] = j << shift;
  }
}
