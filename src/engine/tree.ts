// The region-tree engine behind Quadtree (and PointQuadtree): a node pool in typed arrays, items
// in slots, one node per item, explicit stacks, no recursion, no allocation per node or result.
//
// - Each item lives in exactly one node: the deepest one, on the path its centre picks, whose
//   (loose) bounds contain it. With looseness 1 these are the cells of the classic quadtree of
//   quadtree-js <= 1.1 and seeds 000/001, so an item that straddles a split line stays in the
//   parent. With looseness 2 they are the loose cells of Ulrich's loose octree ("Loose Octrees",
//   Game Programming Gems 1, 2000; seed 002), twice the size of the cell.
// - A node's stored bounds are its loose cell clipped to its parent's bounds, so the bounds nest
//   exactly whatever the rounding, and an item is placed in a node only after an exact
//   containment test. Every query prunes by the same bounds, so pruning never loses an answer.
// - The root's bounds are the whole plane: items partly or wholly outside the tree's bounds stay
//   in the root and are found like any other.
// - The four children of a node are allocated together (Dragon Energy, "Efficient quadtrees",
//   https://stackoverflow.com/q/41946007), so a node stores only its first child.
// - Items keep a copy of their node's bounds (the "fit" box): an update that stays inside it is
//   O(1), like Box2D's fat AABBs (b2DynamicTree::MoveProxy). Empty subtrees are collapsed lazily.

import { boxDistanceSq } from '../geometry/rect.js';
import { ItemStore } from './items.js';
import { KBest, NodeQueue } from './queue.js';
import {
  filterSlots,
  scanAll,
  scanNearest,
  scanPairs,
  scanRect,
  scanShape,
  shapeHits,
} from './scan.js';

const INF = Number.POSITIVE_INFINITY;

/** The node passed to `visit` callbacks. */
export interface NodeView {
  x: number;
  y: number;
  width: number;
  height: number;
  depth: number;
  count: number;
}

/** A dynamic region quadtree over item slots. Front doors validate and map slots to items. */
export class RegionTree<T> {
  readonly store = new ItemStore<T>();
  /** First of the four children, or -1 for a leaf; threads the free list of 4-blocks. */
  child: Int32Array;
  parent: Int32Array;
  /** First item slot of the node's list, -1 when empty. */
  head: Int32Array;
  /** Items in the node itself. */
  count: Int32Array;
  /** Items in the node's subtree (itself included). */
  sub: Int32Array;
  depth: Uint8Array;
  /** Centre of the node's cell. */
  cx: Float64Array;
  cy: Float64Array;
  /** 4 per node: the node's (loose) bounds, clipped to its parent's; the root's is the plane. */
  nbox: Float64Array;
  /** Nodes handed out so far (the root and whole 4-blocks). */
  nodeCount = 1;
  /** Slots of the query results. */
  results: Int32Array;
  /** Walks that call user code are under way: mutation is refused. */
  walking = 0;

  private freeBlock = -1;
  /** Half the cell size at each depth, and the loose half-size. */
  private readonly halfW: Float64Array;
  private readonly halfH: Float64Array;
  private readonly looseW: Float64Array;
  private readonly looseH: Float64Array;
  private readonly stack: Int32Array;
  private readonly queue = new NodeQueue();
  private readonly best = new KBest();
  private frame = new Int32Array(256);
  private pairStack: Int32Array;
  private readonly visitStack: Int32Array;
  private readonly view: NodeView = { x: 0, y: 0, width: 0, height: 0, depth: 0, count: 0 };
  private changes = 0;

  constructor(
    readonly x: number,
    readonly y: number,
    readonly width: number,
    readonly height: number,
    readonly maxObjects: number,
    readonly maxLevels: number,
    readonly looseness: number,
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
    const cap = 64;
    this.child = new Int32Array(cap);
    this.parent = new Int32Array(cap);
    this.head = new Int32Array(cap);
    this.count = new Int32Array(cap);
    this.sub = new Int32Array(cap);
    this.depth = new Uint8Array(cap);
    this.cx = new Float64Array(cap);
    this.cy = new Float64Array(cap);
    this.nbox = new Float64Array(4 * cap);
    this.results = new Int32Array(this.store.capacity);
    this.clear();
  }

  /** Number of items. */
  get size(): number {
    return this.sub[0]!;
  }

