// The CSV and line splitters (src/csv.ts, src/lines.ts) against csv-parse and String.split on the
// same text, however the file is cut into chunks.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitCsv } from '../src/csv.js';
import { HEAP_MAX } from '../src/json-bytes.js';
import { splitLineBytes, splitLines } from '../src/lines.js';

let dir = '';
let count = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quadkit-csv-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(text: string): string {
  const path = join(dir, `f${count++}`);
  writeFileSync(path, text);
  return path;
}

async function csv(file: string, delimiter: string, chunk: number) {
  const records: string[][] = [];
  const lines: number[] = [];
  for await (const r of splitCsv(file, delimiter, chunk)) {
    records.push(...r.records);
    lines.push(...r.lines);
  }
  return { records, lines };
}

// A field, quoted when it must be (or at random).
const field = fc
  .record({
    text: fc.string({
      unit: fc.constantFrom('a', '1', ' ', ',', ';', '"', '\n', 'é', '😀'),
      maxLength: 6,
    }),
    quote: fc.boolean(),
  })
  .map(({ text, quote }) =>
    quote || /[,;"\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text,
  );
const table = fc.record({
  rows: fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 8 }),
  delimiter: fc.constantFrom(',', ';'),
  eol: fc.constantFrom('\n', '\r\n', '\r'),
  bom: fc.boolean(),
  last: fc.boolean(),
});

describe('splitCsv', () => {
  it('gives what csv-parse gives, with the line each record ends on, in chunks of 1 to 7 bytes and larger', async () => {
    await fc.assert(
      fc.asyncProperty(table, fc.integer({ min: 1, max: 7 }), async (t, size) => {
        // (An unquoted field cannot hold the delimiter.)
        const rows = t.rows.map((r) =>
          r.map((f) => (f.startsWith('"') ? f : f.replaceAll(t.delimiter, ''))),
        );
        const eol = t.eol;
        const text = `${t.bom ? '\uFEFF' : ''}${rows.map((r) => r.join(t.delimiter)).join(eol)}${t.last ? eol : ''}`;
        const want = parse(text, {
          bom: true,
          skip_empty_lines: true,
          trim: true,
          delimiter: t.delimiter,
          relax_column_count: true,
          info: true,
        }) as unknown as { record: string[]; info: { lines: number } }[];
        for (const chunk of [size, 1 << 20]) {
          const got = await csv(write(text), t.delimiter, chunk);
          expect(got.records).toEqual(want.map((w) => w.record));
          expect(got.lines).toEqual(want.map((w) => w.info.lines));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('takes lone \\r line ends, as old Mac files have them, alone or mixed with \\n and \\r\\n', async () => {
    for (const chunk of [1, 2, 3, 5, 1 << 20]) {
      expect(await csv(write('a,b\r1,2\r\r3,"x\ry"\r4, 5 \r'), ',', chunk)).toEqual({
        records: [
          ['a', 'b'],
          ['1', '2'],
          ['3', 'x\ry'],
          ['4', '5'],
        ],
        lines: [1, 2, 5, 6],
      });
      expect(await csv(write('a\r\nb\rc\n\r\nd'), ',', chunk)).toEqual({
        records: [['a'], ['b'], ['c'], ['d']],
        lines: [1, 2, 3, 5],
      });
    }
  });

  it('names the line of a quote left open, a quote inside an unquoted field, and text after a closing quote', async () => {
    const fails = (text: string) =>
      csv(write(text), ',', 3).then(
        () => 'no error',
        (e: Error) => e.message,
      );
    expect(await fails('a,b\n1,"2\n3,4\n')).toMatch(
      /:2: a quoted field is not closed at the end of the file$/,
    );
    expect(await fails('a,b\n1,2\n3,x"y\n')).toMatch(
      /:3: a quote inside field 2, which is not quoted/,
    );
    expect(await fails('a,b\n"1\n1" x,2\n')).toMatch(/:3: text after the closing quote of field 1/);
  });
});

describe('splitLines', () => {
  it('gives the lines that are not blank, with their numbers, in chunks of 1 to 7 bytes and larger', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ unit: fc.constantFrom('{', '}', ' ', '\r', 'é', '😀', 'x'), maxLength: 5 }),
          { maxLength: 8 },
        ),
        fc.boolean(),
        fc.integer({ min: 1, max: 7 }),
        async (lines, bom, size) => {
          const text = `${bom ? '\uFEFF' : ''}${lines.join('\n')}`;
          const want = lines
            .map((l, i) => ({ l, n: i + 1 }))
            .filter(({ l }) => l.replace(/[ \r]/g, '') !== '');
          for (const chunk of [size, 1 << 20]) {
            const texts: (string | Uint8Array)[] = [];
            const numbers: number[] = [];
            // (ASCII lines decoded in pieces of 1 to 7 bytes, or 64 KiB.)
            for await (const got of splitLines(
              write(text),
              chunk,
              chunk === size ? 8 - size : undefined,
            )) {
              texts.push(...got.texts);
              numbers.push(...got.numbers);
            }
            expect(texts).toEqual(want.map((w) => w.l));
            expect(numbers).toEqual(want.map((w) => w.n));
            // The same lines as bytes, and how far into the file each run reaches.
            const bytes: string[] = [];
            const byteNumbers: number[] = [];
            const file = write(text);
            let end = 0;
            for await (const got of splitLineBytes(file, chunk)) {
              for (let k = 0; k < got.starts.length; k++)
                bytes.push(got.bytes.toString('utf8', got.starts[k], got.ends[k]));
              byteNumbers.push(...got.numbers);
              expect(got.end).toBeGreaterThan(end);
              end = got.end;
            }
            expect(bytes).toEqual(texts);
            expect(byteNumbers).toEqual(numbers);
            expect(end).toBeLessThanOrEqual(Buffer.byteLength(text));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('gives a line longer than HEAP_MAX bytes as its bytes, ASCII or not, within a chunk or across chunks', async () => {
    const long = (c: string) => `{"a":"${c.repeat(HEAP_MAX)}"}`;
    const lines = ['{"b":1}', long('x'), long('é'), '', '{"c":2}', long('y')];
    const file = write(lines.join('\n'));
    for (const chunk of [1 << 16, 1 << 20, 1 << 23]) {
      const got: string[] = [];
      const numbers: number[] = [];
      for await (const run of splitLines(file, chunk))
        for (let k = 0; k < run.texts.length; k++) {
          const t = run.texts[k]!;
          expect(typeof t === 'string').toBe(t.length <= HEAP_MAX);
          got.push(typeof t === 'string' ? t : Buffer.from(t).toString('utf8'));
          numbers.push(run.numbers[k]!);
        }
      expect(got).toEqual(lines.filter((l) => l !== ''));
      expect(numbers).toEqual([1, 2, 3, 5, 6]);
    }
  });
});
