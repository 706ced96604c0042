// Validation at the boundary: every front door checks its input here before any mutation, so a
// bad item or argument throws an InvalidValueError (a RangeError) or InvalidTypeError (a
// TypeError) that names the field and leaves the index unchanged. `x - x === 0` is true exactly
// for finite numbers (NaN and ±Infinity give NaN).

import { badField as bad, InvalidValueError, UnknownOptionError, wrongType } from './errors.js';
import type { PointLike, Rect, RectLike, ToPoint, ToRect } from './types.js';

/**
 * Reads an item's bounds into out[0..3] (minX, minY, maxX, maxY), through `toRect` when given,
 * else from `item.x`, `item.y`, `item.width ?? 0`, `item.height ?? 0`. Throws when they are not
 * finite numbers or a size is negative (and then writes nothing).
 */
function readItem<T>(item: T, toRect: ToRect<T> | undefined, out: Float64Array): void {
  if (toRect === undefined) {
    if (item === null || typeof item !== 'object') {
      wrongType('item', item, 'an object { x, y, width?, height? } (or give options.toRect)');
    }
    readRectLike(item as unknown as RectLike, 'item', out);
    return;
  }
  if (item === undefined || item === null) {
    wrongType('item', item, 'a value kept by reference, not null or undefined');
  }
  const r = toRect(item) as RectLike | null | undefined;
  if (r === null || typeof r !== 'object') {
    wrongType('toRect(item)', r, 'an object { x, y, width?, height? }');
  }
  readRectLike(r, 'toRect(item)', out);
}

/**
 * Reads a point item's position into out[0..3] (a zero-size box), through `toPoint` when given,
 * else from `item.x`, `item.y`. Throws when they are not finite numbers (and then writes
 * nothing).
 */
function readPointItem<T>(item: T, toPoint: ToPoint<T> | undefined, out: Float64Array): void {
  if (toPoint === undefined) {
    if (item === null || typeof item !== 'object') {
      wrongType('item', item, 'an object { x, y } (or give options.toPoint)');
    }
  } else if (item === undefined || item === null) {
    wrongType('item', item, 'a value kept by reference, not null or undefined');
  }
  const p = (toPoint === undefined ? item : toPoint(item)) as PointLike | null | undefined;
  const name = toPoint === undefined ? 'item' : 'toPoint(item)';
  if (p === null || typeof p !== 'object') wrongType(name, p, 'an object { x, y }');
  const { x, y } = p;
  if (typeof x !== 'number' || x - x !== 0)
    bad(`${name}.x`, x, 'a finite number', shapeHint(p, name, 'toPoint'));
  if (typeof y !== 'number' || y - y !== 0)
    bad(`${name}.y`, y, 'a finite number', shapeHint(p, name, 'toPoint'));
  out[0] = x;
  out[1] = y;
  out[2] = x;
  out[3] = y;
}

function readRectLike(r: RectLike, name: string, out: Float64Array): void {
  const { x, y } = r;
  const w = r.width === undefined ? 0 : r.width;
  const h = r.height === undefined ? 0 : r.height;
  if (typeof x !== 'number' || x - x !== 0)
    bad(`${name}.x`, x, 'a finite number', shapeHint(r, name, 'toRect'));
  if (typeof y !== 'number' || y - y !== 0)
    bad(`${name}.y`, y, 'a finite number', shapeHint(r, name, 'toRect'));
  if (typeof w !== 'number' || !(w >= 0) || w - w !== 0)
    bad(`${name}.width`, w, 'a finite number >= 0');
  if (typeof h !== 'number' || !(h >= 0) || h - h !== 0)
    bad(`${name}.height`, h, 'a finite number >= 0');
  const maxX = x + w;
  const maxY = y + h;
  if (maxX - maxX !== 0) bad(`${name}.x + width`, maxX, 'finite');
  if (maxY - maxY !== 0) bad(`${name}.y + height`, maxY, 'finite');
  out[0] = x;
  out[1] = y;
  out[2] = maxX;
  out[3] = maxY;
}

