// The nearest-first scan of a run of entries, shared by the trees' and the grid's best-first
// walks (see scan.ts for how the kernels take their numbers).

import { boxIntersectsCircle } from '../geometry/rect.js';
import { havBoxNearest, havPoints } from '../geometry/sphere.js';
import type { KBest } from './queue.js';
import { beyondKey, boxKey, GEO, maxKey, POSITIONS, withinKey } from './scan.js';

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
  const a = q[qi]!;
  const b = q[qi + 1]!;
  const c = q[qi + 2]!;
  const d = q[qi + 3]!;
  const limit = maxKey(metric, q, qi);
  const within = withinKey(metric, limit);
  const beyond = beyondKey(metric, limit);
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    let key =
      metric === GEO
        ? geoItemKey(box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, a, b, c)
        : boxKey(metric, box[i]!, box[i + 1]!, box[i + 2]!, box[i + 3]!, a, b, c, d);
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
