// Best-first nearest-neighbour search over the packed static tree (Hjaltason & Samet, "Distance
// browsing in spatial databases", 1999): nodes in a min-heap by their key under the metric, the
// k best items in a bounded max-heap (see queue.ts).

import { boxDistanceSq } from '../geometry/rect.js';
import type { PackedTree } from './packed.js';
import { boxKey, maxKey, NODE_SHADE, POINT } from './scan.js';
import { scanNearest } from './scan-nearest.js';
import { scanNearestPoints, squaredCut } from './scan-points.js';

/**
 * Writes to `tree.results` the item indices of the k items with the smallest keys under
 * `metric` for the query q[qi..] (see `boxKey`), smallest first, ties by item index; returns
 * how many, and leaves their keys in `tree.best.keys`.
 */
export function nearest(
  tree: PackedTree,
  metric: number,
  q: Float64Array,
  qi: number,
  k: number,
): number {
  const { boxes, indices, levelEnd, nodeSize, queue, best } = tree;
  const a = q[qi]!;
  const b = q[qi + 1]!;
  const c = q[qi + 2]!;
  const d = q[qi + 3]!;
  const limit = maxKey(metric, q, qi);
  queue.clear();
  best.reset(k);
  if (k === 0 || tree.numItems === 0) return 0;
  const points = metric === POINT && tree.allPoints();
  // In a tree of points, nodes are keyed by their squared distance (no square root per node: 1M
  // points, 1,000 queries, k = 1: 4.3 -> 3.9 ms), compared with squaredCut of the distances the
  // search keeps. (In a tree of boxes that measured slower.) Otherwise by a shaded bound.
  const cutLimit = points ? squaredCut(limit) : limit;
  queue.push(levelEnd[levelEnd.length - 1]! - 1, 0);
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
    const first = tree.childRange(pos, l);
    const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
    if (l === 1) {
      if (points) scanNearestPoints(boxes, indices, first, end, a, b, limit, best);
      else scanNearest(boxes, indices, first, end, metric, q, qi, best);
      continue;
    }
    for (let n = first; n < end; n++) {
      const j = 4 * n;
      // A distance key is shaded by a few ulps, so that rounding never ranks a node behind an
      // item inside it (squared keys are compared through squaredCut's margin instead).
      const key = points
        ? boxDistanceSq(boxes[j]!, boxes[j + 1]!, boxes[j + 2]!, boxes[j + 3]!, a, b)
        : boxKey(metric, boxes[j]!, boxes[j + 1]!, boxes[j + 2]!, boxes[j + 3]!, a, b, c, d) *
          NODE_SHADE;
      if (key <= cutLimit) queue.push(n, key);
    }
  }
  tree.room(tree.results, 0, best.length);
  return best.drain(tree.results);
}
