// What `quadkit index` gathers in one pass over its input for the writers of FlatGeobuf and
// GeoParquet: the features' JSON texts in a scratch file with their byte offsets, their boxes, the
// type of each property and the geometry types. The writers then go through the features again
// in their own order (Hilbert order of the boxes' centres), one at a time from the scratch file.
import { closeSync, openSync, readSync } from 'node:fs';
import type { Feature } from './input.js';

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
  /** Kind by column name. */
  readonly kinds = new Map<string, ColumnKind>();

  /**
   * Widens the columns to hold one feature's properties.
   * @param properties - the feature's properties (null: none).
   */
  observe(properties: Record<string, unknown> | null): void {
    if (properties === null) return;
    for (const name in properties) {
      const kind = kindOf(properties[name]);
      const was = this.kinds.get(name);
      if (was === undefined) this.kinds.set(name, kind ?? 'string');
      else if (kind !== null && kind !== was) this.kinds.set(name, widen(was, kind));
    }
  }
}

// The kind that holds values of kinds a and b (a column of nulls so far is taken as 'string' and
// gives way to the first kind met).
function widen(a: ColumnKind, b: ColumnKind): ColumnKind {
  if ((a === 'int' && b === 'double') || (a === 'double' && b === 'int')) return 'double';
  return 'json';
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

/**
 * Reads gathered features back one at a time, in any order, with synchronous reads (a small
 * read each: an asynchronous one costs more than the parse).
 * @param gathered - where the features are.
 * @returns `read(i)`, feature i, and `close()`.
 */
export function featureReader(gathered: Gathered): {
  read: (i: number) => Feature;
  close: () => void;
} {
  const fd = openSync(gathered.featureFile, 'r');
  let buffer = Buffer.alloc(1 << 16);
  const { offsets } = gathered;
  return {
    read(i) {
      const start = offsets[i]!;
      const length = offsets[i + 1]! - start;
      if (length > buffer.length) buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, start);
      return JSON.parse(buffer.toString('utf8', 0, length)) as Feature;
    },
    close: () => closeSync(fd),
  };
}
