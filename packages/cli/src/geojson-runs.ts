// The elements of an array that a GeoJSON scan (geojson-split.ts) has found, made into values:
// runs of whole elements parsed in one JSON.parse each, an element longer than HEAP_MAX alone in
// pieces (json-pieces.ts), the bytes of an element that straddles chunks carried over, and in
// raw mode the elements given as bytes. The scan (GeojsonSplitter) extends this class: the
// fields below are the state the two share.
import { CliError } from './errors.js';
import { decode, HEAP_MAX, isSpace } from './json-bytes.js';
import { parseBytes } from './json-pieces.js';

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

/** Whole elements are parsed together up to about this many bytes (larger runs are no faster). */
export const BATCH = 1 << 16;
const OPEN_BRACKET = Buffer.from('[');

/** The state a scan shares with the parsing of what it found, and that parsing. */
export class ElementRuns {
  /** The offset of the current chunk in the file. */
  protected base = 0;
  /** The current chunk. */
  protected buf: Uint8Array = new Uint8Array(0);
  /** Bytes from cutStart up to the current chunk. */
  protected carry: Uint8Array[] = [];
  /** Where the element (or member) begun and not given out starts, or -1. */
  protected cutStart = -1;
  /** The current array's path (`features` or `''`), and the index of its next element. */
  protected path = '';
  protected index = 0;
  /** Whole elements not yet parsed: their starts and ends (terminators). */
  protected starts: number[] = [];
  protected ends: number[] = [];
  /** Runs that did not parse (see run). */
  protected misses = 0;
  /** Whether the last element was larger than skipMin bytes (then the next is skipped through). */
  protected large = false;
  /** The values completed by the current call. */
  protected out: Split[] = [];

  /**
   * @param file - the file's name, for messages.
   * @param raw - the elements given as bytes, not parsed.
   * @param skipMin - the size of an element after which the next ones are moved through.
   */
  constructor(
    protected readonly file: string,
    protected readonly raw: boolean,
    protected readonly skipMin: number,
  ) {}

  protected name(k: number): string {
    return `${this.path}[${k}]`;
  }

  protected fail(i: number, message: string): never {
    throw new CliError(`${this.file}: ${message} at byte ${this.base + i}`);
  }

  // Bytes holding bytes [from, to) of the file, and the file offset of their first: the current
  // chunk, or the carried chunks joined with it.
  private bytesOf(from: number, to: number): [Uint8Array, number] {
    if (from >= this.base) return [this.buf, this.base];
    return [Buffer.concat([...this.carry, this.buf.subarray(0, to - this.base)]), this.cutStart];
  }

  // The text of bytes [from, to) of the file.
  protected text(from: number, to: number): string {
    const [bytes, origin] = this.bytesOf(from, to);
    return decode(bytes, from - origin, to - origin);
  }

  // Parses in one go the whole elements from byte i of the chunk (an element's '{') to the last
  // one that ends within about BATCH bytes, found by its look: a '}', then ',' and '{' (the next
  // element) or ']'. JSON.parse proves it: text cut inside a string or a nested value does not
  // parse, so a run that parses is whole elements, and nothing in it need be scanned byte by
  // byte. Returns the index of the terminator after the run, or -1 (then the bytes are scanned).
  protected run(i: number): number {
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
  protected flush(): void {
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

  protected parse(from: number, to: number, what: string): unknown {
    const [bytes, origin] = this.bytesOf(from, to);
    try {
      return parseBytes(bytes, from - origin, to - origin);
    } catch (e) {
      const text = decode(bytes, from - origin, to - origin);
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
}
