// Cuts a GeoJSON document into its features without tokenising every number: a scan over the
// bytes that tracks only strings (and their escapes) and the depth of braces and brackets finds
// the elements of the top-level `features` array (or of a top-level array), and JSON.parse reads
// the runs of whole elements each chunk of the file holds, in one call (an element longer than
// HEAP_MAX bytes alone, in pieces: json-pieces.ts). An element that straddles chunks is carried
// over, so memory is bounded by the largest feature, not by the file. Errors name the element
// and the byte (counted from 0) where it starts.
import { chunksOf } from './chunks.js';
import { CliError, openToRead } from './errors.js';
import { CLASS, CLOSE, decode, ESCAPE, HEAP_MAX, isSpace, OPEN, QUOTE } from './json-bytes.js';
import { parsePieces } from './json-pieces.js';

/** A run of parsed values: elements `first`, `first + 1`, … of `path`, or the whole document. */
export interface Split {
  /** `features` or `''` (a top-level array) for elements; null for the document itself. */
  path: string | null;
  /** The index of `values[0]` in its array. */
  first: number;
  /** The parsed values. */
  values: unknown[];
  /** The byte offset just after the last of them. */
  end: number;
  /**
   * In raw mode (elements not parsed, `values` empty): the elements' bytes, element k from
   * `starts[k]` (its first byte) to `ends[k]` (its terminator, ',' or ']'), both in `bytes`.
   */
  raw?: RawElements;
}

/** Elements of an array as bytes, not parsed (see {@link Split}). */
export interface RawElements {
  bytes: Uint8Array;
  starts: number[];
  ends: number[];
}

/** What is known of the top-level object's `type` before the scan (from an earlier pass). */
export interface KnownType {
  /** The top-level `type` member's value (undefined when it has none). */
  type: unknown;
}

const CHUNK = 1 << 18;
// Whole elements are parsed together up to about this many bytes (larger runs are no faster).
const BATCH = 1 << 16;
// Elements are moved through by native searches (see skipObject) after one larger than this:
// in small ones (points) strings come every few bytes, and a call per string costs more than
// looking at each byte.
const SKIP_MIN = 1024;
// Runs that do not parse (see GeojsonSplitter.run) before the scan stops trying them.
const MISSES = 8;
const BOM = [0xef, 0xbb, 0xbf];
const OPEN_BRACKET = Buffer.from('[');

// Where the scan is, at the level of the top-level object's members or of the array whose
// elements are cut (deeper levels are only counted).
const START = 0; // before the top-level value
const KEY = 1; // a member's key, or the object's end
const IN_KEY = 2; // inside the key
const COLON = 3;
const VALUE = 4; // a member's value
const IN_VALUE = 5; // inside a member's value
const AFTER = 6; // after a member's value: ',' or '}'
const ELEMENT = 7; // an element, or the array's end
const IN_ELEMENT = 8; // inside an element
const DONE = 9; // after the top-level value: only white space

/**
 * The scan, fed the file's bytes chunk by chunk (`push`, then `end`); each call returns the
 * values it completed. `retry` is set at the end when the top-level object had a `features`
 * array before its `type` member: it was skipped, and a new scan given that type reads it.
 */
export class GeojsonSplitter {
  /** Set by `end` when the file must be scanned again, knowing the top-level type. */
  retry: KnownType | null = null;
  private state = START;
  private depth = 0;
  // The depth of the array whose elements are cut (1: top-level array or object members, 2:
  // the `features` array's elements).
  private cutDepth = 1;
  private inString = false;
  private escaped = false;
  // Inside an element that is an object: only braces counted (see skipObject).
  private inObject = false;
  // Whether the last element was larger than SKIP_MIN bytes (then the next is skipped through).
  private large = false;
  private base = 0; // offset of the current chunk
  private buf: Uint8Array = new Uint8Array(0);
  private carry: Uint8Array[] = []; // bytes from cutStart up to the current chunk
  private cutStart = -1;
  // The current array: its path, the index of the next element, whether a comma asks for one.
  private path = '';
  private index = 0;
  private more = false;
  // Whole elements not yet parsed: their starts and ends (terminators).
  private starts: number[] = [];
  private ends: number[] = [];
  private misses = 0; // runs that did not parse (see run)
  private key = '';
  private keyIsFeatures = false;
  private bomSeen = 0;
  private readonly members: Record<string, unknown> = {};
  private streamed = false;
  private skipped = false;
  private out: Split[] = [];

