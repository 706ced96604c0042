// The region-tree engine behind Quadtree (and PointQuadtree): a node pool in typed arrays, items
// in slots, one node per item, explicit stacks, no recursion, no allocation per node or result.
//
// - Each item lives in exactly one node: the deepest one, on the path its centre picks, whose
//   (loose) bounds contain it. With looseness 1 these are the cells of the classic quadtree of
//   Timo Hausmann's quadtree-js <= 1.1 and its C++ port, so an item that straddles a split line
//   stays in the parent. With looseness 2 they are the loose cells of Thatcher Ulrich's loose
//   octree ("Loose Octrees", Game Programming Gems 1, 2000), twice the size of the cell.
// - A node's stored bounds are its loose cell clipped to its parent's bounds, so the bounds nest
//   exactly whatever the rounding, and an item is placed in a node only after an exact
//   containment test. Every query prunes by the same bounds, so pruning never loses an answer.
// - The root's bounds are the whole plane: items partly or wholly outside the tree's bounds stay
//   in the root and are found like any other.
// - The four children of a node are allocated together (Dragon Energy, "Efficient quadtrees",
//   https://stackoverflow.com/q/41946007), so a node stores only its first child.
// - A node's items sit side by side in a bucket (box and slot), so scans stream through memory;
//   removal swaps the last entry into the hole.
// - An update that stays inside the item's node's bounds is O(1), like Box2D's fat AABBs
//   (b2DynamicTree::MoveProxy). A removal collapses the subtree it leaves with at most maxObjects
//   items at once (as quadtree-ts's join and d3-quadtree's remove do); subtrees that moves leave
//   small are collapsed lazily.
// - Inserts are buffered and placed by the next read (query, remove, update, walk). A burst as
//   large as the tree rebuilds it top-down, the way a bulk loader partitions its input: the tree
//   one-by-one inserts would have made, with each node's items gathered in one pass per level
//   instead of one descent and one bucket write per item in random order.
//
// The rebuild is in tree-build.ts; the node records, the entries of their buckets and the node
// surgery (split, collapse) in tree-nodes.ts; the window, shape and listing walks in
// tree-walk.ts, the pair walk in tree-pairs.ts and the nearest-first walk in tree-nearest.ts.
// This file holds the class: its fields, and the placement of inserts, removals and moves.
//
// The fields are public so that those files can reach them; who writes which:
// - the node records (lk, geo, band, nodeCount, freeBlock) and the items' places (store.node,
//   store.pos): this file, tree-nodes.ts (put, take, split, collapse, cleanup) and tree-build.ts
//   (the rebuild), nothing else; `targets` and `changes` are tree-nodes.ts's;
// - the pending inserts (pendSlot, pendBox): this file, and tree-build.ts (growPending, and the
//   rebuild, which reorders them in place before the buckets adopt them);
// - the pair walk's frames and stack (frameBox, frameSlot, pairStack): tree-pairs.ts only;
// - everything else (the stacks, queue, heap, buckets, sizes) the walks only read, or use as
//   scratch within one call.

import type { NodeTable } from './aggregate.js';
import { Buckets } from './buckets.js';
import type { Engine, VisitNode } from './engine.js';
import { FIRST_RESULTS, grown } from './grown.js';
import { ItemStore } from './items.js';
import { appendPending, BULK_MIN, dropPending } from './pending.js';
import { KBest, NodeQueue } from './queue.js';
import { PairBuffer } from './scan-pairs.js';
import { rebuild } from './tree-build.js';
import { nearest } from './tree-nearest.js';
import {
  cleanup,
  collapse,
  initNode,
  NODE_CHILD,
  NODE_COUNT,
  NODE_CX,
  NODE_CY,
  NODE_DEPTH,
  NODE_NA,
  NODE_PARENT,
  NODE_START,
  NODE_SUB,
  put,
  split,
  take,
  widenBand,
} from './tree-nodes.js';
import { pairs } from './tree-pairs.js';
import { listNodes, searchRect, searchShape, visit } from './tree-walk.js';

const INF = Number.POSITIVE_INFINITY;

