// quadkit benchmark runner: runs each workload with quadkit and its peers, each workload (each
// part of one) in a Node process of its own, then prints one markdown table per workload and
// writes bench/results/latest.{md,json} (full runs) or bench/results/partial.{md,json} (--quick
// or filtered runs).
//
//   node bench/index.js            full run (a few minutes)
//   node bench/index.js --quick    smaller sizes, for smoke runs
//   node bench/readme.js           the README's performance tables from latest.json (npm run bench:readme)
//   node bench/index.js frame      only the workloads whose id contains "frame"
//   (ids: insert, load, query, frame, dynamic, depth, static, doors, memory, mesh, raycast, force,
//   cluster, geo, batch, cold, files)
//   node bench/index.js cold       the cold and warm tables only (about 12 minutes)
//   node bench/index.js files      the files tables only (reading MB/s, joins; installs mapshaper
//                                  into a cache folder outside the project when missing)
//
// A workload may export `parts({ quick })`: then `run` is called once per part (`run({ part })`)
// and each part gets a table of its own (dynamic: one per N).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sink } from './measure.js';
import { medianResult } from './median.js';
import { renderTargets, renderWorkload } from './render.js';
import * as batch from './workloads/batch.js';
import * as cluster from './workloads/cluster.js';
import * as cold from './workloads/cold.js';
import * as depth from './workloads/depth.js';
import * as doors from './workloads/doors.js';
import * as dynamic from './workloads/dynamic.js';
import * as files from './workloads/files.js';
import * as force from './workloads/force.js';
import * as frame from './workloads/frame.js';
import * as geo from './workloads/geo.js';
import * as insert from './workloads/insert-remove.js';
import * as load from './workloads/load.js';
import * as memory from './workloads/memory.js';
import * as mesh from './workloads/mesh.js';
import * as query from './workloads/query.js';
import * as raycast from './workloads/raycast.js';
import * as staticData from './workloads/static.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const WORKLOADS = [
  insert,
  load,
  query,
  frame,
  dynamic,
  depth,
  staticData,
  doors,
  memory,
  mesh,
  raycast,
  force,
  cluster,
  geo,
  batch,
  cold,
  files,
];

async function main() {
  const args = process.argv.slice(2);
  if (args.includes('--render')) {
    renderSaved();
    return;
  }
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
    const split = args[child + 3];
    console.log = console.error; // stdout carries the result only
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await w.run({ quick, quadkit, part, split });
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
      // A workload may ask for several processes (`processes`): each cell is then their median.
      // A workload may also split a part's rows over processes (`splits`, one process each,
      // joined into one result by its `join`): rows whose code paths would shape each other's
      // JIT state then run apart.
      const runs = [];
      const splits = w.splits ? w.splits(part) : [undefined];
      for (let k = 0; k < (quick ? 1 : (w.processes ?? 1)); k++) {
        const pieces = splits.map((split) => {
          const out = execFileSync(
            process.execPath,
            [
              ...process.execArgv,
              fileURLToPath(import.meta.url),
              ...(quick ? ['--quick'] : []),
              '--child',
              w.id,
              part === undefined ? '-' : JSON.stringify(part),
              ...(split === undefined ? [] : [split]),
            ],
            {
              cwd: root,
              encoding: 'utf8',
              stdio: ['ignore', 'pipe', 'inherit'],
              maxBuffer: 1 << 28,
            },
          );
          const { result, sink: value } = JSON.parse(out);
          sink.value += value;
          return result;
        });
        runs.push(pieces.length === 1 ? pieces[0] : w.join(pieces));
      }
      const r = medianResult(runs);
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
      // A workload that measures in processes of its own says what they took on a CPU: about
      // what they would take on an idle machine.
      if (r.processSeconds) {
        const { wall, cpu } = r.processSeconds;
        console.error(`  its processes: ${wall.toFixed(1)} s, ${cpu.toFixed(1)} s of it on a CPU`);
      }
    }
  }
  const targets = renderTargets(results);
  const md = markdown(env, quadkitNote, results, targets);
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

// The markdown of a run: its environment, a table per workload, the targets table.
function markdown(env, quadkitNote, results, targets) {
  return [
    '# quadkit benchmark results',
    '',
    env.line,
    quadkitNote ? `\n> ${quadkitNote}\n` : '',
    ...results.map(renderWorkload),
    targets,
  ].join('\n');
}

// `--render`: writes latest.md again from latest.json, the same measurements under the current
// tables and targets (after a change to how they are shown or judged, not to what is measured).
function renderSaved() {
  const file = join(here, 'results', 'latest.json');
  const { environment: env, quadkitNote, results } = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(
    join(here, 'results', 'latest.md'),
    `${markdown(env, quadkitNote, results, renderTargets(results)).trim()}\n`,
  );
  console.error('wrote bench/results/latest.md from latest.json');
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

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
