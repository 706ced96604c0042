// Writers for the command's answers: a GeoJSON FeatureCollection, newline-delimited GeoJSON, or
// CSV (points as lon/lat columns, other geometries as a GeoJSON column, then the properties).
// Each writer waits for the stream to drain, so a large answer never piles up in memory.
// JSON output keeps every number exact; CSV, a table people read, rounds coordinates and
// distances to what they can mean (see READABLE), unless asked for full precision.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { CliError } from './errors.js';
import type { Feature } from './feature.js';
import { READABLE } from './numbers.js';

/** Output formats. */
export type OutputFormat = 'geojson' | 'ndjson' | 'csv';

/** Writes features to a stream in one format. */
export interface FeatureWriter {
  /** Writes one feature. */
  write(feature: Feature): Promise<void>;
  /** Ends the document (the FeatureCollection's closing bracket). */
  end(): Promise<void>;
}

/** How CSV output writes its numbers. */
export interface CsvOptions {
  /**
   * Whether rows carry the geometry (lon/lat or a GeoJSON column); a table of polygons'
   * properties reads better without it. Default true.
   */
  geometry?: boolean;
  /** Every digit of coordinates and distances, as JSON output has them. Default false. */
  fullPrecision?: boolean;
  /** The property that holds a distance in kilometres (rounded to the metre). */
  distance?: string;
}

/**
 * A writer of features in `format` to `out`.
 * @param out - the stream, usually stdout.
 * @param format - `geojson`, `ndjson` or `csv`.
 * @param csv - how CSV rows are written (JSON output is always exact).
 */
export function featureWriter(
  out: Writable,
  format: OutputFormat,
  csv: CsvOptions = {},
): FeatureWriter {
  if (format === 'ndjson') return lineWriter(out, (f) => `${JSON.stringify(f)}\n`);
  if (format === 'csv') return csvWriter(out, csv);
  let first = true;
  const lines = lineWriter(out, (f) => {
    const text = `${first ? '' : ',\n'}${JSON.stringify(f)}`;
    first = false;
    return text;
  });
  let opened = false;
  return {
    async write(feature) {
      if (!opened) await put(out, '{"type":"FeatureCollection","features":[\n');
      opened = true;
      await lines.write(feature);
    },
    async end() {
      if (!opened) await put(out, '{"type":"FeatureCollection","features":[\n');
      await put(out, '\n]}\n');
    },
  };
}

function lineWriter(out: Writable, text: (f: Feature) => string): FeatureWriter {
  return {
    write: (feature) => put(out, text(feature)),
    end: async () => {},
  };
}

// CSV: the columns are fixed by the first feature; a later feature with a property the header
// lacks is an error rather than a silently dropped value.
// Values as they read in JSON: true and false, not csv-stringify's 1 and ''.
const CSV = { cast: { boolean: (value: boolean) => String(value) } };

// A coordinate rounded to READABLE.degrees decimals, written in as few digits as it needs (2.35,
// not 2.350000: the data's own precision shows).
function degrees(value: unknown): unknown {
  return typeof value === 'number' ? Number(value.toFixed(READABLE.degrees)) : value;
}

// A distance in kilometres to the metre, always with its 3 decimals (12.300 km).
function kilometres(value: unknown): unknown {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(READABLE.km) : value;
}

function csvWriter(out: Writable, options: CsvOptions): FeatureWriter {
  const geometry = options.geometry ?? true;
  const exact = options.fullPrecision ?? false;
  let columns: string[] | null = null;
  let point = false;
  return {
    async write(feature) {
      const properties = feature.properties ?? {};
      if (columns === null) {
        point = feature.geometry?.type === 'Point';
        const lead = !geometry ? [] : point ? ['lon', 'lat'] : ['geometry'];
        const clash = lead.find((c) => Object.hasOwn(properties, c));
        if (clash !== undefined)
          throw new CliError(
            `CSV output: a property is named "${clash}", as a column of the geometry is; use --format ndjson`,
          );
        columns = [...lead, ...Object.keys(properties)];
        await put(out, stringify([columns], CSV));
      }
      const isPoint = feature.geometry?.type === 'Point';
      if (geometry && isPoint !== point)
        throw new CliError(
          'CSV output needs every feature to be a point or every feature not; use --format ndjson',
        );
      for (const key of Object.keys(properties))
        if (!columns.includes(key))
          throw new CliError(
            `CSV output: property "${key}" is not in the first feature's columns; use --format ndjson`,
          );
      const row: unknown[] = [];
      if (geometry && point) {
        const [lon, lat] = (feature.geometry?.coordinates as number[] | undefined) ?? [];
        row.push(exact ? lon : degrees(lon), exact ? lat : degrees(lat));
      } else if (geometry) row.push(JSON.stringify(feature.geometry));
      for (let i = row.length; i < columns.length; i++) {
        const column = columns[i]!;
        const value = properties[column];
        if (column === options.distance && !exact) row.push(kilometres(value));
        else row.push(value !== null && typeof value === 'object' ? JSON.stringify(value) : value);
      }
      await put(out, stringify([row], CSV));
    },
    end: async () => {},
  };
}

/**
 * Writes text and waits for the stream to drain when its buffer is full.
 * @param out - the stream.
 * @param text - what to write.
 */
export async function put(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}
