// quadkit benchmark runner: runs each workload with quadkit and its peers, each workload (each
// part of one) in a Node process of its own, then prints one markdown table per workload and writes bench/results/latest.{md,json} (full runs)
// or bench/results/partial.{md,json} (--quick or filtered runs).
//
//   node bench/index.js            full run (a few minutes)
//   node bench/index.js --quick    smaller sizes, for smoke runs
//   node bench/index.js frame      only the workloads whose id contains "frame"
//   (ids: insert, query, frame, dynamic, depth, static, memory, mesh, raycast, force, cluster, geo,
//   batch)
//
// A workload may export `parts({ quick })`: then `run` is called once per part (`run({ part })`)
// and each part gets a table of its own (dynamic: one per N).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sink } from './measure.js';
import * as batch from './workloads/batch.js';
import * as cluster from './workloads/cluster.js';
import * as depth from './workloads/depth.js';
import * as dynamic from './workloads/dynamic.js';
import * as force from './workloads/force.js';
import * as frame from './workloads/frame.js';
import * as geo from './workloads/geo.js';
import * as insert from './workloads/insert-remove.js';
import * as memory from './workloads/memory.js';
import * as mesh from './workloads/mesh.js';
import * as query from './workloads/query.js';
import * as raycast from './workloads/raycast.js';
import * as staticData from './workloads/static.js';
import { OBJECT_DOOR } from './workloads/static-objects.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const WORKLOADS = [
  insert,
  query,
  frame,
  dynamic,
  depth,
  staticData,
  memory,
  mesh,
  raycast,
  force,
  cluster,
  geo,
  batch,
];

