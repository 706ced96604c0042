// Readers of GeoJSON (a FeatureCollection, an array of features, or one feature or geometry),
// newline-delimited GeoJSON and CSV, each turned into a stream of GeoJSON features with the place
// each one came from, so that errors can name it. Every format is streamed, except GeoJSON files
// small enough to parse whole much faster (see wholeLimit).
import { createReadStream } from 'node:fs';
import { type FileHandle, readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { createInterface } from 'node:readline';
import type { Duplex, Readable } from 'node:stream';
import { getHeapStatistics } from 'node:v8';
import { parse as parseCsv } from 'csv-parse';
import { CliError, openToRead, unreadable } from './errors.js';
import type { Io } from './io.js';
import { decimal } from './numbers.js';
import { progress } from './progress.js';
import { QK_MAGIC } from './qk-magic.js';
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
  feature: Feature;
  where: string;
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
  /**
   * GeoJSON files of at most this many bytes are parsed whole, larger ones streamed (default:
   * 64 MiB, or less in a small heap; see `wholeLimit`).
   */
  wholeLimit?: number | undefined;
  /** What `-` reads (default: the process's standard input). */
  stdin?: Io['stdin'] | undefined;
}

/**
 * The largest GeoJSON file parsed whole: JSON.parse reads a FeatureCollection about 15x faster
 * than the streaming parser (the 135k cities, 20 MB: 0.4 s against 5.7 s), but holds the text
 * and every feature at once, several times the file's size. So: 64 MiB, and at most a
 * sixteenth of the heap this process may use; larger files are streamed.
 */
export function wholeLimit(): number {
  return Math.min(64 * 1024 * 1024, Math.floor(getHeapStatistics().heap_size_limit / 16));
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
 * The features of a file, one at a time: streamed, never holding the file's text in memory,
 * except a GeoJSON file of at most `wholeLimit` bytes, which is parsed whole. `-` reads standard
 * input (named `stdin` in places and messages), through a scratch copy.
 * @param file - the file's path, or `-`.
 * @param options - `{ format, lon, lat, onBytes, wholeLimit }`.
 */
export async function* readFeatures(
  file: string,
  options: ReadOptions = {},
): AsyncGenerator<Sourced> {
  if (file !== STDIN) {
    yield* readDisk(file, options);
    return;
  }
  const spool = await spoolStdin(options.stdin);
  const named = (text: string) => text.split(spool.path).join(STDIN_NAME);
  try {
    for await (const { feature, where } of readDisk(spool.path, options))
      yield { feature, where: named(where) };
  } catch (e) {
    if (e instanceof CliError) e.message = named(e.message);
    throw e;
  } finally {
    spool.dispose();
  }
}

// readFeatures of a file on disk.
async function* readDisk(file: string, options: ReadOptions): AsyncGenerator<Sourced> {
  // A file that cannot be read, or a folder, is named first (a folder opens, then fails on its
  // first read, which the streams below report too late or not at all).
  await (await openToRead(file)).close();
  const format = options.format ?? (await detectFormat(file));
  // (Column flags on a file that has no columns are a mistake, not something to ignore.)
  const column = options.lon !== undefined ? '--lon' : options.lat !== undefined ? '--lat' : null;
  if (format !== 'csv' && column !== null)
    throw new CliError(`${column} applies to CSV input; ${file} is read as ${format}`);
  // Read before the stream opens: once it flows, nothing may await before its consumer attaches.
  const first = format === 'geojson' ? await firstChar(file) : '';
  const delimiter =
    format !== 'csv'
      ? ','
      : extname(file).toLowerCase() === '.tsv'
        ? '\t'
        : await sniffDelimiter(file);
  if (format === 'geojson') {
    checkGeojsonStart(file, first);
    const { size } = await stat(file);
    if (size <= (options.wholeLimit ?? wholeLimit())) {
      yield* readWholeGeojson(file, size, options.onBytes);
      return;
    }
  }
  const input = createReadStream(file, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    input.once('open', () => resolve());
    input.once('error', (e: NodeJS.ErrnoException) => reject(unreadable(file, e)));
  });
  await opened;
  const { onBytes } = options;
  if (onBytes !== undefined) input.on('data', () => onBytes(input.bytesRead));
  try {
    if (format === 'csv') yield* readCsv(file, input, options, delimiter);
    else if (format === 'ndjson') yield* readNdjson(file, input);
    else yield* readGeojson(file, input, first);
  } finally {
    input.destroy();
  }
}

// Newline-delimited GeoJSON: one feature or geometry per line; blank lines are skipped.
async function* readNdjson(file: string, input: Readable): AsyncGenerator<Sourced> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const raw of lines) {
    line++;
    // (A byte order mark before the first line, as JSON.parse refuses it.)
    const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new CliError(`${file}:${line}: not valid JSON (${(e as Error).message})`);
    }
    yield { feature: asFeature(value, `${file}:${line}`), where: `${file}:${line}` };
  }
}

