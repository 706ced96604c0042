// GeoIndex: GeoJSON features in a StaticQuadtree over the bounding boxes of their parts, with
// exact shape tests (parts.ts) on the candidates the tree finds.

import { boxDistance } from '../geometry/rect.js';
import { StaticQuadtree } from '../static-quadtree.js';
import {
  checkCount,
  checkFinite,
  checkFunction,
  checkNonNegative,
  checkOptions,
  checkRange,
  maxDistanceOf,
} from '../validate.js';
import { type Feature, type GeoInput, type Parts, readGeoJson } from './geojson.js';
import { EARTH_RADIUS_KM, filterArgument, geoNearestInto, radiusArgument } from './great-circle.js';
import { AT_POINT, IN_BOX, IN_CIRCLE, ON_SEGMENT, partDistance, partMeets } from './parts.js';

/** What `GeoIndex.toJSON()` gives: a summary, never the features. */
export interface GeoIndexSummary {
  /** Always `'GeoIndex'`. */
  kind: 'GeoIndex';
  /** Number of features. */
  size: number;
  /** Number of parts (points, lines, polygons) the features were split into. */
  parts: number;
  /** The settings. */
  options: {
    /** Children per node of the tree over the parts' boxes. */
    nodeSize: number;
  };
}

/** Options of {@link GeoIndex.from}. */
export interface GeoIndexOptions {
  /** Children per node of the tree over the parts (default 16). */
  nodeSize?: number | undefined;
}

/** A feature found by `GeoIndex.nearest` or `geoNearest`, with its distance. */
export interface FeatureHit<P> {
  /** The feature found, as given in the input. */
  feature: Feature<P>;
  /** The feature's position in the input. */
  index: number;
  /**
   * `nearest`: planar distance in degrees to the feature's geometry (0 inside); `geoNearest`:
   * great-circle distance (see there).
   */
  distance: number;
}

/**
 * A filter of `GeoIndex.nearest` and `geoNearest`: keeps the features it returns true for.
 * @param feature - the feature, as given in the input.
 * @param index - its position in the input.
 */
export type FeatureFilter<P> = (feature: Feature<P>, index: number) => unknown;

/**
 * An immutable index of GeoJSON features (Point, MultiPoint, LineString, MultiLineString,
 * Polygon with holes, MultiPolygon, GeometryCollection). Each geometry is split into parts (one
 * per point, line and polygon) and a StaticQuadtree holds their bounding boxes; queries test the
 * candidates' real shapes exactly and return the features, each once, in input order.
 *
 * Geometry is planar in longitude/latitude degrees, as in turf's boolean functions: edges are
 * straight lines in lon/lat, a circle's radius and `nearest`'s distances are in degrees. Closed
 * sets: a point on a polygon's boundary (outer ring or hole) is in it, and touching counts.
 *
 * @typeParam P - the features' properties.
 */
export class GeoIndex<P = Record<string, unknown> | null> {
  /** The features, in input order (geometries given alone are wrapped, `properties: null`). */
  readonly features: readonly Feature<P>[];
  private readonly parts: Parts;
  private readonly tree: StaticQuadtree<number>;
  // Candidate parts of the last query, then the features found (by index).
  private candidates: number[] = [];
  private found: number[] = [];
  // seen[f] === stamp: feature f already found by this query.
  private readonly seen: Int32Array;
  private stamp = 0;

  private constructor(features: Feature<P>[], parts: Parts, options: GeoIndexOptions) {
    this.features = features;
    this.parts = parts;
    this.tree = StaticQuadtree.fromBoxes(parts.box, options);
    this.seen = new Int32Array(features.length);
  }

  /**
   * Builds an index from GeoJSON: a FeatureCollection, an array of features, or an array of
   * geometries. The whole input is checked first: bad GeoJSON (a wrong type, a missing or
   * non-numeric coordinate, NaN or Infinity, a line of fewer than 2 positions, a ring of fewer
   * than 4 or not closed) throws a TypeError or RangeError naming where it is
   * (`features[12].geometry.coordinates[0][3]`) and what is wrong, and nothing is built. A
   * feature with a null geometry is kept and matches no query.
   * @param input - the GeoJSON.
   * @param options - `{ nodeSize = 16 }`.
   */
  static from<P = Record<string, unknown> | null>(
    input: GeoInput<P>,
    options: GeoIndexOptions = {},
  ): GeoIndex<P> {
    const { nodeSize } = checkOptions(options, 'GeoIndex.from', ['nodeSize'], true);
    const { features, parts } = readGeoJson(input);
    return new GeoIndex<P>(features, parts, nodeSize === undefined ? {} : { nodeSize });
  }

