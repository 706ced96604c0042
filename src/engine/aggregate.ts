// Per-node aggregates of a tree, shared by PointQuadtree's and StaticQuadtree's engines: each
// engine lists its nodes in pre-order (with their parents) and its items (with the node that holds
// each) into a NodeTable; the front door gives each item a weight and a value; one bottom-up pass
// (reverse pre-order visits every node after its descendants) sums counts, weights and weighted
// positions and folds values into each node, and the post-order (d3-quadtree's visitAfter order:
// children in order, then the parent) is computed from pre-order positions without a stack.
//
// Aggregates are computed afresh by each pass rather than kept up to date by every insert, remove
// and move: a user's reduce has no inverse (a minimum cannot be taken back on removal), the trees
// move items between nodes wholesale when they split, collapse and rebuild, and upkeep would tax
// every mutation for figures that are read once per frame; the pass is one sweep over typed arrays.

import type { AggregateNode } from '../types.js';
import { grown } from './grown.js';

/** The nodes and items of a tree, listed for an aggregate pass, with the results. */
export class NodeTable {
  /** Nodes listed. */
  nodes = 0;
  /** Items listed. */
  entries = 0;
  // Per node, in pre-order: parent (-1 for the root), depth, cell (x, y, width, height).
  parent = new Int32Array(64);
  depth = new Int32Array(64);
  geo = new Float64Array(4 * 64);
  // Per node, after `accumulate`: items in the subtree, their total weight, weighted sums of x
  // and y, the folded value, and the post-order.
  count = new Int32Array(64);
  weight = new Float64Array(64);
  wx = new Float64Array(64);
  wy = new Float64Array(64);
  value = new Float64Array(64);
  order = new Int32Array(64);
  // Per item: its node, slot and position; its weight and value (set by the front door).
  entryNode = new Int32Array(64);
  entrySlot = new Int32Array(64);
  entryXY = new Float64Array(2 * 64);
  entryWeight = new Float64Array(64);
  entryValue = new Float64Array(64);
  /** The object `read` fills, reused. */
  readonly view: AggregateNode = {
    x: 0,
    y: 0,
    width: 0,
    height: 0,
    depth: 0,
    count: 0,
    weight: 0,
    cx: 0,
    cy: 0,
    value: 0,
  };
  /** Scratch stack of the engines' pre-order walks (grown by `stackRoom`). */
  stack = new Int32Array(64);

  /** Starts a new listing. */
  reset(): void {
    this.nodes = 0;
    this.entries = 0;
  }

  /** Makes the stack hold at least n ints; returns it. */
  stackRoom(n: number): Int32Array {
    if (this.stack.length < n) this.stack = grown(this.stack, n, n);
    return this.stack;
  }

  /** Lists a node (children after their parent); returns its number. */
  addNode(parent: number, x: number, y: number, width: number, height: number): number {
    const k = this.nodes;
    if (k === this.parent.length) this.growNodes(2 * k);
    this.parent[k] = parent;
    this.depth[k] = parent < 0 ? 0 : this.depth[parent]! + 1;
    this.geo[4 * k] = x;
    this.geo[4 * k + 1] = y;
    this.geo[4 * k + 2] = width;
    this.geo[4 * k + 3] = height;
    this.nodes = k + 1;
    return k;
  }

  /** Lists an item of node k: its slot and position. */
  addEntry(k: number, slot: number, x: number, y: number): void {
    const e = this.entries;
    if (e === this.entryNode.length) {
      const c = 2 * e;
      this.entryNode = grown(this.entryNode, c, e);
      this.entrySlot = grown(this.entrySlot, c, e);
      this.entryXY = grown(this.entryXY, 2 * c, 2 * e);
      this.entryWeight = new Float64Array(c);
      this.entryValue = new Float64Array(c);
    }
    this.entryNode[e] = k;
    this.entrySlot[e] = slot;
    this.entryXY[2 * e] = x;
    this.entryXY[2 * e + 1] = y;
    this.entries = e + 1;
  }

  /**
   * The bottom-up pass: each node's count, weight, weighted position sums and value (its items'
   * values, then its children's, folded by `reduce` from `initial`; no values when reduce is
   * null), and the post-order.
   */
  accumulate(reduce: ((a: number, b: number) => number) | null, initial: number): void {
    const { parent, depth, count, weight, wx, wy, value, order } = this;
    const { entryNode, entryXY, entryWeight, entryValue } = this;
    const n = this.nodes;
    // Sizes of subtrees ride in `order` until the post-order is written over them.
    for (let k = 0; k < n; k++) {
      count[k] = 0;
      weight[k] = 0;
      wx[k] = 0;
      wy[k] = 0;
      value[k] = initial;
      order[k] = 1;
    }
    // Items into their nodes.
    for (let e = 0; e < this.entries; e++) {
      const k = entryNode[e]!;
      const w = entryWeight[e]!;
      count[k]!++;
      weight[k] += w;
      wx[k] += w * entryXY[2 * e]!;
      wy[k] += w * entryXY[2 * e + 1]!;
      if (reduce !== null) value[k] = reduce(value[k]!, entryValue[e]!);
    }
    // Nodes into their parents, descendants first.
    for (let k = n - 1; k > 0; k--) {
      const p = parent[k]!;
      count[p] += count[k]!;
      weight[p] += weight[k]!;
      wx[p] += wx[k]!;
      wy[p] += wy[k]!;
      order[p] += order[k]!;
      if (reduce !== null) value[p] = reduce(value[p]!, value[k]!);
    }
    // Post-order position of node k: the nodes before it in pre-order but its ancestors, plus its
    // descendants (written to the scratch stack, then over the sizes).
    const post = this.stackRoom(n);
    for (let k = 0; k < n; k++) post[k - depth[k]! + order[k]! - 1] = k;
    order.set(post.subarray(0, n));
  }

  /** Fills `view` with node k's figures. */
  read(k: number, view: AggregateNode): void {
    const g = 4 * k;
    view.x = this.geo[g]!;
    view.y = this.geo[g + 1]!;
    view.width = this.geo[g + 2]!;
    view.height = this.geo[g + 3]!;
    view.depth = this.depth[k]!;
    view.count = this.count[k]!;
    const w = this.weight[k]!;
    view.weight = w;
    view.cx = this.wx[k]! / w;
    view.cy = this.wy[k]! / w;
    view.value = this.value[k]!;
  }

  private growNodes(c: number): void {
    const n = this.nodes;
    this.parent = grown(this.parent, c, n);
    this.depth = grown(this.depth, c, n);
    this.geo = grown(this.geo, 4 * c, 4 * n);
    this.count = new Int32Array(c);
    this.weight = new Float64Array(c);
    this.wx = new Float64Array(c);
    this.wy = new Float64Array(c);
    this.value = new Float64Array(c);
    this.order = new Int32Array(c);
  }
}
