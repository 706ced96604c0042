// Workload: batches of kNN queries on both cores. 1M uniform points, 1M kNN queries (k = 1 and
// k = 10) answered by one thread (StaticQuadtree.nearestInto in a loop: the fastest
// single-thread door, keeping nothing) and by BatchPool (quadkit/batch) with the main thread
// alone, main + 1 worker and main + 2 workers (every answer kept, in query order). The
// configurations run interleaved, round after round, so that load from other processes falls on
// all of them alike; each time is the median of the rounds.

import { mulberry32 } from '../data.js';
import { gc, now, sink } from '../measure.js';

export const id = 'batch';

const WORLD = 1000;
const SINGLE = 'StaticQuadtree nearestInto, 1 thread (baseline)';

/** `count` uniform points in the world, x, y each, from `seed`. */
function uniform(count, seed) {
  const rnd = mulberry32(seed);
  return Float64Array.from({ length: 2 * count }, () => rnd() * WORLD);
}

export async function run({ quick, quadkit }) {
  const n = quick ? 100_000 : 1_000_000;
  const nQueries = n;
  const rounds = quick ? 2 : 3;
  const label = quick ? '100k' : '1M';
  const metrics = [
    { key: 'knn1', label: 'kNN k=1', ops: nQueries, compare: true },
    { key: 'knn10', label: 'kNN k=10', ops: nQueries, compare: true },
    { key: 'cpu10', label: 'k=10 CPU time, all threads' },
    { key: 'main', label: 'main-thread share', unit: 'count' },
  ];
  const result = {
    id,
    title: `Batch kNN on both cores: ${label} queries on ${label} points`,
    setup:
      `${label} uniform points in a StaticQuadtree (shared: true); ${label} kNN queries at uniform ` +
      `points; total ms per batch, median of ${rounds} interleaved rounds after a warm-up round. ` +
      'The baseline row is one thread calling nearestInto per query (it keeps no answers); ' +
      'BatchPool rows return every answer in query order (CSR typed arrays). ' +
      '"vs fastest peer" compares with the baseline. main-thread share: % of the k=10 queries ' +
      'the calling thread answered. CPU time: of the whole process (every thread) per k=10 ' +
      'batch; on a loaded machine it shows what the threads cost, where wall times are at the ' +
      "mercy of the other processes' load.",
    metrics,
    rows: [],
    notes: [],
  };
  if (!quadkit) return result;
  const { BatchPool } = await import('../../dist/batch/index.js');
  const tree = quadkit.StaticQuadtree.fromPoints(uniform(n, 41), { shared: true });
  const queries = uniform(nQueries, 42);

  // The single thread: every query through nearestInto; returns a checksum of the answers.
  const out = [];
  const single = (k) => {
    let sum = 0;
    for (let i = 0; i < nQueries; i++) {
      const c = tree.nearestInto(queries[2 * i], queries[2 * i + 1], k, Infinity, out);
      for (let j = 0; j < c; j++) sum += out[j];
    }
    return sum;
  };
  const configs = [
    { name: SINGLE, quadkit: false, run: async (k) => ({ sum: single(k), main: nQueries }) },
  ];
  const pools = [];
  for (const [workers, name] of [
    [0, 'BatchPool, main thread only'],
    [1, 'BatchPool, main + 1 worker'],
    [2, 'BatchPool, main + 2 workers'],
  ]) {
    const pool = await BatchPool.create(tree, { workers });
    pools.push(pool);
    configs.push({
      name,
      quadkit: true,
      run: async (k) => {
        const r = await pool.nearest(queries, k);
        let sum = 0;
        for (let j = 0; j < r.indices.length; j++) sum += r.indices[j];
        return { sum, main: r.mainThreadQueries };
      },
    });
  }

  // Rounds: every configuration once per k, in turn.
  const times = configs.map(() => ({ knn1: [], knn10: [] }));
  const mains = configs.map(() => []);
  const cpus = configs.map(() => []);
  const sums = { knn1: new Set(), knn10: new Set() };
  try {
    for (let round = 0; round <= rounds; round++) {
      for (const [key, k] of [
        ['knn1', 1],
        ['knn10', 10],
      ]) {
        for (let c = 0; c < configs.length; c++) {
          gc();
          const c0 = process.cpuUsage();
          const t0 = now();
          const { sum, main } = await configs[c].run(k);
          const t = now() - t0;
          const cpu = process.cpuUsage(c0);
          sums[key].add(sum);
          sink.value += sum;
          if (round === 0) continue; // warm-up
          times[c][key].push(t);
          if (k === 10) {
            mains[c].push(main);
            cpus[c].push((cpu.user + cpu.system) / 1000);
          }
        }
      }
    }
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
  const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  configs.forEach((config, c) => {
    result.rows.push({
      name: config.name,
      quadkit: config.quadkit,
      values: {
        knn1: median(times[c].knn1),
        knn10: median(times[c].knn10),
        cpu10: median(cpus[c]),
        main: Math.round((100 * median(mains[c])) / nQueries),
      },
    });
  });
  for (const key of ['knn1', 'knn10']) {
    if (sums[key].size !== 1) {
      result.warnings = [
        `${key}: the configurations' answers differ (checksums ${[...sums[key]]})`,
      ];
    }
  }
  result.notes.push(
    `Every configuration's answers have the same checksum (sum of the item indices): ${sums.knn10.size === 1 && sums.knn1.size === 1 ? 'yes' : 'NO'}.`,
  );
  return result;
}