  /**
   * The k features nearest to the lon/lat point by great-circle distance (haversine, on a
   * sphere of `radius`, default the mean Earth radius in km) to their parts: exact for Point and
   * MultiPoint geometries; for a line or polygon part, the distance to the nearest point of its
   * bounding box (0 inside it), a lower bound of the distance to the shape. Nearest first (ties
   * as `geoNearest` breaks them); only features within `maxDistance`.
   * @param lon - the query's longitude in degrees (it wraps); `lat` its latitude, in [-90, 90].
   * @param k - how many (default 1), or Infinity for every feature within `maxDistance`.
   * @param maxDistance - farthest distance included, in the radius's unit (default Infinity;
   * null or undefined is Infinity too).
   * @param radius - the sphere's radius (default 6371.0088).
   */
  geoNearest(
    lon: number,
    lat: number,
    k?: number,
    maxDistance?: number | null,
    radius?: number,
  ): FeatureHit<P>[];
  /**
   * `geoNearest` keeping only the features `filter(feature, index)` returns true for, asked
   * once per feature the search reaches, nearest first; while it runs this index cannot be
   * queried (other indexes can).
   * @param lon - the query's longitude in degrees (it wraps); `lat` its latitude, in [-90, 90].
   * @param k - how many, or Infinity for every feature within `maxDistance`.
   * @param maxDistance - farthest distance included, in the radius's unit (Infinity, null or
   * undefined: none).
   * @param filter - keeps the features it returns true for.
   * @param radius - the sphere's radius (default 6371.0088).
   */
  geoNearest(
    lon: number,
    lat: number,
    k: number | undefined,
    maxDistance: number | null | undefined,
    filter: FeatureFilter<P> | undefined,
    radius?: number,
  ): FeatureHit<P>[];
  /**
   * `geoNearest` with its fifth argument typed as either a filter or the sphere's radius (a
   * number there is the radius, as in the first form; a radius after a number is refused).
   * @param lon - the query's longitude in degrees (it wraps); `lat` its latitude, in [-90, 90].
   * @param k - how many, or Infinity for every feature within `maxDistance`.
   * @param maxDistance - farthest distance included, in the radius's unit (Infinity, null or
   * undefined: none).
   * @param filterOrRadius - keeps the features it returns true for, or the sphere's radius.
   * @param radius - the sphere's radius after a filter (default 6371.0088).
   */
  geoNearest(
    lon: number,
    lat: number,
    k: number | undefined,
    maxDistance: number | null | undefined,
    filterOrRadius: FeatureFilter<P> | number | undefined,
    radius?: number,
  ): FeatureHit<P>[];
  geoNearest(
    lon: number,
    lat: number,
    k = 1,
    maxDistance: number | null = Number.POSITIVE_INFINITY,
    filterOrRadius?: FeatureFilter<P> | number,
    radius?: number,
  ): FeatureHit<P>[] {
    checkCount('k', k);
    const r = radiusArgument('GeoIndex.geoNearest', filterOrRadius, radius);
    const filter = filterArgument(filterOrRadius);
    if (k === 0) return [];
    const keep = this.partFilter(filter);
    const { parts, tree } = this;
    const total = parts.count;
    let want = Math.min(total, Math.max(16, k));
    for (;;) {
      // The `want` nearest parts; a feature's first part in that order is its nearest.
      // Both grow with the parts found, not with `want` (every part, for k = Infinity).
      const found: number[] = [];
      const dist: number[] = [];
      const n = geoNearestInto(tree, lon, lat, want, maxDistance, found, dist, r, keep);
      const hits: FeatureHit<P>[] = [];
      const seen = new Set<number>();
      for (let i = 0; i < n && hits.length < k; i++) {
        const index = parts.feature[found[i]!]!;
        if (seen.has(index)) continue;
        seen.add(index);
        hits.push({ feature: this.features[index]!, index, distance: dist[i]! });
      }
      if (hits.length === k || n < want || want === total) return hits;
      want = Math.min(total, 4 * want);
    }
  }

