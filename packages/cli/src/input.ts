// Readers of GeoJSON (a FeatureCollection, an array of features, or one feature or geometry),
// newline-delimited GeoJSON and CSV, each turned into a stream of GeoJSON features with the place
// each one came from, so that errors can name it. Every format is streamed, in memory bounded by
// the largest feature (GeoJSON is cut into features by geojson-split.ts).
import { type FileHandle, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { splitCsv } from './csv.js';
import { CliError, openToRead } from './errors.js';
import { splitGeojson } from './geojson-split.js';
import type { Io } from './io.js';
import { splitLines } from './lines.js';
import { decimal } from './numbers.js';
import { progress } from './progress.js';
import { QK_MAGIC } from './qk-magic.js';
import { type Place, placeText } from './shapes.js';
import { STDIN, STDIN_NAME, spoolStdin } from './stdin.js';

/** A GeoJSON feature as read from a file (validated later, by the index that takes it). */
export interface Feature {
  type: 'Feature';
  geometry: { type: string; coordinates?: unknown; geometries?: unknown } | null;
  properties: Record<string, unknown> | null;
  [key: string]: unknown;
}

/** A feature and where it came from: `features[12]`, `line 13`. */
export interface Sourced {
  readonly feature: Feature;
  readonly where: string;
}

// A feature read from a file and its place there, line `at` (`path` null: NDJSON, CSV) or
// element `at` of the array at `path` (GeoJSON), made into text only when asked, for a message:
// a text per feature cost a million-row CSV file about as much as the rest of its reading.
class Row implements Sourced {
  feature!: Feature;
  constructor(
    private readonly file: string,
    private readonly path: string | null,
    private readonly at: number,
  ) {}

  get where(): string {
    return this.path === null
      ? `${this.file}:${this.at}`
      : `${this.file}: ${this.path}[${this.at}]`;
  }
}

/** Input formats the command reads. */
export type Format = 'geojson' | 'ndjson' | 'csv';

/** Options of {@link readFeatures}. */
export interface ReadOptions {
  /** The format; by default from the file's extension, then from its first bytes. */
  format?: Format | undefined;
  /** The longitude column of a CSV file (default: detected). */
  lon?: string | undefined;
  /** The latitude column of a CSV file (default: detected). */
  lat?: string | undefined;
  /** Called with the number of bytes read so far, for a progress bar. */
  onBytes?: ((bytes: number) => void) | undefined;
  /** What `-` reads (default: the process's standard input). */
  stdin?: Io['stdin'] | undefined;
}

const EXTENSIONS: Record<string, Format> = {
  '.geojson': 'geojson',
  '.json': 'geojson',
  '.ndjson': 'ndjson',
  '.geojsonl': 'ndjson',
  '.geojsons': 'ndjson',
  '.jsonl': 'ndjson',
  '.csv': 'csv',
  '.tsv': 'csv',
};

/** Column names taken for longitude and latitude, in order of preference (lower case). */
const LON_NAMES = ['lon', 'lng', 'long', 'longitude', 'x'];
const LAT_NAMES = ['lat', 'latitude', 'y'];

/**
 * The format of a file: from its extension, else from its first bytes (`{` or `[` opening a
 * JSON document, a second `{` on a later line meaning newline-delimited, other text CSV; a
 * compressed or binary file is an error).
 * @param file - the file's path.
 */
export async function detectFormat(file: string): Promise<Format> {
  const byExtension = EXTENSIONS[extname(file).toLowerCase()];
  if (byExtension !== undefined) return byExtension;
  const handle = await openToRead(file);
  try {
    const head = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const bytes = head.subarray(0, bytesRead);
    notText(file, bytes);
    const text = bytes.toString('utf8').trimStart();
    if (text.startsWith('[')) return 'geojson';
    if (text.startsWith('{')) {
      // A first line longer than the head: what follows its end decides.
      if (!text.includes('\n') && bytesRead === head.length)
        return (await oneValuePerLine(handle)) ? 'ndjson' : 'geojson';
      const lines = text.split('\n').filter((l) => l.trim() !== '');
      const first = lines[0]?.trim() ?? '';
      const isOneLine = first.endsWith('}') && (lines[1]?.trim().startsWith('{') ?? false);
      return isOneLine ? 'ndjson' : 'geojson';
    }
    return 'csv';
  } finally {
    await handle.close();
  }
}

// Whether a file whose first line is longer than detectFormat's head holds one JSON value per
// line: its first line ends with '}' and the next line that is not blank starts with '{' (else it
// is one document, all on one line or broken after a long first line). A sequential scan.
async function oneValuePerLine(handle: FileHandle): Promise<boolean> {
  const block = Buffer.alloc(1 << 20);
  const white = (c: number) => c === 10 || c === 13 || c === 32 || c === 9;
  let last = 0;
  let broken = false;
  for (let at = 0; ; ) {
    const { bytesRead } = await handle.read(block, 0, block.length, at);
    if (bytesRead === 0) return false;
    at += bytesRead;
    let i = 0;
    if (!broken) {
      const nl = block.subarray(0, bytesRead).indexOf(10);
      const end = nl < 0 ? bytesRead : nl;
      for (let j = end - 1; j >= 0; j--) {
        if (!white(block[j]!)) {
          last = block[j]!;
          break;
        }
      }
      if (nl < 0) continue;
      if (last !== 0x7d) return false;
      broken = true;
      i = nl;
    }
    for (; i < bytesRead; i++) if (!white(block[i]!)) return block[i] === 0x7b;
  }
}

// Refuses a file that is not text in UTF-8, saying what it is where that is known, instead of
// reading it as CSV (which would fail on some line, with words about columns). A NUL byte is not
// enough: a CSV field may hold one; binary formats have many (here: two or more, and at least
// one byte in 64), and compressed data is not valid UTF-8.
function notText(file: string, head: Buffer): void {
  const is = (what: string) => new CliError(`${file}: ${what}`);
  if (head[0] === 0x1f && head[1] === 0x8b)
    throw is('a gzip-compressed file; decompress it first (gunzip)');
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))
    throw is('UTF-16 text; convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)');
  if (head.subarray(0, QK_MAGIC.length).equals(QK_MAGIC))
    throw is('a quadkit index: `quadkit query` reads one, under a name that ends in .qk');
  let nul = 0;
  for (const byte of head) if (byte === 0) nul++;
  if (nul > 1 && nul * 64 >= head.length)
    throw is('not a text file (GeoJSON, newline-delimited GeoJSON or CSV)');
  // Compressed and other binary data are not valid UTF-8 (a sequence cut at the head's end is).
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    throw is(
      'not UTF-8 text (compressed or binary data, or another encoding: convert it, e.g. iconv -f LATIN1 -t UTF-8)',
    );
  }
}

