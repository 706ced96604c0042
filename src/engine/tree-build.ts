// The bulk placement of the region tree's buffered inserts (see tree.ts): a burst as large as
// the tree rebuilds it top-down, each level one counting pass and one scatter of the entries
// into a second buffer, like the partition of a radix sort.

import type { RegionTree } from './tree.js';
import {
  allocChildren,
  childCell,
  EXACT,
  NODE_CHILD,
  NODE_CLASS,
  NODE_COUNT,
  NODE_CX,
  NODE_CY,
  NODE_DEPTH,
  NODE_START,
  NODE_SUB,
  regroup,
} from './tree-nodes.js';

/** A rebuild's buffer of entries: item slots and their boxes. */
interface EntryArrays {
  slot: Int32Array;
  box: Float64Array;
}

/** Groups of a rebuild's split: stay, then for each child: stay in it, or one of its children. */
const GROUPS = 21;
/** Grandchild cells that contain no box (minX and minY +Infinity): see tagGroups. */
const NO_CELLS = new Float64Array(4 * 4 * 6).fill(Number.POSITIVE_INFINITY);

/**
 * Rebuilds `tree` from its `p` buffered inserts and the items already placed. Top-down: the
 * items whose path reaches a node are split among its children when they are more than
 * maxObjects (and the node is above maxLevels): those that fit the child their centre picks go
 * down, the rest stay. That is the tree one-by-one inserts make, in any order: a node splits
 * once the items reaching it outnumber maxObjects, and which items reach it does not depend on
 * the order. Each level is one counting pass and one scatter into a second buffer (nodes at odd
 * depths read it, nodes at even depths the first), like the partition of a radix sort.
 */
