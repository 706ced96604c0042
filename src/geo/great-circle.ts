// Great-circle queries over any quadkit index whose items are placed by longitude (x) and
// latitude (y) in degrees: the engines' best-first walk under the GEO metric (engine/scan.ts),
// which keys nodes by a lower bound on the haversine of the distance to their box and points by
// its exact value (geometry/sphere.ts). Kilometres come out at the end, once per answer.

import { GEO } from '../engine/scan.js';
import { InvalidTypeError } from '../errors.js';
import { distanceOfHav, havBoxBound, havOfDistance, havPoints } from '../geometry/sphere.js';
import type { QueryIndex } from '../queries.js';
import {
  checkCount,
  checkFinite,
  checkFunction,
  checkNonNegative,
  checkPositive,
  checkRange,
  maxDistanceOf,
} from '../validate.js';

/** The mean Earth radius in kilometres, (2a + b) / 3 of WGS 84 (IUGG, Moritz 2000). */
export const EARTH_RADIUS_KM = 6371.0088;

const RAD = Math.PI / 180;

// The GEO query numbers: lon, lat, cos(lat), unused, largest haversine kept (see scan.ts).
const Q = new Float64Array(5);
// The haversines of `geoNearest`'s answers (it returns only the items).
const HAVS: number[] = [];

/**
 * The great-circle distance between two lon/lat points in degrees, by the haversine formula, on a
 * sphere of radius `radius` (default the mean Earth radius, 6371.0088 km). Longitudes wrap;
 * latitudes are clamped to [-90, 90].
 *
 * @param lon1 - the first point's longitude; `lat1` its latitude.
 * @param lon2 - the second point's longitude; `lat2` its latitude.
 * @param radius - the sphere's radius; the distance comes in its unit (default kilometres).
 */
export function haversine(
  lon1: number,
  lat1: number,
  lon2: number,
  lat2: number,
  radius = EARTH_RADIUS_KM,
): number {
  const lat = lat1 > 90 ? 90 : lat1 < -90 ? -90 : lat1;
  return distanceOfHav(havPoints(lon1, lat, Math.cos(lat * RAD), lon2, lat2), radius);
}

/**
 * A lower bound on the great-circle distance from a lon/lat point to every point of the lon/lat
 * box from `west` to `east` and `south` to `north` (0 when the point is inside it), on a sphere of
 * radius `radius`: the bound `geoNearest` prunes nodes by, for best-first walks over trees of
 * your own (a FlatGeobuf file's R-tree, say). Never above the distance to any point of the box
 * (it is shrunk for rounding, by 0.4 m at most on the Earth); the distance itself, within that,
 * when the point's meridian crosses the box; beside it, a little below the distance (the term of
 * its nearer edge meridian is taken at its latitude farthest from the equator; after geokdbush's
 * `boxDist`).
 *
 * @param lon - the point's longitude in degrees (it wraps); `lat` its latitude, in [-90, 90].
 * @param west - the box's west longitude; `south`, `east`, `north` its other edges (west <= east;
 *   -90 <= south <= north <= 90). A box 360° wide or more spans every meridian.
 * @param radius - the sphere's radius (default 6371.0088, the mean Earth radius in km).
 */
export function geoBoxDistance(
  lon: number,
  lat: number,
  west: number,
  south: number,
  east: number,
  north: number,
  radius = EARTH_RADIUS_KM,
): number {
  checkQuery(lon, lat, radius);
  checkFinite('west', west);
  checkFinite('east', east);
  checkRange('south', south, -90, north);
  checkRange('north', north, south, 90);
  if (!(west <= east)) checkRange('east', east, west, Number.POSITIVE_INFINITY);
  return distanceOfHav(
    havBoxBound(lon, lat, Math.cos(lat * RAD), west, south, east, north),
    radius,
  );
}

// Checks a query's point and radius.
function checkQuery(lon: number, lat: number, radius: number): void {
  checkFinite('lon', lon);
  checkRange('lat', lat, -90, 90);
  checkPositive('radius', radius);
}

/**
 * Allocation-free `geoNearest`: writes the items nearest first to `items` and their great-circle
 * distances to `distances` (both from index 0, with room for k, or for every item within
 * `maxDistance` when k is Infinity), and returns how many.
 *
 * @param index - any quadkit index (PointQuadtree, StaticQuadtree, ...) whose items are placed
 * at x = longitude, y = latitude in degrees.
 * @param lon - the query's longitude in degrees (any finite value; it wraps).
 * @param lat - the query's latitude in degrees, in [-90, 90].
 * @param k - how many items at most: an integer >= 0, or Infinity for all within `maxDistance`.
 * @param maxDistance - farthest distance included (Infinity, null or undefined for none), in the
 * radius's unit.
 * @param items - receives the items.
 * @param distances - receives their distances.
 * @param radius - the sphere's radius (default 6371.0088, the mean Earth radius in km).
 * @param filter - keeps only the items it returns true for (see `geoNearest`).
 */
