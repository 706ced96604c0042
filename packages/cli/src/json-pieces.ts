// One JSON value too long for a string V8 keeps among its others, parsed in pieces. V8 puts a
// string over 128 KiB in pages of its own, fresh from the system each time (on a virtual machine
// ~4 ms a megabyte of page faults, as long as parsing the text); a country's polygon is often
// longer. One scan of the value's bytes, tracking strings and depth only, notes in each array or
// object longer than `most` a separator about every PIECE bytes and around each such child;
// JSON.parse reads what lies between them, and the pieces are put together in order (an
// array's elements appended, an object's members defined as JSON.parse defines them). Each piece
// is checked by JSON.parse and what lies between them by the scan, so that text is taken only
// when JSON.parse of the whole would take it.

import { CLASS, CLOSE, decode, HEAP_MAX, isSpace, OPEN, QUOTE } from './json-bytes.js';

// Separators of a long array or object are noted about this many bytes apart.
const PIECE = 1 << 15;

// An array or object longer than `most`: bytes [start, end] (its brackets), the separators
// noted in it (its own commas), and its children that are as long.
interface Long {
  start: number;
  end: number;
  seps: number[];
  longs: Long[];
}

/**
 * The value of the JSON text in bytes [from, to) (white space around it allowed), parsed in
 * pieces none longer than about `most` bytes; undefined when the text is not one valid JSON
 * value (then JSON.parse of the whole names the fault).
 * @param bytes - the bytes holding the text.
 * @param from - its first byte.
 * @param to - the byte after its last.
 * @param most - the longest text given to JSON.parse at once.
 * @param decode - the text of bytes [a, b) of `bytes`.
 * @param piece - how far apart separators are noted (default 32 KiB).
 */
export function parsePieces(
  bytes: Uint8Array,
  from: number,
  to: number,
  most: number,
  decode: (a: number, b: number) => string,
  piece = PIECE,
): unknown {
  const root = scan(bytes, from, to, most, piece);
  if (root === null) return undefined;
  try {
    return build(bytes, root, decode);
  } catch {
    return undefined;
  }
}

/**
 * The value of the JSON text in bytes [from, to): in pieces when it is HEAP_MAX bytes or more,
 * else (or when the pieces do not parse) by one JSON.parse, which throws naming the fault.
 * @param bytes - the bytes holding the text.
 * @param from - its first byte.
 * @param to - the byte after its last.
 */
export function parseBytes(bytes: Uint8Array, from: number, to: number): unknown {
  if (to - from >= HEAP_MAX) {
    const value = parsePieces(bytes, from, to, HEAP_MAX, (a, b) => decode(bytes, a, b));
    if (value !== undefined) return value;
  }
  return JSON.parse(decode(bytes, from, to));
}

// The scan: the outermost array or object, if the text is one, longer than `most`, with its
// long descendants; null when the text is anything else or its brackets do not match.
function scan(
  bytes: Uint8Array,
  from: number,
  to: number,
  most: number,
  piece: number,
): Long | null {
  let i = from;
  while (i < to && isSpace(bytes[i]!)) i++;
  let end = to;
  while (end > i && isSpace(bytes[end - 1]!)) end--;
  if (end - i <= most || CLASS[bytes[i]!] !== OPEN) return null;
  // The open arrays and objects: where each starts, its last comma, its last noted separator,
  // whether its next comma is to be noted (after a long child), and what was noted in it.
  const starts: number[] = [];
  const commas: number[] = [];
  const noted: number[] = [];
  const noteNext: boolean[] = [];
  const seps: (number[] | null)[] = [];
  const longs: (Long[] | null)[] = [];
  let depth = -1;
  let root: Long | null = null;
  for (; i < end && (depth >= 0 || root === null); i++) {
    const b = bytes[i]!;
    const k = CLASS[b]!;
    if (k === 0) {
      // A comma of the innermost open array or object.
      if (b === 0x2c) {
        commas[depth] = i;
        if (noteNext[depth] || i - noted[depth]! >= piece) {
          listAt(seps, depth).push(i);
          noted[depth] = i;
          noteNext[depth] = false;
        }
      }
      continue;
    }
    if (k === QUOTE) {
      // To the string's closing quote (an escape takes the byte after it).
      for (i++; i < end; i++) {
        const c = bytes[i]!;
        if (c === 0x22) break;
        if (c === 0x5c) i++;
      }
      if (i >= end) return null;
      continue;
    }
    if (k === OPEN) {
      // A leaf (an array or object of numbers and literals, a position most often) shorter than
      // a piece is only moved over: nothing in it is noted, and the piece holding it is parsed.
      let j = i + 1;
      let c = CLASS[bytes[j]!];
      while (j < end && c === 0) c = CLASS[bytes[++j]!];
      if (c === CLOSE && j - i < piece && depth >= 0) {
        i = j;
        continue;
      }
      depth++;
      starts[depth] = i;
      commas[depth] = i;
      noted[depth] = i;
      noteNext[depth] = false;
      seps[depth] = null;
      longs[depth] = null;
    } else if (k === CLOSE) {
      const start = starts[depth]!;
      // (Brackets that do not match: the pieces would not tell.)
      if ((bytes[start] === 0x5b) !== (bytes[i] === 0x5d)) return null;
      const length = i - start;
      if (depth === 0) {
        root = { start, end: i, seps: seps[0] ?? [], longs: longs[0] ?? [] };
      } else if (length >= piece) {
        // A child as long as a piece is a piece of its own: its parent is cut before and
        // after it (and a long one is parsed in pieces too).
        const parent = depth - 1;
        const before = commas[parent]!;
        const list = listAt(seps, parent);
        if (before !== starts[parent] && list[list.length - 1] !== before) list.push(before);
        noted[parent] = before;
        noteNext[parent] = true;
        if (length >= most)
          listAt(longs, parent).push({
            start,
            end: i,
            seps: seps[depth] ?? [],
            longs: longs[depth] ?? [],
          });
      }
      depth--;
    }
    // (A backslash outside a string is left to JSON.parse of the piece that holds it.)
  }
  return depth === -1 && i === end ? root : null;
}

