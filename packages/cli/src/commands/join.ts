// quadkit join POINTS POLYGONS: the polygons go into an index in memory; the points stream past
// it, each tagged with the polygon that contains it (the first in the polygons' file order) or
// counted per polygon. A point on a polygon's boundary is in it (closed polygons, as GeoIndex
// tests them): on a border shared by two countries, it goes to the first in file order.
//
// A GeoJSON file of points on disk is read from its bytes (see point-bytes.ts): each feature's coordinates are read where they lie and, for the tagged output
// in GeoJSON or NDJSON, the feature's bytes are copied out with the new property written in
// before its properties' closing brace, so that no point feature is parsed into objects nor
// stringified again. Features in any other form, and other formats, go through the readers
// every command uses.
import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Writable } from 'node:stream';
import { CliError } from '../errors.js';
import type { Feature, Place } from '../feature.js';
import { splitGeojson } from '../geojson-split.js';
import {
  detectFormat,
  type InputFlags,
  readFeatures,
  readRuns,
  readWithProgress,
} from '../input.js';
import type { Io } from '../io.js';
import { splitLineBytes } from '../lines.js';
import { featureWriter, type OutputFormat } from '../output.js';
import { PointBytes } from '../point-bytes.js';
import { progress } from '../progress.js';
import { type Batch, checkBatch, firstContaining, pointOf } from '../shapes.js';
import { displayName, STDIN } from '../stdin.js';

/** Options of `quadkit join`. */
export interface JoinOptions extends InputFlags {
  count?: boolean;
  property?: string;
  as?: string;
  format: OutputFormat;
  fullPrecision?: boolean;
}

const WHY = 'join takes point features on its first file';

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
  const places: Place[] = [];
  for await (const sourced of readFeatures(polygonsFile, { stdin: io.stdin })) {
    polygons.push(sourced.feature);
    places.push(sourced);
  }
  const index = checkBatch(polygons, places);
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
  const tag = (found: number): unknown =>
    found < 0
      ? null
      : property === undefined
        ? found
        : (polygons[found]!.properties?.[property] ?? null);

  // The points: streamed, each looked up once.
  const join: Join = { index, as, tag, counts: new Float64Array(polygons.length) };
  const fullPrecision = options.fullPrecision === true;
  if (options.count) await countOrTag(pointsFile, options, io, join, null);
  else if (options.format === 'csv') {
    const writer = featureWriter(io.stdout, 'csv', { fullPrecision });
    for await (const run of readWithProgress(pointsFile, options, 'joining', io)) {
      for (const sourced of run) {
        const { feature } = sourced;
        const found = lookUp(join, feature, sourced);
        await writer.write(tagged(feature, as, tag(found)));
      }
    }
    await writer.end();
  } else await countOrTag(pointsFile, options, io, join, new JsonOut(io.stdout, options.format));
  if (!options.count) return;

  // --count: the polygons with the number of points in each.
  const out = featureWriter(io.stdout, options.format, { geometry: false, fullPrecision });
  for (let i = 0; i < polygons.length; i++) {
    const polygon = polygons[i]!;
    await out.write({
      ...polygon,
      properties: { ...(polygon.properties ?? {}), point_count: join.counts[i]! },
    });
  }
  await out.end();
}

// What a join needs per point: the index, the tag of each polygon and the counts.
interface Join {
  index: Batch;
  as: string;
  tag: (found: number) => unknown;
  counts: Float64Array;
}

const scratch: number[] = [];

// The polygon of a parsed point feature (-1: none), counted.
function lookUp(join: Join, feature: Feature, place: Place): number {
  const [lon, lat] = pointOf(feature, place, WHY);
  const found = firstContaining(join.index, lon, lat, scratch);
  if (found >= 0) join.counts[found]!++;
  return found;
}

// A point feature with `as` set to `value` in (a copy of) its properties, where a property of
// that name is if it has one, else last.
function tagged(feature: Feature, as: string, value: unknown): Feature {
  return { ...feature, properties: { ...(feature.properties ?? {}), [as]: value } };
}

// The points counted, or also written tagged to `out`: read from their bytes when the file is
// GeoJSON or NDJSON on disk, else through the readers every command uses.
async function countOrTag(
  file: string,
  flags: InputFlags,
  io: Io,
  join: Join,
  out: JsonOut | null,
): Promise<void> {
  const format = file === STDIN ? null : await bytesFormat(file, flags);
  if (format !== null) {
    const done = await joinBytes(file, format, flags, io, join, out);
    if (done) return out?.end();
  }
  for await (const run of readWithProgress(file, flags, 'joining', io)) {
    for (const sourced of run) {
      const { feature } = sourced;
      const found = lookUp(join, feature, sourced);
      if (out !== null) out.text(JSON.stringify(tagged(feature, join.as, join.tag(found))));
    }
    if (out !== null) await out.drain();
  }
  return out?.end();
}