  /** Removes every item and node but the root. */
  clear(): void {
    this.store.clear();
    this.nodeCount = 1;
    this.freeBlock = -1;
    this.changes = 0;
    this.child[0] = -1;
    this.parent[0] = -1;
    this.head[0] = -1;
    this.count[0] = 0;
    this.sub[0] = 0;
    this.depth[0] = 0;
    this.cx[0] = this.x + this.width / 2;
    this.cy[0] = this.y + this.height / 2;
    this.nbox[0] = -INF;
    this.nbox[1] = -INF;
    this.nbox[2] = INF;
    this.nbox[3] = INF;
  }

  /** Adds an item with the given bounds and returns its slot. */
  insert(item: T, minX: number, minY: number, maxX: number, maxY: number): number {
    const s = this.store.add(item, minX, minY, maxX, maxY);
    if (this.results.length < this.store.capacity)
      this.results = new Int32Array(this.store.capacity);
    this.sub[0]!++;
    this.descend(s, 0);
    return s;
  }

  /** Removes the item in slot `s`. */
  remove(s: number): void {
    const n = this.store.node[s]!;
    this.unlink(s, n);
    const { sub, parent } = this;
    for (let a = n; a >= 0; a = parent[a]!) sub[a]!--;
    this.store.release(s);
    this.changed();
  }

  /** Gives slot `s` new bounds: O(1) while they stay inside its node's bounds, else relocates. */
  move(s: number, minX: number, minY: number, maxX: number, maxY: number): void {
    const box = this.store.box;
    const i = 8 * s;
    box[i] = minX;
    box[i + 1] = minY;
    box[i + 2] = maxX;
    box[i + 3] = maxY;
    let n = this.store.node[s]!;
    const { nbox, sub, parent, child, cx, cy } = this;
    const ex = minX + (maxX - minX) * 0.5;
    const ey = minY + (maxY - minY) * 0.5;
    if (minX >= box[i + 4]! && minY >= box[i + 5]! && maxX <= box[i + 6]! && maxY <= box[i + 7]!) {
      // Still inside its node: a leaf keeps it (O(1)). An inner node keeps it unless it can sink
      // into the child its centre picks, or its centre has left the node's cell (a loose node
      // keeps such an item, but no child can take it): then it is placed again, as an insert
      // would, so that items never pile up in inner nodes.
      const c = child[n]!;
      if (c < 0) return;
      const k = c + ((ex >= cx[n]! ? 1 : 0) | (ey >= cy[n]! ? 2 : 0));
      const b = 4 * k;
      if (
        minX >= nbox[b]! &&
        minY >= nbox[b + 1]! &&
        maxX <= nbox[b + 2]! &&
        maxY <= nbox[b + 3]!
      ) {
        this.unlink(s, n);
        this.descend(s, n);
        return;
      }
      if (this.centreInCell(n, ex, ey)) return;
    }
    // Climb to the first ancestor that contains the new box and its centre's cell (the root
    // contains all), then descend from there.
    this.unlink(s, n);
    while (
      n !== 0 &&
      (minX < nbox[4 * n]! ||
        minY < nbox[4 * n + 1]! ||
        maxX > nbox[4 * n + 2]! ||
        maxY > nbox[4 * n + 3]! ||
        !this.centreInCell(n, ex, ey))
    ) {
      sub[n]!--;
      n = parent[n]!;
    }
    this.descend(s, n);
    this.changed();
  }

  // Whether (x, y) lies in node n's cell (closed).
  private centreInCell(n: number, x: number, y: number): boolean {
    const d = this.depth[n]!;
    const dx = x - this.cx[n]!;
    const dy = y - this.cy[n]!;
    const hw = this.halfW[d]!;
    const hh = this.halfH[d]!;
    return dx >= -hw && dx <= hw && dy >= -hh && dy <= hh;
  }

  // Places slot s in the subtree of node n (whose counts already include s): down the child its
  // centre picks while that child's bounds contain it, then splits the node if it overflows.
  private descend(s: number, n: number): void {
    const { child, cx, cy, nbox, sub } = this;
    const box = this.store.box;
    const minX = box[8 * s]!;
    const minY = box[8 * s + 1]!;
    const maxX = box[8 * s + 2]!;
    const maxY = box[8 * s + 3]!;
    const ex = minX + (maxX - minX) * 0.5;
    const ey = minY + (maxY - minY) * 0.5;
    let c = child[n]!;
    while (c >= 0) {
      const k = c + ((ex >= cx[n]! ? 1 : 0) | (ey >= cy[n]! ? 2 : 0));
      const b = 4 * k;
      if (minX < nbox[b]! || minY < nbox[b + 1]! || maxX > nbox[b + 2]! || maxY > nbox[b + 3]!)
        break;
      n = k;
      sub[n]!++;
      c = child[n]!;
    }
    this.link(s, n);
    if (c < 0 && this.count[n]! > this.maxObjects && this.depth[n]! < this.maxLevels) this.split(n);
  }

