// The greedy clustering of one zoom level, after supercluster (Vladimir Agafonkin, Mapbox) and
// Mapbox's article "Clustering millions of points on a map with Supercluster" (2016): visit the
// items of the level above (zoom z + 1) in their order; each item not yet taken gathers every
// item not yet taken within r = radius / (extent * 2^z) of it into one cluster at their
// count-weighted centre (when they hold at least minPoints points), or stays as it is.
// The output keeps the input order (a cluster takes its first item's place; the items a cluster
// too small for minPoints could not take follow it in input order), so each zoom's items are the
// input of the next zoom down.

import { buildGrid, type CellGrid, withinInto } from './grid.js';

/** The items of one zoom level: fixed-point centres, point counts and references. */
export interface Level {
  readonly n: number;
  readonly x: Int32Array;
  readonly y: Int32Array;
  /** Points in the item (1 for a point). */
  readonly num: Int32Array;
  /** A point's index in the input, or a cluster's id (>= the number of points). */
  readonly ref: Int32Array;
  /** The level's items bucketed for radius and box queries. */
  readonly grid: CellGrid;
}

/**
 * How clusters were formed: cluster `s` (id = numPoints + s) was made at zoom `zoomOf[s]` from
 * the items `children[childStart[s]] .. children[childStart[s + 1] - 1]` of zoom `zoomOf[s] + 1`.
 */
export interface Hierarchy {
  readonly numPoints: number;
  clusters: number;
  readonly zoomOf: Uint8Array;
  readonly childStart: Int32Array;
  readonly children: Int32Array;
}

/** Called when a cluster forms (`j === i`, once) and for each other item it takes. */
export type MergeHook = (serial: number, src: Level, i: number, j: number) => void;

/**
 * A new hierarchy for `numPoints` points (at most numPoints - 1 clusters, each of >= 2 items, and
 * at most 2 * numPoints children in all, as each cluster lowers the item count by at least 1).
 * @param numPoints - the number of input points.
 */
export function newHierarchy(numPoints: number): Hierarchy {
  return {
    numPoints,
    clusters: 0,
    zoomOf: new Uint8Array(numPoints),
    childStart: new Int32Array(numPoints + 1),
    children: new Int32Array(2 * numPoints),
  };
}

/**
 * A level over arrays, with its grid: cells of `cell` fixed-point units (at least 1), or the grid
 * of `reuse` when its cells are at least half that (a radius query then spans at most 5 cells a side).
 * @param n - the number of items.
 * @param x - fixed-point x per item (likewise y).
 * @param y - fixed-point y.
 * @param num - points per item.
 * @param ref - point index or cluster id per item.
 * @param cell - the wanted cell side.
 * @param reuse - a grid over the same items, or null.
 * @param work - scratch with room for n entries.
 */
export function makeLevel(
  n: number,
  x: Int32Array,
  y: Int32Array,
  num: Int32Array,
  ref: Int32Array,
  cell: number,
  reuse: CellGrid | null,
  work: Int32Array,
): Level {
  const side = cell < 1 ? 1 : cell;
  const grid = reuse !== null && reuse.cell * 2 >= side ? reuse : buildGrid(x, y, n, side, work);
  return { n, x, y, num, ref, grid };
}

/** Scratch of `clusterZoom`, sized for the largest level, and the points' quiet zooms. */
export interface Scratch {
  readonly visited: Uint8Array;
  readonly neighbours: Int32Array;
  /** Per point, the highest zoom at which it may have a neighbour (see quietZooms). */
  readonly active: Int8Array;
}

// Fixed-point units added to distance bounds for the truncation of cluster centres (at most one
// unit per axis per zoom).
const SLACK = 64;

/**
 * Per point, the highest zoom at which some item may lie within the cluster radius of it (or
 * lower than every zoom checked): the clustering skips the radius query of a point above that zoom.
 * Why it holds: every leaf of an item made at zoom z lies within 2 (r_z + r_{z+1} + ...) < 4 r_z
 * of it (a cluster's centre is within r_z of its first item, and so are the items it takes), so
 * an unclustered point u whose nearest other point is d_u away is farther than d_u - 2 r_z from
 * every item of zoom z + 1, hence has no neighbour at zoom z when d_u > 3 r_z; the same bound
 * keeps every other query from finding u. One pass of nearest-within queries up to 3 r_{z_c} for
 * z_c = maxZoom - 6 finds d_u (a point with nothing that near is quiet down to z_c).
 * @param x - fixed-point x per point (likewise y).
 * @param y - fixed-point y.
 * @param n - the number of points.
 * @param radiusAt - the cluster radius at a zoom, in fixed-point units.
 * @param minZoom - the lowest zoom clustered.
 * @param maxZoom - the highest zoom clustered.
 * @param work - scratch with room for n entries.
 */
