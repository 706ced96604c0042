// The typed-array door of the dynamic indexes: items that are the numbers 0, 1, 2, ... whose
// bounds live in the caller's own array of numbers (minX, minY, maxX, maxY per box; x, y per
// point), kept by reference, never copied. The caller moves item i by writing its numbers there
// and calling `update(i)`, or `updateAll()` after writing many; the index reads them from the
// array and no object stands for an item anywhere (the way entity-component systems keep
// positions, and the way flatbush and kdbush take their input).

import { badField, InvalidTypeError, InvalidValueError, wrongType } from './errors.js';
import { BOUNDS, type ItemReader, putXY } from './validate.js';

/** What the 4 numbers of a box are. */
export const BOX_LAYOUT = '4 numbers minX, minY, maxX, maxY per item';
/** What the 2 numbers of a point are. */
export const POINT_LAYOUT = '2 numbers x, y per item';

/**
 * Throws when the options of a typed-array door name a reader of items of the caller's own
 * (the door reads the items' bounds from its array).
 * @param options - the options given.
 * @param key - `toRect` or `toPoint`.
 * @param door - the door, as the message names it.
 */
export function noReaderOption(options: object, key: string, door: string): void {
  if (options !== null && typeof options === 'object' && key in options) {
    throw new InvalidTypeError(
      `quadkit: ${door} reads the items' bounds from its array and takes no options.${key}; ` +
        `index items of your own with from(items, { ${key} })`,
    );
  }
}

/** The reader of a typed-array door: an ItemReader of numbers that also reads items 0..n-1. */
export interface NumberedReader extends ItemReader<number> {
  /** Reads the bounds of items 0..n-1 into `out` (4 numbers each), or throws naming the item. */
  first(n: number, out: Float64Array, suffix: string): void;
}

/**
 * The reader of items that are indices of `boxes` (minX, minY, maxX, maxY per item): item i's
 * bounds are boxes[4i..4i+3], checked at every read.
 * @param boxes - the caller's array, read at each call (it may grow).
 */
export function boxesReader(boxes: ArrayLike<number>): NumberedReader {
  return numberedReader(
    (i, out, j) => putBox(boxes, i, out, j),
    (i) => explainBox(boxes, i),
  );
}

/**
 * The reader of items that are indices of `points` (x, y per item): item i is the point
 * (points[2i], points[2i+1]), checked at every read.
 * @param points - the caller's array, read at each call (it may grow).
 */
export function pointsReader(points: ArrayLike<number>): NumberedReader {
  return numberedReader(
    (i, out, j) => putPoint(points, i, out, j),
    (i) => explainPoint(points, i),
  );
}

// A reader from `put` (writes item i's bounds at out[j..j+4), or returns false) and `explain`
// (throws the error for an item that put refused).
function numberedReader(
  put: (i: number, out: Float64Array, j: number) => boolean,
  explain: (i: number) => never,
): NumberedReader {
  const fail = (i: number, suffix: string): never => {
    try {
      explain(i);
    } catch (e) {
      if (e instanceof Error) e.message += suffix;
      throw e;
    }
  };
  const read = (item: number): void => {
    if (!put(item, BOUNDS, 0)) explain(item);
  };
  return Object.assign(read, {
    many: (items: readonly number[], out: Float64Array, suffix: string) => {
      for (let k = 0; k < items.length; k++)
        if (!put(items[k]!, out, 4 * k)) fail(items[k]!, suffix);
    },
    first: (n: number, out: Float64Array, suffix: string) => {
      for (let k = 0; k < n; k++) if (!put(k, out, 4 * k)) fail(k, suffix);
    },
  });
}

// Writes box i of `boxes` at out[j..j+4), or returns false when i is not an index of a box or
// the box is not 4 finite numbers with min <= max.
function putBox(boxes: ArrayLike<number>, i: number, out: Float64Array, j: number): boolean {
  const at = 4 * i;
  if (!(at >= 0 && at + 3 < boxes.length && (i | 0) === i)) return false;
  const a = boxes[at]!;
  const b = boxes[at + 1]!;
  const c = boxes[at + 2]!;
  const d = boxes[at + 3]!;
  if (!(a <= c && b <= d && a - a === 0 && b - b === 0 && c - c === 0 && d - d === 0)) {
    return false;
  }
  if (typeof a !== 'number' || typeof b !== 'number') return false;
  if (typeof c !== 'number' || typeof d !== 'number') return false;
  out[j] = a;
  out[j + 1] = b;
  out[j + 2] = c;
  out[j + 3] = d;
  return true;
}

// Writes point i of `points` as the box x, y, x, y at out[j..j+4), or returns false.
function putPoint(points: ArrayLike<number>, i: number, out: Float64Array, j: number): boolean {
  const at = 2 * i;
  if (!(at >= 0 && at + 1 < points.length && (i | 0) === i)) return false;
  return putXY(points[at], points[at + 1], out, j);
}

// Throws the error for item i of `boxes`, which putBox refused.
function explainBox(boxes: ArrayLike<number>, i: number): never {
  const n = Math.floor(boxes.length / 4);
  checkIndex(i, n, 'boxes', '4 numbers minX, minY, maxX, maxY');
  const box = [0, 1, 2, 3].map((k) => boxes[4 * i + k]);
  box.forEach((v, k) => {
    if (typeof v !== 'number') wrongType(`boxes[${4 * i + k}] (item ${i})`, v, 'a number');
  });
  throw new InvalidValueError(
    `quadkit: item ${i} (boxes[${4 * i}..${4 * i + 3}]) must be 4 finite numbers minX <= maxX, minY <= maxY, got [${box.join(', ')}]`,
  );
}

// Throws the error for item i of `points`, which putPoint refused.
function explainPoint(points: ArrayLike<number>, i: number): never {
  const n = Math.floor(points.length / 2);
  checkIndex(i, n, 'points', '2 numbers x, y');
  for (let k = 0; k < 2; k++) {
    const v = points[2 * i + k];
    const field = `points[${2 * i + k}] (item ${i})`;
    if (typeof v !== 'number') wrongType(field, v, 'a number');
    if (v - v !== 0) badField(field, v, 'a finite number');
  }
  throw new Error(`quadkit: item ${i} changed while it was read`);
}

// Throws unless the item is an index of one of the n entries of the array.
function checkIndex(i: number, n: number, array: string, entry: string): void {
  if (typeof i === 'number' && Number.isInteger(i) && i >= 0 && i < n) return;
  badField(
    'item',
    i,
    n === 0
      ? `an index of ${array}, which holds no item (${entry} per item)`
      : `an index of ${array}: an integer from 0 to ${n - 1} (${entry} per item)`,
  );
}
