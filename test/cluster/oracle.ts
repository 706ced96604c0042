// A brute-force reference for the clusterer: the greedy rule written out in O(n^2) per zoom,
// on the same fixed-point coordinates, keeping each item's leaves. Also seeded point sets.
import type { PointFeature } from '../../src/cluster/index.js';
import { encode, latY, lngX, SCALE } from '../../src/cluster/mercator.js';
import { mulberry32, randFloat, randInt } from '../oracle.js';

/** An item of one zoom: fixed-point centre, points, and the input indices of its leaves. */
export interface RefItem {
  x: number;
  y: number;
  num: number;
  leaves: number[];
}

export interface RefOptions {
  radius: number;
  extent: number;
  minZoom: number;
  maxZoom: number;
  minPoints: number;
}

/** The items of every zoom from minZoom to maxZoom + 1 (index = zoom). */
export function referenceClusters(
  points: readonly PointFeature<unknown>[],
  o: RefOptions,
): RefItem[][] {
  const zooms: RefItem[][] = [];
  let items: RefItem[] = points.map((p, i) => ({
    x: Math.trunc(encode(lngX(p.geometry.coordinates[0]!))),
    y: Math.trunc(encode(latY(p.geometry.coordinates[1]!))),
    num: 1,
    leaves: [i],
  }));
  zooms[o.maxZoom + 1] = items;
  for (let z = o.maxZoom; z >= o.minZoom; z--) {
    const r = (o.radius / (o.extent * 2 ** z)) * SCALE;
    const taken = new Array<boolean>(items.length).fill(false);
    const out: RefItem[] = [];
    for (let i = 0; i < items.length; i++) {
      if (taken[i]) continue;
      taken[i] = true;
      const a = items[i]!;
      const near: number[] = [];
      for (let j = 0; j < items.length; j++) {
        const b = items[j]!;
        if (!taken[j] && (a.x - b.x) ** 2 + (a.y - b.y) ** 2 <= r * r) near.push(j);
      }
      const total = near.reduce((t, j) => t + items[j]!.num, a.num);
      if (near.length > 0 && total >= o.minPoints) {
        let wx = a.x * a.num;
        let wy = a.y * a.num;
        const leaves = [...a.leaves];
        for (const j of near) {
          taken[j] = true;
          const b = items[j]!;
          wx += b.x * b.num;
          wy += b.y * b.num;
          leaves.push(...b.leaves);
        }
        out.push({ x: Math.trunc(wx / total), y: Math.trunc(wy / total), num: total, leaves });
      } else {
        out.push(a);
        for (const j of near) {
          taken[j] = true;
          out.push(items[j]!);
        }
      }
    }
    items = out;
    zooms[z] = items;
  }
  return zooms;
}

/** A GeoJSON point feature with an index property. */
export function feature(lng: number, lat: number, i: number): PointFeature<{ i: number }> {
  return {
    type: 'Feature',
    properties: { i },
    geometry: { type: 'Point', coordinates: [lng, lat] },
  };
}

/**
 * Seeded points in a few groups of very different spreads (so clusters form at many zooms), with
 * some repeated points, some on the antimeridian and near the poles.
 */
export function seededPoints(seed: number, n: number): PointFeature<{ i: number }>[] {
  const rng = mulberry32(seed);
  const groups = Array.from({ length: randInt(rng, 1, 6) }, () => ({
    lng: randFloat(rng, -180, 180),
    lat: randFloat(rng, -80, 80),
    spread: 10 ** randFloat(rng, -4, 1.5),
  }));
  const out: PointFeature<{ i: number }>[] = [];
  for (let i = 0; i < n; i++) {
    const kind = rng();
    let lng: number;
    let lat: number;
    if (kind < 0.05 && i > 0) {
      const c = out[randInt(rng, 0, i - 1)]!.geometry.coordinates;
      lng = c[0]!;
      lat = c[1]!;
    } else if (kind < 0.08) {
      lng = rng() < 0.5 ? -180 : 180;
      lat = randFloat(rng, -90, 90);
    } else if (kind < 0.1) {
      lng = randFloat(rng, -180, 180);
      lat = rng() < 0.5 ? randFloat(rng, 85, 90) : randFloat(rng, -90, -85);
    } else {
      const g = groups[randInt(rng, 0, groups.length - 1)]!;
      lng = Math.max(-180, Math.min(180, g.lng + randFloat(rng, -1, 1) * g.spread));
      lat = Math.max(-90, Math.min(90, g.lat + randFloat(rng, -1, 1) * g.spread));
    }
    out.push(feature(lng, lat, i));
  }
  return out;
}