  // Splits node n, moves each of its items that fits a child into it, and splits again any child
  // that overflows in turn (an explicit stack: the depth limit bounds it).
  private split(n: number): void {
    const stack = this.stack;
    let sp = 0;
    stack[sp++] = n;
    while (sp > 0) {
      n = stack[--sp]!;
      const c = this.allocChildren(n);
      const { cx, cy, nbox, sub, count, depth } = this;
      const { box, next } = this.store;
      const x = cx[n]!;
      const y = cy[n]!;
      // Rebuild the lists: each item goes to the child that contains it, or back to n.
      let s = this.head[n]!;
      this.head[n] = -1;
      count[n] = 0;
      for (let nx = 0; s >= 0; s = nx) {
        nx = next[s]!;
        const i = 8 * s;
        const minX = box[i]!;
        const minY = box[i + 1]!;
        const maxX = box[i + 2]!;
        const maxY = box[i + 3]!;
        let k =
          c +
          ((minX + (maxX - minX) * 0.5 >= x ? 1 : 0) | (minY + (maxY - minY) * 0.5 >= y ? 2 : 0));
        const b = 4 * k;
        if (minX < nbox[b]! || minY < nbox[b + 1]! || maxX > nbox[b + 2]! || maxY > nbox[b + 3]!)
          k = n;
        else sub[k]!++;
        this.link(s, k);
      }
      for (let k = c; k < c + 4; k++) {
        if (count[k]! > this.maxObjects && depth[k]! < this.maxLevels) stack[sp++] = k;
      }
    }
  }

  // Takes a 4-block for the children of n and sets their cells and bounds.
  private allocChildren(n: number): number {
    let c = this.freeBlock;
    if (c >= 0) {
      this.freeBlock = this.child[c]!;
    } else {
      c = this.nodeCount;
      this.nodeCount += 4;
      if (this.nodeCount > this.child.length) this.growNodes(2 * this.nodeCount);
    }
    const { child, parent, head, count, sub, depth, cx, cy, nbox } = this;
    child[n] = c;
    const d = depth[n]! + 1;
    const hw = this.halfW[d]!;
    const hh = this.halfH[d]!;
    const lw = this.looseW[d]!;
    const lh = this.looseH[d]!;
    const pMinX = nbox[4 * n]!;
    const pMinY = nbox[4 * n + 1]!;
    const pMaxX = nbox[4 * n + 2]!;
    const pMaxY = nbox[4 * n + 3]!;
    for (let q = 0; q < 4; q++) {
      const k = c + q;
      const x = cx[n]! + (q & 1 ? hw : -hw);
      const y = cy[n]! + (q & 2 ? hh : -hh);
      child[k] = -1;
      parent[k] = n;
      head[k] = -1;
      count[k] = 0;
      sub[k] = 0;
      depth[k] = d;
      cx[k] = x;
      cy[k] = y;
      // The loose cell, clipped to the parent's bounds so that bounds nest exactly.
      nbox[4 * k] = Math.max(pMinX, x - lw);
      nbox[4 * k + 1] = Math.max(pMinY, y - lh);
      nbox[4 * k + 2] = Math.min(pMaxX, x + lw);
      nbox[4 * k + 3] = Math.min(pMaxY, y + lh);
    }
    return c;
  }

  private growNodes(capacity: number): void {
    const grow32 = (a: Int32Array, size: number) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    const grow64 = (a: Float64Array, size: number) => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.child = grow32(this.child, capacity);
    this.parent = grow32(this.parent, capacity);
    this.head = grow32(this.head, capacity);
    this.count = grow32(this.count, capacity);
    this.sub = grow32(this.sub, capacity);
    const depth = new Uint8Array(capacity);
    depth.set(this.depth);
    this.depth = depth;
    this.cx = grow64(this.cx, capacity);
    this.cy = grow64(this.cy, capacity);
    this.nbox = grow64(this.nbox, 4 * capacity);
  }

  private link(s: number, n: number): void {
    const { next, prev, node, box } = this.store;
    const h = this.head[n]!;
    next[s] = h;
    prev[s] = -1;
    if (h >= 0) prev[h] = s;
    this.head[n] = s;
    node[s] = n;
    this.count[n]!++;
    const nbox = this.nbox;
    box[8 * s + 4] = nbox[4 * n]!;
    box[8 * s + 5] = nbox[4 * n + 1]!;
    box[8 * s + 6] = nbox[4 * n + 2]!;
    box[8 * s + 7] = nbox[4 * n + 3]!;
  }

