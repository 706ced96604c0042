// quadkit join against a brute-force oracle: seeded random points on a lattice (many exactly on
// the polygons' shared borders and vertices) into polygons with lattice vertices, each point
// given to the first polygon in file order whose closed area holds it (on its boundary, or inside
// by ray crossing). The points are read from their bytes (compact GeoJSON) and parsed (NDJSON,
// indented GeoJSON): every way must give the same answer.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quadkit } from './run.js';

let dir = '';
let count = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quadkit-join-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, `${count++}-${name}`);
  writeFileSync(path, text);
  return path;
}

type Ring = [number, number][];
type Polygon = Ring[]; // outer ring, then holes

// --- The oracle ---

// Whether (x, y) lies on the segment a-b (exact: lattice coordinates are exact doubles).
function onSegment(x: number, y: number, a: [number, number], b: [number, number]): boolean {
  const cross = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
  return (
    cross === 0 &&
    x >= Math.min(a[0], b[0]) &&
    x <= Math.max(a[0], b[0]) &&
    y >= Math.min(a[1], b[1]) &&
    y <= Math.max(a[1], b[1])
  );
}

// Closed point-in-polygon: on any ring's edge is in; else the even-odd count of the edges a ray
// to +x crosses, over all rings.
function contains(polygon: Polygon, x: number, y: number): boolean {
  let inside = false;
  for (const ring of polygon) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[j]!;
      const b = ring[i]!;
      if (onSegment(x, y, a, b)) return true;
      if (a[1] > y !== b[1] > y && x < ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]) + a[0])
        inside = !inside;
    }
  }
  return inside;
}

// The first polygon (index in the file) holding the point, or -1.
function firstHolding(polygons: Polygon[][], x: number, y: number): number {
  return polygons.findIndex((parts) => parts.some((p) => contains(p, x, y)));
}

// --- The data ---

// A grid of lattice squares, each cut into two triangles along a diagonal: every edge but the
// grid's outline is shared, every vertex shared by up to eight triangles.
function grid(): Polygon[][] {
  const out: Polygon[][] = [];
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      const [x, y] = [i * 4 - 6, j * 4 - 6];
      out.push([
        [
          [
            [x, y],
            [x + 4, y],
            [x + 4, y + 4],
            [x, y],
          ],
        ],
      ]);
      out.push([
        [
          [
            [x, y],
            [x + 4, y + 4],
            [x, y + 4],
            [x, y],
          ],
        ],
      ]);
    }
  return out;
}

// Random lattice triangles and a square with a square hole (a MultiPolygon of two parts).
const lattice = fc.integer({ min: -16, max: 16 }).map((k) => k / 2);
const triangle = fc
  .tuple(lattice, lattice, lattice, lattice, lattice, lattice)
  .filter(([ax, ay, bx, by, cx, cy]) => (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) !== 0)
  .map(([ax, ay, bx, by, cx, cy]): Polygon[] => [
    [
      [
        [ax, ay],
        [bx, by],
        [cx, cy],
        [ax, ay],
      ],
    ],
  ]);
const HOLED: Polygon[] = [
  [
    [
      [-9, -9],
      [-1, -9],
      [-1, -1],
      [-9, -1],
      [-9, -9],
    ],
    [
      [-7, -7],
      [-7, -3],
      [-3, -3],
      [-3, -7],
      [-7, -7],
    ],
  ],
  [
    [
      [7, 7],
      [9, 7],
      [8, 9],
      [7, 7],
    ],
  ],
];

// Points: mostly on the half-unit lattice (on borders and vertices), some anywhere on a fine
// grid (multiples of 2^-20, so that the oracle's cross products are exact, as the library's are).
const fine = fc.integer({ min: -10 * 2 ** 20, max: 10 * 2 ** 20 }).map((k) => k / 2 ** 20);
const point = fc.oneof(fc.tuple(lattice, lattice), fc.tuple(fine, fine));

function polygonsFile(polygons: Polygon[][]): string {
  const features = polygons.map((parts, i) => ({
    type: 'Feature',
    geometry:
      parts.length === 1
        ? { type: 'Polygon', coordinates: parts[0] }
        : { type: 'MultiPolygon', coordinates: parts },
    properties: { id: i },
  }));
  return write('polygons.geojson', JSON.stringify({ type: 'FeatureCollection', features }));
}

