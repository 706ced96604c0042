// The node records of the region tree (see tree.ts for the design): the fields of a node in `lk`
// and `geo`, the entries of its bucket (put, take, its A and B regions and their bands), and the
// surgery on the records: children allocated in 4-blocks, a node split, small subtrees collapsed.

import { Buckets } from './buckets.js';
import { grown } from './grown.js';
import type { RegionTree } from './tree.js';

const INF = Number.POSITIVE_INFINITY;

// Fields of a node's record in `lk` (8 ints). The grid-loose engine's cell records (grid-cells.ts)
// have fields of the same meanings at other offsets: CELL_ names there, NODE_ names here.
/** First of the node's four children; -1 for a leaf. Threads the free list of 4-blocks. */
export const NODE_CHILD = 0;
/** Items in the node's subtree, itself included. */
export const NODE_SUB = 1;
/** Start of the node's bucket. */
export const NODE_START = 2;
/** Items in the node itself. */
export const NODE_COUNT = 3;
/**
 * Size class of the node's bucket (it holds 2^NODE_CLASS entries); -1 when it has none, EXACT
 * when a rebuild sized it to its entries (the next entry moves it to a bucket of a class).
 */
export const NODE_CLASS = 4;
/** NODE_CLASS of a bucket sized exactly by a rebuild: full, and never reused once left. */
export const EXACT = -2;
/** The node's parent; -1 for the root. */
export const NODE_PARENT = 5;
/** The node's depth: 0 for the root. */
export const NODE_DEPTH = 6;
/**
 * Entries of an inner node's "A" region: the first NODE_NA entries of its bucket, those whose
 * x-range holds the vertical split line. The rest form region "B". Each region keeps a band (see
 * `band`) so that a query can skip the straddlers of a node it only passes through.
 */
export const NODE_NA = 7;
// Fields of a node's record in `geo` (8 doubles): 0-3 its bounds, then the centre of its cell.
/** The x of the centre of the node's cell. */
export const NODE_CX = 4;
/** The y of the centre of the node's cell. */
export const NODE_CY = 5;

/**
 * Makes node n of `tree` an empty leaf under `parent` at `depth`, with the cell centre (cx, cy)
 * and the bounds minX, minY, maxX, maxY.
 */
export function initNode(
  tree: RegionTree<unknown>,
  n: number,
  parent: number,
  depth: number,
  cx: number,
  cy: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): void {
  const { lk, geo } = tree;
  const l = 8 * n;
  lk[l + NODE_CHILD] = -1;
  lk[l + NODE_SUB] = 0;
  lk[l + NODE_START] = 0;
  lk[l + NODE_COUNT] = 0;
  lk[l + NODE_CLASS] = -1;
  lk[l + NODE_PARENT] = parent;
  lk[l + NODE_DEPTH] = depth;
  geo[l] = minX;
  geo[l + 1] = minY;
  geo[l + 2] = maxX;
  geo[l + 3] = maxY;
  geo[l + NODE_CX] = cx;
  geo[l + NODE_CY] = cy;
  leafBands(tree, n);
}

/** Gives node n of `tree` the regions of a leaf: no A region, an unbounded B band. */
function leafBands(tree: RegionTree<unknown>, n: number): void {
  const band = tree.band;
  tree.lk[8 * n + NODE_NA] = 0;
  band[4 * n] = INF;
  band[4 * n + 1] = -INF;
  band[4 * n + 2] = -INF;
  band[4 * n + 3] = INF;
}

/**
 * Adds slot s with the box src[i..i+3] to node n's bucket in `tree`: to its A region if n is an
 * inner node and the box holds the vertical split line, else to its B region.
 */
