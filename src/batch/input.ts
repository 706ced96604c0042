// Query arrays at the boundary: each is checked and copied, in one pass, into a Float64Array
// over a SharedArrayBuffer that every thread of the batch reads. A bad array throws a
// TypeError/RangeError naming the argument, the entry and its value, before any work starts.

import { badField, describe, InvalidTypeError, InvalidValueError } from '../errors.js';
import { AT_POINT, BOX, CIRCLE_AT, KNN, STRIDE } from './kernel.js';

/** The argument name and the meaning of each number of a query, per kind. */
const LAYOUT: Record<number, { name: string; fields: readonly string[] }> = {
  [BOX]: { name: 'boxes', fields: ['minX', 'minY', 'maxX', 'maxY'] },
  [AT_POINT]: { name: 'points', fields: ['x', 'y'] },
  [CIRCLE_AT]: { name: 'circles', fields: ['x', 'y', 'r'] },
  [KNN]: { name: 'points', fields: ['x', 'y'] },
};

/** Throws unless SharedArrayBuffer exists (in browsers: a cross-origin isolated page). */
export function checkShared(): void {
  if (typeof SharedArrayBuffer === 'undefined') {
    throw new InvalidTypeError(
      'quadkit: BatchPool needs SharedArrayBuffer; in a browser, serve the page cross-origin ' +
        'isolated (Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp)',
    );
  }
}

/**
 * Checks the queries of a batch of `kind` and returns a shared copy: every number finite,
 * min <= max in boxes, r >= 0 in circles.
 * @param kind - BOX, AT_POINT, CIRCLE_AT or KNN.
 * @param values - STRIDE[kind] numbers per query, a Float64Array or an array of numbers.
 */
export function readQueries(kind: number, values: ArrayLike<number>): Float64Array {
  const { name, fields } = LAYOUT[kind]!;
  const stride = STRIDE[kind]!;
  const layout = `${stride} numbers per query (${fields.join(', ')})`;
  if (
    values === null ||
    typeof values !== 'object' ||
    !(Array.isArray(values) || (ArrayBuffer.isView(values) && !(values instanceof DataView)))
  ) {
    throw new InvalidTypeError(
      `quadkit: ${name} must be a Float64Array (or another typed array, or an array) of ${layout}, got ${describe(values)}`,
    );
  }
  const length = values.length;
  if (length % stride !== 0) {
    throw new InvalidValueError(
      `quadkit: ${name} must hold ${layout}; its length ${length} is not a multiple of ${stride}`,
    );
  }
  const out = new Float64Array(new SharedArrayBuffer(8 * length));
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || v - v !== 0) {
      const field = `${name}[${i}] (${fields[i % stride]} of query ${Math.floor(i / stride)})`;
      badField(field, v, 'a finite number');
    }
    out[i] = v;
  }
  if (kind === BOX) {
    for (let j = 0; j < length; j += 4) {
      if (!(out[j]! <= out[j + 2]! && out[j + 1]! <= out[j + 3]!)) {
        throw new InvalidValueError(
          `quadkit: boxes query ${j / 4} must have minX <= maxX and minY <= maxY, got [${out.subarray(j, j + 4).join(', ')}]`,
        );
      }
    }
  } else if (kind === CIRCLE_AT) {
    for (let j = 2; j < length; j += 3) {
      if (!(out[j]! >= 0)) {
        throw new InvalidValueError(
          `quadkit: circles[${j}] (r of query ${(j - 2) / 3}) must be >= 0, got ${out[j]}`,
        );
      }
    }
  }
  return out;
}