  /**
   * Every feature within great-circle distance `distance` of the lon/lat point, nearest first
   * (see `geoNearest`).
   * @param lon - the query's longitude in degrees; `lat` its latitude, in [-90, 90].
   * @param distance - the radius of the query circle on the sphere, in the radius's unit.
   * @param radius - the sphere's radius (default 6371.0088).
   */
  geoWithin(lon: number, lat: number, distance: number, radius = EARTH_RADIUS_KM): FeatureHit<P>[] {
    checkNonNegative('distance', distance, true);
    return this.geoNearest(lon, lat, Number.POSITIVE_INFINITY, distance, radius);
  }

  /** Number of features. */
  get size(): number {
    return this.features.length;
  }

  /**
   * A small summary for `JSON.stringify` and logs, never the features:
   * `{ kind: 'GeoIndex', size, parts, options: { nodeSize } }` (`parts`: the points, lines and
   * polygons the features were split into).
   */
  toJSON(): GeoIndexSummary {
    return {
      kind: 'GeoIndex',
      size: this.size,
      parts: this.parts.count,
      options: { nodeSize: this.tree.nodeSize },
    };
  }

  /**
   * Features that contain the point (lon, lat): polygons holding it inside or on their boundary
   * (a point inside a hole is not in the polygon, one on the hole's edge is), lines passing
   * through it, points equal to it.
   */
  containing(lon: number, lat: number): Feature<P>[] {
    return this.list(this.containingInto(lon, lat, this.found));
  }

  /**
   * Allocation-free `containing`: writes the features' indices (positions in `features`) to
   * `out` from index 0, in increasing order, and returns how many.
   */
  containingInto(lon: number, lat: number, out: number[]): number {
    checkFinite('lon', lon);
    checkFinite('lat', lat);
    const n = this.tree.searchPointInto(lon, lat, this.candidates);
    return this.refine(this.candidates, n, AT_POINT, lon, lat, 0, 0, out);
  }

  /**
   * Features whose geometry meets the lon/lat box (closed). When west > east the box crosses the
   * antimeridian: it is the boxes [west, 180] and [-180, east].
   * @param west - the box's west edge; `south`, `east`, `north` likewise (south <= north).
   */
  intersectingBox(west: number, south: number, east: number, north: number): Feature<P>[] {
    checkFinite('west', west);
    checkFinite('east', east);
    checkFinite('south', south);
    checkRange('north', north, south, Number.MAX_VALUE);
    if (west > east) {
      const n = this.boxInto(west, south, 180, north, this.found, 0);
      return this.list(this.boxInto(-180, south, east, north, this.found, n));
    }
    return this.list(this.boxInto(west, south, east, north, this.found, 0));
  }

  /**
   * Features whose geometry meets the disc of centre (lon, lat) and radius `radius` in degrees
   * (planar, decided exactly).
   */
  intersectingCircle(lon: number, lat: number, radius: number): Feature<P>[] {
    checkFinite('lon', lon);
    checkFinite('lat', lat);
    checkNonNegative('radius', radius, false);
    const n = this.tree.searchCircleInto(lon, lat, radius, this.candidates);
    return this.list(this.refine(this.candidates, n, IN_CIRCLE, lon, lat, radius, 0, this.found));
  }

  /** Features whose geometry meets the segment (lon1, lat1)-(lon2, lat2) (planar, exact). */
  intersectingSegment(lon1: number, lat1: number, lon2: number, lat2: number): Feature<P>[] {
    checkFinite('lon1', lon1);
    checkFinite('lat1', lat1);
    checkFinite('lon2', lon2);
    checkFinite('lat2', lat2);
    const n = this.tree.searchSegmentInto(lon1, lat1, lon2, lat2, this.candidates);
    return this.list(
      this.refine(this.candidates, n, ON_SEGMENT, lon1, lat1, lon2, lat2, this.found),
    );
  }

