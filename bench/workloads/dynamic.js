// Workload 4: a dynamic scene, at several N. N boxes bounce around a 2000×2000 world; every frame
// moves every box, brings the index up to date and finds every overlapping pair exactly once.
// One table per N (see `parts`); the GC columns show what each frame loop leaves to the collector.
//
// Each row runs in a worker thread of its own (a fresh V8 isolate: its own heap and JIT state),
// so no row inherits the previous rows' garbage, heap sizing or type feedback: in one shared
// isolate, flatbush at 100k ran with ~15× more scavenges and 1.4–2.3× slower after the 50k rows
// had run than in a process of its own.

import { GCProfiler, getHeapStatistics } from 'node:v8';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { randomBoxes, randomVelocities, stepBouncing, toXYWH } from '../data.js';
import { gc, mean, median, now, sink } from '../measure.js';
import { FLATBUSH_OBJECTS } from '../names.js';
import { BOUNDS, bruteForcePairs, pairCounter, rowDefs, WORLD } from './dynamic-rows.js';

export const id = 'dynamic';

const MIN_SIZE = 2;
const MAX_SIZE = 20;
const MAX_SPEED = 2;

// quadtree-js/-ts settings per N, from a sweep of maxLevels 5–8 × maxObjects 8/16/32 on their
// clear+insert+retrieve frame (dynamic-rows.js; median of 5 frames): flat within ~10% at 10k,
// maxLevels 6 best at 50k, maxLevels 7 best at 100k (maxLevels 6 was ~1.1–1.5× slower there).
// The row for the nearest N is used.
const QT_SETTINGS = [
  { n: 10_000, maxObjects: 16, maxLevels: 6 },
  { n: 50_000, maxObjects: 16, maxLevels: 6 },
  { n: 100_000, maxObjects: 16, maxLevels: 7 },
];
// Slow rows stop warming up after the warm-up budget (at least MIN_WARM frames) and stop
// measuring after the measured budget (at least MIN_MEASURED frames); only slow peers at large N
// reach a budget, and their cells say so.
const MIN_WARM = 2;
/** Warm-up frames run after a full collection, just before the measured ones (see measureRow). */
const REWARM = 15;
const MIN_MEASURED = 5;
// Workers per row in a full run (a row is the median of them; one worker's frames moved by up to
// a quarter from one run to the next).
const WORKERS = 3;

/** The N of each table: the runner calls `run` once per part. */
export function parts({ quick }) {
  return quick ? [2_000, 5_000, 10_000] : [10_000, 50_000, 100_000];
}

/** Frame counts and budgets of a run. */
function config(quick, n) {
  return {
    // Warm-up frames: V8 must have optimized the row's code before the measured frames (the
    // first frames run in the interpreter, which allocates: no steady state). Short frames need
    // more of them; slow rows hit the warm-up budget first. 20 frames were too few at 50k and
    // 100k: some runs still measured code that V8 had not yet optimised (and allocated).
    warmFrames: quick ? 30 : 150,
    measuredFrames: quick ? 10 : 30,
    warmBudgetMs: quick ? 1_000 : 3_000,
    measuredBudgetMs: quick ? 2_000 : 9_000,
    qt: QT_SETTINGS.reduce((a, b) => (Math.abs(b.n - n) < Math.abs(a.n - n) ? b : a)),
  };
}

/** The seeded scene: sizes in `boxes` ([x, y, w, h] * n), start positions and velocities. */
function scene(n) {
  const boxes = randomBoxes(n, { world: WORLD, minSize: MIN_SIZE, maxSize: MAX_SIZE, seed: 7 });
  const vel0 = randomVelocities(n, { maxSpeed: MAX_SPEED, seed: 8 });
  const pos0 = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    pos0[2 * i] = boxes[4 * i];
    pos0[2 * i + 1] = boxes[4 * i + 1];
  }
  return { boxes, pos0, vel0 };
}

