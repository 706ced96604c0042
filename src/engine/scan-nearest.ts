// The nearest-first scan of a run of entries, shared by the trees' and the grid's best-first
// walks (see scan.ts for how the kernels take their numbers).

import { norm } from '../geometry/metric.js';
import { boxIntersectsCircle } from '../geometry/rect.js';
import { havBoxNearest, havPoints } from '../geometry/sphere.js';
import type { KBest } from './queue.js';
import { beyondKey, boxKey, GEO, maxKey, POINT, POSITIONS, withinKey } from './scan.js';
import { squaredCut } from './scan-points.js';

/**
 * The GEO key of an item: the haversine of the central angle from (lon a, lat b), whose cosine
 * of latitude is c, to its point, or to the nearest point of its box (monotone in the distance,
 * and no asin or square root per item).
 */
function geoItemKey(
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  a: number,
  b: number,
  c: number,
): number {
  return minX === maxX && minY === maxY
    ? havPoints(a, b, c, minX, minY)
    : havBoxNearest(a, b, c, minX, minY, maxX, maxY);
}

/**
 * Offers the slot of each entry of [from, to) (its position, for POSITIONS) to `best`, keyed
 * by `boxKey` for the query q[qi..] under `metric` (GEO: by `geoItemKey`), when the key is
 * within `maxKey`; under POINT, when the box meets the closed disc of radius maxDistance,
 * decided exactly (see `withinKey`), with its key at most maxDistance.
 */
export function scanNearest(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  metric: number,
  q: Float64Array,
  qi: number,
  best: KBest,
): void {
  if (metric === POINT) {
    scanNearestPlanar(box, slot, from, to, q[qi]!, q[qi + 1]!, q[qi + 2]!, best);
    return;
  }
  if (metric === GEO) {
    scanNearestGeo(box, slot, from, to, q[qi]!, q[qi + 1]!, q[qi + 2]!, q[qi + 4]!, best);
    return;
  }
  const a = q[qi]!;
  const b = q[qi + 1]!;
  const c = q[qi + 2]!;
  const d = q[qi + 3]!;
  const limit = maxKey(metric, q, qi);
  const within = withinKey(metric, limit);
  const beyond = beyondKey(metric, limit);
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    let key = boxKey(metric, box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, a, b, c, d);
    if (key > within) {
      // Near maxDistance (only POINT keys fall between within and beyond): decided exactly.
      if (key > beyond || !nearLimit(box, i, a, b, limit)) continue;
      if (key > limit) key = limit;
    }
    best.offer(slot === POSITIONS ? e : slot[e]!, key);
  }
}

// Whether the box at box[i..i+4) meets the closed disc (x, y, r), decided exactly.
function nearLimit(box: Float64Array, i: number, x: number, y: number, r: number): boolean {
  return boxIntersectsCircle(box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, x, y, r);
}

/**
 * `scanNearest` under POINT, query point (x, y), keys up to `limit` (maxDistance), for entries
 * that are boxes or points alike: an entry whose squared distance (the value `boxDistanceSq`
 * gives) is clearly beyond the current k-th best or the limit (see `squaredCut`) is passed over
 * without its square root; the others are keyed by their distance (the value `boxDistance`
 * gives), decided exactly near the limit.
 */
export function scanNearestPlanar(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  x: number,
  y: number,
  limit: number,
  best: KBest,
): void {
  let cut = planarCut(best, limit);
  const within = withinKey(POINT, limit);
  const beyond = beyondKey(POINT, limit);
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    const minX = box[i]!;
    const minY = box[i + 1]!;
    const maxX = box[i + 2]!;
    const maxY = box[i + 3]!;
    const dx = x < minX ? minX - x : x > maxX ? x - maxX : 0;
    const dy = y < minY ? minY - y : y > maxY ? y - maxY : 0;
    if (dx * dx + dy * dy > cut) continue;
    let key = norm(dx, dy);
    if (key > within) {
      // Near maxDistance: decided exactly.
      if (key > beyond || !boxIntersectsCircle(minX, minY, maxX, maxY, x, y, limit)) continue;
      if (key > limit) key = limit;
    }
    best.offer(slot === POSITIONS ? e : slot[e]!, key);
    cut = planarCut(best, limit);
  }
}

/**
 * A squared distance beyond which no entry can enter `best` (nor pass `limit`): the bound of a
 * planar best-first walk, whose nodes are keyed by squared distances.
 */
export function planarCut(best: KBest, limit: number): number {
  return squaredCut(best.full && best.worst() < limit ? best.worst() : limit);
}

/**
 * `scanNearest` under GEO, query point (lon, lat) whose cosine of latitude is `cosLat`: offers
 * each entry keyed by `geoItemKey` when that key is at most `limit` (the largest haversine kept).
 */
export function scanNearestGeo(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  lon: number,
  lat: number,
  cosLat: number,
  limit: number,
  best: KBest,
): void {
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    const key = geoItemKey(box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, lon, lat, cosLat);
    if (key <= limit) best.offer(slot === POSITIONS ? e : slot[e]!, key);
  }
}
