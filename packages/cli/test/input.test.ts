// The readers of the command's input files (src/input.ts): the features of a GeoJSON file, named
// by their places, and its errors (the splitter itself: geojson-split.test.ts).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sourced } from '../src/feature.js';
import { readFeatures } from '../src/input.js';
import { HEAP_MAX } from '../src/json-bytes.js';
import { cityFeature, countries, sampleCities } from './data.js';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quadkit-input-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 1));
  return path;
}

async function readAll(file: string): Promise<Sourced[]> {
  const out: Sourced[] = [];
  for await (const s of readFeatures(file, { format: 'geojson' })) out.push(s);
  return out;
}

// The error reading the file gives.
async function failure(file: string): Promise<string> {
  return readAll(file).then(
    () => 'no error',
    (e: Error) => e.message,
  );
}

describe('readFeatures(file) on GeoJSON', () => {
  it('gives the features of a FeatureCollection in file order, named features[k]', async () => {
    const list = sampleCities(7);
    const features = [...list.map(cityFeature), ...countries().slice(0, 20)];
    const got = await readAll(write('fc.geojson', { type: 'FeatureCollection', features }));
    expect(got.map((s) => s.feature)).toEqual(features);
    expect(got.map((s) => s.where)).toEqual(
      features.map((_, k) => `${join(dir, 'fc.geojson')}: features[${k}]`),
    );
  });

  it('gives the elements of a top-level array, one feature, one geometry, and nothing for an empty collection', async () => {
    const features = sampleCities(16).map(cityFeature);
    const array = await readAll(write('array.geojson', features));
    expect(array.map((s) => s.where)).toEqual(
      features.map((_, k) => `${join(dir, 'array.geojson')}: [${k}]`),
    );
    const one = await readAll(write('one.geojson', features[3]));
    expect(one.map((s) => s.feature)).toEqual([features[3]]);
    const geometry = features[4]!.geometry;
    const bare = await readAll(write('geometry.geojson', geometry));
    expect(bare.map((s) => s.feature.geometry)).toEqual([geometry]);
    expect(
      await readAll(write('empty.geojson', { type: 'FeatureCollection', features: [] })),
    ).toEqual([]);
    // A byte order mark first; a feature whose foreign member is named `features`.
    const bom = await readAll(
      write('bom.geojson', `\uFEFF${JSON.stringify(features.slice(0, 3))}`),
    );
    expect(bom.map((s) => s.feature)).toEqual(features.slice(0, 3));
    const foreign = { ...features[5]!, features: [] };
    const member = await readAll(write('member.geojson', foreign));
    expect(member.map((s) => s.feature)).toEqual([foreign]);
    const other = { ...features[6]!, features: { note: 'not a list of features' } };
    const object = await readAll(write('member-object.geojson', other));
    expect(object.map((s) => s.feature)).toEqual([other]);
  });

  it('fails naming the place: a bad feature by its place, bad JSON, a collection without features, a file that is not JSON, a TopoJSON topology', async () => {
    const good = cityFeature(sampleCities()[0]!);
    const badFeature = write('bad.geojson', {
      type: 'FeatureCollection',
      features: [good, { type: 'Feature', properties: {} }, [1, 2]],
    });
    expect(await failure(badFeature)).toMatch(/bad\.geojson: features\[2\]: expected a GeoJSON/);
    expect(
      await failure(write('cut.geojson', '{"type":"FeatureCollection","features":[{"ty')),
    ).toBe(
      `${join(dir, 'cut.geojson')}: the file ends inside features[0], which starts at byte 40`,
    );
    expect(await failure(write('nofeatures.geojson', { type: 'FeatureCollection' }))).toMatch(
      /needs a "features" array/,
    );
    for (const features of [{}, 5, 'cities', null]) {
      const file = write('notarray.geojson', { type: 'FeatureCollection', features });
      expect(await failure(file)).toMatch(
        /notarray\.geojson: a FeatureCollection needs a "features" array/,
      );
    }
    expect(await failure(write('text.geojson', 'name,lon,lat\n'))).toMatch(
      /not a GeoJSON file \(it starts with "n"\)/,
    );
    const topology = { type: 'Topology', objects: { countries: {}, land: {} }, arcs: [] };
    expect(await failure(write('world.json', topology))).toMatch(
      /world\.json: a TopoJSON topology \(objects: countries, land\), not GeoJSON; .*topo2geo countries=out\.geojson < \S*world\.json$/,
    );
  });

  it('reports the bytes read as it gives out features, up to the file size, never going back', async () => {
    const features = sampleCities(3).map(cityFeature);
    const file = write('progress.geojson', { type: 'FeatureCollection', features });
    const seen: number[] = [];
    const options = { format: 'geojson' as const, onBytes: (b: number) => seen.push(b) };
    for await (const _ of readFeatures(file, options)) {
      // (read to the end)
    }
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((b, i) => i === 0 || b >= seen[i - 1]!)).toBe(true);
    expect(seen.at(-1)).toBe(statSync(file).size);
  });
});