  /**
   * @param file - the file's name, for messages.
   * @param known - the top-level type, when an earlier scan found it after the array.
   * @param raw - the elements given as bytes, not parsed.
   * @param skipMin - the size of an element after which the next ones are moved through by
   *   native searches (0: all of them).
   */
  constructor(
    private readonly file: string,
    private readonly known: KnownType | null = null,
    private readonly raw = false,
    private readonly skipMin = SKIP_MIN,
  ) {
    this.large = skipMin === 0;
  }

  /**
   * Scans the next chunk and returns the values completed. The chunk is the splitter's from
   * then on: it must not change, and the splitter writes over some of its separators.
   * @param chunk - the bytes following the previous chunk.
   */
  push(chunk: Uint8Array): Split[] {
    this.buf = chunk;
    this.out = [];
    const n = chunk.length;
    let i = 0;
    if (this.escaped) {
      this.escaped = false;
      i = 1;
    }
    let depth = this.depth;
    let inString = this.inString;
    let cut = this.cutDepth;
    for (; i < n; i++) {
      let c = chunk[i]!;
      if (inString) {
        for (;;) {
          const k = CLASS[c]!;
          if (k === QUOTE) {
            inString = false;
            break;
          }
          if (k === ESCAPE && ++i >= n) {
            this.escaped = true;
            break;
          }
          if (++i >= n) break;
          c = chunk[i]!;
        }
        if (inString) break;
        if (this.state === IN_KEY) this.endKey(this.base + i + 1);
        continue;
      }
      if (depth > cut) {
        if (this.inObject) {
          i = this.skipObject(i, depth, cut);
          depth = this.depth;
          inString = this.inString;
          continue;
        }
        const k = CLASS[c]!;
        if (k === 0) continue;
        if (k === QUOTE) inString = true;
        else if (k === OPEN) depth++;
        else if (k === CLOSE) depth--;
        continue;
      }
      // At the level of the members or elements.
      this.depth = depth;
      if (isSpace(c) && this.state !== IN_ELEMENT && this.state !== IN_VALUE) continue;
      switch (this.state) {
        case START:
          if (this.base + i === this.bomSeen && c === BOM[this.bomSeen]) {
            this.bomSeen++;
            continue;
          }
          if (c === 0x7b) this.state = KEY;
          else if (c === 0x5b) this.state = ELEMENT;
          else this.fail(i, `not a GeoJSON file (it starts with ${shown(c)})`);
          depth = 1;
          break;
        case KEY:
          if (c === 0x22) {
            this.cutStart = this.base + i;
            this.state = IN_KEY;
            inString = true;
          } else if (c === 0x7d && !this.more) {
            depth = 0;
            this.endObject();
          } else this.fail(i, `not valid JSON: expected a member's name, got ${shown(c)}`);
          break;
        case COLON:
          if (c !== 0x3a) this.fail(i, `not valid JSON: expected ':' after "${this.key}"`);
          this.state = VALUE;
          break;
        case VALUE:
          if (c === 0x2c || c === 0x7d || c === 0x5d)
            this.fail(i, `not valid JSON: expected the value of "${this.key}", got ${shown(c)}`);
          if (this.keyIsFeatures && c === 0x5b) {
            const type = this.known !== null ? this.known.type : this.members.type;
            if (this.known === null && !('type' in this.members)) {
              // Not known yet whether the array holds features: skipped, then read again.
              this.skipped = true;
              this.state = AFTER;
              depth = 2;
              break;
            }
            if (type !== 'Feature') {
              this.streamed = true;
              this.path = 'features';
              this.index = 0;
              this.more = false;
              this.cutDepth = 2;
              this.state = ELEMENT;
              depth = 2;
              break;
            }
          }
          this.cutStart = this.base + i;
          this.state = IN_VALUE;
          i--; // read again as part of the value
          break;
        case IN_VALUE:
          if (c === 0x2c || c === 0x7d) {
            this.endMember(i);
            this.more = c === 0x2c;
            if (c === 0x7d) {
              depth = 0;
              this.endObject();
            } else this.state = KEY;
          } else if (c === 0x22) inString = true;
          else if (c === 0x7b || c === 0x5b) depth++;
          else if (c === 0x5d)
            this.fail(i, `not valid JSON: expected ',' or '}' in the value of "${this.key}"`);
          break;
        case AFTER:
          if (c === 0x2c) {
            this.more = true;
            this.state = KEY;
          } else if (c === 0x7d) {
            depth = 0;
            this.endObject();
          } else this.fail(i, `not valid JSON: expected ',' or '}', got ${shown(c)}`);
          break;
        case ELEMENT:
          if (c === 0x5d && !this.more) {
            depth = this.endArray();
            break;
          }
          if (c === 0x2c || c === 0x5d || c === 0x7d)
            this.fail(i, `not valid JSON: expected ${this.name(this.index)}, got ${shown(c)}`);
          if (c === 0x7b && this.misses < MISSES && !this.raw) {
            if (this.ends.length > 0) this.flush();
            const t = this.cutStart < 0 ? this.run(i) : -1;
            if (t >= 0) {
              // After the run, its terminator: ',' (then the next element), or ']' read next.
              this.more = chunk[t] === 0x2c;
              i = this.more ? t : t - 1;
              break;
            }
          }
          if (this.cutStart < 0) this.cutStart = this.base + i;
          this.starts.push(this.base + i);
          this.state = IN_ELEMENT;
          i--; // read again as part of the element
          break;
        case IN_ELEMENT:
          if (c === 0x2c || c === 0x5d) {
            this.ends.push(this.base + i);
            this.large = this.base + i - this.starts[this.starts.length - 1]! >= this.skipMin;
            this.index++;
            this.more = c === 0x2c;
            if (c === 0x5d) depth = this.endArray();
            else {
              this.state = ELEMENT;
              if (this.base + i - this.cutStart >= BATCH) this.flush();
            }
          } else if (c === 0x22) inString = true;
          else if (c === 0x7b || c === 0x5b) {
            depth++;
            this.inObject = c === 0x7b && this.large;
          } else if (c === 0x7d)
            this.fail(i, `not valid JSON: expected ',' or ']' in ${this.name(this.index)}`);
          break;
        default:
          this.fail(i, `not valid JSON: more after the end of the top-level value`);
      }
      cut = this.cutDepth;
    }
    this.depth = depth;
    this.inString = inString;
    if (this.starts.length > this.ends.length || this.state === IN_VALUE || this.state === IN_KEY) {
      if (this.ends.length > 0) this.flush();
      this.carry.push(chunk.subarray(Math.max(this.cutStart - this.base, 0), n));
    } else if (this.ends.length > 0) this.flush();
    this.base += n;
    return this.out;
  }

