// The GeoJSON splitter (src/geojson-split.ts) against JSON.parse of the whole text: the same
// features, in the same order, however the bytes are cut into chunks; and its errors, which name
// the feature and the byte where it starts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeojsonSplitter, type KnownType, splitGeojson } from '../src/geojson-split.js';

interface Read {
  /** The elements, with their paths and indexes. */
  elements: { where: string; value: unknown }[];
  /** The document, when it held no array of features. */
  document: unknown;
}

// Runs the splitter over `bytes` cut into chunks of `size` bytes (a second pass when it asks);
// `raw`: the elements given as bytes (every one found by the scan), parsed here; `skipMin` 0:
// every element moved through by native searches, 1 << 30: every one byte by byte.
function split(bytes: Uint8Array, size: number, raw = false, skipMin?: number): Read {
  let known: KnownType | null = null;
  for (;;) {
    const read: Read = { elements: [], document: undefined };
    const splitter = new GeojsonSplitter('f.geojson', known, raw, skipMin);
    const take = (splits: ReturnType<GeojsonSplitter['end']>) => {
      for (const s of splits) {
        if (s.path === null) read.document = s.values[0];
        else if (s.raw !== undefined) {
          const { bytes: b, starts, ends } = s.raw;
          starts.forEach((start, j) => {
            const value: unknown = JSON.parse(Buffer.from(b.subarray(start, ends[j])).toString());
            read.elements.push({ where: `${s.path}[${s.first + j}]`, value });
          });
        } else
          s.values.forEach((value, j) => {
            read.elements.push({ where: `${s.path}[${s.first + j}]`, value });
          });
      }
    };
    for (let at = 0; at < bytes.length; at += size)
      take(splitter.push(bytes.slice(at, Math.min(at + size, bytes.length))));
    take(splitter.end());
    if (splitter.retry === null) return read;
    expect(read.elements).toEqual([]);
    known = splitter.retry;
  }
}

// What JSON.parse of the whole text says the splitter must give.
function expected(text: string): Read {
  const value = JSON.parse(text.replace(/^\uFEFF/, '')) as {
    type?: unknown;
    features?: unknown;
  };
  if (Array.isArray(value))
    return { elements: value.map((v, k) => ({ where: `[${k}]`, value: v })), document: undefined };
  if (value.type !== 'Feature' && Array.isArray(value.features))
    return {
      elements: value.features.map((v, k) => ({ where: `features[${k}]`, value: v })),
      document: undefined,
    };
  return { elements: [], document: value };
}

const bytesOf = (text: string) => new TextEncoder().encode(text);

const error = (bytes: Uint8Array, size: number, skipMin?: number) => {
  try {
    split(bytes, size, false, skipMin);
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

// Strings that a splitter could mistake for structure.
const tricky = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({
    unit: fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      '"',
      '\\',
      ',',
      ':',
      'features',
      'é',
      '😀',
      '\u2028',
      '\n',
    ),
    maxLength: 8,
  }),
);
const properties = fc.dictionary(
  fc.oneof(fc.constant('features'), tricky),
  fc.oneof(
    tricky,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constant(null),
    fc.array(fc.oneof(tricky, fc.integer()), { maxLength: 3 }),
    fc.constant({ type: 'FeatureCollection', features: [{ type: 'Feature' }] }),
  ),
  { maxKeys: 4 },
);
const feature = fc.record({
  type: fc.constant('Feature'),
  geometry: fc.oneof(
    fc.constant(null),
    fc.record({
      type: fc.constant('Point'),
      coordinates: fc.tuple(fc.double({ min: -180, max: 180 }), fc.double({ min: -90, max: 90 })),
    }),
  ),
  properties: fc.oneof(fc.constant(null), properties),
});
// A FeatureCollection with its members in any order, some of them absent.
const collection = fc
  .record({
    features: fc.array(fc.oneof(feature, fc.constant(7), fc.constant('x')), { maxLength: 6 }),
    members: fc.shuffledSubarray(['type', 'name', 'bbox', 'crs', 'features'], { minLength: 1 }),
  })
  .map(({ features, members }) => {
    const doc: Record<string, unknown> = {};
    for (const m of members.includes('features') ? members : [...members, 'features'])
      doc[m] = {
        type: 'FeatureCollection',
        name: 'a "features": [1, 2] }',
        bbox: [-180, -90, 180, 90],
        crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } },
        features,
      }[m];
    return doc;
  });