/**
 * The features of a file, one at a time: streamed, never holding the file's text in memory (a
 * GeoJSON document that is one feature or geometry is read whole). `-` reads standard input
 * (named `stdin` in places and messages), through a scratch copy.
 * @param file - the file's path, or `-`.
 * @param options - `{ format, lon, lat, onBytes }`.
 */
export async function* readFeatures(
  file: string,
  options: ReadOptions = {},
): AsyncGenerator<Sourced> {
  for await (const run of readRuns(file, options)) for (const sourced of run) yield sourced;
}

/**
 * The features of a file as {@link readFeatures} gives them, in runs (those of a chunk of the
 * file): quicker to go through than one at a time.
 * @param file - the file's path, or `-`.
 * @param options - `{ format, lon, lat, onBytes }`.
 */
export async function* readRuns(
  file: string,
  options: ReadOptions = {},
): AsyncGenerator<Sourced[]> {
  if (file !== STDIN) {
    yield* readDisk(file, options);
    return;
  }
  const spool = await spoolStdin(options.stdin);
  const named = (text: string) => text.split(spool.path).join(STDIN_NAME);
  try {
    for await (const run of readDisk(spool.path, options))
      yield run.map(({ feature, where }) => ({ feature, where: named(where) }));
  } catch (e) {
    if (e instanceof CliError) e.message = named(e.message);
    throw e;
  } finally {
    spool.dispose();
  }
}