  // Moves through an element that is an object, from byte i of the chunk (not in a string, at
  // `depth` > `cut`), to the '}' that closes it or to the chunk's end, by native searches for '"',
  // '{' and '}' alone: brackets need no count inside an object, which ends at its matching '}'
  // (in a text that is not valid JSON the run cut here fails to parse, and the element is named).
  // Coordinates, most of a polygon's bytes, hold none of the three. Leaves depth, inString and
  // escaped in the fields; returns the index of the last byte looked at.
  private skipObject(i: number, depth: number, cut: number): number {
    const chunk = this.buf;
    const n = chunk.length;
    this.inString = false;
    let quote = chunk.indexOf(0x22, i);
    let open = chunk.indexOf(0x7b, i);
    let close = chunk.indexOf(0x7d, i);
    if (quote < 0) quote = n;
    if (open < 0) open = n;
    if (close < 0) close = n;
    for (;;) {
      if (quote < open && quote < close) {
        // A string: to its closing quote, one not escaped (an even run of backslashes before it).
        let e = chunk.indexOf(0x22, quote + 1);
        for (; e >= 0; e = chunk.indexOf(0x22, e + 1)) {
          let b = e - 1;
          while (chunk[b] === 0x5c) b--;
          if ((e - 1 - b) % 2 === 0) break;
        }
        if (e < 0) {
          // The string goes on in the next chunk (after an escape, if the chunk ends in one).
          let b = n - 1;
          while (b > quote && chunk[b] === 0x5c) b--;
          this.escaped = (n - 1 - b) % 2 === 1;
          this.inString = true;
          this.depth = depth;
          return n - 1;
        }
        quote = chunk.indexOf(0x22, e + 1);
        if (quote < 0) quote = n;
        if (open < e) open = chunk.indexOf(0x7b, e + 1);
        if (open < 0) open = n;
        if (close < e) close = chunk.indexOf(0x7d, e + 1);
        if (close < 0) close = n;
      } else if (open < close) {
        depth++;
        open = chunk.indexOf(0x7b, open + 1);
        if (open < 0) open = n;
      } else if (close < n) {
        if (--depth === cut) {
          this.inObject = false;
          this.depth = depth;
          return close;
        }
        close = chunk.indexOf(0x7d, close + 1);
        if (close < 0) close = n;
      } else {
        this.depth = depth;
        return n - 1;
      }
    }
  }