// Speed-up targets, checked against named rows (not just "the best peer").
// Optional: `n` picks one part of a multi-part workload (the result's `n`); `variant` keeps only
// the quadkit rows whose name contains it (is it, with `exact: true`); `zero: true` checks that the metric is 0 instead of a
// speed-up, and `maxAllocKB` that the row's `alloc` (KB allocated per frame) stays below it: a
// loop that allocates will collect garbage sooner or later, even with no GC in the frames measured.
const TARGETS = [
  {
    workload: 'insert',
    metric: 'insert',
    peer: 'fastest peer',
    factor: 2,
    text: 'one-by-one insert ≥ 2× faster than the fastest peer',
  },
  {
    workload: 'insert',
    metric: 'remove',
    peer: 'fastest peer',
    factor: 2,
    text: 'one-by-one remove ≥ 2× faster than the fastest peer',
  },
  {
    workload: 'query',
    metric: 'q0.01',
    peer: 'rbush',
    factor: 1,
    text: 'window queries (0.01%) at least as fast as rbush',
  },
  {
    workload: 'query',
    metric: 'q1',
    peer: 'rbush',
    factor: 1,
    text: 'window queries (1%) at least as fast as rbush',
  },
  {
    workload: 'frame',
    metric: 'frame',
    peer: 'rbush remove+insert+search',
    factor: 5,
    text: 'frame ≥ 5× faster than rbush remove+insert+search',
  },
  {
    workload: 'static-boxes',
    metric: 'build',
    peer: 'flatbush',
    factor: 2,
    variant: 'quadkit StaticQuadtree',
    exact: true,
    text: "StaticQuadtree builds 1M boxes in at most half of flatbush's time",
  },
  ...['q0', 'q1'].map((metric) => ({
    workload: 'static-boxes',
    metric,
    peer: 'flatbush',
    factor: 1.2,
    variant: 'quadkit StaticQuadtree',
    exact: true,
    text: `StaticQuadtree ${metric === 'q0' ? '0.01%' : '1%'} windows ≥ 1.2× faster than flatbush`,
  })),
  ...['knn1', 'knn10'].map((metric) => ({
    workload: 'static-boxes',
    metric,
    peer: 'flatbush',
    factor: 1,
    variant: 'quadkit StaticQuadtree',
    exact: true,
    text: `StaticQuadtree kNN (k = ${metric === 'knn1' ? 1 : 10}) at least as fast as flatbush's neighbors`,
  })),
  // The object doors (from(objects) and the query forms that return items) against the typed
  // doors (fromBoxes/fromPoints and the *Into forms) of the same run: within 1.3x.
  ...[
    ['static-boxes', ['build', 'q0', 'q1', 'radius', 'knn1', 'knn10']],
    ['static-points', ['build', 'radius', 'knn10']],
  ].flatMap(([workload, metrics]) =>
    metrics.map((metric) => ({
      workload,
      metric,
      peer: 'quadkit StaticQuadtree',
      variant: OBJECT_DOOR,
      factor: 1 / 1.3,
      text: `${workload.slice(7)} ${metric}: the object door within 1.3× of the typed door`,
    })),
  ),
  {
    workload: 'static-boxes',
    metric: 'build',
    peer: `flatbush ${OBJECT_DOOR}`,
    variant: OBJECT_DOOR,
    factor: 1,
    text: 'StaticQuadtree.from(objects) at least as fast as flatbush add() from the same objects',
  },
  {
    workload: 'static-point-inserts',
    metric: 'insert',
    peer: 'd3-quadtree add',
    factor: 2,
    text: 'PointQuadtree inserts ≥ 2× faster than d3-quadtree add',
  },
  ...[50_000, 100_000].flatMap((n) => [
    {
      workload: 'dynamic',
      n,
      metric: 'frame',
      peer: 'fastest peer',
      factor: 5,
      variant: 'GridLooseQuadtree',
      text: `dynamic scene, N = ${n / 1000}k: GridLooseQuadtree frame ≥ 5× faster than the fastest peer`,
    },
    {
      workload: 'dynamic',
      n,
      metric: 'gc',
      zero: true,
      maxAllocKB: 8,
      variant: 'GridLooseQuadtree updateAll',
      text: `dynamic scene, N = ${n / 1000}k: no GC in the steady-state frame loop (updateAll + pairs)`,
    },
  ]),
  ...['classic', 'flatbush'].map((peer) => ({
    workload: 'depth',
    worst: peer,
    text: `depth sweep: GridLooseQuadtree faster than ${peer === 'classic' ? 'the classic Quadtree' : 'flatbush'} in every scene (worst ratio < 1)`,
  })),
  ...['rss', 'heap'].map((metric) => ({
    workload: 'memory',
    metric,
    peer: 'flatbush',
    variant: 'quadkit StaticQuadtree',
    factor: 1,
    text: `static indexes keep at most flatbush's bytes per item (${metric === 'rss' ? 'RSS' : 'heap + buffers'})`,
  })),
  {
    workload: 'mesh-10k',
    metric: 'lookup',
    peer: 'linear scan',
    factor: 100,
    text: 'TriangleIndex locate on 10k triangles ≥ 100× faster than a linear scan',
  },
  ...[10_000, 100_000].map((n) => ({
    workload: 'force',
    n,
    metric: 'tick',
    peer: 'd3-force forceManyBody',
    factor: 2,
    text: `many-body force tick, N = ${n / 1000}k: ≥ 2× faster than d3-force's forceManyBody (theta 0.9)`,
  })),
  ...['cities', '1M'].map((part) => ({
    workload: `cluster-${part}`,
    metric: 'total',
    peer: 'supercluster',
    factor: 1.5,
    text: `clustering ${part === 'cities' ? 'the 135k cities' : '1M random points'} (load + getClusters of the world at zooms 0–16) ≥ 1.5× faster than supercluster`,
  })),
  {
    workload: 'geo-knn',
    metric: 'knn',
    peer: 'geokdbush around (kdbush)',
    factor: 1.5,
    text: 'great-circle kNN (k = 10) on the cities ≥ 1.5× faster than geokdbush on kdbush',
  },
  {
    workload: 'geo-pip',
    metric: 'join',
    peer: 'flatbush + turf booleanPointInPolygon',
    factor: 3,
    text: 'point-in-polygon join of 1M points to the countries ≥ 3× faster than flatbush + turf',
  },
  ...['knn1', 'knn10'].map((metric) => ({
    workload: 'batch',
    metric,
    peer: 'StaticQuadtree nearestInto, 1 thread (baseline)',
    factor: 1.7,
    variant: 'worker',
    text: `batch kNN (k = ${metric === 'knn1' ? 1 : 10}) ≥ 1.7x single-thread`,
  })),
];