// readRuns of a file on disk.
async function* readDisk(file: string, options: ReadOptions): AsyncGenerator<Sourced[]> {
  // A file that cannot be read, or a folder, is named first (a folder opens, then fails on its
  // first read, which the streams below report too late or not at all).
  await (await openToRead(file)).close();
  // FlatGeobuf files are read by fgb.ts; GeoParquet is written, not read. Known by the name's
  // extension, or by the first bytes (standard input has no name).
  const ext = extname(file).toLowerCase();
  const binary = options.format === undefined ? await binaryKind(file, ext) : null;
  if (binary === 'fgb') {
    yield* (await import('./fgb.js')).readFgb(file, options.onBytes);
    return;
  }
  if (binary === 'parquet')
    throw new CliError(
      `${file}: GeoParquet is written by quadkit index, not read; give GeoJSON, NDJSON, CSV or FlatGeobuf`,
    );
  const format = options.format ?? (await detectFormat(file));
  // (Column flags on a file that has no columns are a mistake, not something to ignore.)
  const column = options.lon !== undefined ? '--lon' : options.lat !== undefined ? '--lat' : null;
  if (format !== 'csv' && column !== null)
    throw new CliError(`${column} applies to CSV input; ${file} is read as ${format}`);
  if (format === 'geojson') {
    checkGeojsonStart(file, await firstChar(file));
    yield* readGeojson(file, options.onBytes);
    return;
  }
  if (format === 'ndjson') {
    yield* readNdjson(file, options.onBytes);
    return;
  }
  const delimiter = extname(file).toLowerCase() === '.tsv' ? '\t' : await sniffDelimiter(file);
  yield* readCsv(file, options, delimiter);
}

// Newline-delimited GeoJSON: one feature or geometry per line; blank lines are skipped.
async function* readNdjson(
  file: string,
  onBytes: ((bytes: number) => void) | undefined,
): AsyncGenerator<Sourced[]> {
  for await (const { texts, numbers, end } of splitLines(file)) {
    const run: Sourced[] = [];
    for (let i = 0; i < texts.length; i++) {
      let value: unknown;
      try {
        value = JSON.parse(texts[i]!);
      } catch (e) {
        throw new CliError(`${file}:${numbers[i]}: not valid JSON (${(e as Error).message})`);
      }
      const row = new Row(file, null, numbers[i]!);
      row.feature = asFeature(value, row);
      run.push(row);
    }
    yield run;
    onBytes?.(end);
  }
}

// GeoJSON: the elements of `features` (or of a top-level array), cut from the file's bytes and
// parsed a chunk's worth at a time; a document without such an array is one feature or geometry.
// `onBytes` hears how far the features given out reach into the file.
async function* readGeojson(
  file: string,
  onBytes: ((bytes: number) => void) | undefined,
): AsyncGenerator<Sourced[]> {
  const { size } = await stat(file);
  for await (const { path, first, values, end } of splitGeojson(file)) {
    if (path === null) {
      yield [documentFeature(file, values[0])];
      continue;
    }
    const run: Sourced[] = new Array(values.length);
    for (let j = 0; j < values.length; j++) {
      const row = new Row(file, path, first + j);
      row.feature = asFeature(values[j], row);
      run[j] = row;
    }
    yield run;
    onBytes?.(end);
  }
  onBytes?.(size);
}

// A GeoJSON document that holds no array of features: one feature or one geometry, else an
// error saying what it is.
function documentFeature(file: string, value: unknown): Sourced {
  const type = (value as { type?: unknown } | null)?.type;
  if (type === 'FeatureCollection')
    throw new CliError(`${file}: a FeatureCollection needs a "features" array`);
  if (type === 'Topology') {
    const names = Object.keys((value as { objects?: object }).objects ?? {});
    throw new CliError(
      `${file}: a TopoJSON topology (objects: ${names.join(', ') || 'none'}), not GeoJSON; ` +
        `convert the object you want first, e.g. npx -p topojson-client topo2geo ${names[0] ?? 'NAME'}=out.geojson < ${file}`,
    );
  }
  return { feature: asFeature(value, file), where: file };
}

function checkGeojsonStart(file: string, first: string): void {
  if (first !== '{' && first !== '[')
    throw new CliError(`${file}: not a GeoJSON file (it starts with ${JSON.stringify(first)})`);
}

// 'fgb' or 'parquet' for a FlatGeobuf or Parquet file (by its extension, else by its magic
// bytes: "fgb" 3 "fgb", or "PAR1"), else null.
async function binaryKind(file: string, ext: string): Promise<'fgb' | 'parquet' | null> {
  if (ext === '.fgb') return 'fgb';
  if (ext === '.parquet') return 'parquet';
  const handle = await openToRead(file);
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await handle.read(head, 0, 8, 0);
    const text = head.subarray(0, bytesRead).toString('latin1');
    if (bytesRead >= 7 && text.startsWith('fgb') && text.slice(4, 7) === 'fgb') return 'fgb';
    return text.startsWith('PAR1') ? 'parquet' : null;
  } finally {
    await handle.close();
  }
}