/** A dynamic region quadtree over item slots. Front doors validate and map slots to items. */
export class RegionTree<T> implements Engine<T> {
  readonly store = new ItemStore<T>();
  /** The entries of every node's bucket. */
  readonly buckets = new Buckets();
  /**
   * 8 ints per node: NODE_CHILD, NODE_SUB, NODE_START, NODE_COUNT, NODE_CLASS, NODE_PARENT,
   * NODE_DEPTH, NODE_NA.
   */
  lk: Int32Array;
  /**
   * 8 doubles per node, one cache line: its (loose) bounds clipped to its parent's (the root's
   * are the plane) minX, minY, maxX, maxY, then the centre of its cell NODE_CX, NODE_CY.
   */
  geo: Float64Array;
  /**
   * 4 doubles per node: the x-extent of its A region (minX, maxX) and the y-extent of its B
   * region (minY, maxY), grown as entries come and recomputed when the node splits. A leaf's
   * B band is unbounded (its entries are always scanned) and its A region is empty.
   */
  band: Float64Array;
  /** Nodes handed out so far (the root and whole 4-blocks). */
  nodeCount = 1;
  /** Slots of the query results. */
  results: Int32Array;
  /** Walks that call user code are under way: mutation is refused. */
  walking = 0;

  /** @internal The first free 4-block of nodes (-1: none), threaded through NODE_CHILD. */
  freeBlock = -1;
  /** @internal Half the cell width at each depth (see `looseW` for the loose half-size). */
  readonly halfW: Float64Array;
  /** @internal Half the cell height at each depth. */
  readonly halfH: Float64Array;
  /** @internal The loose half-width at each depth: looseness times halfW. */
  readonly looseW: Float64Array;
  /** @internal The loose half-height at each depth: looseness times halfH. */
  readonly looseH: Float64Array;
  /** @internal The depth-first stack of the walks, splits and cleanup. */
  readonly stack: Int32Array;
  /** @internal Scratch of `split`: the child each entry moves to. */
  targets = new Int32Array(64);
  /** @internal The nodes `nearest` has yet to visit, by key. */
  readonly queue = new NodeQueue();
  readonly best = new KBest();
  /** @internal Frames of the pair walk: boxes of entries copied out of other nodes. */
  frameBox = new Float64Array(4 * 256);
  /** @internal Frames of the pair walk: the slots of the entries in `frameBox`. */
  frameSlot = new Int32Array(256);
  /** @internal The stack of the pair walk: node, start and end of its frame. */
  pairStack: Int32Array;
  /** @internal Pairs found by the pair walk, reported from here. */
  readonly pairBuffer = new PairBuffer();
  /** @internal The stack of `visit`, and the size of the stack `listNodes` asks its table for. */
  readonly visitStack: Int32Array;
  /** @internal The node passed to `visit` callbacks; one object, reused. */
  readonly view: VisitNode = { x: 0, y: 0, width: 0, height: 0, depth: 0, count: 0 };
  /** @internal Removals and relocations since the last cleanup (see `changed`). */
  changes = 0;
  /** @internal Inserted items not yet placed in a node: their slots (see `flush`). */
  pendSlot = new Int32Array(64);
  /** @internal The boxes of the inserted items not yet placed, 4 doubles each. */
  pendBox = new Float64Array(4 * 64);
  /** @internal How many inserted items are not yet placed. */
  private pending = 0;

  constructor(
    readonly x: number,
    readonly y: number,
    readonly width: number,
    readonly height: number,
    readonly maxObjects: number,
    readonly maxLevels: number,
    looseness: number,
  ) {
    const levels = maxLevels + 1;
    this.halfW = new Float64Array(levels);
    this.halfH = new Float64Array(levels);
    this.looseW = new Float64Array(levels);
    this.looseH = new Float64Array(levels);
    let hw = width / 2;
    let hh = height / 2;
    for (let d = 0; d < levels; d++) {
      this.halfW[d] = hw;
      this.halfH[d] = hh;
      this.looseW[d] = looseness * hw;
      this.looseH[d] = looseness * hh;
      hw /= 2;
      hh /= 2;
    }
    // A pop pushes at most 4, so a depth-first stack never holds more than 3 per level + 4.
    this.stack = new Int32Array(3 * levels + 8);
    this.visitStack = new Int32Array(3 * levels + 8);
    this.pairStack = new Int32Array(3 * (3 * levels + 8));
    this.lk = new Int32Array(8 * 64);
    this.geo = new Float64Array(8 * 64);
    this.band = new Float64Array(4 * 64);
    this.results = new Int32Array(FIRST_RESULTS);
    this.clear();
  }

