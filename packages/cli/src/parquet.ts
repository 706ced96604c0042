// Writes GeoParquet 1.1 (https://geoparquet.org/releases/v1.1.0/) through hyparquet-writer: the
// geometry as WKB, a `bbox` struct column (xmin, ymin, xmax, ymax) named by the `covering` of the
// `geo` metadata, a `quadkey` column at a chosen zoom (quadkit/geo's tiles), the properties as
// typed columns, and the rows in Hilbert order of their boxes' centres, in row groups of
// a given number of rows: each group covers a compact region, so DuckDB, Sedona and GDAL skip the groups
// whose bbox statistics miss a query's box.
//
// Memory: the boxes and offsets of the first pass and the Hilbert order, as for FlatGeobuf, plus
// one row group of features and its encoded columns at a time (written before the next is read).
import { rename, rm } from 'node:fs/promises';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import { lonLatToQuadkey } from 'quadkit/geo';
import { CliError } from './errors.js';
import { type ColumnKind, extentOf, type Gathered, inOrder } from './gathered.js';
import { hilbertOrder } from './hilbert.js';
import { createNow } from './signals.js';
import { WkbWriter } from './wkb.js';

/** The columns GeoParquet adds; a property of one of these names is refused. */
const OWN_COLUMNS = ['geometry', 'bbox', 'quadkey'];

type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];

const TYPES: Record<ColumnKind, Omit<SchemaElement, 'name'>> = {
  bool: { type: 'BOOLEAN' },
  int: { type: 'INT32' },
  double: { type: 'DOUBLE' },
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  json: { type: 'BYTE_ARRAY', converted_type: 'JSON' },
};

/**
 * Writes the gathered features as GeoParquet through a partial file beside `path`, renamed over
 * it at the end (nothing half-written is ever at `path`).
 * @param path - the .parquet file.
 * @param gathered - the features, from the first pass.
 * @param layout - `zoom`, the zoom of the quadkey column, and `rowGroup`, rows per row group.
 * @param partial - the partial file's path.
 */
export async function writeParquet(
  path: string,
  gathered: Gathered,
  layout: { zoom: number; rowGroup: number },
  partial: string,
): Promise<void> {
  const { zoom, rowGroup } = layout;
  const { count, boxes, columns, geometryTypes } = gathered;
  for (const name of OWN_COLUMNS)
    if (columns.kinds.has(name))
      throw new CliError(
        `${path}: the features have a property "${name}", the name of a GeoParquet column of its own; rename the property first`,
      );
  const extent = extentOf(boxes);
  const order = hilbertOrder(boxes, extent);
  const properties = [...columns.kinds];
  const schema: SchemaElement[] = [
    { name: 'root', num_children: 3 + properties.length },
    { name: 'geometry', type: 'BYTE_ARRAY', repetition_type: 'REQUIRED' },
    { name: 'bbox', repetition_type: 'REQUIRED', num_children: 4 },
    ...['xmin', 'ymin', 'xmax', 'ymax'].map(
      (name): SchemaElement => ({ name, type: 'DOUBLE', repetition_type: 'REQUIRED' }),
    ),
    { name: 'quadkey', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    ...properties.map(
      ([name, kind]): SchemaElement => ({ name, ...TYPES[kind], repetition_type: 'OPTIONAL' }),
    ),
  ];
  const geo = {
    version: '1.1.0',
    primary_column: 'geometry',
    columns: {
      geometry: {
        encoding: 'WKB',
        geometry_types: [...geometryTypes].sort(),
        ...(count > 0 ? { bbox: extent } : {}),
        covering: {
          bbox: {
            xmin: ['bbox', 'xmin'],
            ymin: ['bbox', 'ymin'],
            xmax: ['bbox', 'xmax'],
            ymax: ['bbox', 'ymax'],
          },
        },
      },
    },
  };
  createNow(partial);
  let done = false;
  try {
    const features = inOrder(gathered, order);
    const wkb = new WkbWriter();
    const writer = new ParquetWriter({
      writer: fileWriter(partial),
      schema,
      kvMetadata: [{ key: 'geo', value: JSON.stringify(geo) }],
      createdBy: 'quadkit',
    });
    // One row group at a time: its features read in Hilbert order, turned into columns, written.
    for (let first = 0; first < count; first += rowGroup) {
      const n = Math.min(rowGroup, count - first);
      const geometry: Uint8Array[] = new Array(n);
      const bbox: Record<string, number>[] = new Array(n);
      const quadkey: string[] = new Array(n);
      const values = properties.map(() => new Array<unknown>(n));
      for (let r = 0; r < n; r++) {
        const i = order[first + r]!;
        const feature = features.next().value!;
        geometry[r] = wkb.write(feature.geometry as never);
        const [xmin, ymin, xmax, ymax] = boxes.subarray(4 * i, 4 * i + 4) as unknown as number[];
        bbox[r] = { xmin: xmin!, ymin: ymin!, xmax: xmax!, ymax: ymax! };
        quadkey[r] = lonLatToQuadkey((xmin! + xmax!) / 2, (ymin! + ymax!) / 2, zoom);
        const given = feature.properties ?? {};
        for (let c = 0; c < properties.length; c++) {
          // (The writer keeps a json column's values as their JSON texts.)
          values[c]![r] = given[properties[c]![0]] ?? null;
        }
      }
      await writer.write({
        columnData: [
          { name: 'geometry', data: geometry },
          { name: 'bbox', data: bbox },
          { name: 'quadkey', data: quadkey },
          ...properties.map(([name], c) => ({ name, data: values[c]! })),
        ],
        rowGroupSize: rowGroup,
      });
    }
    await writer.finish();
    done = true;
  } finally {
    if (!done) await rm(partial, { force: true });
  }
  try {
    await rename(partial, path);
  } catch (e) {
    await rm(partial, { force: true });
    throw new CliError(
      `${path}: cannot write the file there (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}
