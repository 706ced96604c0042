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
//   range, which is contiguous in this layout. The build is in packed-build.ts, the window,
//   shape and pair walks in packed-walk.ts, the nearest-first walk in packed-nearest.ts; this
//   file holds the layout, the buffer format and the walks' shared helpers.

import { CorruptBufferError, InvalidTypeError } from '../errors.js';
import type { NodeTable } from './aggregate.js';
import type { VisitNode } from './engine.js';
import { grown } from './grown.js';
import { type BoxSource, byteSize, fillTree, HEADER, levelSizes } from './packed-build.js';
import { nearest } from './packed-nearest.js';
import { pairs, searchRect, searchShape, searchWindow } from './packed-walk.js';
import { KBest, NodeQueue } from './queue.js';
import { POSITIONS } from './scan.js';

const MAGIC = 0x54494b51; // 'QKIT' read as a little-endian u32
/**
 * Version of the buffer format written. fromBuffer reads it and version 1, whose checksum leaves
 * out the header, and refuses any other.
 */
const FORMAT_VERSION = 2;
/** Header bytes from here to HEADER are reserved: 0 in format 2. */
const RESERVED = 24;
const KIND_STATIC = 1;
/**
 * Room for answers at first in a tree built at once (at most its item count): 4 KiB, little
 * beside its 36 bytes an item, and enough for the small windows and points of its first queries
 * without growing. A growth then would allocate an array buffer while the build's own buffers
 * are still young objects, and V8 answers that with a young-generation collection over them:
 * 5-8 ms inside the first queries after a build of 1M boxes.
 * @internal
 */
export const BUILT_RESULTS = 1024;
/** Room in a built tree's nearest-first queue and k-best heap at first (see BUILT_RESULTS). */
const BUILT_QUEUE = 256;
const BUILT_BEST = 64;

