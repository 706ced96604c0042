// What the scans over JSON bytes (geojson-split.ts, json-pieces.ts) look at: each byte's class,
// 0 for all but '"', '\\', the brackets and the braces.

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
