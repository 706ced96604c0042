// The packed static tree behind StaticQuadtree: items sorted along a Hilbert curve, grouped
// bottom-up into nodes of `nodeSize` children, every level in one Float64Array of boxes and one
// Int32Array of indices, both views of a single ArrayBuffer (or SharedArrayBuffer) that can be
// saved, sent to a worker and opened again in O(1) plus validation.
//
// - The layout follows flatbush (V. Agafonkin): leaves first, then each level up to the root;
//   a leaf's index is its item's index, an inner node's the position of its first child. Here
//   the children of inner node j of a level are always nodes [j*nodeSize, (j+1)*nodeSize) of the
//   level below, so walks compute them from the level bounds and never trust a stored index.
// - The sort is an LSD radix sort of 32-bit Hilbert keys in three passes of 11 bits, each pass
//   skipped when one bucket holds everything (quadkit's design notes measured it at ~21 ns/key
//   for 1M keys, about 3x faster than a comparison sort). The Hilbert index is the one of
//   "Fast Hilbert curve generation, sorting, and range queries" (rawrunprotected.com), also
//   used by flatbush, computed from a state table 4 bits per axis at a time.
// - Queries reuse the shared kernels; a node inside a window copies its whole subtree's leaf
//   range, which is contiguous in this layout.

import type { NodeTable } from './aggregate.js';
import type { NodeView } from './engine.js';
import { KBest, NodeQueue } from './queue.js';
import { boxKey, maxKey, scanAll, scanNearest, scanRect, scanShape, shapeHits } from './scan.js';

const HEADER = 64;
const MAGIC = 0x54494b51; // 'QKIT' read as a little-endian u32
/** Boxes sampled for the curve's grid when no bounds are given. */
const SAMPLE = 4096;
const INF = Number.POSITIVE_INFINITY;
/** Version of the buffer format; fromBuffer refuses any other. */
export const FORMAT_VERSION = 1;
const KIND_STATIC = 1;
const NODE_SHADE = 1 - 2 ** -50;

/** The number of nodes on each level, from the leaves up, for n items: at least one level of
 * inner nodes, so the root is never a leaf. */
function levelSizes(n: number, nodeSize: number): number[] {
  const sizes = [n];
  let m = n;
  do {
    m = Math.ceil(m / nodeSize);
    sizes.push(m);
  } while (m > 1);
  return sizes;
}

