// Input checks of the clusterer: options, points and boxes. Each throws a RangeError or TypeError
// naming the field and the value.

import { badField, InvalidTypeError } from '../errors.js';
import {
  checkFlag,
  checkFunction,
  checkInteger,
  checkOptions,
  checkPositive,
  checkRange,
} from '../validate.js';
import type { PointFeature } from './features.js';

/** Options of `Clusterer`: supercluster's names, defaults and meaning. */
export interface ClustererOptions<P, C> {
  /** The lowest zoom that gets clusters (default 0). */
  minZoom?: number | undefined;
  /** The highest zoom that gets clusters (default 16, at most 30); above it every point stands alone. */
  maxZoom?: number | undefined;
  /** The fewest points a cluster may hold (default 2). */
  minPoints?: number | undefined;
  /** The cluster radius in pixels (default 40). */
  radius?: number | undefined;
  /** The tile extent in pixels, the unit of `radius` (default 512). */
  extent?: number | undefined;
  /** Accepted for compatibility with supercluster (its k-d tree's leaf size); the grids have none. */
  nodeSize?: number | undefined;
  /** getTile gives points their index in the input as `id` (default false: the feature's `id`). */
  generateId?: boolean | undefined;
  /** The properties of a point that the reduce sums up (default: the point's properties). */
  map?: ((properties: P) => C) | undefined;
  /** Folds `properties` (mapped from a point, or a cluster's) into a cluster's `accumulated`. */
  reduce?: ((accumulated: C, properties: C) => void) | null | undefined;
}

const KNOWN = [
  'minZoom',
  'maxZoom',
  'minPoints',
  'radius',
  'extent',
  'nodeSize',
  'generateId',
  'map',
  'reduce',
];

/** The options with their defaults filled in. */
export type FullOptions<P, C> = {
  readonly [K in Exclude<keyof ClustererOptions<P, C>, 'reduce'>]-?: Exclude<
    ClustererOptions<P, C>[K],
    undefined
  >;
} & {
  /** Folds a point's or cluster's mapped properties into the accumulated ones; null: no reduce. */
  readonly reduce: ((accumulated: C, properties: C) => void) | null;
};

/**
 * Checks the options and fills in the defaults; throws naming a bad or unknown option.
 * @param options - the constructor's options.
 */
export function readOptions<P, C>(options: ClustererOptions<P, C>): FullOptions<P, C> {
  checkOptions(options, 'Clusterer', KNOWN, false);
  const {
    minZoom = 0,
    maxZoom = 16,
    minPoints = 2,
    radius = 40,
    extent = 512,
    nodeSize = 64,
    generateId = false,
    map = (p: P) => p as unknown as C,
    reduce = null,
  } = options;
  checkInteger('options.maxZoom', maxZoom, 0, 30);
  checkInteger('options.minZoom', minZoom, 0, maxZoom);
  checkInteger('options.minPoints', minPoints, 1, 0x7fffffff);
  checkPositive('options.radius (pixels)', radius);
  checkPositive('options.extent (pixels)', extent);
  checkInteger('options.nodeSize', nodeSize, 2, 65536);
  checkFlag('options.generateId', generateId);
  checkFunction('options.map', map);
  if (reduce !== null) checkFunction('options.reduce', reduce);
  return { minZoom, maxZoom, minPoints, radius, extent, nodeSize, generateId, map, reduce };
}

/**
 * A longitude moved into [-180, 180).
 * @param lng - degrees.
 */
export function wrapLng(lng: number): number {
  return ((((lng + 180) % 360) + 360) % 360) - 180;
}

/**
 * The [longitude, latitude] of input point i, checked.
 * @param point - the feature.
 * @param i - its index, for the message.
 */
export function coordinatesOf(point: unknown, i: number): number[] {
  const p = point as PointFeature<unknown> | null | undefined;
  if (p === null || typeof p !== 'object')
    throw new InvalidTypeError(
      `quadkit: points[${i}] must be a GeoJSON Point feature, got ${String(p)}`,
    );
  const g = p.geometry;
  if (g === null || typeof g !== 'object' || g.type !== 'Point') {
    throw new InvalidTypeError(
      `quadkit: points[${i}].geometry must be a GeoJSON Point { type: 'Point', coordinates: [lng, lat] }, got ${g === null || typeof g !== 'object' ? String(g) : `type ${JSON.stringify(g.type)}`}`,
    );
  }
  const c = g.coordinates;
  if (!Array.isArray(c) || c.length < 2)
    throw new InvalidTypeError(
      `quadkit: points[${i}].geometry.coordinates must be [longitude, latitude]`,
    );
  const lng = c[0]!;
  if (typeof lng !== 'number' || !(lng >= -180 && lng <= 180)) {
    badField(
      `points[${i}].geometry.coordinates[0] (longitude)`,
      lng,
      'a number from -180 to 180',
      '; wrap it first: ((lng + 180) % 360 + 360) % 360 - 180',
    );
  }
  checkRange(`points[${i}].geometry.coordinates[1] (latitude)`, c[1]!, -90, 90);
  return c;
}