// JSON text: packed or indented, with non-ASCII characters as \u escapes or not, a byte order
// mark or not.
const text = fc
  .record({
    doc: fc.oneof(collection, fc.array(feature, { maxLength: 4 })),
    indent: fc.constantFrom(undefined, 1, '\t', ' \r\n'),
    escaped: fc.boolean(),
    bom: fc.boolean(),
  })
  .map(({ doc, indent, escaped, bom }) => {
    let t = JSON.stringify(doc, null, indent);
    if (escaped)
      t = t.replace(
        /[\u0080-\uffff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
    return `${bom ? '\uFEFF' : ''} \n${t}\n`;
  });

// A collection whose features are known, with where each starts.
const features = Array.from({ length: 40 }, (_, i) =>
  JSON.stringify({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [i, i / 2] },
    properties: { name: `é {${i}} "[`, i },
  }),
);
const head = '{"type":"FeatureCollection","features":[\n';
const starts: number[] = [];
let at = Buffer.byteLength(head);
for (const f of features) {
  starts.push(at);
  at += Buffer.byteLength(f) + 2;
}
const whole = `${head}${features.join(',\n')}\n]}`;

describe('GeojsonSplitter', () => {
  it('gives what JSON.parse of the whole text gives, in chunks of 1 to 7 bytes and larger, parsed or raw, skipped through or scanned', () => {
    fc.assert(
      fc.property(
        text,
        fc.oneof(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 8, max: 4096 })),
        fc.boolean(),
        fc.constantFrom(0, 1 << 30, undefined),
        (t, size, raw, skipMin) => {
          expect(split(bytesOf(t), size, raw, skipMin)).toEqual(expected(t));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives the same for every chunk size on one document with every kind of member', () => {
    const doc = {
      name: 'before "type" } ] \\',
      features: [
        {
          type: 'Feature',
          geometry: null,
          properties: { features: [1, { '}': '{[' }], '"': '\\"' },
        },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [1.5, -2e-7] }, properties: {} },
        { type: 'Feature', geometry: null, properties: { s: 'é😀\u2028', '\\': '\\\\' } },
      ],
      type: 'FeatureCollection',
      bbox: [0, 0, 1, 1],
    };
    const t = `\uFEFF${JSON.stringify(doc, null, 2).replace('é', '\\u00e9')}`;
    const bytes = bytesOf(t);
    for (let size = 1; size <= bytes.length + 1; size++)
      for (const raw of [false, true])
        for (const skipMin of [0, 1 << 30])
          expect(split(bytes, size, raw, skipMin)).toEqual(expected(t));
  });

  it('gives the same for features larger than a run of parsing, and strings that look like an end', () => {
    const big = { type: 'Feature', geometry: null, properties: { pad: 'x'.repeat(130_000) } };
    const look = { type: 'Feature', geometry: null, properties: { s: '"}, {"type": "}]' } };
    const doc = { type: 'FeatureCollection', features: [look, big, look, big, look, look] };
    for (const t of [JSON.stringify(doc), JSON.stringify(doc, null, 1)]) {
      const bytes = bytesOf(t);
      for (const size of [1000, 70_000, 1 << 18, 1 << 20])
        for (const raw of [false, true])
          for (const skipMin of [0, 1 << 30])
            expect(split(bytes, size, raw, skipMin)).toEqual(expected(t));
    }
  });

  it('reads a feature, a geometry, or a feature whose foreign member is named features, as the document', () => {
    for (const doc of [
      { features: [{ type: 'Feature' }], type: 'Feature', geometry: null, properties: {} },
      { type: 'Feature', features: [1, 2], geometry: null, properties: { features: [] } },
      { type: 'Point', coordinates: [1, 2] },
      { type: 'Topology', objects: {} },
      { type: 'FeatureCollection', features: {} },
      { type: 'FeatureCollection' },
    ]) {
      const t = JSON.stringify(doc);
      for (const size of [1, 3, 1 << 20]) expect(split(bytesOf(t), size)).toEqual(expected(t));
    }
  });

  it('names the feature a file ends inside, and the byte where it starts, for every cut', () => {
    const bytes = bytesOf(whole);
    for (let k = 0; k < features.length; k += 7) {
      const end = starts[k]! + Buffer.byteLength(features[k]!);
      for (let cut = starts[k]! + 1; cut < end; cut += 5) {
        expect(error(bytes.subarray(0, cut), 1 + (cut % 13))).toBe(
          `f.geojson: the file ends inside features[${k}], which starts at byte ${starts[k]}`,
        );
      }
    }
    expect(error(bytes.subarray(0, starts[3]! - 1), 64)).toBe(
      'f.geojson: the file ends inside the "features" array, after features[2]',
    );
    expect(error(bytesOf('{"type":"FeatureCollection","bbox":[1,'), 4)).toBe(
      'f.geojson: the file ends inside the top-level member "bbox", which starts at byte 35',
    );
  });

  it('names the feature that is not valid JSON, the byte where it starts and the byte of the fault', () => {
    for (const k of [0, 12, 39]) {
      const broken = [...features];
      broken[k] = `${broken[k]!.slice(0, -1)},}`;
      const bad = bytesOf(`${head}${broken.join(',\n')}\n]}`);
      const fault = starts[k]! + Buffer.byteLength(broken[k]!) - 1;
      for (const size of [1, 5, 100, 1 << 20]) {
        const message = error(bad, size);
        expect(message).toContain(
          `f.geojson: features[${k}], which starts at byte ${starts[k]}: not valid JSON (`,
        );
        expect(message).toContain(`at byte ${fault}`);
      }
    }
  });

  it('refuses what is not a GeoJSON document, and what follows one', () => {
    expect(error(bytesOf('"FeatureCollection"'), 8)).toBe(
      'f.geojson: not a GeoJSON file (it starts with "\\"") at byte 0',
    );
    expect(error(bytesOf('  '), 8)).toBe('f.geojson: not a GeoJSON file (it holds no JSON value)');
    expect(error(bytesOf('[{"type":"Feature"}] x'), 3)).toBe(
      'f.geojson: not valid JSON: more after the end of the top-level value at byte 21',
    );
    expect(error(bytesOf('{"type":"FeatureCollection","features":[{},]}'), 2)).toMatch(
      /expected features\[1\], got "\]" at byte 43$/,
    );
    expect(error(bytesOf('{"type" "FeatureCollection"}'), 2)).toMatch(/expected ':' after "type"/);
    // A small element is scanned byte by byte: the bracket that does not match is named where
    // it is met; a large one is moved through by its braces, and JSON.parse names the fault.
    for (const size of [2, 1 << 10]) {
      for (const text of ['[{]', '[{]},{}]}'].map(
        (a) => `{"type":"FeatureCollection","features":${a}}`,
      )) {
        expect(error(bytesOf(text), size)).toMatch(
          /expected ',' or '\]' in features\[0\] at byte 42$/,
        );
        expect(error(bytesOf(text), size, 0)).toMatch(
          /features\[0\], which starts at byte 40: not valid JSON \(.* at byte 41\)$/,
        );
      }
    }
  });
});

describe('splitGeojson(file)', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'quadkit-split-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file in chunks, the same as JSON.parse, naming errors by the file', async () => {
    const file = join(dir, 'fc.geojson');
    writeFileSync(file, whole);
    for (const size of [3, 64, 1 << 20]) {
      const values: unknown[] = [];
      for await (const s of splitGeojson(file, size)) values.push(...s.values);
      expect(values).toEqual(JSON.parse(whole).features);
    }
    writeFileSync(file, whole.slice(0, starts[5]! + 10));
    await expect(async () => {
      for await (const _ of splitGeojson(file, 16)) {
        // (read to the end)
      }
    }).rejects.toThrow(
      `${file}: the file ends inside features[5], which starts at byte ${starts[5]}`,
    );
  });
});
