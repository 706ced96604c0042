// FlatGeobuf in and out: `quadkit index x -o x.fgb` writes a file the `flatgeobuf` package reads
// back whole and through its index; `quadkit query x.fgb` answers as the .qk index and brute force
// do, reading a small share of the file (for --near and --within too, by a best-first walk of
// its tree, answering as a scan of the GeoJSON does); `.fgb` is read as input by index and join;
// and damaged files are refused with the file and the place, leaving no output behind.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { deserialize, serialize } from 'flatgeobuf/lib/mjs/geojson.js';
import { haversine } from 'quadkit/geo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FgbFile } from '../src/fgb.js';
import { type City, cityFeature, countries, seeded, writeDataFiles, writePoints } from './data.js';
import { lines, quadkit } from './run.js';

let dir: string;
let files: ReturnType<typeof writeDataFiles>;
let cities: City[];
let citiesFgb: string;
let citiesQk: string;
let countriesFgb: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quadkit-fgb-'));
  files = writeDataFiles(dir, 32);
  cities = files.cities;
  citiesFgb = join(dir, 'cities.fgb');
  citiesQk = join(dir, 'cities.qk');
  countriesFgb = join(dir, 'countries.fgb');
  for (const [input, output] of [
    [files.geojson, citiesFgb],
    [files.geojson, citiesQk],
    [files.countries, countriesFgb],
  ] as const) {
    const run = await quadkit(['index', input, '-o', output, '-q']);
    expect(run.code, run.stderr).toBe(0);
  }
  // (Three files indexed: longer than a hook's 10 s on a busy machine.)
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The flatgeobuf package's reader over a whole file, or through its index for a box; its
// features without the `id` (their position) it adds.
async function packageRead(
  file: string,
  rect?: { minX: number; minY: number; maxX: number; maxY: number },
) {
  const out: { geometry: unknown; properties: unknown }[] = [];
  const bytes = new Uint8Array(readFileSync(file));
  // (Its index search reports each step with console.debug.)
  const debug = console.debug;
  console.debug = () => {};
  try {
    for await (const f of deserialize(bytes, rect === undefined ? {} : { rect }))
      out.push({ geometry: f.geometry, properties: f.properties ?? {} });
  } finally {
    console.debug = debug;
  }
  return out;
}

// Features in an order of their own, to compare files written in different orders.
const sorted = (features: { geometry: unknown; properties: unknown }[]) =>
  features.map((f) => JSON.stringify([f.geometry, f.properties])).sort();

// A property value as FlatGeobuf keeps it: nulls are not stored.
const withoutNulls = (p: Record<string, unknown> | null) =>
  Object.fromEntries(Object.entries(p ?? {}).filter(([, v]) => v !== null && v !== undefined));

// The names of the features of a GeoJSON answer.
const names = (stdout: string) =>
  (JSON.parse(stdout).features as { properties: { name: string } }[])
    .map((f) => f.properties.name)
    .sort();