export function put(
  tree: RegionTree<unknown>,
  s: number,
  n: number,
  src: Float64Array,
  i: number,
): void {
  const { lk, store } = tree;
  // Read the box first: src may be the bucket array, which resize() replaces.
  const minX = src[i]!;
  const minY = src[i + 1]!;
  const maxX = src[i + 2]!;
  const maxY = src[i + 3]!;
  const l = 8 * n;
  const count = lk[l + NODE_COUNT]!;
  const c = lk[l + NODE_CLASS]!;
  if (c < 0 || count === 1 << c) resize(tree, n, count + 1);
  const start = lk[l + NODE_START]!;
  let p = count;
  // (A leaf has no A region, and its B band is unbounded: its geometry is not read.)
  const inner = lk[l + NODE_CHILD]! >= 0;
  const cx = inner ? tree.geo[l + NODE_CX]! : 0;
  const inA = inner && minX <= cx && cx <= maxX;
  if (inA) {
    // The first B entry moves to the end to make room at the end of region A.
    p = lk[l + NODE_NA]!;
    if (p !== count) copyEntry(tree, n, start + p, start + count);
    lk[l + NODE_NA] = p + 1;
  }
  const e = start + p;
  const { box, slot } = tree.buckets;
  box[4 * e] = minX;
  box[4 * e + 1] = minY;
  box[4 * e + 2] = maxX;
  box[4 * e + 3] = maxY;
  slot[e] = s;
  lk[l + NODE_COUNT] = count + 1;
  store.pos[s] = p;
  store.node[s] = n;
  if (inner) widenBand(tree, n, inA, box, 4 * e);
}

/**
 * Takes slot s out of node n's bucket in `tree`, keeping the regions packed: the last entry of
 * its region fills the hole, and (for region A) the last entry of the bucket fills the one that
 * leaves.
 */
export function take(tree: RegionTree<unknown>, s: number, n: number): void {
  const { lk } = tree;
  const l = 8 * n;
  const start = lk[l + NODE_START]!;
  const last = start + lk[l + NODE_COUNT]! - 1;
  const e = start + tree.store.pos[s]!;
  const aEnd = start + lk[l + NODE_NA]!;
  if (e < aEnd) {
    if (e !== aEnd - 1) copyEntry(tree, n, aEnd - 1, e);
    if (aEnd - 1 !== last) copyEntry(tree, n, last, aEnd - 1);
    lk[l + NODE_NA]!--;
  } else if (e !== last) {
    copyEntry(tree, n, last, e);
  }
  lk[l + NODE_COUNT]!--;
}

// Copies the entry at `from` to `to` in node n's bucket and tells its slot.
function copyEntry(tree: RegionTree<unknown>, n: number, from: number, to: number): void {
  const { box, slot } = tree.buckets;
  box[4 * to] = box[4 * from]!;
  box[4 * to + 1] = box[4 * from + 1]!;
  box[4 * to + 2] = box[4 * from + 2]!;
  box[4 * to + 3] = box[4 * from + 3]!;
  const s = slot[from]!;
  slot[to] = s;
  tree.store.pos[s] = to - tree.lk[8 * n + NODE_START]!;
}

/**
 * Widens the band of node n's A region (inA) or B region in `tree` to cover the box
 * src[i..i+3].
 */
export function widenBand(
  tree: RegionTree<unknown>,
  n: number,
  inA: boolean,
  src: Float64Array,
  i: number,
): void {
  const band = tree.band;
  const b = 4 * n;
  if (inA) {
    if (src[i]! < band[b]!) band[b] = src[i]!;
    if (src[i + 2]! > band[b + 1]!) band[b + 1] = src[i + 2]!;
  } else {
    if (src[i + 1]! < band[b + 2]!) band[b + 2] = src[i + 1]!;
    if (src[i + 3]! > band[b + 3]!) band[b + 3] = src[i + 3]!;
  }
}

/**
 * Sorts the entries of inner node n of `tree` into its A and B regions and sets the bands
 * exactly.
 */
export function regroup(tree: RegionTree<unknown>, n: number): void {
  const { lk, band } = tree;
  const { box } = tree.buckets;
  const l = 8 * n;
  const start = lk[l + NODE_START]!;
  const end = start + lk[l + NODE_COUNT]!;
  const cx = tree.geo[l + NODE_CX]!;
  // Partition: A entries (x-range holds cx) to the front.
  let a = start;
  for (let e = start; e < end; e++) {
    if (box[4 * e]! <= cx && cx <= box[4 * e + 2]!) {
      if (e !== a) swapEntries(tree, n, a, e);
      a++;
    }
  }
  lk[l + NODE_NA] = a - start;
  const b = 4 * n;
  band[b] = INF;
  band[b + 1] = -INF;
  band[b + 2] = INF;
  band[b + 3] = -INF;
  for (let e = start; e < end; e++) {
    widenBand(tree, n, e < a, box, 4 * e);
  }
}

