// A GeoJSON Point feature read from its bytes, without parsing it into objects: the form
// JSON.stringify writes, `{"type":"Feature","geometry":{"type":"Point","coordinates":[x,y]},
// "properties":…}`, its properties an object or null that is checked to be valid JSON (RFC 8259)
// and skipped. The coordinates are read as JSON.parse reads them (exactly: Clinger's fast path,
// a decimal of at most 15 digits divided by an exact power of ten, else Number). Anything else,
// or a point off the globe, is refused: the caller then parses the feature.

const HEAD = Buffer.from('{"type":"Feature","geometry":{"type":"Point","coordinates":[');
const MID = Buffer.from(']},"properties":');
// Powers of ten exact in a double (10^0 … 10^22).
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
// Deeper properties than this are left to JSON.parse (the check below recurses).
const DEPTH = 64;

/** What {@link PointBytes.read} found in a feature's bytes. */
export class PointBytes {
  /** The point's longitude. */
  lon = 0;
  /** The point's latitude. */
  lat = 0;
  /** The first byte of the properties' value (an object's '{', or null's 'n'). */
  open = 0;
  /** The byte of the properties' closing '}', or -1 when they are null. */
  close = -1;
  /** Whether the properties are an object with no members. */
  empty = false;
  /** The byte just after the feature's closing '}'. */
  end = 0;
  private value = 0;

  /**
   * Whether bytes [from, to) hold a Point feature in the form above, followed by white space
   * only; its fields are then set.
   * @param b - the bytes.
   * @param from - the feature's '{'.
   * @param to - the end of its element (the terminator after it).
   */
  read(b: Uint8Array, from: number, to: number): boolean {
    // The fixed head, then the two coordinates.
    if (to - from < HEAD.length + MID.length + 8) return false;
    for (let k = 0; k < HEAD.length; k++) if (b[from + k] !== HEAD[k]) return false;
    let i = this.number(b, from + HEAD.length, to);
    if (i < 0 || b[i] !== 0x2c) return false;
    const lon = this.value;
    i = this.number(b, i + 1, to);
    if (i < 0) return false;
    const lat = this.value;
    if (!(Math.abs(lon) <= 180 && Math.abs(lat) <= 90)) return false;
    for (let k = 0; k < MID.length; k++) if (b[i + k] !== MID[k]) return false;
    i += MID.length;
    // The properties: null, or an object checked and skipped.
    this.open = i;
    if (b[i] === 0x6e) {
      if (b[i + 1] !== 0x75 || b[i + 2] !== 0x6c || b[i + 3] !== 0x6c) return false;
      this.close = -1;
      i += 4;
    } else if (b[i] === 0x7b) {
      i = skipValue(b, i, to, 0);
      if (i < 0) return false;
      this.close = i - 1;
      this.empty = space(b, this.open + 1, to) === this.close;
    } else return false;
    // The feature's closing brace, then only white space.
    if (b[i] !== 0x7d || space(b, i + 1, to) !== to) return false;
    this.lon = lon;
    this.lat = lat;
    this.end = i + 1;
    return true;
  }

  /**
   * Whether the properties of the feature last read hold `key` (a quoted name) or any escape
   * (where a name could be spelled otherwise).
   * @param b - its bytes.
   * @param key - the name in quotes, as JSON writes it.
   */
  holds(b: Uint8Array, key: Uint8Array): boolean {
    const close = this.close;
    if (close < 0) return false;
    // (A loop, not two native searches over a view: properties are mostly a few dozen bytes.)
    const first = key[0];
    const n = key.length;
    for (let i = this.open; i < close; i++) {
      const c = b[i];
      if (c === 0x5c) return true;
      if (c === first && i + n <= close) {
        let j = 1;
        while (j < n && b[i + j] === key[j]) j++;
        if (j === n) return true;
      }
    }
    return false;
  }

