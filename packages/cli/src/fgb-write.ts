// Writes a FlatGeobuf file (https://flatgeobuf.org, the format's spec: flatgeobuf/flatgeobuf
// docs and src/fbs): the magic bytes, the header (a size-prefixed flatbuffer), a packed Hilbert
// R-tree over the features' boxes, then the features in the tree's leaf order, each a
// size-prefixed flatbuffer. The `flatgeobuf` package encodes the header's tables and each
// feature; its own `serialize` writes no index (indexNodeSize 0), so the tree is built here as
// the spec lays it out (flatbush's layout: levels from the root down, 40-byte nodes of a box and
// an offset).
//
// Memory: the features are not held. The writer keeps the boxes and the JSON offsets gathered by
// the first pass (48 bytes a feature), the Hilbert order (4 bytes) and the feature offsets (8
// bytes), then the tree itself (about 43 bytes a feature), and reads one feature at a time from
// the scratch file as it writes them out.
import { closeSync, openSync, writeSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import * as flatbuffers from 'flatbuffers';
import type { ColumnMeta } from 'flatgeobuf/lib/mjs/column-meta.js';
import { Column } from 'flatgeobuf/lib/mjs/flat-geobuf/column.js';
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js';
import { Crs } from 'flatgeobuf/lib/mjs/flat-geobuf/crs.js';
import { Feature as FgbFeature } from 'flatgeobuf/lib/mjs/flat-geobuf/feature.js';
import { GeometryType } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js';
import { Header } from 'flatgeobuf/lib/mjs/flat-geobuf/header.js';
import { buildGeometry } from 'flatgeobuf/lib/mjs/generic/geometry.js';
import { parseGC, parseGeometry } from 'flatgeobuf/lib/mjs/geojson/geometry.js';
import type { HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js';
import { calcTreeSize, generateLevelBounds } from 'flatgeobuf/lib/mjs/packedrtree.js';
import { CliError } from './errors.js';
import type { Feature } from './feature.js';
import { type ColumnKind, extentOf, type Gathered, inOrder } from './gathered.js';
import { hilbertOrder } from './hilbert.js';
import { createNow } from './signals.js';

/** The FlatGeobuf file's first 8 bytes: "fgb", version 3, "fgb", 0. */
export const FGB_MAGIC = Buffer.from([0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62, 0x00]);

/** Children per node of the packed R-tree (the format's default). */
export const FGB_NODE_SIZE = 16;

/** Bytes per node of the packed R-tree: a box of four float64 and a uint64 offset. */
export const FGB_NODE_BYTES = 40;

const COLUMN_TYPES: Record<ColumnKind, ColumnType> = {
  bool: ColumnType.Bool,
  int: ColumnType.Int,
  double: ColumnType.Double,
  string: ColumnType.String,
  json: ColumnType.Json,
};

/**
 * Writes the gathered features as a FlatGeobuf file with its spatial index, through a partial
 * file beside `path` renamed over it at the end (nothing half-written is ever at `path`).
 * @param path - the .fgb file.
 * @param gathered - the features, from the first pass.
 * @param partial - the partial file's path.
 */
export async function writeFgb(path: string, gathered: Gathered, partial: string): Promise<void> {
  const { count, boxes, columns, geometryTypes } = gathered;
  const extent = extentOf(boxes);
  const order = hilbertOrder(boxes, extent);
  const types = [...geometryTypes];
  const header: HeaderMeta = {
    geometryType: types.length === 1 ? geometryType(types[0]!) : GeometryType.Unknown,
    columns: [...columns.kinds].map(([name, kind]) => column(name, COLUMN_TYPES[kind])),
    envelope: count > 0 ? Float64Array.from(extent) : null,
    featuresCount: count,
    indexNodeSize: count > 0 ? FGB_NODE_SIZE : 0,
    crs: null,
    title: null,
    description: null,
    metadata: null,
  };
  const headerBytes = buildHeader(header, gathered.hasZ);
  const treeBytes = count > 0 ? calcTreeSize(count, FGB_NODE_SIZE) : 0;
  const featuresAt = FGB_MAGIC.length + headerBytes.length + treeBytes;
  createNow(partial);
  const fd = openSync(partial, 'r+');
  let done = false;
  try {
    writeSync(fd, FGB_MAGIC, 0, FGB_MAGIC.length, 0);
    writeSync(fd, headerBytes, 0, headerBytes.length, FGB_MAGIC.length);
    // The features in Hilbert order, each at an offset the tree's leaf will hold, written in
    // blocks of about a megabyte.
    const featureOffsets = new Float64Array(count);
    const encoder = new FeatureEncoder([...columns.kinds]);
    let block = Buffer.alloc(1 << 20);
    let used = 0;
    let at = 0;
    const flush = () => {
      writeSync(fd, block, 0, used, featuresAt + at - used);
      used = 0;
    };
    let k = 0;
    for (const feature of inOrder(gathered, order)) {
      const bytes = encoder.encode(feature);
      featureOffsets[k] = at;
      if (used + bytes.length > block.length) {
        flush();
        if (bytes.length > block.length) block = Buffer.alloc(bytes.length);
      }
      block.set(bytes, used);
      used += bytes.length;
      at += bytes.length;
      k++;
    }
    flush();
    if (count > 0) {
      const tree = packedTree(boxes, order, featureOffsets);
      writeSync(fd, tree, 0, tree.length, FGB_MAGIC.length + headerBytes.length);
    }
    done = true;
  } finally {
    closeSync(fd);
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

// The packed R-tree's bytes: the leaves (the features' boxes in Hilbert order, each with its
// feature's byte offset in the feature section) at the end, each level above holding the boxes
// of 16 nodes of the level below with the index of the first of them.
function packedTree(boxes: Float64Array, order: Uint32Array, offsets: Float64Array): Buffer {
  const count = order.length;
  const levels = generateLevelBounds(count, FGB_NODE_SIZE);
  const nodes = levels[0]![1];
  const bytes = Buffer.alloc(nodes * FGB_NODE_BYTES);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const box = new Float64Array(4 * nodes);
  // The leaves.
  const [leafStart] = levels[0]!;
  for (let k = 0; k < count; k++) {
    const i = order[k]!;
    const n = leafStart + k;
    box.set(boxes.subarray(4 * i, 4 * i + 4), 4 * n);
    view.setBigUint64(n * FGB_NODE_BYTES + 32, BigInt(offsets[k]!), true);
  }
  // Each level above, from the leaves up: a node's box covers its children's.
  for (let l = 1; l < levels.length; l++) {
    const [start, end] = levels[l]!;
    const [childStart, childEnd] = levels[l - 1]!;
    for (let n = start; n < end; n++) {
      const first = childStart + (n - start) * FGB_NODE_SIZE;
      const last = Math.min(first + FGB_NODE_SIZE, childEnd);
      let minX = Number.POSITIVE_INFINITY;
      let minY = Number.POSITIVE_INFINITY;
      let maxX = Number.NEGATIVE_INFINITY;
      let maxY = Number.NEGATIVE_INFINITY;
      for (let c = first; c < last; c++) {
        if (box[4 * c]! < minX) minX = box[4 * c]!;
        if (box[4 * c + 1]! < minY) minY = box[4 * c + 1]!;
        if (box[4 * c + 2]! > maxX) maxX = box[4 * c + 2]!;
        if (box[4 * c + 3]! > maxY) maxY = box[4 * c + 3]!;
      }
      box[4 * n] = minX;
      box[4 * n + 1] = minY;
      box[4 * n + 2] = maxX;
      box[4 * n + 3] = maxY;
      view.setBigUint64(n * FGB_NODE_BYTES + 32, BigInt(first), true);
    }
  }
  for (let n = 0; n < nodes; n++)
    for (let j = 0; j < 4; j++) view.setFloat64(n * FGB_NODE_BYTES + 8 * j, box[4 * n + j]!, true);
  return bytes;
}

// The header flatbuffer, size-prefixed: geometry type, whether positions have heights, columns,
// envelope, feature count, the index's node size and the CRS (EPSG:4326, longitude/latitude, as GeoJSON).
function buildHeader(header: HeaderMeta, hasZ: boolean): Uint8Array {
  const builder = new flatbuffers.Builder(1024);
  const columns =
    header.columns !== null && header.columns.length > 0
      ? Header.createColumnsVector(
          builder,
          header.columns.map((c) => {
            const name = builder.createString(c.name);
            Column.startColumn(builder);
            Column.addName(builder, name);
            Column.addType(builder, c.type);
            return Column.endColumn(builder);
          }),
        )
      : 0;
  const envelope =
    header.envelope !== null ? Header.createEnvelopeVector(builder, header.envelope) : 0;
  const org = builder.createString('EPSG');
  Crs.startCrs(builder);
  Crs.addOrg(builder, org);
  Crs.addCode(builder, 4326);
  const crs = Crs.endCrs(builder);
  Header.startHeader(builder);
  if (envelope !== 0) Header.addEnvelope(builder, envelope);
  Header.addGeometryType(builder, header.geometryType);
  if (hasZ) Header.addHasZ(builder, true);
  if (columns !== 0) Header.addColumns(builder, columns);
  Header.addFeaturesCount(builder, BigInt(header.featuresCount));
  Header.addIndexNodeSize(builder, header.indexNodeSize);
  Header.addCrs(builder, crs);
  builder.finishSizePrefixed(Header.endHeader(builder));
  return builder.asUint8Array();
}

function column(name: string, type: ColumnType): ColumnMeta {
  return {
    name,
    type,
    title: null,
    description: null,
    width: -1,
    precision: -1,
    scale: -1,
    nullable: true,
    unique: false,
    primary_key: false,
  };
}

function geometryType(name: string): GeometryType {
  const type = GeometryType[name as keyof typeof GeometryType];
  return type ?? GeometryType.Unknown;
}

/**
 * Encodes features as FlatGeobuf's size-prefixed Feature tables with one flatbuffers Builder and
 * one property buffer for all of them (the package's buildFeature makes both anew for each).
 * Properties are written as the spec lays them out: a column index (uint16) and the value, nulls
 * left out.
 */
class FeatureEncoder {
  private readonly builder = new flatbuffers.Builder(1024);
  private properties = Buffer.alloc(1024);

  /** @param columns - the columns, name and kind, in header order. */
  constructor(private readonly columns: [string, ColumnKind][]) {}

  /**
   * The feature's bytes: a view into the builder, good until the next call.
   * @param feature - a feature with a geometry.
   */
  encode(feature: Feature): Uint8Array {
    const { builder } = this;
    builder.clear();
    const length = this.encodeProperties(feature.properties ?? {});
    const properties =
      length > 0
        ? FgbFeature.createPropertiesVector(builder, this.properties.subarray(0, length))
        : 0;
    const g = feature.geometry as never as { type: string };
    const geometry = buildGeometry(
      builder,
      g.type === 'GeometryCollection' ? parseGC(g as never) : parseGeometry(g as never),
    );
    FgbFeature.startFeature(builder);
    FgbFeature.addGeometry(builder, geometry);
    if (properties !== 0) FgbFeature.addProperties(builder, properties);
    builder.finishSizePrefixed(FgbFeature.endFeature(builder));
    return builder.asUint8Array();
  }

  // The property bytes of one feature into this.properties; returns their length.
  private encodeProperties(given: Record<string, unknown>): number {
    let at = 0;
    for (let c = 0; c < this.columns.length; c++) {
      const [name, kind] = this.columns[c]!;
      const value = given[name];
      if (value === null || value === undefined) continue;
      const text = kind === 'string' ? String(value) : kind === 'json' ? JSON.stringify(value) : '';
      // (A string takes at most 3 bytes a UTF-16 unit.)
      const need = at + 14 + 3 * text.length;
      if (need > this.properties.length) {
        const bigger = Buffer.alloc(2 * need);
        this.properties.copy(bigger, 0, 0, at);
        this.properties = bigger;
      }
      const p = this.properties;
      p.writeUInt16LE(c, at);
      at += 2;
      if (kind === 'bool') {
        p[at++] = value === true ? 1 : 0;
      } else if (kind === 'int') {
        p.writeInt32LE(value as number, at);
        at += 4;
      } else if (kind === 'double') {
        p.writeDoubleLE(value as number, at);
        at += 8;
      } else {
        const length = p.write(text, at + 4, 'utf8');
        p.writeUInt32LE(length, at);
        at += 4 + length;
      }
    }
    return at;
  }
}
