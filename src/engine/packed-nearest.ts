// Best-first nearest-neighbour search over the packed static tree (Hjaltason & Samet, "Distance
// browsing in spatial databases", 1999): nodes in a min-heap by their key under the metric, the
// k best items in a bounded max-heap (see queue.ts). One kernel per metric family, each with
// its own key function, so that every call site in a walk sees one function.

import { boxDistanceSq } from '../geometry/rect.js';
import { havBoxBound } from '../geometry/sphere.js';
import type { PackedTree } from './packed.js';
import { type NodeQueue, searchK } from './queue.js';
import { boxKey, GEO, maxKey, NODE_SHADE, POINT } from './scan.js';
import { planarCut, scanNearest, scanNearestGeo, scanNearestPlanar } from './scan-nearest.js';
import { squaredCut } from './scan-points.js';

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
  if (metric === POINT) return nearestPlanar(tree, q[qi]!, q[qi + 1]!, q[qi + 2]!, k);
  if (metric === GEO) return nearestGeo(tree, q[qi]!, q[qi + 1]!, q[qi + 2]!, q[qi + 4]!, k);
  return nearestKeyed(tree, metric, q, qi, k);
}

/**
 * `nearest` under POINT: the k items nearest to (x, y) within `limit` (maxDistance). Nodes and
 * items are compared by squared distances (no square root per node: 1M points, 1,000 queries,
 * k = 1: 4.3 -> 3.9 ms) against `squaredCut` of the distances the search keeps; an item's square
 * root is taken only when it may enter the k best. Boxes and points alike: no pass over the
 * items to learn which they are.
 */
function nearestPlanar(tree: PackedTree, x: number, y: number, limit: number, k: number): number {
  const { boxes, levelEnd, nodeSize, queue, best } = tree;
  queue.clear();
  best.reset(searchK(k, tree.numItems));
  if (k === 0 || tree.numItems === 0) return 0;
  const cutLimit = squaredCut(limit);
  // Phase 1: a greedy descent to the nearest leaf group, scanned, so that the best-first walk
  // starts with a bound and queues only the nodes within it (on the cities, k = 1: 80 -> 21
  // pushes per query). The children met on the way down keep their keys and start the walk,
  // those within the bound, the path itself left out (its nodes' children are among them, and
  // its leaf group is scanned): no node's key is computed twice.
  let pos = levelEnd[levelEnd.length - 1]! - 1;
  let l = levelEnd.length - 1;
  const metNodes = tree.stack;
  const metKeys = tree.metKeys;
  let met = 0;
  while (l > 1) {
    const first = tree.childRange(pos, l);
    const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
    const nearAt = metChildren(boxes, first, end, x, y, cutLimit, metNodes, metKeys, met);
    met += end - first;
    if (nearAt < 0) break;
    // On the path: not queued.
    pos = metNodes[nearAt]!;
    metNodes[nearAt] = -1;
    l--;
  }
  const greedy = l === 1 ? pos : -1;
  if (greedy >= 0) scanPlanar(tree, greedy, x, y, limit);
  // Phase 2: the nodes met on the way down, within the bound, start the queue.
  queueMet(metNodes, metKeys, met, planarCut(best, limit), queue);
  // Phase 3: best-first, until no queued node can beat the k-th best.
  while (queue.length > 0) {
    const bound = planarCut(best, limit);
    if (queue.peekKey() > bound) break;
    const pos = queue.pop();
    // The node's level, from the level bounds (a handful of levels).
    let l = 1;
    while (pos >= levelEnd[l]!) l++;
    if (l === 1) {
      if (pos !== greedy) scanPlanar(tree, pos, x, y, limit);
      continue;
    }
    const first = tree.childRange(pos, l);
    queueChildren(boxes, first, Math.min(first + nodeSize, levelEnd[l - 1]!), x, y, bound, queue);
  }
  tree.room(tree.results, 0, best.length);
  return best.drain(tree.results);
}

// The walks' small kernels below are functions of their own: V8 optimises small functions
// soonest, and until it does, every number read from a Float64Array or computed is a new heap
// object, so the first queries of a process run their key computations in optimised code
// while the walk itself is still being compiled.

// Phase 1 of nearestPlanar, one level: records the children [first, end) and their squared
// distances to (x, y) in metNodes/metKeys from `met`; returns the place there of the nearest
// within `cut` (the last of equals), or -1.
function metChildren(
  boxes: Float64Array,
  first: number,
  end: number,
  x: number,
  y: number,
  cut: number,
  metNodes: Int32Array,
  metKeys: Float64Array,
  met: number,
): number {
  let nearAt = -1;
  let nearKey = cut;
  for (let n = first; n < end; n++, met++) {
    const j = 4 * n;
    const key = boxDistanceSq(boxes[j]!, boxes[j + 1]!, boxes[j + 2]!, boxes[j + 3]!, x, y);
    metNodes[met] = n;
    metKeys[met] = key;
    if (key <= nearKey) {
      nearAt = met;
      nearKey = key;
    }
  }
  return nearAt;
}