  /** Number of items. */
  get size(): number {
    return this.lk[NODE_SUB]!;
  }

  /** Removes every item and node but the root. */
  clear(): void {
    this.store.clear();
    this.pending = 0;
    // (A large load's buffer, never placed, is let go.)
    dropPending(this);
    this.reset();
  }

  // Empties the nodes and buckets (the item store is the caller's business).
  /** @internal */
  reset(): void {
    this.buckets.clear();
    this.nodeCount = 1;
    this.freeBlock = -1;
    this.changes = 0;
    initNode(
      this,
      0,
      -1,
      0,
      this.x + this.width / 2,
      this.y + this.height / 2,
      -INF,
      -INF,
      INF,
      INF,
    );
  }

  /**
   * Adds an item with the given bounds and returns its slot, or -1 if it is already present.
   * The item is buffered: the next read places it (see `flush`).
   */
  insert(item: T, src: Float64Array, i: number): number {
    const s = this.store.add(item);
    if (s < 0) return s;
    this.lk[NODE_SUB]!++;
    appendPending(this, this.pending++, s, src, i);
    return s;
  }

  /**
   * Adds n items (the numbers 0..n-1 when `items` is null) with the boxes src[4i..4i+3] to a tree
   * whose store has handed out no slot: item i in slot i, buffered as inserts are, with `src`
   * itself (the caller's, never used again) as the buffer of their boxes rather than a copy.
   * Returns -1, or the first item listed twice (nothing added).
   */
  loadAll(items: readonly T[] | null, n: number, src: Float64Array<ArrayBuffer>): number {
    const { store } = this;
    for (let i = 0; i < n; i++) {
      if (store.add(items === null ? (i as T) : (items[i] as T)) < 0) {
        store.clear();
        return i;
      }
    }
    // (Buffers of no entries would never grow: an empty load keeps the small ones.)
    if (n === 0) return -1;
    const slots = new Int32Array(n);
    for (let i = 0; i < n; i++) slots[i] = i;
    this.pendSlot = slots;
    this.pendBox = src;
    this.pending = n;
    this.lk[NODE_SUB] = n;
    return -1;
  }

  // Copies the first `keep` buffered inserts into arrays of `capacity`.
  /** @internal */
  growPending(capacity: number, keep: number): void {
    this.pendSlot = grown(this.pendSlot, capacity, keep);
    this.pendBox = grown(this.pendBox, 4 * capacity, 4 * keep);
  }

  /**
   * Places the buffered inserts: one by one when they are fewer than the items already placed,
   * else by rebuilding the tree from every item. Every read calls it first.
   */
  flush(): void {
    const p = this.pending;
    if (p === 0) return;
    this.pending = 0;
    if (p < BULK_MIN || 2 * p < this.lk[NODE_SUB]!) {
      // (descend does not replace pendBox: it is no bucket.)
      for (let j = 0; j < p; j++) this.descend(this.pendSlot[j]!, 0, this.pendBox, 4 * j);
    } else {
      rebuild(this, p);
    }
    // Let a burst's buffer go; keep a small one for the next inserts.
    dropPending(this);
  }

  /**
   * Removes the item in slot `s`. The highest inner node on its path left with at most
   * `maxObjects` items is collapsed, as a split made it (and a tree left empty is reset), so that
   * after inserts and removals the tree is the one a fresh build of its items makes.
   */
  remove(s: number): void {
    this.flush();
    const n = this.store.node[s]!;
    take(this, s, n);
    const { lk, maxObjects } = this;
    let top = -1;
    for (let a = n; a >= 0; a = lk[8 * a + NODE_PARENT]!) {
      const l = 8 * a;
      if (--lk[l + NODE_SUB]! <= maxObjects && lk[l + NODE_CHILD]! >= 0) top = a;
    }
    this.store.release(s);
    if (lk[NODE_SUB] === 0) this.reset();
    else if (top >= 0) collapse(this, top);
    this.changed();
  }