describe('quadkit index -o FILE.fgb', () => {
  it('writes points the flatgeobuf package reads back, geometry and properties equal to the input', async () => {
    const read = await packageRead(citiesFgb);
    expect(read.length).toBe(cities.length);
    expect(sorted(read)).toEqual(sorted(cities.map(cityFeature)));
  });

  it('writes polygons and multipolygons the flatgeobuf package reads back equal to the input', async () => {
    const read = await packageRead(countriesFgb);
    const input = countries().map((f) => ({ geometry: f.geometry, properties: f.properties }));
    expect(sorted(read)).toEqual(sorted(input));
  });

  it('keeps each property with its type: booleans, whole and decimal numbers, strings, objects, and mixed columns as their values', async () => {
    const features = [
      { a: 1, b: true, c: 'x', d: { n: [1, 2] }, e: 1.5, mixed: 1 },
      { a: -7, b: false, c: '', d: null, e: 2, mixed: 'one' },
      { a: null, c: 'é😀', e: -0.25, mixed: [true] },
      {},
      { a: 2 ** 40, e: 3, mixed: null },
    ].map((properties, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [i, -i] },
      properties,
    }));
    const file = join(dir, 'typed.geojson');
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
    const out = join(dir, 'typed.fgb');
    expect((await quadkit(['index', file, '-o', out, '-q'])).code).toBe(0);
    const want = sorted(
      features.map((f) => ({ geometry: f.geometry, properties: withoutNulls(f.properties) })),
    );
    expect(sorted(await packageRead(out))).toEqual(want);
    // And quadkit's own reader, through the index and whole.
    const box = await quadkit(['query', out, '--bbox', '-180,-90,180,90', '--format', 'ndjson']);
    expect(sorted(lines(box.stdout))).toEqual(want);
    const near = await quadkit(['query', out, '--within', '0,0,20000', '--format', 'ndjson']);
    const dropDistance = (f: { geometry: unknown; properties: Record<string, unknown> }) => {
      const { distance_km: _, ...properties } = f.properties;
      return { geometry: f.geometry, properties };
    };
    expect(sorted(lines(near.stdout).map(dropDistance))).toEqual(want);
  });

  it('writes lines, multipoints, multilines, holed polygons, collections and 3D points, read back equal by the package and by quadkit', async () => {
    const geometries = [
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
          [2, 0],
        ],
      },
      {
        type: 'MultiPoint',
        coordinates: [
          [5, 5],
          [6, 6],
        ],
      },
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [0, 10],
            [1, 11],
          ],
          [
            [2, 12],
            [3, 13],
          ],
        ],
      },
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [20, 20] },
          {
            type: 'LineString',
            coordinates: [
              [21, 21],
              [22, 22],
            ],
          },
        ],
      },
      { type: 'Point', coordinates: [30, 30, 100] },
      {
        type: 'Polygon',
        coordinates: [
          [
            [40, 40],
            [41, 40],
            [41, 41],
            [40, 40],
          ],
          [
            [40.2, 40.1],
            [40.3, 40.1],
            [40.3, 40.2],
            [40.2, 40.1],
          ],
        ],
      },
    ];
    const features = geometries.map((geometry, k) => ({
      type: 'Feature',
      geometry,
      properties: { k },
    }));
    const input = join(dir, 'mixed.geojson');
    writeFileSync(input, JSON.stringify({ type: 'FeatureCollection', features }));
    const out = join(dir, 'mixed.fgb');
    expect((await quadkit(['index', input, '-o', out, '-q'])).code).toBe(0);
    const want = sorted(features);
    expect(sorted(await packageRead(out))).toEqual(want);
    const all = await quadkit(['query', out, '--bbox', '-180,-90,180,90', '--format', 'ndjson']);
    expect(sorted(lines(all.stdout))).toEqual(want);
  });

  it('writes a valid file of no features from an empty collection', async () => {
    const file = join(dir, 'empty.geojson');
    writeFileSync(file, '{"type":"FeatureCollection","features":[]}');
    const out = join(dir, 'empty.fgb');
    const run = await quadkit(['index', file, '-o', out, '-q']);
    expect(run.code, run.stderr).toBe(0);
    expect(await packageRead(out)).toEqual([]);
    const query = await quadkit(['query', out, '--bbox', '-180,-90,180,90']);
    expect(JSON.parse(query.stdout).features).toEqual([]);
  });

  it('refuses a GeoJSON file cut in the middle of a feature, naming it, and leaves no file', async () => {
    const text = readFileSync(files.geojson, 'utf8');
    const file = join(dir, 'cut.geojson');
    writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
    const out = join(dir, 'cut-out.fgb');
    const run = await quadkit(['index', file, '-o', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^quadkit: .*cut\.geojson: the file ends inside features\[\d+\]/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });
});

