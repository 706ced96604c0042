// The typed-array door of the dynamic indexes: items that are the numbers 0, 1, 2, ... whose
// bounds live in the caller's own array of numbers (minX, minY, maxX, maxY per box; x, y per
// point), kept by reference, never copied. The caller moves item i by writing its numbers there
// and calling `update(i)`, or `updateAll()` after writing many; the index reads them from the
// array and no object stands for an item anywhere (the way entity-component systems keep
// positions, and the way flatbush and kdbush take their input).

import { badField, InvalidTypeError, InvalidValueError, wrongType } from './errors.js';
import {
  BOX_LAYOUT,
  badBox,
  checkOptions,
  type ItemReader,
  isBox,
  itemCount,
  POINT_LAYOUT,
  putXY,
} from './validate.js';

/** The reader of a typed-array door: an ItemReader of numbers that also reads items 0..n-1. */
export interface NumberedReader extends ItemReader<number> {
  /**
   * Reads the bounds of items 0..n-1 into `out`, or throws naming the first bad item.
   * @param n - how many items.
   * @param out - 4 numbers per item (minX, minY, maxX, maxY).
   * @param suffix - appended to an error's message.
   */
  first(n: number, out: Float64Array, suffix: string): void;
}

/**
 * Checks the array and options of a typed-array door (`fromBoxes` over boxes, `fromPoints` over
 * points) and returns how many items the array holds.
 * @param values - the caller's array.
 * @param door - the door, as messages name it (`Quadtree.fromBoxes`).
 * @param options - the options given, which must not name a reader of the caller's items.
 * @param known - the index's option names (its reader's among them).
 * @param points - whether the array holds points (x, y) rather than boxes.
 */
export function openDoor(
  values: ArrayLike<number>,
  door: string,
  options: object,
  known: readonly string[],
  points: boolean,
): number {
  const n = points
    ? itemCount(values, `${door}(points)`, 2, POINT_LAYOUT)
    : itemCount(values, `${door}(boxes)`, 4, BOX_LAYOUT);
  const key = points ? 'toPoint' : 'toRect';
  if (options !== null && typeof options === 'object' && key in options) {
    throw new InvalidTypeError(
      `quadkit: ${door} reads the items' bounds from its array and takes no options.${key}; ` +
        `index items of your own with from(items, { ${key} })`,
    );
  }
  checkOptions(
    options,
    door,
    known.filter((k) => k !== key),
    false,
  );
  return n;
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
  const read = (item: number, out: Float64Array): void => {
    if (!put(item, out, 0)) explain(item);
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

// Whether i is an index of an array of `length` numbers, `per` per item: an integer from 0,
// not -0 (which a Map takes for 0, and which answers would then hand back).
function isIndex(i: number, per: number, length: number): boolean {
  return (
    typeof i === 'number' &&
    (i | 0) === i &&
    i >= 0 &&
    per * i + per <= length &&
    (i !== 0 || 1 / i > 0)
  );
}

// Writes box i of `boxes` at out[j..j+4), or returns false when i is not an index of a box or
// the box is not 4 finite numbers with min <= max.
function putBox(boxes: ArrayLike<number>, i: number, out: Float64Array, j: number): boolean {
  if (!isIndex(i, 4, boxes.length)) return false;
  const at = 4 * i;
  const a = boxes[at]!;
  const b = boxes[at + 1]!;
  const c = boxes[at + 2]!;
  const d = boxes[at + 3]!;
  if (!isBox(a, b, c, d)) return false;
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
  return isIndex(i, 2, points.length) && putXY(points[2 * i], points[2 * i + 1], out, j);
}

// Throws the error for item i of `boxes`, which putBox refused.
function explainBox(boxes: ArrayLike<number>, i: number): never {
  checkIndex(i, 4, boxes.length, 'boxes');
  const box = [0, 1, 2, 3].map((k) => boxes[4 * i + k]);
  box.forEach((v, k) => {
    if (typeof v !== 'number') wrongType(`boxes[${4 * i + k}] (item ${i})`, v, 'a number');
  });
  return badBox(`item ${i} (boxes[${4 * i}..${4 * i + 3}])`, box);
}

// Throws the error for item i of `points`, which putPoint refused.
function explainPoint(points: ArrayLike<number>, i: number): never {
  checkIndex(i, 2, points.length, 'points');
  for (let k = 0; k < 2; k++) {
    const v = points[2 * i + k];
    const field = `points[${2 * i + k}] (item ${i})`;
    if (typeof v !== 'number') wrongType(field, v, 'a number');
    if (v - v !== 0) badField(field, v, 'a finite number');
  }
  throw new InvalidValueError(
    `quadkit: item ${i} (points[${2 * i}..${2 * i + 1}]) changed while read`,
  );
}

// Throws unless the item is an index of the array (`per` numbers per item), saying how to fix it.
function checkIndex(i: number, per: number, length: number, array: string): void {
  if (isIndex(i, per, length)) return;
  const n = Math.floor(length / per);
  const layout = per === 4 ? BOX_LAYOUT : POINT_LAYOUT;
  if (typeof i !== 'number') {
    wrongType('item', i, `an item number: an index of ${array} (${layout})`);
  }
  if (!Number.isInteger(i) || i < 0 || (i === 0 && 1 / i < 0)) {
    throw new InvalidValueError(
      `quadkit: item must be an index of ${array}, an integer from 0 (${layout}), got ${Object.is(i, -0) ? '-0' : i}`,
    );
  }
  throw new InvalidValueError(
    `quadkit: item ${i} is past the end of ${array}, which holds ${n} item${n === 1 ? '' : 's'} ` +
      `(${layout}); grow the array first, or remove(${i}) before shrinking it`,
  );
}
