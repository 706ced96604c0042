// quadkit join POINTS POLYGONS: the polygons go into an index in memory; the points stream past
// it, each tagged with the polygon that contains it (the first in the polygons' file order) or
// counted per polygon.
import { CliError } from '../errors.js';
import { type Feature, type InputFlags, readFeatures, readWithProgress } from '../input.js';
import type { Io } from '../io.js';
import { featureWriter, type OutputFormat } from '../output.js';
import { checkBatch, firstContaining, pointOf } from '../shapes.js';
import { displayName } from '../stdin.js';

/** Options of `quadkit join`. */
export interface JoinOptions extends InputFlags {
  count?: boolean;
  property?: string;
  as?: string;
  format: OutputFormat;
  fullPrecision?: boolean;
}

/**
 * Joins points to the polygons that contain them.
 * @param pointsFile - the points.
 * @param polygonsFile - the polygons.
 * @param options - the command's options.
 * @param io - where the answer goes (stdout), what `-` reads.
 */
export async function runJoin(
  pointsFile: string,
  polygonsFile: string,
  options: JoinOptions,
  io: Io,
): Promise<void> {
  // The polygons: read whole into an index (they are the small side of a join).
  const polygons: Feature[] = [];
  const places: string[] = [];
  for await (const { feature, where } of readFeatures(polygonsFile, { stdin: io.stdin })) {
    polygons.push(feature);
    places.push(where);
  }
  const index = checkBatch(polygons, places);
  const scratch: number[] = [];
  const property =
    options.property ??
    (polygons.some((p) => p.properties?.name !== undefined) ? 'name' : undefined);
  if (property !== undefined && !polygons.some((p) => p.properties?.[property] !== undefined))
    throw new CliError(
      `${displayName(polygonsFile)}: no polygon has a property "${property}" (--property)`,
    );
  // The point property that receives the value: --as, else the property's name, unless the
  // points may have one of that name already (a city's own `name`): then `polygon_<name>`.
  const as = options.as ?? (property === undefined ? 'polygon' : `polygon_${property}`);

  // The points: streamed, each looked up once.
  const counts = new Float64Array(polygons.length);
  const fullPrecision = options.fullPrecision === true;
  const writer = options.count ? null : featureWriter(io.stdout, options.format, { fullPrecision });
  for await (const run of readWithProgress(pointsFile, options, 'joining', io)) {
    for (const { feature, where } of run) {
      const [lon, lat] = pointOf(feature, where, 'join takes point features on its first file');
      const found = firstContaining(index, lon, lat, scratch);
      if (found >= 0) counts[found]!++;
      if (writer === null) continue;
      const value =
        found < 0
          ? null
          : property === undefined
            ? found
            : (polygons[found]!.properties?.[property] ?? null);
      await writer.write({
        ...feature,
        properties: { ...(feature.properties ?? {}), [as]: value },
      });
    }
  }
  if (writer !== null) return writer.end();

  // --count: the polygons with the number of points in each.
  const out = featureWriter(io.stdout, options.format, { geometry: false, fullPrecision });
  for (let i = 0; i < polygons.length; i++) {
    const polygon = polygons[i]!;
    await out.write({
      ...polygon,
      properties: { ...(polygon.properties ?? {}), point_count: counts[i]! },
    });
  }
  await out.end();
}