// The format of a file whose points can be read from their bytes (GeoJSON or NDJSON), else
// null (the readers take it, and say what is wrong with it).
async function bytesFormat(file: string, flags: InputFlags): Promise<'geojson' | 'ndjson' | null> {
  if (flags.lon !== undefined || flags.lat !== undefined) return null;
  try {
    const format = flags.inputFormat ?? (await detectFormat(file));
    return format === 'geojson' || format === 'ndjson' ? format : null;
  } catch {
    return null;
  }
}

// A file's elements (GeoJSON) or lines (NDJSON) as bytes, a chunk's worth at a time: element k
// is bytes [starts[k], ends[k]); `place(k)` names it. Null: a GeoJSON document that is one
// feature, not an array of them.
async function* elements(
  file: string,
  format: 'geojson' | 'ndjson',
): AsyncGenerator<{
  bytes: Uint8Array;
  starts: number[];
  ends: number[];
  place: (k: number) => string;
  end: number;
} | null> {
  if (format === 'ndjson') {
    for await (const run of splitLineBytes(file))
      yield { ...run, place: (k) => `${file}:${run.numbers[k]}` };
    return;
  }
  for await (const split of splitGeojson(file, undefined, true)) {
    if (split.path === null) {
      yield null;
      return;
    }
    const place = (k: number) => `${file}: ${split.path}[${split.first + k}]`;
    yield { ...split.raw!, place, end: split.end };
  }
}

// The points of a GeoJSON or NDJSON file from their bytes. Returns false when the file holds one
// document rather than an array of features (nothing was counted or written: the readers take
// it); an error is the one the readers give.
async function joinBytes(
  file: string,
  format: 'geojson' | 'ndjson',
  flags: InputFlags,
  io: Io,
  join: Join,
  out: JsonOut | null,
): Promise<boolean> {
  const { size } = await stat(file);
  const bar = await progress(`joining ${basename(file)}`, size, flags.quiet, io.stderr);
  const point = new PointBytes();
  // The bytes each polygon's tag adds: `"as":value`.
  const tags = new Map<number, Buffer>();
  const tagBytes = (found: number) => {
    let bytes = tags.get(found);
    if (bytes === undefined) {
      bytes = Buffer.from(`${JSON.stringify(join.as)}:${JSON.stringify(join.tag(found))}`);
      tags.set(found, bytes);
    }
    return bytes;
  };
  const key = Buffer.from(JSON.stringify(join.as));
  try {
    for await (const run of elements(file, format)) {
      if (run === null) return false;
      const { bytes, starts, ends } = run;
      for (let k = 0; k < starts.length; k++) {
        const from = starts[k]!;
        const to = ends[k]!;
        if (point.read(bytes, from, to) && (out === null || !point.holds(bytes, key))) {
          const found = firstContaining(join.index, point.lon, point.lat, scratch);
          if (found >= 0) join.counts[found]!++;
          if (out !== null) out.feature(bytes, from, point, tagBytes(found));
          continue;
        }
        // Any other form: parsed and checked whole.
        const where = run.place(k);
        const feature = await parsed(bytes, from, to, where, file, flags);
        const found = lookUp(join, feature, where);
        if (out !== null) out.text(JSON.stringify(tagged(feature, join.as, join.tag(found))));
      }
      if (out !== null) await out.drain();
      bar.update(run.end);
    }
  } catch (e) {
    throw e instanceof CliError ? await readersError(file, flags, e) : e;
  } finally {
    bar.stop();
  }
  return true;
}

// An element of the features array parsed: a point feature (a bare Point geometry is one with
// no properties), else the error the readers give for the file.
async function parsed(
  bytes: Uint8Array,
  from: number,
  to: number,
  where: string,
  file: string,
  flags: InputFlags,
): Promise<Feature> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString());
  } catch {
    value = undefined;
  }
  const v = value as { type?: unknown; properties?: unknown } | null | undefined;
  const feature: Feature | null =
    v?.type === 'Feature' &&
    (v.properties === undefined ||
      v.properties === null ||
      (typeof v.properties === 'object' && !Array.isArray(v.properties)))
      ? ({ ...v, properties: v.properties ?? null } as Feature)
      : v?.type === 'Point'
        ? { type: 'Feature', geometry: v as Feature['geometry'], properties: null }
        : null;
  const c = feature?.geometry?.coordinates as unknown[] | undefined;
  if (
    feature?.geometry?.type === 'Point' &&
    Array.isArray(c) &&
    typeof c[0] === 'number' &&
    typeof c[1] === 'number' &&
    Math.abs(c[0]) <= 180 &&
    Math.abs(c[1]) <= 90
  )
    return feature;
  throw await readersError(file, flags, new CliError(`${where}: ${WHY}`));
}