// A point's label: every other one with escapes (which the byte reader leaves to JSON.parse).
const label = (i: number) => (i % 2 === 0 ? `p${i}é` : `p"${i}\\é`);

function pointFeatures(points: [number, number][]) {
  return points.map(([x, y], i) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [x, y] },
    properties: { n: i, label: label(i) },
  }));
}

// The points as compact GeoJSON (read from its bytes), NDJSON and indented GeoJSON (parsed).
function pointFiles(points: [number, number][]): string[] {
  const features = pointFeatures(points);
  return [
    write('points.geojson', JSON.stringify({ type: 'FeatureCollection', features })),
    write('points.ndjson', features.map((f) => `${JSON.stringify(f)}\n`).join('')),
    write('indented.geojson', JSON.stringify({ type: 'FeatureCollection', features }, null, 1)),
  ];
}

const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

describe('quadkit join POINTS POLYGONS', () => {
  it('counts each point in the first polygon holding it, on borders and vertices too, as a ray-crossing oracle does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(triangle, { maxLength: 6 }),
        fc.array(point, { minLength: 0, maxLength: 300 }),
        async (triangles, points) => {
          const polygons = [...grid(), HOLED, ...triangles];
          const want = new Array<number>(polygons.length).fill(0);
          for (const [x, y] of points) {
            const k = firstHolding(polygons, x, y);
            if (k >= 0) want[k]!++;
          }
          const polygonFile = polygonsFile(polygons);
          for (const file of pointFiles(points)) {
            const run = await quadkit(['join', file, polygonFile, '--count', '-f', 'ndjson']);
            expect(run.code, run.stderr).toBe(0);
            expect(lines(run.stdout).map((f) => f.properties.point_count)).toEqual(want);
          }
        },
      ),
      { numRuns: 25, seed: 20261207 },
    );
  });

  it('tags each point with the property of the polygon the count form counts it in, or null', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(point, { minLength: 1, maxLength: 300 }), async (points) => {
        const polygons = [...grid(), HOLED];
        const polygonFile = polygonsFile(polygons);
        const outputs: string[] = [];
        for (const file of pointFiles(points)) {
          const run = await quadkit([
            'join',
            file,
            polygonFile,
            '--property',
            'id',
            '-f',
            'ndjson',
          ]);
          expect(run.code, run.stderr).toBe(0);
          const got = lines(run.stdout);
          expect(got.map((f) => f.properties.polygon_id)).toEqual(
            points.map(([x, y]) => {
              const k = firstHolding(polygons, x, y);
              return k < 0 ? null : k;
            }),
          );
          expect(got.map((f) => f.properties.label)).toEqual(points.map((_, i) => label(i)));
          outputs.push(run.stdout);
        }
        // Read from bytes or parsed, the answer is the same text.
        expect(outputs[0]).toBe(outputs[1]);
        expect(outputs[2]).toBe(outputs[1]);
      }),
      { numRuns: 15, seed: 7 },
    );
  });

  it("reads points cut by the reader's chunks as it reads the others", async () => {
    // About 600 KB of points: features straddle the reader's 256 KiB chunks.
    const random = fc.sample(fc.tuple(lattice, lattice), { numRuns: 5000, seed: 3 });
    const polygons = [...grid(), HOLED];
    const [geojson, ndjson] = pointFiles(random);
    const polygonFile = polygonsFile(polygons);
    const a = await quadkit(['join', geojson!, polygonFile, '--property', 'id', '-f', 'ndjson']);
    const b = await quadkit(['join', ndjson!, polygonFile, '--property', 'id', '-f', 'ndjson']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(lines(a.stdout).map((f) => f.properties.polygon_id)).toEqual(
      random.map(([x, y]) => {
        const k = firstHolding(polygons, x, y);
        return k < 0 ? null : k;
      }),
    );
  });

  it('reads NDJSON points with a byte order mark, \\r\\n line ends, blank and indented lines', async () => {
    const polygonFile = polygonsFile(grid());
    const [a, b] = pointFeatures([
      [1, 1],
      [-5, 3],
    ]).map((f) => JSON.stringify(f));
    const file = write('odd.ndjson', `\uFEFF${a}\r\n\r\n   ${b}\r\n  \n${a}`);
    const run = await quadkit(['join', file, polygonFile, '--property', 'id', '-f', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout).map((f) => f.properties.polygon_id)).toEqual([
      firstHolding(grid(), 1, 1),
      firstHolding(grid(), -5, 3),
      firstHolding(grid(), 1, 1),
    ]);
    const bad = write('bad.ndjson', `${a}\n{"type":"Feature"\n`);
    const failed = await quadkit(['join', bad, polygonFile, '--count']);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain(`${bad}:2: not valid JSON`);
  });

  it('writes a tagged FeatureCollection that JSON.parse reads, with 0 and 1 points', async () => {
    const polygonFile = polygonsFile(grid());
    for (const points of [[], [[1, 1]]] as [number, number][][]) {
      const [file] = pointFiles(points);
      const run = await quadkit(['join', file!, polygonFile, '--property', 'id']);
      expect(run.code, run.stderr).toBe(0);
      const parsed = JSON.parse(run.stdout);
      expect(parsed.features).toHaveLength(points.length);
    }
  });

  it('keeps properties null or empty, a property already named as the tag in its place, and numbers as JSON.parse reads them', async () => {
    const polygonFile = polygonsFile(grid());
    const text =
      '{"type":"FeatureCollection","features":[' +
      '{"type":"Feature","geometry":{"type":"Point","coordinates":[1,1]},"properties":null},' +
      '{"type":"Feature","geometry":{"type":"Point","coordinates":[-0,1e-7]},"properties":{}},' +
      '{"type":"Feature","geometry":{"type":"Point","coordinates":[1.0000000000000002,-2.5]},"properties":{"polygon_id":"x","b":[1,{"c":null}]}},' +
      '{"type":"Feature","geometry":{"type":"Point","coordinates":[1.23456789012345678,0.1]},"properties":{"a":true}},' +
      '{"type":"Point","coordinates":[-5.5,-5.5]},' +
      '{"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[2,3]},"properties":{"a":false}},' +
      '{"type":"Feature","geometry":{"type":"Point","coordinates":[3,3]},"properties":{"polygon\\u005fid":"y","c":1}}' +
      ']}';
    const file = write('odd.geojson', text);
    const run = await quadkit(['join', file, polygonFile, '--property', 'id', '-f', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const want = JSON.parse(text).features.map(
      (f: { type: string; properties?: Record<string, unknown> | null }) => {
        const feature =
          f.type === 'Feature' ? f : { type: 'Feature', geometry: f, properties: null };
        return { ...feature, properties: { ...(feature.properties ?? {}), polygon_id: 0 } };
      },
    );
    const got = lines(run.stdout);
    for (let i = 0; i < got.length; i++) got[i].properties.polygon_id = 0;
    expect(got).toEqual(want);
    expect(Object.keys(got[2].properties)).toEqual(['polygon_id', 'b']);
    // (The name spelled with an escape is the same name: replaced, not written twice.)
    const escaped = run.stdout.split('\n')[6]!;
    expect(escaped).toBe(JSON.stringify(JSON.parse(escaped)));
    expect(Object.keys(got[6].properties)).toEqual(['polygon_id', 'c']);
    expect(Object.is(got[1].geometry.coordinates[0], -0)).toBe(true);
  });

  it('names the feature of a point off the globe or with invalid JSON in its properties', async () => {
    const polygonFile = polygonsFile(grid());
    const off = write(
      'off.geojson',
      '{"type":"FeatureCollection","features":[' +
        '{"type":"Feature","geometry":{"type":"Point","coordinates":[1,1]},"properties":{}},' +
        '{"type":"Feature","geometry":{"type":"Point","coordinates":[200,1]},"properties":{}}]}',
    );
    const a = await quadkit(['join', off, polygonFile, '--count']);
    expect(a.code).not.toBe(0);
    expect(a.stderr).toContain('features[1]');
    expect(a.stderr).toContain('off the globe');
    const bad = write(
      'bad.geojson',
      '{"type":"FeatureCollection","features":[' +
        '{"type":"Feature","geometry":{"type":"Point","coordinates":[1,1]},"properties":{"a":tru}}]}',
    );
    const b = await quadkit(['join', bad, polygonFile, '--count']);
    expect(b.code).not.toBe(0);
    expect(b.stderr).toContain('not valid JSON');
    const line = write(
      'line.geojson',
      '{"type":"FeatureCollection","features":[' +
        '{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,1],[2,2]]},"properties":{}}]}',
    );
    const c = await quadkit(['join', line, polygonFile]);
    expect(c.code).not.toBe(0);
    expect(c.stderr).toContain('features[0]: join takes point features on its first file');
  });
});
