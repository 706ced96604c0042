// What the readers of JSON bytes (geojson-split.ts, json-pieces.ts, NDJSON lines) share: each
// byte's class for the scans (0 for all but '"', '\\', the brackets and the braces), and the
// making of texts.
import { isAscii } from 'node:buffer';

/**
 * The longest text made at once. V8 puts a string over 128 KiB in pages of its own, fresh from
 * the system each time (on a virtual machine ~4 ms a megabyte, as long as parsing the text):
 * longer JSON is parsed in pieces (json-pieces.ts).
 */
export const HEAP_MAX = 120_000;

/** The class of '"'. */
export const QUOTE = 1;
/** The class of '\\'. */
export const ESCAPE = 2;
/** The class of '{' and '['. */
export const OPEN = 3;
/** The class of '}' and ']'. */
export const CLOSE = 4;

/** Each byte's class. */
export const CLASS = new Uint8Array(256);
CLASS[0x22] = QUOTE;
CLASS[0x5c] = ESCAPE;
CLASS[0x7b] = OPEN;
CLASS[0x5b] = OPEN;
CLASS[0x7d] = CLOSE;
CLASS[0x5d] = CLOSE;

/**
 * Whether a byte is JSON's white space.
 * @param c - the byte.
 */
export const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The text of bytes [from, to), in UTF-8 (ASCII, the most common, copied as is: a quarter of
 * the reading time otherwise).
 * @param chunk - the bytes.
 * @param from - the first byte.
 * @param to - the byte after the last.
 */
export function decode(chunk: Uint8Array, from: number, to: number): string {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset + from, to - from);
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}