async function firstChar(file: string): Promise<string> {
  const handle = await openToRead(file);
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).toString('utf8').trimStart().charAt(0);
  } finally {
    await handle.close();
  }
}

// CSV: each row is a Point feature at its lon/lat columns, with the row as its properties.
async function* readCsv(
  file: string,
  options: ReadOptions,
  delimiter: string,
): AsyncGenerator<Sourced[]> {
  let columns: string[] | undefined;
  let lon = -1;
  let lat = -1;
  for await (const { records, lines, end } of splitCsv(file, delimiter)) {
    const run: Sourced[] = [];
    for (let r = 0; r < records.length; r++) {
      const row = records[r]!;
      if (columns === undefined) {
        columns = row;
        const lonName = pickColumn(file, columns, options.lon, LON_NAMES, 'longitude', '--lon');
        const latName = pickColumn(file, columns, options.lat, LAT_NAMES, 'latitude', '--lat');
        lon = columns.lastIndexOf(lonName);
        lat = columns.lastIndexOf(latName);
        continue;
      }
      const line = lines[r]!;
      if (row.length !== columns.length)
        throw new CliError(
          `${file}:${line}: ${row.length} ${row.length === 1 ? 'field' : 'fields'}, but the header has ${columns.length} columns`,
        );
      const x = parseCoordinate(row[lon], columns[lon]!, file, line, 180);
      const y = parseCoordinate(row[lat], columns[lat]!, file, line, 90);
      const properties: Record<string, unknown> = {};
      for (let c = 0; c < columns.length; c++)
        if (columns[c] !== columns[lon] && columns[c] !== columns[lat])
          properties[columns[c]!] = row[c];
      const sourced = new Row(file, null, line);
      sourced.feature = {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [x, y] },
        properties,
      };
      run.push(sourced);
    }
    yield run;
    options.onBytes?.(end);
  }
}

function pickColumn(
  file: string,
  columns: string[],
  given: string | undefined,
  names: string[],
  what: string,
  flag: string,
): string {
  if (given !== undefined) {
    if (!columns.includes(given))
      throw new CliError(
        `${file}: no column "${given}" (${flag}); the columns are ${columns.join(', ')}`,
      );
    return given;
  }
  for (const name of names) {
    const found = columns.find((c) => c.toLowerCase() === name);
    if (found !== undefined) return found;
  }
  throw new CliError(
    `${file}: no ${what} column found (looked for ${names.join(', ')}); name it with ${flag} ` +
      `(the columns are ${columns.join(', ')})`,
  );
}

// The number in a coordinate column, in [-limit, limit] (180 for longitude, 90 for latitude),
// of line `line` of `file`.
function parseCoordinate(
  text: string | undefined,
  column: string,
  file: string,
  line: number,
  limit: number,
): number {
  const value = text === undefined ? Number.NaN : decimal(text.trim());
  if (!Number.isFinite(value))
    throw new CliError(
      `${file}:${line}: column "${column}" must be a number, got ${JSON.stringify(text)}`,
    );
  if (!(Math.abs(value) <= limit))
    throw new CliError(
      `${file}:${line}: column "${column}" must be in [-${limit}, ${limit}] (${limit === 90 ? 'a latitude' : 'a longitude'} in degrees), got ${text}`,
    );
  return value;
}