  private unlink(s: number, n: number): void {
    const { next, prev } = this.store;
    const p = prev[s]!;
    const x = next[s]!;
    if (p >= 0) next[p] = x;
    else this.head[n] = x;
    if (x >= 0) prev[x] = p;
    this.count[n]!--;
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
    this.changes = 0;
    const { child, sub, stack } = this;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const n = stack[--sp]!;
      const c = child[n]!;
      if (c < 0) continue;
      if (sub[n]! <= this.maxObjects) this.collapse(n, sp);
      else for (let k = c; k < c + 4; k++) stack[sp++] = k;
    }
  }

  // Moves every item below n into n and frees n's descendants, using the stack above `base`.
  private collapse(n: number, base: number): void {
    const { child, head, stack } = this;
    const next = this.store.next;
    let sp = base;
    stack[sp++] = child[n]!;
    child[n] = -1;
    while (sp > base) {
      const c = stack[--sp]!;
      for (let k = c; k < c + 4; k++) {
        for (let s = head[k]!, nx = 0; s >= 0; s = nx) {
          nx = next[s]!;
          this.link(s, n);
        }
        if (child[k]! >= 0) stack[sp++] = child[k]!;
      }
      child[c] = this.freeBlock;
      this.freeBlock = c;
    }
  }

  /**
   * Writes into `out` from index `n` the slots of the subtree of `start` whose boxes overlap the
   * query box (every slot of each node whose bounds it meets when `all`), and returns the new
   * count. Stops after the node where the count reaches `limit`. `out` must have room for them.
   */
  searchRect(
    start: number,
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
    all: number,
    limit: number,
    out: Int32Array,
    n: number,
  ): number {
    const { child, head, sub, nbox, stack, store } = this;
    let sp = 0;
    stack[sp++] = start;
    while (sp > 0) {
      const node = stack[--sp]!;
      if (node < 0) {
        // A node inside the query (~node): every item below it is an answer, no tests needed.
        n = scanAll(store, head[~node]!, out, n);
        const c = child[~node]!;
        if (c >= 0) for (let k = c; k < c + 4; k++) if (sub[k]! > 0) stack[sp++] = ~k;
      } else {
        n = scanRect(store, head[node]!, minX, minY, maxX, maxY, all, out, n);
        const c = child[node]!;
        if (c >= 0) {
          // Push the children the query meets, marked (~k) when it contains them.
          for (let k = c; k < c + 4; k++) {
            if (sub[k] === 0) continue;
            const b = 4 * k;
            const bMinX = nbox[b]!;
            const bMinY = nbox[b + 1]!;
            const bMaxX = nbox[b + 2]!;
            const bMaxY = nbox[b + 3]!;
            if (bMinX > maxX || bMinY > maxY || bMaxX < minX || bMaxY < minY) continue;
            const inside = bMinX >= minX && bMinY >= minY && bMaxX <= maxX && bMaxY <= maxY;
            stack[sp++] = inside ? ~k : k;
          }
        }
      }
      if (n >= limit) break;
    }
    return n;
  }

  /**
   * Writes into `results` the slots whose boxes meet a circle (a, b, radius c) or a segment
   * (a, b)-(c, d), decided exactly, and returns how many.
   */
  searchShape(shape: number, a: number, b: number, c: number, d: number): number {
    const { child, head, sub, nbox, stack, store, results } = this;
    let n = 0;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const node = stack[--sp]!;
      n = scanShape(store, head[node]!, shape, a, b, c, d, results, n);
      const first = child[node]!;
      if (first < 0) continue;
      for (let k = first; k < first + 4; k++) {
        const j = 4 * k;
        if (
          sub[k]! > 0 &&
          shapeHits(shape, nbox[j]!, nbox[j + 1]!, nbox[j + 2]!, nbox[j + 3]!, a, b, c, d)
        ) {
          stack[sp++] = k;
        }
      }
    }
    return n;
  }

  /**
   * Writes into `results` the slots of the `k` items nearest to (x, y) within squared distance
   * `maxDistSq`, nearest first (ties by slot), and returns how many. Best-first search: nodes
   * leave the queue in order of their distance, until none can beat the k-th best item.
   */
  nearest(x: number, y: number, k: number, maxDistSq: number): number {
    const { child, head, sub, nbox, queue, best, store } = this;
    queue.clear();
    best.reset(k);
    if (k === 0 || sub[0] === 0) return 0;
    queue.push(0, 0);
    while (queue.length > 0) {
      const bound = best.full ? Math.min(maxDistSq, best.worst()) : maxDistSq;
      if (queue.peekKey() > bound) break;
      const node = queue.pop();
      scanNearest(store, head[node]!, x, y, maxDistSq, best);
      const c = child[node]!;
      if (c < 0) continue;
      for (let q = c; q < c + 4; q++) {
        if (sub[q] === 0) continue;
        const j = 4 * q;
        const d = boxDistanceSq(nbox[j]!, nbox[j + 1]!, nbox[j + 2]!, nbox[j + 3]!, x, y);
        if (d <= maxDistSq) queue.push(q, d);
      }
    }
    return best.drain(this.results);
  }

  /**
   * Calls `callback(slotA, slotB)` once for every pair of items whose boxes overlap.
   *
   * One depth-first walk. Each node carries a "frame": the items outside its subtree that may
   * overlap items inside it (items of its ancestors, and of its earlier siblings' subtrees, that
   * meet its bounds). At a node, its items are tested against each other and against the frame,
   * so each pair is met exactly once: at the node of the item the walk reaches later.
   */
  pairs(callback: (a: number, b: number) => void): void {
    const { child, head, sub, count, nbox, store } = this;
    let stack = this.pairStack;
    let sp = 0;
    let top = 0; // end of the live frames in `this.frame`
    stack[sp++] = 0;
    stack[sp++] = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const fe = stack[--sp]!;
      const fs = stack[--sp]!;
      const n = stack[--sp]!;
      top = fe;
      // The node's items against each other and against its frame.
      scanPairs(store, head[n]!, this.frame, fs, fe, callback);
      const c = child[n]!;
      if (c < 0) continue;
      // The frame of each child: the node's frame and items that meet the child's bounds, then
      // the items of its earlier siblings' subtrees that do.
      for (let k = c; k < c + 4; k++) {
        if (sub[k] === 0) continue;
        let room = top + (fe - fs) + count[n]!;
        for (let m = c; m < k; m++) room += sub[m]!;
        if (room > this.frame.length) {
          const bigger = new Int32Array(Math.max(room, 2 * this.frame.length));
          bigger.set(this.frame.subarray(0, top));
          this.frame = bigger;
        }
        const frame = this.frame;
        const b = 4 * k;
        const bMinX = nbox[b]!;
        const bMinY = nbox[b + 1]!;
        const bMaxX = nbox[b + 2]!;
        const bMaxY = nbox[b + 3]!;
        const start = top;
        top = filterSlots(store, frame, fs, fe, bMinX, bMinY, bMaxX, bMaxY, frame, top);
        top = scanRect(store, head[n]!, bMinX, bMinY, bMaxX, bMaxY, 0, frame, top);
        for (let m = c; m < k; m++) {
          if (sub[m] === 0) continue;
          const j = 4 * m;
          if (
            nbox[j]! > bMaxX ||
            nbox[j + 1]! > bMaxY ||
            nbox[j + 2]! < bMinX ||
            nbox[j + 3]! < bMinY
          )
            continue;
          top = this.searchRect(m, bMinX, bMinY, bMaxX, bMaxY, 0, INF, frame, top);
        }
        if (sp + 3 > stack.length) {
          const bigger = new Int32Array(2 * stack.length);
          bigger.set(stack);
          this.pairStack = stack = bigger;
        }
        stack[sp++] = k;
        stack[sp++] = start;
        stack[sp++] = top;
      }
    }
  }

  /** Calls `callback` for each node, parents first; a `true` return skips the node's children. */
  visit(callback: (node: NodeView) => unknown): void {
    const { halfW, halfH, visitStack: stack, view } = this;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const n = stack[--sp]!;
      const d = this.depth[n]!;
      view.x = n === 0 ? this.x : this.cx[n]! - halfW[d]!;
      view.y = n === 0 ? this.y : this.cy[n]! - halfH[d]!;
      view.width = n === 0 ? this.width : 2 * halfW[d]!;
      view.height = n === 0 ? this.height : 2 * halfH[d]!;
      view.depth = d;
      view.count = this.count[n]!;
      if (callback(view) === true) continue;
      const c = this.child[n]!;
      if (c >= 0) for (let k = c + 3; k >= c; k--) stack[sp++] = k;
    }
  }
}
