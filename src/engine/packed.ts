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

import { CorruptBufferError, InvalidTypeError } from '../errors.js';
import { boxDistanceSq } from '../geometry/rect.js';
import type { NodeTable } from './aggregate.js';
import type { NodeView } from './engine.js';
import { type BoxSource, byteSize, fillTree, HEADER, levelSizes } from './packed-build.js';
import { KBest, NodeQueue } from './queue.js';
import {
  boxKey,
  CIRCLE,
  maxKey,
  POINT,
  scanAll,
  scanCircle,
  scanCirclePoints,
  scanNearest,
  scanNearestPoints,
  scanRect,
  scanShape,
  shapeHits,
} from './scan.js';

const MAGIC = 0x54494b51; // 'QKIT' read as a little-endian u32
/** Version of the buffer format; fromBuffer refuses any other. */
export const FORMAT_VERSION = 1;
const KIND_STATIC = 1;
const NODE_SHADE = 1 - 2 ** -50;
// Room for answers at first; a query that finds more grows the array (the scans write without
// bounds checks, so each caller makes room before a scan).
const FIRST_RESULTS = 1024;

// 0, 1, 2, ...: the leaf positions, shared by every tree that answers positions.
let IDENTITY = new Int32Array(0);

function identity(n: number): Int32Array {
  if (IDENTITY.length < n) {
    IDENTITY = new Int32Array(n);
    for (let i = 0; i < n; i++) IDENTITY[i] = i;
  }
  return IDENTITY;
}

