// Workload: the quadkit command's files. Two tables:
// - reading: a read-only pass (every feature parsed and given out, nothing indexed) over the
//   same data as GeoJSON, newline-delimited GeoJSON, CSV and FlatGeobuf, in MB/s (10^6 bytes a
//   second) and µs per feature, beside `mapshaper -i FILE -info` (a child process reading the
//   same file), stream-json and JSON.parse of the whole text. Data: 1M seeded random points with a few
//   properties (about 150 MB as GeoJSON), and the world's countries (world-atlas, 1:50m)
//   repeated to about 50 MB.
// - join: 1M points into the world-atlas countries at 1:110m and 1:10m, counted (`--count`) and
//   tagged, by `quadkit join` (the built command, a child process, as users run it), mapshaper's
//   `-join` on the same files, and flatbush over the countries' boxes + turf's
//   booleanPointInPolygon on each candidate (a child process reading the same GeoJSON file with
//   JSON.parse, as turf's documentation writes it). Wall time and peak RSS of each process.
//
// mapshaper is not a dependency (its install compiles native modules): it is installed on
// demand into $TMPDIR/quadkit-bench-tools; when that fails its rows say so. Data files are
// written once into $TMPDIR/quadkit-bench-files (QUADKIT_BENCH_DIR) and reused.
//
//   node bench/workloads/files.js [reading|join] [--quick]   this workload alone, its tables printed
//   node bench/files.js                                       the reading table alone

import { once } from 'node:events';
import {
  createReadStream,
  existsSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import chain from 'stream-chain';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamArray } from 'stream-json/streamers/stream-array.js';

import {
  CLI,
  child,
  dataDir,
  lines,
  MAPSHAPER,
  makeFiles,
  mapshaper,
  pointFeatures,
  root,
  writeAll,
} from './files-data.js';

export { dataDir, makeFiles } from './files-data.js';

export const id = 'files';

/** The two tables. */
export function parts() {
  return ['reading', 'join'];
}

export async function run({ quick, part }) {
  const dir = dataDir(quick);
  await makeFiles(dir, quick);
  return part === 'join' ? joinTable(dir, quick) : readingTable(dir, quick);
}

// --- Reading ---

// A read-only pass over a file by quadkit's readers, in runs as the commands read them.
async function quadkitPass(readRuns, path) {
  let count = 0;
  for await (const run of readRuns(path)) count += run.length;
  return count;
}

// A pass over a FeatureCollection by stream-json, the way its README shows: the parser's tokens,
// `pick` of the features array, `streamArray` assembling each element.
async function streamJsonPass(path) {
  const pipeline = chain([
    createReadStream(path),
    parser(),
    pick({ filter: 'features' }),
    streamArray(),
  ]);
  let count = 0;
  pipeline.on('data', () => count++);
  await once(pipeline, 'end');
  return count;
}