  /**
   * The k features nearest to (lon, lat) by planar distance in degrees to their real geometry
   * (0 inside a polygon), nearest first, equal distances in input order; only those within
   * `maxDistance`. Parts come from the tree in order of their boxes' distance until no box is
   * nearer than the k-th feature found.
   * @param k - how many (default 1), or Infinity for every feature within `maxDistance`.
   * @param maxDistance - farthest distance included, in degrees (default Infinity; null or
   * undefined is Infinity too).
   * @param filter - keeps only the features `filter(feature, index)` returns true for, asked
   * once per feature the search reaches; while it runs this index cannot be queried.
   */
  nearest(
    lon: number,
    lat: number,
    k = 1,
    maxDistance: number | null = Number.POSITIVE_INFINITY,
    filter?: FeatureFilter<P>,
  ): FeatureHit<P>[] {
    checkFinite('lon', lon);
    checkFinite('lat', lat);
    checkCount('k', k);
    const limit = maxDistanceOf(maxDistance);
    if (filter !== undefined) checkFunction('filter', filter);
    const keep = this.partFilter(filter);
    const { parts, tree, candidates } = this;
    const total = parts.count;
    if (k === 0) return [];
    let want = Math.min(total, Math.max(16, 4 * k));
    for (;;) {
      // The `want` parts nearest by box, each feature at its nearest part's true distance.
      const n = tree.nearestInto(lon, lat, want, limit, candidates, undefined, keep);
      const best = new Map<number, number>();
      for (let i = 0; i < n; i++) {
        const p = candidates[i]!;
        const f = parts.feature[p]!;
        const d = partDistance(parts, p, lon, lat);
        if (d <= limit && !(best.get(f)! <= d)) best.set(f, d);
      }
      const hits = [...best]
        .sort((a, b) => a[1] - b[1] || a[0] - b[0])
        .slice(0, k)
        .map(([index, distance]) => ({ feature: this.features[index]!, index, distance }));
      // Done when every part was offered, or the farthest box seen is beyond the k-th feature.
      const b = 4 * candidates[n - 1]!;
      const reach =
        n === 0
          ? Number.POSITIVE_INFINITY
          : boxDistance(
              parts.box[b]!,
              parts.box[b + 1]!,
              parts.box[b + 2]!,
              parts.box[b + 3]!,
              lon,
              lat,
            );
      if (n < want || want === total || (hits.length === k && reach > hits[k - 1]!.distance))
        return hits;
      want = Math.min(total, 4 * want);
    }
  }

  // The tree's filter over parts for a filter over features: each feature asked once per query.
  private partFilter(
    filter: FeatureFilter<P> | undefined,
  ): ((part: number) => boolean) | undefined {
    if (filter === undefined) return undefined;
    const { parts, features } = this;
    const verdict = new Map<number, boolean>();
    return (part) => {
      const f = parts.feature[part]!;
      let keep = verdict.get(f);
      if (keep === undefined) {
        keep = !!filter(features[f]!, f);
        verdict.set(f, keep);
      }
      return keep;
    };
  }

  // Features (indices) meeting a box, appended to out from index m.
  private boxInto(
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
    out: number[],
    m: number,
  ): number {
    // By edges, not x + width: the box's east and north edges stay exact.
    const found = this.tree.searchEdges(minX, minY, maxX, maxY, Number.POSITIVE_INFINITY);
    return this.refine(found, found.length, IN_BOX, minX, minY, maxX, maxY, out, m);
  }

  // Tests the first n candidate parts of `list` exactly; writes the features met to out from index m (each once,
  // in increasing order from m on) and returns the new count.
  private refine(
    list: readonly number[],
    n: number,
    shape: number,
    a: number,
    b: number,
    c: number,
    d: number,
    out: number[],
    m = 0,
  ): number {
    const { parts, seen } = this;
    if (m === 0 && ++this.stamp === 0x7fffffff) {
      seen.fill(0);
      this.stamp = 1;
    }
    const stamp = this.stamp;
    let sorted = true;
    for (let i = 0; i < n; i++) {
      const p = list[i]!;
      const f = parts.feature[p]!;
      if (seen[f] === stamp || !partMeets(parts, p, shape, a, b, c, d)) continue;
      seen[f] = stamp;
      if (m > 0 && out[m - 1]! > f) sorted = false;
      out[m++] = f;
    }
    // Input order: one numeric sort at the end (inserting each in place was quadratic in the
    // answer: 135k cities in one box took seconds).
    if (!sorted) {
      const order = Int32Array.from(out.slice(0, m)).sort();
      for (let i = 0; i < m; i++) out[i] = order[i]!;
    }
    return m;
  }

  // The features of the first n indices of `found`, as a new array.
  private list(n: number): Feature<P>[] {
    const out = new Array<Feature<P>>(n);
    for (let i = 0; i < n; i++) out[i] = this.features[this.found[i]!]!;
    return out;
  }
}
