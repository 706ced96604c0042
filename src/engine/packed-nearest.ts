// Best-first nearest-neighbour search over the packed static tree (Hjaltason & Samet, "Distance
// browsing in spatial databases", 1999): nodes in a min-heap by their key under the metric, the
// k best items in a bounded max-heap (see queue.ts).

import { boxDistanceSq } from '../geometry/rect.js';
import type { PackedTree } from './packed.js';
import { searchK } from './queue.js';
import { boxKey, maxKey, NODE_SHADE, POINT } from './scan.js';
import { scanNearest } from './scan-nearest.js';
import { scanNearestPoints, squaredCut } from './scan-points.js';

// The met keys of a search that makes no descent (a tree of boxes).
const NO_KEYS = new Float64Array(0);

/**
 * Writes to `tree.results` the answers (`tree.emit`: item indices or leaf positions) for the k
 * items with the smallest keys under `metric` for the query q[qi..] (see `boxKey`), smallest
 * first, ties by item index; returns how many, and leaves their keys in `tree.best.keys`.
 */
export function nearest(
  tree: PackedTree,
  metric: number,
  q: Float64Array,
  qi: number,
  k: number,
): number {
  const { boxes, levelEnd, nodeSize, queue, best } = tree;
  const a = q[qi]!;
  const b = q[qi + 1]!;
  const c = q[qi + 2]!;
  const d = q[qi + 3]!;
  const limit = maxKey(metric, q, qi);
  queue.clear();
  best.reset(searchK(k, tree.numItems));
  if (k === 0 || tree.numItems === 0) return 0;
  const points = metric === POINT && tree.allPoints();
  // In a tree of points, nodes are keyed by their squared distance (no square root per node: 1M
  // points, 1,000 queries, k = 1: 4.3 -> 3.9 ms), compared with squaredCut of the distances the
  // search keeps. (In a tree of boxes that measured slower.) Otherwise by a shaded bound.
  const cutLimit = points ? squaredCut(limit) : limit;
  const root = levelEnd[levelEnd.length - 1]! - 1;
  // In a tree of points, first a greedy descent to the nearest leaf group, scanned, so that the
  // best-first walk starts with a bound and queues only the nodes within it (on the cities,
  // k = 1: 80 -> 21 pushes per query). The children met on the way down keep their keys and
  // start the walk, those within the bound, the path itself left out (its nodes' children are
  // among them, and its leaf group is scanned): no node's key is computed twice.
  let pos = root;
  let l = points ? levelEnd.length - 1 : 0;
  const metNodes = tree.stack;
  const metKeys = points ? tree.descentKeys() : NO_KEYS;
  let met = 0;
  while (l > 1) {
    const first = tree.childRange(pos, l);
    const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
    let near = -1;
    let nearKey = cutLimit;
    let nearAt = -1;
    for (let n = first; n < end; n++) {
      const key = nodeKey(boxes, n, points, metric, a, b, c, d);
      metNodes[met] = n;
      metKeys[met++] = key;
      if (key <= nearKey) {
        near = n;
        nearKey = key;
        nearAt = met - 1;
      }
    }
    if (near < 0) break;
    // On the path: not queued.
    metNodes[nearAt] = -1;
    pos = near;
    l--;
  }
  const greedy = l === 1 ? pos : -1;
  if (greedy >= 0) scanGroup(tree, greedy, points, metric, q, qi, limit);
  if (points) {
    let bound = cutLimit;
    if (best.full) bound = Math.min(bound, squaredCut(best.worst()));
    for (let m = 0; m < met; m++) {
      const n = metNodes[m]!;
      if (n >= 0 && metKeys[m]! <= bound) queue.push(n, metKeys[m]!);
    }
  } else queue.push(root, 0);
  while (queue.length > 0) {
    let bound = cutLimit;
    if (best.full) {
      const worst = best.worst();
      bound = Math.min(bound, points ? squaredCut(worst) : worst);
    }
    if (queue.peekKey() > bound) break;
    const pos = queue.pop();
    // The node's level, from the level bounds (a handful of levels).
    let l = 1;
    while (pos >= levelEnd[l]!) l++;
    if (l === 1) {
      if (pos !== greedy) scanGroup(tree, pos, points, metric, q, qi, limit);
      continue;
    }
    const first = tree.childRange(pos, l);
    const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
    for (let n = first; n < end; n++) {
      const key = nodeKey(boxes, n, points, metric, a, b, c, d);
      if (key <= bound) queue.push(n, key);
    }
  }
  tree.room(tree.results, 0, best.length);
  return best.drain(tree.results);
}

// The key of node n: its squared distance in a tree of points (compared through squaredCut's
// margin), else its key under the metric shaded by a few ulps, so that rounding never ranks a
// node behind an item inside it.
function nodeKey(
  boxes: Float64Array,
  n: number,
  points: boolean,
  metric: number,
  a: number,
  b: number,
  c: number,
  d: number,
): number {
  const j = 4 * n;
  return points
    ? boxDistanceSq(boxes[j]!, boxes[j + 1]!, boxes[j + 2]!, boxes[j + 3]!, a, b)
    : boxKey(metric, boxes[j]!, boxes[j + 1]!, boxes[j + 2]!, boxes[j + 3]!, a, b, c, d) *
        NODE_SHADE;
}

// Offers the items of the level-1 node at `pos` to `tree.best`.
function scanGroup(
  tree: PackedTree,
  pos: number,
  points: boolean,
  metric: number,
  q: Float64Array,
  qi: number,
  limit: number,
): void {
  const { boxes, emit, levelEnd, nodeSize, best } = tree;
  const first = tree.childRange(pos, 1);
  const end = Math.min(first + nodeSize, levelEnd[0]!);
  if (points) scanNearestPoints(boxes, emit, first, end, q[qi]!, q[qi + 1]!, limit, best);
  else scanNearest(boxes, emit, first, end, metric, q, qi, best);
}