// The error the readers (and the check of each point) give for a file, else `fallback`: errors
// are worded by the readers, whichever way the points were read.
async function readersError(file: string, flags: InputFlags, fallback: Error): Promise<Error> {
  try {
    const options = { format: flags.inputFormat, lon: flags.lon, lat: flags.lat };
    for await (const run of readRuns(file, options))
      for (const sourced of run) pointOf(sourced.feature, sourced, WHY);
  } catch (e) {
    return e as Error;
  }
  return fallback;
}

// The tagged points as a FeatureCollection or newline-delimited GeoJSON, gathered in buffers
// and written a run at a time (one write and one wait for the stream per run, not per point).
class JsonOut {
  private buffer = Buffer.allocUnsafe(1 << 20);
  private at = 0;
  private full: Buffer[] = [];
  private first = true;
  private readonly lines: boolean;

  constructor(
    private readonly stream: Writable,
    format: OutputFormat,
  ) {
    this.lines = format === 'ndjson';
    if (!this.lines) this.ascii('{"type":"FeatureCollection","features":[\n');
  }

  /** A feature given as its text. */
  text(json: string): void {
    this.before();
    const length = Buffer.byteLength(json);
    this.room(length + 1);
    this.at += this.buffer.write(json, this.at);
    this.after();
  }

  /** A point feature copied from its bytes with `tag` (`"as":value`) added to its properties. */
  feature(bytes: Uint8Array, from: number, point: PointBytes, tag: Buffer): void {
    this.before();
    this.room(point.end - from + tag.length + 2);
    const b = this.buffer;
    let at = this.at;
    if (point.close < 0) {
      // Properties null: an object holding the tag instead.
      at = copy(bytes, from, point.open, b, at);
      b[at++] = 0x7b;
      at = copy(tag, 0, tag.length, b, at);
      b[at++] = 0x7d;
      at = copy(bytes, point.open + 4, point.end, b, at);
    } else {
      at = copy(bytes, from, point.close, b, at);
      if (!point.empty) b[at++] = 0x2c;
      at = copy(tag, 0, tag.length, b, at);
      at = copy(bytes, point.close, point.end, b, at);
    }
    this.at = at;
    this.after();
  }

  /** Writes what was gathered, waiting for the stream when its buffer is full. */
  async drain(): Promise<void> {
    const pending = this.full;
    this.full = [];
    if (this.at > 0) {
      pending.push(this.buffer.subarray(0, this.at));
      this.buffer = this.buffer.subarray(this.at);
      this.at = 0;
      if (this.buffer.length < 1 << 16) this.buffer = Buffer.allocUnsafe(1 << 20);
    }
    for (const chunk of pending) if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  /** Ends the document. */
  async end(): Promise<void> {
    if (!this.lines) this.ascii('\n]}\n');
    await this.drain();
  }

  private before(): void {
    if (!this.lines && !this.first) this.ascii(',\n');
    this.first = false;
  }

  private after(): void {
    if (!this.lines) return;
    this.room(1);
    this.buffer[this.at++] = 0x0a;
  }

  private ascii(text: string): void {
    this.room(text.length);
    this.at += this.buffer.write(text, this.at, 'latin1');
  }

  // Makes room for n bytes in the current buffer.
  private room(n: number): void {
    if (this.at + n <= this.buffer.length) return;
    if (this.at > 0) this.full.push(this.buffer.subarray(0, this.at));
    this.buffer = Buffer.allocUnsafe(Math.max(1 << 20, n));
    this.at = 0;
  }
}

// Copies bytes [from, to) of `source` to `target` at `at`; returns the end of the copy. A short
// run byte by byte, a longer one by the native copy (a view costs more than a few bytes).
function copy(
  source: Uint8Array,
  from: number,
  to: number,
  target: Uint8Array,
  at: number,
): number {
  if (to - from < 48) {
    for (let i = from; i < to; i++) target[at++] = source[i]!;
    return at;
  }
  target.set(source.subarray(from, to), at);
  return at + to - from;
}