describe('quadkit query FILE.fgb', () => {
  it('query - reads a FlatGeobuf piped in, known by its first bytes; a Parquet file piped in is refused', async () => {
    const arg = ['--bbox', '-10,35,30,60', '-f', 'ndjson'];
    const piped = await quadkit(['query', '-', ...arg], readFileSync(citiesFgb));
    expect(piped.code, piped.stderr).toBe(0);
    const named = await quadkit(['query', citiesFgb, ...arg]);
    expect(piped.stdout.length).toBeGreaterThan(0);
    expect(piped.stdout).toBe(named.stdout);
    const parquet = await quadkit(['query', '-', ...arg], Buffer.from('PAR1\0\0\0\0PAR1'));
    expect(parquet.code).toBe(1);
    expect(parquet.stderr).toMatch(
      /^quadkit: stdin: GeoParquet is written by quadkit index, not read/,
    );
  });

  // A box (west > east crosses 180°) and the cities in it, by brute force.
  const inBox = (c: City, [w, s, e, n]: number[]) =>
    c.lat >= s! &&
    c.lat <= n! &&
    (w! <= e! ? c.lon >= w! && c.lon <= e! : c.lon >= w! || c.lon <= e!);
  const box = fc
    .tuple(
      fc.double({ min: -180, max: 180, noNaN: true }),
      fc.double({ min: -90, max: 90, noNaN: true }),
      fc.double({ min: 0, max: 60, noNaN: true }),
      fc.double({ min: 0, max: 30, noNaN: true }),
    )
    .map(([w, s, dw, dh]) => {
      const e = w + dw > 180 ? w + dw - 360 : w + dw;
      return [w, s, e, Math.min(90, s + dh)].map((v) => Math.round(v * 1000) / 1000);
    });

  it('--bbox gives the cities a brute-force filter gives, as the .qk index and the package do through the index', async () => {
    await fc.assert(
      fc.asyncProperty(box, async (b) => {
        const arg = b.join(',');
        const fgb = await quadkit(['query', citiesFgb, '--bbox', arg]);
        expect(fgb.code, fgb.stderr).toBe(0);
        const qk = await quadkit(['query', citiesQk, '--bbox', arg]);
        const want = cities
          .filter((c) => inBox(c, b))
          .map((c) => c.name)
          .sort();
        expect(names(fgb.stdout)).toEqual(want);
        expect(names(qk.stdout)).toEqual(want);
        if (b[0]! <= b[2]!) {
          const [minX, minY, maxX, maxY] = b as [number, number, number, number];
          const read = await packageRead(citiesFgb, { minX, minY, maxX, maxY });
          expect(read.map((f) => (f.properties as { name: string }).name).sort()).toEqual(want);
        }
      }),
      { seed: 20261207, numRuns: 40 },
    );
  });

  it('--bbox and --point on polygons give what the .qk index gives', async () => {
    const qk = join(dir, 'countries.qk');
    expect((await quadkit(['index', files.countries, '-o', qk, '-q'])).code).toBe(0);
    for (const args of [
      ['--bbox', '5.9,45.8,10.5,47.8'],
      ['--bbox', '170,-50,-170,-10'],
      ['--bbox', '-180,-90,180,90'],
      ['--point', '14.42,50.09'],
      ['--point', '-100,40'],
      ['--point', '0,-89'],
    ]) {
      const a = await quadkit(['query', countriesFgb, ...args]);
      const b = await quadkit(['query', qk, ...args]);
      expect(a.code, a.stderr).toBe(0);
      expect(names(a.stdout), args.join(' ')).toEqual(names(b.stdout));
    }
  });

  it('reads a small share of a file of 20,000 points for a small box: the header, the index nodes on the way and the features found', async () => {
    const random = seeded(7);
    const features = Array.from({ length: 20_000 }, (_, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [360 * random() - 180, 170 * random() - 85] },
      properties: { i, label: `point ${i}` },
    }));
    const file = join(dir, 'many.ndjson');
    writeFileSync(file, features.map((f) => JSON.stringify(f)).join('\n'));
    const out = join(dir, 'many.fgb');
    expect((await quadkit(['index', file, '-o', out, '-q'])).code).toBe(0);
    const size = readFileSync(out).length;
    const fgb = await FgbFile.open(out);
    try {
      const found = await fgb.search(10, 10, 12, 12);
      const want = features.filter(
        ({
          geometry: {
            coordinates: [x, y],
          },
        }) => {
          return x! >= 10 && x! <= 12 && y! >= 10 && y! <= 12;
        },
      );
      expect(found.features.map((f) => (f.properties as { i: number }).i).sort()).toEqual(
        want.map((f) => f.properties.i).sort(),
      );
      // 20,000 points over the globe: 4 in the box, 4.9 kB read (0.16%); the index is 850 kB of
      // the 3.1 MB file.
      expect(fgb.bytesRead / size).toBeLessThan(0.01);
    } finally {
      await fgb.close();
    }
  });
});