function swapEntries(tree: RegionTree<unknown>, n: number, i: number, j: number): void {
  const { box, slot } = tree.buckets;
  for (let k = 0; k < 4; k++) {
    const t = box[4 * i + k]!;
    box[4 * i + k] = box[4 * j + k]!;
    box[4 * j + k] = t;
  }
  const si = slot[i]!;
  const sj = slot[j]!;
  slot[i] = sj;
  slot[j] = si;
  const start = tree.lk[8 * n + NODE_START]!;
  tree.store.pos[sj] = i - start;
  tree.store.pos[si] = j - start;
}

/**
 * Moves the entries of node n of `tree` to a bucket that holds at least `need` (its bucket, if
 * any, is freed).
 */
export function resize(tree: RegionTree<unknown>, n: number, need: number): void {
  const { lk } = tree;
  const l = 8 * n;
  lk[l + NODE_START] = tree.buckets.move(
    lk[l + NODE_START]!,
    lk[l + NODE_COUNT]!,
    lk[l + NODE_CLASS]!,
    need,
  );
  lk[l + NODE_CLASS] = Buckets.classFor(need);
}

/**
 * Splits node n of `tree`, moves each of its entries that fits a child into it, and splits again
 * any child that overflows in turn (an explicit stack: the depth limit bounds it).
 */
export function split(tree: RegionTree<unknown>, n: number): void {
  const stack = tree.stack;
  let sp = 0;
  stack[sp++] = n;
  while (sp > 0) {
    n = stack[--sp]!;
    const c = allocChildren(tree, n);
    const lk = tree.lk;
    const l = 8 * n;
    const start = lk[l + NODE_START]!;
    const count = lk[l + NODE_COUNT]!;
    // Each entry goes to the child its centre picks when that child contains it, else stays.
    // First count the movers per child, so each child's bucket is sized once.
    const to = pickTargets(tree, n, start, start + count);
    for (let k = c; k < c + 4; k++) {
      const need = lk[8 * k + NODE_SUB]!;
      if (need > 0) resize(tree, k, need);
    }
    // Then move them; the stayers are packed to the front of n's bucket.
    const { box, slot } = tree.buckets;
    const targets = tree.targets;
    let kept = 0;
    for (let e = start; e < to; e++) {
      const minX = box[4 * e]!;
      const minY = box[4 * e + 1]!;
      const maxX = box[4 * e + 2]!;
      const maxY = box[4 * e + 3]!;
      const s = slot[e]!;
      const k = targets[e - start]!;
      if (k >= 0) {
        put(tree, s, k, box, 4 * e); // k's bucket was sized above: box is not replaced
      } else {
        const w = start + kept;
        box[4 * w] = minX;
        box[4 * w + 1] = minY;
        box[4 * w + 2] = maxX;
        box[4 * w + 3] = maxY;
        slot[w] = s;
        tree.store.pos[s] = kept++;
      }
    }
    lk[l + NODE_COUNT] = kept;
    // Give back the room the movers left; sort the stayers into regions.
    if (kept === 0) {
      if (lk[l + NODE_CLASS]! >= 0) tree.buckets.release(start, lk[l + NODE_CLASS]!);
      lk[l + NODE_CLASS] = -1;
    } else if (Buckets.classFor(kept) < lk[l + NODE_CLASS]!) {
      resize(tree, n, kept);
    }
    regroup(tree, n);
    for (let k = c; k < c + 4; k++) {
      if (lk[8 * k + NODE_COUNT]! > tree.maxObjects && lk[8 * k + NODE_DEPTH]! < tree.maxLevels)
        stack[sp++] = k;
    }
  }
}

// For each entry of [from, to) of inner node n: the child its centre picks if that child
// contains it, else -1, into `targets`; counts the movers in the children's NODE_SUB. Returns `to`.
function pickTargets(tree: RegionTree<unknown>, n: number, from: number, to: number): number {
  if (tree.targets.length < to - from) tree.targets = new Int32Array(2 * (to - from));
  const { targets, lk } = tree;
  const box = tree.buckets.box;
  for (let e = from; e < to; e++) {
    const k = tree.pick(n, box, 4 * e);
    const fits = tree.fits(k, box, 4 * e);
    targets[e - from] = fits ? k : -1;
    if (fits) lk[8 * k + NODE_SUB]!++;
  }
  return to;
}