  /** Gives slot `s` new bounds: O(1) while they stay inside its node's bounds, else relocates. */
  move(s: number, src: Float64Array, i: number): void {
    this.flush();
    const { store, lk } = this;
    const minX = src[i]!;
    const minY = src[i + 1]!;
    const maxX = src[i + 2]!;
    const maxY = src[i + 3]!;
    let n = store.node[s]!;
    if (this.fits(n, src, i)) {
      // Still inside its node: a leaf keeps it (O(1)). An inner node keeps it unless it can sink
      // into the child its centre picks, or its centre has left the node's cell (a loose node
      // keeps such an item, but no child can take it): then it is placed again, as an insert
      // would, so that items never pile up in inner nodes.
      const c = lk[8 * n + NODE_CHILD]!;
      if (c < 0 || (!this.fits(this.pick(n, src, i), src, i) && this.centreInCell(n, src, i))) {
        const p = store.pos[s]!;
        const e = 4 * (lk[8 * n + NODE_START]! + p);
        const box = this.buckets.box;
        box[e] = minX;
        box[e + 1] = minY;
        box[e + 2] = maxX;
        box[e + 3] = maxY;
        widenBand(this, n, p < lk[8 * n + NODE_NA]!, src, i);
        return;
      }
    }
    // Climb to the first ancestor that contains the new box and the centre in its cell (the
    // root contains all), then descend from there.
    take(this, s, n);
    while (n !== 0 && (!this.fits(n, src, i) || !this.centreInCell(n, src, i))) {
      lk[8 * n + NODE_SUB]!--;
      n = lk[8 * n + NODE_PARENT]!;
    }
    this.descend(s, n, src, i);
    this.changed();
  }

  // The child of inner node n that the centre of the box src[i..i+3] picks: right if its x is
  // >= the node's centre, top if its y is. (Boxes come in arrays, not arguments: see scan.ts.)
  /** @internal */
  pick(n: number, src: Float64Array, i: number): number {
    const g = 8 * n;
    const x = src[i]! + (src[i + 2]! - src[i]!) * 0.5;
    const y = src[i + 1]! + (src[i + 3]! - src[i + 1]!) * 0.5;
    return (
      this.lk[g + NODE_CHILD]! +
      ((x >= this.geo[g + NODE_CX]! ? 1 : 0) | (y >= this.geo[g + NODE_CY]! ? 2 : 0))
    );
  }

  // Whether node n's bounds contain the box src[i..i+3].
  /** @internal */
  fits(n: number, src: Float64Array, i: number): boolean {
    const geo = this.geo;
    const g = 8 * n;
    return (
      src[i]! >= geo[g]! &&
      src[i + 1]! >= geo[g + 1]! &&
      src[i + 2]! <= geo[g + 2]! &&
      src[i + 3]! <= geo[g + 3]!
    );
  }

  // Whether the centre of the box src[i..i+3] lies in node n's cell (closed).
  private centreInCell(n: number, src: Float64Array, i: number): boolean {
    const d = this.lk[8 * n + NODE_DEPTH]!;
    const dx = src[i]! + (src[i + 2]! - src[i]!) * 0.5 - this.geo[8 * n + NODE_CX]!;
    const dy = src[i + 1]! + (src[i + 3]! - src[i + 1]!) * 0.5 - this.geo[8 * n + NODE_CY]!;
    const hw = this.halfW[d]!;
    const hh = this.halfH[d]!;
    return dx >= -hw && dx <= hw && dy >= -hh && dy <= hh;
  }

