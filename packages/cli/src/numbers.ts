// Numbers as the command reads them from its arguments and CSV files, and as it writes them in
// CSV output. (A module of its own: the argument parser needs it before any command is loaded.)

const ZERO = 0x30;
const NINE = 0x39;
const DOT = 0x2e;
const PLUS = 0x2b;
const MINUS = 0x2d;
const isDigit = (c: number) => c >= ZERO && c <= NINE;
// The x, b or o of 0x, 0b and 0o, in either case.
const isRadix = (c: number) => (c | 0x20) === 0x78 || (c | 0x20) === 0x62 || (c | 0x20) === 0x6f;
// Powers of ten that are exact doubles.
const POWERS = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * The decimal number a text holds, as CSV writers and users write them, else NaN (Number()
 * would also read hex, binary and '' as numbers).
 * @param text - the text, without surrounding spaces.
 */
export function decimal(text: string): number {
  // Sign, digits and a point: up to 15 digits (below 2^53, exact) over a power of ten up to 10^22
  // (exact) is one correctly rounded division, what Number() gives (Clinger's fast path: "How to
  // read floating point numbers accurately", 1990).
  const n = text.length;
  let i = 0;
  let c = text.charCodeAt(0);
  const negative = c === MINUS;
  if (negative || c === PLUS) i++;
  let mantissa = 0;
  let digits = 0;
  let scale = -1; // digits after the point (-1: no point yet)
  for (; i < n; i++) {
    c = text.charCodeAt(i);
    if (c >= ZERO && c <= NINE) {
      mantissa = mantissa * 10 + (c - ZERO);
      digits++;
      if (scale >= 0) scale++;
    } else if (c === DOT && scale < 0) scale = 0;
    else break;
  }
  if (i === n && digits > 0 && digits <= 15 && scale <= 22) {
    const value = scale > 0 ? mantissa / (POWERS[scale] as number) : mantissa;
    return negative ? -value : value;
  }
  return slowDecimal(text);
}

// Any other text: Number() reads every decimal, and more. What it reads besides ('', white space
// around, Infinity, 0x, 0b and 0o numbers) is refused by the first and last characters.
function slowDecimal(text: string): number {
  const value = Number(text);
  if (Number.isNaN(value)) return value;
  const n = text.length;
  if (n === 0) return Number.NaN;
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(n - 1);
  if (!(isDigit(last) || last === DOT)) return Number.NaN;
  if (isDigit(first))
    return first === ZERO && n > 1 && isRadix(text.charCodeAt(1)) ? Number.NaN : value;
  return first === PLUS || first === MINUS || first === DOT ? value : Number.NaN;
}

/**
 * The decimals CSV output keeps, unless asked for full precision: longitude and latitude to 6
 * decimals of a degree (at most 0.11 m), distances in kilometres to 3 (the metre). JSON output
 * keeps every digit.
 */
export const READABLE = { degrees: 6, km: 3 } as const;