export function geoNearestInto<T>(
  index: QueryIndex<T>,
  lon: number,
  lat: number,
  k: number,
  maxDistance: number | null | undefined,
  items: T[],
  distances: Float64Array | number[],
  radius = EARTH_RADIUS_KM,
  filter?: (item: T) => unknown,
): number {
  const n = geoSearch(index, lon, lat, k, maxDistance, items, distances, radius, filter);
  const limit = maxDistanceOf(maxDistance);
  let kept = 0;
  while (kept < n) {
    const d = distanceOfHav(distances[kept]!, radius);
    if (d > limit) break;
    distances[kept++] = d;
  }
  return kept;
}

// The search of `geoNearestInto`: writes the items to `items` and the haversines of their
// central angles to `havs` (from index 0), and returns how many; the last ones may be beyond
// maxDistance once in distance units (the walk's limit is loosened for rounding).
function geoSearch<T>(
  index: QueryIndex<T>,
  lon: number,
  lat: number,
  k: number,
  maxDistance: number | null | undefined,
  items: T[],
  havs: Float64Array | number[],
  radius: number,
  filter: ((item: T) => unknown) | undefined,
): number {
  checkQuery(lon, lat, radius);
  checkCount('k', k);
  const limit = maxDistanceOf(maxDistance);
  Q[0] = lon;
  Q[1] = lat;
  Q[2] = Math.cos(lat * RAD);
  // The walk keeps haversines up to that of maxDistance, loosened for rounding.
  Q[4] = havOfDistance(limit, radius) * (1 + 1e-12) + 1e-15;
  return index.bestFirstInto(GEO, Q, k, items, havs, filter);
}

/**
 * The k items nearest to the lon/lat point by great-circle distance (to the item's point, or to
 * the nearest point of its bounds as a lon/lat box), nearest first; only items within
 * `maxDistance`, and only those `filter` returns true for when it is given (geokdbush's
 * `around(index, lng, lat, maxResults, maxDistance, predicate)` order). Exact: items are ranked
 * by the haversine formula's value (the haversine of the central angle, a finer order than the
 * rounded distances it gives; equal values in insertion-slot order), as a scan over every item
 * would rank them, across the antimeridian and the poles; nodes are pruned by a lower bound that
 * never exceeds the value of anything inside.
 *
 * @param index - any quadkit index whose items are placed at x = longitude, y = latitude.
 * @param lon - the query's longitude in degrees (it wraps); `lat` its latitude, in [-90, 90].
 * @param k - how many items at most (default 1): an integer >= 0, or Infinity for all within
 * `maxDistance`, as `nearest` takes.
 * @param maxDistance - farthest distance included (default Infinity; null or undefined is
 * Infinity too), in the radius's unit.
 * @param radius - the sphere's radius (default 6371.0088, the mean Earth radius in km).
 */
export function geoNearest<T>(
  index: QueryIndex<T>,
  lon: number,
  lat: number,
  k?: number,
  maxDistance?: number | null,
  radius?: number,
): T[];
/**
 * `geoNearest` keeping only the items `filter` returns true for: it is asked only about an item
 * that would enter the k best, nearest first, so a rejected item never counts and the search
 * goes on to the next. While it runs, this index cannot be queried or changed (other indexes
 * can).
 *
 * @param index - any quadkit index whose items are placed at x = longitude, y = latitude.
 * @param lon - the query's longitude in degrees (it wraps); `lat` its latitude, in [-90, 90].
 * @param k - how many items at most: an integer >= 0, or Infinity.
 * @param maxDistance - farthest distance included (Infinity, null or undefined for none), in the
 * radius's unit.
 * @param filter - keeps only the items it returns true for.
 * @param radius - the sphere's radius (default 6371.0088, the mean Earth radius in km).
 */
export function geoNearest<T>(
  index: QueryIndex<T>,
  lon: number,
  lat: number,
  k: number | undefined,
  maxDistance: number | null | undefined,
  filter: ((item: T) => unknown) | undefined,
  radius?: number,
): T[];
/**
 * `geoNearest` with its sixth argument typed as either a filter or the sphere's radius (a
 * number there is the radius, as in the first form; a radius after a number is refused).
 *
 * @param index - any quadkit index whose items are placed at x = longitude, y = latitude.
 * @param lon - the query's longitude in degrees (it wraps); `lat` its latitude, in [-90, 90].
 * @param k - how many items at most: an integer >= 0, or Infinity.
 * @param maxDistance - farthest distance included (Infinity, null or undefined for none), in the
 * radius's unit.
 * @param filterOrRadius - keeps only the items it returns true for, or the sphere's radius.
 * @param radius - the sphere's radius after a filter (default 6371.0088).
 */