/** Takes a 4-block of `tree` for the children of n, sets their cells and bounds, and returns it. */
export function allocChildren(tree: RegionTree<unknown>, n: number): number {
  let c = tree.freeBlock;
  if (c >= 0) {
    tree.freeBlock = tree.lk[8 * c + NODE_CHILD]!;
  } else {
    c = tree.nodeCount;
    tree.nodeCount += 4;
    if (8 * tree.nodeCount > tree.lk.length) growNodes(tree, 2 * tree.nodeCount);
  }
  const { lk, geo } = tree;
  const l = 8 * n;
  lk[l + NODE_CHILD] = c;
  const d = lk[l + NODE_DEPTH]! + 1;
  for (let q = 0; q < 4; q++) {
    initNode(tree, c + q, n, d, 0, 0, 0, 0, 0, 0);
    childCell(tree, geo, l, d, q, geo, 8 * (c + q));
  }
  return c;
}

/**
 * Writes into out[o..o+5] the bounds and cell centre of child q (at depth d, with the sizes of
 * `tree`) of the node whose geometry is at geo[l]: its loose cell, clipped to the parent's
 * bounds so that bounds nest exactly. (The rebuild computes with it the cells of children not
 * yet made: the same numbers.)
 */
export function childCell(
  tree: RegionTree<unknown>,
  geo: Float64Array,
  l: number,
  d: number,
  q: number,
  out: Float64Array,
  o: number,
): void {
  const x = geo[l + NODE_CX]! + (q & 1 ? tree.halfW[d]! : -tree.halfW[d]!);
  const y = geo[l + NODE_CY]! + (q & 2 ? tree.halfH[d]! : -tree.halfH[d]!);
  out[o] = Math.max(geo[l]!, x - tree.looseW[d]!);
  out[o + 1] = Math.max(geo[l + 1]!, y - tree.looseH[d]!);
  out[o + 2] = Math.min(geo[l + 2]!, x + tree.looseW[d]!);
  out[o + 3] = Math.min(geo[l + 3]!, y + tree.looseH[d]!);
  out[o + NODE_CX] = x;
  out[o + NODE_CY] = y;
}

function growNodes(tree: RegionTree<unknown>, capacity: number): void {
  tree.lk = grown(tree.lk, 8 * capacity);
  tree.geo = grown(tree.geo, 8 * capacity);
  tree.band = grown(tree.band, 4 * capacity);
}

/**
 * Collapses every subtree of `tree` that holds at most `maxObjects` items into its root node,
 * and frees the nodes below it (the items fit the root's bounds, which contain its
 * descendants').
 */
export function cleanup(tree: RegionTree<unknown>): void {
  tree.flush();
  tree.changes = 0;
  const stack = tree.stack;
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const n = stack[--sp]!;
    const c = tree.lk[8 * n + NODE_CHILD]!;
    if (c < 0) continue;
    if (tree.lk[8 * n + NODE_SUB]! <= tree.maxObjects) collapse(tree, n, sp);
    else for (let k = c; k < c + 4; k++) stack[sp++] = k;
  }
}

/**
 * Moves every entry below inner node n of `tree` into n and frees n's descendants, using the
 * stack above `base` (0 outside a walk of `tree.stack`).
 */
export function collapse(tree: RegionTree<unknown>, n: number, base = 0): void {
  const stack = tree.stack;
  let sp = base;
  stack[sp++] = tree.lk[8 * n + NODE_CHILD]!;
  tree.lk[8 * n + NODE_CHILD] = -1;
  leafBands(tree, n);
  while (sp > base) {
    const c = stack[--sp]!;
    for (let k = c; k < c + 4; k++) {
      const l = 8 * k;
      const start = tree.lk[l + NODE_START]!;
      const end = start + tree.lk[l + NODE_COUNT]!;
      for (let e = start; e < end; e++) {
        put(tree, tree.buckets.slot[e]!, n, tree.buckets.box, 4 * e);
      }
      if (tree.lk[l + NODE_CLASS]! >= 0) tree.buckets.release(start, tree.lk[l + NODE_CLASS]!);
      if (tree.lk[l + NODE_CHILD]! >= 0) stack[sp++] = tree.lk[l + NODE_CHILD]!;
    }
    tree.lk[8 * c + NODE_CHILD] = tree.freeBlock;
    tree.freeBlock = c;
  }
}