export function quietZooms(
  x: Int32Array,
  y: Int32Array,
  n: number,
  radiusAt: (z: number) => number,
  minZoom: number,
  maxZoom: number,
  work: Int32Array,
): Int8Array {
  const active = new Int8Array(n);
  const zc = Math.max(minZoom, maxZoom - 6);
  const cap = 3 * radiusAt(zc) + SLACK;
  const near = work;
  const grid = buildGrid(x, y, n, Math.max(1, cap), work);
  const bound = new Float64Array(maxZoom + 1);
  for (let z = zc; z <= maxZoom; z++) bound[z] = 3 * radiusAt(z) + SLACK;
  for (let u = 0; u < n; u++) {
    // The distance to the nearest other point within the cap (else more than the cap).
    const ux = x[u]!;
    const uy = y[u]!;
    const found = withinInto(grid, ux, uy, cap, near);
    let best = Number.POSITIVE_INFINITY;
    for (let k = 0; k < found; k++) {
      const j = near[k]!;
      const d = (x[j]! - ux) ** 2 + (y[j]! - uy) ** 2;
      if (j !== u && d < best) best = d;
    }
    const d = Math.sqrt(best);
    let z = maxZoom;
    while (z >= zc && d > bound[z]!) z--;
    active[u] = z;
  }
  return active;
}

/** The output arrays of one zoom (the first `n` entries are used). */
export interface LevelArrays {
  n: number;
  readonly x: Int32Array;
  readonly y: Int32Array;
  readonly num: Int32Array;
  readonly ref: Int32Array;
}

/**
 * Clusters the items of `src` (zoom z + 1) at zoom `z` into `out`; returns the number of items
 * written (`src.n` exactly when nothing merged).
 * @param src - the level above.
 * @param z - the zoom being made.
 * @param r - the cluster radius at zoom z, in fixed-point units.
 * @param minPoints - the fewest points a cluster may hold.
 * @param h - receives the clusters formed.
 * @param scratch - visited flags, a neighbour buffer and the points' quiet zooms.
 * @param out - receives the items of zoom z.
 * @param merge - called as clusters form (property reduce), or null.
 */
export function clusterZoom(
  src: Level,
  z: number,
  r: number,
  minPoints: number,
  h: Hierarchy,
  scratch: Scratch,
  out: LevelArrays,
  merge: MergeHook | null,
): number {
  const { n, x: sx, y: sy, num: snum, ref: sref, grid } = src;
  const { visited, neighbours, active } = scratch;
  const { x: ox, y: oy, num: onum, ref: oref } = out;
  const { zoomOf, childStart, children, numPoints } = h;
  visited.fill(0, 0, n);
  let w = 0;
  let c = childStart[h.clusters]!;
  for (let i = 0; i < n; i++) {
    if (visited[i] === 1) continue;
    visited[i] = 1;
    const x = sx[i]!;
    const y = sy[i]!;
    const ref = sref[i]!;
    // A point with nothing within reach at this zoom stays as it is (see quietZooms).
    const found = ref < numPoints && active[ref]! < z ? 0 : withinInto(grid, x, y, r, neighbours);
    // Count the points the item would gather (the items not taken yet).
    const own = snum[i]!;
    let total = own;
    for (let k = 0; k < found; k++) {
      const j = neighbours[k]!;
      if (visited[j] === 0) total += snum[j]!;
    }
    if (total > own && total >= minPoints) {
      // A cluster: take the neighbours, sum the weighted centre, record the children.
      const s = h.clusters++;
      if (merge !== null) merge(s, src, i, i);
      let wx = x * own;
      let wy = y * own;
      children[c++] = i;
      for (let k = 0; k < found; k++) {
        const j = neighbours[k]!;
        if (visited[j] === 1) continue;
        visited[j] = 1;
        const m = snum[j]!;
        wx += sx[j]! * m;
        wy += sy[j]! * m;
        children[c++] = j;
        if (merge !== null) merge(s, src, i, j);
      }
      zoomOf[s] = z;
      childStart[s + 1] = c;
      ox[w] = wx / total;
      oy[w] = wy / total;
      onum[w] = total;
      oref[w] = numPoints + s;
      w++;
    } else {
      // No cluster: the item stays, and so do the neighbours it could not gather (minPoints).
      ox[w] = x;
      oy[w] = y;
      onum[w] = own;
      oref[w] = ref;
      w++;
      if (total > own) {
        // In input order (the order of the grid's buckets is not the user's business).
        neighbours.subarray(0, found).sort();
        for (let k = 0; k < found; k++) {
          const j = neighbours[k]!;
          if (visited[j] === 1) continue;
          visited[j] = 1;
          ox[w] = sx[j]!;
          oy[w] = sy[j]!;
          onum[w] = snum[j]!;
          oref[w] = sref[j]!;
          w++;
        }
      }
    }
  }
  out.n = w;
  return w;
}