async function main() {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const filters = args.filter((a) => !a.startsWith('--'));
  const selected = WORKLOADS.filter(
    (w) => !filters.length || filters.some((f) => w.id.includes(f)),
  );
  if (!selected.length) {
    console.error(`No workload matches ${filters.join(' ')}; ids: ${WORKLOADS.map((w) => w.id)}`);
    process.exit(1);
  }

  let quadkit = null;
  let quadkitNote = '';
  try {
    quadkit = await import('../dist/index.js');
    if (typeof quadkit.Quadtree !== 'function') throw new Error('no Quadtree export');
  } catch (e) {
    quadkit = null;
    quadkitNote = `quadkit not measured: ../dist/index.js did not load (${e.message.split('\n')[0]}); run \`npm run build\` first.`;
    console.error(quadkitNote);
  }

  // Child mode: run one part of one workload and print its result as JSON on stdout.
  const child = args.indexOf('--child');
  if (child >= 0) {
    const w = WORKLOADS.find((x) => x.id === args[child + 1]);
    const partArg = args[child + 2];
    const part = partArg === undefined || partArg === '-' ? undefined : JSON.parse(partArg);
    console.log = console.error; // stdout carries the result only
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await w.run({ quick, quadkit, part });
    const seconds = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    r.cpuShare = (c.user + c.system) / 1e6 / seconds;
    process.stdout.write(JSON.stringify({ result: r, sink: sink.value }));
    return;
  }

  const env = environment(quick);
  console.log(`${env.line}\n`);
  const results = [];
  for (const w of selected) {
    for (const part of w.parts ? w.parts({ quick }) : [undefined]) {
      const t0 = performance.now();
      const label = `${w.id}${part === undefined ? '' : ` (${part})`}`;
      console.error(`running ${label}${quick ? ' (quick)' : ''}...`);
      // Each part runs in a Node process of its own: a fresh heap and fresh JIT state, so that
      // no earlier workload's type feedback, optimized code or garbage shapes its timings (the
      // way an application that uses one kind of index runs).
      const out = execFileSync(
        process.execPath,
        [
          ...process.execArgv,
          fileURLToPath(import.meta.url),
          ...(quick ? ['--quick'] : []),
          '--child',
          w.id,
          part === undefined ? '-' : JSON.stringify(part),
        ],
        { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28 },
      );
      const { result: r, sink: value } = JSON.parse(out);
      sink.value += value;
      r.seconds = (performance.now() - t0) / 1000;
      r.warnings ??= [];
      // Share of the wall time the child was on a CPU. Well below 1 means other processes
      // competed for the cores and every timing of this workload is inflated by an unknown amount.
      // (A workload whose measurements run in child processes waits here: its share says nothing.)
      if (r.cpuShare < 0.9 && !r.inChildProcesses) {
        r.warnings.push(
          `this process ran only ${Math.round(r.cpuShare * 100)}% of the wall time ` +
            `(load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores): other processes ` +
            'competed for the CPU, so these timings are inflated and noisy; rerun on an idle machine',
        );
      }
      results.push(r);
      console.log(renderWorkload(r));
      console.error(
        `  ${label} took ${r.seconds.toFixed(1)} s (CPU share ${r.cpuShare.toFixed(2)})`,
      );
    }
  }
  const targets = renderTargets(results);

  const md = [
    '# quadkit benchmark results',
    '',
    env.line,
    quadkitNote ? `\n> ${quadkitNote}\n` : '',
    ...results.map(renderWorkload),
    targets,
  ].join('\n');
  if (targets) console.log(targets);

  // Only a full run of every workload replaces latest.*; smoke and filtered runs go to partial.*
  // (git-ignored) so they never overwrite the reference results.
  const name = quick || filters.length ? 'partial' : 'latest';
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', `${name}.md`), `${md.trim()}\n`);
  writeFileSync(
    join(here, 'results', `${name}.json`),
    `${JSON.stringify({ environment: env, quadkitNote, results, sink: sink.value }, null, 2)}\n`,
  );
  console.error(`wrote bench/results/${name}.md and ${name}.json (sink ${sink.value})`);
}

