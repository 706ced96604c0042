// What `quadkit index` gathers in one pass over its input for the writers of FlatGeobuf and
// GeoParquet: the features' JSON texts in a scratch file with their byte offsets, their boxes, the
// type of each property and the geometry types. The writers then go through the features again
// in their own order (Hilbert order of the boxes' centres), one at a time from the scratch file.
import { closeSync, openSync, readSync } from 'node:fs';
import type { Feature } from './feature.js';

/** The type a property column is written with, from the values it holds. */
export type ColumnKind = 'bool' | 'int' | 'double' | 'string' | 'json';

const INT32 = 2 ** 31;

// The kind of one value (null and undefined have none).
function kindOf(value: unknown): ColumnKind | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number')
    return Number.isInteger(value) && value >= -INT32 && value < INT32 ? 'int' : 'double';
  if (typeof value === 'string') return 'string';
  return 'json';
}

/**
 * The property columns of a run of features, in order of first appearance, each with the kind
 * that holds every value met: whole numbers in 32 bits are `int`, other numbers `double`, and a
 * column whose values are of different kinds is `json` (each value kept as its JSON text, so a
 * reader gets back the value with its type).
 */
export class Columns {
  // Kind by column name; null for a column of nulls so far.
  private readonly seen = new Map<string, ColumnKind | null>();

  /** Kind by column name, in order of first appearance (a column of nulls only: `string`). */
  get kinds(): Map<string, ColumnKind> {
    return new Map([...this.seen].map(([name, kind]) => [name, kind ?? 'string']));
  }

  /**
   * Widens the columns to hold one feature's properties.
   * @param properties - the feature's properties (null: none).
   */
  observe(properties: Record<string, unknown> | null): void {
    if (properties === null) return;
    for (const name in properties) {
      const kind = kindOf(properties[name]);
      const was = this.seen.get(name);
      if (was === undefined || was === null) this.seen.set(name, kind);
      else if (kind !== null && kind !== was) this.seen.set(name, widen(was, kind));
    }
  }
}

// The kind that holds values of kinds a and b.
function widen(a: ColumnKind, b: ColumnKind): ColumnKind {
  if ((a === 'int' && b === 'double') || (a === 'double' && b === 'int')) return 'double';
  return 'json';
}

/** A GeoJSON geometry as the writers read it. */
export type Geometry = { type: string; coordinates?: unknown; geometries?: Geometry[] };

/**
 * Whether a geometry's first position has a third value (a height).
 * @param g - the geometry.
 */
export function hasHeight(g: Geometry): boolean {
  if (g.type === 'GeometryCollection') {
    const first = g.geometries?.[0];
    return first !== undefined && hasHeight(first);
  }
  let c: unknown = g.coordinates;
  while (Array.isArray(c) && Array.isArray(c[0])) c = c[0];
  return Array.isArray(c) && c.length >= 3;
}

/** What one pass over the input gathered for a writer. */
export interface Gathered {
  /** Number of features. */
  count: number;
  /** Their boxes, [west, south, east, north] each, in input order. */
  boxes: Float64Array;
  /** Byte offsets of their JSON texts in `featureFile` (count + 1). */
  offsets: Float64Array;
  /** The scratch file of their JSON texts. */
  featureFile: string;
  /** Their property columns. */
  columns: Columns;
  /** Their geometry types (`Point`, `Polygon`, ...). */
  geometryTypes: Set<string>;
  /** Whether any has a height (a third value in its first position). */
  hasZ: boolean;
}

/**
 * The extent [west, south, east, north] of all the boxes ([0, 0, 0, 0] when there are none).
 * @param boxes - boxes as [west, south, east, north] in a row.
 */
export function extentOf(boxes: Float64Array): [number, number, number, number] {
  if (boxes.length === 0) return [0, 0, 0, 0];
  const e: [number, number, number, number] = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  for (let i = 0; i < boxes.length; i += 4) {
    if (boxes[i]! < e[0]) e[0] = boxes[i]!;
    if (boxes[i + 1]! < e[1]) e[1] = boxes[i + 1]!;
    if (boxes[i + 2]! > e[2]) e[2] = boxes[i + 2]!;
    if (boxes[i + 3]! > e[3]) e[3] = boxes[i + 3]!;
  }
  return e;
}

/** Text of the features read back and held at once by {@link inOrder}. */
const CHUNK_BYTES = 32 << 20;

/** A gap between two wanted features that is read through rather than skipped. */
const GAP = 64 << 10;

/**
 * The gathered features in the order given, a chunk at a time: the next features of the order
 * up to 32 MB of text are read in one sweep over the scratch file in file order (runs of near
 * ones in one read each), then parsed and given out in the order given. A random order over a
 * file of F bytes costs F / 32 MB sweeps of sequential reads instead of one read per feature
 * (1M reads took 4 of the 30 s of writing 1M points as FlatGeobuf).
 * @param gathered - where the features are.
 * @param order - the indices of the features, in the order wanted.
 */
export function* inOrder(gathered: Gathered, order: Uint32Array): Generator<Feature> {
  const { offsets } = gathered;
  const fd = openSync(gathered.featureFile, 'r');
  try {
    let buffer = Buffer.alloc(1 << 20);
    for (let a = 0; a < order.length; ) {
      // The chunk [a, b) of the order.
      let b = a + 1;
      let bytes = offsets[order[a]! + 1]! - offsets[order[a]!]!;
      for (; b < order.length; b++) {
        const i = order[b]!;
        const length = offsets[i + 1]! - offsets[i]!;
        if (bytes + length > CHUNK_BYTES) break;
        bytes += length;
      }
      // Its features read in file order, in runs.
      const wanted = order.slice(a, b).sort();
      const texts = new Map<number, string>();
      for (let r = 0; r < wanted.length; ) {
        let e = r + 1;
        const from = offsets[wanted[r]!]!;
        while (
          e < wanted.length &&
          offsets[wanted[e]!]! - offsets[wanted[e - 1]! + 1]! <= GAP &&
          offsets[wanted[e]! + 1]! - from <= 4 * GAP
        )
          e++;
        const to = offsets[wanted[e - 1]! + 1]!;
        if (to - from > buffer.length) buffer = Buffer.alloc(to - from);
        readSync(fd, buffer, 0, to - from, from);
        for (let k = r; k < e; k++) {
          const i = wanted[k]!;
          texts.set(i, buffer.toString('utf8', offsets[i]! - from, offsets[i + 1]! - from));
        }
        r = e;
      }
      for (let k = a; k < b; k++) yield JSON.parse(texts.get(order[k]!)!) as Feature;
      a = b;
    }
  } finally {
    closeSync(fd);
  }
}