// GeoJSON: the elements of `features` (or of a top-level array) are parsed one by one; a
// single feature or geometry is read whole.
async function* readGeojson(file: string, input: Readable, first: string): AsyncGenerator<Sourced> {
  // (The streaming parser is loaded only for the files that need it, larger than wholeLimit.)
  const [{ default: parser }, { default: pick }, { default: streamArray }] = await Promise.all([
    import('stream-json'),
    import('stream-json/filters/pick.js'),
    import('stream-json/streamers/stream-array.js'),
  ]);
  // (readFeatures checked that `first` opens a JSON document.)
  // Each stage's error ends the last one, where the loop below reads it.
  // Values come packed, not piece by piece: a quarter faster, and no value is large.
  const stages: Duplex[] = [parser({ streamValues: false })];
  // Whether the picked `features` value opens with something else than an array, seen on its
  // first token (the array streamer then fails, in words of its own).
  let notAnArray = false;
  if (first === '{') {
    const features = pick.asStream({ filter: /^features$/ });
    features.once('data', (token: { name: string }) => {
      notAnArray = token.name !== 'startArray';
    });
    stages.push(features);
  }
  stages.push(streamArray.asStream());
  const elements = stages.reduce<Readable>((from, to) => from.pipe(to), input);
  for (const stage of [input, ...stages.slice(0, -1)])
    stage.on('error', (e: Error) => elements.destroy(e));
  const path = first === '[' ? '' : 'features';
  let count = 0;
  try {
    for await (const { key, value } of elements as AsyncIterable<{ key: number; value: unknown }>) {
      count++;
      const where = `${file}: ${path}[${key}]`;
      yield { feature: asFeature(value, where), where };
    }
  } catch (e) {
    if (e instanceof CliError) throw e;
    // A `features` member that is not an array (a feature's foreign member, or a collection
    // refused in the words of the whole-file reader): read whole, below.
    if (!(count === 0 && notAnArray))
      throw new CliError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  // A GeoJSON object without a `features` array: one feature or one geometry (or an empty
  // FeatureCollection), read whole.
  if (count === 0 && first === '{') yield* readWholeGeojson(file, 0, undefined);
}

// A GeoJSON file parsed whole (see wholeLimit): the same features, named the same way, as the
// streaming reader gives. The text is dropped once parsed; `onBytes` hears the share of the
// file's `size` read so far, by features given out.
async function* readWholeGeojson(
  file: string,
  size: number,
  onBytes: ((bytes: number) => void) | undefined,
): AsyncGenerator<Sourced> {
  yield* elementsOf(file, parseJson(file, await readText(file)), size, onBytes);
}

// The features of a parsed GeoJSON document: the elements of a top-level array or of a
// `features` array, else the document itself as one feature or geometry (an empty
// FeatureCollection has none).
function* elementsOf(
  file: string,
  value: unknown,
  size: number,
  onBytes: ((bytes: number) => void) | undefined,
): Generator<Sourced> {
  const type = (value as { type?: unknown } | null)?.type;
  // (A feature's foreign member named `features` is not a list of features.)
  const features = Array.isArray(value)
    ? value
    : type === 'Feature'
      ? undefined
      : (value as { features?: unknown } | null)?.features;
  const path = Array.isArray(value) ? '' : 'features';
  if (Array.isArray(features)) {
    const n = features.length;
    for (let k = 0; k < n; k++) {
      const where = `${file}: ${path}[${k}]`;
      const feature = asFeature(features[k], where);
      // Given out, the element is no longer held here.
      features[k] = undefined;
      if (onBytes !== undefined && (k % 4096 === 0 || k === n - 1))
        onBytes(Math.round((size * (k + 1)) / n));
      yield { feature, where };
    }
    return;
  }
  onBytes?.(size);
  if (type === 'FeatureCollection')
    throw new CliError(`${file}: a FeatureCollection needs a "features" array`);
  if (type === 'Topology') {
    const names = Object.keys((value as { objects?: object }).objects ?? {});
    throw new CliError(
      `${file}: a TopoJSON topology (objects: ${names.join(', ') || 'none'}), not GeoJSON; ` +
        `convert the object you want first, e.g. npx -p topojson-client topo2geo ${names[0] ?? 'NAME'}=out.geojson < ${file}`,
    );
  }
  yield { feature: asFeature(value, file), where: file };
}

// The text of a file, without a byte order mark (which JSON.parse refuses).
async function readText(file: string): Promise<string> {
  try {
    const text = await readFile(file, 'utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (e) {
    throw unreadable(file, e);
  }
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file}: not valid JSON (${(e as Error).message})`);
  }
}

function checkGeojsonStart(file: string, first: string): void {
  if (first !== '{' && first !== '[')
    throw new CliError(`${file}: not a GeoJSON file (it starts with ${JSON.stringify(first)})`);
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
  input: Readable,
  options: ReadOptions,
  delimiter: string,
): AsyncGenerator<Sourced> {
  const rows = input.pipe(
    parseCsv({
      columns: true,
      info: true,
      delimiter,
      bom: true,
      skip_empty_lines: true,
      trim: true,
    }),
  );
  let lon: string | undefined;
  let lat: string | undefined;
  try {
    for await (const { info, record: row } of rows as AsyncIterable<{
      info: { lines: number };
      record: Record<string, string>;
    }>) {
      // The line on which the record ends (a quoted field may span lines).
      const line = info.lines;
      if (lon === undefined || lat === undefined) {
        const columns = Object.keys(row);
        lon = pickColumn(file, columns, options.lon, LON_NAMES, 'longitude', '--lon');
        lat = pickColumn(file, columns, options.lat, LAT_NAMES, 'latitude', '--lat');
      }
      const where = `${file}:${line}`;
      const x = parseCoordinate(row[lon], lon, where, 180);
      const y = parseCoordinate(row[lat], lat, where, 90);
      const properties: Record<string, unknown> = {};
      for (const key in row) if (key !== lon && key !== lat) properties[key] = row[key];
      yield {
        feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [x, y] }, properties },
        where,
      };
    }
  } catch (e) {
    if (e instanceof CliError) throw e;
    const line = (e as { lines?: number }).lines;
    throw new CliError(`${file}${line === undefined ? '' : `:${line}`}: ${(e as Error).message}`);
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

// The number in a coordinate column, in [-limit, limit] (180 for longitude, 90 for latitude).
function parseCoordinate(
  text: string | undefined,
  column: string,
  where: string,
  limit: number,
): number {
  const value = text === undefined ? Number.NaN : decimal(text.trim());
  if (!Number.isFinite(value))
    throw new CliError(
      `${where}: column "${column}" must be a number, got ${JSON.stringify(text)}`,
    );
  if (!(Math.abs(value) <= limit))
    throw new CliError(
      `${where}: column "${column}" must be in [-${limit}, ${limit}] (${limit === 90 ? 'a latitude' : 'a longitude'} in degrees), got ${text}`,
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
function checkLonLat(geometry: unknown, where: string): void {
  if (geometry === null || typeof geometry !== 'object') return;
  const g = geometry as { coordinates?: unknown; geometries?: unknown };
  if (Array.isArray(g.geometries)) for (const part of g.geometries) checkLonLat(part, where);
  const stack: unknown[] = [g.coordinates];
  while (stack.length > 0) {
    const c = stack.pop();
    if (!Array.isArray(c)) continue;
    if (typeof c[0] === 'number') {
      const [x, y] = c as number[];
      if (!(Math.abs(x!) <= 180 && Math.abs(y!) <= 90) && Number.isFinite(x) && Number.isFinite(y))
        throw new CliError(
          `${where}: position [${x}, ${y}] is off the globe (longitude in [-180, 180], latitude in [-90, 90])`,
        );
      continue;
    }
    for (const inner of c) stack.push(inner);
  }
}

// A feature, or a bare geometry wrapped in one; anything else is an error naming the place.
function asFeature(value: unknown, where: string): Feature {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new CliError(`${where}: expected a GeoJSON feature or geometry, got ${kind(value)}`);
  const type = (value as { type?: unknown }).type;
  if (type === 'Feature') {
    const f = value as Feature;
    if (f.properties === undefined) f.properties = null;
    checkLonLat((f as { geometry?: unknown }).geometry, where);
    return f;
  }
  if (typeof type === 'string' && type !== 'FeatureCollection') {
    checkLonLat(value, where);
    return { type: 'Feature', geometry: value as Feature['geometry'], properties: null };
  }
  throw new CliError(
    `${where}: expected a GeoJSON feature or geometry, got type ${JSON.stringify(type)}`,
  );
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

/**
 * Groups a stream of features into arrays of at most `size`, with their places.
 * @param source - the features.
 * @param size - the largest batch.
 */
export async function* batches(
  source: AsyncIterable<Sourced>,
  size = 4096,
): AsyncGenerator<{ features: Feature[]; places: string[] }> {
  let features: Feature[] = [];
  let places: string[] = [];
  for await (const { feature, where } of source) {
    features.push(feature);
    places.push(where);
    if (features.length === size) {
      yield { features, places };
      features = [];
      places = [];
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
 * Streams a file's features (see {@link readFeatures}) with a progress bar on stderr labelled
 * `label`, removed when the stream ends or fails.
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
): AsyncGenerator<Sourced> {
  // (Standard input has no size to show progress against.)
  const { size } = file === STDIN ? { size: 0 } : await stat(file).catch(() => ({ size: 0 }));
  const bar = await progress(`${label} ${basename(file)}`, size, flags.quiet, io.stderr);
  try {
    yield* readFeatures(file, {
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