export function rebuild(tree: RegionTree<unknown>, p: number): void {
  const total = tree.lk[NODE_SUB]!;
  // Gather: the placed entries after the buffered ones.
  if (tree.pendSlot.length < total) tree.growPending(total, p);
  let m = p;
  {
    const { lk, stack } = tree;
    const { box, slot } = tree.buckets;
    const { pendSlot, pendBox } = tree;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const n = stack[--sp]!;
      const l = 8 * n;
      const from = lk[l + NODE_START]!;
      const count = lk[l + NODE_COUNT]!;
      copyRange(slot, box, from, from + count, pendSlot, pendBox, m);
      m += count;
      const c = lk[l + NODE_CHILD]!;
      if (c >= 0) for (let k = c; k < c + 4; k++) if (lk[8 * k + NODE_SUB]! > 0) stack[sp++] = k;
    }
  }
  tree.reset();
  tree.lk[NODE_SUB] = total;
  // Tasks: a node, its items' range [lo, hi) and the buffer they are in. The first buffer (the
  // pending one) becomes the bucket array at the end: each node's bucket is its range there,
  // exactly sized, so ranges that end in the second buffer are copied back.
  const a = { slot: tree.pendSlot, box: tree.pendBox };
  const b = { slot: new Int32Array(total), box: new Float64Array(4 * total) };
  const tag = new Uint8Array(total);
  // The cells of the grandchildren of the node being split (4 per child, 6 doubles each), and
  // the start of each group of its items.
  const cells = new Float64Array(4 * 4 * 6);
  const edge = new Int32Array(GROUPS);
  const tasks = new Int32Array(4 * (16 * (tree.maxLevels + 2)));
  const { maxObjects, maxLevels } = tree;
  let sp = 0;
  tasks[sp++] = 0;
  tasks[sp++] = 0;
  tasks[sp++] = total;
  tasks[sp++] = 0;
  while (sp > 0) {
    const inB = tasks[--sp]!;
    const hi = tasks[--sp]!;
    const lo = tasks[--sp]!;
    const n = tasks[--sp]!;
    const l = 8 * n;
    const d = tree.lk[l + NODE_DEPTH]!;
    const src = inB ? b : a;
    const dst = inB ? a : b;
    if (hi - lo <= maxObjects || d >= maxLevels) {
      // A leaf: all its items in its bucket.
      own(tree, n, src, b, a, lo, hi);
      continue;
    }
    // Split, two levels at a time where the depth allows: each item goes to one group: it
    // stays in n (group 0), or stays in child q (1 + 5q), or goes to grandchild r of child q
    // (2 + 5q + r). The scatter lays the groups out in that order, which is the order of the
    // buckets: each node's stayers, then its children's items.
    const c = allocChildren(tree, n);
    const geo = tree.geo;
    const two = d + 1 < maxLevels;
    if (two) {
      for (let q = 0; q < 4; q++) {
        for (let r = 0; r < 4; r++) {
          childCell(tree, geo, 8 * (c + q), d + 2, r, cells, 24 * q + 6 * r);
        }
      }
    }
    tagGroups(src.box, lo, hi, geo, l, 8 * c, two ? cells : null, tag, edge);
    // edge[g]: where group g starts; scatter leaves it where group g ends.
    let at = lo;
    for (let g = 0; g < GROUPS; g++) {
      const count = edge[g]!;
      edge[g] = at;
      at += count;
    }
    scatter(src.slot, src.box, lo, hi, tag, edge, dst.slot, dst.box);
    own(tree, n, dst, b, a, lo, edge[0]!);
    // The children, last first so that the walk goes in child order.
    for (let q = 3; q >= 0; q--) {
      const k = c + q;
      const from = edge[5 * q]!;
      const to = edge[5 * q + 5]!;
      tree.lk[8 * k + NODE_SUB] = to - from;
      if (to === from) continue;
      if (!two || to - from <= maxObjects) {
        // Its items not grouped further (or a leaf, whatever their groups).
        tasks[sp++] = k;
        tasks[sp++] = from;
        tasks[sp++] = to;
        tasks[sp++] = 1 - inB;
        continue;
      }
      // Split child k by its groups: its stayers, then its children's ranges.
      const kc = allocChildren(tree, k);
      own(tree, k, dst, b, a, from, edge[5 * q + 1]!);
      for (let r = 3; r >= 0; r--) {
        const f = edge[5 * q + 1 + r]!;
        const t = edge[5 * q + 2 + r]!;
        tree.lk[8 * (kc + r) + NODE_SUB] = t - f;
        if (t === f) continue;
        tasks[sp++] = kc + r;
        tasks[sp++] = f;
        tasks[sp++] = t;
        tasks[sp++] = 1 - inB;
      }
    }
  }
  tree.buckets.adopt(a.box, a.slot, total);
  tree.pendSlot = new Int32Array(64);
  tree.pendBox = new Float64Array(4 * 64);
  // Sort the stayers of inner nodes into their regions, and set their bands.
  for (let n = 0; n < tree.nodeCount; n++) if (tree.lk[8 * n + NODE_CHILD]! >= 0) regroup(tree, n);
}

// Makes the items in [lo, hi) of `src` node n's bucket, exactly sized: in `home`, where the
// buckets will be (copied there from `other` if src is that).
function own(
  tree: RegionTree<unknown>,
  n: number,
  src: EntryArrays,
  other: EntryArrays,
  home: EntryArrays,
  lo: number,
  hi: number,
): void {
  const lk = tree.lk;
  const l = 8 * n;
  lk[l + NODE_START] = lo;
  lk[l + NODE_COUNT] = hi - lo;
  lk[l + NODE_CLASS] = hi > lo ? EXACT : -1;
  if (src === other) copyRange(src.slot, src.box, lo, hi, home.slot, home.box, lo);
  claim(home.slot, lo, hi, tree.store.node, tree.store.pos, n);
}