function environment(quick) {
  const cpu = cpus();
  const version = (name) => {
    try {
      const pkg = join(root, 'node_modules', ...name.split('/'), 'package.json');
      return JSON.parse(readFileSync(pkg, 'utf8')).version;
    } catch {
      return '?';
    }
  };
  // detect-collisions 10.x is a shim re-exporting check2d: both versions are recorded.
  const peers = [
    'rbush',
    'flatbush',
    '@timohausmann/quadtree-js',
    '@timohausmann/quadtree-ts',
    'detect-collisions',
    'check2d',
  ];
  const env = {
    date: new Date().toISOString(),
    cpu: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    node: process.version,
    v8: process.versions.v8,
    os: `${platform()} ${release()}`,
    quick,
    loadAverageAtStart: loadavg()[0],
    quadkit: quadkitVersion(),
    peers: Object.fromEntries(peers.map((p) => [p, version(p)])),
  };
  env.line =
    `Machine: ${env.cpu}, ${env.cores} cores, ${env.os}; Node ${env.node} (V8 ${env.v8}); ` +
    `${env.date}; load average at start ${env.loadAverageAtStart.toFixed(2)}` +
    `${quick ? '; **--quick run (small sizes)**' : ''}.\n` +
    `quadkit: ${env.quadkit}. Peers: ${peers.map((p) => `${p} ${env.peers[p]}`).join(', ')}.`;
  return env;
}

/** Which quadkit was measured: the commit, whether src/ differs from it, and when dist was built. */
function quadkitVersion() {
  const git = (...args) =>
    execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  let commit = 'no commit';
  let dirty = '';
  try {
    commit = git('rev-parse', '--short', 'HEAD');
  } catch {}
  try {
    if (git('status', '--porcelain', '--', 'src')) dirty = ' + uncommitted src changes';
  } catch {}
  let built = 'dist not built';
  try {
    built = `dist built ${statSync(join(root, 'dist', 'index.js')).mtime.toISOString()}`;
  } catch {}
  return `${commit}${dirty}, ${built}`;
}

// --- Tables ---

/**
 * A cell value is a number (ms), `{ ms, note }` (an estimate, shown with ≈ and the note),
 * `{ ms, tag }` (a measurement with an annotation), `{ na }` (not applicable, with the reason) or
 * `{ text }` (plain text, e.g. a check result).
 */
const msOf = (v) => (typeof v === 'number' ? v : v && typeof v.ms === 'number' ? v.ms : null);

function bestPeer(rows, key) {
  let best = null;
  for (const r of rows) {
    const ms = msOf(r.values[key]);
    if (r.quadkit || ms === null || r.noBest?.includes(key)) continue;
    if (!best || ms < best.ms) best = { ms, name: r.name };
  }
  return best;
}