  /** Ends the scan at the end of the file and returns the values completed. */
  end(): Split[] {
    this.out = [];
    const at = (what: string) => new CliError(`${this.file}: the file ends inside ${what}`);
    switch (this.state) {
      case DONE:
        return this.out;
      case START:
        throw new CliError(`${this.file}: not a GeoJSON file (it holds no JSON value)`);
      case IN_ELEMENT: {
        const start = this.starts.at(-1)!;
        // After its closing brace: an element whose brackets do not match is named by its fault.
        if (this.depth === this.cutDepth) this.parse(start, this.base, this.name(this.index));
        throw at(`${this.name(this.index)}, which starts at byte ${start}`);
      }
      case ELEMENT:
        throw at(
          this.index === 0
            ? `the ${this.array()}, before its first element`
            : `the ${this.array()}, after ${this.name(this.index - 1)}`,
        );
      case IN_VALUE:
        throw at(`the top-level member "${this.key}", which starts at byte ${this.cutStart}`);
      default:
        throw at(this.depth > 1 ? 'the "features" array' : 'the top-level object');
    }
  }

  private array(): string {
    return this.path === '' ? 'top-level array' : `"${this.path}" array`;
  }

  private name(k: number): string {
    return `${this.path}[${k}]`;
  }

  private fail(i: number, message: string): never {
    throw new CliError(`${this.file}: ${message} at byte ${this.base + i}`);
  }

  // Bytes holding bytes [from, to) of the file, and the file offset of their first: the current
  // chunk, or the carried chunks joined with it.
  private bytesOf(from: number, to: number): [Uint8Array, number] {
    if (from >= this.base) return [this.buf, this.base];
    return [Buffer.concat([...this.carry, this.buf.subarray(0, to - this.base)]), this.cutStart];
  }

  // The text of bytes [from, to) of the file.
  private text(from: number, to: number): string {
    const [bytes, origin] = this.bytesOf(from, to);
    return decode(bytes, from - origin, to - origin);
  }

