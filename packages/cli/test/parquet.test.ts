// GeoParquet out: `quadkit index x -o x.parquet` writes a file hyparquet reads back with the
// geometry as WKB (decoded here by a reader of its own), the bbox and quadkey of each feature
// equal to an oracle, rows in Hilbert order of their boxes' centres (the key computed here by the
// textbook algorithm), row groups that each cover a compact region, and `geo` metadata as
// GeoParquet 1.1 asks; a bad input leaves no file. DuckDB reads the same files as GeoParquet:
// its geometry type from the `geo` metadata, every row as written, and a box filter on the
// bbox covering that its row-group statistics can prune.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { lonLatToQuadkey } from 'quadkit/geo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type City, cityFeature, countries, seeded, writeDataFiles, writePoints } from './data.js';
import { quadkit } from './run.js';

let dir: string;
let files: ReturnType<typeof writeDataFiles>;
let cities: City[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quadkit-parquet-'));
  files = writeDataFiles(dir, 32);
  cities = files.cities;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Geometry = { type: string; coordinates: unknown };

/** A small WKB reader (ISO WKB, 2D): points, lines, polygons and their multi forms. */
function readWkb(bytes: Uint8Array): Geometry {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const geometry = (): Geometry => {
    const little = view.getUint8(at) === 1;
    const type = view.getUint32(at + 1, little);
    at += 5;
    const uint = () => {
      at += 4;
      return view.getUint32(at - 4, little);
    };
    const point = () => {
      at += 16;
      return [view.getFloat64(at - 16, little), view.getFloat64(at - 8, little)];
    };
    const points = () => Array.from({ length: uint() }, point);
    const rings = () => Array.from({ length: uint() }, points);
    const parts = () => Array.from({ length: uint() }, () => geometry().coordinates);
    switch (type) {
      case 1:
        return { type: 'Point', coordinates: point() };
      case 2:
        return { type: 'LineString', coordinates: points() };
      case 3:
        return { type: 'Polygon', coordinates: rings() };
      case 4:
        return { type: 'MultiPoint', coordinates: parts() };
      case 5:
        return { type: 'MultiLineString', coordinates: parts() };
      case 6:
        return { type: 'MultiPolygon', coordinates: parts() };
      default:
        throw new Error(`WKB type ${type}`);
    }
  };
  const g = geometry();
  expect(at, 'the WKB holds one geometry').toBe(bytes.length);
  return g;
}

/** The Hilbert index of (x, y) on an n x n grid: the textbook algorithm (Wikipedia, xy2d). */
function xy2d(n: number, x: number, y: number): number {
  let d = 0;
  for (let s = n / 2; s >= 1; s /= 2) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      [x, y] = [y, x];
    }
  }
  return d;
}

/** The box [xmin, ymin, xmax, ymax] of a GeoJSON geometry's positions. */
function boxOf(geometry: Geometry): number[] {
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  const walk = (c: unknown): void => {
    if (typeof (c as unknown[])[0] === 'number') {
      const [x, y] = c as number[];
      box[0] = Math.min(box[0]!, x!);
      box[1] = Math.min(box[1]!, y!);
      box[2] = Math.max(box[2]!, x!);
      box[3] = Math.max(box[3]!, y!);
    } else for (const inner of c as unknown[]) walk(inner);
  };
  walk(geometry.coordinates);
  return box;
}

interface Row {
  geometry: Uint8Array;
  bbox: { xmin: number; ymin: number; xmax: number; ymax: number };
  quadkey: string;
  [property: string]: unknown;
}