function fmtMs(ms) {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

function fmtNs(ns) {
  return ns >= 1e6
    ? `${(ns / 1e6).toFixed(2)} ms`
    : ns >= 1e3
      ? `${(ns / 1e3).toFixed(1)} µs`
      : `${ns.toFixed(0)} ns`;
}

function cell(v, metric) {
  if (v === undefined || v === null) return '—';
  if (v.na) return v.na;
  if (v.text) return v.text; // plain text (a check result)
  const ms = msOf(v);
  const unit = metric.unit ?? 'ms';
  let s = unit === 'ms' ? fmtMs(ms) : Number.isInteger(ms) ? String(ms) : ms.toFixed(1);
  if (metric.ops && unit === 'ms') s += ` (${fmtNs((ms * 1e6) / metric.ops)}/op)`;
  if (v.note) s = `≈ ${s} *(${v.note})*`; // an estimate
  if (v.tag) s = `${s} *(${v.tag})*`; // a plain annotation
  return s;
}

function ratioCell(row, metric, best) {
  const ms = msOf(row.values[metric.key]);
  if (ms === null || !best) return '';
  const r = ms / best.ms;
  if (!row.quadkit) return r === 1 ? '1.00 (best peer)' : r.toFixed(2);
  const speedup = best.ms / ms;
  return speedup >= 1
    ? `${r.toFixed(2)} (**${speedup.toFixed(1)}× faster**)`
    : `${r.toFixed(2)} (${(1 / speedup).toFixed(1)}× slower)`;
}

function renderWorkload(w) {
  const head = ['Library'];
  for (const m of w.metrics) {
    head.push(m.label + (m.unit && m.unit !== 'ms' ? '' : ' (ms)'));
    if (m.compare) head.push('vs fastest peer');
  }
  const bests = Object.fromEntries(w.metrics.map((m) => [m.key, bestPeer(w.rows, m.key)]));
  const lines = [
    `## ${w.title}`,
    '',
    w.setup,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
  ];
  for (const row of w.rows) {
    const cells = [row.quadkit ? `**${row.name}**` : row.name];
    for (const m of w.metrics) {
      cells.push(cell(row.values[m.key], m));
      if (m.compare) cells.push(ratioCell(row, m, bests[m.key]));
    }
    lines.push(`| ${cells.join(' | ')} |`);
  }
  for (const warning of w.warnings ?? []) lines.push(`| ⚠️ **WARNING**: ${warning} |`);
  lines.push('');
  const best = w.metrics
    .filter((m) => m.compare && bests[m.key])
    .map((m) => `${m.label}: ${bests[m.key].name}`);
  if (best.length) lines.push(`Fastest peer per column: ${best.join('; ')}.`, '');
  for (const note of w.notes ?? []) lines.push(`- ${note}`);
  if (w.notes?.length) lines.push('');
  return lines.join('\n');
}

function renderTargets(results) {
  const lines = [];
  for (const t of TARGETS) {
    const w = results.find((r) => r.id === t.workload && (t.n === undefined || r.n === t.n));
    if (!w) {
      const others = results.filter((r) => r.id === t.workload).map((r) => r.n);
      if (others.length) {
        lines.push(`| ${t.text} | — | — | not measured (this run: N = ${others.join(', ')}) |`);
      }
      continue;
    }
    if (t.worst) {
      const r = w.worst?.[t.worst];
      if (r === undefined) lines.push(`| ${t.text} | — | — | not measured |`);
      else {
        const status = r < 1 ? '✅ met' : '❌ not met';
        lines.push(`| ${t.text} | GridLooseQuadtree | worst ${r.toFixed(2)} | ${status} |`);
      }
      continue;
    }
    const qk = w.rows.filter(
      (r) =>
        r.quadkit &&
        msOf(r.values[t.metric]) !== null &&
        (!t.variant || (t.exact ? r.name === t.variant : r.name.includes(t.variant))),
    );
    if (t.zero) {
      if (!qk.length) lines.push(`| ${t.text} | — | — | not measured |`);
      for (const r of qk) {
        const v = msOf(r.values[t.metric]);
        const frames = r.frames ? ` in ${r.frames} frames` : '';
        const alloc = t.maxAllocKB === undefined ? null : msOf(r.values.alloc);
        const allocText = alloc === null ? '' : `, ${alloc} KB/frame allocated`;
        const status =
          v !== 0
            ? '❌ not met'
            : alloc !== null && alloc > t.maxAllocKB
              ? `⚠️ no GC in these frames, but the loop allocates (> ${t.maxAllocKB} KB/frame): it will collect in a longer run`
              : '✅ met';
        lines.push(`| ${t.text} | ${r.name} | ${v} GC${frames}${allocText} | ${status} |`);
      }
      continue;
    }
    const peer =
      t.peer === 'fastest peer'
        ? bestPeer(w.rows, t.metric)
        : w.rows
            .filter((r) => r.name === t.peer)
            .map((r) => ({ ms: msOf(r.values[t.metric]), name: r.name }))[0];
    if (!qk.length || !peer?.ms) {
      lines.push(`| ${t.text} | — | — | not measured |`);
      continue;
    }
    for (const r of qk) {
      const speedup = peer.ms / msOf(r.values[t.metric]);
      const ok = speedup >= t.factor;
      lines.push(
        `| ${t.text} | ${r.name} | ${speedup.toFixed(2)}× vs ${peer.name} | ${ok ? '✅ met' : '❌ not met'} |`,
      );
    }
  }
  if (!lines.length) return '';
  return [
    '## Speed-up targets',
    '',
    '| Target | quadkit variant | Measured | Status |',
    '| --- | --- | ---: | --- |',
    ...lines,
    '',
  ].join('\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
