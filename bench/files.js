// Reading speed of the quadkit command's input files: a read-only pass (every feature parsed and
// given out, nothing indexed) over the same data as GeoJSON, newline-delimited GeoJSON and CSV,
// beside stream-json's streaming parser (when installed) and JSON.parse of the whole text, in
// MB/s (10^6 bytes a second). Data: 1M random points with a few properties (about 150 MB as
// GeoJSON), and the world's countries (world-atlas, 1:50m) repeated to about 50 MB.
//
//   npm run build && node bench/files.js          (files cached in $TMPDIR/quadkit-bench-files)
//   node bench/files.js --index                   also times `quadkit index` on each GeoJSON file
//   node bench/files.js --runs 3                  the best of 3 runs of each row (a busy machine)
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const require = createRequire(import.meta.url);
const dir = process.env.QUADKIT_BENCH_DIR ?? join(tmpdir(), 'quadkit-bench-files');
const withIndex = process.argv.includes('--index');
const runsAt = process.argv.indexOf('--runs');
const runs = runsAt < 0 ? 1 : Math.max(1, Number(process.argv[runsAt + 1]) || 1);
const { readRuns } = await import(join(root, 'packages/cli/dist/input.js'));

// Writes a file from an iterable of strings, through a buffer.
async function writeAll(path, texts) {
  const handle = await open(path, 'w');
  let pending = [];
  let size = 0;
  for (const text of texts) {
    pending.push(text);
    size += text.length;
    if (size > 1 << 22) {
      await handle.write(pending.join(''));
      pending = [];
      size = 0;
    }
  }
  await handle.write(pending.join(''));
  await handle.close();
}

function* collection(features) {
  yield '{"type":"FeatureCollection","features":[\n';
  let first = true;
  for (const f of features()) {
    yield first ? JSON.stringify(f) : `,\n${JSON.stringify(f)}`;
    first = false;
  }
  yield '\n]}\n';
}

function* lines(features) {
  for (const f of features()) yield `${JSON.stringify(f)}\n`;
}

// 1M points, seeded.
function* points() {
  let seed = 12345;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return (seed - 1) / 2147483646;
  };
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = 0; i < 1_000_000; i++) {
    let name = '';
    for (let j = 0; j < 6; j++) name += letters[Math.floor(random() * 26)];
    yield {
      type: 'Feature',
      geometry: {
        type: 'Point',
        coordinates: [
          Math.round((random() * 360 - 180) * 1e6) / 1e6,
          Math.round((random() * 180 - 90) * 1e6) / 1e6,
        ],
      },
      properties: { id: i, name, population: Math.floor(random() * 1e7) },
    };
  }
}

// The world's countries, repeated to about 50 MB.
function countries() {
  const { feature } = require('topojson-client');
  const topology = JSON.parse(
    readFileSync(require.resolve('world-atlas/countries-50m.json'), 'utf8'),
  );
  const list = feature(topology, topology.objects.countries).features;
  const once = Buffer.byteLength(JSON.stringify(list));
  const times = Math.max(1, Math.round(50e6 / once));
  return function* () {
    for (let t = 0; t < times; t++) yield* list;
  };
}

async function makeFiles() {
  mkdirSync(dir, { recursive: true });
  const files = {
    'points.geojson': () => collection(points),
    'points.ndjson': () => lines(points),
    'points.csv': function* () {
      yield 'id,name,population,lon,lat\n';
      for (const { geometry, properties: p } of points())
        yield `${p.id},${p.name},${p.population},${geometry.coordinates[0]},${geometry.coordinates[1]}\n`;
    },
    'countries.geojson': () => collection(countries()),
    'countries.ndjson': () => lines(countries()),
  };
  for (const [name, texts] of Object.entries(files)) {
    const path = join(dir, name);
    if (!existsSync(path)) await writeAll(path, texts());
  }
}

// Seconds a run of `fn` takes.
async function time(fn) {
  const start = process.hrtime.bigint();
  const count = await fn();
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, count };
}

async function quadkitPass(path) {
  let count = 0;
  // (In runs, as the commands read them.)
  for await (const run of readRuns(path)) count += run.length;
  return count;
}

// stream-json's parser, picking the `features` array's elements as the command used to.
async function streamJsonPass(path) {
  let count = 0;
  const { default: parser } = await import('stream-json');
  const { default: pick } = await import('stream-json/filters/pick.js');
  const { default: streamArray } = await import('stream-json/streamers/stream-array.js');
  const elements = createReadStream(path)
    .pipe(parser({ streamValues: false }))
    .pipe(pick.asStream({ filter: /^features$/ }))
    .pipe(streamArray.asStream());
  for await (const _ of elements) count++;
  return count;
}

async function wholePass(path) {
  return JSON.parse(readFileSync(path, 'utf8')).features.length;
}

function indexRun(path) {
  const out = join(dir, 'bench.qk');
  execFileSync(process.execPath, [
    join(root, 'packages/cli/bin/quadkit.js'),
    'index',
    path,
    '-o',
    out,
    '--quiet',
  ]);
  rmSync(out, { force: true });
  return 0;
}

let streamJson = true;
try {
  await import('stream-json');
} catch {
  streamJson = false;
}

await makeFiles();
const rows = [];
const measure = async (data, format, reader, path, fn) => {
  const mb = statSync(path).size / 1e6;
  let { seconds, count } = await time(() => fn(path));
  for (let r = 1; r < runs; r++) seconds = Math.min(seconds, (await time(() => fn(path))).seconds);
  rows.push({ data, format, reader, mb, seconds, count });
  process.stderr.write(`${data} ${format} ${reader}: ${(mb / seconds).toFixed(1)} MB/s\n`);
};
for (const data of ['points', 'countries']) {
  const geojson = join(dir, `${data}.geojson`);
  await measure(data, 'GeoJSON', 'quadkit', geojson, quadkitPass);
  await measure(data, 'NDJSON', 'quadkit', join(dir, `${data}.ndjson`), quadkitPass);
  if (data === 'points')
    await measure(data, 'CSV', 'quadkit', join(dir, 'points.csv'), quadkitPass);
  if (streamJson) await measure(data, 'GeoJSON', 'stream-json', geojson, streamJsonPass);
  await measure(data, 'GeoJSON', 'JSON.parse (whole file)', geojson, wholePass);
  if (withIndex)
    await measure(data, 'GeoJSON', '`quadkit index` (whole command)', geojson, indexRun);
}

console.log(
  `Read pass over the same data (MB/s, ${process.version}${runs > 1 ? `, best of ${runs}` : ''}):\n`,
);
console.log('| data | format | reader | MB | features | s | MB/s |');
console.log('| --- | --- | --- | ---: | ---: | ---: | ---: |');
for (const r of rows)
  console.log(
    `| ${r.data} | ${r.format} | ${r.reader} | ${r.mb.toFixed(1)} | ${r.count || ''} | ${r.seconds.toFixed(2)} | ${(r.mb / r.seconds).toFixed(1)} |`,
  );
if (!streamJson) console.log('\n(stream-json is not installed: its row is left out.)');
