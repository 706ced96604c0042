// The command's reading of decimal numbers (src/numbers.ts) against the grammar it states: an
// optional sign, digits with an optional point (or a point and digits), an optional exponent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimal } from '../src/numbers.js';

const GRAMMAR = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
// The oracle: the grammar's match read by Number(), else NaN.
const oracle = (text: string) => (GRAMMAR.test(text) ? Number(text) : Number.NaN);

// Texts near numbers: digits, signs, points, exponents, radix letters, white space, Infinity.
const nearNumber = fc
  .array(
    fc.constantFrom(
      '0',
      '1',
      '7',
      '9',
      '.',
      '+',
      '-',
      'e',
      'E',
      'x',
      'X',
      'b',
      'B',
      'o',
      'O',
      'f',
      ' ',
      '\t',
      '\n',
      '\u00a0',
      '_',
      'Infinity',
      'NaN',
      ',',
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

// Decimals of 1 to 20 digits with a point anywhere (or none) and a sign or not: either side of
// 15 digits and of 22 decimals, where reading them exactly changes method.
const plainDecimal = fc
  .tuple(
    fc.constantFrom('', '-', '+'),
    fc.string({
      unit: fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9'),
      minLength: 1,
      maxLength: 26,
    }),
    fc.nat(26),
  )
  .map(([sign, digits, point]) =>
    point > digits.length
      ? sign + digits
      : `${sign}${digits.slice(0, point)}.${digits.slice(point)}`,
  );

describe('decimal', () => {
  it('decimal(text) reads what the decimal grammar reads and NaN for anything else', () => {
    fc.assert(
      fc.property(
        fc.oneof(plainDecimal, nearNumber, fc.string(), fc.double().map(String)),
        (text) => {
          expect(Object.is(decimal(text), oracle(text))).toBe(true);
        },
      ),
      { numRuns: 20_000, seed: 40 },
    );
  });

  it('decimal(text) refuses what Number() reads besides decimals', () => {
    for (const text of [
      '',
      ' ',
      ' 1',
      '1 ',
      '0x10',
      '0X1f',
      '0b1',
      '0o7',
      'Infinity',
      '-Infinity',
      '+Infinity',
      '1_000',
      '\n2',
    ])
      expect(decimal(text), JSON.stringify(text)).toBeNaN();
  });

  it('decimal(text) reads signs, points and exponents', () => {
    const cases: [string, number][] = [
      ['0', 0],
      ['-0', -0],
      ['+1.5', 1.5],
      ['.5', 0.5],
      ['-.5', -0.5],
      ['5.', 5],
      ['0e5', 0],
      ['1E-3', 0.001],
      ['2.5e+2', 250],
      ['00012', 12],
      ['-179.999999', -179.999999],
    ];
    for (const [text, value] of cases) expect(Object.is(decimal(text), value), text).toBe(true);
  });
});
