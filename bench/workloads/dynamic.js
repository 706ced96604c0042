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
import QuadtreeJS from '@timohausmann/quadtree-js';
import { Quadtree as QuadtreeTS, Rectangle } from '@timohausmann/quadtree-ts';
import { Box, System } from 'detect-collisions';
import Flatbush from 'flatbush';
import RBush from 'rbush';
import {
  randomBoxes,
  randomVelocities,
  stepBouncing,
  toMinMax,
  toRectangles,
  toXYWH,
} from '../data.js';
import { gc, mean, median, now, sink } from '../measure.js';
import { FLATBUSH_OBJECTS, TYPED_DOOR } from '../names.js';

export const id = 'dynamic';

const WORLD = 2000;
const MIN_SIZE = 2;
const MAX_SIZE = 20;
const MAX_SPEED = 2;
const BOUNDS = { x: 0, y: 0, width: WORLD, height: WORLD };

// quadtree-js/-ts settings per N, from a sweep of maxLevels 5–8 × maxObjects 8/16/32 on the
// clear+insert+retrieve frame below (median of 5 frames): flat within ~10% at 10k, maxLevels 6
// best at 50k, maxLevels 7 best at 100k (maxLevels 6 was ~1.1–1.5× slower there). The row for
// the nearest N is used.
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

const HARNESS = '(harness: stepBouncing only, no index)';

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
 * Pair results of one frame in `acc`: [count, order-independent 32-bit hash of the id pairs].
 * A typed array, so counting allocates nothing (a double in a closure variable would, per pair).
 */
function pairCounter() {
  const acc = new Int32Array(2);
  const onPair = (ia, ib) => {
    const lo = ia < ib ? ia : ib;
    const hi = ia < ib ? ib : ia;
    let h = Math.imul(lo + 1, 0x9e3779b1) ^ Math.imul(hi + 1, 0x85ebca77);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    acc[0]++;
    acc[1] += h ^ (h >>> 12);
  };
  return { acc, onPair };
}

/**
 * The rows: `setup()` (untimed) builds the index on the boxes at pos0 and returns `frame(pos)`,
 * which must write every box's new position into the library's items, update the index and
 * report each overlapping pair once via onPair. Only `name` and the flags are read when
 * listing the rows (ctx then holds only quadkit).
 */
