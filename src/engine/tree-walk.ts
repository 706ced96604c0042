// The window, shape and listing walks of the region tree (see tree.ts for the layout):
// depth-first over the tree's explicit stack, each node's A and B regions scanned only when the
// query meets their band, a child inside a window taken whole, untested.

import type { NodeTable } from './aggregate.js';
import type { VisitNode } from './engine.js';
import { room } from './grown.js';
import { CIRCLE, scanAll, scanRect, scanShape, shapeHits } from './scan.js';
import type { RegionTree } from './tree.js';
import {
  NODE_CHILD,
  NODE_COUNT,
  NODE_CX,
  NODE_CY,
  NODE_DEPTH,
  NODE_NA,
  NODE_START,
  NODE_SUB,
} from './tree-nodes.js';

/**
 * Writes into `tree.results` from index `n` the slots of the subtree of `start` of `tree` whose
 * boxes overlap the query box q[qi..qi+3] (every slot of each node whose bounds it meets when
 * `all`), and returns the new count. Stops after the node where the count reaches `limit`. A walk
 * that needs more room replaces `tree.results` (see `room` in grown.ts): read it after the call.
 */
export function searchRect(
  tree: RegionTree<unknown>,
  start: number,
  q: Float64Array,
  qi: number,
  all: number,
  limit: number,
  n: number,
): number {
  const { lk, geo, band, stack } = tree;
  let out = tree.results;
  const minX = q[qi]!;
  const minY = q[qi + 1]!;
  const maxX = q[qi + 2]!;
  const maxY = q[qi + 3]!;
  const { box, slot } = tree.buckets;
  let sp = 0;
  stack[sp++] = start;
  while (sp > 0) {
    let node = stack[--sp]!;
    const inside = node < 0;
    if (inside) node = ~node;
    const l = 8 * node;
    const from = lk[l + NODE_START]!;
    const to = from + lk[l + NODE_COUNT]!;
    const c = lk[l + NODE_CHILD]!;
    if (inside) {
      // A node inside the query (pushed as ~node): all its items are answers, no tests needed.
      out = room(tree, n, to - from);
      n = scanAll(slot, from, to, out, n);
      if (c >= 0) for (let k = c; k < c + 4; k++) if (lk[8 * k + NODE_SUB]! > 0) stack[sp++] = ~k;
    } else {
      out = room(tree, n, to - from);
      if (all) {
        n = scanAll(slot, from, to, out, n);
      } else {
        // Each region only if the query meets its band.
        const na = from + lk[l + NODE_NA]!;
        const b = 4 * node;
        if (na > from && band[b]! <= maxX && band[b + 1]! >= minX) {
          n = scanRect(box, slot, from, na, minX, minY, maxX, maxY, out, n);
        }
        if (band[b + 2]! <= maxY && band[b + 3]! >= minY) {
          n = scanRect(box, slot, na, to, minX, minY, maxX, maxY, out, n);
        }
      }
      if (c >= 0) {
        // Push the children the query meets, marked (~k) when it contains them.
        for (let k = c; k < c + 4; k++) {
          if (lk[8 * k + NODE_SUB] === 0) continue;
          const g = 8 * k;
          const bMinX = geo[g]!;
          const bMinY = geo[g + 1]!;
          const bMaxX = geo[g + 2]!;
          const bMaxY = geo[g + 3]!;
          if (bMinX > maxX || bMinY > maxY || bMaxX < minX || bMaxY < minY) continue;
          stack[sp++] = bMinX >= minX && bMinY >= minY && bMaxX <= maxX && bMaxY <= maxY ? ~k : k;
        }
      }
    }
    if (n >= limit) break;
  }
  return n;
}

/**
 * Writes into `tree.results` the slots whose boxes meet a `shape`: a circle (q[qi], q[qi+1],
 * radius q[qi+2]) or a segment (q[qi], q[qi+1])-(q[qi+2], q[qi+3]), decided exactly, and returns
 * how many.
 */