// Groups each box of src[lo..hi) by where it goes from the node at geo[l] (its children's cells
// at geo[g + 8q]): into the child q its centre picks if that child's bounds contain it, else it
// stays (group 0); in child q, with `cells` (its children's cells at cells[24q + 6r]), into the
// grandchild r its centre picks if that one's bounds contain it (group 2 + 5q + r), else it stays
// in the child (1 + 5q); without `cells`, group 1 + 5q. Writes the groups into `tag` and counts
// them in `counts`.
function tagGroups(
  src: Float64Array,
  lo: number,
  hi: number,
  geo: Float64Array,
  l: number,
  g: number,
  cells: Float64Array | null,
  tag: Uint8Array,
  counts: Int32Array,
): void {
  counts.fill(0);
  const cx = geo[l + NODE_CX]!;
  const cy = geo[l + NODE_CY]!;
  // Without grandchildren, a table whose tests always fail: group 1 + 5q.
  const kids = cells ?? NO_CELLS;
  for (let e = lo; e < hi; e++) {
    const minX = src[4 * e]!;
    const minY = src[4 * e + 1]!;
    const maxX = src[4 * e + 2]!;
    const maxY = src[4 * e + 3]!;
    const x = minX + (maxX - minX) * 0.5;
    const y = minY + (maxY - minY) * 0.5;
    // Comparisons combined as bits, not branches: V8 makes them flags, and random data would
    // mispredict a branch half the time (this halves the time of the pass).
    const q = bit(x >= cx) | (bit(y >= cy) << 1);
    const k = g + 8 * q;
    const out =
      bit(minX < geo[k]!) |
      bit(minY < geo[k + 1]!) |
      bit(maxX > geo[k + 2]!) |
      bit(maxY > geo[k + 3]!);
    const r = bit(x >= geo[k + NODE_CX]!) | (bit(y >= geo[k + NODE_CY]!) << 1);
    const o = 24 * q + 6 * r;
    const out2 =
      bit(minX < kids[o]!) |
      bit(minY < kids[o + 1]!) |
      bit(maxX > kids[o + 2]!) |
      bit(maxY > kids[o + 3]!);
    const t = (1 + 5 * q + ((1 + r) & (out2 - 1))) & (out - 1);
    tag[e] = t;
    counts[t]!++;
  }
}

// A comparison as 0 or 1, with no branch (`|` converts a boolean to a number).
function bit(b: boolean): number {
  return (b as unknown as number) | 0;
}

// Moves each entry of [lo, hi) to the next free place of its group's range in dst (edge[g]
// onwards; edge is advanced).
function scatter(
  srcSlot: Int32Array,
  srcBox: Float64Array,
  lo: number,
  hi: number,
  tag: Uint8Array,
  edge: Int32Array,
  dstSlot: Int32Array,
  dstBox: Float64Array,
): void {
  for (let e = lo; e < hi; e++) {
    const g = tag[e]!;
    const to = edge[g]!;
    edge[g] = to + 1;
    copyEntryTo(srcSlot, srcBox, e, dstSlot, dstBox, to);
  }
}

// Copies the entries [lo, hi) of one pair of arrays to another, from its entry `at` on.
function copyRange(
  srcSlot: Int32Array,
  srcBox: Float64Array,
  lo: number,
  hi: number,
  dstSlot: Int32Array,
  dstBox: Float64Array,
  at: number,
): void {
  for (let e = lo; e < hi; e++) copyEntryTo(srcSlot, srcBox, e, dstSlot, dstBox, at + e - lo);
}

// Copies entry e (slot and box) of one pair of arrays to entry `to` of another.
function copyEntryTo(
  srcSlot: Int32Array,
  srcBox: Float64Array,
  e: number,
  dstSlot: Int32Array,
  dstBox: Float64Array,
  to: number,
): void {
  dstSlot[to] = srcSlot[e]!;
  dstBox[4 * to] = srcBox[4 * e]!;
  dstBox[4 * to + 1] = srcBox[4 * e + 1]!;
  dstBox[4 * to + 2] = srcBox[4 * e + 2]!;
  dstBox[4 * to + 3] = srcBox[4 * e + 3]!;
}

// Tells the slots of the entries [lo, hi) of node n's bucket (whose slots are in `slot`, and
// which starts at lo) where they are; node and pos are the item store's arrays.
function claim(
  slot: Int32Array,
  lo: number,
  hi: number,
  node: Int32Array,
  pos: Int32Array,
  n: number,
): void {
  for (let e = lo; e < hi; e++) {
    const s = slot[e]!;
    node[s] = n;
    pos[s] = e - lo;
  }
}
