// Timing helpers shared by the workloads.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Expose the garbage collector without a command-line flag, so `node bench/index.js` can start
// every measurement from a clean heap (less noise from the previous library's garbage).
setFlagsFromString('--expose-gc');
const gcFn = runInNewContext('gc');

export function gc() {
  gcFn();
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * A full collection, then a pause of 100 ms in which V8's background threads finish sweeping
 * what it collected. A build timed right after gc() otherwise shares the memory bus with them:
 * on a 2-core machine, 1M boxes through StaticQuadtree.from(objects) took a median of 85 ms
 * right after gc() and 72 ms after the pause (12 builds of each, alternating).
 */
export function settle() {
  gc();
  Atomics.wait(PAUSE, 0, 0, 100);
}

export const now = () => performance.now();

/** Results are folded into this so the JIT cannot drop the work as dead code. */
export const sink = { value: 0 };

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function mean(xs) {
  let t = 0;
  for (const x of xs) t += x;
  return t / xs.length;
}

/**
 * Runs `setup()` (untimed) then `run(state)` (timed, returns a number folded into the sink),
 * `warmup` times without recording and `runs` times recorded. Returns the times in ms and the
 * value `run` returned the last time (used to compare result counts between libraries).
 * `gcEach`: collect garbage before every run (off when the heap is huge and a full GC is slow).
 * `warmMs`: keep warming up until the warm-up runs took that long in all (at most `maxWarmup`
 * runs), so that short runs are measured once the code they run is optimized.
 */
export function repeat({
  setup = () => undefined,
  run,
  warmup = 1,
  runs = 5,
  gcEach = true,
  warmMs = 0,
  maxWarmup = warmup,
}) {
  const times = [];
  let result;
  let warmed = 0;
  let warm = 0;
  while (times.length < runs) {
    const state = setup();
    if (gcEach) gc();
    const t0 = now();
    result = run(state);
    const t = now() - t0;
    sink.value += typeof result === 'number' ? result : 0;
    if (warmed < warmup || (warm < warmMs && warmed < maxWarmup)) {
      warmed++;
      warm += t;
    } else times.push(t);
  }
  return { times, median: median(times), result };
}
