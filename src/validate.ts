// Validation at the boundary: every front door checks its input here before any mutation, so a
// bad item or argument throws a RangeError/TypeError that names the field and leaves the index
// unchanged. `x - x === 0` is true exactly for finite numbers (NaN and ±Infinity give NaN).

import type { PointLike, Rect, RectLike, ToPoint, ToRect } from './types.js';

/** Scratch for the bounds of the item being read: minX, minY, maxX, maxY. */
export const BOUNDS = new Float64Array(4);

/** A value as an error message shows it. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null)
    return Array.isArray(value) ? 'an array' : 'an object';
  return String(value);
}

function bad(what: string, value: unknown, rule: string): never {
  const text = `quadkit: ${what} must be ${rule}, got ${describe(value)}`;
  throw typeof value === 'number' ? new RangeError(text) : new TypeError(text);
}

/**
 * Reads an item's bounds into `BOUNDS` (minX, minY, maxX, maxY), through `toRect` when given,
 * else from `item.x`, `item.y`, `item.width ?? 0`, `item.height ?? 0`. Throws when they are not
 * finite numbers or a size is negative.
 */
export function readItem<T>(item: T, toRect: ToRect<T> | undefined): void {
  if (item === undefined || item === null)
    bad('item', item, 'an object (items are kept by reference)');
  const r = (toRect === undefined ? item : toRect(item)) as RectLike | null | undefined;
  if (r === null || typeof r !== 'object') {
    bad(toRect === undefined ? 'item' : 'toRect(item)', r, 'an object { x, y, width?, height? }');
  }
  readRectLike(r, toRect === undefined ? 'item' : 'toRect(item)');
}

/**
 * Reads a point item's position into `BOUNDS` (a zero-size box), through `toPoint` when given,
 * else from `item.x`, `item.y`. Throws when they are not finite numbers.
 */
export function readPointItem<T>(item: T, toPoint: ToPoint<T> | undefined): void {
  if (item === undefined || item === null)
    bad('item', item, 'an object (items are kept by reference)');
  const p = (toPoint === undefined ? item : toPoint(item)) as PointLike | null | undefined;
  const name = toPoint === undefined ? 'item' : 'toPoint(item)';
  if (p === null || typeof p !== 'object') bad(name, p, 'an object { x, y }');
  const { x, y } = p;
  if (typeof x !== 'number' || x - x !== 0) bad(`${name}.x`, x, 'a finite number');
  if (typeof y !== 'number' || y - y !== 0) bad(`${name}.y`, y, 'a finite number');
  BOUNDS[0] = x;
  BOUNDS[1] = y;
  BOUNDS[2] = x;
  BOUNDS[3] = y;
}

function readRectLike(r: RectLike, name: string): void {
  const { x, y } = r;
  const w = r.width === undefined ? 0 : r.width;
  const h = r.height === undefined ? 0 : r.height;
  if (typeof x !== 'number' || x - x !== 0) bad(`${name}.x`, x, 'a finite number');
  if (typeof y !== 'number' || y - y !== 0) bad(`${name}.y`, y, 'a finite number');
  if (typeof w !== 'number' || !(w >= 0) || w - w !== 0)
    bad(`${name}.width`, w, 'a finite number >= 0');
  if (typeof h !== 'number' || !(h >= 0) || h - h !== 0)
    bad(`${name}.height`, h, 'a finite number >= 0');
  const maxX = x + w;
  const maxY = y + h;
  if (maxX - maxX !== 0) bad(`${name}.x + width`, maxX, 'finite');
  if (maxY - maxY !== 0) bad(`${name}.y + height`, maxY, 'finite');
  BOUNDS[0] = x;
  BOUNDS[1] = y;
  BOUNDS[2] = maxX;
  BOUNDS[3] = maxY;
}

/** The reader of a rectangle index's items: `readItem` through `toRect` (checked here). */
export function rectReader<T>(toRect: ToRect<T> | undefined): (item: T) => void {
  if (toRect !== undefined) checkFunction('options.toRect', toRect);
  return (item) => readItem(item, toRect);
}

/** The reader of a point index's items: `readPointItem` through `toPoint` (checked here). */
export function pointReader<T>(toPoint: ToPoint<T> | undefined): (item: T) => void {
  if (toPoint !== undefined) checkFunction('options.toPoint', toPoint);
  return (item) => readPointItem(item, toPoint);
}

/** Reads a query rectangle into `BOUNDS`; throws when it is not a finite rectangle. */
export function readQueryRect(rect: Rect): void {
  if (rect === null || typeof rect !== 'object')
    bad('rect', rect, 'an object { x, y, width, height }');
  readRectLike(rect, 'rect');
}

/** Throws unless `value` is a finite number. */
export function checkFinite(name: string, value: number): void {
  if (typeof value !== 'number' || value - value !== 0) bad(name, value, 'a finite number');
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

/** Throws unless `value` is an integer in [min, max]. */
export function checkInteger(name: string, value: number, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    bad(name, value, `an integer from ${min} to ${max}`);
  }
}

/** Throws unless `value` is a number in [min, max]. */
export function checkRange(name: string, value: number, min: number, max: number): void {
  if (typeof value !== 'number' || !(value >= min && value <= max))
    bad(name, value, `a number from ${min} to ${max}`);
}

/** Throws unless `value` is a function. */
export function checkFunction(name: string, value: unknown): void {
  if (typeof value !== 'function') bad(name, value, 'a function');
}

/** Validates the bounds option of an index: finite x, y and finite positive width, height. */
export function checkBounds(name: string, b: Rect | undefined): Rect {
  if (b === null || typeof b !== 'object') {
    bad(name, b, 'an object { x, y, width, height } giving the area the items live in');
  }
  checkFinite(`${name}.x`, b.x);
  checkFinite(`${name}.y`, b.y);
  if (typeof b.width !== 'number' || !(b.width > 0) || b.width - b.width !== 0) {
    bad(`${name}.width`, b.width, 'a finite number > 0');
  }
  if (typeof b.height !== 'number' || !(b.height > 0) || b.height - b.height !== 0) {
    bad(`${name}.height`, b.height, 'a finite number > 0');
  }
  if (!Number.isFinite(b.x + b.width) || !Number.isFinite(b.y + b.height)) {
    bad(`${name}.x + width`, b.x + b.width, 'finite');
  }
  return { x: b.x, y: b.y, width: b.width, height: b.height };
}