/** The reading table's rows, each the median of `runs` passes, the rows taking turns. */
export async function readingRows(dir, { runs = 3, peers = true } = {}) {
  const { readRuns } = await import(pathToFileURL(join(root, 'packages/cli/dist/input.js')).href);
  const ms = peers ? mapshaper() : { note: '' };
  const rows = [];
  // (once: a row run in the first round only, for a peer that takes many seconds a pass.)
  const add = (name, quadkit, path, pass, once = false) =>
    rows.push({ name, quadkit, path, pass, once, times: [] });
  for (const data of ['points', 'countries']) {
    const geojson = join(dir, `${data}.geojson`);
    add(`quadkit, ${data} GeoJSON`, true, geojson, () => quadkitPass(readRuns, geojson));
    const ndjson = join(dir, `${data}.ndjson`);
    add(`quadkit, ${data} NDJSON`, true, ndjson, () => quadkitPass(readRuns, ndjson));
    if (data === 'points') {
      const csvFile = join(dir, 'points.csv');
      add('quadkit, points CSV', true, csvFile, () => quadkitPass(readRuns, csvFile));
      const fgb = join(dir, 'points.fgb');
      add('quadkit, points FlatGeobuf', true, fgb, () => quadkitPass(readRuns, fgb));
    }
    if (!peers) continue;
    add(`JSON.parse of the whole text, ${data} GeoJSON`, false, geojson, async () => {
      return JSON.parse(readFileSync(geojson, 'utf8')).features.length;
    });
    add(
      `stream-json (parser, pick, streamArray), ${data} GeoJSON`,
      false,
      geojson,
      () => streamJsonPass(geojson),
      true,
    );
    if (ms.bin)
      add(
        `mapshaper -i -info, ${data} GeoJSON`,
        false,
        geojson,
        async () => {
          child(ms.bin, ['-i', geojson, '-info'], join(dir, 'mapshaper-info.txt'));
          return 0;
        },
        true,
      );
  }
  for (let r = 0; r < runs; r++) {
    for (const row of rows) {
      if (row.once && r > 0) continue;
      const t0 = performance.now();
      const count = await row.pass();
      row.times.push(performance.now() - t0);
      if (count) row.count = count;
      if (global.gc) global.gc();
    }
  }
  return {
    rows: rows.map((row) => {
      const seconds = median(row.times) / 1000;
      const mb = statSync(row.path).size / 1e6;
      return {
        name: row.name,
        quadkit: row.quadkit,
        mb,
        seconds,
        range: [Math.min(...row.times) / 1000, Math.max(...row.times) / 1000],
        count: row.count ?? 0,
      };
    }),
    note: ms.note,
  };
}

async function readingTable(dir, quick) {
  const runs = quick ? 1 : 5;
  const { rows, note } = await readingRows(dir, { runs });
  const features = Object.fromEntries(rows.filter((r) => r.count).map((r) => [r.name, r.count]));
  return {
    id: `${id}-reading`,
    title: 'Reading files: MB/s of a read-only pass over the same data',
    setup:
      `Each row reads a whole file once per round, ${runs} round${runs > 1 ? 's' : ''}, the rows taking turns; ` +
      'the median (and range) of the rounds. quadkit rows: every feature parsed and given out by ' +
      'the readers of the `quadkit` command (packages/cli/dist/input.js), in one process. ' +
      'JSON.parse: readFileSync and JSON.parse of the whole text. stream-json: its parser, ' +
      '`pick` of the features and `streamArray`, as its README shows (one round). mapshaper: ' +
      "`mapshaper -i FILE -info` in a child process (Node's start included; one round). Points: 1M seeded random points (id, name, " +
      'population); countries: world-atlas 1:50m repeated to about 50 MB. MB are 10^6 bytes.',
    metrics: [
      { key: 'mb', label: 'MB', unit: 'MB', digits: 1 },
      { key: 'seconds', label: 's (median)', unit: 's', digits: 2 },
      { key: 'range', label: 's (range)', unit: 'text' },
      { key: 'rate', label: 'MB/s', unit: 'MB/s', digits: 1 },
      { key: 'perFeature', label: 'µs per feature', unit: 'µs', digits: 2 },
    ],
    rows: rows.map((r) => ({
      name: r.name,
      quadkit: r.quadkit,
      values: {
        mb: r.mb,
        seconds: r.seconds,
        range: { text: `${r.range[0].toFixed(2)}–${r.range[1].toFixed(2)}` },
        rate: r.mb / r.seconds,
        perFeature: r.count ? (r.seconds * 1e6) / r.count : { na: '—' },
      },
    })),
    notes: [
      note,
      `Features read: ${Object.entries(features)
        .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
        .join('; ')}.`,
    ].filter(Boolean),
    warnings: [],
    inChildProcesses: true,
  };
}

// --- Join ---