/** Bytes of a buffer holding `nodes` nodes: header, boxes, then indices padded to 8 bytes. */
function byteSize(nodes: number): number {
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
// ext (minX, minY, maxX, maxY) to `keys`, and adds the keys' digits to the histograms in
// `counts` (see `radixSort`). On the way it checks each box (min <= max, so no NaN) and takes
// the boxes' extent into `seen`; returns false if a box failed the check.
function hilbertKeys(
  src: Float64Array,
  n: number,
  ext: Float64Array,
  keys: Uint32Array,
  counts: Int32Array,
  seen: Float64Array,
): boolean {
  const minX = ext[0]!;
  const minY = ext[1]!;
  const maxX = ext[2]!;
  const maxY = ext[3]!;
  const sx = maxX > minX ? 65535 / (maxX - minX) : 0;
  const sy = maxY > minY ? 65535 / (maxY - minY) : 0;
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
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
    keys[i] = k;
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

// Writes the leaves' boxes in curve order: item i's box goes to node rank[i]. Reads the input
// in order and scatters (random writes stall less than random reads).
function placeLeaves(src: Float64Array, n: number, rank: Uint32Array, boxes: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const p = rank[i]!;
    boxes[4 * p] = src[4 * i]!;
    boxes[4 * p + 1] = src[4 * i + 1]!;
    boxes[4 * p + 2] = src[4 * i + 2]!;
    boxes[4 * p + 3] = src[4 * i + 3]!;
  }
}

// Writes the leaves as placeLeaves does, and their parents (nodes n.., one per 2^shift leaves):
// the box around their leaves, and their first leaf's position.
function placeLeavesAndParents(
  src: Float64Array,
  n: number,
  rank: Uint32Array,
  boxes: Float64Array,
  indices: Int32Array,
  shift: number,
): void {
  const parents = ((n - 1) >> shift) + 1;
  for (let j = 0; j < parents; j++) {
    boxes[4 * (n + j)] = Number.POSITIVE_INFINITY;
    boxes[4 * (n + j) + 1] = Number.POSITIVE_INFINITY;
    boxes[4 * (n + j) + 2] = Number.NEGATIVE_INFINITY;
    boxes[4 * (n + j) + 3] = Number.NEGATIVE_INFINITY;
    indices[n + j] = j << shift;
  }
  for (let i = 0; i < n; i++) {
    const p = rank[i]!;
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

/** A packed static tree over item indices. */
export class PackedTree {
  /** The whole tree: header, boxes, indices. */
  readonly data: ArrayBuffer | SharedArrayBuffer;
  /** 4 per node: minX, minY, maxX, maxY; leaves first, the root last. */
  readonly boxes: Float64Array;
  /** Per node: a leaf's item index, an inner node's first child. */
  readonly indices: Int32Array;
  readonly numItems: number;
  readonly nodeSize: number;
  /** The end (in nodes) of each level, from the leaves up. */
  readonly levelEnd: Int32Array;
  results: Int32Array;
  walking = 0;
  private readonly stack: Int32Array;
  private readonly queue = new NodeQueue();
  readonly best = new KBest();
  private readonly view: NodeView = { x: 0, y: 0, width: 0, height: 0, depth: 0, count: 0 };

  private constructor(data: ArrayBuffer | SharedArrayBuffer, numItems: number, nodeSize: number) {
    const sizes = levelSizes(numItems, nodeSize);
    const levelEnd = new Int32Array(sizes.length);
    let total = 0;
    for (let l = 0; l < sizes.length; l++) {
      total += sizes[l]!;
      levelEnd[l] = total;
    }
    this.data = data;
    this.numItems = numItems;
    this.nodeSize = nodeSize;
    this.levelEnd = levelEnd;
    this.boxes = new Float64Array(data, HEADER, 4 * total);
    this.indices = new Int32Array(data, HEADER + 32 * total, total);
    this.results = new Int32Array(Math.max(numItems, 1));
    // A depth-first walk holds at most nodeSize - 1 nodes per level plus one.
    this.stack = new Int32Array(2 * (nodeSize * sizes.length + 2));
  }

  /** The number of nodes, leaves included. */
  get numNodes(): number {
    return this.levelEnd[this.levelEnd.length - 1]!;
  }

  get size(): number {
    return this.numItems;
  }

  /**
   * Builds the tree over `n` boxes (4 per item in `src`, item order), in a new ArrayBuffer, or a
   * SharedArrayBuffer when `shared`. `bounds` (minX, minY, maxX, maxY) sets the grid of the
   * curve; a box around the boxes when null. Returns null, having built nothing, when a box has
   * min > max, a NaN or an infinite coordinate (the caller names it).
   */
  static build(
    src: Float64Array,
    n: number,
    nodeSize: number,
    shared: boolean,
    bounds: Float64Array | null,
  ): PackedTree | null {
    const sizes = levelSizes(n, nodeSize);
    let nodes = 0;
    for (const s of sizes) nodes += s;
    const data = shared ? new SharedArrayBuffer(byteSize(nodes)) : new ArrayBuffer(byteSize(nodes));
    const tree = new PackedTree(data, n, nodeSize);
    const { boxes, indices } = tree;
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
    const ext = bounds ?? sampleExtent(src, n, Math.max(1, Math.floor(n / SAMPLE)), 1 / 64);
    const seen = new Float64Array(4);
    if (!hilbertKeys(src, n, ext, keys, counts, seen)) return null;
    // An infinite coordinate makes the extent infinite.
    if (n > 0 && !(-seen[0]! < INF && -seen[1]! < INF && seen[2]! < INF && seen[3]! < INF)) {
      return null;
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
      hilbertKeys(src, n, seen, keys, counts, seen);
    }
    // The leaves, in curve order.
    const rank = new Uint32Array(n);
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
    if (sizes.length > 1 && 1 << shift === nodeSize) {
      pos = n + sizes[1]!;
      placeLeavesAndParents(src, n, rank, boxes, indices, shift);
      from = n;
      l = 2;
    } else {
      placeLeaves(src, n, rank, boxes);
    }
    for (; l < sizes.length; l++) {
      const end = from + sizes[l - 1]!;
      pos = buildLevel(boxes, indices, from, end, nodeSize, pos);
      from = end;
    }
    return tree;
  }

  /**
   * Writes the header, with a checksum of the boxes and indices, so that the buffer can be
   * opened again (done when the buffer is handed out, not at build).
   */
  seal(): void {
    const view = new DataView(this.data, 0, HEADER);
    view.setUint32(0, MAGIC, true);
    view.setUint16(4, FORMAT_VERSION, true);
    view.setUint16(6, KIND_STATIC, true);
    view.setUint32(8, this.numItems, true);
    view.setUint32(12, this.nodeSize, true);
    view.setUint32(16, this.numNodes, true);
    view.setUint32(20, this.checksum(), true);
  }

  // FNV-1a over the 32-bit words of the boxes and indices.
  private checksum(): number {
    const words = new Uint32Array(this.data, HEADER, (byteSize(this.numNodes) - HEADER) / 4);
    let h = 0x811c9dc5;
    for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 16777619);
    return h >>> 0;
  }

  /**
   * Opens a tree saved by `data`: checks the header, the size, the checksum and the structure
   * before any query can read it; throws an Error that says what is wrong.
   */
  static open(data: ArrayBuffer | SharedArrayBuffer): PackedTree {
    const isBuffer =
      data instanceof ArrayBuffer ||
      (typeof SharedArrayBuffer !== 'undefined' && data instanceof SharedArrayBuffer);
    if (!isBuffer)
      throw new TypeError('quadkit: fromBuffer(buffer) needs an ArrayBuffer or SharedArrayBuffer');
    const fail = (why: string): never => {
      throw new Error(
        `quadkit: fromBuffer: ${why}; the buffer is not a StaticQuadtree written by toBuffer()`,
      );
    };
    if (data.byteLength < HEADER)
      fail(`it is ${data.byteLength} bytes, shorter than the ${HEADER}-byte header`);
    const view = new DataView(data, 0, HEADER);
    if (view.getUint32(0, true) !== MAGIC) fail('the magic number is wrong');
    const version = view.getUint16(4, true);
    if (version !== FORMAT_VERSION)
      fail(`format version ${version}, this quadkit reads version ${FORMAT_VERSION}`);
    if (view.getUint16(6, true) !== KIND_STATIC) fail('it holds another kind of index');
    const numItems = view.getUint32(8, true);
    const nodeSize = view.getUint32(12, true);
    if (nodeSize < 2 || nodeSize > 65536) fail(`node size ${nodeSize} is out of range`);
    if (numItems > 2 ** 30) fail(`item count ${numItems} is out of range`);
    let nodes = 0;
    for (const s of levelSizes(numItems, nodeSize)) nodes += s;
    if (view.getUint32(16, true) !== nodes) fail('the node count does not match the item count');
    if (data.byteLength !== byteSize(nodes)) {
      fail(
        `it is ${data.byteLength} bytes where ${byteSize(nodes)} are expected (truncated or padded)`,
      );
    }
    const tree = new PackedTree(data, numItems, nodeSize);
    if (tree.checksum() !== view.getUint32(20, true))
      fail('the checksum does not match (corrupted)');
    // Structure: leaves name items in range; inner nodes name their first child as built.
    const { indices, levelEnd } = tree;
    for (let p = 0; p < numItems; p++) {
      const i = indices[p]!;
      if (i < 0 || i >= numItems) fail(`leaf ${p} names item ${i}`);
    }
    let from = 0;
    for (let l = 1; l < levelEnd.length; l++) {
      const start = levelEnd[l - 1]!;
      for (let p = start; p < levelEnd[l]!; p++) {
        if (indices[p] !== from + (p - start) * nodeSize)
          fail(`node ${p} names the wrong children`);
      }
      from = start;
    }
    return tree;
  }

  // The first child and the end of the children of inner node `pos` on level `l` (> 0).
  private childRange(pos: number, l: number): number {
    const start = l === 1 ? 0 : this.levelEnd[l - 2]!;
    return start + (pos - this.levelEnd[l - 1]!) * this.nodeSize;
  }

  queryRect(q: Float64Array, qi: number, all: number, limit: number): number {
    return this.searchRect(q, qi, all, limit, this.results, 0, -1);
  }

  /**
   * Writes into `out` from `n` the item indices whose boxes overlap q[qi..qi+3] (every leaf of
   * every node it meets when `all`), only leaves after position `after`; returns the new count.
   */
  searchRect(
    q: Float64Array,
    qi: number,
    all: number,
    limit: number,
    out: Int32Array,
    n: number,
    after: number,
  ): number {
    const { boxes, indices, levelEnd, stack, nodeSize } = this;
    if (this.numItems === 0) return n;
    const minX = q[qi]!;
    const minY = q[qi + 1]!;
    const maxX = q[qi + 2]!;
    const maxY = q[qi + 3]!;
    const top = levelEnd.length - 1;
    let sp = 0;
    // Stack entries: node position, then level (negated, minus one, when inside the query).
    stack[sp++] = levelEnd[top]! - 1;
    stack[sp++] = top;
    while (sp > 0) {
      let l = stack[--sp]!;
      const pos = stack[--sp]!;
      const inside = l < 0;
      if (inside) l = -l - 1;
      if (l === 0) continue; // leaves are handled with their parent
      const first = this.childRange(pos, l);
      const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
      if (l === 1) {
        // Leaves: test them (all of them when the parent is inside the query).
        const from = first > after ? first : after + 1;
        if (from < end) {
          n =
            inside || all
              ? scanAll(indices, from, end, out, n)
              : scanRect(boxes, indices, from, end, q, qi, out, n);
        }
      } else if (inside && after < 0) {
        // A node inside the query: its leaves are one contiguous run.
        let lo = first;
        let hi = end;
        for (let k = l - 1; k > 0; k--) {
          lo = this.childRange(lo, k);
          hi = Math.min(this.childRange(hi - 1, k) + nodeSize, levelEnd[k - 1]!);
        }
        n = scanAll(indices, lo, hi, out, n);
      } else {
        for (let c = first; c < end; c++) {
          const j = 4 * c;
          const a = boxes[j]!;
          const b = boxes[j + 1]!;
          const d = boxes[j + 2]!;
          const e = boxes[j + 3]!;
          if (!inside && (a > maxX || b > maxY || d < minX || e < minY)) continue;
          stack[sp++] = c;
          stack[sp++] =
            inside || (a >= minX && b >= minY && d <= maxX && e <= maxY) ? -(l - 1) - 1 : l - 1;
        }
      }
      if (n >= limit) break;
    }
    return n;
  }

  searchShape(shape: number, q: Float64Array, qi: number): number {
    const { boxes, indices, levelEnd, stack, nodeSize, results } = this;
    if (this.numItems === 0) return 0;
    const a = q[qi]!;
    const b = q[qi + 1]!;
    const c = q[qi + 2]!;
    const d = q[qi + 3]!;
    const top = levelEnd.length - 1;
    let n = 0;
    let sp = 0;
    stack[sp++] = levelEnd[top]! - 1;
    stack[sp++] = top;
    while (sp > 0) {
      const l = stack[--sp]!;
      const pos = stack[--sp]!;
      if (l === 0) continue;
      const first = this.childRange(pos, l);
      const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
      if (l === 1) {
        n = scanShape(boxes, indices, first, end, shape, q, qi, results, n);
        continue;
      }
      for (let k = first; k < end; k++) {
        const j = 4 * k;
        if (!shapeHits(shape, boxes[j]!, boxes[j + 1]!, boxes[j + 2]!, boxes[j + 3]!, a, b, c, d))
          continue;
        stack[sp++] = k;
        stack[sp++] = l - 1;
      }
    }
    return n;
  }

  nearest(metric: number, q: Float64Array, qi: number, k: number): number {
    const { boxes, indices, levelEnd, nodeSize, queue, best } = this;
    const a = q[qi]!;
    const b = q[qi + 1]!;
    const c = q[qi + 2]!;
    const d = q[qi + 3]!;
    const limit = maxKey(metric, q, qi);
    queue.clear();
    best.reset(k);
    if (k === 0 || this.numItems === 0) return 0;
    queue.push(levelEnd[levelEnd.length - 1]! - 1, 0);
    while (queue.length > 0) {
      const bound = best.full ? Math.min(limit, best.worst()) : limit;
      if (queue.peekKey() > bound) break;
      const pos = queue.pop();
      // The node's level, from the level bounds (a handful of levels).
      let l = 1;
      while (pos >= levelEnd[l]!) l++;
      const first = this.childRange(pos, l);
      const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
      if (l === 1) {
        scanNearest(boxes, indices, first, end, metric, q, qi, best);
        continue;
      }
      for (let n = first; n < end; n++) {
        const j = 4 * n;
        // Shaded by a few ulps, so that rounding never ranks a node behind an item inside it.
        const key =
          boxKey(metric, boxes[j]!, boxes[j + 1]!, boxes[j + 2]!, boxes[j + 3]!, a, b, c, d) *
          NODE_SHADE;
        if (key <= limit) queue.push(n, key);
      }
    }
    return best.drain(this.results);
  }

  /**
   * Calls `callback(a, b)` once for every pair of items whose boxes overlap: each leaf queries
   * the tree for the leaves after it that overlap its box.
   */
  pairs(callback: (a: number, b: number) => void): void {
    const { boxes, indices, numItems } = this;
    const out = new Int32Array(Math.max(numItems, 1));
    for (let p = 0; p < numItems; p++) {
      const n = this.searchRect(boxes, 4 * p, 0, Number.POSITIVE_INFINITY, out, 0, p);
      const a = indices[p]!;
      for (let i = 0; i < n; i++) callback(a, out[i]!);
    }
  }

  /**
   * Lists the inner nodes in pre-order, and the items of each lowest one at the centre of their
   * boxes, into `table` (see aggregate.ts).
   */
  listNodes(table: NodeTable): void {
    table.reset();
    const { boxes, indices, levelEnd, nodeSize } = this;
    if (this.numItems === 0) return;
    const levels = levelEnd.length;
    // Triples (position, level, parent's number in the table): at most nodeSize per level.
    const stack = table.stackRoom(3 * (nodeSize * levels + 2));
    let sp = 0;
    stack[sp++] = levelEnd[levels - 1]! - 1;
    stack[sp++] = levels - 1;
    stack[sp++] = -1;
    while (sp > 0) {
      const p = stack[--sp]!;
      const l = stack[--sp]!;
      const pos = stack[--sp]!;
      const b = 4 * pos;
      const k = table.addNode(
        p,
        boxes[b]!,
        boxes[b + 1]!,
        boxes[b + 2]! - boxes[b]!,
        boxes[b + 3]! - boxes[b + 1]!,
      );
      const first = this.childRange(pos, l);
      const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
      if (l === 1) {
        for (let c = first; c < end; c++) {
          const cb = 4 * c;
          table.addEntry(
            k,
            indices[c]!,
            (boxes[cb]! + boxes[cb + 2]!) / 2,
            (boxes[cb + 1]! + boxes[cb + 3]!) / 2,
          );
        }
        continue;
      }
      for (let c = end - 1; c >= first; c--) {
        stack[sp++] = c;
        stack[sp++] = l - 1;
        stack[sp++] = k;
      }
    }
  }

  visit(callback: (node: NodeView) => unknown): void {
    const { boxes, levelEnd, nodeSize, view } = this;
    if (this.numItems === 0) return;
    const stack: number[] = [levelEnd[levelEnd.length - 1]! - 1, levelEnd.length - 1];
    while (stack.length > 0) {
      const l = stack.pop()!;
      const pos = stack.pop()!;
      view.x = boxes[4 * pos]!;
      view.y = boxes[4 * pos + 1]!;
      view.width = boxes[4 * pos + 2]! - view.x;
      view.height = boxes[4 * pos + 3]! - view.y;
      view.depth = levelEnd.length - 1 - l;
      const first = l === 0 ? pos : this.childRange(pos, l);
      const end = l === 0 ? pos + 1 : Math.min(first + nodeSize, levelEnd[l - 1]!);
      view.count = l === 1 ? end - first : l === 0 ? 1 : 0;
      if (callback(view) === true || l <= 1) continue;
      for (let c = end - 1; c >= first; c--) stack.push(c, l - 1);
    }
  }
}
