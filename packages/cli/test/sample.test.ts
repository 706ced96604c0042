// `quadkit sample` and the sample files it writes; and the precision of the numbers the command
// prints: CSV rounded to what a person reads (distances to the metre, degrees to 6 decimals),
// every digit with --full-precision, and JSON output always exact.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haversine } from '../../../src/geo/index.js';
import { SAMPLES } from '../src/samples.js';
import { lines, quadkit } from './run.js';

const DATA = new URL('../data/', import.meta.url);
const data = (name: string) => readFileSync(new URL(name, DATA));

let dir = '';
let cities = '';
let countries = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quadkit-sample-'));
  const run = await quadkit(['sample', dir]);
  expect(run.code, run.stderr).toBe(0);
  cities = join(dir, 'cities.csv');
  countries = join(dir, 'countries.geojson');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('quadkit sample', () => {
  it('writes the shipped files into the folder given, making it, and names each on stderr', async () => {
    const folder = join(dir, 'a', 'b');
    const run = await quadkit(['sample', folder]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(readdirSync(folder).sort()).toEqual(SAMPLES.map((s) => s.name).sort());
    for (const { name } of SAMPLES) {
      expect(readFileSync(join(folder, name)).equals(data(name))).toBe(true);
      expect(run.stderr).toContain(`quadkit: wrote ${join(folder, name)}: `);
    }
    // Again: the same files are left as they are.
    const again = await quadkit(['sample', folder, '-q']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
  });

  it('refuses to write over a different file of the same name, and then writes nothing', async () => {
    const folder = join(dir, 'taken');
    mkdirSync(folder);
    writeFileSync(join(folder, 'cities.csv'), 'name,lon,lat\nmine,1,2\n');
    const run = await quadkit(['sample', folder]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `quadkit: ${join(folder, 'cities.csv')}: a different file of that name is already there; move it, or write the samples to another folder (quadkit sample FOLDER)\n`,
    );
    expect(readdirSync(folder)).toEqual(['cities.csv']);
    expect(readFileSync(join(folder, 'cities.csv'), 'utf8')).toBe('name,lon,lat\nmine,1,2\n');
    const file = join(folder, 'cities.csv');
    const notFolder = await quadkit(['sample', file]);
    expect(notFolder.code).toBe(1);
    expect(notFolder.stderr).toMatch(
      /^quadkit: .*cities\.csv: cannot make the folder there \(EEXIST\)/,
    );
  });

  it('a missing sample file is an error that says how to get it', async () => {
    const run = await quadkit(['query', join(dir, 'nowhere', 'cities.csv'), '--near', '0,0']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /nowhere\/cities\.csv: cannot read the file \(ENOENT\); `quadkit sample` writes the sample files/,
    );
  });

  it('ships a few thousand of the largest cities and the countries, each file under 300 KB, in the package', async () => {
    const rows: Record<string, string>[] = parse(data('cities.csv'), { columns: true });
    expect(Object.keys(rows[0]!)).toEqual(['name', 'country', 'lon', 'lat', 'population']);
    expect(rows.length).toBeGreaterThan(2000);
    expect(rows.every((r) => Number(r.population) >= 100_000)).toBe(true);
    const collection = JSON.parse(data('countries.geojson').toString('utf8'));
    expect(collection.features.length).toBeGreaterThan(150);
    expect(
      collection.features.every((f: { properties: { name?: string } }) => f.properties.name),
    ).toBe(true);
    for (const { name } of SAMPLES) expect(data(name).length).toBeLessThan(300 * 1024);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.files).toContain('data');
    // Nearly every city is in a country (the 1:110m coasts leave a few out at sea).
    const run = await quadkit(['join', cities, countries, '--count', '-f', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const total = lines(run.stdout).reduce((n, f) => n + f.properties.point_count, 0);
    expect(total).toBeGreaterThan(rows.length * 0.9);
  });
});

describe('the precision of the numbers printed', () => {
  const near = ['--near', '2.2945,48.8584', '-k', '25'];

  it('CSV gives distances in km to 3 decimals (the metre), JSON the exact ones', async () => {
    const json = await quadkit(['query', cities, ...near, '-f', 'ndjson']);
    expect(json.code, json.stderr).toBe(0);
    const features = lines(json.stdout);
    expect(features).toHaveLength(25);
    const exact = features.map((f) => f.properties.distance_km as number);
    // Exact: the great-circle distance itself, not a rounded one.
    for (let i = 0; i < features.length; i++) {
      const [lon, lat] = features[i].geometry.coordinates;
      expect(exact[i]).toBeCloseTo(haversine(2.2945, 48.8584, lon, lat), 9);
    }
    expect(exact.some((d) => Math.abs(d * 1000 - Math.round(d * 1000)) > 1e-6)).toBe(true);
    const geojson = JSON.parse((await quadkit(['query', cities, ...near])).stdout);
    expect(geojson.features.map((f: { properties: object }) => f.properties)).toEqual(
      features.map((f) => f.properties),
    );

    const csv = await quadkit(['query', cities, ...near, '-f', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const rows: Record<string, string>[] = parse(csv.stdout, { columns: true });
    expect(rows.map((r) => r.distance_km)).toEqual(exact.map((d) => d.toFixed(3)));
    expect(rows.every((r) => /^\d+\.\d{3}$/.test(r.distance_km!))).toBe(true);

    const full = await quadkit(['query', cities, ...near, '-f', 'csv', '--full-precision']);
    expect(full.code, full.stderr).toBe(0);
    const fullRows: Record<string, string>[] = parse(full.stdout, { columns: true });
    expect(fullRows.map((r) => r.distance_km)).toEqual(exact.map((d) => String(d)));
  });

  it('CSV gives longitudes and latitudes to 6 decimals, every digit with --full-precision; JSON keeps them', async () => {
    const file = join(dir, 'precise.csv');
    writeFileSync(
      file,
      'name,lon,lat\nA,2.123456789,48.987654321\nB,-0.5,10\nC,-179.99999996,-0.0000004\n',
    );
    const query = ['--bbox', '-180,-90,180,90'];
    const csv = await quadkit(['query', file, ...query, '-f', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe('lon,lat,name\n2.123457,48.987654,A\n-0.5,10,B\n-180,0,C\n');
    const full = await quadkit(['query', file, ...query, '-f', 'csv', '--full-precision']);
    expect(full.stdout).toBe(
      'lon,lat,name\n2.123456789,48.987654321,A\n-0.5,10,B\n-179.99999996,-4e-7,C\n',
    );
    const json = await quadkit(['query', file, ...query, '-f', 'ndjson']);
    expect(lines(json.stdout).map((f) => f.geometry.coordinates)).toEqual([
      [2.123456789, 48.987654321],
      [-0.5, 10],
      [-179.99999996, -0.0000004],
    ]);
    // join writes its points the same way.
    const joined = await quadkit(['join', file, countries, '-f', 'csv']);
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stdout.split('\n')[1]).toBe('2.123457,48.987654,A,France');
    const joinedFull = await quadkit(['join', file, countries, '-f', 'csv', '--full-precision']);
    expect(joinedFull.stdout.split('\n')[1]).toBe('2.123456789,48.987654321,A,France');
  });

  it('--full-precision with JSON output is refused: JSON is always exact', async () => {
    for (const format of ['geojson', 'ndjson']) {
      const run = await quadkit(['query', cities, ...near, '-f', format, '--full-precision']);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `quadkit: --full-precision applies to --format csv (${format} output is always exact)\n`,
      );
    }
    const join = await quadkit(['join', cities, countries, '--full-precision']);
    expect(join.code).toBe(1);
    expect(join.stderr).toMatch(/--full-precision applies to --format csv/);
  });
});