/** The rows and metadata of a Parquet file, the geometry left as its bytes. */
async function readParquet(file: string) {
  const bytes = readFileSync(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  // (Without `geoparquet: false` hyparquet decodes the geometry column itself.)
  const metadata = parquetMetadata(buffer, { geoparquet: false });
  const rows = (await parquetReadObjects({ file: buffer, metadata })) as unknown as Row[];
  // (And the WKB, a byte array with no annotation, read as bytes rather than text.)
  const wkb = await parquetReadObjects({
    file: buffer,
    metadata,
    columns: ['geometry'],
    utf8: false,
  });
  rows.forEach((row, i) => {
    row.geometry = wkb[i]!.geometry as Uint8Array;
  });
  const geo = metadata.key_value_metadata?.find((kv) => kv.key === 'geo')?.value;
  return { rows, metadata, geo: JSON.parse(geo ?? 'null') };
}

// Runs `quadkit index` and reads the file it wrote.
async function indexed(input: string, name: string, ...flags: string[]) {
  const out = join(dir, name);
  const run = await quadkit(['index', input, '-o', out, '-q', ...flags]);
  expect(run.code, run.stderr).toBe(0);
  return readParquet(out);
}

// Checks the rows against the features they came from: geometry, bbox, quadkey, properties.
function checkRows(rows: Row[], features: { geometry: unknown; properties: unknown }[], z: number) {
  const key = (g: unknown, p: unknown) => JSON.stringify([g, p]);
  const want = new Map<string, number>();
  for (const f of features)
    want.set(key(f.geometry, f.properties), (want.get(key(f.geometry, f.properties)) ?? 0) + 1);
  expect(rows.length).toBe(features.length);
  for (const row of rows) {
    const { geometry, bbox, quadkey, ...properties } = row;
    const g = readWkb(geometry);
    const k = key(g, properties);
    expect(want.get(k), k.slice(0, 200)).toBeGreaterThan(0);
    want.set(k, want.get(k)! - 1);
    expect([bbox.xmin, bbox.ymin, bbox.xmax, bbox.ymax]).toEqual(boxOf(g));
    expect(quadkey).toBe(
      lonLatToQuadkey((bbox.xmin + bbox.xmax) / 2, (bbox.ymin + bbox.ymax) / 2, z),
    );
  }
}

// Checks that the rows are in Hilbert order of their boxes' centres on the grid over `extent`.
function checkHilbert(rows: Row[], extent: number[]) {
  const [minX, minY, maxX, maxY] = extent as [number, number, number, number];
  const keys = rows.map(({ bbox }) =>
    xy2d(
      65536,
      Math.floor((65535 * ((bbox.xmin + bbox.xmax) / 2 - minX)) / (maxX - minX || 1)),
      Math.floor((65535 * ((bbox.ymin + bbox.ymax) / 2 - minY)) / (maxY - minY || 1)),
    ),
  );
  for (let i = 1; i < keys.length; i++)
    expect(keys[i]!, `row ${i}`).toBeGreaterThanOrEqual(keys[i - 1]!);
}

describe('quadkit index -o FILE.parquet', () => {
  it('writes points as rows hyparquet reads: WKB, bbox, quadkey at --zoom and typed properties, in Hilbert order', async () => {
    const { rows, geo, metadata } = await indexed(files.geojson, 'cities.parquet', '--zoom', '9');
    checkRows(rows, cities.map(cityFeature), 9);
    const extent = [
      Math.min(...cities.map((c) => c.lon)),
      Math.min(...cities.map((c) => c.lat)),
      Math.max(...cities.map((c) => c.lon)),
      Math.max(...cities.map((c) => c.lat)),
    ];
    checkHilbert(rows, extent);
    expect(geo).toEqual({
      version: '1.1.0',
      primary_column: 'geometry',
      columns: {
        geometry: {
          encoding: 'WKB',
          geometry_types: ['Point'],
          bbox: extent,
          covering: {
            bbox: {
              xmin: ['bbox', 'xmin'],
              ymin: ['bbox', 'ymin'],
              xmax: ['bbox', 'xmax'],
              ymax: ['bbox', 'ymax'],
            },
          },
        },
      },
    });
    // Whole numbers as 32-bit integers, text as UTF-8.
    const types = Object.fromEntries(metadata.schema.map((s) => [s.name, s.type]));
    expect(types).toMatchObject({
      population: 'INT32',
      name: 'BYTE_ARRAY',
      geometry: 'BYTE_ARRAY',
    });
  });

  it('writes polygons and multipolygons, quadkeys at zoom 12 by default', async () => {
    const { rows, geo } = await indexed(files.countries, 'countries.parquet');
    const input = countries().map((f) => ({ geometry: f.geometry, properties: f.properties }));
    checkRows(rows, input, 12);
    expect(geo.columns.geometry.geometry_types).toEqual(['MultiPolygon', 'Polygon']);
    checkHilbert(rows, geo.columns.geometry.bbox);
  });

  it('keeps properties of mixed types as JSON, missing ones as nulls, and types a column by its first value that is not null', async () => {
    const features = [
      { a: 1, b: 'x', m: 1, late: null },
      { a: 2.5, m: 'one', late: 2 },
      { b: null, m: { n: [1] }, late: 3 },
    ].map((properties, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [i, i] },
      properties,
    }));
    const file = join(dir, 'mixed.geojson');
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
    const { rows, metadata } = await indexed(file, 'mixed.parquet');
    const byX = rows.sort((p, q) => p.bbox.xmin - q.bbox.xmin);
    expect(byX.map(({ a, b, m, late }) => ({ a, b, m, late }))).toEqual([
      { a: 1, b: 'x', m: 1, late: null },
      { a: 2.5, b: null, m: 'one', late: 2 },
      { a: null, b: null, m: { n: [1] }, late: 3 },
    ]);
    // (A column whose first values are null takes the type of the first value met.)
    const late = metadata.schema.find((e) => e.name === 'late');
    expect(late?.type).toBe('INT32');
  });

  it('writes row groups of --row-group rows, each covering a compact region its bbox statistics give', async () => {
    const random = seeded(11);
    const file = join(dir, 'many.ndjson');
    writePoints(
      file,
      Array.from({ length: 20_000 }, () => [360 * random() - 180, 170 * random() - 85]),
    );
    const { rows, metadata } = await indexed(file, 'many.parquet', '--row-group', '2000');
    expect(metadata.row_groups.map((g) => Number(g.num_rows))).toEqual(Array(10).fill(2000));
    let area = 0;
    metadata.row_groups.forEach((group, g) => {
      const stat = (name: string) =>
        group.columns.find((c) => c.meta_data?.path_in_schema.join('.') === `bbox.${name}`)!
          .meta_data!.statistics!;
      const [xmin, ymin, xmax, ymax] = [
        Number(stat('xmin').min_value),
        Number(stat('ymin').min_value),
        Number(stat('xmax').max_value),
        Number(stat('ymax').max_value),
      ] as [number, number, number, number];
      for (const { bbox } of rows.slice(2000 * g, 2000 * (g + 1))) {
        expect(
          bbox.xmin >= xmin && bbox.xmax <= xmax && bbox.ymin >= ymin && bbox.ymax <= ymax,
        ).toBe(true);
      }
      area += (xmax - xmin) * (ymax - ymin);
    });
    // Ten groups in Hilbert order cover little more than the globe once (in input order each
    // would cover all of it: ten times).
    expect(area / (360 * 170)).toBeLessThan(2);
  });

  it('refuses a GeoJSON file cut in the middle of a feature, and leaves no file', async () => {
    const text = readFileSync(files.countries, 'utf8');
    const file = join(dir, 'cut.geojson');
    writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
    const out = join(dir, 'cut.parquet');
    const run = await quadkit(['index', file, '-o', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^quadkit: .*cut\.geojson: the file ends inside features\[\d+\]/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('refuses a property named as a GeoParquet column of its own, and leaves no file', async () => {
    const file = join(dir, 'clash.ndjson');
    writeFileSync(
      file,
      '{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"bbox":"x"}}\n',
    );
    const out = join(dir, 'clash.parquet');
    const run = await quadkit(['index', file, '-o', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `quadkit: ${out}: the features have a property "bbox", the name of a GeoParquet column of its own; rename the property first\n`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('--zoom and --row-group are refused for another output, and a zoom outside 0-30', async () => {
    const qk = await quadkit(['index', files.csv, '-o', join(dir, 'x.qk'), '--zoom', '5']);
    expect(qk.code).toBe(1);
    expect(qk.stderr).toBe('quadkit: --zoom applies to a .parquet output\n');
    const far = await quadkit(['index', files.csv, '-o', join(dir, 'x.parquet'), '--zoom', '31']);
    expect(far.code).toBe(1);
    expect(far.stderr).toMatch(/expected a whole zoom from 0 to 30, got "31"/);
  });
});

// Rows as DuckDB reads them (WKB as bytes, the bbox struct as an object), and the type it gives
// the geometry column.
async function readDuckdb(file: string, where = 'true') {
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    const read = `read_parquet('${file.replaceAll("'", "''")}')`;
    const reader = await connection.runAndReadAll(`select * from ${read} where ${where}`);
    const rows = reader.getRowObjectsJS() as unknown as Row[];
    const types = await connection.runAndReadAll(`select typeof(geometry) from ${read} limit 1`);
    // The row groups whose bbox statistics admit the filter (min of xmin, max of xmax, ...).
    const groups = await connection.runAndReadAll(
      `select row_group_id, path_in_schema, stats_min_value, stats_max_value from parquet_metadata('${file.replaceAll("'", "''")}') where path_in_schema like 'bbox, %'`,
    );
    return {
      rows,
      type: String(types.getRows()[0]?.[0]),
      stats: groups.getRowObjectsJS() as {
        row_group_id: bigint;
        path_in_schema: string;
        stats_min_value: string;
        stats_max_value: string;
      }[],
    };
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}

describe('quadkit index -o FILE.parquet, read by DuckDB', () => {
  it('DuckDB types the geometry column from the geo metadata and reads every row as written', async () => {
    const cityFile = join(dir, 'duck-cities.parquet');
    expect((await quadkit(['index', files.geojson, '-o', cityFile, '-q'])).code).toBe(0);
    const points = await readDuckdb(cityFile);
    expect(points.type).toBe("GEOMETRY('OGC:CRS84')");
    checkRows(points.rows, cities.map(cityFeature), 12);
    const countryFile = join(dir, 'duck-countries.parquet');
    expect((await quadkit(['index', files.countries, '-o', countryFile, '-q'])).code).toBe(0);
    const input = countries().map((f) => ({ geometry: f.geometry, properties: f.properties }));
    checkRows((await readDuckdb(countryFile)).rows, input, 12);
  });

  it('a box filter on the bbox covering gives the brute-force answer, and few row groups admit it', async () => {
    const random = seeded(5);
    const xy = Array.from({ length: 20_000 }, () => [360 * random() - 180, 170 * random() - 85]);
    const file = join(dir, 'duck-many.ndjson');
    writePoints(file, xy);
    const out = join(dir, 'duck-many.parquet');
    expect((await quadkit(['index', file, '-o', out, '-q', '--row-group', '1000'])).code).toBe(0);
    for (let q = 0; q < 5; q++) {
      const [x0, y0] = [340 * random() - 170, 150 * random() - 75];
      const [x1, y1] = [x0 + 10, y0 + 10];
      const where = `bbox.xmin <= ${x1} and bbox.xmax >= ${x0} and bbox.ymin <= ${y1} and bbox.ymax >= ${y0}`;
      const { rows, stats } = await readDuckdb(out, where);
      const want = xy
        .map(([x, y], i) => (x! <= x1 && x! >= x0 && y! <= y1 && y! >= y0 ? i : -1))
        .filter((i) => i >= 0);
      expect(rows.map((r) => r.i as number).sort((a, b) => a - b)).toEqual(want);
      // Each group's box from its statistics; those that meet the query box are all a reader
      // must open (20 groups in Hilbert order: a 10° box meets a few; in input order, all 20).
      const box = new Map<bigint, number[]>();
      for (const s of stats) {
        const b = box.get(s.row_group_id) ?? [];
        const axis = s.path_in_schema.slice('bbox, '.length);
        b[['xmin', 'ymin', 'xmax', 'ymax'].indexOf(axis)] = Number(
          axis.endsWith('min') ? s.stats_min_value : s.stats_max_value,
        );
        box.set(s.row_group_id, b);
      }
      expect(box.size).toBe(20);
      const admitted = [...box.values()].filter(
        ([a, b, c, d]) => a! <= x1 && c! >= x0 && b! <= y1 && d! >= y0,
      );
      expect(admitted.length).toBeLessThanOrEqual(6);
    }
  });
});
