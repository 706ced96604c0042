// The files workload's data and tools (bench/workloads/files.js): the data files, written once
// and reused, the mapshaper install, and the child processes whose wall time and peak RSS are
// measured.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository's root. */
export const root = join(here, '..', '..');
const require = createRequire(import.meta.url);
/** The built command. */
export const CLI = join(root, 'packages/cli/bin/quadkit.js');
/** The mapshaper release measured. */
export const MAPSHAPER = '0.7.70';

/** Where the data files are cached. */
export const dataDir = (quick) =>
  process.env.QUADKIT_BENCH_DIR ?? join(tmpdir(), `quadkit-bench-files${quick ? '-quick' : ''}`);
// Where mapshaper and the peak-RSS hook are installed.
const toolsDir = join(tmpdir(), 'quadkit-bench-tools');

// --- Data ---

/** Writes a file from an iterable of strings, through a buffer. */
export async function writeAll(path, texts) {
  const handle = await open(`${path}.part`, 'w');
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
  execFileSync('mv', [`${path}.part`, path]);
}

function* collection(features) {
  yield '{"type":"FeatureCollection","features":[\n';
  let first = true;
  for (const f of features) {
    yield first ? JSON.stringify(f) : `,\n${JSON.stringify(f)}`;
    first = false;
  }
  yield '\n]}\n';
}

/** The features as newline-delimited GeoJSON, a line each. */
export function* lines(features) {
  for (const f of features) yield `${JSON.stringify(f)}\n`;
}

/** `n` seeded random points in lon/lat with an id, a name and a population. */
export function* pointFeatures(n) {
  let seed = 12345;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return (seed - 1) / 2147483646;
  };
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = 0; i < n; i++) {
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

function* csv(features) {
  yield 'id,name,population,lon,lat\n';
  for (const { geometry, properties: p } of features)
    yield `${p.id},${p.name},${p.population},${geometry.coordinates[0]},${geometry.coordinates[1]}\n`;
}

// The world-atlas countries at a scale as GeoJSON features, cut at the antimeridian as quadkit
// reads them (world-atlas draws Russia, Fiji and Antarctica with rings that step from 180 to -180,
// which a planar test reads as bands round the world): every tool then answers the same question.
async function countries(scale) {
  const { feature } = require('topojson-client');
  const { cutAtAntimeridian } = await import(pathToFileURL(join(root, 'dist/geo/index.js')).href);
  const topology = JSON.parse(
    readFileSync(require.resolve(`world-atlas/countries-${scale}.json`), 'utf8'),
  );
  return feature(topology, topology.objects.countries)
    .features.filter((f) => f.geometry !== null)
    .map((f) => ({ ...f, geometry: cutAtAntimeridian(f.geometry) }));
}

// The world's countries (1:50m), repeated to about `bytes`.
function* repeated(list, bytes) {
  const once = Buffer.byteLength(JSON.stringify(list));
  const times = Math.max(1, Math.round(bytes / once));
  for (let t = 0; t < times; t++) yield* list;
}

/** Writes the data files into `dir` unless they are there. */
export async function makeFiles(dir, quick = false) {
  mkdirSync(dir, { recursive: true });
  const n = quick ? 100_000 : 1_000_000;
  const files = {
    'points.geojson': () => collection(pointFeatures(n)),
    'points.ndjson': () => lines(pointFeatures(n)),
    'points.csv': () => csv(pointFeatures(n)),
    'points-100k.geojson': () => collection(pointFeatures(100_000)),
    'countries.geojson': async () =>
      collection(repeated(await countries('50m'), quick ? 5e6 : 50e6)),
    'countries.ndjson': async () => lines(repeated(await countries('50m'), quick ? 5e6 : 50e6)),
    'countries-110m.geojson': async () => collection(await countries('110m')),
    'countries-10m.geojson': async () => collection(await countries('10m')),
  };
  for (const [name, texts] of Object.entries(files)) {
    const path = join(dir, name);
    if (!existsSync(path)) {
      console.error(`writing ${path}`);
      await writeAll(path, await texts());
    }
  }
  // FlatGeobuf, written by the command itself.
  const fgb = join(dir, 'points.fgb');
  if (!existsSync(fgb)) {
    console.error(`writing ${fgb}`);
    execFileSync(process.execPath, [CLI, 'index', join(dir, 'points.geojson'), '-o', fgb, '-q']);
  }
}

// --- Tools ---

/** mapshaper's command-line script, installed on demand; or `{ note }` saying why not. */
export function mapshaper() {
  const bin = join(toolsDir, 'node_modules/mapshaper/bin/mapshaper');
  if (!existsSync(bin)) {
    console.error(`installing mapshaper@${MAPSHAPER} into ${toolsDir}...`);
    try {
      mkdirSync(toolsDir, { recursive: true });
      execFileSync(
        'npm',
        ['install', '--prefix', toolsDir, `mapshaper@${MAPSHAPER}`, '--no-audit', '--no-fund'],
        { stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 },
      );
    } catch (e) {
      return { note: `mapshaper not measured: npm install failed (${e.message.split('\n')[0]})` };
    }
  }
  return existsSync(bin) ? { bin } : { note: 'mapshaper not measured: not installed' };
}

// A module preloaded into each measured child: it writes the process's peak RSS (from
// process.resourceUsage().maxRSS, in KiB) to QUADKIT_BENCH_RSS as the process exits.
function rssHook() {
  const hook = join(toolsDir, 'peak-rss.mjs');
  if (!existsSync(hook)) {
    mkdirSync(toolsDir, { recursive: true });
    writeFileSync(
      hook,
      "import { writeFileSync } from 'node:fs';\n" +
        "process.on('exit', () => writeFileSync(process.env.QUADKIT_BENCH_RSS, String(process.resourceUsage().maxRSS)));\n",
    );
  }
  return hook;
}

/**
 * Runs a Node script as a child process, its standard output to `out`; returns its wall time in
 * ms (Node's start included, as a user runs it) and its peak RSS in MB.
 */
export function child(script, args, out) {
  const rss = join(toolsDir, `rss-${process.pid}`);
  const fd = openSync(out, 'w');
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(rssHook()).href, script, ...args],
    {
      stdio: ['ignore', fd, 'pipe'],
      env: { ...process.env, QUADKIT_BENCH_RSS: rss },
      maxBuffer: 1 << 26,
    },
  );
  const ms = performance.now() - t0;
  closeSync(fd);
  if (r.status !== 0)
    throw new Error(
      `${script} ${args.join(' ')} failed (${r.status}): ${String(r.stderr).slice(-400)}`,
    );
  const mb = Number(readFileSync(rss, 'utf8')) / 1024;
  rmSync(rss, { force: true });
  return { ms, mb };
}