// The value of a long array or object, from its pieces and long children.
function build(bytes: Uint8Array, long: Long, decode: (a: number, b: number) => string): unknown {
  const isArray = bytes[long.start] === 0x5b;
  const out: unknown[] | Record<string, unknown> = isArray ? [] : {};
  const bounds = [long.start, ...long.seps, long.end];
  let next = 0; // the next long child
  for (let s = 0; s + 1 < bounds.length; s++) {
    const a = bounds[s]!;
    const b = bounds[s + 1]!;
    const child = long.longs[next];
    if (child !== undefined && child.start > a && child.end < b) {
      next++;
      // The piece is the child alone (an array's element, or an object's member).
      const value = build(bytes, child, decode);
      if (!spaces(bytes, child.end + 1, b)) throw new SyntaxError('more after a value');
      if (isArray) {
        if (!spaces(bytes, a + 1, child.start)) throw new SyntaxError('more before a value');
        (out as unknown[]).push(value);
      } else
        define(
          out as Record<string, unknown>,
          memberName(bytes, a + 1, child.start, decode),
          value,
        );
      continue;
    }
    // The piece between the two separators, parsed between brackets written over them.
    const first = bytes[a]!;
    const last = bytes[b]!;
    bytes[a] = isArray ? 0x5b : 0x7b;
    bytes[b] = isArray ? 0x5d : 0x7d;
    let piece: unknown;
    try {
      piece = JSON.parse(decode(a, b + 1));
    } finally {
      bytes[a] = first;
      bytes[b] = last;
    }
    // (An empty piece between separators is text JSON.parse of the whole refuses: `[1,,2]`,
    // `{"a":1,}`; an array or object alone may be empty.)
    const alone = bounds.length === 2;
    if (isArray) {
      const items = piece as unknown[];
      if (items.length === 0 && !alone) throw new SyntaxError('an empty element');
      for (let j = 0; j < items.length; j++) (out as unknown[]).push(items[j]);
    } else {
      const members = piece as Record<string, unknown>;
      const names = Object.keys(members);
      if (names.length === 0 && !alone) throw new SyntaxError('an empty member');
      for (const name of names) define(out as Record<string, unknown>, name, members[name]);
    }
  }
  if (next !== long.longs.length) throw new SyntaxError('a long child not met');
  return out;
}

// A member as JSON.parse makes it: an own, enumerable, writable property (`__proto__` too).
function define(object: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(object, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

// The name before a long member's value: bytes [a, b) are white space, a string, white space,
// ':' and white space.
function memberName(
  bytes: Uint8Array,
  a: number,
  b: number,
  decode: (a: number, b: number) => string,
): string {
  let colon = b - 1;
  while (colon > a && isSpace(bytes[colon]!)) colon--;
  if (bytes[colon] !== 0x3a) throw new SyntaxError("no ':' before a value");
  const name: unknown = JSON.parse(decode(a, colon));
  if (typeof name !== 'string') throw new SyntaxError('a member name that is not a string');
  return name;
}

// The list at `d`, made when there is none.
function listAt<T>(lists: (T[] | null)[], d: number): T[] {
  let list = lists[d];
  if (list === null || list === undefined) {
    list = [];
    lists[d] = list;
  }
  return list;
}

function spaces(bytes: Uint8Array, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (!isSpace(bytes[i]!)) return false;
  return true;
}
