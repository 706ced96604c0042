// The build of the packed static tree (see packed.ts for the layout): Hilbert keys of the box
// centres, an LSD radix sort of the keys, the leaves placed in curve order, then each level of
// parents. The boxes come from a BoxSource (sources.ts) that runs the two passes over them
// (keys, then placement): one Float64Array of the caller's, or items read twice where their
// numbers are used, so that building from objects allocates no array of all their boxes (32
// bytes per item that would also make V8 collect the whole heap on the way, for the external
// memory).
// Reading each object once was measured two ways over 1M boxes and set aside: holding every box
// between the passes sent 8 of 12 builds to 200-250 ms (a full collection, against 110-120 ms
// then); reading the boxes into the leaves in input order and sorting them there (an in-place
// MSD radix sort, the "American flag sort" of McIlroy, Bostic and McIlroy, 1993, then small
// sorts per bucket) moved 40 bytes per leaf where the radix sort below moves 8, and the build
// from a Float64Array went from 82 to 123 ms: more than the second read of the objects saves.

import { centreKey } from './hilbert.js';

/**
 * Where a build reads its boxes (minX, minY, maxX, maxY per item): it runs the build's two
 * passes over them, with the kernels below (see sources.ts).
 */
export interface BoxSource {
  /** The number of items. */
  readonly n: number;
  /**
   * One pass over the boxes. With `rank` null, the key pass: item i's key on the curve's `grid`
   * (minX, minY, maxX, maxY) goes to keys[i] (see `hilbertKeys`), its digits are added to
   * `counts`, and `seen` is widened to the boxes. Else the placement: box i goes to leaf rank[i]
   * of `boxes` and, when `shift` >= 0, widens its parent (see `placeLeaves`). The key pass
   * returns false when a box is bad (a source of numbers: the caller names it), or throws naming
   * it (a source of items); the placement's answer is not read.
   */
  pass(
    grid: Float64Array,
    keys: Uint32Array,
    counts: Int32Array,
    seen: Float64Array,
    rank: Uint32Array | null,
    boxes: Float64Array,
    shift: number,
  ): boolean;
  /** The boxes of every `step`-th item and of the last, packed in one array. */
  sample(step: number): Float64Array;
  /**
   * True when every box is a point: by construction (a source of points), or as the key pass
   * found (a source of items, false when a box is not); undefined when not known (a scan finds
   * it when a query needs it). Read after the passes.
   */
  readonly points?: boolean;
}

/** Bytes of the buffer's header. */
export const HEADER = 64;
/** Boxes sampled for the curve's grid when no bounds are given. */
const SAMPLE = 4096;
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

/**
 * The key pass over n boxes of `src`, items at.. (see BoxSource.pass): the Hilbert keys of their
 * centres on a 65536 x 65536 grid over `grid` (minX, minY, maxX, maxY), with the digits' counts.
 * On the way it checks each box (min <= max, so no NaN) and widens `seen` to the boxes; returns
 * false if a box failed the check.
 */
export function hilbertKeys(
  src: Float64Array,
  n: number,
  grid: Float64Array,
  keys: Uint32Array,
  at: number,
  counts: Int32Array,
  seen: Float64Array,
): boolean {
  const minX = grid[0]!;
  const minY = grid[1]!;
  const sx = gridScale(grid, 0);
  const sy = gridScale(grid, 1);
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
    const k = centreKey(a, b, c, d, minX, minY, sx, sy);
    keys[at + i] = k;
    countKey(counts, k);
  }
  seen[0] = x0;
  seen[1] = y0;
  seen[2] = x1;
  seen[3] = y1;
  return ok;
}

/**
 * Grid cells per unit along axis 0 (x) or 1 (y) of `grid` (minX, minY, maxX, maxY): 65535 over
 * its extent, 0 for a flat one.
 */
export function gridScale(grid: Float64Array, axis: number): number {
  const min = grid[axis]!;
  const max = grid[axis + 2]!;
  return max > min ? 65535 / (max - min) : 0;
}

/** Adds the three digits of key k to the radix sort's histograms (see `radixSort`). */
export function countKey(counts: Int32Array, k: number): void {
  counts[k & 2047]!++;
  counts[2048 + ((k >>> 11) & 2047)]!++;
  counts[4096 + (k >>> 22)]!++;
}

/**
 * The placement of `count` boxes of `src`, items at.. (see BoxSource.pass): box i goes to leaf
 * rank[at + i]; with `shift` >= 0 it also widens the leaf's parent, node n + (leaf >> shift)
 * (set up by initParents), n being the leaf count. Reads the input in order and scatters (random
 * writes stall less than random reads).
 */
export function placeLeaves(
  src: Float64Array,
  count: number,
  at: number,
  rank: Uint32Array,
  boxes: Float64Array,
  shift: number,
): void {
  if (shift >= 0) placeWithParents(src, count, at, rank, boxes, shift);
  else placeOnly(src, count, at, rank, boxes);
}

// placeLeaves without the parents (a loop of its own: the fused loop's test costs the typed
// build about 2 ms at 1M boxes).
function placeOnly(
  src: Float64Array,
  count: number,
  at: number,
  rank: Uint32Array,
  boxes: Float64Array,
): void {
  for (let i = 0; i < count; i++) {
    putBox(boxes, rank[at + i]!, src[4 * i]!, src[4 * i + 1]!, src[4 * i + 2]!, src[4 * i + 3]!);
  }
}

// placeLeaves with the parents.
function placeWithParents(
  src: Float64Array,
  count: number,
  at: number,
  rank: Uint32Array,
  boxes: Float64Array,
  shift: number,
): void {
  const n = rank.length;
  for (let i = 0; i < count; i++) {
    const p = rank[at + i]!;
    const a = src[4 * i]!;
    const b = src[4 * i + 1]!;
    const c = src[4 * i + 2]!;
    const d = src[4 * i + 3]!;
    putBox(boxes, p, a, b, c, d);
    widenBox(boxes, n + (p >> shift), a, b, c, d);
  }
}

/** Writes the box (a, b, c, d) to node p. */
export function putBox(
  boxes: Float64Array,
  p: number,
  a: number,
  b: number,
  c: number,
  d: number,
): void {
  boxes[4 * p] = a;
  boxes[4 * p + 1] = b;
  boxes[4 * p + 2] = c;
  boxes[4 * p + 3] = d;
}

/** Widens node q's box to take in the box (a, b, c, d). */
export function widenBox(
  boxes: Float64Array,
  q: number,
  a: number,
  b: number,
  c: number,
  d: number,
): void {
  const j = 4 * q;
  if (a < boxes[j]!) boxes[j] = a;
  if (b < boxes[j + 1]!) boxes[j + 1] = b;
  if (c > boxes[j + 2]!) boxes[j + 2] = c;
  if (d > boxes[j + 3]!) boxes[j + 3] = d;
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
  const seen = emptyExtent();
  if (!source.pass(ext, keys, counts, seen, null, boxes, -1)) return false;
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
    ext = seen.slice();
    seen.set(emptyExtent());
    if (!source.pass(ext, keys, counts, seen, null, boxes, -1)) return false;
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
  source.pass(ext, keys, counts, seen, rank, boxes, fused ? shift : -1);
  for (; l < sizes.length; l++) {
    const end = from + sizes[l - 1]!;
    pos = buildLevel(boxes, indices, from, end, nodeSize, pos);
    from = end;
  }
  return true;
}

// An extent (minX, minY, maxX, maxY) that any box widens.
function emptyExtent(): Float64Array {
  return Float64Array.of(INF, INF, -INF, -INF);
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
