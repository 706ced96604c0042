// Cuts a GeoJSON document into its features without tokenising every number: a scan over the
// bytes that tracks only strings (and their escapes) and the depth of braces and brackets finds
// the elements of the top-level `features` array (or of a top-level array), and JSON.parse reads
// the runs of whole elements each chunk of the file holds, in one call (geojson-runs.ts; an
// element longer than HEAP_MAX bytes alone, in pieces). An element that straddles chunks is
// carried over, so memory is bounded by the largest feature, not by the file. Errors name the
// element and the byte (counted from 0) where it starts.
import { chunksOf } from './chunks.js';
import { CliError, openToRead } from './errors.js';
import { BATCH, ElementRuns, type Split } from './geojson-runs.js';
import { CLASS, CLOSE, ESCAPE, isSpace, OPEN, QUOTE } from './json-bytes.js';

/** What is known of the top-level object's `type` before the scan (from an earlier pass). */
export interface KnownType {
  /** The top-level `type` member's value (undefined when it has none). */
  type: unknown;
}

const CHUNK = 1 << 18;
// Elements are moved through by native searches (see skipObject) after one larger than this:
// in small ones (points) strings come every few bytes, and a call per string costs more than
// looking at each byte.
const SKIP_MIN = 1024;
// Runs that do not parse (see GeojsonSplitter.run) before the scan stops trying them.
const MISSES = 8;
const BOM = [0xef, 0xbb, 0xbf];

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
export class GeojsonSplitter extends ElementRuns {
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
  // Whether a comma asks for one more element.
  private more = false;
  private key = '';
  private keyIsFeatures = false;
  private bomSeen = 0;
  private readonly members: Record<string, unknown> = {};
  private streamed = false;
  private skipped = false;

  /**
   * @param file - the file's name, for messages.
   * @param known - the top-level type, when an earlier scan found it after the array.
   * @param raw - the elements given as bytes, not parsed.
   * @param skipMin - the size of an element after which the next ones are moved through by
   *   native searches (0: all of them).
   */
  constructor(
    file: string,
    private readonly known: KnownType | null = null,
    raw = false,
    skipMin = SKIP_MIN,
  ) {
    super(file, raw, skipMin);
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