describe('quadkit query FILE.fgb --near and --within', () => {
  const random = seeded(3);
  // Points over the globe, crowded at the antimeridian and the poles, some repeated.
  const xy: [number, number][] = Array.from({ length: 3000 }, (_, i) => {
    const r = random();
    if (i % 10 === 9) return [179.99 - 0.02 * r, 40 * random() - 20];
    if (i % 10 === 8) return [360 * r - 180, 89 + random()];
    return [360 * r - 180, 180 * random() - 90];
  });
  for (let i = 0; i < 200; i++) xy.push(xy[Math.floor(random() * xy.length)]!);

  it('gives, nearest first with ties in file order, what a scan of the same points as NDJSON gives', async () => {
    const source = join(dir, 'near.ndjson');
    writePoints(source, xy);
    const fgb = join(dir, 'near.fgb');
    expect((await quadkit(['index', source, '-o', fgb, '-q'])).code).toBe(0);
    const at = [
      ...Array.from({ length: 6 }, () => [360 * random() - 180, 180 * random() - 90]),
      [-179.995, 0],
      [0, 90],
      [45, -89.9],
      xy[17]!,
    ];
    for (const [lon, lat] of at) {
      for (const args of [
        ['--near', `${lon},${lat}`],
        ['--near', `${lon},${lat}`, '-k', '7'],
        ['--near', `${lon},${lat}`, '-k', '5000', '--max-km', '2500'],
        ['--within', `${lon},${lat},1500`],
      ]) {
        const q = ['--format', 'ndjson', '-q', ...args];
        const want = await quadkit(['query', source, ...q]);
        const got = await quadkit(['query', fgb, ...q]);
        expect(want.code, want.stderr).toBe(0);
        expect(got.stdout, args.join(' ')).toBe(want.stdout);
      }
    }
    // Ties in the .fgb's own order: against a scan of its features written out in that order
    // (repeated points keep their input order in the .fgb, so the comparison above held too).
    const back = join(dir, 'near-back.ndjson');
    const all = await quadkit([
      'query',
      fgb,
      '--bbox',
      '-180,-90,180,90',
      '--format',
      'ndjson',
      '-q',
    ]);
    writeFileSync(back, all.stdout);
    for (const [lon, lat] of [xy[17]!, xy[3]!]) {
      const q = ['--near', `${lon},${lat}`, '-k', '3', '--format', 'ndjson', '-q'];
      expect((await quadkit(['query', fgb, ...q])).stdout).toBe(
        (await quadkit(['query', back, ...q])).stdout,
      );
    }
  });

  it('reads the header, the nodes the walk opens and the k features: a small share of the file', async () => {
    const file = join(dir, 'near-share.ndjson');
    writePoints(file, xy.slice(0, 3000));
    const out = join(dir, 'near-share.fgb');
    expect((await quadkit(['index', file, '-o', out, '-q'])).code).toBe(0);
    const size = readFileSync(out).length;
    const fgb = await FgbFile.open(out);
    try {
      const km = (x: number, y: number) => haversine(10, 50, x, y);
      const found = await fgb.nearest(10, 50, 10, Number.POSITIVE_INFINITY, km);
      if (found === null) throw new Error('the walk did not take the file');
      const want = xy
        .slice(0, 3000)
        .map(([x, y], i) => ({ i, d: km(x, y) }))
        .sort((a, b) => a.d - b.d)
        .slice(0, 10);
      expect(found.distances).toEqual(want.map((w) => w.d));
      expect(found.features.map((f) => (f.properties as { i: number }).i)).toEqual(
        want.map((w) => w.i),
      );
      expect(fgb.bytesRead / size).toBeLessThan(0.05);
    } finally {
      await fgb.close();
    }
  });

  it('does not trust an index holding a box off the globe: the file is read whole, answering as its points do', async () => {
    const source = join(dir, 'near-bad.ndjson');
    writePoints(source, [
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    const out = join(dir, 'near-bad.fgb');
    expect((await quadkit(['index', source, '-o', out, '-q'])).code).toBe(0);
    // The root node (the first of the index, after the magic bytes and the header) says its
    // points lie at latitude 95.
    const bytes = readFileSync(out);
    const treeAt = 12 + bytes.readUInt32LE(8);
    bytes.writeDoubleLE(95, treeAt + 8);
    bytes.writeDoubleLE(95, treeAt + 24);
    writeFileSync(out, bytes);
    const fgb = await FgbFile.open(out);
    try {
      expect(await fgb.nearest(0, 0, 1, Number.POSITIVE_INFINITY, () => 0)).toBeNull();
    } finally {
      await fgb.close();
    }
    const q = ['--near', '0,0', '-k', '2', '--format', 'ndjson', '-q'];
    const got = await quadkit(['query', out, ...q]);
    expect(got.code, got.stderr).toBe(0);
    expect(lines(got.stdout)).toHaveLength(2);
    expect(got.stdout).toBe((await quadkit(['query', source, ...q])).stdout);
  });

  it('over polygons, reads the file whole and refuses as the GeoJSON does', async () => {
    const args = ['--near', '0,0'];
    const fgb = await quadkit(['query', countriesFgb, ...args]);
    const geojson = await quadkit(['query', files.countries, ...args, '-q']);
    expect(fgb.code).toBe(geojson.code);
    expect(fgb.code).not.toBe(0);
    expect(fgb.stderr).toMatch(/need point features/);
  });
});

describe('a .fgb file as input', () => {
  it('without an index (as the flatgeobuf package writes one) is queried by reading it whole, with the same answers', async () => {
    const file = join(dir, 'no-index.fgb');
    const collection = { type: 'FeatureCollection', features: cities.map(cityFeature) };
    writeFileSync(file, serialize(collection as never));
    for (const box of ['-10,35,30,60', '170,-50,-170,-10']) {
      const a = await quadkit(['query', file, '--bbox', box]);
      expect(a.code, a.stderr).toBe(0);
      expect(names(a.stdout)).toEqual(
        names((await quadkit(['query', citiesQk, '--bbox', box])).stdout),
      );
    }
  });

  it('is indexed to .qk, queried with --near, and joined, with the answers of its GeoJSON', async () => {
    const again = join(dir, 'again.qk');
    expect((await quadkit(['index', citiesFgb, '-o', again, '-q'])).code).toBe(0);
    const box = ['--bbox', '-10,35,30,60'];
    const a = await quadkit(['query', again, ...box]);
    expect(names(a.stdout)).toEqual(
      names((await quadkit(['query', files.geojson, ...box])).stdout),
    );
    const near = ['--near', '2.35,48.85', '-k', '5', '--format', 'ndjson'];
    const fromFgb = await quadkit(['query', citiesFgb, ...near]);
    expect(fromFgb.code, fromFgb.stderr).toBe(0);
    const fromJson = await quadkit(['query', files.geojson, ...near]);
    expect(lines(fromFgb.stdout)).toEqual(lines(fromJson.stdout));
    const count = (stdout: string) =>
      (JSON.parse(stdout).features as { properties: { name: string; point_count: number } }[])
        .map((f) => `${f.properties.name} ${f.properties.point_count}`)
        .sort();
    const joined = await quadkit(['join', citiesFgb, countriesFgb, '--count']);
    expect(joined.code, joined.stderr).toBe(0);
    expect(count(joined.stdout)).toEqual(
      count((await quadkit(['join', files.geojson, files.countries, '--count'])).stdout),
    );
  });

  it('a .parquet input is refused: GeoParquet is written, not read', async () => {
    const file = join(dir, 'some.parquet');
    writeFileSync(file, 'PAR1');
    const run = await quadkit(['query', file, '--bbox', '0,0,1,1']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `quadkit: ${file}: GeoParquet is written by quadkit index, not read; give GeoJSON, NDJSON, CSV or FlatGeobuf\n`,
    );
  });
});

describe('damaged FlatGeobuf files', () => {
  // The file cut at `length` bytes.
  const cutAt = (name: string, length: number) => {
    const file = join(dir, name);
    writeFileSync(file, readFileSync(citiesFgb).subarray(0, length));
    return file;
  };

  it('a file cut in its index is refused by query and by index, naming the file, and no output is left', async () => {
    const file = cutAt('cut-index.fgb', 2000);
    const query = await quadkit(['query', file, '--bbox', '0,0,10,10']);
    expect(query.code).toBe(1);
    expect(query.stderr).toMatch(
      /^quadkit: .*cut-index\.fgb: a FlatGeobuf file cut short in its index \(which ends at byte \d+\); the file ends at byte 2000/,
    );
    const out = join(dir, 'from-cut-index.qk');
    const index = await quadkit(['index', file, '-o', out]);
    expect(index.code).toBe(1);
    expect(index.stderr).toContain('cut-index.fgb: a FlatGeobuf file cut short in its index');
    expect(existsSync(out)).toBe(false);
  });

  it('a file cut in its features is refused with the feature and its byte offset, and no output is left', async () => {
    const size = readFileSync(citiesFgb).length;
    const file = cutAt('cut-features.fgb', size - 100);
    const query = await quadkit(['query', file, '--bbox', '0,0,10,10']);
    expect(query.code).toBe(1);
    expect(query.stderr).toMatch(
      /^quadkit: .*cut-features\.fgb: a FlatGeobuf file cut short in feature \d+ \(byte \d+\); the file ends at byte \d+/,
    );
    const out = join(dir, 'from-cut-features.fgb');
    const index = await quadkit(['index', file, '-o', out]);
    expect(index.code).toBe(1);
    expect(index.stderr).toMatch(
      /cut-features\.fgb: a FlatGeobuf file cut short in feature \d+ \(byte \d+\)/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('a file that is not FlatGeobuf is refused for its first bytes', async () => {
    const file = join(dir, 'not.fgb');
    writeFileSync(file, 'name,lon,lat\nParis,2.35,48.85\n');
    for (const args of [
      ['query', file, '--bbox', '0,0,10,10'],
      ['query', file, '--near', '0,0'],
      ['index', file, '-o', join(dir, 'not.qk')],
    ]) {
      const run = await quadkit(args);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `quadkit: ${file}: not a FlatGeobuf file (it does not start with the bytes "fgb")\n`,
      );
    }
    expect(existsSync(join(dir, 'not.qk'))).toBe(false);
  });
});