function rowDefs({ quadkit, n, boxes, pos0, qt, onPair }) {
  const bounds = BOUNDS;
  const defs = [];
  const row = (name, flags, setup) => defs.push({ name, ...flags, setup });

  if (quadkit) {
    // quadkit: the caller mutates item.x / item.y, then tells the index: updateAll() once per
    // frame (re-reads every item, no lookups) or update(item) per item. pairs(cb) reports each
    // overlapping pair once; no de-duplication on the caller's side.
    const quadkitRow = (name, create, perItem) =>
      row(name, { quadkit: true }, () => {
        const items = toXYWH(boxes);
        const t = create();
        t.load(items);
        const cb = (a, b) => onPair(a.id, b.id);
        if (perItem) {
          return (p) => {
            for (let i = 0; i < n; i++) {
              const it = items[i];
              it.x = p[2 * i];
              it.y = p[2 * i + 1];
              t.update(it);
            }
            t.pairs(cb);
          };
        }
        return (p) => {
          for (let i = 0; i < n; i++) {
            const it = items[i];
            it.x = p[2 * i];
            it.y = p[2 * i + 1];
          }
          t.updateAll();
          t.pairs(cb);
        };
      });
    if (typeof quadkit.GridLooseQuadtree === 'function') {
      const grid = () => new quadkit.GridLooseQuadtree({ bounds });
      quadkitRow('quadkit GridLooseQuadtree updateAll() + pairs()', grid, false);
      quadkitRow('quadkit GridLooseQuadtree update() ×N + pairs()', grid, true);
    }
    // The typed-array door: the items are the numbers 0..n-1, their boxes (minX, minY, maxX,
    // maxY) in a Float64Array the index keeps; the frame writes the new boxes there, as the
    // flatbush row reads them from the frame's arrays, and pairs() reports the numbers.
    if (typeof quadkit.GridLooseQuadtree?.fromBoxes === 'function') {
      row(
        `quadkit GridLooseQuadtree updateAll() + pairs(), ${TYPED_DOOR}`,
        { quadkit: true },
        () => {
          const mm = new Float64Array(4 * n);
          const write = (p) => {
            for (let i = 0; i < n; i++) {
              const x = p[2 * i];
              const y = p[2 * i + 1];
              mm[4 * i] = x;
              mm[4 * i + 1] = y;
              mm[4 * i + 2] = x + boxes[4 * i + 2];
              mm[4 * i + 3] = y + boxes[4 * i + 3];
            }
          };
          write(pos0);
          const t = quadkit.GridLooseQuadtree.fromBoxes(mm, { bounds });
          return (p) => {
            write(p);
            t.updateAll();
            t.pairs(onPair);
          };
        },
      );
    }
    quadkitRow(
      'quadkit Quadtree (classic) updateAll() + pairs()',
      () => new quadkit.Quadtree({ bounds, looseness: 1 }),
      false,
    );
    quadkitRow(
      'quadkit Quadtree (loose ×2) updateAll() + pairs()',
      () => new quadkit.Quadtree({ bounds, looseness: 2 }),
      false,
    );
  }

  // Baseline: sort-and-sweep on x, written here. The boxes are kept in parallel arrays in minX
  // order; each frame rewrites their coordinates, restores the order by insertion sort (nearly
  // sorted after a small move: the classic frame-coherent sweep-and-prune), then sweeps: each
  // box meets the boxes after it whose minX is <= its maxX, and the y intervals are tested.
  row('baseline: sort-and-sweep (insertion sort, kept order)', { baseline: true }, () => {
    const s = sweepState(boxes, pos0);
    return (p) => {
      s.refresh(p);
      s.insertionSort();
      s.sweep(onPair);
    };
  });

  // The same sweep after a plain Array#sort of the ids by minX every frame (from last frame's
  // order, which V8's TimSort exploits: nearly sorted runs merge in about linear time).
  row('baseline: sort-and-sweep (Array#sort every frame)', { baseline: true }, () => {
    const s = sweepState(boxes, pos0);
    const order = Array.from(s.ids);
    const keyX = new Float64Array(n);
    const byX = (a, b) => keyX[a] - keyX[b];
    return (p) => {
      for (let i = 0; i < n; i++) keyX[i] = p[2 * i];
      order.sort(byX);
      for (let k = 0; k < n; k++) s.ids[k] = order[k];
      s.refresh(p);
      s.sweep(onPair);
    };
  });

  // flatbush: static, so rebuild every frame (add + finish), then search per box (indices),
  // keeping partners with a larger index so each pair is counted once. This row reads the
  // positions from the frame's typed array and reports indices: no objects at all.
  row('flatbush rebuild+search', {}, () => {
    return (p) => {
      const t = new Flatbush(n);
      for (let i = 0; i < n; i++) {
        const x = p[2 * i];
        const y = p[2 * i + 1];
        t.add(x, y, x + boxes[4 * i + 2], y + boxes[4 * i + 3]);
      }
      t.finish();
      for (let i = 0; i < n; i++) {
        const x = p[2 * i];
        const y = p[2 * i + 1];
        const found = t.search(x, y, x + boxes[4 * i + 2], y + boxes[4 * i + 3]);
        for (let k = 0; k < found.length; k++) if (found[k] > i) onPair(i, found[k]);
      }
    };
  });

  // flatbush fed the same objects as every other row: the frame writes the positions into the
  // objects, the rebuild reads them back, and the indices a search returns are mapped to the
  // objects, whose ids are reported (as a flatbush user holding objects does).
  row(FLATBUSH_OBJECTS, {}, () => {
    const items = toXYWH(boxes);
    return (p) => {
      for (let i = 0; i < n; i++) {
        const it = items[i];
        it.x = p[2 * i];
        it.y = p[2 * i + 1];
      }
      const t = new Flatbush(n);
      for (let i = 0; i < n; i++) {
        const it = items[i];
        t.add(it.x, it.y, it.x + it.width, it.y + it.height);
      }
      t.finish();
      for (let i = 0; i < n; i++) {
        const it = items[i];
        const found = t.search(it.x, it.y, it.x + it.width, it.y + it.height);
        for (let k = 0; k < found.length; k++) {
          if (found[k] > i) onPair(it.id, items[found[k]].id);
        }
      }
    };
  });

  // rbush, when everything moves: clear() + load() (bulk OMT) per frame, then search(item).
  row('rbush clear+load+search', {}, () => {
    const items = toMinMax(boxes);
    const t = new RBush();
    return (p) => {
      t.clear();
      for (let i = 0; i < n; i++) {
        const it = items[i];
        it.minX = p[2 * i];
        it.minY = p[2 * i + 1];
        it.maxX = it.minX + boxes[4 * i + 2];
        it.maxY = it.minY + boxes[4 * i + 3];
      }
      t.load(items);
      rbushPairs(t, items, onPair);
    };
  });

  // rbush, one by one: remove(item) while it still has its old bbox (it searches by bbox), then
  // mutate and insert(item); then search(item) per box.
  row('rbush remove+insert+search', {}, () => {
    const items = toMinMax(boxes);
    const t = new RBush();
    t.load(items);
    return (p) => {
      for (let i = 0; i < n; i++) {
        const it = items[i];
        t.remove(it);
        it.minX = p[2 * i];
        it.minY = p[2 * i + 1];
        it.maxX = it.minX + boxes[4 * i + 2];
        it.maxY = it.minY + boxes[4 * i + 3];
        t.insert(it);
      }
      rbushPairs(t, items, onPair);
    };
  });

  // quadtree-js: no update/remove in v1; its demos clear() and re-insert every frame, then
  // retrieve(item) per box (candidates), filtered to exact overlaps with a larger id.
  row('quadtree-js clear+insert+retrieve', {}, () => {
    const items = toXYWH(boxes);
    const t = new QuadtreeJS({ ...bounds }, qt.maxObjects, qt.maxLevels);
    return (p) => {
      t.clear();
      for (let i = 0; i < n; i++) {
        const it = items[i];
        it.x = p[2 * i];
        it.y = p[2 * i + 1];
        t.insert(it);
      }
      for (let i = 0; i < n; i++) {
        const it = items[i];
        const cands = t.retrieve(it);
        for (let k = 0; k < cands.length; k++) {
          const o = cands[k];
          if (
            o.id > it.id &&
            o.x <= it.x + it.width &&
            it.x <= o.x + o.width &&
            o.y <= it.y + it.height &&
            it.y <= o.y + o.height
          ) {
            onPair(it.id, o.id);
          }
        }
      }
    };
  });

  // quadtree-ts: update() is remove+insert and remove() walks the whole tree (O(N) each), so
  // clear() + re-insert is its practical per-frame path, as in quadtree-js.
  row('quadtree-ts clear+insert+retrieve', {}, () => {
    const items = toRectangles(boxes, Rectangle);
    const t = new QuadtreeTS({ ...bounds, maxObjects: qt.maxObjects, maxLevels: qt.maxLevels });
    return (p) => {
      t.clear();
      for (let i = 0; i < n; i++) {
        const it = items[i];
        it.x = p[2 * i];
        it.y = p[2 * i + 1];
        t.insert(it);
      }
      for (let i = 0; i < n; i++) {
        const it = items[i];
        const cands = t.retrieve(it);
        for (let k = 0; k < cands.length; k++) {
          const o = cands[k];
          if (
            o.data > it.data &&
            o.x <= it.x + it.width &&
            it.x <= o.x + o.width &&
            o.y <= it.y + it.height &&
            it.y <= o.y + o.height
          ) {
            onPair(it.data, o.data);
          }
        }
      }
    };
  });

  // detect-collisions (now check2d): Box bodies in a System (an rbush BVH). Per frame, as its
  // README shows: setPosition(x, y, false) batches the move, system.update() re-inserts every
  // moved body, system.checkAll(cb) runs SAT on every BVH candidate pair. checkAll reports each
  // colliding pair twice, (a, b) and (b, a): the callback keeps the one with a.id < b.id. The
  // callback returns undefined (a truthy return would stop checkAll).
  row('detect-collisions update+checkAll', {}, () => {
    const sys = new System();
    const bodies = new Array(n);
    for (let i = 0; i < n; i++) {
      bodies[i] = new Box(
        { x: pos0[2 * i], y: pos0[2 * i + 1] },
        boxes[4 * i + 2],
        boxes[4 * i + 3],
        {
          userData: i,
        },
      );
      sys.insert(bodies[i]);
    }
    const cb = (res) => {
      const a = res.a.userData;
      const b = res.b.userData;
      if (a < b) onPair(a, b);
    };
    return (p) => {
      for (let i = 0; i < n; i++) bodies[i].setPosition(p[2 * i], p[2 * i + 1], false);
      sys.update();
      sys.checkAll(cb);
    };
  });

  row(HARNESS, { baseline: true }, () => () => {});
  return defs;
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

function rbushPairs(t, items, onPair) {
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const found = t.search(it);
    for (let k = 0; k < found.length; k++) if (found[k].id > it.id) onPair(it.id, found[k].id);
  }
}

