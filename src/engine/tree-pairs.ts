// The pair walk of the region tree (see tree.ts for the layout): every pair of items whose
// boxes overlap, met once, in one depth-first walk that carries to each node a frame of the
// entries outside its subtree that may overlap it.

import { grown } from './grown.js';
import { copyOverlapping } from './scan-pairs.js';
import type { RegionTree } from './tree.js';
import { NODE_CHILD, NODE_COUNT, NODE_START, NODE_SUB } from './tree-nodes.js';

/**
 * Calls `callback(slotA, slotB)` once for every pair of items of `tree` whose boxes overlap
 * (with items[slot] for each slot when `items` is given).
 *
 * One depth-first walk. Each node carries a "frame": copies of the entries outside its subtree
 * that may overlap entries inside it (those of its ancestors, and of its earlier siblings'
 * subtrees, that meet its bounds). At a node, its entries are tested against each other and
 * against the frame, so each pair is met exactly once: at the node of the item the walk
 * reaches later.
 */
export function pairs(
  tree: RegionTree<unknown>,
  callback: (a: number, b: number) => void,
  items: readonly unknown[] | null,
): void {
  tree.flush();
  const { lk, geo, pairBuffer: pairs } = tree;
  const { box, slot } = tree.buckets;
  pairs.n = 0;
  pairs.items = items;
  let stack = tree.pairStack;
  let sp = 0;
  let top = 0; // end of the live frames
  stack[sp++] = 0;
  stack[sp++] = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const fe = stack[--sp]!;
    const fs = stack[--sp]!;
    const n = stack[--sp]!;
    top = fe;
    const l = 8 * n;
    const from = lk[l + NODE_START]!;
    const to = from + lk[l + NODE_COUNT]!;
    // The node's entries against each other and against its frame.
    pairs.scan(box, slot, from, to, tree.frameBox, tree.frameSlot, fs, fe, callback);
    const c = lk[l + NODE_CHILD]!;
    if (c < 0) continue;
    // The frame of each child: the node's frame and entries that meet the child's bounds, then
    // the entries of its earlier siblings' subtrees that do.
    for (let k = c; k < c + 4; k++) {
      if (lk[8 * k + NODE_SUB] === 0) continue;
      let room = top + (fe - fs) + (to - from);
      for (let m = c; m < k; m++) room += lk[8 * m + NODE_SUB]!;
      frameRoom(tree, room, top);
      const { frameBox, frameSlot } = tree;
      const g = 8 * k;
      const bMinX = geo[g]!;
      const bMinY = geo[g + 1]!;
      const bMaxX = geo[g + 2]!;
      const bMaxY = geo[g + 3]!;
      const start = top;
      top = copyOverlapping(frameBox, frameSlot, fs, fe, geo, g, frameBox, frameSlot, top);
      top = copyOverlapping(box, slot, from, to, geo, g, frameBox, frameSlot, top);
      for (let m = c; m < k; m++) {
        if (lk[8 * m + NODE_SUB] === 0) continue;
        const h = 8 * m;
        if (geo[h]! > bMaxX || geo[h + 1]! > bMaxY || geo[h + 2]! < bMinX || geo[h + 3]! < bMinY)
          continue;
        top = collect(tree, m, geo, g, top);
      }
      if (sp + 3 > stack.length) tree.pairStack = stack = grown(stack, 2 * stack.length);
      stack[sp++] = k;
      stack[sp++] = start;
      stack[sp++] = top;
    }
  }
  pairs.flush(callback);
}

// Copies into the frames, from index n, the entries of the subtree of `start` that overlap the
// box q[qi..qi+3]; returns the new end. The frames must have room for them.
function collect(
  tree: RegionTree<unknown>,
  start: number,
  q: Float64Array,
  qi: number,
  n: number,
): number {
  const { lk, geo, stack, frameBox, frameSlot } = tree;
  const minX = q[qi]!;
  const minY = q[qi + 1]!;
  const maxX = q[qi + 2]!;
  const maxY = q[qi + 3]!;
  const { box, slot } = tree.buckets;
  let sp = 0;
  stack[sp++] = start;
  while (sp > 0) {
    const node = stack[--sp]!;
    const l = 8 * node;
    const from = lk[l + NODE_START]!;
    n = copyOverlapping(box, slot, from, from + lk[l + NODE_COUNT]!, q, qi, frameBox, frameSlot, n);
    const c = lk[l + NODE_CHILD]!;
    if (c < 0) continue;
    for (let k = c; k < c + 4; k++) {
      const g = 8 * k;
      if (lk[g + NODE_SUB] === 0) continue;
      if (geo[g]! > maxX || geo[g + 1]! > maxY || geo[g + 2]! < minX || geo[g + 3]! < minY)
        continue;
      stack[sp++] = k;
    }
  }
  return n;
}

// Grows the frames to hold `room` entries, keeping the first `keep`.
function frameRoom(tree: RegionTree<unknown>, room: number, keep: number): void {
  if (room <= tree.frameSlot.length) return;
  const size = Math.max(room, 2 * tree.frameSlot.length);
  tree.frameBox = grown(tree.frameBox, 4 * size, 4 * keep);
  tree.frameSlot = grown(tree.frameSlot, size, keep);
}