/**
 * Worker side: measures one row. Each timed frame is stepBouncing + frame; frame f is the scene
 * after f + 1 steps in every row. GC events and allocation are recorded over the measured
 * frames only, which start after a full gc().
 */
function measureRow({ quick, n, name, quadkit }) {
  const { warmFrames, measuredFrames, warmBudgetMs, measuredBudgetMs, qt } = config(quick, n);
  const { boxes, pos0, vel0 } = scene(n);
  const { acc, onPair } = pairCounter();
  const def = rowDefs({ quadkit, n, boxes, pos0, qt, onPair }).find((d) => d.name === name);
  const pos = pos0.slice();
  const vel = vel0.slice();
  const frame = def.setup();
  const counts = new Int32Array(warmFrames + measuredFrames).fill(-1);
  const sums = new Int32Array(warmFrames + measuredFrames);
  const times = new Float64Array(measuredFrames);
  const one = (f) => {
    acc[0] = 0;
    acc[1] = 0;
    const t0 = now();
    stepBouncing(pos, vel, boxes, WORLD);
    frame(pos);
    const t = now() - t0;
    counts[f] = acc[0];
    sums[f] = acc[1];
    return t;
  };
  gc();
  let f = 0;
  let warmSpent = 0;
  while (f < warmFrames - REWARM && (f < MIN_WARM || warmSpent < warmBudgetMs)) {
    warmSpent += one(f++);
  }
  // A full collection here made V8 compile the row's functions again during the first frames
  // after it (at 50k boxes, 16-240 KB/frame of boxed numbers in the measured frames, no GC):
  // the warm-up ends with a collection and a few more frames, then the collection before the
  // measurement finds them compiled.
  gc();
  const rewarmEnd = Math.min(warmFrames, f + REWARM);
  const rewarmBudget = warmSpent + warmBudgetMs / 4;
  while (f < rewarmEnd && (f < MIN_WARM || warmSpent < rewarmBudget)) warmSpent += one(f++);
  const warmDone = f;
  gc();
  const heap0 = getHeapStatistics().used_heap_size;
  const profiler = new GCProfiler();
  profiler.start();
  let m = 0;
  let spent = 0;
  while (m < measuredFrames && (m < MIN_MEASURED || spent < measuredBudgetMs)) {
    const t = one(f++);
    times[m++] = t;
    spent += t;
  }
  const heap1 = getHeapStatistics().used_heap_size;
  const gcs = profiler.stop().statistics;
  let freed = 0;
  for (const s of gcs) {
    freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize;
  }
  const ts = times.subarray(0, m);
  const frameMean = mean(ts);
  sink.value += counts[f - 1];
  const caps = [];
  if (m < measuredFrames) caps.push(`${m} of ${measuredFrames} frames`);
  if (warmDone < warmFrames) caps.push(`warm-up ${warmDone} of ${warmFrames}`);
  const tag = caps.length ? `capped by time: ${caps.join(', ')}` : undefined;
  const kb = (heap1 - heap0 + freed) / 1024 / m;
  console.error(
    `    ${name}: ${fmt(frameMean)} ms/frame (${m} frames after ${warmDone}), ` +
      `${gcs.length} GC, ${kb.toFixed(1)} KB/frame`,
  );
  return {
    name,
    quadkit: !!def.quadkit,
    noBest: def.baseline ? ['frame'] : undefined,
    values: {
      frame: tag ? { ms: frameMean, tag } : frameMean,
      median: median(ts),
      pairs: Math.round(mean(Array.from(counts.subarray(warmDone, f)))),
      gc: gcs.length ? { ms: gcs.length, tag: gcTypes(gcs) } : 0,
      alloc: kb >= 10 ? Math.round(kb) : Math.round(kb * 10) / 10,
    },
    frames: m,
    warmFrames: warmDone,
    counts,
    sums,
    sink: sink.value,
  };
}

// A worker started by `inWorker` measures its row and posts the result.
if (!isMainThread && workerData?.dynamicRow) {
  const job = workerData.dynamicRow;
  const quadkit = job.withQuadkit ? await import('../../dist/index.js') : null;
  parentPort.postMessage(measureRow({ ...job, quadkit }));
}