/**
 * Sort-and-sweep state: ids in minX order and the boxes' coordinates in the same order (parallel
 * typed arrays, so the sweep reads memory in order).
 */
function sweepState(boxes, pos0) {
  const n = boxes.length / 4;
  const w = new Float64Array(n);
  const h = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    w[i] = boxes[4 * i + 2];
    h[i] = boxes[4 * i + 3];
  }
  const ids = Int32Array.from(
    Array.from({ length: n }, (_, i) => i).sort((a, b) => pos0[2 * a] - pos0[2 * b]),
  );
  const x0 = new Float64Array(n);
  const x1 = new Float64Array(n);
  const y0 = new Float64Array(n);
  const y1 = new Float64Array(n);
  return {
    ids,
    /** Rewrites the coordinates of the boxes from positions `p`, in the current order. */
    refresh(p) {
      for (let k = 0; k < n; k++) {
        const i = ids[k];
        const x = p[2 * i];
        const y = p[2 * i + 1];
        x0[k] = x;
        x1[k] = x + w[i];
        y0[k] = y;
        y1[k] = y + h[i];
      }
    },
    /** Restores minX order (stable insertion sort: linear when the order barely changed). */
    insertionSort() {
      for (let k = 1; k < n; k++) {
        const key = x0[k];
        if (x0[k - 1] <= key) continue;
        const id = ids[k];
        const kx1 = x1[k];
        const ky0 = y0[k];
        const ky1 = y1[k];
        let j = k - 1;
        while (j >= 0 && x0[j] > key) {
          x0[j + 1] = x0[j];
          x1[j + 1] = x1[j];
          y0[j + 1] = y0[j];
          y1[j + 1] = y1[j];
          ids[j + 1] = ids[j];
          j--;
        }
        x0[j + 1] = key;
        x1[j + 1] = kx1;
        y0[j + 1] = ky0;
        y1[j + 1] = ky1;
        ids[j + 1] = id;
      }
    },
    /** Reports every overlapping pair once (closed intervals). */
    sweep(onPair) {
      for (let a = 0; a < n; a++) {
        const ax1 = x1[a];
        const ay0 = y0[a];
        const ay1 = y1[a];
        for (let b = a + 1; b < n && x0[b] <= ax1; b++) {
          if (y0[b] <= ay1 && ay0 <= y1[b]) onPair(ids[a], ids[b]);
        }
      }
    },
  };
}

function bruteForcePairs(boxes, p, onPair) {
  const n = boxes.length / 4;
  for (let i = 0; i < n; i++) {
    const ax = p[2 * i];
    const ay = p[2 * i + 1];
    const aX = ax + boxes[4 * i + 2];
    const aY = ay + boxes[4 * i + 3];
    for (let j = i + 1; j < n; j++) {
      const bx = p[2 * j];
      const by = p[2 * j + 1];
      if (bx <= aX && ax <= bx + boxes[4 * j + 2] && by <= aY && ay <= by + boxes[4 * j + 3]) {
        onPair(i, j);
      }
    }
  }
}

function fmt(ms) {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

function fmtK(n) {
  return n >= 1000 ? `${n / 1000}k` : String(n);
}
