// Best-first nearest-neighbour search over the region tree (Hjaltason & Samet, "Distance
// browsing in spatial databases", 1999): nodes in a min-heap by their key under the metric, the
// k best items in a bounded max-heap (see queue.ts).

import { room } from './grown.js';
import { searchK } from './queue.js';
import { boxKey, maxKey, NODE_SHADE } from './scan.js';
import { scanNearest } from './scan-nearest.js';
import type { RegionTree } from './tree.js';
import { NODE_CHILD, NODE_COUNT, NODE_START, NODE_SUB } from './tree-nodes.js';

/**
 * Writes into `tree.results` the slots of the `k` items nearest to the query q[qi..] under
 * `metric` (see `boxKey`), nearest first (ties by slot), and returns how many; `tree.best.keys`
 * holds their keys.
 * Best-first search: nodes leave the queue in order of their key, until none can beat the
 * k-th best item.
 */
export function nearest(
  tree: RegionTree<unknown>,
  metric: number,
  q: Float64Array,
  qi: number,
  k: number,
): number {
  tree.flush();
  const { lk, geo, queue, best } = tree;
  const a = q[qi]!;
  const b = q[qi + 1]!;
  const c = q[qi + 2]!;
  const d = q[qi + 3]!;
  const limit = maxKey(metric, q, qi);
  const { box, slot } = tree.buckets;
  queue.clear();
  best.reset(searchK(k, tree.size));
  if (k === 0 || lk[NODE_SUB] === 0) return 0;
  queue.push(0, 0);
  while (queue.length > 0) {
    const bound = best.full ? Math.min(limit, best.worst()) : limit;
    if (queue.peekKey() > bound) break;
    const node = queue.pop();
    const l = 8 * node;
    const from = lk[l + NODE_START]!;
    scanNearest(box, slot, from, from + lk[l + NODE_COUNT]!, metric, q, qi, best);
    const first = lk[l + NODE_CHILD]!;
    if (first < 0) continue;
    for (let kid = first; kid < first + 4; kid++) {
      const g = 8 * kid;
      if (lk[g + NODE_SUB] === 0) continue;
      // Shaded by a few ulps, so that rounding never ranks a node behind an item inside it.
      const key =
        boxKey(metric, geo[g]!, geo[g + 1]!, geo[g + 2]!, geo[g + 3]!, a, b, c, d) * NODE_SHADE;
      if (key <= limit) queue.push(kid, key);
    }
  }
  return best.drain(room(tree, 0, best.length));
}
