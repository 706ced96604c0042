// Point clustering per zoom level in Web Mercator, with supercluster's options, output and
// greedy rule (see levels.ts), over folded grids in typed arrays (see grid.ts).

import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { checkFinite, checkInteger, checkRange } from '../validate.js';
import {
  type ClusterFeature,
  clusterFeature,
  clusterProperties,
  type PointFeature,
} from './features.js';
import { rangeInto } from './grid.js';
import {
  type ClustererOptions,
  coordinatesOf,
  type FullOptions,
  readOptions,
  wrapLng,
} from './input.js';
import {
  clusterZoom,
  type Hierarchy,
  type Level,
  type LevelArrays,
  type MergeHook,
  makeLevel,
  newHierarchy,
  quietZooms,
} from './levels.js';
import { encode, latY, lngX, SCALE } from './mercator.js';

/** A feature of `getTile`: tile pixel coordinates in `geometry`, properties in `tags`. */
export interface TileFeature<P, C> {
  /** Always 1, the vector-tile geometry type of a point. */
  type: 1;
  /** The one position [x, y], in tile pixels from the tile's top-left corner (0 to `extent`). */
  geometry: [[number, number]];
  /** A point's properties as given, or a cluster's properties. */
  tags: P | ClusterFeature<C>['properties'];
  /** A cluster's id; a point's own id, or its index in the input with `generateId`. */
  id?: number | string;
}

/** What `Clusterer.toJSON()` gives: a summary, never the points. */
export interface ClustererSummary {
  /** Always `'Clusterer'`. */
  kind: 'Clusterer';
  /** The number of points loaded. */
  size: number;
  /** The options in force with their defaults, but the functions `map` and `reduce`. */
  options: Record<string, number | boolean>;
}

/**
 * Clusters longitude/latitude points for every zoom from `minZoom` to `maxZoom`, greedily as
 * supercluster does, and answers which clusters and points are in a box at a zoom.
 *
 * @typeParam P - the points' properties.
 * @typeParam C - the clusters' reduced properties (from `map` and `reduce`).
 */
export class Clusterer<P = Record<string, unknown> | null, C = Record<string, never>> {
  /** The options in force, defaults filled in. */
  readonly options: FullOptions<P, C>;
  private points: readonly PointFeature<P>[] = [];
  private levels: Level[] = [];
  private hierarchy: Hierarchy = newHierarchy(0);
  private reduced: C[] = [];
  private scratch = new Int32Array(0);

  /**
   * A clusterer with no points yet; `load` gives it some.
   * @param options - `{ radius = 40, extent = 512, minZoom = 0, maxZoom = 16, minPoints = 2, map, reduce }`.
   */
  constructor(options: ClustererOptions<P, C> = {}) {
    this.options = readOptions(options);
    this.load([]);
  }