/** A packed static tree over item indices. */
export class PackedTree {
  /** The whole tree: header, boxes, indices. */
  readonly data: ArrayBuffer | SharedArrayBuffer;
  /** 4 per node: minX, minY, maxX, maxY; leaves first, the root last. */
  readonly boxes: Float64Array;
  /** Per node: a leaf's item index, an inner node's first child. */
  readonly indices: Int32Array;
  /**
   * What window, shape and pair queries answer for leaf p: `emit[p]`, the item index
   * (`indices`, the default) or, after `answerPositions()`, p itself. Nearest-first queries
   * always answer item indices.
   */
  emit: Int32Array;
  readonly numItems: number;
  readonly nodeSize: number;
  /** The end (in nodes) of each level, from the leaves up. */
  readonly levelEnd: Int32Array;
  /** The last query's answers; grown on demand (up to the item count), not allocated at build. */
  results: Int32Array;
  walking = 0;
  // The answers of each leaf's search in `pairs`.
  private pairOut: Int32Array | null = null;
  private readonly stack: Int32Array;
  private readonly queue = new NodeQueue();
  readonly best = new KBest();
  private readonly view: NodeView = { x: 0, y: 0, width: 0, height: 0, depth: 0, count: 0 };
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
    this.boxes = new Float64Array(data, HEADER, 4 * total);
    this.indices = new Int32Array(data, HEADER + 32 * total, total);
    this.emit = this.indices;
    this.results = new Int32Array(Math.min(Math.max(numItems, 1), FIRST_RESULTS));
    // A depth-first walk holds at most nodeSize - 1 nodes per level plus one.
    this.stack = new Int32Array(2 * (nodeSize * sizes.length + 2));
  }

  /**
   * Makes window, shape and pair queries answer leaf positions (curve order) instead of item
   * indices, for a caller that keeps its items in that order.
   */
  answerPositions(): void {
    this.emit = identity(this.numItems);
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
    return fillTree(source, sizes, nodeSize, bounds, tree.boxes, tree.indices, ranks) ? tree : null;
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
    const { boxes, emit, levelEnd, stack, nodeSize } = this;
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
          if (n + end - from > out.length) out = this.widen(out, n, n + end - from);
          n =
            inside || all
              ? scanAll(emit, from, end, out, n)
              : scanRect(boxes, emit, from, end, q, qi, out, n);
        }
      } else if (inside && after < 0) {
        // A node inside the query: its leaves are one contiguous run.
        const lo = this.leafStart(first, l);
        const hi = this.leafEnd(end, l);
        if (n + hi - lo > out.length) out = this.widen(out, n, n + hi - lo);
        n = scanAll(emit, lo, hi, out, n);
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
    const { boxes, emit, levelEnd, stack, nodeSize } = this;
    let results = this.results;
    if (this.numItems === 0) return 0;
    const a = q[qi]!;
    const b = q[qi + 1]!;
    const c = q[qi + 2]!;
    const d = q[qi + 3]!;
    // A circle swallows a node whose farthest corner is clearly within it (by a margin far above
    // rounding, in the range where floating point is relative): its leaves are taken untested.
    const r2 = shape === CIRCLE ? c * c * (1 - 2 ** -40) : -1;
    const swallow = r2 > 1e-280 && r2 < 1e280;
    if (swallow && this.allPoints()) return this.searchCirclePoints(a, b, c);
    const top = levelEnd.length - 1;
    let n = 0;
    let sp = 0;
    // Stack entries: node position, then level (negated, minus one, when inside the circle).
    stack[sp++] = levelEnd[top]! - 1;
    stack[sp++] = top;
    while (sp > 0) {
      let l = stack[--sp]!;
      const pos = stack[--sp]!;
      const inside = l < 0;
      if (inside) l = -l - 1;
      if (l === 0) continue;
      const first = this.childRange(pos, l);
      const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
      if (inside) {
        const lo = this.leafStart(first, l);
        const hi = this.leafEnd(end, l);
        if (n + hi - lo > results.length) results = this.widen(results, n, n + hi - lo);
        n = scanAll(emit, lo, hi, results, n);
        continue;
      }
      if (l === 1) {
        if (n + end - first > results.length) results = this.widen(results, n, n + end - first);
        n = swallow
          ? scanCircle(boxes, emit, first, end, q, qi, results, n)
          : scanShape(boxes, emit, first, end, shape, q, qi, results, n);
        continue;
      }
      for (let k = first; k < end; k++) {
        const j = 4 * k;
        const minX = boxes[j]!;
        const minY = boxes[j + 1]!;
        const maxX = boxes[j + 2]!;
        const maxY = boxes[j + 3]!;
        if (!shapeHits(shape, minX, minY, maxX, maxY, a, b, c, d)) continue;
        stack[sp++] = k;
        if (swallow) {
          const fx = Math.max(a - minX, maxX - a);
          const fy = Math.max(b - minY, maxY - b);
          stack[sp++] = fx * fx + fy * fy < r2 ? -(l - 1) - 1 : l - 1;
        } else stack[sp++] = l - 1;
      }
    }
    return n;
  }

  // Whether every leaf box is a point (minX === maxX, minY === maxY), found once by a scan.
  private allPoints(): boolean {
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

  /**
   * `searchShape(CIRCLE)` for a tree of points, centre (x, y), radius r (its square well inside
   * the normal range): a child is dropped when its squared distance is clearly beyond r², a
   * node clearly inside gives its leaves untested, and a leaf is decided by one squared distance
   * (the same value the box test computes for a point) unless it is on the rim, where the exact
   * test decides, so the answers are those of the general walk.
   */
  private searchCirclePoints(x: number, y: number, r: number): number {
    const { boxes, emit, levelEnd, stack, nodeSize } = this;
    let results = this.results;
    const lo = r * r * (1 - 2 ** -40);
    const hi = r * r * (1 + 2 ** -40);
    const top = levelEnd.length - 1;
    const leaves = levelEnd[0]!;
    let n = 0;
    let sp = 0;
    stack[sp++] = levelEnd[top]! - 1;
    stack[sp++] = top;
    while (sp > 0) {
      const l = stack[--sp]!;
      const pos = stack[--sp]!;
      const first = this.childRange(pos, l);
      const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
      if (l === 1) {
        if (n + end - first > results.length) results = this.widen(results, n, n + end - first);
        n = scanCirclePoints(boxes, emit, first, end, x, y, r, results, n);
        continue;
      }
      // Inner nodes: drop the far ones, take the swallowed ones whole, descend into the rest.
      for (let k = first; k < end; k++) {
        const j = 4 * k;
        const minX = boxes[j]!;
        const minY = boxes[j + 1]!;
        const maxX = boxes[j + 2]!;
        const maxY = boxes[j + 3]!;
        if (boxDistanceSq(minX, minY, maxX, maxY, x, y) > hi) continue;
        const fx = x - minX > maxX - x ? x - minX : maxX - x;
        const fy = y - minY > maxY - y ? y - minY : maxY - y;
        if (l === 2) {
          // A leaf group: its leaves at once, not through the stack.
          const from = (k - leaves) * nodeSize;
          const to = Math.min(from + nodeSize, leaves);
          if (n + to - from > results.length) results = this.widen(results, n, n + to - from);
          n =
            fx * fx + fy * fy < lo
              ? scanAll(emit, from, to, results, n)
              : scanCirclePoints(boxes, emit, from, to, x, y, r, results, n);
          continue;
        }
        if (fx * fx + fy * fy < lo) {
          const a = this.leafStart(k, l);
          const b = this.leafEnd(k + 1, l);
          if (n + b - a > results.length) results = this.widen(results, n, n + b - a);
          n = scanAll(emit, a, b, results, n);
          continue;
        }
        stack[sp++] = k;
        stack[sp++] = l - 1;
      }
    }
    return n;
  }

  // A copy of `out` with room for `need` answers (at most the item count, unless more are
  // needed), its first n kept; it replaces `results` or the pairs' array when `out` was one.
  private widen(out: Int32Array, n: number, need: number): Int32Array {
    const size = Math.min(Math.max(need, 2 * out.length), Math.max(need, this.numItems));
    const bigger = new Int32Array(size);
    bigger.set(out.subarray(0, n));
    if (out === this.results) this.results = bigger;
    else if (out === this.pairOut) this.pairOut = bigger;
    return bigger;
  }

  // The first leaf under node `first` of level l (its subtree's leaves are contiguous).
  private leafStart(first: number, l: number): number {
    let lo = first;
    for (let k = l - 1; k > 0; k--) lo = this.childRange(lo, k);
    return lo;
  }

  // The end of the leaves under the nodes of level l before `end`.
  private leafEnd(end: number, l: number): number {
    let hi = end;
    for (let k = l - 1; k > 0; k--) {
      hi = Math.min(this.childRange(hi - 1, k) + this.nodeSize, this.levelEnd[k - 1]!);
    }
    return hi;
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
    const points = metric === POINT && this.allPoints();
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
        if (points) scanNearestPoints(boxes, indices, first, end, a, b, limit, best);
        else scanNearest(boxes, indices, first, end, metric, q, qi, best);
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
    if (best.length > this.results.length) this.widen(this.results, 0, best.length);
    return best.drain(this.results);
  }

  /**
   * Calls `callback(a, b)` once for every pair of items whose boxes overlap: each leaf queries
   * the tree for the leaves after it that overlap its box.
   */
  pairs(callback: (a: number, b: number) => void): void {
    const { boxes, emit, numItems } = this;
    // Its own answer array: the callback may run queries, which write `results`.
    this.pairOut ??= new Int32Array(Math.min(Math.max(numItems, 1), FIRST_RESULTS));
    for (let p = 0; p < numItems; p++) {
      const n = this.searchRect(boxes, 4 * p, 0, Number.POSITIVE_INFINITY, this.pairOut, 0, p);
      const out = this.pairOut;
      const a = emit[p]!;
      for (let i = 0; i < n; i++) callback(a, out[i]!);
    }
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
            emit[c]!,
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