/** The three tools' commands for one join: `{ script, args }` for a child process. */
function joinCommands(ms, points, polygons, count, out) {
  const commands = {
    quadkit: {
      script: CLI,
      args: ['join', points, polygons, ...(count ? ['--count'] : []), '--format', 'ndjson', '-q'],
    },
    'flatbush + turf': {
      script: fileURLToPath(import.meta.url),
      args: ['--flatbush-turf', points, polygons, count ? 'count' : 'tag'],
    },
  };
  if (ms.bin)
    commands.mapshaper = {
      script: ms.bin,
      args: count
        ? ['-i', polygons, '-join', points, 'calc=point_count=count()', '-o', out]
        : ['-i', points, '-join', polygons, 'fields=name', 'prefix=polygon_', '-o', out],
    };
  return commands;
}

// Points per polygon from a tool's --count answer (quadkit: NDJSON; mapshaper: GeoJSON;
// flatbush + turf: a JSON array).
function countsOf(tool, stdout, out) {
  if (tool === 'quadkit')
    return readFileSync(stdout, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).properties.point_count);
  if (tool === 'mapshaper')
    return JSON.parse(readFileSync(out, 'utf8')).features.map((f) => f.properties.point_count ?? 0);
  return JSON.parse(readFileSync(stdout, 'utf8'));
}

