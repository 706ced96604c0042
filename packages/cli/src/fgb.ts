// Reads FlatGeobuf files (https://flatgeobuf.org): whole, as a stream of features for the
// commands that go through every feature, or by a box through the file's packed R-tree, reading
// only the header, the tree's nodes on the way down and the features found. The `flatgeobuf`
// package decodes the header, and its table classes the features (fgb-decode.ts); the reads by
// range are made here from a file handle (the package's range reader speaks HTTP, logs each step
// with console.debug, which goes to standard output, and yields features out of order).
import type { FileHandle } from 'node:fs/promises';
import * as flatbuffers from 'flatbuffers';
import { GeometryType } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js';
import { fromByteBuffer, type HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js';
import { calcTreeSize, generateLevelBounds } from 'flatgeobuf/lib/mjs/packedrtree.js';
import { geoBoxDistance } from 'quadkit/geo';
import { CliError, openToRead } from './errors.js';
import type { Feature, Sourced } from './feature.js';
import { BlockDecoder } from './fgb-decode.js';
import { FGB_MAGIC, FGB_NODE_BYTES } from './fgb-write.js';

/** Bytes read at once for the features found by a box. */
const BLOCK = 4 << 20;

// Bytes read at once when going through every feature. The features of a block are given out
// as one run, which must die young: runs of 4 MB (27,000 points) outlived the young generation's
// collections, which then copied them (2.1 s of 5.6 s over 1M points; 0.4 s with 256 kB runs).
const RUN_BLOCK = 256 << 10;

/** A gap between two features found by a box that is read through rather than skipped. */
const GAP = 64 << 10;

/** The layout of a FlatGeobuf file, from its header and size. */
interface Layout {
  header: HeaderMeta;
  /** Where the tree starts (after magic and header). */
  treeAt: number;
  /** Where the features start. */
  featuresAt: number;
  size: number;
}

/**
 * An open FlatGeobuf file, for queries by box through its index. Counts the bytes it reads.
 */
export class FgbFile {
  /** Bytes read from the file so far. */
  bytesRead = 0;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly layout: Layout,
  ) {}

  /** Whether the file has a spatial index (else {@link search} cannot be used: read it whole). */
  get indexed(): boolean {
    return this.layout.header.indexNodeSize > 0 || this.layout.header.featuresCount === 0;
  }

  /** Whether its header says every feature is a point (a leaf's box is then its point). */
  get points(): boolean {
    return this.layout.header.geometryType === GeometryType.Point;
  }

  /** The file's header, as the `flatgeobuf` package reads it. */
  get header(): HeaderMeta {
    return this.layout.header;
  }

  /**
   * Opens a FlatGeobuf file: checks its magic bytes, header and that it is as long as its index
   * and its last feature say, reading only those.
   * @param path - the file.
   */
  static async open(path: string): Promise<FgbFile> {
    const handle = await openToRead(path);
    const file = new FgbFile(path, handle, null as never);
    try {
      const { size } = await handle.stat();
      const layout = await readLayout(path, size, (at, length) => file.read(at, length));
      Object.assign(file, { layout });
      if (file.indexed) await file.checkLastFeature();
      return file;
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  // Reads bytes [at, at + length), fewer at the end of the file.
  private async read(at: number, length: number): Promise<Uint8Array> {
    const bytes = new Uint8Array(length);
    const { bytesRead } = await this.handle.read(bytes, 0, length, at);
    this.bytesRead += bytesRead;
    return bytes.subarray(0, bytesRead);
  }

  // The last leaf's feature must end where the file ends: a file cut in its features is found
  // before any answer is written.
  private async checkLastFeature(): Promise<void> {
    const { header, treeAt, featuresAt, size } = this.layout;
    const count = header.featuresCount;
    if (count === 0) return;
    const last = calcTreeSize(count, header.indexNodeSize) / FGB_NODE_BYTES - 1;
    const node = await this.read(treeAt + last * FGB_NODE_BYTES, FGB_NODE_BYTES);
    const offset = Number(new DataView(node.buffer).getBigUint64(32, true));
    const prefix = await this.read(featuresAt + offset, 4);
    const end = prefix.length < 4 ? Number.NaN : featuresAt + offset + 4 + readUint32(prefix, 0);
    if (end !== size)
      throw cut(this.path, `in feature ${count - 1} (byte ${featuresAt + offset})`, size);
  }

  /**
   * The features whose boxes meet the box, with their positions in the file, in file order
   * (for a file that is {@link indexed}).
   * @param minX - west; then south, east, north (west <= east).
   */
  async search(
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
  ): Promise<{ features: Feature[]; places: string[] }> {
    const found = await this.searchTree(minX, minY, maxX, maxY);
    return this.readFound(found);
  }

  // The tree walked down level by level: the nodes a level needs are read in runs of
  // consecutive nodes, and the leaves found give the byte ranges of their features.
  private async searchTree(
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
  ): Promise<{ index: number; start: number; end: number }[]> {
    const { header, featuresAt, size } = this.layout;
    const count = header.featuresCount;
    if (count === 0) return [];
    const levels = generateLevelBounds(count, header.indexNodeSize);
    const leafStart = levels[0]![0];
    let wanted: number[] = [0];
    const found: { index: number; start: number; end: number }[] = [];
    for (let l = levels.length - 1; l >= 0; l--) {
      const levelEnd = levels[l]![1];
      const next: number[] = [];
      for (let r = 0; r < wanted.length; ) {
        // A run of nodes [first, last): those wanted that are near one another.
        let e = r + 1;
        while (e < wanted.length && wanted[e]! - wanted[e - 1]! <= header.indexNodeSize) e++;
        const first = wanted[r]!;
        // (A leaf's feature ends where the next leaf's begins: one node more is read.)
        const last = Math.min(wanted[e - 1]! + 1 + (l === 0 ? 1 : 0), levelEnd);
        const view = await this.nodes(first, last);
        for (let k = r; k < e; k++) {
          const n = wanted[k]!;
          const o = (n - first) * FGB_NODE_BYTES;
          if (
            view.getFloat64(o, true) > maxX ||
            view.getFloat64(o + 8, true) > maxY ||
            view.getFloat64(o + 16, true) < minX ||
            view.getFloat64(o + 24, true) < minY
          )
            continue;
          const offset = Number(view.getBigUint64(o + 32, true));
          if (l > 0) {
            const childEnd = Math.min(offset + header.indexNodeSize, levels[l - 1]![1]);
            for (let c = offset; c < childEnd; c++) next.push(c);
            continue;
          }
          const end =
            n + 1 < levelEnd
              ? Number(view.getBigUint64(o + FGB_NODE_BYTES + 32, true))
              : size - featuresAt;
          found.push({ index: n - leafStart, start: offset, end });
        }
        r = e;
      }
      wanted = next;
    }
    return found;
  }

  // Nodes [first, last) of the tree, read in one piece (a cut file is an error).
  private async nodes(first: number, last: number): Promise<DataView> {
    const { treeAt, size } = this.layout;
    const bytes = await this.read(treeAt + first * FGB_NODE_BYTES, (last - first) * FGB_NODE_BYTES);
    if (bytes.length < (last - first) * FGB_NODE_BYTES)
      throw cut(this.path, `in its index (byte ${treeAt + first * FGB_NODE_BYTES})`, size);
    return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /**
   * The k features nearest to (lon, lat) within maxKm, nearest first, ties in file order, with
   * their distances, for a file of points that is {@link indexed}: a best-first walk of the
   * R-tree (after Hjaltason and Samet, "Distance browsing in spatial databases", 1999), its
   * nodes keyed by `geoBoxDistance` and its leaves by the point's distance, that reads the
   * children of the nodes it opens and then the features it keeps.
   * @param lon - the query's longitude; `lat` its latitude.
   * @param k - how many at most (Infinity: all within maxKm).
   * @param maxKm - the farthest distance kept, in km.
   * @param km - the distance in km from (lon, lat) to a point, as the other readers measure it.
   * @returns null when a box of the index it opens is not a box on the globe (the file is then
   *   read whole, which names the feature).
   */
  async nearest(
    lon: number,
    lat: number,
    k: number,
    maxKm: number,
    km: (x: number, y: number) => number,
  ): Promise<{ features: Feature[]; places: string[]; distances: number[] } | null> {
    const { header, featuresAt, size } = this.layout;
    const count = header.featuresCount;
    const kept: Entry[] = [];
    if (count === 0 || k === 0) return { features: [], places: [], distances: [] };
    let offGlobe = false;
    const levels = generateLevelBounds(count, header.indexNodeSize);
    const leafStart = levels[0]![0];
    const queue = new EntryQueue();
    // Opens nodes [first, end) of level l: each is queued with its key (a leaf, with its
    // feature's bytes: to the next leaf's offset, so one node more is read).
    const open = async (first: number, end: number, l: number) => {
      const levelEnd = levels[l]![1];
      const view = await this.nodes(first, Math.min(end + (l === 0 ? 1 : 0), levelEnd));
      for (let n = first; n < end; n++) {
        const o = (n - first) * FGB_NODE_BYTES;
        const minX = view.getFloat64(o, true);
        const minY = view.getFloat64(o + 8, true);
        const maxX = view.getFloat64(o + 16, true);
        const maxY = view.getFloat64(o + 24, true);
        if (
          !(
            -180 <= minX &&
            minX <= maxX &&
            maxX <= 180 &&
            -90 <= minY &&
            minY <= maxY &&
            maxY <= 90
          )
        ) {
          offGlobe = true;
          return;
        }
        const key = l === 0 ? km(minX, minY) : geoBoxDistance(lon, lat, minX, minY, maxX, maxY);
        if (!(key <= maxKm)) continue;
        const offset = Number(view.getBigUint64(o + 32, true));
        const next =
          l > 0
            ? Math.min(offset + header.indexNodeSize, levels[l - 1]![1])
            : n + 1 < levelEnd
              ? Number(view.getBigUint64(o + FGB_NODE_BYTES + 32, true))
              : size - featuresAt;
        queue.push({ key, rank: l === 0 ? n - leafStart : -1, level: l, start: offset, end: next });
      }
    };
    const top = levels.length - 1;
    await open(levels[top]![0], levels[top]![1], top);
    while (queue.size > 0 && kept.length < k && !offGlobe) {
      const e = queue.pop();
      if (e.level === 0) kept.push(e);
      else await open(e.start, e.end, e.level - 1);
    }
    if (offGlobe) return null;
    // The features kept, read in file order (readFound sorts its list), given out nearest first.
    const found = kept.map(({ rank, start, end }) => ({ index: rank, start, end }));
    const sorted = found.slice();
    const { features, places } = await this.readFound(sorted);
    const at = new Map(sorted.map((f, i) => [f.index, i]));
    return {
      features: found.map((f) => features[at.get(f.index)!]!),
      places: found.map((f) => places[at.get(f.index)!]!),
      distances: kept.map((e) => e.key),
    };
  }

  // The features found, read in runs of near ones (up to BLOCK bytes each).
  private async readFound(
    found: { index: number; start: number; end: number }[],
  ): Promise<{ features: Feature[]; places: string[] }> {
    const { header, featuresAt, size } = this.layout;
    found.sort((a, b) => a.start - b.start);
    const features: Feature[] = [];
    const places: string[] = [];
    for (let r = 0; r < found.length; ) {
      let e = r + 1;
      while (
        e < found.length &&
        found[e]!.start - found[e - 1]!.end <= GAP &&
        found[e]!.end - found[r]!.start <= BLOCK
      )
        e++;
      const from = found[r]!.start;
      const bytes = await this.read(featuresAt + from, found[e - 1]!.end - from);
      const decoder = new BlockDecoder(bytes, header);
      for (let k = r; k < e; k++) {
        const { index, start, end } = found[k]!;
        const where = `${this.path}: feature ${index}`;
        if (end - from > bytes.length || end <= start + 4)
          throw cut(this.path, `in feature ${index} (byte ${featuresAt + start})`, size);
        features.push(
          decode(decoder, start - from, end - start, `${where} (byte ${featuresAt + start})`),
        );
        places.push(where);
      }
      r = e;
    }
    return { features, places };
  }

  /** Closes the file. */
  close(): Promise<void> {
    return this.handle.close();
  }
}

/**
 * The features of a FlatGeobuf file, in file order, in runs (one a block of the file): the
 * index is skipped, the features read a few megabytes at a time.
 * @param file - the file's path.
 * @param onBytes - hears how far into the file the features given out reach.
 */
export async function* readFgb(
  file: string,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<Sourced[]> {
  const handle = await openToRead(file);
  try {
    const read = async (at: number, length: number) => {
      const bytes = new Uint8Array(length);
      const { bytesRead } = await handle.read(bytes, 0, length, at);
      return bytes.subarray(0, bytesRead);
    };
    const { size } = await handle.stat();
    const { header, featuresAt } = await readLayout(file, size, read);
    let at = featuresAt;
    let n = 0;
    // One block, reused: the features given out keep nothing of it (strings and numbers are
    // copied out), and a feature cut at its end moves to its start before the next read.
    let block = new Uint8Array(RUN_BLOCK);
    let filled = 0;
    let from = at;
    while (at < size) {
      const rest = filled - (at - from);
      if (rest * 2 > block.length) {
        const bigger = new Uint8Array(block.length * 2);
        bigger.set(block.subarray(at - from, filled));
        block = bigger;
      } else block.copyWithin(0, at - from, filled);
      const { bytesRead } = await handle.read(block, rest, block.length - rest, at + rest);
      filled = rest + bytesRead;
      from = at;
      const bytes = block.subarray(0, filled);
      const run: Sourced[] = [];
      const decoder = new BlockDecoder(bytes, header);
      let o = 0;
      for (;;) {
        if (o + 4 > bytes.length) break;
        const length = readUint32(bytes, o);
        if (o + 4 + length > bytes.length) break;
        const where = `${file}: feature ${n}`;
        if (length === 0)
          throw new CliError(`${where} (byte ${from + o}): a feature of length 0 (a damaged file)`);
        run.push({ feature: decode(decoder, o, length + 4, `${where} (byte ${from + o})`), where });
        o += 4 + length;
        n++;
      }
      if (run.length === 0 && from + bytes.length >= size)
        throw cut(file, `in feature ${n} (byte ${from + o})`, size);
      at = from + o;
      yield run;
      onBytes?.(at);
    }
    if (n !== header.featuresCount)
      throw cut(file, `after feature ${n - 1}: its header counts ${header.featuresCount}`, size);
  } finally {
    await handle.close();
  }
}

// The magic bytes, header and index extent of a file, checked against its size.
async function readLayout(
  file: string,
  size: number,
  read: (at: number, length: number) => Promise<Uint8Array>,
): Promise<Layout> {
  const head = await read(0, 12);
  if (head.length < 12 || !FGB_MAGIC.subarray(0, 3).equals(head.subarray(0, 3)))
    throw new CliError(
      `${file}: not a FlatGeobuf file (it does not start with the bytes "fgb"${head.length < 12 ? ', and is shorter than a header' : ''})`,
    );
  if (head[3] !== 3)
    throw new CliError(
      `${file}: FlatGeobuf version ${head[3]}, this command reads version 3 (convert it with ogr2ogr)`,
    );
  const headerLength = readUint32(head, 8);
  const sized = await read(8, 4 + headerLength);
  if (sized.length < 4 + headerLength) throw cut(file, 'in its header (byte 12)', size);
  let header: HeaderMeta;
  try {
    header = fromByteBuffer(new flatbuffers.ByteBuffer(sized));
  } catch (e) {
    throw new CliError(`${file}: a damaged FlatGeobuf header (${(e as Error).message})`);
  }
  const crs = header.crs;
  if (crs !== null && crs.code !== 0 && crs.code !== 4326)
    throw new CliError(
      `${file}: coordinates in ${crs.org ?? 'EPSG'}:${crs.code}; quadkit reads longitude/latitude (EPSG:4326): reproject first, e.g. ogr2ogr -t_srs EPSG:4326 out.fgb ${file}`,
    );
  const treeAt = 12 + headerLength;
  const treeBytes =
    header.indexNodeSize > 0 && header.featuresCount > 0
      ? calcTreeSize(header.featuresCount, header.indexNodeSize)
      : 0;
  const featuresAt = treeAt + treeBytes;
  if (size < featuresAt) throw cut(file, `in its index (which ends at byte ${featuresAt})`, size);
  return { header, treeAt, featuresAt, size };
}

// Feature bytes [o, o + length) of a block (with their size prefix) as a GeoJSON feature; a
// damaged one is an error naming it.
function decode(decoder: BlockDecoder, o: number, length: number, where: string): Feature {
  try {
    return decoder.decode(o, length);
  } catch (e) {
    throw new CliError(`${where}: a damaged feature (${(e as Error).message})`);
  }
}

function readUint32(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
  );
}

function cut(file: string, where: string, size: number): CliError {
  return new CliError(
    `${file}: a FlatGeobuf file cut short ${where}; the file ends at byte ${size} (copy or download it again)`,
  );
}

// A node or a leaf of the walk of `nearest`: its key (km), rank (a leaf: its feature's index;
// a node: -1, so that at equal keys nodes are opened before leaves are taken, which then come
// in file order), level, and its children [start, end) or its feature's bytes.
interface Entry {
  key: number;
  rank: number;
  level: number;
  start: number;
  end: number;
}

// A binary heap of entries, least key (then rank) first.
class EntryQueue {
  private readonly heap: Entry[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(e: Entry): void {
    const heap = this.heap;
    let i = heap.push(e) - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(e, heap[p]!)) break;
      heap[i] = heap[p]!;
      i = p;
    }
    heap[i] = e;
  }

  pop(): Entry {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    const n = heap.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && before(heap[c + 1]!, heap[c]!)) c++;
        if (!before(heap[c]!, last)) break;
        heap[i] = heap[c]!;
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }
}

const before = (a: Entry, b: Entry) => a.key < b.key || (a.key === b.key && a.rank < b.rank);