// How to fix an item, or a query rectangle, read as `{ x, y, ... }` that has no `x` or `y`: the
// shapes the peers' users hand over (rbush's and flatbush's boxes, d3's [x, y] pairs), named
// with the reader that takes them; nothing when the field is there but not finite.
function shapeHint(r: object, name: string, reader: 'toRect' | 'toPoint'): string {
  const { x, y } = r as PointLike;
  if (x !== undefined && y !== undefined) return '';
  const box = 'minX' in r && 'minY' in r && 'maxX' in r && 'maxY' in r;
  if (name === 'rect') {
    return box ? ' (a rectangle is { x, y, width, height }, not { minX, minY, maxX, maxY })' : '';
  }
  if (name !== 'item') return '';
  if (box && reader === 'toRect') {
    return ' (for { minX, minY, maxX, maxY } items give options.toRect: (b) => ({ x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY }))';
  }
  if (Array.isArray(r))
    return ` (for [x, y] items give options.${reader}: (p) => ({ x: p[0], y: p[1] }))`;
  const shape = reader === 'toRect' ? '{ x, y, width?, height? }' : '{ x, y }';
  return ` (items are read as ${shape}; give options.${reader} to read another shape)`;
}

/**
 * Reads one item's bounds into out[0..3], or throws; `many` reads a whole array of items into a
 * buffer (4 numbers per item) in one loop (see `readRects`).
 */
export interface ItemReader<T> {
  (item: T, out: Float64Array): void;
  many(items: readonly T[], out: Float64Array, suffix: string): void;
}

/** The reader of a rectangle index's items: `readItem` through `toRect` (checked here). */
export function rectReader<T>(toRect: ToRect<T> | undefined): ItemReader<T> {
  if (toRect !== undefined) checkFunction('options.toRect', toRect);
  return reader(toRect, readItem, copyRects, putRect);
}

/** The reader of a point index's items: `readPointItem` through `toPoint` (checked here). */
export function pointReader<T>(toPoint: ToPoint<T> | undefined): ItemReader<T> {
  if (toPoint !== undefined) checkFunction('options.toPoint', toPoint);
  return reader(toPoint, readPointItem, copyPoints, putPoint);
}

// --- Bulk reads ---
// One tight loop per kind of item, with the cheapest checks that accept exactly what readItem
// and readPointItem accept: a number's type, then `w >= 0` and `x + w` finite (which, with
// w >= 0, holds only when x and w are both finite). The first item that fails is read again by
// readItem or readPointItem, which builds the error message; the error (and any error thrown by
// toRect/toPoint) gets `(items[i]<suffix>)` appended.

// The ItemReader of one kind of item (S: what `map` gives, or the item itself): `one` reads an
// item (through `map` when given) or throws; `many` reads an array of items through `copy`, the
// tight loop over items of the default shape, or `put` after `map`, into 4 numbers per item,
// and throws one's error for the first bad item.
function reader<T, S>(
  map: ((item: T) => S) | undefined,
  one: (item: T, map: ((item: T) => S) | undefined, out: Float64Array) => void,
  copy: (items: readonly S[], out: Float64Array, start: number, end: number) => number,
  put: (s: S, out: Float64Array, j: number) => boolean,
): ItemReader<T> {
  const read = (item: T, out: Float64Array): void => one(item, map, out);
  return Object.assign(read, {
    many(items: readonly T[], out: Float64Array, suffix: string): void {
      const n = items.length;
      const bad =
        map === undefined
          ? copy(items as readonly unknown[] as readonly S[], out, 0, n)
          : copyThrough(items, map, put, out, suffix, 0, n);
      if (bad >= 0) rethrow(bad, suffix, (box) => one(items[bad] as T, map, box));
    },
  });
}

/**
 * Throws the error of item i of a bulk read, whose numbers failed `isRectNumbers` (read
 * through `toRect` when given): readItem's message, naming the item.
 * @param items - the items.
 * @param toRect - reads an item's bounds, or undefined for `{ x, y, width?, height? }` items.
 * @param i - the bad item.
 */
