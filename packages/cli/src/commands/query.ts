// quadkit query FILE|FILE.qk|FILE.fgb: one query, the matching features to stdout.
// On a .qk file the packed tree gives the candidates and only they are read from disk; so does
// a FlatGeobuf file's R-tree for every query (for --near and --within, over points); on a data
// file the features stream past an exact test, so no file has to fit in memory.
import { geoSearchBox } from 'quadkit/geo';
import { CliError } from '../errors.js';
import type { Feature } from '../feature.js';
import { batches, type InputFlags, readWithProgress } from '../input.js';
import type { Io } from '../io.js';
import { featureWriter, type OutputFormat } from '../output.js';
import { checkBatch, greatCircleKm, matching, nearestPoints, pointOf } from '../shapes.js';

/** Options of `quadkit query`. */
export interface QueryOptions extends InputFlags {
  bbox?: number[];
  point?: number[];
  near?: number[];
  k: number;
  maxKm: number;
  within?: number[];
  format: OutputFormat;
  fullPrecision?: boolean;
}

type Write = (feature: Feature) => Promise<void>;

/** One query, checked: a box, a point, or a great-circle neighbourhood. */
type Query =
  | { kind: 'bbox'; west: number; south: number; east: number; north: number }
  | { kind: 'point'; lon: number; lat: number }
  | { kind: 'near'; lon: number; lat: number; k: number; maxKm: number };

/**
 * Runs one query over a file or an index and writes the matching features to stdout: for
 * `--near` and `--within` nearest first (with `distance_km` in their properties), else in file
 * order.
 * @param file - a .qk index or a data file.
 * @param options - the command's options.
 * @param io - where the answer goes (stdout), what `-` reads.
 */
export async function runQuery(file: string, options: QueryOptions, io: Io): Promise<void> {
  const query = checkQuery(options);
  const writer = featureWriter(io.stdout, options.format, {
    fullPrecision: options.fullPrecision === true,
    distance: DISTANCE,
  });
  const write = (feature: Feature) => writer.write(feature);
  if (file.endsWith('.qk')) await queryIndex(file, query, write);
  else if (!file.toLowerCase().endsWith('.fgb') || !(await queryFgb(file, query, write)))
    await queryStream(file, query, options, io, write);
  await writer.end();
}

function checkQuery(options: QueryOptions): Query {
  const given = ['bbox', 'point', 'near', 'within'].filter(
    (name) => options[name as keyof QueryOptions] !== undefined,
  );
  if (given.length !== 1)
    throw new CliError(
      `query needs exactly one of --bbox, --point, --near, --within (got ${given.length === 0 ? 'none' : given.map((g) => `--${g}`).join(', ')})`,
    );
  const lonLat = (lon: number, lat: number, flag: string) => {
    if (lon < -180 || lon > 180 || lat < -90 || lat > 90)
      throw new CliError(`${flag}: longitude must be in [-180, 180] and latitude in [-90, 90]`);
  };
  if (options.bbox !== undefined) {
    const [west, south, east, north] = options.bbox as [number, number, number, number];
    lonLat(west, south, '--bbox');
    lonLat(east, north, '--bbox');
    if (south > north) throw new CliError(`--bbox: south (${south}) is above north (${north})`);
    return { kind: 'bbox', west, south, east, north };
  }
  if (options.point !== undefined) {
    const [lon, lat] = options.point as [number, number];
    lonLat(lon, lat, '--point');
    return { kind: 'point', lon, lat };
  }
  if (options.near !== undefined) {
    const [lon, lat] = options.near as [number, number];
    lonLat(lon, lat, '--near');
    return { kind: 'near', lon, lat, k: options.k, maxKm: options.maxKm };
  }
  const [lon, lat, km] = options.within as [number, number, number];
  lonLat(lon, lat, '--within');
  if (!(km >= 0)) throw new CliError(`--within: the radius must be 0 km or more, got ${km}`);
  return { kind: 'near', lon, lat, k: Number.POSITIVE_INFINITY, maxKm: km };
}

// A .qk index: candidates from the tree, then the exact test on the features read from disk.
async function queryIndex(file: string, query: Query, write: Write): Promise<void> {
  // (The packed tree's module is loaded only for an index.)
  const { QkFile } = await import('../store.js');
  const qk = await QkFile.open(file);
  try {
    if (query.kind === 'near') {
      if (!qk.header.points)
        throw new CliError(
          `${file}: --near and --within need an index of points (${qk.header.source} has other geometries)`,
        );
      const { indices, distances } = nearestPoints(
        qk.tree,
        query.lon,
        query.lat,
        query.k,
        query.maxKm,
      );
      for (let i = 0; i < indices.length; i++)
        await write(withDistance(await qk.feature(indices[i]!), distances[i]!));
      return;
    }
    const candidates =
      query.kind === 'point'
        ? qk.tree.searchPoint(query.lon, query.lat)
        : geoSearchBox(qk.tree, query.west, query.south, query.east, query.north);
    candidates.sort((a, b) => a - b);
    const features = await qk.features(candidates);
    const batch = checkBatch(
      features,
      candidates.map((i) => `${file}: feature ${i}`),
    );
    for (const i of matching(batch, query)) await write(features[i]!);
  } finally {
    await qk.close();
  }
}