/** A packed static tree over item indices. */
export class PackedTree {
  /** The whole tree: header, boxes, indices. */
  readonly data: ArrayBuffer | SharedArrayBuffer;
  /** 4 per node: minX, minY, maxX, maxY; leaves first, the root last. */
  readonly boxes: Float64Array;
  /** Per node: a leaf's item index, an inner node's first child. */
  readonly indices: Int32Array;
  /**
   * What queries answer for leaf p: `emit[p]`, the item index (`indices`, the default) or,
   * after `answerPositions()`, p itself (`emit` is POSITIONS; nearest-first queries still
   * order ties by item index).
   */
  emit: Int32Array;
  /**
   * 1 after `answerPositions()`: window queries without a limit and shape queries write the
   * leaves of a node inside the query as one run (~first, then the count) instead of one
   * position each; see `runLength`. Pairs never do.
   */
  runs = 0;
  readonly numItems: number;
  readonly nodeSize: number;
  /** The end (in nodes) of each level, from the leaves up. */
  readonly levelEnd: Int32Array;
  /**
   * Per level, the leaves under each of its nodes but the last: nodeSize^level (exact: below
   * 2^53). Node j of level l holds the leaves from j * leafSpan[l].
   */
  readonly leafSpan: Float64Array;
  /** The last query's answers; grown on demand (up to the item count), not allocated at build. */
  results: Int32Array;
  walking = 0;
  // The answers of each leaf's search in `pairs`.
  pairOut: Int32Array | null = null;
  readonly stack: Int32Array;
  readonly queue = new NodeQueue();
  readonly best = new KBest();
  /**
   * Room for the keys of the children met on a nearest-first descent from the root to a leaf
   * group (min(nodeSize, numItems) per level, see packed-nearest.ts); `stack` holds their nodes.
   */
  readonly metKeys: Float64Array;
  private readonly view: VisitNode = { x: 0, y: 0, width: 0, height: 0, depth: 0, count: 0 };
  // Whether every leaf box is a point (1), not (0), or not yet known (-1).
  private pointLeaves = -1;

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
    this.leafSpan = new Float64Array(sizes.length);
    for (let l = 0, span = 1; l < sizes.length; l++, span *= nodeSize) this.leafSpan[l] = span;
    this.boxes = new Float64Array(data, HEADER, 4 * total);
    this.indices = new Int32Array(data, HEADER + 32 * total, total);
    this.emit = this.indices;
    // The queries' room, made now for the reason given at BUILT_RESULTS: the answers, the
    // nearest-first descent's keys, a queue of a few levels of children, a heap for k up to 64.
    const some = Math.max(numItems, 1);
    this.results = new Int32Array(Math.min(some, BUILT_RESULTS));
    // A depth-first walk holds at most nodeSize - 1 nodes per level plus one.
    this.stack = new Int32Array(2 * (nodeSize * sizes.length + 2));
    this.metKeys = new Float64Array(Math.min(nodeSize, some) * sizes.length);
    this.queue.reserve(Math.min(some, BUILT_QUEUE));
    this.best.reserve(Math.min(some, BUILT_BEST));
  }

  /**
   * Makes every query answer leaf positions (curve order) instead of item indices, for a caller
   * that keeps its items in that order; nearest-first queries still order ties by item index.
   */
  answerPositions(): void {
    this.emit = POSITIONS;
    this.runs = 1;
    this.best.order = this.indices;
  }

  /** The number of nodes, leaves included. */
  get numNodes(): number {
    return this.levelEnd[this.levelEnd.length - 1]!;
  }

  get size(): number {
    return this.numItems;
  }

  /**
   * Builds the tree over the boxes of `source` in a new ArrayBuffer, or a SharedArrayBuffer when
   * `shared`. `bounds` (minX, minY, maxX, maxY) sets the grid of the curve; a box around the
   * boxes when null. Each item's leaf position goes to `rank` when given. Returns null when a
   * box has min > max, a NaN or an infinite coordinate (the caller names it).
   */
  static build(
    source: BoxSource,
    nodeSize: number,
    shared: boolean,
    bounds: Float64Array | null,
    rank: Uint32Array | null,
  ): PackedTree | null {
    const n = source.n;
    const sizes = levelSizes(n, nodeSize);
    let nodes = 0;
    for (const s of sizes) nodes += s;
    const data = shared ? new SharedArrayBuffer(byteSize(nodes)) : new ArrayBuffer(byteSize(nodes));
    const tree = new PackedTree(data, n, nodeSize);
    const ranks = rank ?? new Uint32Array(n);
    if (!fillTree(source, sizes, nodeSize, bounds, tree.boxes, tree.indices, ranks)) return null;
    if (source.points !== undefined) tree.pointLeaves = source.points ? 1 : 0;
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
    view.setUint32(20, this.checksum(true), true);
  }

  // FNV-1a over the item count, node size and node count (from format 2 on: a corrupted node size
  // that fits the same node count is caught too), then the 32-bit words of the boxes and indices.
  private checksum(header: boolean): number {
    const words = new Uint32Array(this.data, HEADER, (byteSize(this.numNodes) - HEADER) / 4);
    let h = 0x811c9dc5;
    if (header) {
      h = Math.imul(h ^ this.numItems, 16777619);
      h = Math.imul(h ^ this.nodeSize, 16777619);
      h = Math.imul(h ^ this.numNodes, 16777619);
    }
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
      throw new InvalidTypeError(
        'quadkit: fromBuffer(buffer) needs an ArrayBuffer or SharedArrayBuffer',
      );
    const fail = (why: string): never => {
      throw new CorruptBufferError(
        `quadkit: fromBuffer: ${why}; the buffer is not a StaticQuadtree written by toBuffer()`,
      );
    };
    if (data.byteLength < HEADER)
      fail(`it is ${data.byteLength} bytes, shorter than the ${HEADER}-byte header`);
    const view = new DataView(data, 0, HEADER);
    if (view.getUint32(0, true) !== MAGIC) fail('the magic number is wrong');
    const version = view.getUint16(4, true);
    if (version !== FORMAT_VERSION && version !== 1)
      fail(`format version ${version}, this quadkit reads versions 1 and ${FORMAT_VERSION}`);
    if (view.getUint16(6, true) !== KIND_STATIC) fail('it holds another kind of index');
    const numItems = view.getUint32(8, true);
    const nodeSize = view.getUint32(12, true);
    if (nodeSize < 2 || nodeSize > 65536) fail(`node size ${nodeSize} is out of range`);
    if (numItems > 2 ** 30) fail(`item count ${numItems} is out of range`);
    let nodes = 0;
    for (const s of levelSizes(numItems, nodeSize)) nodes += s;
    if (view.getUint32(16, true) !== nodes) fail('the node count does not match the item count');
    for (let b = RESERVED; version > 1 && b < HEADER; b++) {
      if (view.getUint8(b) !== 0) fail(`header byte ${b}, which is reserved, is not 0`);
    }
    if (data.byteLength !== byteSize(nodes)) {
      fail(
        `it is ${data.byteLength} bytes where ${byteSize(nodes)} are expected (truncated or padded)`,
      );
    }
    const tree = new PackedTree(data, numItems, nodeSize);
    if (tree.checksum(version > 1) !== view.getUint32(20, true))
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
  childRange(pos: number, l: number): number {
    const start = l === 1 ? 0 : this.levelEnd[l - 2]!;
    return start + (pos - this.levelEnd[l - 1]!) * this.nodeSize;
  }

  queryRect(q: Float64Array, qi: number, all: number, limit: number): number {
    if (limit !== Number.POSITIVE_INFINITY)
      return searchRect(this, q, qi, all, limit, this.results, 0, -1, 0);
    if (all === 0) return searchWindow(this, q, qi, this.runs);
    return searchRect(this, q, qi, all, limit, this.results, 0, -1, this.runs);
  }

  /**
   * Writes into `out` from `n` the answers for the leaves whose boxes overlap q[qi..qi+3] (every
   * leaf of every node it meets when `all`), only leaves after position `after`; returns the new
   * count. `out` must be `results` or `pairOut`, read back after the call (see packed-walk.ts).
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
    return searchRect(this, q, qi, all, limit, out, n, after, 0);
  }

  searchShape(shape: number, q: Float64Array, qi: number): number {
    return searchShape(this, shape, q, qi);
  }

  // Whether every leaf box is a point (minX === maxX, minY === maxY): known from a source of
  // points, else found once by a scan.
  allPoints(): boolean {
    if (this.pointLeaves < 0) {
      const { boxes, numItems } = this;
      let p = 0;
      while (
        p < numItems &&
        boxes[4 * p] === boxes[4 * p + 2] &&
        boxes[4 * p + 1] === boxes[4 * p + 3]
      )
        p++;
      this.pointLeaves = p === numItems ? 1 : 0;
    }
    return this.pointLeaves === 1;
  }

  // `out` when it has room for `count` more answers after its first n; else a larger copy (see
  // `widen`). The scans write without bounds checks: every walk calls this before a scan.
  room(out: Int32Array, n: number, count: number): Int32Array {
    return n + count <= out.length ? out : this.widen(out, n, n + count);
  }

  // A copy of `out` with room for `need` answers (at most the item count, unless more are
  // needed), its first n kept; it replaces `results` or the pairs' array when `out` was one.
  widen(out: Int32Array, n: number, need: number): Int32Array {
    const size = Math.min(Math.max(need, 2 * out.length), Math.max(need, this.numItems));
    const bigger = grown(out, size, n);
    if (out === this.results) this.results = bigger;
    else if (out === this.pairOut) this.pairOut = bigger;
    return bigger;
  }

  // The first leaf under node `first` of level l (its subtree's leaves are contiguous).
  leafStart(first: number, l: number): number {
    let lo = first;
    for (let k = l - 1; k > 0; k--) lo = this.childRange(lo, k);
    return lo;
  }

  // The end of the leaves under the nodes of level l before `end`.
  leafEnd(end: number, l: number): number {
    let hi = end;
    for (let k = l - 1; k > 0; k--) {
      hi = Math.min(this.childRange(hi - 1, k) + this.nodeSize, this.levelEnd[k - 1]!);
    }
    return hi;
  }

  nearest(metric: number, q: Float64Array, qi: number, k: number): number {
    return nearest(this, metric, q, qi, k);
  }

  /** Calls `callback(a, b)` once for every pair of items whose boxes overlap. */
  pairs(callback: (a: number, b: number) => void, items: readonly unknown[] | null): void {
    pairs(this, callback, items);
  }

  /**
   * Lists the inner nodes in pre-order, and the items of each lowest one (as window queries
   * answer them, see `emit`) at the centre of their boxes, into `table` (see aggregate.ts).
   */
  listNodes(table: NodeTable): void {
    table.reset();
    const { boxes, emit, levelEnd, nodeSize } = this;
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
            emit === POSITIONS ? c : emit[c]!,
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

  visit(callback: (node: VisitNode) => unknown): void {
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