async function joinTable(dir, quick) {
  const ms = mapshaper();
  const points = join(dir, 'points.geojson');
  const small = join(dir, 'points-100k.geojson');
  const stdout = join(dir, 'join-stdout.txt');
  const out = join(dir, 'join-out.json');
  const nPoints = quick ? 100_000 : 1_000_000;
  const cases = [];
  for (const scale of ['110m', '10m'])
    for (const count of [true, false])
      cases.push({ scale, count, key: `${scale}${count ? 'c' : 't'}` });
  const values = { quadkit: {}, mapshaper: {}, 'flatbush + turf': {} };
  const totals = {};
  const warnings = [];
  const notes = [];
  const rounds = quick ? 1 : 3;
  for (const c of cases) {
    const polygons = join(dir, `countries-${c.scale}.geojson`);
    const counts = {};
    // quadkit: the median of `rounds` runs; the peers: one run each (they take 3 to 100 times
    // longer). flatbush + turf on the 1:10m countries reads the first 100k points, its time
    // scaled to 1M (it takes about 4 minutes on all of them).
    const commands = joinCommands(ms, points, polygons, c.count, out);
    const scaled = c.scale === '10m' && !quick;
    if (scaled)
      commands['flatbush + turf'] = joinCommands(ms, small, polygons, c.count, out)[
        'flatbush + turf'
      ];
    const times = { quadkit: [] };
    for (let r = 0; r < rounds; r++) {
      for (const [tool, { script, args }] of Object.entries(commands)) {
        if (tool !== 'quadkit' && r > 0) continue;
        console.error(`  join ${c.scale} ${c.count ? 'count' : 'tagged'}: ${tool}`);
        const m = child(script, args, stdout);
        if (tool === 'quadkit') times.quadkit.push(m);
        else times[tool] = [m];
        if (c.count && !(tool === 'flatbush + turf' && scaled))
          counts[tool] = countsOf(tool, stdout, out);
        if (!c.count && tool === 'quadkit' && r === 0) {
          // The tagged answer tags as many points as the count form counts.
          counts.tagged = taggedCount(stdout);
        }
      }
    }
    for (const [tool, list] of Object.entries(times)) {
      const sorted = [...list].sort((a, b) => a.ms - b.ms);
      const mid = sorted[sorted.length >> 1];
      const estimate = tool === 'flatbush + turf' && scaled;
      values[tool][c.key] = estimate
        ? { ms: mid.ms * 10, note: 'first 100k points, ×10' }
        : list.length > 1
          ? { ms: mid.ms, tag: `${Math.round(sorted[0].ms)}–${Math.round(sorted.at(-1).ms)}` }
          : mid.ms;
      values[tool][`${c.key}Rss`] = estimate ? { ms: mid.mb, tag: '100k points' } : mid.mb;
    }
    if (c.count) {
      const ref = counts.quadkit;
      const total = ref.reduce((a, b) => a + b, 0);
      notes.push(
        `${c.scale}: ${total.toLocaleString('en-US')} of ${nPoints.toLocaleString('en-US')} points in a country (quadkit --count)`,
      );
      for (const [tool, list] of Object.entries(counts)) {
        const bad = list.filter((v, i) => v !== ref[i]).length + Math.abs(list.length - ref.length);
        if (bad)
          warnings.push(`${c.scale}: ${tool} differs from quadkit in ${bad} countries' counts`);
      }
      totals[c.scale] = total;
    } else if (counts.tagged !== totals[c.scale])
      warnings.push(
        `${c.scale}: quadkit's tagged answer tags ${counts.tagged} points, its --count ${totals[c.scale]}`,
      );
  }
  rmSync(out, { force: true });
  rmSync(stdout, { force: true });

  // Peak RSS of quadkit join over 10x the points: flat in the number of points.
  if (!quick) {
    const big = join(dir, 'points-10m.ndjson');
    if (!existsSync(big)) {
      console.error(`writing ${big}`);
      await writeAll(big, lines(pointFeatures(10_000_000)));
    }
    // (The same format for both: NDJSON, read by the readers every command uses.)
    const countries10m = join(dir, 'countries-10m.geojson');
    const one = child(
      CLI,
      ['join', join(dir, 'points.ndjson'), countries10m, '--count', '-q'],
      stdout,
    );
    const ten = child(CLI, ['join', big, countries10m, '--count', '-q'], stdout);
    rmSync(stdout, { force: true });
    notes.push(
      `quadkit join --count into the 1:10m countries, points as NDJSON: 10M points (${(statSync(big).size / 1e6).toFixed(0)} MB) ` +
        `${(ten.ms / 1000).toFixed(1)} s, peak RSS ${ten.mb.toFixed(0)} MB; 1M points ${(one.ms / 1000).toFixed(1)} s, ` +
        `peak RSS ${one.mb.toFixed(0)} MB.`,
    );
  }
  if (ms.note) notes.push(ms.note);
  const rows = Object.entries(values).map(([tool, v]) => ({
    name:
      tool === 'quadkit'
        ? 'quadkit join'
        : tool === 'mapshaper'
          ? `mapshaper ${MAPSHAPER} -join`
          : 'flatbush + turf booleanPointInPolygon',
    quadkit: tool === 'quadkit',
    values: v,
  }));
  const label = {
    '110mc': '110m --count',
    '110mt': '110m tagged',
    '10mc': '10m --count',
    '10mt': '10m tagged',
  };
  return {
    id: `${id}-join`,
    title: `quadkit join: ${nPoints.toLocaleString('en-US')} points into the world-atlas countries`,
    setup:
      'Wall time of a child process per join (Node’s start included, as users run each tool), and its peak RSS ' +
      '(process.resourceUsage().maxRSS, written by a module preloaded with --import). Points: the reading table’s ' +
      'GeoJSON file; countries: world-atlas countries-110m and countries-10m through topojson-client, cut at the ' +
      'antimeridian, as GeoJSON. --count: points per country (quadkit `join --count`; mapshaper ' +
      "`-i countries -join points calc='point_count=count()'`; flatbush + turf counts). Tagged: each point with its " +
      'country’s name written out (quadkit `join` to NDJSON; mapshaper `-i points -join countries fields=name ' +
      'prefix=polygon_ -o out.json`; flatbush + turf sets the property and writes the FeatureCollection with ' +
      'JSON.stringify). A point on a border is in the polygon (closed polygons), and in the first one in file ' +
      `order when two share it. quadkit: median of ${rounds} runs (range in italics); peers: one run. ` +
      'Every tool’s counts per country must match quadkit’s.',
    metrics: [
      ...Object.entries(label).map(([key, l]) => ({ key, label: l, compare: true })),
      ...Object.entries(label).map(([key, l]) => ({
        key: `${key}Rss`,
        label: `peak RSS ${l} (MB)`,
        unit: 'MB',
        digits: 0,
      })),
    ],
    rows,
    notes,
    warnings,
    inChildProcesses: true,
  };
}