export function badRectItem<T>(
  items: readonly T[],
  toRect: ToRect<T> | undefined,
  i: number,
): never {
  rethrow(i, '', (box) => readItem(items[i] as T, toRect, box));
}

// Runs the single-item reader on the bad item, which throws its own message, and names the item.
function rethrow(i: number, suffix: string, readOne: (box: Float64Array) => void): never {
  try {
    readOne(new Float64Array(4));
  } catch (e) {
    throw itemError(e, i, suffix);
  }
  throw new Error(`quadkit: items[${i}] changed its bounds while being read${suffix}`);
}

/**
 * The error `e` thrown while reading item i (by toRect, or readItem), with the item named.
 * @param e - what was thrown.
 * @param i - the item.
 * @param suffix - appended after the item's index.
 */
export function itemError(e: unknown, i: number, suffix: string): unknown {
  if (e instanceof Error) {
    try {
      e.message = `${e.message} (items[${i}]${suffix})`;
    } catch {
      // A frozen error, or a read-only message: it goes out as it was thrown.
    }
  }
  return e;
}

// Returns -1, or the index of the first item whose bounds are bad.
function copyRects(
  items: readonly RectLike[],
  out: Float64Array,
  start: number,
  end: number,
): number {
  for (let i = start; i < end; i++) {
    const r = items[i];
    if (!putRect(r, out, 4 * (i - start))) return i;
  }
  return -1;
}

// copyRects or copyPoints through toRect or toPoint (`map`), writing with `put` (putRect or
// putPoint); an error thrown by `map` is named here.
function copyThrough<T, R>(
  items: readonly T[],
  map: (item: T) => R,
  put: (r: R, out: Float64Array, j: number) => boolean,
  out: Float64Array,
  suffix: string,
  start: number,
  end: number,
): number {
  let i = start;
  try {
    for (; i < end; i++) {
      const item = items[i];
      if (item === undefined || item === null || !put(map(item), out, 4 * (i - start))) return i;
    }
  } catch (e) {
    throw itemError(e, i, suffix);
  }
  return -1;
}

// Returns -1, or the index of the first item whose position is bad.
function copyPoints(
  items: readonly PointLike[],
  out: Float64Array,
  start: number,
  end: number,
): number {
  for (let i = start; i < end; i++) {
    const p = items[i];
    if (!putPoint(p, out, 4 * (i - start))) return i;
  }
  return -1;
}

/** What the numbers of a box are, in the arrays of the typed-array doors. */
export const BOX_LAYOUT = 'minX, minY, maxX, maxY per box';
/** What the numbers of a point are, in the arrays of the typed-array doors. */
export const POINT_LAYOUT = 'x, y per point';

/**
 * Checks the array of a typed-array door (an array-like of numbers whose length is a multiple
 * of `per`) and returns how many items it holds.
 * @param values - the caller's array.
 * @param name - the door and argument, as messages name them.
 * @param per - numbers per item.
 * @param layout - what the numbers of one item are (BOX_LAYOUT or POINT_LAYOUT).
 */
export function itemCount(
  values: ArrayLike<number>,
  name: string,
  per: number,
  layout: string,
): number {
  if (values === null || typeof values !== 'object' || typeof values.length !== 'number') {
    wrongType(name, values, `an array of numbers, ${layout}`);
  }
  checkInteger(`${name}.length`, values.length, 0, Number.MAX_SAFE_INTEGER);
  if (values.length % per !== 0) {
    throw new InvalidValueError(
      `quadkit: ${name} has length ${values.length}, not a multiple of ${per} (${layout})`,
    );
  }
  return values.length / per;
}

/**
 * Whether minX, minY, maxX, maxY are a box: finite numbers with min <= max.
 * @param a - minX.
 * @param b - minY.
 * @param c - maxX.
 * @param d - maxY.
 */
