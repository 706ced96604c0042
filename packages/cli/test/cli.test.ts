// The quadkit command, run end to end on real files written from installed packages (the world's
// cities as CSV, GeoJSON and newline-delimited GeoJSON; the world's countries as GeoJSON): its
// answers are compared with the library's own and with brute force. The runs go through `main`
// in this process; what only a process has (exit status, signals, a closed pipe, a small heap,
// its own standard input) is in process.test.ts.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PointQuadtree } from 'quadkit';
import { GeoIndex, geoNearest, haversine } from 'quadkit/geo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type City, cityFeature, countries, writeDataFiles } from './data.js';
import { lines, quadkit, withTmp } from './run.js';

let dir: string;
let files: ReturnType<typeof writeDataFiles>;
let cities: City[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quadkit-cli-'));
  // Every 32nd city (4,227): real data, more than the 2k + 1,024 candidates of the largest
  // --near below, and a suite that stays quick on a busy machine.
  files = writeDataFiles(dir, 32);
  cities = files.cities;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The library's answer: the k cities nearest to (lon, lat) by great-circle distance.
function libraryNearest(lon: number, lat: number, k: number, maxKm = Number.POSITIVE_INFINITY) {
  const tree = new PointQuadtree<City>({
    bounds: { x: -180, y: -90, width: 360, height: 180 },
    toPoint: (c) => ({ x: c.lon, y: c.lat }),
  });
  tree.load(cities);
  return geoNearest(tree, lon, lat, k, maxKm);
}

describe('quadkit index and query', () => {
  it('query FILE.qk --near LON,LAT -k N returns the same cities as the library, nearest first, with their distances', async () => {
    const qk = join(dir, 'cities.qk');
    const built = await quadkit(['index', files.csv, '-o', qk]);
    expect(built.code).toBe(0);
    for (const [lon, lat] of [
      [2.2945, 48.8584],
      [179.95, -16.5],
      [-179.99, 65.5],
      [0, 89.9],
    ] as const) {
      const run = await quadkit([
        'query',
        qk,
        '--near',
        `${lon},${lat}`,
        '-k',
        '7',
        '-f',
        'ndjson',
      ]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      const got = lines(run.stdout);
      const want = libraryNearest(lon, lat, 7);
      expect(got.map((f) => f.properties.name)).toEqual(want.map((c) => c.name));
      for (let i = 0; i < got.length; i++)
        expect(got[i].properties.distance_km).toBeCloseTo(
          haversine(lon, lat, want[i]!.lon, want[i]!.lat),
          9,
        );
    }
  });

  it('query FILE.csv --near with a k past the kept candidates gives the k nearest, nearest first, as the library does', async () => {
    // The cities exceed the 2k + 1,024 candidates a streamed --near keeps before cutting back.
    const run = await quadkit([
      'query',
      files.csv,
      '--near',
      '2.35,48.85',
      '-k',
      '1500',
      '-f',
      'ndjson',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const got = lines(run.stdout);
    const want = libraryNearest(2.35, 48.85, 1500);
    expect(cities.length).toBeGreaterThan(2 * 1500 + 1024);
    expect(got).toHaveLength(1500);
    const distances = got.map((f) => f.properties.distance_km as number);
    for (let i = 1; i < distances.length; i++)
      expect(distances[i]!).toBeGreaterThanOrEqual(distances[i - 1]!);
    expect(distances[1499]).toBeCloseTo(
      haversine(2.35, 48.85, want[1499]!.lon, want[1499]!.lat),
      9,
    );
    expect(new Set(got.slice(0, 1450).map((f) => f.properties.name))).toEqual(
      new Set(want.slice(0, 1450).map((c) => c.name)),
    );
  });

  it('query --within LON,LAT,KM gives the same answer on CSV, GeoJSON, NDJSON and the index, equal to a haversine scan', async () => {
    const qk = join(dir, 'cities-within.qk');
    expect((await quadkit(['index', files.geojson, '-o', qk])).code).toBe(0);
    const [lon, lat, km] = [135.768, 35.0116, 300];
    const scan = cities
      .map((c, i) => ({ c, i, d: haversine(lon, lat, c.lon, c.lat) }))
      .filter((e) => e.d <= km)
      .sort((a, b) => a.d - b.d || a.i - b.i)
      .map((e) => e.c.name);
    expect(scan.length).toBeGreaterThan(10);
    for (const file of [files.csv, files.geojson, files.ndjson, qk]) {
      const run = await quadkit(['query', file, '--within', `${lon},${lat},${km}`, '-f', 'ndjson']);
      expect(run.code, run.stderr).toBe(0);
      expect(lines(run.stdout).map((f) => f.properties.name)).toEqual(scan);
    }
  });

  it('query --bbox crossing the antimeridian returns the cities in either half, in file order, from a file and from its index', async () => {
    const qk = join(dir, 'cities-bbox.qk');
    expect((await quadkit(['index', files.ndjson, '-o', qk])).code).toBe(0);
    const [west, south, east, north] = [165, -50, -165, 0];
    const inBox = cities.filter(
      (c) => (c.lon >= west || c.lon <= east) && c.lat >= south && c.lat <= north,
    );
    const want = inBox.map((c) => c.name);
    expect(want.length).toBeGreaterThan(5);
    // Cities on both sides of the antimeridian.
    expect(inBox.some((c) => c.lon >= west) && inBox.some((c) => c.lon <= east)).toBe(true);
    for (const file of [files.ndjson, qk]) {
      const run = await quadkit([
        'query',
        file,
        '--bbox',
        `${west},${south},${east},${north}`,
        '-f',
        'ndjson',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(lines(run.stdout).map((f) => f.properties.name)).toEqual(want);
    }
  });

  it('query --point on the countries returns the polygons the library finds, from the file and from its index', async () => {
    const qk = join(dir, 'countries.qk');
    expect((await quadkit(['index', files.countries, '-o', qk])).code).toBe(0);
    const index = GeoIndex.from(countries() as never);
    for (const [lon, lat] of [
      [2.35, 48.85],
      [28.2, -29.5],
      [-30, 0],
      [14.42, 50.09],
    ] as const) {
      const want = index.containing(lon, lat).map((f) => (f.properties as { name: string }).name);
      for (const file of [files.countries, qk]) {
        const run = await quadkit(['query', file, '--point', `${lon},${lat}`, '-f', 'ndjson']);
        expect(run.code, run.stderr).toBe(0);
        expect(lines(run.stdout).map((f) => f.properties.name)).toEqual(want);
      }
    }
  });

  it('writes a GeoJSON FeatureCollection by default and CSV with lon/lat columns on request', async () => {
    const geojson = await quadkit(['query', files.csv, '--near', '2.2945,48.8584', '-k', '3']);
    const collection = JSON.parse(geojson.stdout);
    expect(collection.type).toBe('FeatureCollection');
    expect(collection.features).toHaveLength(3);
    const csv = await quadkit([
      'query',
      files.csv,
      '--near',
      '2.2945,48.8584',
      '-k',
      '3',
      '-f',
      'csv',
    ]);
    const rows = csv.stdout.trim().split('\n');
    expect(rows[0]).toBe('lon,lat,name,country,population,distance_km');
    expect(rows).toHaveLength(4);
    const first = collection.features[0];
    expect(
      rows[1]!.startsWith(`${first.geometry.coordinates[0]},${first.geometry.coordinates[1]},`),
    ).toBe(true);
  });
});

describe('quadkit join', () => {
  // The library's answer: for each city, the first country (in file order) containing it.
  function libraryJoin() {
    const list = countries();
    const index = GeoIndex.from(list as never);
    const out: number[] = [];
    return {
      list,
      of: cities.map((c) => (index.containingInto(c.lon, c.lat, out) === 0 ? -1 : out[0]!)),
    };
  }

  it('join POINTS POLYGONS --count gives every country the number of cities the library places in it', async () => {
    const { list, of } = libraryJoin();
    const want = new Array<number>(list.length).fill(0);
    for (const f of of) if (f >= 0) want[f]!++;
    const run = await quadkit(['join', files.csv, files.countries, '--count', '-f', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const got = lines(run.stdout);
    expect(got.map((f) => f.properties.name)).toEqual(list.map((f) => f.properties.name));
    expect(got.map((f) => f.properties.point_count)).toEqual(want);
    expect(want.reduce((a, b) => a + b, 0)).toBeGreaterThan(cities.length * 0.9);
    const csv = await quadkit(['join', files.csv, files.countries, '--count', '-f', 'csv']);
    const rows = csv.stdout.trim().split('\n');
    expect(rows[0]).toBe('name,point_count');
    expect(rows.slice(1).map((r) => Number(r.slice(r.lastIndexOf(',') + 1)))).toEqual(want);
  });

  it('join tags each point with the name of the country containing it, or null', async () => {
    const { list, of } = libraryJoin();
    const run = await quadkit([
      'join',
      files.ndjson,
      files.countries,
      '--as',
      'in',
      '-f',
      'ndjson',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const got = lines(run.stdout);
    expect(got).toHaveLength(cities.length);
    expect(got.map((f) => f.properties.in)).toEqual(
      of.map((f) => (f < 0 ? null : list[f]!.properties.name)),
    );
  });

  it('without --as the value goes to polygon_<property>, so the points keep their own name', async () => {
    const { list, of } = libraryJoin();
    const run = await quadkit(['join', files.ndjson, files.countries, '-f', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const got = lines(run.stdout);
    expect(got.map((f) => f.properties.name)).toEqual(cities.map((c) => c.name));
    expect(got.map((f) => f.properties.polygon_name)).toEqual(
      of.map((f) => (f < 0 ? null : list[f]!.properties.name)),
    );
  });
});

describe('quadkit on bad input', () => {
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('a CSV value that is not a number is an error naming the file, the line and the column', async () => {
    const csv = write('bad.csv', 'name,lat,lon\nA,1,2\nB,north,3\n');
    const run = await quadkit(['query', csv, '--near', '0,0']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${csv}:3`);
    expect(run.stderr).toContain('"lat"');
    expect(run.stdout).toBe('');
  });

  it('a CSV without coordinate columns names the columns it looked for and the flag to give', async () => {
    const csv = write('nocols.csv', 'name,a,b\nA,1,2\n');
    const run = await quadkit(['index', csv, '-o', join(dir, 'nocols.qk')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no longitude column.*--lon/);
  });

  it('bad GeoJSON is refused with the feature it is in and what is wrong, and no index is written', async () => {
    const ring = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
    const bad = {
      type: 'FeatureCollection',
      features: [
        cityFeature(cities[0]!),
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } },
      ],
    };
    const file = write('unclosed.geojson', JSON.stringify(bad));
    const qk = join(dir, 'unclosed.qk');
    const run = await quadkit(['index', file, '-o', qk]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file}: features[1]`);
    expect(run.stderr).toMatch(/clos/);
    expect(() => readFileSync(qk)).toThrow();
  });

  it('a line of NDJSON that is not JSON, or not a feature, is named by its line number', async () => {
    const nd = write('bad.ndjson', `${JSON.stringify(cityFeature(cities[0]!))}\n{"type":\n`);
    const run = await quadkit(['query', nd, '--bbox', '-180,-90,180,90']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${nd}:2: not valid JSON`);
    const nd2 = write('bad2.ndjson', `${JSON.stringify(cityFeature(cities[0]!))}\n[1,2]\n`);
    const run2 = await quadkit(['query', nd2, '--bbox', '-180,-90,180,90']);
    expect(run2.stderr).toContain(`${nd2}:2: expected a GeoJSON feature or geometry`);
  });

  it('a truncated or foreign index file is a clear error', async () => {
    const qk = join(dir, 'cities.qk');
    const bytes = readFileSync(qk);
    const cut = write('cut.qk', '');
    writeFileSync(cut, bytes.subarray(0, bytes.length >> 1));
    const run = await quadkit(['query', cut, '--near', '0,0']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not a quadkit index file, or a damaged one/);
    const foreign = write('foreign.qk', 'hello, world: not an index at all');
    expect((await quadkit(['query', foreign, '--near', '0,0'])).stderr).toMatch(
      /no QUADKIT signature/,
    );
  });

  it('a folder given as a file is named, whatever its name, in every command', async () => {
    for (const name of ['plain', 'folder.csv', 'folder.geojson', 'folder.qk']) {
      const folder = join(dir, name);
      mkdirSync(folder, { recursive: true });
      for (const args of [
        ['query', folder, '--bbox', '0,0,1,1'],
        ['index', folder, '-o', join(dir, 'from-folder.qk')],
        ['join', files.csv, folder, '--count'],
      ]) {
        if (args[0] !== 'query' && name.endsWith('.qk')) continue;
        const run = await quadkit(args);
        expect(run.code, `${args.join(' ')}`).toBe(1);
        expect(run.stderr, `${args.join(' ')}`).toBe(
          `quadkit: ${folder}: is a folder; give a file\n`,
        );
      }
    }
  });

  it('a missing file, a query without a shape, and a bad number are errors with a non-zero exit', async () => {
    const missing = await quadkit(['query', join(dir, 'nope.csv'), '--near', '0,0']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.csv: cannot read the file \(ENOENT\)/);
    const none = await quadkit(['query', files.csv]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/exactly one of --bbox, --point, --near, --within/);
    const nan = await quadkit(['query', files.csv, '--near', '2,x']);
    expect(nan.code).toBe(1);
    expect(nan.stderr).toMatch(/expected 2 comma-separated numbers, got "2,x"/);
    // One line and a pointer to the help, with the prefix of every other error.
    expect(nan.stderr).toMatch(/^quadkit: option '--near/);
    expect(nan.stderr.trim().split('\n')).toHaveLength(2);
    const unknown = await quadkit(['query', files.csv, '--nearest', '0,0']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^quadkit: unknown option '--nearest'/);
  });

  it('coordinates off the globe, hex numbers and empty fields are refused, naming the place', async () => {
    const lat91 = write('lat91.csv', 'name,lon,lat\nA,1,2\nB,1,91\n');
    const run = await quadkit(['index', lat91, '-o', join(dir, 'lat91.qk')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/lat91\.csv:3: column "lat" must be in \[-90, 90\]/);
    const lon200 = write('lon200.ndjson', '{"type":"Point","coordinates":[200,10]}\n');
    expect((await quadkit(['query', lon200, '--near', '0,0'])).stderr).toMatch(
      /lon200\.ndjson:1: position \[200, 10\] is off the globe/,
    );
    const hex = write('hex.csv', 'name,lon,lat\nA,0x10,1\n');
    expect((await quadkit(['query', hex, '--near', '0,0'])).stderr).toMatch(
      /hex\.csv:2: column "lon" must be a number, got "0x10"/,
    );
    for (const args of [
      ['--point', ','],
      ['--near', '0,0', '-k', '0x3'],
      ['--near', '0,0', '--max-km', ''],
    ]) {
      const bad = await quadkit(['query', files.csv, ...args]);
      expect(bad.code, args.join(' ')).toBe(1);
    }
  });

  it('a comma-separated file may hold a semicolon or a bar in a field; NDJSON may start with a byte order mark; CSV output writes true and false', async () => {
    const csv = write('semi.csv', 'name,lon,lat,tags\nA,1,2,red;blue\nB,3,4,x|y\n');
    const run = await quadkit(['query', csv, '--bbox', '-180,-90,180,90', '-f', 'ndjson']);
    expect(run.code).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).properties.tags),
    ).toEqual(['red;blue', 'x|y']);
    const semicolons = write('semis.csv', 'name;lon;lat\nA;1;2\n');
    expect((await quadkit(['query', semicolons, '--bbox', '0,0,5,5', '-f', 'ndjson'])).code).toBe(
      0,
    );
    const bom = write(
      'bom.ndjson',
      '\uFEFF{"type":"Feature","properties":{"ok":true,"no":false},"geometry":{"type":"Point","coordinates":[1,2]}}\n',
    );
    const out = await quadkit(['query', bom, '--bbox', '0,0,5,5', '-f', 'csv']);
    expect(out.code).toBe(0);
    expect(out.stdout.trim().split('\n')).toEqual(['lon,lat,ok,no', '1,2,true,false']);
  });

  it('index refuses to write over its input, to standard output, and an unwritable -o before reading anything', async () => {
    const csv = write('self.csv', 'name,lon,lat\nA,1,2\n');
    const self = await quadkit(['index', csv, '-o', csv]);
    expect(self.code).toBe(1);
    expect(self.stderr).toMatch(/would overwrite the input/);
    expect(readFileSync(csv, 'utf8')).toBe('name,lon,lat\nA,1,2\n');
    const nowhere = await quadkit(['index', csv, '-o', join(dir, 'no', 'such', 'dir.qk')]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toMatch(/^quadkit: .*dir\.qk: cannot write there \(ENOENT\)/);
    const dash = await quadkit(['index', csv, '-o', '-']);
    expect(dash.code).toBe(1);
    expect(dash.stderr).toMatch(
      /^quadkit: -o -: an index is a binary file, not written to standard output/,
    );
    expect(existsSync('-')).toBe(false);
    const folder = await quadkit(['index', csv, '-o', dir]);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toMatch(/cannot write there \(EISDIR\)/);
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
    const missing = await quadkit(['query', join(dir, 'nope.geojson'), '--near', '0,0']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^quadkit: .*nope\.geojson/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });

  it('a flag the command will not read is refused: -k or --max-km without --near, column flags on a .qk or a GeoJSON file, --property or --as with --count', async () => {
    const qk = join(dir, 'flags.qk');
    expect((await quadkit(['index', files.csv, '-o', qk, '-q'])).code).toBe(0);
    const cases: [string[], RegExp][] = [
      [['query', files.csv, '--bbox', '0,0,5,5', '-k', '5'], /^quadkit: -k applies only to --near/],
      [['query', qk, '--within', '0,0,100', '--max-km', '5'], /--max-km applies only to --near/],
      [['query', qk, '--near', '0,0', '--lon', 'x'], /--lon does not apply to a \.qk index/],
      [
        ['query', files.geojson, '--near', '0,0', '--lat', 'y'],
        /--lat applies to CSV input; .*cities\.geojson is read as geojson/,
      ],
      [['join', files.ndjson, files.countries, '--lon', 'x'], /--lon applies to CSV input/],
      [
        ['join', files.csv, files.countries, '--count', '--as', 'c'],
        /--as does not apply to --count/,
      ],
      [
        ['join', files.csv, files.countries, '--count', '--property', 'name'],
        /--property does not/,
      ],
    ];
    // A .qk index where a data file is wanted.
    cases.push([
      ['index', qk, '-o', join(dir, 'again.qk')],
      /flags\.qk: a quadkit index: `quadkit query` reads one/,
    ]);
    for (const [args, message] of cases) {
      const run = await quadkit(args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stdout, args.join(' ')).toBe('');
    }
    // Where they apply, the same flags are read.
    const near = await quadkit([
      'query',
      files.csv,
      '--near',
      '0,0',
      '-k',
      '2',
      '--max-km',
      '20000',
      '--lon',
      'longitude',
      '-f',
      'ndjson',
    ]);
    expect(near.code, near.stderr).toBe(0);
    expect(lines(near.stdout)).toHaveLength(2);
  });

  it('--help explains every command', async () => {
    for (const args of [
      ['--help'],
      ['sample', '--help'],
      ['index', '--help'],
      ['query', '--help'],
      ['join', '--help'],
    ]) {
      const run = await quadkit(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Usage: quadkit/);
    }
    const help = (await quadkit(['query', '--help'])).stdout;
    expect(help).toContain('--within <lon,lat,km>');
    expect(help).toMatch(/--max-km <km>[\s\S]*?\(default: no limit\)/);
    expect(help).not.toContain('null');
  });
});

describe('quadkit reads standard input as -', () => {
  it('query - gives what query FILE gives, for CSV, GeoJSON and NDJSON piped in, and leaves no scratch copy', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'quadkit-cli-stdin-'));
    try {
      const args = ['--within', '2.35,48.85,300', '-f', 'ndjson'];
      for (const file of [files.csv, files.geojson, files.ndjson]) {
        const want = await quadkit(['query', file, ...args]);
        expect(want.code, want.stderr).toBe(0);
        expect(lines(want.stdout).length).toBeGreaterThan(10);
        const got = await withTmp(tmp, () =>
          quadkit(['query', '-', ...args], readFileSync(file, 'utf8')),
        );
        expect(got.code, got.stderr).toBe(0);
        expect(lines(got.stdout)).toEqual(lines(want.stdout));
      }
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('index - and join - read standard input; its errors name stdin and the line', async () => {
    const qk = join(dir, 'piped.qk');
    const built = await quadkit(['index', '-', '-o', qk], readFileSync(files.ndjson, 'utf8'));
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toMatch(/indexed \d+ features of stdin in /);
    const fromFile = join(dir, 'from-file.qk');
    expect((await quadkit(['index', files.ndjson, '-o', fromFile, '-q'])).code).toBe(0);
    const query = ['--near', '2.35,48.85', '-k', '7', '-f', 'ndjson'];
    expect(lines((await quadkit(['query', qk, ...query])).stdout)).toEqual(
      lines((await quadkit(['query', fromFile, ...query])).stdout),
    );
    const joined = await quadkit(
      ['join', '-', files.countries, '--count', '-f', 'ndjson'],
      readFileSync(files.csv, 'utf8'),
    );
    expect(joined.code, joined.stderr).toBe(0);
    expect(lines(joined.stdout)).toEqual(
      lines(
        (await quadkit(['join', files.csv, files.countries, '--count', '-f', 'ndjson'])).stdout,
      ),
    );
    const bad = await quadkit(['query', '-', '--bbox', '0,0,5,5'], 'name,lon,lat\nA,1,2\nB,x,4\n');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^quadkit: stdin:3: column "lon" must be a number, got "x"/);
    const noProperty = await quadkit(
      ['join', files.csv, '-', '--property', 'nope'],
      readFileSync(files.countries, 'utf8'),
    );
    expect(noProperty.stderr).toMatch(/^quadkit: stdin: no polygon has a property "nope"/);
    const twice = await quadkit(['join', '-', '-'], '');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/standard input \(-\) can be read only once/);
  });
});