// The delimiter of a CSV file, from its first line: the most frequent of comma, semicolon, tab
// and bar outside quotes (a comma when none is there). One delimiter, not any of them: a
// comma-separated file may hold a semicolon or a bar in an unquoted field.
async function sniffDelimiter(file: string): Promise<string> {
  let head = '';
  try {
    const handle = await openToRead(file);
    try {
      const buffer = Buffer.alloc(65536);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      head = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return ',';
  }
  const counts = new Map<string, number>();
  let quoted = false;
  for (const ch of head) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t' || ch === '|'))
      counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  for (const [ch, n] of counts) if (n > (counts.get(best) ?? 0)) best = ch;
  return best;
}

// Throws naming the place when a position of the geometry lies off the globe: a longitude
// outside [-180, 180] or a latitude outside [-90, 90] (the commands measure great circles and
// tiles in degrees; a latitude of 91 would be read as 89). Anything not a position array is left
// to the library's checks.
function checkLonLat(geometry: unknown, place: Place): void {
  if (geometry === null || typeof geometry !== 'object') return;
  const g = geometry as { coordinates?: unknown; geometries?: unknown };
  if (Array.isArray(g.geometries)) for (const part of g.geometries) checkLonLat(part, place);
  checkPositions(g.coordinates, place);
}

// The positions in nested arrays of any depth (a polygon's rings: one loop over each ring's
// positions, not a stack of every position).
function checkPositions(c: unknown, place: Place): void {
  if (!Array.isArray(c)) return;
  if (typeof c[0] === 'number') {
    checkPosition(c, place);
    return;
  }
  for (let i = 0; i < c.length; i++) {
    const p: unknown = c[i];
    if (Array.isArray(p) && typeof p[0] === 'number') {
      const x = p[0] as number;
      const y = p[1] as number;
      if (!(Math.abs(x) <= 180 && Math.abs(y) <= 90)) checkPosition(p, place);
    } else checkPositions(p, place);
  }
}

function checkPosition(c: unknown[], place: Place): void {
  const [x, y] = c as number[];
  if (!(Math.abs(x!) <= 180 && Math.abs(y!) <= 90) && Number.isFinite(x) && Number.isFinite(y))
    throw new CliError(
      `${placeText(place)}: position [${x}, ${y}] is off the globe (longitude in [-180, 180], latitude in [-90, 90])`,
    );
}

// A feature, or a bare geometry wrapped in one; anything else is an error naming the place.
function asFeature(value: unknown, place: Place): Feature {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new CliError(
      `${placeText(place)}: expected a GeoJSON feature or geometry, got ${kind(value)}`,
    );
  const type = (value as { type?: unknown }).type;
  if (type === 'Feature') {
    const f = value as Feature;
    if (f.properties === undefined) f.properties = null;
    checkLonLat((f as { geometry?: unknown }).geometry, place);
    return f;
  }
  if (typeof type === 'string' && type !== 'FeatureCollection') {
    checkLonLat(value, place);
    return { type: 'Feature', geometry: value as Feature['geometry'], properties: null };
  }
  throw new CliError(
    `${placeText(place)}: expected a GeoJSON feature or geometry, got type ${JSON.stringify(type)}`,
  );
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

/**
 * Groups runs of features (see {@link readRuns}) into arrays of at most `size`, with their places.
 * @param source - the runs of features.
 * @param size - the largest batch.
 */
export async function* batches(
  source: AsyncIterable<Sourced[]>,
  size = 4096,
): AsyncGenerator<{ features: Feature[]; places: Place[] }> {
  let features: Feature[] = [];
  let places: Place[] = [];
  for await (const run of source) {
    for (const sourced of run) {
      features.push(sourced.feature);
      places.push(sourced);
      if (features.length === size) {
        yield { features, places };
        features = [];
        places = [];
      }
    }
  }
  if (features.length > 0) yield { features, places };
}

/** The input flags every command shares. */
export interface InputFlags {
  inputFormat?: Format;
  lon?: string;
  lat?: string;
  quiet?: boolean;
}

/**
 * Streams a file's features in runs (see {@link readRuns}) with a progress bar on stderr
 * labelled `label`, removed when the stream ends or fails.
 * @param file - the file's path.
 * @param flags - the command's input flags.
 * @param label - what is being done (`indexing`).
 * @param io - standard input (for `-`) and standard error (for the bar).
 */
export async function* readWithProgress(
  file: string,
  flags: InputFlags,
  label: string,
  io: Io,
): AsyncGenerator<Sourced[]> {
  // (Standard input has no size to show progress against.)
  const { size } = file === STDIN ? { size: 0 } : await stat(file).catch(() => ({ size: 0 }));
  const bar = await progress(`${label} ${basename(file)}`, size, flags.quiet, io.stderr);
  try {
    yield* readRuns(file, {
      format: flags.inputFormat,
      lon: flags.lon,
      lat: flags.lat,
      onBytes: (b) => bar.update(b),
      stdin: io.stdin,
    });
  } finally {
    bar.stop();
  }
}