export function isBox(a: number, b: number, c: number, d: number): boolean {
  return a <= c && b <= d && a - a === 0 && b - b === 0 && c - c === 0 && d - d === 0;
}

/**
 * Throws the InvalidValueError for numbers that are not a box (see isBox).
 * @param name - the box, as the message names it.
 * @param box - its 4 numbers.
 */
export function badBox(name: string, box: readonly unknown[]): never {
  throw new InvalidValueError(
    `quadkit: ${name} must be 4 finite numbers minX <= maxX, minY <= maxY, got [${box.join(', ')}]`,
  );
}

/**
 * Reads a query rectangle into out[0..3] (minX, minY, maxX, maxY); throws when it is not a
 * finite rectangle (and then writes nothing).
 */
export function readQueryRect(rect: Rect, out: Float64Array): void {
  if (rect === null || typeof rect !== 'object')
    wrongType('rect', rect, 'an object { x, y, width, height }');
  readRectLike(rect, 'rect', out);
}

/** Throws unless `value` is a finite number. */
export function checkFinite(name: string, value: number): void {
  if (typeof value !== 'number' || value - value !== 0) bad(name, value, 'a finite number');
}

/** Throws unless `value` is a finite number > 0. */
export function checkPositive(name: string, value: number): void {
  if (typeof value !== 'number' || !(value > 0) || value - value !== 0) {
    bad(name, value, 'a finite number > 0');
  }
}

/** Throws unless `value` is a number >= 0 (`Infinity` allowed when `infinite`). */
export function checkNonNegative(name: string, value: number, infinite: boolean): void {
  if (
    typeof value !== 'number' ||
    !(value >= 0) ||
    (!infinite && value === Number.POSITIVE_INFINITY)
  ) {
    bad(name, value, infinite ? 'a number >= 0 (Infinity allowed)' : 'a finite number >= 0');
  }
}

/**
 * A farthest distance: `value`, or Infinity for null and undefined (no limit, as d3-quadtree's
 * `find(x, y, radius)` takes a missing radius); throws unless a number >= 0 (Infinity allowed).
 */
export function maxDistanceOf(value: number | null | undefined, name = 'maxDistance'): number {
  if (value === null || value === undefined) return Number.POSITIVE_INFINITY;
  checkNonNegative(name, value, true);
  return value;
}

/** Throws unless `value` is an integer in [min, max]. */
export function checkInteger(name: string, value: number, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    bad(name, value, `an integer from ${min} to ${max}`);
  }
}

/** Throws unless `value` is a count of answers: an integer >= 0, or Infinity for all. */
export function checkCount(name: string, value: number): void {
  if (value === Number.POSITIVE_INFINITY) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    bad(name, value, 'an integer >= 0, or Infinity for all');
  }
}

/** Throws unless `value` is a number in [min, max]. */
export function checkRange(name: string, value: number, min: number, max: number): void {
  if (typeof value !== 'number' || !(value >= min && value <= max))
    bad(name, value, `a number from ${min} to ${max}`);
}

/** Throws unless `value` is a boolean or undefined (an optional flag). */
export function checkFlag(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') wrongType(name, value, 'true or false');
}

/** Throws unless `value` is a function. */
export function checkFunction(name: string, value: unknown): void {
  if (typeof value !== 'function') wrongType(name, value, 'a function');
}

/** Validates the bounds option of an index: finite x, y and finite positive width, height. */
export function checkBounds(name: string, b: Rect | undefined): Rect {
  if (b === null || typeof b !== 'object') {
    wrongType(name, b, 'an object { x, y, width, height } giving the area the items live in');
  }
  checkFinite(`${name}.x`, b.x);
  checkFinite(`${name}.y`, b.y);
  checkPositive(`${name}.width`, b.width);
  checkPositive(`${name}.height`, b.height);
  if (!Number.isFinite(b.x + b.width) || !Number.isFinite(b.y + b.height)) {
    bad(`${name}.x + width`, b.x + b.width, 'finite');
  }
  return { x: b.x, y: b.y, width: b.width, height: b.height };
}