// Points a tagged NDJSON answer tagged with a country (those whose tag is not null).
function taggedCount(file) {
  const bytes = readFileSync(file);
  const none = Buffer.from('"polygon_name":null');
  let lines = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++;
  let untagged = 0;
  for (let i = bytes.indexOf(none); i >= 0; i = bytes.indexOf(none, i + 1)) untagged++;
  return lines - untagged;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// --- flatbush + turf, as turf's documentation writes a point-in-polygon join ---

// The child process: reads both files with JSON.parse, indexes the polygons' bounding boxes in
// flatbush, searches each point's box and tests the candidates with booleanPointInPolygon (the
// first polygon in file order that contains the point wins); then writes the counts per polygon
// as a JSON array, or the points tagged with the polygon's name as a FeatureCollection.
async function flatbushTurf(pointsFile, polygonsFile, mode) {
  const { default: Flatbush } = await import('flatbush');
  const { booleanPointInPolygon } = await import('@turf/boolean-point-in-polygon');
  const polygons = JSON.parse(readFileSync(polygonsFile, 'utf8')).features;
  const pts = JSON.parse(readFileSync(pointsFile, 'utf8')).features;
  const index = new Flatbush(polygons.length);
  for (const f of polygons) index.add(...bbox(f.geometry));
  index.finish();
  const counts = new Array(polygons.length).fill(0);
  for (const p of pts) {
    const [x, y] = p.geometry.coordinates;
    let found = -1;
    for (const i of index.search(x, y, x, y))
      if ((found < 0 || i < found) && booleanPointInPolygon(p.geometry.coordinates, polygons[i]))
        found = i;
    if (found >= 0) counts[found]++;
    if (mode === 'tag')
      p.properties.polygon_name = found < 0 ? null : polygons[found].properties.name;
  }
  if (mode === 'count') process.stdout.write(JSON.stringify(counts));
  else {
    // (In pieces: one string of the whole collection is past V8's longest string.)
    const parts = ['{"type":"FeatureCollection","features":[\n'];
    for (let i = 0; i < pts.length; i++)
      parts.push(i ? `,\n${JSON.stringify(pts[i])}` : JSON.stringify(pts[i]));
    parts.push('\n]}\n');
    const fd = 1;
    for (let i = 0; i < parts.length; i += 10000)
      writeFileSync(fd, parts.slice(i, i + 10000).join(''));
  }
}

// A Polygon's or MultiPolygon's bounding box [minX, minY, maxX, maxY] (its outer rings).
function bbox(geometry) {
  let minX = Number.POSITIVE_INFINITY;
  let minY = minX;
  let maxX = -minX;
  let maxY = -minX;
  const polys = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  for (const rings of polys) {
    for (const [x, y] of rings[0]) {
      if (x < minX) minX = x;
      if (y < minY) minY = y;
      if (x > maxX) maxX = x;
      if (y > maxY) maxY = y;
    }
  }
  return [minX, minY, maxX, maxY];
}

// --- Run alone ---

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === '--flatbush-turf') await flatbushTurf(args[1], args[2], args[3]);
  else {
    const { renderWorkload } = await import('../render.js');
    const quick = args.includes('--quick');
    const only = args.filter((a) => !a.startsWith('--'));
    for (const part of parts().filter((p) => !only.length || only.includes(p))) {
      const t0 = performance.now();
      const r = await run({ quick, part });
      console.log(renderWorkload(r));
      console.error(`  files (${part}) took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
  }
}