  // A JSON number from byte i: sets this.value and returns the byte after it, or -1.
  private number(b: Uint8Array, i: number, to: number): number {
    const start = i;
    let negative = false;
    if (b[i] === 0x2d) {
      negative = true;
      i++;
    }
    let mantissa = 0;
    let digits = 0;
    let scale = 0;
    let c = b[i]!;
    // The integer part: 0, or a digit 1-9 and more digits.
    if (c === 0x30) {
      i++;
    } else if (c >= 0x31 && c <= 0x39) {
      for (; i < to; i++) {
        c = b[i]!;
        if (c < 0x30 || c > 0x39) break;
        mantissa = mantissa * 10 + (c - 0x30);
        digits++;
      }
    } else return -1;
    // The fraction.
    if (b[i] === 0x2e) {
      i++;
      const first = i;
      for (; i < to; i++) {
        c = b[i]!;
        if (c < 0x30 || c > 0x39) break;
        mantissa = mantissa * 10 + (c - 0x30);
        digits++;
      }
      if (i === first) return -1;
      scale = i - first;
    }
    // The exponent: read by Number.
    let exact = digits <= 15 && scale < POW10.length;
    c = b[i]!;
    if (c === 0x65 || c === 0x45) {
      i++;
      if (b[i] === 0x2b || b[i] === 0x2d) i++;
      const first = i;
      while (i < to && b[i]! >= 0x30 && b[i]! <= 0x39) i++;
      if (i === first) return -1;
      exact = false;
    }
    if (i >= to) return -1;
    if (exact) {
      const v = scale === 0 ? mantissa : mantissa / POW10[scale]!;
      this.value = negative ? -v : v;
    } else this.value = Number(Buffer.from(b.buffer, b.byteOffset + start, i - start).toString());
    return i;
  }
}

// The first byte at or after i that is not JSON white space (or `to`).
function space(b: Uint8Array, i: number, to: number): number {
  while (i < to) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
  return to;
}

// Checks the JSON value at byte i (no white space before it); returns the byte after it, or -1
// when it is not valid JSON or lies deeper than DEPTH.
function skipValue(b: Uint8Array, i: number, to: number, depth: number): number {
  if (i >= to) return -1;
  const c = b[i]!;
  if (c === 0x22) return skipString(b, i, to);
  if (c === 0x7b || c === 0x5b) {
    if (depth >= DEPTH) return -1;
    const object = c === 0x7b;
    const close = object ? 0x7d : 0x5d;
    i = space(b, i + 1, to);
    if (b[i] === close) return i + 1;
    for (;;) {
      if (object) {
        if (b[i] !== 0x22) return -1;
        i = skipString(b, i, to);
        if (i < 0) return -1;
        i = space(b, i, to);
        if (b[i] !== 0x3a) return -1;
        i = space(b, i + 1, to);
      }
      i = skipValue(b, i, to, depth + 1);
      if (i < 0) return -1;
      i = space(b, i, to);
      if (i >= to) return -1;
      if (b[i] === close) return i + 1;
      if (b[i] !== 0x2c) return -1;
      i = space(b, i + 1, to);
    }
  }
  if (c === 0x74) return word(b, i, to, TRUE);
  if (c === 0x66) return word(b, i, to, FALSE);
  if (c === 0x6e) return word(b, i, to, NULL);
  return skipNumber(b, i, to);
}

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

function word(b: Uint8Array, i: number, to: number, text: Uint8Array): number {
  if (i + text.length > to) return -1;
  for (let k = 0; k < text.length; k++) if (b[i + k] !== text[k]) return -1;
  return i + text.length;
}

// A JSON string from its opening quote: its escapes checked, no control character in it.
function skipString(b: Uint8Array, i: number, to: number): number {
  for (i++; i < to; ) {
    const c = b[i]!;
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -1;
    if (c !== 0x5c) {
      i++;
      continue;
    }
    const e = b[i + 1];
    if (e === 0x75) {
      for (let k = 2; k < 6; k++) if (!isHex(b[i + k]!)) return -1;
      i += 6;
    } else if (
      e === 0x22 ||
      e === 0x5c ||
      e === 0x2f ||
      e === 0x62 ||
      e === 0x66 ||
      e === 0x6e ||
      e === 0x72 ||
      e === 0x74
    )
      i += 2;
    else return -1;
  }
  return -1;
}

const isHex = (c: number) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

// A JSON number (-? int frac? exp?); returns the byte after it, or -1.
function skipNumber(b: Uint8Array, i: number, to: number): number {
  if (b[i] === 0x2d) i++;
  const digits = (at: number) => {
    while (at < to && b[at]! >= 0x30 && b[at]! <= 0x39) at++;
    return at;
  };
  if (b[i] === 0x30) i++;
  else if (b[i]! >= 0x31 && b[i]! <= 0x39) i = digits(i);
  else return -1;
  if (b[i] === 0x2e) {
    const end = digits(i + 1);
    if (end === i + 1) return -1;
    i = end;
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (b[i] === 0x2b || b[i] === 0x2d) i++;
    const end = digits(i);
    if (end === i) return -1;
    i = end;
  }
  return i < to ? i : -1;
}