describe('readFeatures(file) on a file whose name does not say its format', () => {
  const all = async (file: string) => {
    const out: Sourced[] = [];
    for await (const s of readFeatures(file)) out.push(s);
    return out;
  };
  const point = {
    type: 'Feature',
    properties: { n: 1 },
    geometry: { type: 'Point', coordinates: [1, 2] },
  };

  it('reads a JSON document as GeoJSON, one feature per line as NDJSON, and other text as CSV', async () => {
    const json = await all(write('doc', { type: 'FeatureCollection', features: [point, point] }));
    expect(json.map((s) => s.where)).toEqual(
      ['doc', 'doc'].map((f, i) => `${join(dir, f)}: features[${i}]`),
    );
    const lines = await all(write('lines', `${JSON.stringify(point)}\n${JSON.stringify(point)}\n`));
    expect(lines.map((s) => s.where)).toEqual([
      `${join(dir, 'lines')}:1`,
      `${join(dir, 'lines')}:2`,
    ]);
    const csv = await all(write('table', 'n,lon,lat\n1,1,2\n'));
    expect(csv.map((s) => s.feature.geometry)).toEqual([point.geometry]);
  });

  it('reads NDJSON lines longer than HEAP_MAX bytes as JSON.parse does, and names such a line that is not valid JSON', async () => {
    const ring = Array.from({ length: 8000 }, (_, i) => [i / 50 - 80, (i % 100) - 50.5]);
    const big = {
      type: 'Feature',
      properties: { n: 'é' },
      geometry: { type: 'Polygon', coordinates: [ring] },
    };
    const text = `${JSON.stringify(big)}\n${JSON.stringify(point)}\n${JSON.stringify(big)}\n`;
    expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(HEAP_MAX);
    const got = await all(write('big.ndjson', text));
    expect(got.map((s) => s.feature)).toEqual(
      [big, point, big].map((f) => JSON.parse(JSON.stringify(f))),
    );
    const bad = text.replace('],[', '],,[');
    expect(await all(write('bad.ndjson', bad)).catch((e: Error) => e.message)).toMatch(
      /bad\.ndjson:1: not valid JSON \(Unexpected token/,
    );
  });

  it('tells one long feature per line from one long document, when the first line is longer than 64 KB', async () => {
    const long = { ...point, properties: { pad: 'x'.repeat(100_000) } };
    const perLine = await all(
      write('long-lines', `${JSON.stringify(long)}\n${JSON.stringify(long)}\n`),
    );
    expect(perLine.map((s) => s.where)).toEqual(
      [1, 2].map((n) => `${join(dir, 'long-lines')}:${n}`),
    );
    const doc = { type: 'FeatureCollection', features: [long, long] };
    for (const [name, text] of [
      ['one-line-doc', JSON.stringify(doc)],
      [
        'broken-doc',
        `{"type":"FeatureCollection","features":[${JSON.stringify(long)},\n${JSON.stringify(long)}]}`,
      ],
    ] as const) {
      const got = await all(write(name, text));
      expect(got.map((s) => s.where)).toEqual(
        [0, 1].map((k) => `${join(dir, name)}: features[${k}]`),
      );
    }
  });

  it('refuses a compressed or binary file, saying what it is, instead of reading it as CSV', async () => {
    const gz = write('cities.gz', '');
    writeFileSync(gz, Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2]));
    await expect(all(gz)).rejects.toThrow(
      /cities\.gz: a gzip-compressed file; decompress it first/,
    );
    const binary = join(dir, 'shapes.bin');
    writeFileSync(binary, Buffer.concat([Buffer.from('SHP\0\0\0'), Buffer.alloc(64, 0)]));
    await expect(all(binary)).rejects.toThrow(/shapes\.bin: not a text file/);
    const utf16 = join(dir, 'wide');
    writeFileSync(utf16, Buffer.from('\ufeffname,lon,lat\nA,1,2\n', 'utf16le'));
    await expect(all(utf16)).rejects.toThrow(/wide: UTF-16 text; convert it to UTF-8 first/);
    const index = join(dir, 'saved-index');
    writeFileSync(index, Buffer.concat([Buffer.from('QUADKIT\n'), Buffer.alloc(64)]));
    await expect(all(index)).rejects.toThrow(
      /saved-index: a quadkit index: `quadkit query` reads one/,
    );
    // Compressed data has few NUL bytes, but is not UTF-8.
    const random = join(dir, 'random');
    const bytes = new Uint8Array(20000);
    let seed = 7;
    for (let i = 0; i < bytes.length; i++) {
      seed = (seed * 16807) % 2147483647;
      bytes[i] = seed & 255;
    }
    writeFileSync(random, bytes);
    await expect(all(random)).rejects.toThrow(/random: not UTF-8 text \(compressed or binary/);
    // A NUL byte in a CSV field is not enough to call a file binary.
    const nul = await all(write('nul-field', 'name,lon,lat\na\u0000x,1,2\n'));
    expect(nul.map((s) => s.feature.properties?.name)).toEqual(['a\u0000x']);
    // A text file that is not CSV still fails on its columns, as before.
    const text = write('plain', 'QKIDX,a\n1,2\n');
    await expect(all(text)).rejects.toThrow(/no longitude column/);
  });
});
