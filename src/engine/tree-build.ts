// The bulk placement of the region tree's buffered inserts (see tree.ts): a burst as large as
// the tree rebuilds it top-down, each level one counting pass and one partition of the entries
// in place, like the American flag sort (P. M. McIlroy, K. Bostic, M. D. McIlroy, "Engineering
// radix sort", Computing Systems 6(1), 1993).

import { dropPending } from './pending.js';
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
 * the order. Each level is one counting pass and one partition in place, in the buffer that
 * becomes the buckets: no second buffer (a fresh one cost more in page faults than the moves).
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
  // Tasks: a node and its items' range [lo, hi) in the pending buffer, which becomes the bucket
  // array at the end: each node's bucket is its range there, exactly sized.
  const { pendSlot: slot, pendBox: box } = tree;
  const tag = new Uint8Array(total);
  // The cells of the grandchildren of the node being split (4 per child, 6 doubles each), and
  // the start and the end of each group of its items.
  const cells = new Float64Array(4 * 4 * 6);
  const edge = new Int32Array(GROUPS);
  const ends = new Int32Array(GROUPS);
  const tasks = new Int32Array(3 * (16 * (tree.maxLevels + 2)));
  const { maxObjects, maxLevels } = tree;
  let sp = 0;
  tasks[sp++] = 0;
  tasks[sp++] = 0;
  tasks[sp++] = total;
  while (sp > 0) {
    const hi = tasks[--sp]!;
    const lo = tasks[--sp]!;
    const n = tasks[--sp]!;
    const l = 8 * n;
    const d = tree.lk[l + NODE_DEPTH]!;
    if (hi - lo <= maxObjects || d >= maxLevels) {
      // A leaf: all its items in its bucket.
      own(tree, n, slot, lo, hi);
      continue;
    }
    // Split, two levels at a time where the depth allows: each item goes to one group: it
    // stays in n (group 0), or stays in child q (1 + 5q), or goes to grandchild r of child q
    // (2 + 5q + r). The partition lays the groups out in that order, which is the order of the
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
    tagGroups(box, lo, hi, geo, l, 8 * c, two ? cells : null, tag, edge);
    // edge[g]: where group g starts; the partition leaves it where group g ends.
    let at = lo;
    for (let g = 0; g < GROUPS; g++) {
      const count = edge[g]!;
      edge[g] = at;
      at += count;
      ends[g] = at;
    }
    partition(slot, box, tag, edge, ends);
    own(tree, n, slot, lo, edge[0]!);
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
        continue;
      }
      // Split child k by its groups: its stayers, then its children's ranges.
      const kc = allocChildren(tree, k);
      own(tree, k, slot, from, edge[5 * q + 1]!);
      for (let r = 3; r >= 0; r--) {
        const f = edge[5 * q + 1 + r]!;
        const t = edge[5 * q + 2 + r]!;
        tree.lk[8 * (kc + r) + NODE_SUB] = t - f;
        if (t === f) continue;
        tasks[sp++] = kc + r;
        tasks[sp++] = f;
        tasks[sp++] = t;
      }
    }
  }
  tree.buckets.adopt(box, slot, total);
  dropPending(tree, false);
  // Sort the stayers of inner nodes into their regions, and set their bands.
  for (let n = 0; n < tree.nodeCount; n++) if (tree.lk[8 * n + NODE_CHILD]! >= 0) regroup(tree, n);
}

// Makes the items in [lo, hi) of the pending buffer (whose slots are `slot`) node n's bucket,
// exactly sized.
function own(tree: RegionTree<unknown>, n: number, slot: Int32Array, lo: number, hi: number): void {
  const lk = tree.lk;
  const l = 8 * n;
  lk[l + NODE_START] = lo;
  lk[l + NODE_COUNT] = hi - lo;
  lk[l + NODE_CLASS] = hi > lo ? EXACT : -1;
  claim(slot, lo, hi, tree.store.node, tree.store.pos, n);
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

// Puts each entry in its group's range, in place: group g from edge[g] to ends[g], the groups
// one after another. Each group is filled in turn: an entry found there that belongs to a later
// group is swapped to that group's next free place (edge is advanced), so every swap puts one
// entry where it stays. Leaves edge[g] where group g ends.
function partition(
  slot: Int32Array,
  box: Float64Array,
  tag: Uint8Array,
  edge: Int32Array,
  ends: Int32Array,
): void {
  for (let g = 0; g < GROUPS; g++) {
    const end = ends[g]!;
    let e = edge[g]!;
    while (e < end) {
      const t = tag[e]!;
      if (t === g) {
        e++;
        continue;
      }
      const to = edge[t]!;
      edge[t] = to + 1;
      tag[e] = tag[to]!;
      tag[to] = t;
      const s = slot[e]!;
      slot[e] = slot[to]!;
      slot[to] = s;
      for (let k = 4 * e, j = 4 * to; k < 4 * e + 4; k++, j++) {
        const v = box[k]!;
        box[k] = box[j]!;
        box[j] = v;
      }
    }
    edge[g] = e;
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