export function geoNearest<T>(
  index: QueryIndex<T>,
  lon: number,
  lat: number,
  k: number | undefined,
  maxDistance: number | null | undefined,
  filterOrRadius: ((item: T) => unknown) | number | undefined,
  radius?: number,
): T[];
export function geoNearest<T>(
  index: QueryIndex<T>,
  lon: number,
  lat: number,
  k = 1,
  maxDistance: number | null = Number.POSITIVE_INFINITY,
  filterOrRadius?: ((item: T) => unknown) | number,
  radius?: number,
): T[] {
  checkCount('k', k);
  const r = radiusArgument('geoNearest', filterOrRadius, radius);
  const filter = filterArgument(filterOrRadius);
  // The answer grows as the search writes it, never sized from k or the index (a radius query,
  // k = Infinity, finds a few items of many); the haversines go to a scratch kept for the next
  // call, as long as the longest answer so far (a filter's own geoNearest calls finish before
  // this search writes it).
  const items: T[] = [];
  const radiusOf = r ?? EARTH_RADIUS_KM;
  let n = geoSearch(index, lon, lat, k, maxDistance, items, HAVS, radiusOf, filter);
  // Only the items, nearest first: no distance per answer, but those beyond maxDistance in
  // distance units (the last ones, if any) are cut, as geoNearestInto cuts them (geoWithin, 243
  // answers a query on the cities: 243 -> 1 or 2 asin per query).
  const limit = maxDistanceOf(maxDistance);
  if (limit < Number.POSITIVE_INFINITY) {
    while (n > 0 && distanceOfHav(HAVS[n - 1]!, radiusOf) > limit) n--;
  }
  items.length = n;
  return items;
}

/**
 * The radius of a `geoNearest` call whose argument after `maxDistance` is the radius (as before
 * filters) or the filter (as geokdbush's `around` takes it), then the radius; checks that
 * argument (a number, a function or undefined). The filter is that argument when it is not a
 * number (see `filterArgument`). No array per call, as a [filter, radius] pair would take.
 * @param method - the method, for the error message.
 * @param filterOrRadius - that argument.
 * @param radius - the argument after it.
 * @internal
 */
export function radiusArgument(
  method: string,
  filterOrRadius: ((...args: never[]) => unknown) | number | undefined,
  radius: number | undefined,
): number | undefined {
  if (typeof filterOrRadius === 'number') {
    if (radius !== undefined)
      throw new InvalidTypeError(
        `quadkit: ${method} got a radius twice (${filterOrRadius} and ${radius}); pass (…, k, maxDistance, filter, radius)`,
      );
    return filterOrRadius;
  }
  if (filterOrRadius !== undefined) checkFunction('filter', filterOrRadius);
  return radius;
}

/**
 * The filter of a call whose `filterOrRadius` argument `radiusArgument` checked: that argument
 * unless it is the radius.
 * @internal
 */
export function filterArgument<F>(filterOrRadius: F | number | undefined): F | undefined {
  return typeof filterOrRadius === 'number' ? undefined : filterOrRadius;
}

/**
 * Every item within great-circle distance `distance` of the lon/lat point, nearest first (see
 * `geoNearest`).
 *
 * @param index - any quadkit index whose items are placed at x = longitude, y = latitude.
 * @param lon - the query's longitude in degrees (it wraps); `lat` its latitude, in [-90, 90].
 * @param distance - the radius of the query circle on the sphere, in the radius's unit.
 * @param radius - the sphere's radius (default 6371.0088, the mean Earth radius in km).
 */
export function geoWithin<T>(
  index: QueryIndex<T>,
  lon: number,
  lat: number,
  distance: number,
  radius = EARTH_RADIUS_KM,
): T[] {
  checkNonNegative('distance', distance, true);
  return geoNearest(index, lon, lat, Number.POSITIVE_INFINITY, distance, radius);
}

/**
 * Items whose bounds overlap the lon/lat box from `west` to `east` and `south` to `north`
 * (closed). When west > east the box crosses the antimeridian: it is the two boxes
 * [west, 180] and [-180, east], and an item meeting both is listed once.
 *
 * @param index - any quadkit index whose items are placed at x = longitude, y = latitude.
 * @param west - the box's west longitude, in [-180, 180]; `east` likewise.
 * @param south - the box's south latitude; `north` its north (south <= north).
 */
export function geoSearchBox<T>(
  index: QueryIndex<T>,
  west: number,
  south: number,
  east: number,
  north: number,
): T[] {
  checkRange('west', west, -180, 180);
  checkRange('east', east, -180, 180);
  checkFinite('south', south);
  checkRange('north', north, south, Number.MAX_VALUE);
  const all = Number.POSITIVE_INFINITY;
  if (west <= east) return index.searchEdges(west, south, east, north, all);
  const found = index.searchEdges(west, south, 180, north, all);
  const seen = new Set<T>(found);
  for (const item of index.searchEdges(-180, south, east, north, all)) {
    if (!seen.has(item)) found.push(item);
  }
  return found;
}