  // Parses in one go the whole elements from byte i of the chunk (an element's '{') to the last
  // one that ends within about BATCH bytes, found by its look: a '}', then ',' and '{' (the next
  // element) or ']'. JSON.parse proves it: text cut inside a string or a nested value does not
  // parse, so a run that parses is whole elements, and nothing in it need be scanned byte by
  // byte. Returns the index of the terminator after the run, or -1 (then the bytes are scanned).
  private run(i: number): number {
    const chunk = this.buf;
    const n = chunk.length;
    if (i === 0) return -1;
    let t = -1;
    // Within BATCH bytes (an element larger than that is scanned, then parsed alone).
    let e = chunk.lastIndexOf(0x7d, Math.min(i + BATCH, n - 1));
    for (let tries = 0; e > i && tries < 16; tries++, e = chunk.lastIndexOf(0x7d, e - 1)) {
      t = e + 1;
      while (t < n && isSpace(chunk[t]!)) t++;
      if (chunk[t] === 0x5d) break;
      let u = t + 1;
      while (u < n && isSpace(chunk[u]!)) u++;
      if (chunk[t] === 0x2c && chunk[u] === 0x7b) break;
      t = -1;
    }
    if (t < 0 || t >= n) return -1;
    const before = chunk[i - 1]!;
    const after = chunk[e + 1]!;
    chunk[i - 1] = 0x5b;
    chunk[e + 1] = 0x5d;
    const text = decode(chunk, i - 1, e + 2);
    chunk[i - 1] = before;
    chunk[e + 1] = after;
    let values: unknown[];
    try {
      values = JSON.parse(text) as unknown[];
    } catch {
      this.misses++;
      return -1;
    }
    this.out.push({ path: this.path, first: this.index, values, end: this.base + t });
    this.index += values.length;
    this.large = t - i >= this.skipMin * values.length;
    return t;
  }

  // The text of bytes [from, to) between '[' and ']': written over the bytes before and at `to`
  // (already scanned: white space, ',', '[' or ']'), so that the text is decoded in one piece, as
  // JSON.parse reads it fastest.
  private bracketed(from: number, to: number): string {
    const chunk = this.buf;
    chunk[to - this.base] = 0x5d;
    if (from > this.base) {
      chunk[from - this.base - 1] = 0x5b;
      return decode(chunk, from - 1 - this.base, to + 1 - this.base);
    }
    const whole = Buffer.concat([
      OPEN_BRACKET,
      ...this.carry,
      chunk.subarray(0, to + 1 - this.base),
    ]);
    return decode(whole, from - this.cutStart, to + 2 - this.cutStart);
  }

  // Gives out the whole elements not yet given: parsed (see values), or as bytes in raw mode.
  private flush(): void {
    const { starts, ends } = this;
    const count = ends.length;
    const first = this.index - count;
    const to = ends[ends.length - 1]!;
    if (this.raw) this.out.push(this.rawRun(first, count));
    else this.out.push({ path: this.path, first, values: this.values(first, count), end: to });
    // An element begun and not ended stays, carried from its start.
    const open = starts.length > ends.length ? starts[starts.length - 1]! : -1;
    this.starts = open < 0 ? [] : [open];
    this.ends = [];
    this.carry = [];
    this.cutStart = open;
  }

  // The whole elements not yet parsed as bytes (raw mode): positions made relative to the bytes.
  private rawRun(first: number, count: number): Split {
    const { starts, ends } = this;
    const to = ends[count - 1]!;
    let bytes = this.buf;
    let origin = this.base;
    if (starts[0]! < this.base) {
      bytes = Buffer.concat([...this.carry, this.buf.subarray(0, to + 1 - this.base)]);
      origin = this.cutStart;
    }
    const s = new Array<number>(count);
    const e = new Array<number>(count);
    for (let j = 0; j < count; j++) {
      s[j] = starts[j]! - origin;
      e[j] = ends[j]! - origin;
    }
    return { path: this.path, first, values: [], end: to, raw: { bytes, starts: s, ends: e } };
  }