/**
 * Checks an options object at a front door: it must be an object (`undefined` stands for `{}`
 * when `optional`), and every own key must be one of `known`, else an UnknownOptionError lists
 * them. Returns the options (`{}` for an absent optional object).
 * @param options - what the caller passed.
 * @param owner - who takes the options, as the message names it (`Quadtree`, `fitView`).
 * @param known - the option names it knows, in the order the message lists them.
 * @param optional - whether the options object may be left out.
 */
export function checkOptions<O extends object>(
  options: O | undefined,
  owner: string,
  known: readonly string[],
  optional: boolean,
): O {
  if (options === undefined && optional) return {} as O;
  if (options === null || typeof options !== 'object') {
    wrongType(`options of ${owner}`, options, `an object { ${known.join(', ')} }`);
  }
  for (const key in options) {
    if (!Object.hasOwn(options, key) || known.includes(key)) continue;
    // quadtree-js takes the bounds themselves, then maxObjects and maxLevels as arguments.
    const bounds = !(known.includes('bounds') && ['x', 'y', 'width', 'height'].includes(key))
      ? ''
      : owner.includes('.')
        ? ' (the bounds go in options.bounds: { bounds: { x, y, width, height } })'
        : ` (the bounds go in options.bounds: new ${owner}({ bounds: { x, y, width, height } }))`;
    throw new UnknownOptionError(
      `quadkit: unknown option ${JSON.stringify(key)} for ${owner}; known options: ${known.join(', ')}${bounds}`,
    );
  }
  return options;
}

/**
 * Whether an item's x, y, width and height, as read, are a rectangle the bulk reads accept: x, y
 * numbers, width, height numbers >= 0 or undefined (read as 0), x + width and y + height finite.
 * @param x - item.x.
 * @param y - item.y.
 * @param w - item.width.
 * @param h - item.height.
 */
export function isRectNumbers(x: unknown, y: unknown, w: unknown, h: unknown): boolean {
  if (w === undefined) w = 0;
  if (h === undefined) h = 0;
  if (typeof x !== 'number' || typeof y !== 'number') return false;
  if (typeof w !== 'number' || typeof h !== 'number') return false;
  const maxX = x + w;
  const maxY = y + h;
  return w >= 0 && h >= 0 && maxX - maxX === 0 && maxY - maxY === 0;
}

/**
 * Writes a `{ x, y, width?, height? }` as minX, minY, maxX, maxY at out[j..j+4), or returns false
 * when it is not one (see isRectNumbers).
 * @param r - the rectangle read.
 * @param out - where the box goes.
 * @param j - the box's first index in `out`.
 */
export function putRect(r: RectLike | null | undefined, out: Float64Array, j: number): boolean {
  if (r === null || typeof r !== 'object') return false;
  const { x, y, width, height } = r;
  if (!isRectNumbers(x, y, width, height)) return false;
  out[j] = x;
  out[j + 1] = y;
  out[j + 2] = x + (width ?? 0);
  out[j + 3] = y + (height ?? 0);
  return true;
}

// Writes a `{ x, y }` as the box x, y, x, y at out[j..j+4), or returns false.
function putPoint(p: PointLike | null | undefined, out: Float64Array, j: number): boolean {
  return p !== null && typeof p === 'object' && putXY(p.x, p.y, out, j);
}

/**
 * Writes the point (x, y) as the box x, y, x, y at out[j..j+4), or returns false when x or y is
 * not a finite number.
 * @param x - the x read from the caller's data.
 * @param y - the y read from the caller's data.
 * @param out - where the box goes.
 * @param j - the box's first index in `out`.
 */
export function putXY(x: unknown, y: unknown, out: Float64Array, j: number): boolean {
  if (typeof x !== 'number' || typeof y !== 'number' || x - x !== 0 || y - y !== 0) return false;
  out[j] = x;
  out[j + 1] = y;
  out[j + 2] = x;
  out[j + 3] = y;
  return true;
}
