// Error-free floating-point transforms and expansion arithmetic, after Shewchuk, "Adaptive
// Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates" (1997). An expansion
// is a sum of doubles with non-overlapping bits, kept in increasing order of magnitude; its sign
// is the sign of its largest (last non-zero) component.

const SPLITTER = 134217729; // 2^27 + 1 (Veltkamp split)
/** Machine epsilon of round-to-nearest doubles: 2^-53. */
export const EPSILON = 1.1102230246251565e-16;

const terms = new Float64Array(32); // the terms being summed
const acc = new Float64Array(64); // the running expansion
let termCount = 0;

/** Starts a new exact sum. */
export function beginSum(): void {
  termCount = 0;
}

/** Adds the exact product `a * b` to the exact sum (two doubles, by Dekker's two-product). */
export function addProduct(a: number, b: number): void {
  const x = a * b;
  let c = SPLITTER * a;
  const ahi = c - (c - a);
  const alo = a - ahi;
  c = SPLITTER * b;
  const bhi = c - (c - b);
  const blo = b - bhi;
  const err = alo * blo - (x - ahi * bhi - alo * bhi - ahi * blo);
  terms[termCount++] = x;
  terms[termCount++] = err;
}

/** Adds the exact square of `a - b` to the exact sum. */
export function addSquaredDifference(a: number, b: number): void {
  // a - b = s + e exactly (two-sum), so (a - b)^2 = s*s + 2*s*e + e*e, each product exact in two doubles.
  const s = a - b;
  const bv = a - s;
  const e = a - (s + bv) + (bv - b);
  addProduct(s, s);
  addProduct(2 * s, e);
  addProduct(e, e);
}

/** Returns the sign (-1, 0 or 1) of the exact sum of the terms added since `beginSum`. */
export function sumSign(): number {
  const len = expand();
  if (len === 0) return 0;
  return acc[len - 1]! > 0 ? 1 : -1;
}

/**
 * Returns the exact sum of the terms added since `beginSum`, rounded: its components added from
 * the smallest up, within about one unit in the last place (and of the right sign).
 */
export function sumValue(): number {
  const len = expand();
  let v = 0;
  for (let i = 0; i < len; i++) v += acc[i]!;
  return v;
}

// Grow-Expansion with zero elimination: adds each term into the running expansion `acc` by
// two-sum; returns the expansion's length.
function expand(): number {
  let len = 0;
  for (let t = 0; t < termCount; t++) {
    let q = terms[t]!;
    let out = 0;
    for (let i = 0; i < len; i++) {
      const x = q + acc[i]!;
      const bv = x - q;
      const err = q - (x - bv) + (acc[i]! - bv);
      if (err !== 0) acc[out++] = err;
      q = x;
    }
    if (q !== 0) acc[out++] = q;
    len = out;
  }
  return len;
}

// Inputs whose magnitudes lie in [2^-450, 2^450] (or are 0) keep every product and error term
// of the expansions above within the normal double range.
const SAFE_MAX = 2 ** 450;
const SAFE_MIN = 2 ** -450;

/**
 * Whether the expansion arithmetic is exact for these inputs (see SAFE_MAX/SAFE_MIN): up to six
 * numbers, as arguments (no array to stage them in); a missing one is 0, which is in range.
 */
export function inSafeRange(a: number, b: number, c: number, d: number, e = 0, f = 0): boolean {
  return safe(a) && safe(b) && safe(c) && safe(d) && safe(e) && safe(f);
}

// Whether |v| lies in [SAFE_MIN, SAFE_MAX], or v is 0.
function safe(v: number): boolean {
  const m = v < 0 ? -v : v;
  return !(m > SAFE_MAX || (m < SAFE_MIN && m !== 0));
}

const F64 = new DataView(new ArrayBuffer(8));

/** The double x times 2^1074, exactly, as a BigInt (every double is a multiple of 2^-1074). */
export function toBig(x: number): bigint {
  F64.setFloat64(0, x);
  const hi = F64.getUint32(0);
  const lo = F64.getUint32(4);
  const exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exp !== 0) mant = (mant | (1n << 52n)) << BigInt(exp - 1);
  return hi >>> 31 ? -mant : mant;
}

/**
 * v * 2^-shift as the nearest double (about: the top 64 bits are kept); a value not 0 but too
 * small for a double keeps its sign as the smallest double.
 * @param v - the integer.
 * @param shift - the power of two to divide by.
 */
export function bigToNumber(v: bigint, shift: number): number {
  if (v === 0n) return 0;
  const negative = v < 0n;
  const m = negative ? -v : v;
  const drop = Math.max(0, m.toString(2).length - 64);
  let r = Number(m >> BigInt(drop));
  // r * 2^(drop - shift), scaled in steps that stay finite.
  let e = drop - shift;
  for (; e > 1000; e -= 1000) r *= 2 ** 1000;
  for (; e < -1000; e += 1000) r *= 2 ** -1000;
  r *= 2 ** e;
  if (r === 0) r = Number.MIN_VALUE;
  return negative ? -r : r;
}

/** The sign (-1, 0, 1) of a BigInt. */
export function bigSign(v: bigint): number {
  return v > 0n ? 1 : v < 0n ? -1 : 0;
}