/**
 * One row from the results of its workers: the worker whose mean frame is the median, with the
 * most GC events and allocation any of them saw (a GC in one worker is a GC).
 */
function medianWorker(runs) {
  const byFrame = [...runs].sort((a, b) => msOfValue(a.values.frame) - msOfValue(b.values.frame));
  const row = byFrame[byFrame.length >> 1];
  for (const r of runs) {
    if (msOfValue(r.values.gc) > msOfValue(row.values.gc)) row.values.gc = r.values.gc;
    if (r.values.alloc > row.values.alloc) row.values.alloc = r.values.alloc;
  }
  return row;
}

/** Runs `measureRow` in a fresh worker thread; resolves to its result. */
function inWorker(job) {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { dynamicRow: job } });
    let result = null;
    w.once('message', (r) => {
      result = r;
    });
    w.once('error', reject);
    w.once('exit', (code) => {
      if (result) resolve(result);
      else reject(new Error(`worker exited with code ${code} and no result`));
    });
  });
}

export async function run({ quick, quadkit, part }) {
  const n = part ?? parts({ quick })[0];
  const { warmFrames, measuredFrames, warmBudgetMs, measuredBudgetMs, qt } = config(quick, n);
  const maxFrames = warmFrames + measuredFrames;
  const warnings = [];
  if (quadkit && typeof quadkit.GridLooseQuadtree !== 'function') {
    warnings.push('quadkit GridLooseQuadtree not measured: dist has no GridLooseQuadtree export');
  }
  const workers = quick ? 1 : WORKERS;
  // Round k runs every row's k-th worker, so that each row's runs are spread over the whole
  // table's time: the machine's speed drifts by tens of percent over minutes here, and a row
  // whose runs all fell in one slow stretch compared badly with its neighbours.
  const defs = rowDefs({ quadkit });
  const runs = defs.map(() => []);
  const failed = defs.map(() => null);
  for (let k = 0; k < workers; k++) {
    for (const [i, { name }] of defs.entries()) {
      if (failed[i] !== null) continue;
      try {
        const r = await inWorker({ quick, n, name, withQuadkit: !!quadkit });
        sink.value += r.sink;
        delete r.sink;
        runs[i].push(r);
      } catch (e) {
        failed[i] = String(e?.message ?? e).split('\n')[0];
      }
    }
  }
  const rows = defs.map(({ name }, i) => {
    if (failed[i] === null) return medianWorker(runs[i]);
    warnings.push(`${name}: failed (${failed[i]})`);
    return {
      name,
      quadkit: name.startsWith('quadkit'),
      values: { frame: { na: 'failed' } },
      counts: new Int32Array(maxFrames).fill(-1),
      sums: new Int32Array(maxFrames),
    };
  });
  const calibration = rows.pop();
  const { boxes, pos0, vel0 } = scene(n);
  // The depth GridLooseQuadtree chooses at load for this scene (for the notes).
  const gridDepth =
    typeof quadkit?.GridLooseQuadtree === 'function'
      ? new quadkit.GridLooseQuadtree({ bounds: BOUNDS }).load(toXYWH(boxes)).depth
      : null;
  const { acc, onPair } = pairCounter();
  const pos = pos0.slice();
  const vel = vel0.slice();

  // Checks: in every frame, all rows that ran it must report the same pairs (count and id-pair
  // hash); a row that differs from the majority is flagged. Frame 0 is also checked against
  // brute force when N is small enough.
  let brute = null;
  if (n <= 50_000) {
    stepBouncing(pos, vel, boxes, WORLD);
    acc[0] = 0;
    acc[1] = 0;
    bruteForcePairs(boxes, pos, onPair);
    brute = { count: acc[0], sum: acc[1] };
  }
  for (const r of rows) r.bad = [];
  for (let f = 0; f < maxFrames; f++) {
    const ran = rows.filter((r) => r.counts[f] !== -1);
    if (ran.length < 2) continue;
    const tally = new Map();
    for (const r of ran) {
      const key = `${r.counts[f]}/${r.sums[f]}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
    }
    const [majority] = [...tally].sort((a, b) => b[1] - a[1])[0];
    const [mCount] = majority.split('/').map(Number);
    for (const r of ran) {
      if (`${r.counts[f]}/${r.sums[f]}` !== majority) r.bad.push({ f, mCount });
    }
    if (tally.size > 1 && tally.get(majority) * 2 <= ran.length) {
      warnings.push(`frame ${f}: no majority among the rows' pair sets (${tally.size} variants)`);
    }
  }
  for (const r of rows) {
    let checked = 0;
    for (let f = 0; f < maxFrames; f++) {
      if (r.counts[f] !== -1 && rows.some((o) => o !== r && o.counts[f] !== -1)) checked++;
    }
    const bruteBad =
      brute && r.counts[0] !== -1 && (r.counts[0] !== brute.count || r.sums[0] !== brute.sum);
    r.values.check = {
      text: !checked
        ? '—'
        : r.bad.length
          ? `❌ ${r.bad.length} of ${checked} frames differ`
          : `✓ ${checked} frames${brute ? (bruteBad ? ', ❌ brute force' : ' + brute force') : ''}`,
    };
    if (r.bad.length) {
      const { f, mCount } = r.bad[0];
      warnings.push(
        `${r.name}: pairs differ from the other rows in ${r.bad.length} frame(s); first: ` +
          `frame ${f}, ${r.counts[f]} pairs vs ${mCount}` +
          (r.counts[f] === mCount ? ' (same count, different pairs)' : ''),
      );
    }
    if (bruteBad) {
      warnings.push(
        `${r.name}: frame 0 has ${r.counts[0]} pairs, brute force ${brute.count}` +
          (r.counts[0] === brute.count ? ' (same count, different pairs)' : ''),
      );
    }
  }

  const grid = rows.find((r) => r.name === 'quadkit GridLooseQuadtree updateAll() + pairs()');
  const sweep = rows.find((r) => r.name.startsWith('baseline: sort-and-sweep (insertion'));
  const notes = [
    'Pairs are counted once each: quadkit `pairs()` by construction; flatbush, rbush and ' +
      'quadtree-js/-ts by keeping only partners with a larger id (quadtree-js/-ts candidates ' +
      'filtered with a closed-interval overlap test); detect-collisions by keeping the (a, b) ' +
      'report with a.id < b.id (its checkAll reports every colliding pair in both orders; on ' +
      'axis-aligned boxes its SAT test is the closed AABB test).',
    '"Same pairs": in every frame, every row that ran it is compared with the others (pair ' +
      'count and an order-independent 32-bit hash of the id pairs); a row that differs from ' +
      'the majority is flagged' +
      (brute
        ? '. Frame 0 is also checked against brute force.'
        : '. No brute-force check at this N (too slow).') +
      ' pairs/frame is the mean over the frames the row measured (capped rows measured ' +
      'earlier frames, so their means may differ slightly).',
    (workers === 1
      ? 'Each row runs in a worker thread of its own'
      : `Each row is the median of ${workers} runs by mean frame (the rows take turns: every ` +
        "row's first run, then every row's second, and so on), each in a worker thread of its own") +
      ' (a fresh V8 isolate: no heap or JIT state left by other rows). GC events: collections ' +
      'of any kind (v8.GCProfiler) during the measured frames, which start after a full gc(); ' +
      'allocated KB/frame: heap growth over the measured frames plus what each collection ' +
      'freed, per frame' +
      (workers === 1 ? '' : `; both the most any of the ${workers} runs saw`) +
      '. GC counts also depend ' +
      "on V8's young-generation sizing, so compare them by order of magnitude; zero means " +
      'zero. The harness alone (stepBouncing, timers, no ' +
      `index) allocates ${calibration.values.alloc} KB/frame with ` +
      `${msOfValue(calibration.values.gc)} GC events.`,
    `Slow rows stop warming up after ${warmBudgetMs / 1000} s (at least ${MIN_WARM} frames) ` +
      `and measuring after ${measuredBudgetMs / 1000} s (at least ${MIN_MEASURED} frames), ` +
      'marked "capped by time": they measure earlier frames of the same scene.',
    `quadtree-js/-ts: maxObjects ${qt.maxObjects}, maxLevels ${qt.maxLevels} (tuned for this N, ` +
      'see source); rbush and detect-collisions maxEntries 9, flatbush nodeSize 16 (defaults); ' +
      'detect-collisions bodies have no padding (its default). quadkit GridLooseQuadtree: ' +
      (gridDepth === null
        ? 'depth chosen from the items'
        : `depth chosen from the items (${gridDepth})`) +
      '; Quadtree: default maxObjects/maxLevels.',
    'Every row but "flatbush rebuild+search" holds the boxes as objects ({ id, x, y, width, ' +
      'height } or its own format) and reports the ids of the objects; "flatbush ' +
      'rebuild+search" reads the positions from the typed array the frame is computed in and ' +
      `reports indices, with no object touched; "${FLATBUSH_OBJECTS}" is flatbush used on the ` +
      'same objects as the other rows (positions written into them, the rebuild reading them, ' +
      'indices mapped to them).',
    'The sort-and-sweep rows are a baseline written in this file, not a peer library: they are ' +
      'left out of "fastest peer"' +
      (grid && sweep ? `; GridLooseQuadtree updateAll() + pairs() ${vsSweep(grid, sweep)}.` : '.'),
  ];

  return {
    id,
    n,
    title: `Dynamic scene, N = ${fmtK(n)}: move every box, update the index, find all overlapping pairs`,
    setup:
      `${n.toLocaleString('en-US')} boxes of width and height uniform in ${MIN_SIZE}–${MAX_SIZE} ` +
      `units, uniform in a ${WORLD}×${WORLD} world (seeded), each with a constant velocity ` +
      `(uniform direction, speed uniform in 0–${MAX_SPEED} units/frame), bouncing off the ` +
      'edges. A frame moves every box (the same arithmetic for every row, inside the timed ' +
      "frame), writes the new positions into the library's items, updates the index and " +
      `reports every overlapping pair (closed intervals) exactly once. Mean and median ms per ` +
      `frame over ${measuredFrames} frames after ${warmFrames} warm-up frames; frame f is the same ` +
      'scene in every row.',
    metrics: [
      { key: 'frame', label: 'frame, mean', compare: true },
      { key: 'median', label: 'frame, median' },
      { key: 'pairs', label: 'pairs/frame', unit: 'count' },
      { key: 'check', label: 'same pairs as the other rows', unit: 'count' },
      { key: 'gc', label: 'GC events (measured frames)', unit: 'count' },
      { key: 'alloc', label: 'allocated KB/frame', unit: 'KB' },
    ],
    rows: rows.map(({ counts, sums, bad, ...r }) => r),
    warnings,
    notes,
  };
}

function vsSweep(grid, sweep) {
  const r = msOfValue(sweep.values.frame) / msOfValue(grid.values.frame);
  return r >= 1
    ? `is ${r.toFixed(1)}× faster than the insertion-sort sweep`
    : `is ${(1 / r).toFixed(1)}× slower than the insertion-sort sweep`;
}

function msOfValue(v) {
  return typeof v === 'number' ? v : (v?.ms ?? Number.NaN);
}

function gcTypes(stats) {
  const by = {};
  for (const s of stats) by[s.gcType] = (by[s.gcType] ?? 0) + 1;
  return Object.entries(by)
    .map(([type, k]) => `${k} ${type}`)
    .join(', ');
}

function fmt(ms) {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

function fmtK(n) {
  return n >= 1000 ? `${n / 1000}k` : String(n);
}
