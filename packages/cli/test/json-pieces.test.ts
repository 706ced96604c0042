// Parsing one long JSON value in pieces (src/json-pieces.ts) against JSON.parse of the whole:
// the same value, members in the same order, and text refused exactly when JSON.parse refuses it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePieces } from '../src/json-pieces.js';

// parsePieces over the UTF-8 bytes of a text, with pieces of `most` bytes at most, separators
// noted `piece` bytes apart; the bytes are checked to be as they were.
function pieces(text: string, most: number, piece: number): unknown {
  const bytes = Buffer.from(` ${text}\n`);
  const before = Buffer.from(bytes);
  const value = parsePieces(
    bytes,
    0,
    bytes.length,
    most,
    (a, b) => bytes.toString('utf8', a, b),
    piece,
  );
  expect(bytes.equals(before)).toBe(true);
  return value;
}

// What JSON.parse gives, as text that shows the order of members, or undefined when it throws.
function whole(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return undefined;
  }
}

// Strings with what the scan must see through: quotes, escapes, brackets, commas, non-ASCII.
const tricky = fc.string({
  unit: fc.constantFrom('a', '"', '\\', '[', ']', '{', '}', ',', ':', 'é', '😀', ' '),
  maxLength: 6,
});
const key = fc.oneof(tricky, fc.constantFrom('__proto__', '1', '0', 'type', 'a'));
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    tricky,
    fc.constantFrom(null, true, false),
    fc.array(tie('value'), { maxLength: 8 }),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 6 }).map((members) => {
      const o: Record<string, unknown> = {};
      for (const [k, v] of members)
        Object.defineProperty(o, k, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return o;
    }),
  ),
}));
// A text of a value: compact, indented, or with a duplicate member written into it.
const text = fc
  .tuple(value, fc.constantFrom(undefined, 1, '\t'), fc.boolean())
  .map(([v, indent, dup]) => {
    const t = JSON.stringify(v, null, indent);
    return dup && t.startsWith('{"') ? `{"a":[1,2],${t.slice(1)}` : t;
  });

describe('parsePieces(bytes, from, to, most, decode)', () => {
  it('gives what JSON.parse of the whole gives, members in the same order, for pieces of any size', () => {
    fc.assert(
      fc.property(
        text,
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        (t, a, b) => {
          const most = Math.max(a, b);
          const got = pieces(t, most, Math.min(a, b));
          // (Text no longer than `most`, or not an array or object, is left to JSON.parse.)
          if (got === undefined) expect(t.trim().length <= most || !/^[[{]/.test(t)).toBe(true);
          else expect(JSON.stringify(got)).toBe(whole(t));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses text exactly when JSON.parse of the whole refuses it: a byte dropped, doubled or changed', () => {
    fc.assert(
      fc.property(
        text.filter((t) => t.length > 4 && /^[[{]/.test(t)),
        fc.nat(),
        fc.constantFrom('drop', 'double', ',', ']', '}', '"', ':', ' ', '\\'),
        fc.integer({ min: 1, max: 8 }),
        (t, at, change, most) => {
          const k = at % t.length;
          const cut =
            change === 'drop'
              ? t.slice(0, k) + t.slice(k + 1)
              : change === 'double'
                ? t.slice(0, k + 1) + t.slice(k)
                : t.slice(0, k) + change + t.slice(k + 1);
          // (As its bytes read back: a character cut in two becomes U+FFFD in both.)
          const bad = Buffer.from(cut).toString('utf8');
          const got = pieces(bad, most, Math.max(1, most >> 1));
          const want = whole(bad);
          if (want === undefined) expect(got).toBeUndefined();
          else if (got !== undefined) expect(JSON.stringify(got)).toBe(want);
          else expect(bad.trim().length <= most || !/^[[{]/.test(bad.trim())).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('parses a polygon feature longer than a piece, and keeps __proto__ as an own member', () => {
    const ring = Array.from({ length: 5000 }, (_, i) => [i / 10 - 180, (i % 180) - 89.5]);
    const feature = {
      type: 'Feature',
      properties: { name: 'x' },
      geometry: { type: 'MultiPolygon', coordinates: [[ring, ring.slice(0, 9)], [ring]] },
    };
    const t = JSON.stringify(feature).replace('"name"', '"__proto__":{"a":1},"name"');
    const got = pieces(t, 2000, 500) as { properties: object };
    expect(JSON.stringify(got)).toBe(whole(t));
    expect(Object.getPrototypeOf(got.properties)).toBe(Object.prototype);
    expect(Object.hasOwn(got.properties, '__proto__')).toBe(true);
  });
});
