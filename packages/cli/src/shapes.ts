// What the command asks of quadkit/geo: features checked and tested in batches through a
// GeoIndex (so every shape test is the library's own), their bounding boxes, and great-circle
// distances. Errors from the library name a feature by its place in the batch; they are
// rewritten here to name the file and line or feature it came from.
import type { StaticQuadtree } from 'quadkit';
import { type Feature as GeoFeature, GeoIndex, geoNearestInto, haversine } from 'quadkit/geo';
import { CliError } from './errors.js';
import { type Feature, type Place, placeText } from './feature.js';

/** A checked batch of features: the library's index over them and where each came from. */
export interface Batch {
  index: GeoIndex;
  features: Feature[];
  places: readonly Place[];
}

/**
 * Checks a batch of features and indexes them; bad GeoJSON is a CliError naming the feature's
 * file and place.
 * @param features - the features.
 * @param places - where each came from (`cities.ndjson:13`).
 */
export function checkBatch(features: Feature[], places: readonly Place[]): Batch {
  try {
    return { index: GeoIndex.from(features as unknown as GeoFeature[]), features, places };
  } catch (e) {
    const message = (e as Error).message.replace(/^quadkit: /, '');
    const at = /features\[(\d+)\]\.?/.exec(message);
    if (at === null || !(e instanceof TypeError || e instanceof RangeError)) throw e;
    const place = placeText(places[Number(at[1])]);
    throw new CliError(`${place}: ${message.replace(at[0], '')}`);
  }
}

/** A query the command tests features against. */
export type Shape =
  | { kind: 'bbox'; west: number; south: number; east: number; north: number }
  | { kind: 'point'; lon: number; lat: number };

/**
 * The positions (in the batch) of the features that meet the shape, in increasing order.
 * @param batch - a checked batch.
 * @param shape - a box (west > east crosses the antimeridian) or a point.
 */
export function matching(batch: Batch, shape: Shape): number[] {
  if (shape.kind === 'point') {
    const out: number[] = [];
    const n = batch.index.containingInto(shape.lon, shape.lat, out);
    out.length = n;
    return out;
  }
  const found = batch.index.intersectingBox(shape.west, shape.south, shape.east, shape.north);
  const position = new Map(batch.index.features.map((f, i) => [f, i]));
  return found.map((f) => position.get(f)!).sort((a, b) => a - b);
}

/**
 * The position (in the batch) of the first polygon containing the point, or -1.
 * @param batch - a checked batch of polygons.
 * @param lon - the point's longitude; `lat` its latitude.
 * @param out - scratch for the library's answer.
 */
export function firstContaining(batch: Batch, lon: number, lat: number, out: number[]): number {
  return batch.index.containingInto(lon, lat, out) === 0 ? -1 : out[0]!;
}

/**
 * The bounding box [west, south, east, north] of a checked feature's geometry (a null geometry
 * has none: it is an error for an index that must find it again).
 * @param feature - a feature that passed {@link checkBatch}.
 * @param place - where it came from.
 */
export function featureBox(feature: Feature, place: Place): [number, number, number, number] {
  const box: [number, number, number, number] = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  // An explicit stack over nested coordinate arrays and geometry collections.
  const stack: unknown[] = [feature.geometry];
  while (stack.length > 0) {
    const value = stack.pop() as { coordinates?: unknown; geometries?: unknown } | unknown[];
    if (Array.isArray(value)) {
      if (typeof value[0] === 'number') {
        const [x, y] = value as number[];
        if (x! < box[0]) box[0] = x!;
        if (y! < box[1]) box[1] = y!;
        if (x! > box[2]) box[2] = x!;
        if (y! > box[3]) box[3] = y!;
      } else for (const v of value) stack.push(v);
    } else if (value !== null && typeof value === 'object') {
      if (Array.isArray(value.geometries)) for (const g of value.geometries) stack.push(g);
      else stack.push(value.coordinates);
    }
  }
  if (!(box[0] <= box[2]))
    throw new CliError(
      `${placeText(place)}: the feature has no coordinates (a null or empty geometry)`,
    );
  return box;
}

/**
 * The longitude and latitude of a Point feature; anything else is an error saying `why`.
 * @param feature - the feature.
 * @param place - where it came from.
 * @param why - what needs points.
 */
export function pointOf(feature: Feature, place: Place, why: string): [number, number] {
  const g = feature.geometry;
  const c = g?.coordinates as unknown[] | undefined;
  if (
    g?.type !== 'Point' ||
    !Array.isArray(c) ||
    typeof c[0] !== 'number' ||
    typeof c[1] !== 'number'
  )
    throw new CliError(
      `${placeText(place)}: ${why}, got ${g === null ? 'a null geometry' : `a ${g?.type}`}`,
    );
  const lon = c[0];
  const lat = c[1];
  if (!Number.isFinite(lon) || !(lat >= -90 && lat <= 90))
    throw new CliError(
      `${placeText(place)}: a point needs a finite longitude and a latitude in [-90, 90], got [${lon}, ${lat}]`,
    );
  return [lon, lat];
}

/** Great-circle distance in kilometres (haversine on the mean Earth radius). */
export const greatCircleKm = (lon1: number, lat1: number, lon2: number, lat2: number): number =>
  haversine(lon1, lat1, lon2, lat2);

/**
 * The k points of a packed tree of points nearest to (lon, lat) by great-circle distance, within
 * maxKm, nearest first.
 * @param tree - a StaticQuadtree whose items are points at (lon, lat).
 * @param lon - the query's longitude; `lat` its latitude.
 * @param k - how many at most (Infinity: all within maxKm).
 * @param maxKm - the farthest distance.
 */
export function nearestPoints(
  tree: StaticQuadtree<number>,
  lon: number,
  lat: number,
  k: number,
  maxKm: number,
): { indices: number[]; distances: Float64Array } {
  const room = Math.min(k, tree.size);
  const indices = new Array<number>(room);
  const distances = new Float64Array(room);
  const n = geoNearestInto(tree, lon, lat, room, maxKm, indices, distances);
  indices.length = n;
  return { indices, distances: distances.subarray(0, n) };
}