// A FlatGeobuf file: candidates from its R-tree (a box crossing 180° searched as two), then the
// exact test; the nearest points by a best-first walk of the tree. False for a file without an
// index (written without one by GDAL or the flatgeobuf package), for --near over other
// geometries, and for an index holding a box off the globe: it is then read whole (which names
// what is not a point, or off the globe).
async function queryFgb(file: string, query: Query, write: Write): Promise<boolean> {
  const { FgbFile } = await import('../fgb.js');
  const fgb = await FgbFile.open(file);
  try {
    if (!fgb.indexed) return false;
    if (query.kind === 'near') {
      if (!fgb.points) return false;
      const { lon, lat } = query;
      const found = await fgb.nearest(lon, lat, query.k, query.maxKm, (x, y) =>
        greatCircleKm(lon, lat, x, y),
      );
      if (found === null) return false;
      for (let i = 0; i < found.features.length; i++)
        await write(withDistance(found.features[i]!, found.distances[i]!));
      return true;
    }
    const boxes =
      query.kind === 'point'
        ? [[query.lon, query.lat, query.lon, query.lat]]
        : query.west <= query.east
          ? [[query.west, query.south, query.east, query.north]]
          : [
              [query.west, query.south, 180, query.north],
              [-180, query.south, query.east, query.north],
            ];
    const seen = new Set<string>();
    for (const [minX, minY, maxX, maxY] of boxes as [number, number, number, number][]) {
      const found = await fgb.search(minX, minY, maxX, maxY);
      // (A feature found by both halves of a box is written once.)
      const keep = found.places.map((place) => !seen.has(place) && seen.add(place) !== null);
      const features = found.features.filter((_, i) => keep[i]);
      const places = found.places.filter((_, i) => keep[i]);
      const batch = checkBatch(features, places);
      for (const i of matching(batch, query)) await write(features[i]!);
    }
    return true;
  } finally {
    await fgb.close();
  }
}

// A data file: every feature is checked as it streams past; for --near only the k best so far
// are kept.
async function queryStream(
  file: string,
  query: Query,
  options: QueryOptions,
  io: Io,
  write: Write,
): Promise<void> {
  const kept: { feature: Feature; distance: number; order: number }[] = [];
  let order = 0;
  // No feature farther than this can be among the k nearest (the k-th distance at the last cut).
  let cut = Number.POSITIVE_INFINITY;
  const source = readWithProgress(file, options, 'querying', io);
  if (query.kind !== 'near') {
    for await (const { features, places } of batches(source))
      for (const i of matching(checkBatch(features, places), query)) await write(features[i]!);
    return;
  }
  for await (const run of source) {
    for (const sourced of run) {
      const { feature } = sourced;
      const at = pointOf(feature, sourced, '--near and --within need point features');
      const distance = greatCircleKm(query.lon, query.lat, at[0], at[1]);
      order++;
      if (distance > query.maxKm) continue;
      if (query.k === Number.POSITIVE_INFINITY) {
        kept.push({ feature, distance, order });
        continue;
      }
      if (distance > cut) continue;
      // Kept unsorted, and cut back to the k best whenever twice as many wait: O(n log k) in all
      // (inserting each in place was O(n k): -k 100000 over 1M points took a minute).
      kept.push({ feature, distance, order });
      if (kept.length >= 2 * query.k + 1024) {
        kept.sort(byDistance);
        kept.length = query.k;
        cut = kept[query.k - 1]!.distance;
      }
    }
  }
  kept.sort(byDistance);
  if (kept.length > query.k) kept.length = query.k;
  for (const k of kept) await write(withDistance(k.feature, k.distance));
}

// Nearest first, ties in file order.
function byDistance(a: { distance: number; order: number }, b: typeof a): number {
  return a.distance - b.distance || a.order - b.order;
}

/** The property that receives a feature's great-circle distance from the query, in km. */
export const DISTANCE = 'distance_km';

function withDistance(feature: Feature, distance: number): Feature {
  return { ...feature, properties: { ...(feature.properties ?? {}), [DISTANCE]: distance } };
}
