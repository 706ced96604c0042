// Best-first nearest-neighbour search over the region tree (Hjaltason & Samet, "Distance
// browsing in spatial databases", 1999): nodes in a min-heap by their key under the metric, the
// k best items in a bounded max-heap (see queue.ts). One kernel per metric family, each with
// its own key function, so that every call site in a walk sees one function.

import { boxDistanceSq } from '../geometry/rect.js';
import { havBoxBound } from '../geometry/sphere.js';
import { room } from './grown.js';
import { searchK } from './queue.js';
import { boxKey, GEO, maxKey, NODE_SHADE, POINT } from './scan.js';
import { planarCut, scanNearest, scanNearestGeo, scanNearestPlanar } from './scan-nearest.js';
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
  if (metric === POINT) return nearestPlanar(tree, q[qi]!, q[qi + 1]!, q[qi + 2]!, k);
  if (metric === GEO) return nearestGeo(tree, q[qi]!, q[qi + 1]!, q[qi + 2]!, q[qi + 4]!, k);
  return nearestKeyed(tree, metric, q, qi, k);
}

/**
 * `nearest` under POINT: the k items nearest to (x, y) within `limit` (maxDistance), nodes and
 * items compared by squared distances against `squaredCut` of the distances the search keeps
 * (see `scanNearestPlanar`); a child is queued only when it may still beat the k-th best.
 */
function nearestPlanar(
  tree: RegionTree<unknown>,
  x: number,
  y: number,
  limit: number,
  k: number,
): number {
  const { lk, geo, queue, best } = tree;
  const { box, slot } = tree.buckets;
  queue.clear();
  best.reset(searchK(k, tree.size));
  if (k === 0 || lk[NODE_SUB] === 0) return 0;
  queue.push(0, 0);
  while (queue.length > 0) {
    let bound = planarCut(best, limit);
    if (queue.peekKey() > bound) break;
    const node = queue.pop();
    const l = 8 * node;
    const from = lk[l + NODE_START]!;
    scanNearestPlanar(box, slot, from, from + lk[l + NODE_COUNT]!, x, y, limit, best);
    const first = lk[l + NODE_CHILD]!;
    if (first < 0) continue;
    bound = planarCut(best, limit);
    for (let kid = first; kid < first + 4; kid++) {
      const g = 8 * kid;
      if (lk[g + NODE_SUB] === 0) continue;
      const key = boxDistanceSq(geo[g]!, geo[g + 1]!, geo[g + 2]!, geo[g + 3]!, x, y);
      if (key <= bound) queue.push(kid, key);
    }
  }
  return best.drain(room(tree, 0, best.length));
}

/**
 * `nearest` under GEO: the k items nearest to (lon, lat), whose cosine of latitude is `cosLat`,
 * by the haversine of the central angle, up to `limit` (a haversine); nodes keyed by
 * `havBoxBound` shaded by a few ulps.
 */
function nearestGeo(
  tree: RegionTree<unknown>,
  lon: number,
  lat: number,
  cosLat: number,
  limit: number,
  k: number,
): number {
  const { lk, geo, queue, best } = tree;
  const { box, slot } = tree.buckets;
  queue.clear();
  best.reset(searchK(k, tree.size));
  if (k === 0 || lk[NODE_SUB] === 0) return 0;
  queue.push(0, 0);
  while (queue.length > 0) {
    let bound = best.full && best.worst() < limit ? best.worst() : limit;
    if (queue.peekKey() > bound) break;
    const node = queue.pop();
    const l = 8 * node;
    const from = lk[l + NODE_START]!;
    scanNearestGeo(box, slot, from, from + lk[l + NODE_COUNT]!, lon, lat, cosLat, limit, best);
    const first = lk[l + NODE_CHILD]!;
    if (first < 0) continue;
    bound = best.full && best.worst() < limit ? best.worst() : limit;
    for (let kid = first; kid < first + 4; kid++) {
      const g = 8 * kid;
      if (lk[g + NODE_SUB] === 0) continue;
      const key =
        havBoxBound(lon, lat, cosLat, geo[g]!, geo[g + 1]!, geo[g + 2]!, geo[g + 3]!) * NODE_SHADE;
      if (key <= bound) queue.push(kid, key);
    }
  }
  return best.drain(room(tree, 0, best.length));
}

/**
 * `nearest` under the other metrics (RAY): nodes keyed by `boxKey` shaded by a few ulps,
 * so that rounding never ranks a node behind an item inside it.
 */
function nearestKeyed(
  tree: RegionTree<unknown>,
  metric: number,
  q: Float64Array,
  qi: number,
  k: number,
): number {
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
      const key =
        boxKey(metric, geo[g]!, geo[g + 1]!, geo[g + 2]!, geo[g + 3]!, a, b, c, d) * NODE_SHADE;
      if (key <= limit) queue.push(kid, key);
    }
  }
  return best.drain(room(tree, 0, best.length));
}
