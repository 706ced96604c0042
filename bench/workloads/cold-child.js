// One measurement of the cold and warm tables, alone in a fresh Node process:
// `node cold-child.js '<spec JSON>'` prints `{ cold, warm, check, warmPasses, wallMs, cpuShare, sink }`.
// spec: `{ job, lib, door, op, quick, citiesFile, dist, warmMs }` (see cold.js).
//
// A query: the data and queries made (seeded), the index built once (untimed), then the first
// pass of 1,000 queries timed (cold); then passes for at least `warmMs` ms of warm-up, and the
// median of three more passes (warm). A build: the first build in the process timed (cold), then
// three warm-up builds and one more build timed (warm). No forced collection: a full one over a
// million objects takes up to a second, and users' first queries meet the build's garbage too.

import { median, now, sink } from '../measure.js';
import { feeder } from './cold-feeders.js';
import { isBuild } from './cold-jobs.js';

/** Warm-up builds before the warm build. */
const WARM_BUILDS = 3;
/** Timed warm passes (their median is the warm figure), and the fewest warm-up passes. */
const WARM_PASSES = 3;
const MIN_WARMUP = 2;

async function main() {
  const spec = JSON.parse(process.argv[2]);
  const f = await feeder(spec);
  const build = f.builds?.[spec.op] ?? f.build;
  const check = (index) => (f.check ? f.check(index) : 0);
  const out = { cold: 0, warm: 0, check: 0, warmPasses: 0 };
  if (isBuild(spec.op)) {
    // The first build in the process, then WARM_BUILDS more, then the timed warm build.
    let t0 = now();
    let index = build();
    out.cold = now() - t0;
    out.check = check(index);
    for (let k = 0; k < WARM_BUILDS; k++) sink.value += check(build());
    t0 = now();
    index = build();
    out.warm = now() - t0;
    sink.value += check(index);
  } else {
    const query = f.queries[spec.op];
    if (!query) throw new Error(`cold-child: ${spec.lib} has no ${spec.op} in ${spec.job}`);
    const index = build();
    // The first pass after the first build: what a user's first queries meet.
    const t0 = now();
    out.check = query(index);
    out.cold = now() - t0;
    // Warm-up, then the timed passes.
    let spent = 0;
    while (out.warmPasses < MIN_WARMUP || spent < spec.warmMs) {
      const t = now();
      sink.value += query(index);
      spent += now() - t;
      out.warmPasses++;
    }
    const times = [];
    for (let k = 0; k < WARM_PASSES; k++) {
      const t = now();
      sink.value += query(index);
      times.push(now() - t);
    }
    out.warm = median(times);
  }
  // The share of this process's life it spent on a CPU: well below 1, other processes competed.
  const c = process.cpuUsage();
  out.wallMs = performance.now();
  out.cpuShare = (c.user + c.system) / 1000 / out.wallMs;
  process.stdout.write(JSON.stringify({ ...out, sink: sink.value }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
