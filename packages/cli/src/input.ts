// Readers of GeoJSON (a FeatureCollection, an array of features, or one feature or geometry),
// newline-delimited GeoJSON and CSV, each turned into a stream of GeoJSON features with the place
// each one came from, so that errors can name it. Every format is streamed, in memory bounded by
// the largest feature (GeoJSON is cut into features by geojson-split.ts, CSV rows made features
// by csv-features.ts; feature.ts checks each one).
import { type FileHandle, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { readCsv, sniffDelimiter } from './csv-features.js';
import { CliError, openToRead } from './errors.js';
import { asFeature, type Feature, type Place, Row, type Sourced } from './feature.js';
import { splitGeojson } from './geojson-split.js';
import type { Io } from './io.js';
import { parseBytes } from './json-pieces.js';
import { splitLines } from './lines.js';
import { progress } from './progress.js';
import { QK_MAGIC } from './qk-magic.js';
import { STDIN, STDIN_NAME, spoolStdin } from './stdin.js';

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
      const text = texts[i]!;
      let value: unknown;
      try {
        value = typeof text === 'string' ? JSON.parse(text) : parseBytes(text, 0, text.length);
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