  // The values of the whole elements not yet parsed, in one call (or one by one, to name a bad
  // one).
  private values(first: number, count: number): unknown[] {
    const { starts, ends } = this;
    const from = starts[0]!;
    const to = ends[count - 1]!;
    let values: unknown[] | null = null;
    try {
      // (One by one when together they would make a string V8 puts in pages of its own.)
      const all = to - from < HEAP_MAX ? (JSON.parse(this.bracketed(from, to)) as unknown[]) : [];
      if (all.length === count) values = all;
    } catch {
      // One of them is not valid JSON: parsed one by one below, to name it.
    }
    if (values === null) {
      values = [];
      for (let j = 0; j < count; j++)
        values.push(this.parse(starts[j]!, ends[j]!, this.name(first + j)));
    }
    return values;
  }

  private parse(from: number, to: number, what: string): unknown {
    if (to - from >= HEAP_MAX) {
      // In pieces (see json-pieces.ts); a text that does not parse is parsed whole, to name its
      // fault.
      const [bytes, origin] = this.bytesOf(from, to);
      const value = parsePieces(bytes, from - origin, to - origin, HEAP_MAX, (a, b) =>
        decode(bytes, a, b),
      );
      if (value !== undefined) return value;
    }
    const text = this.text(from, to);
    try {
      return JSON.parse(text);
    } catch (e) {
      // (V8's positions are in the text parsed; the bytes of the file are more use.)
      const message = (e as Error).message.replace(
        / at position (\d+)(?: \(line \d+ column \d+\))?/,
        (_, p: string) => ` at byte ${from + Buffer.byteLength(text.slice(0, Number(p)))}`,
      );
      throw new CliError(
        `${this.file}: ${what}, which starts at byte ${from}: not valid JSON (${message})`,
      );
    }
  }

  private endKey(to: number): void {
    this.key = JSON.parse(this.text(this.cutStart, to)) as string;
    this.keyIsFeatures = this.key === 'features';
    this.carry = [];
    this.cutStart = -1;
    this.state = COLON;
  }

  private endMember(i: number): void {
    const value = this.parse(this.cutStart, this.base + i, `the top-level member "${this.key}"`);
    // (A member named __proto__ is an own property, as JSON.parse makes it.)
    Object.defineProperty(this.members, this.key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    this.carry = [];
    this.cutStart = -1;
  }

  // The end of the array whose elements are cut; returns the new depth.
  private endArray(): number {
    // Parsed here, so that what follows the array starts afresh.
    if (this.ends.length > 0) this.flush();
    this.more = false;
    if (this.cutDepth === 1) {
      this.state = DONE;
      return 0;
    }
    this.cutDepth = 1;
    this.state = AFTER;
    return 1;
  }

  private endObject(): void {
    this.state = DONE;
    if (this.skipped) this.retry = { type: this.members.type };
    else if (!this.streamed)
      this.out.push({ path: null, first: 0, values: [this.members], end: 0 });
  }
}

function shown(c: number): string {
  return c < 0x80 ? JSON.stringify(String.fromCharCode(c)) : `byte 0x${c.toString(16)}`;
}

/**
 * The values of a GeoJSON file, read in chunks of `chunk` bytes: runs of elements of its
 * `features` array (or of a top-level array), else the whole document as one value.
 * @param file - the file's path.
 * @param chunk - the size of a read (default 256 KiB).
 * @param raw - the array's elements as bytes (`raw`), not parsed (the document still is).
 */
export async function* splitGeojson(
  file: string,
  chunk = CHUNK,
  raw = false,
): AsyncGenerator<Split> {
  const handle = await openToRead(file);
  try {
    let known: KnownType | null = null;
    for (;;) {
      const splitter = new GeojsonSplitter(file, known, raw);
      for await (const bytes of chunksOf(handle, chunk))
        for (const split of splitter.push(bytes)) yield split;
      for (const split of splitter.end()) yield split;
      if (splitter.retry === null) return;
      known = splitter.retry;
    }
  } finally {
    await handle.close();
  }
}
