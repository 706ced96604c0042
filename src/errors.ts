// The errors quadkit throws: one class per kind of mistake, each a subclass of the built-in class
// that kind of mistake has always raised (RangeError, TypeError or Error), so `instanceof
// RangeError` keeps working, and each with a `code` string to switch on.

/** The `code` of every error quadkit throws. */
export type QuadkitErrorCode =
  | 'QUADKIT_INVALID_VALUE'
  | 'QUADKIT_INVALID_TYPE'
  | 'QUADKIT_UNKNOWN_OPTION'
  | 'QUADKIT_DUPLICATE_ITEM'
  | 'QUADKIT_WALK_IN_PROGRESS'
  | 'QUADKIT_CORRUPT_BUFFER';

/**
 * A value of the right type outside its range: a coordinate that is NaN or infinite, a negative
 * width, a `k` that is not an integer, a `maxLevels` of 40, a zero-area triangle. The index is
 * unchanged.
 */
export class InvalidValueError extends RangeError {
  /** Always `'QUADKIT_INVALID_VALUE'`. */
  readonly code = 'QUADKIT_INVALID_VALUE' as const;
  static {
    InvalidValueError.prototype.name = 'InvalidValueError';
  }
}

/**
 * A value of the wrong type: an item that is not an object (`insert(5)`, `insert(null)`), a
 * coordinate that is a string, a `toRect` that is not a function, options that are not an object,
 * an index that cannot do what is asked of it. The index is unchanged.
 */
export class InvalidTypeError extends TypeError {
  /** Always `'QUADKIT_INVALID_TYPE'`. */
  readonly code = 'QUADKIT_INVALID_TYPE' as const;
  static {
    InvalidTypeError.prototype.name = 'InvalidTypeError';
  }
}

/**
 * An options object with a key the constructor does not know (a misspelt or foreign option, such
 * as `maxDepth` for a Quadtree); the message lists the known ones.
 */
export class UnknownOptionError extends TypeError {
  /** Always `'QUADKIT_UNKNOWN_OPTION'`. */
  readonly code = 'QUADKIT_UNKNOWN_OPTION' as const;
  static {
    UnknownOptionError.prototype.name = 'UnknownOptionError';
  }
}

/**
 * An item inserted into an index that already holds it (items are kept by reference: call
 * `update(item)` after moving it), or listed twice in one `load`. The index is unchanged.
 */
export class DuplicateItemError extends Error {
  /** Always `'QUADKIT_DUPLICATE_ITEM'`. */
  readonly code = 'QUADKIT_DUPLICATE_ITEM' as const;
  static {
    DuplicateItemError.prototype.name = 'DuplicateItemError';
  }
}

/**
 * A mutation (or another walk) started from inside a `pairs`, `visit` or `toRect` callback, while
 * the index is being walked: collect the changes and apply them after the walk.
 */
export class WalkInProgressError extends Error {
  /** Always `'QUADKIT_WALK_IN_PROGRESS'`. */
  readonly code = 'QUADKIT_WALK_IN_PROGRESS' as const;
  static {
    WalkInProgressError.prototype.name = 'WalkInProgressError';
  }
}

/**
 * A buffer given to `StaticQuadtree.fromBuffer` that is not a whole, intact tree written by
 * `toBuffer()` of this format version: truncated, corrupted, or of another kind.
 */
export class CorruptBufferError extends Error {
  /** Always `'QUADKIT_CORRUPT_BUFFER'`. */
  readonly code = 'QUADKIT_CORRUPT_BUFFER' as const;
  static {
    CorruptBufferError.prototype.name = 'CorruptBufferError';
  }
}

/**
 * How a bad value reads in a message: strings quoted, arrays by their length, objects by kind.
 */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null)
    return Array.isArray(value) ? `an array of ${value.length}` : 'an object';
  return String(value);
}

/**
 * Throws for a field that is not what `rule` says: an InvalidValueError when it is a number (of
 * the right type, out of range), else an InvalidTypeError.
 * @param what - the field, as the message names it.
 * @param value - what it holds.
 * @param rule - what it must be.
 * @param hint - appended to the message: how to fix it, where that can be told.
 */
export function badField(what: string, value: unknown, rule: string, hint = ''): never {
  const text = `quadkit: ${what} must be ${rule}, got ${describe(value)}${hint}`;
  throw typeof value === 'number' ? new InvalidValueError(text) : new InvalidTypeError(text);
}

/** Throws an InvalidTypeError for a field that must be an object (or function) and is not. */
export function wrongType(what: string, value: unknown, rule: string): never {
  throw new InvalidTypeError(`quadkit: ${what} must be ${rule}, got ${describe(value)}`);
}