  /**
   * Replaces the points and clusters them at every zoom. A bad point throws naming it and leaves
   * the clusterer as it was.
   * @param points - GeoJSON Point features, longitude in [-180, 180] and latitude in [-90, 90].
   */
  load(points: readonly PointFeature<P>[]): this {
    if (!Array.isArray(points))
      throw new InvalidTypeError('quadkit: load(points) needs an array of GeoJSON Point features');
    const n = points.length;
    const { minZoom, maxZoom, radius, extent, minPoints } = this.options;
    // Phase 1: read and check every point into fixed-point Mercator coordinates.
    const x = new Int32Array(n);
    const y = new Int32Array(n);
    const num = new Int32Array(n).fill(1);
    const ref = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const c = coordinatesOf(points[i], i);
      x[i] = encode(lngX(c[0]!));
      y[i] = encode(latY(c[1]!));
      ref[i] = i;
    }
    // Phase 2: the points are the level above maxZoom; cluster each zoom from the one above it.
    const h = newHierarchy(n);
    const reduced: C[] = [];
    const levels: Level[] = [];
    const radiusAt = (z: number) => (radius / (extent * 2 ** z)) * SCALE;
    const neighbours = new Int32Array(n);
    const scratch = {
      visited: new Uint8Array(n),
      neighbours,
      active: quietZooms(x, y, n, radiusAt, minZoom, maxZoom, neighbours),
    };
    levels[maxZoom + 1] = makeLevel(n, x, y, num, ref, 2 * radiusAt(maxZoom), null, neighbours);
    const merge = this.options.reduce === null ? null : this.mergeHook(points, h, reduced);
    let spare: LevelArrays | null = null;
    for (let z = maxZoom; z >= minZoom; z--) {
      const src = levels[z + 1]!;
      const out: LevelArrays = spare ?? arrays(src.n);
      spare = null;
      const w = clusterZoom(src, z, radiusAt(z), minPoints, h, scratch, out, merge);
      if (w === src.n) {
        // Nothing merged: this zoom shares the items above (and their arrays serve the next zoom).
        levels[z] = makeLevel(
          src.n,
          src.x,
          src.y,
          src.num,
          src.ref,
          2 * radiusAt(z - 1),
          src.grid,
          neighbours,
        );
        spare = out;
      } else {
        const t = (a: Int32Array) => a.subarray(0, w);
        levels[z] = makeLevel(
          w,
          t(out.x),
          t(out.y),
          t(out.num),
          t(out.ref),
          2 * radiusAt(z - 1),
          null,
          neighbours,
        );
      }
    }
    // Phase 3: swap the new state in.
    this.points = points.slice();
    this.levels = levels;
    this.hierarchy = h;
    this.reduced = reduced;
    this.scratch = new Int32Array(n);
    return this;
  }

  /** The number of points loaded. */
  get size(): number {
    return this.points.length;
  }

  /**
   * A small summary for `JSON.stringify` and logs, never the points:
   * `{ kind: 'Clusterer', size, options }` (the options with their defaults, but the functions
   * `map` and `reduce`).
   */
  toJSON(): ClustererSummary {
    const { map: _map, reduce: _reduce, ...settings } = this.options;
    return { kind: 'Clusterer', size: this.size, options: settings };
  }

  /**
   * The clusters and points in a box at a zoom: clusters as new features, points as the loaded
   * features themselves. A box with west > east crosses the antimeridian; one 360° wide or more
   * takes every longitude.
   * @param bbox - `[west, south, east, north]` in degrees.
   * @param zoom - the map zoom (floored; below minZoom gives minZoom's clusters, above maxZoom
   * the points).
   */
  getClusters(
    bbox: readonly [number, number, number, number] | readonly number[],
    zoom: number,
  ): Array<PointFeature<P> | ClusterFeature<C>> {
    if (!Array.isArray(bbox) || bbox.length !== 4)
      throw new InvalidTypeError(
        'quadkit: bbox must be an array [west, south, east, north] in degrees',
      );
    const names = ['bbox[0] (west)', 'bbox[1] (south)', 'bbox[2] (east)', 'bbox[3] (north)'];
    for (let k = 0; k < 4; k++) checkFinite(names[k]!, bbox[k]!);
    const level = this.levels[this.levelZoom('zoom', zoom)]!;
    const [west, south, east, north] = bbox as number[];
    const minLat = Math.max(-90, Math.min(90, south!));
    const maxLat = Math.max(-90, Math.min(90, north!));
    let minLng = wrapLng(west!);
    let maxLng = east === 180 ? 180 : wrapLng(east!);
    const out: Array<PointFeature<P> | ClusterFeature<C>> = [];
    if (east! - west! >= 360) {
      minLng = -180;
      maxLng = 180;
    } else if (minLng > maxLng) {
      // Across the antimeridian: the eastern part, then the western.
      this.collect(level, minLng, minLat, 180, maxLat, out);
      this.collect(level, -180, minLat, maxLng, maxLat, out);
      return out;
    }
    this.collect(level, minLng, minLat, maxLng, maxLat, out);
    return out;
  }

  /**
   * The items a cluster splits into one zoom further in: clusters and points.
   * @param clusterId - a `cluster_id` of this clusterer.
   */
  getChildren(clusterId: number): Array<PointFeature<P> | ClusterFeature<C>> {
    const s = this.serialOf(clusterId);
    const h = this.hierarchy;
    const level = this.levels[h.zoomOf[s]! + 1]!;
    const out: Array<PointFeature<P> | ClusterFeature<C>> = [];
    for (let k = h.childStart[s]!; k < h.childStart[s + 1]!; k++)
      out.push(this.feature(level, h.children[k]!));
    return out;
  }

  /**
   * The points of a cluster, depth first through its children, from `offset` on, at most `limit`.
   * @param clusterId - a `cluster_id` of this clusterer.
   * @param limit - the most points to return (default 10; Infinity for all).
   * @param offset - how many points to skip first (default 0).
   */
  getLeaves(clusterId: number, limit = 10, offset = 0): PointFeature<P>[] {
    const s0 = this.serialOf(clusterId);
    if (limit !== Number.POSITIVE_INFINITY) checkInteger('limit', limit, 0, 0x7fffffff);
    checkInteger('offset', offset, 0, Number.MAX_SAFE_INTEGER);
    const { zoomOf, childStart, children, numPoints } = this.hierarchy;
    const leaves: PointFeature<P>[] = [];
    // An explicit stack of (cluster, next child); whole clusters inside the offset are skipped.
    const serials = [s0];
    const next = [childStart[s0]!];
    let skipped = 0;
    while (serials.length > 0 && leaves.length < limit) {
      const top = serials.length - 1;
      const s = serials[top]!;
      const k = next[top]!;
      if (k === childStart[s + 1]!) {
        serials.pop();
        next.pop();
        continue;
      }
      next[top] = k + 1;
      const level = this.levels[zoomOf[s]! + 1]!;
      const j = children[k]!;
      const ref = level.ref[j]!;
      if (ref >= numPoints) {
        const count = level.num[j]!;
        if (skipped + count <= offset) skipped += count;
        else {
          serials.push(ref - numPoints);
          next.push(childStart[ref - numPoints]!);
        }
      } else if (skipped < offset) skipped++;
      else leaves.push(this.points[ref]!);
    }
    return leaves;
  }

  /**
   * The zoom at which a cluster splits into its children (one more than the zoom it forms at).
   * @param clusterId - a `cluster_id` of this clusterer.
   */
  getClusterExpansionZoom(clusterId: number): number {
    return this.hierarchy.zoomOf[this.serialOf(clusterId)]! + 1;
  }

  /**
   * The clusters and points of one map tile, in the tile's pixel coordinates (0 to `extent`),
   * with a margin of `radius` and the copies that wrap around the antimeridian, as supercluster
   * and geojson-vt give them to vector-tile encoders; null for an empty tile.
   * @param z - the tile's zoom.
   * @param x - the tile's column, 0 to 2^z - 1.
   * @param y - the tile's row, 0 to 2^z - 1.
   */
  getTile(
    z: number,
    x: number,
    y: number,
  ): {
    /** The tile's clusters and points. */
    features: TileFeature<P, C>[];
  } | null {
    checkInteger('z', z, 0, 30);
    const level = this.levels[this.levelZoom('z', z)]!;
    const z2 = 2 ** z;
    checkInteger('x', x, 0, z2 - 1);
    checkInteger('y', y, 0, z2 - 1);
    const p = this.options.radius / this.options.extent;
    const top = encode((y - p) / z2);
    const bottom = encode((y + 1 + p) / z2);
    const features: TileFeature<P, C>[] = [];
    this.tileFeatures(
      level,
      encode((x - p) / z2),
      top,
      encode((x + 1 + p) / z2),
      bottom,
      x,
      y,
      z2,
      features,
    );
    // Copies across the antimeridian, for the first and last columns.
    if (x === 0)
      this.tileFeatures(level, encode(1 - p / z2), top, encode(1), bottom, z2, y, z2, features);
    if (x === z2 - 1)
      this.tileFeatures(level, encode(0), top, encode(p / z2), bottom, -1, y, z2, features);
    return features.length > 0 ? { features } : null;
  }

  // --- internals ---

  // The reduce hook: a cluster starts from a copy of its first item's mapped properties and
  // folds in each item it takes, as supercluster does.
  private mergeHook(points: readonly PointFeature<P>[], h: Hierarchy, reduced: C[]): MergeHook {
    const { map, reduce } = this.options;
    const fold = reduce!;
    const mapped = (src: Level, j: number, copy: boolean): C => {
      const ref = src.ref[j]!;
      if (ref >= h.numPoints) {
        const props = reduced[ref - h.numPoints]!;
        return copy ? Object.assign({}, props) : props;
      }
      const original = points[ref]!.properties;
      const result = map(original);
      return copy && (result as unknown) === original ? Object.assign({}, result) : result;
    };
    return (s, src, i, j) => {
      if (i === j) reduced[s] = mapped(src, i, true);
      else fold(reduced[s]!, mapped(src, j, false));
    };
  }

  // The level of a query zoom: floored and clamped to [minZoom, maxZoom + 1].
  private levelZoom(name: string, zoom: number): number {
    checkRange(name, zoom, 0, 30);
    const { minZoom, maxZoom } = this.options;
    return Math.max(minZoom, Math.min(Math.floor(zoom), maxZoom + 1));
  }

  // The serial number of a cluster id, or a RangeError.
  private serialOf(clusterId: number): number {
    const { numPoints, clusters } = this.hierarchy;
    if (clusters === 0) {
      throw new InvalidValueError(
        `quadkit: clusterId ${clusterId} is not a cluster of this clusterer: it has no clusters`,
      );
    }
    checkInteger(
      'clusterId (a cluster_id of this clusterer)',
      clusterId,
      numPoints,
      numPoints + clusters - 1,
    );
    return clusterId - numPoints;
  }

  // Item i of a level as a feature: the loaded point, or a new cluster feature.
  private feature(level: Level, i: number): PointFeature<P> | ClusterFeature<C> {
    const ref = level.ref[i]!;
    const numPoints = this.hierarchy.numPoints;
    if (ref < numPoints) return this.points[ref]!;
    return clusterFeature(level, i, this.reduced[ref - numPoints]);
  }

  // Appends the items of a level inside a longitude/latitude box.
  private collect(
    level: Level,
    minLng: number,
    minLat: number,
    maxLng: number,
    maxLat: number,
    out: Array<PointFeature<P> | ClusterFeature<C>>,
  ): void {
    const ids = this.scratch;
    const count = rangeInto(
      level.grid,
      encode(lngX(minLng)),
      encode(latY(maxLat)),
      encode(lngX(maxLng)),
      encode(latY(minLat)),
      ids,
    );
    for (let k = 0; k < count; k++) out.push(this.feature(level, ids[k]!));
  }

  // Appends the items of a level in a Mercator box as tile features, placed for tile (x, y).
  private tileFeatures(
    level: Level,
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
    x: number,
    y: number,
    z2: number,
    out: TileFeature<P, C>[],
  ): void {
    const ids = this.scratch;
    const count = rangeInto(level.grid, minX, minY, maxX, maxY, ids);
    const { extent, generateId } = this.options;
    const numPoints = this.hierarchy.numPoints;
    for (let k = 0; k < count; k++) {
      const i = ids[k]!;
      const ref = level.ref[i]!;
      let px: number;
      let py: number;
      let f: TileFeature<P, C>;
      if (ref >= numPoints) {
        px = level.x[i]! / SCALE + 0.5;
        py = level.y[i]! / SCALE + 0.5;
        f = {
          type: 1,
          geometry: [[0, 0]],
          tags: clusterProperties(level, i, this.reduced[ref - numPoints]),
          id: ref,
        };
      } else {
        const point = this.points[ref]!;
        const c = point.geometry.coordinates;
        px = lngX(c[0]!);
        py = latY(c[1]!);
        f = { type: 1, geometry: [[0, 0]], tags: point.properties };
        const id = generateId ? ref : point.id;
        if (id !== undefined) f.id = id;
      }
      f.geometry[0] = [Math.round(extent * (px * z2 - x)), Math.round(extent * (py * z2 - y))];
      out.push(f);
    }
  }
}

// Fresh output arrays for a zoom of at most n items.
function arrays(n: number): LevelArrays {
  return {
    n: 0,
    x: new Int32Array(n),
    y: new Int32Array(n),
    num: new Int32Array(n),
    ref: new Int32Array(n),
  };
}