export function searchShape(
  tree: RegionTree<unknown>,
  shape: number,
  q: Float64Array,
  qi: number,
): number {
  tree.flush();
  const { lk, geo, band, stack } = tree;
  let results = tree.results;
  const a = q[qi]!;
  const b = q[qi + 1]!;
  const c = q[qi + 2]!;
  const d = q[qi + 3]!;
  // The shape's bounding box.
  const sMinX = shape === CIRCLE ? a - c : Math.min(a, c);
  const sMaxX = shape === CIRCLE ? a + c : Math.max(a, c);
  const sMinY = shape === CIRCLE ? b - c : Math.min(b, d);
  const sMaxY = shape === CIRCLE ? b + c : Math.max(b, d);
  const { box, slot } = tree.buckets;
  let n = 0;
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const node = stack[--sp]!;
    const l = 8 * node;
    // Each region only if the shape's bounding box meets its band.
    const from = lk[l + NODE_START]!;
    const na = from + lk[l + NODE_NA]!;
    const to = from + lk[l + NODE_COUNT]!;
    const j = 4 * node;
    results = room(tree, n, to - from);
    if (na > from && band[j]! <= sMaxX && band[j + 1]! >= sMinX) {
      n = scanShape(box, slot, from, na, shape, q, qi, results, n);
    }
    if (band[j + 2]! <= sMaxY && band[j + 3]! >= sMinY) {
      n = scanShape(box, slot, na, to, shape, q, qi, results, n);
    }
    const first = lk[l + NODE_CHILD]!;
    if (first < 0) continue;
    for (let k = first; k < first + 4; k++) {
      const g = 8 * k;
      if (
        lk[g + NODE_SUB]! > 0 &&
        shapeHits(shape, geo[g]!, geo[g + 1]!, geo[g + 2]!, geo[g + 3]!, a, b, c, d)
      ) {
        stack[sp++] = k;
      }
    }
  }
  return n;
}

/**
 * Lists the nodes of `tree` in pre-order (children in quadrant order) and the entries of each,
 * at the centre of their boxes, into `table` (see aggregate.ts).
 */
export function listNodes(tree: RegionTree<unknown>, table: NodeTable): void {
  tree.flush();
  table.reset();
  const { halfW, halfH, lk, geo } = tree;
  const { slot, box } = tree.buckets;
  // Pairs (node, its parent's number in the table): twice the visit stack's depth.
  const stack = table.stackRoom(2 * tree.visitStack.length);
  let sp = 0;
  stack[sp++] = 0;
  stack[sp++] = -1;
  while (sp > 0) {
    const p = stack[--sp]!;
    const n = stack[--sp]!;
    const l = 8 * n;
    const d = lk[l + NODE_DEPTH]!;
    const k =
      n === 0
        ? table.addNode(p, tree.x, tree.y, tree.width, tree.height)
        : table.addNode(
            p,
            geo[l + NODE_CX]! - halfW[d]!,
            geo[l + NODE_CY]! - halfH[d]!,
            2 * halfW[d]!,
            2 * halfH[d]!,
          );
    const start = lk[l + NODE_START]!;
    const end = start + lk[l + NODE_COUNT]!;
    for (let e = start; e < end; e++) {
      const b = 4 * e;
      table.addEntry(k, slot[e]!, (box[b]! + box[b + 2]!) / 2, (box[b + 1]! + box[b + 3]!) / 2);
    }
    const c = lk[l + NODE_CHILD]!;
    if (c < 0) continue;
    // Children in quadrant order; those with no item in their subtree are left out.
    for (let q = c + 3; q >= c; q--) {
      if (lk[8 * q + NODE_SUB] === 0) continue;
      stack[sp++] = q;
      stack[sp++] = k;
    }
  }
}

/**
 * Calls `callback` for each node of `tree`, parents first; a `true` return skips the node's
 * children.
 */
export function visit(tree: RegionTree<unknown>, callback: (node: VisitNode) => unknown): void {
  tree.flush();
  const { halfW, halfH, visitStack: stack, view } = tree;
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const n = stack[--sp]!;
    const l = 8 * n;
    const d = tree.lk[l + NODE_DEPTH]!;
    view.x = n === 0 ? tree.x : tree.geo[l + NODE_CX]! - halfW[d]!;
    view.y = n === 0 ? tree.y : tree.geo[l + NODE_CY]! - halfH[d]!;
    view.width = n === 0 ? tree.width : 2 * halfW[d]!;
    view.height = n === 0 ? tree.height : 2 * halfH[d]!;
    view.depth = d;
    view.count = tree.lk[l + NODE_COUNT]!;
    if (callback(view) === true) continue;
    const c = tree.lk[l + NODE_CHILD]!;
    if (c >= 0) for (let k = c + 3; k >= c; k--) stack[sp++] = k;
  }
}