// Phase 2 of nearestPlanar: queues the nodes met (those not dropped as -1) within `bound`.
function queueMet(
  metNodes: Int32Array,
  metKeys: Float64Array,
  met: number,
  bound: number,
  queue: NodeQueue,
): void {
  for (let m = 0; m < met; m++) {
    const n = metNodes[m]!;
    if (n >= 0 && metKeys[m]! <= bound) queue.push(n, metKeys[m]!);
  }
}

// Queues the children [first, end) whose squared distance to (x, y) is within `bound`.
function queueChildren(
  boxes: Float64Array,
  first: number,
  end: number,
  x: number,
  y: number,
  bound: number,
  queue: NodeQueue,
): void {
  for (let n = first; n < end; n++) {
    const j = 4 * n;
    const key = boxDistanceSq(boxes[j]!, boxes[j + 1]!, boxes[j + 2]!, boxes[j + 3]!, x, y);
    if (key <= bound) queue.push(n, key);
  }
}

// Offers the items of the level-1 node at `pos` to `tree.best` under POINT.
function scanPlanar(tree: PackedTree, pos: number, x: number, y: number, limit: number): void {
  const { boxes, emit, levelEnd, nodeSize, best } = tree;
  const first = tree.childRange(pos, 1);
  const end = Math.min(first + nodeSize, levelEnd[0]!);
  scanNearestPlanar(boxes, emit, first, end, x, y, limit, best);
}

/**
 * `nearest` under GEO: the k items nearest to (lon, lat), whose cosine of latitude is `cosLat`,
 * by the haversine of the central angle, up to `limit` (a haversine); nodes keyed by
 * `havBoxBound` shaded by a few ulps. (A greedy first descent, as in `nearestPlanar`, measured
 * no faster warm and slower cold: the bound keys cost sines at every level of the path.)
 */
function nearestGeo(
  tree: PackedTree,
  lon: number,
  lat: number,
  cosLat: number,
  limit: number,
  k: number,
): number {
  const { boxes, levelEnd, nodeSize, queue, best } = tree;
  queue.clear();
  best.reset(searchK(k, tree.numItems));
  if (k === 0 || tree.numItems === 0) return 0;
  queue.push(levelEnd[levelEnd.length - 1]! - 1, 0);
  while (queue.length > 0) {
    const bound = best.full && best.worst() < limit ? best.worst() : limit;
    if (queue.peekKey() > bound) break;
    const pos = queue.pop();
    let l = 1;
    while (pos >= levelEnd[l]!) l++;
    if (l === 1) {
      scanGeo(tree, pos, lon, lat, cosLat, limit);
      continue;
    }
    const first = tree.childRange(pos, l);
    const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
    for (let n = first; n < end; n++) {
      const j = 4 * n;
      const key =
        havBoxBound(lon, lat, cosLat, boxes[j]!, boxes[j + 1]!, boxes[j + 2]!, boxes[j + 3]!) *
        NODE_SHADE;
      if (key <= bound) queue.push(n, key);
    }
  }
  tree.room(tree.results, 0, best.length);
  return best.drain(tree.results);
}

// Offers the items of the level-1 node at `pos` to `tree.best` under GEO.
function scanGeo(
  tree: PackedTree,
  pos: number,
  lon: number,
  lat: number,
  cosLat: number,
  limit: number,
): void {
  const { boxes, emit, levelEnd, nodeSize, best } = tree;
  const first = tree.childRange(pos, 1);
  const end = Math.min(first + nodeSize, levelEnd[0]!);
  scanNearestGeo(boxes, emit, first, end, lon, lat, cosLat, limit, best);
}

/**
 * `nearest` under the other metrics (RAY): nodes keyed by `boxKey` shaded by a few ulps,
 * so that rounding never ranks a node behind an item inside it.
 */
function nearestKeyed(
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
  queue.push(levelEnd[levelEnd.length - 1]! - 1, 0);
  while (queue.length > 0) {
    const bound = best.full ? Math.min(limit, best.worst()) : limit;
    if (queue.peekKey() > bound) break;
    const pos = queue.pop();
    let l = 1;
    while (pos >= levelEnd[l]!) l++;
    const first = tree.childRange(pos, l);
    if (l === 1) {
      const end = Math.min(first + nodeSize, levelEnd[0]!);
      scanNearest(boxes, tree.emit, first, end, metric, q, qi, best);
      continue;
    }
    const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
    for (let n = first; n < end; n++) {
      const j = 4 * n;
      const key =
        boxKey(metric, boxes[j]!, boxes[j + 1]!, boxes[j + 2]!, boxes[j + 3]!, a, b, c, d) *
        NODE_SHADE;
      if (key <= bound) queue.push(n, key);
    }
  }
  tree.room(tree.results, 0, best.length);
  return best.drain(tree.results);
}