  // Places slot s with its box src[i..i+3] in the subtree of node n (whose counts already include s): down
  // the child its centre picks while that child's bounds contain it, then splits the node if it
  // overflows.
  private descend(s: number, n: number, src: Float64Array, i: number): void {
    const { lk, geo } = this;
    if (lk[8 * n + NODE_CHILD]! >= 0) {
      // The geometry of each node on the way is computed as allocChildren computed it (the same
      // operations on the same numbers, so the same bounds), not read: one cache line per level
      // (the node's record) instead of three.
      const minX = src[i]!;
      const minY = src[i + 1]!;
      const maxX = src[i + 2]!;
      const maxY = src[i + 3]!;
      const x = minX + (maxX - minX) * 0.5;
      const y = minY + (maxY - minY) * 0.5;
      const g = 8 * n;
      let cx = geo[g + NODE_CX]!;
      let cy = geo[g + NODE_CY]!;
      let x0 = geo[g]!;
      let y0 = geo[g + 1]!;
      let x1 = geo[g + 2]!;
      let y1 = geo[g + 3]!;
      let d = lk[g + NODE_DEPTH]!;
      let c = lk[g + NODE_CHILD]!;
      while (c >= 0) {
        d++;
        const hw = this.halfW[d]!;
        const hh = this.halfH[d]!;
        const lw = this.looseW[d]!;
        const lh = this.looseH[d]!;
        const right = x >= cx;
        const top = y >= cy;
        const kx = cx + (right ? hw : -hw);
        const ky = cy + (top ? hh : -hh);
        const kx0 = Math.max(x0, kx - lw);
        const ky0 = Math.max(y0, ky - lh);
        const kx1 = Math.min(x1, kx + lw);
        const ky1 = Math.min(y1, ky + lh);
        if (!(minX >= kx0 && minY >= ky0 && maxX <= kx1 && maxY <= ky1)) break;
        n = c + ((right ? 1 : 0) | (top ? 2 : 0));
        lk[8 * n + NODE_SUB]!++;
        c = lk[8 * n + NODE_CHILD]!;
        cx = kx;
        cy = ky;
        x0 = kx0;
        y0 = ky0;
        x1 = kx1;
        y1 = ky1;
      }
    }
    put(this, s, n, src, i);
    if (
      lk[8 * n + NODE_CHILD]! < 0 &&
      lk[8 * n + NODE_COUNT]! > this.maxObjects &&
      lk[8 * n + NODE_DEPTH]! < this.maxLevels
    ) {
      split(this, n);
    }
  }

  // Counts removals and relocations; once they outnumber the nodes, tidies the tree, so that
  // cleanup costs O(1) amortised per change.
  private changed(): void {
    if (++this.changes > 64 + this.nodeCount) this.cleanup();
  }

  /**
   * Collapses every subtree that holds at most `maxObjects` items into its root node, and frees
   * the nodes below it (the items fit the root's bounds, which contain its descendants').
   */
  cleanup(): void {
    cleanup(this);
  }

  queryRect(q: Float64Array, qi: number, all: number, limit: number): number {
    this.flush();
    return searchRect(this, 0, q, qi, all, limit, 0);
  }

  /**
   * Writes into `results` the slots whose boxes meet a circle (q[qi], q[qi+1], radius q[qi+2])
   * or a segment (q[qi], q[qi+1])-(q[qi+2], q[qi+3]), decided exactly, and returns how many.
   */
  searchShape(shape: number, q: Float64Array, qi: number): number {
    return searchShape(this, shape, q, qi);
  }

  /**
   * Writes into `results` the slots of the `k` items nearest to the query under `metric` (see
   * `boxKey`), nearest first (ties by slot), and returns how many; `best.keys` holds their keys.
   */
  nearest(metric: number, q: Float64Array, qi: number, k: number): number {
    return nearest(this, metric, q, qi, k);
  }

  /**
   * Calls `callback(slotA, slotB)` once for every pair of items whose boxes overlap (see
   * tree-pairs.ts).
   */
  pairs(callback: (a: number, b: number) => void, items: readonly unknown[] | null): void {
    try {
      pairs(this, callback, items);
    } finally {
      this.pairBuffer.items = null;
    }
  }

  /**
   * Lists the nodes in pre-order (children in quadrant order) and the entries of each, at the
   * centre of their boxes, into `table` (see aggregate.ts).
   */
  listNodes(table: NodeTable): void {
    listNodes(this, table);
  }

  /** Calls `callback` for each node, parents first; a `true` return skips the node's children. */
  visit(callback: (node: VisitNode) => unknown): void {
    visit(this, callback);
  }
}
