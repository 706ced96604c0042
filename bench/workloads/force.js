// Workload: one tick of the many-body force of a graph layout. N nodes uniform in a disc of
// radius 10 sqrt(N) (the density of d3-force's initial placement), strength -30, theta 0.9:
// quadkit/force's forceManyBody against d3-force's forceManyBody, each as a simulation calls it
// (initialize once, then force(alpha) per tick), timed interleaved (d3, quadkit, d3, ...).
// Beside the times, each one's error against the exact O(N²) sum on a subsample of nodes: mean
// and max over those nodes of |F - exact| / |exact|.

import { forceManyBody as d3ManyBody } from 'd3-force';
import { mulberry32 } from '../data.js';
import { gc, median, now, sink } from '../measure.js';

export const id = 'force';

/** The N of each table. */
export function parts({ quick }) {
  return quick ? [2_000, 10_000] : [10_000, 100_000];
}

// Nodes uniform in a disc, from a seeded generator.
function disc(n, seed) {
  const rnd = mulberry32(seed);
  const radius = 10 * Math.sqrt(n);
  const nodes = [];
  for (let i = 0; i < n; i++) {
    const r = radius * Math.sqrt(rnd());
    const a = 2 * Math.PI * rnd();
    nodes.push({ index: i, x: r * Math.cos(a), y: r * Math.sin(a), vx: 0, vy: 0 });
  }
  return nodes;
}

// The exact force (alpha = 1, strength -30, distanceMin 1) on each node of `sample`.
function exactOn(nodes, sample) {
  const out = new Float64Array(2 * sample.length);
  for (let k = 0; k < sample.length; k++) {
    const a = nodes[sample[k]];
    let fx = 0;
    let fy = 0;
    for (const b of nodes) {
      if (b === a) continue;
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      let l = dx * dx + dy * dy;
      if (l < 1) l = Math.sqrt(l);
      fx += (dx * -30) / l;
      fy += (dy * -30) / l;
    }
    out[2 * k] = fx;
    out[2 * k + 1] = fy;
  }
  return out;
}

// Mean and max relative error of one tick at alpha = 1 on the sample, as text cells.
function errors(force, nodes, sample, exact) {
  for (const b of nodes) {
    b.vx = 0;
    b.vy = 0;
  }
  force(1);
  let sum = 0;
  let max = 0;
  for (let k = 0; k < sample.length; k++) {
    const b = nodes[sample[k]];
    const ex = exact[2 * k];
    const ey = exact[2 * k + 1];
    const r = Math.hypot(b.vx - ex, b.vy - ey) / Math.hypot(ex, ey);
    sum += r;
    if (r > max) max = r;
  }
  const pct = (v) => ({ text: `${(100 * v).toFixed(2)}%` });
  return { mean: pct(sum / sample.length), max: pct(max) };
}

export async function run({ quick, quadkit, part }) {
  const n = part ?? parts({ quick })[0];
  const runs = n > 50_000 ? 5 : quick ? 5 : 11;
  const nodes = disc(n, 42);
  const sampleSize = Math.min(n, quick ? 200 : 1000);
  const sample = Array.from({ length: sampleSize }, (_, k) => Math.floor((k * n) / sampleSize));
  const exact = exactOn(nodes, sample);
  const libs = [{ name: 'd3-force forceManyBody', quadkit: false, force: d3ManyBody() }];
  const warnings = [];
  if (quadkit) {
    try {
      const { forceManyBody } = await import('../../dist/force.js');
      libs.push({ name: 'quadkit/force forceManyBody', quadkit: true, force: forceManyBody() });
    } catch (e) {
      warnings.push(`quadkit/force not measured: ${String(e?.message ?? e).split('\n')[0]}`);
    }
  }
  const random = mulberry32(7);
  for (const lib of libs) {
    lib.force.initialize(nodes, random);
    lib.times = [];
    lib.errors = errors(lib.force, nodes, sample, exact);
  }
  // One warm-up tick each, then `runs` ticks each, interleaved.
  for (let r = -1; r < runs; r++) {
    for (const lib of libs) {
      gc();
      const t0 = now();
      lib.force(0.5);
      const t = now() - t0;
      if (r >= 0) lib.times.push(t);
      sink.value += nodes[r + 1].vx;
    }
  }
  const rows = libs.map((lib) => ({
    name: lib.name,
    quadkit: lib.quadkit,
    values: { tick: median(lib.times), mean: lib.errors.mean, max: lib.errors.max },
  }));
  return {
    id,
    n,
    title: `Many-body force tick, ${n.toLocaleString('en-US')} nodes`,
    setup:
      `${n} nodes uniform in a disc of radius 10√N (seeded), strength -30, theta 0.9, ` +
      `distanceMin 1. One tick (build the tree, charge it, walk it for every node), median of ${runs} ` +
      'ticks after one warm-up, the libraries interleaved. Errors: one tick at alpha = 1 against ' +
      `the exact O(N²) sum on ${sampleSize} nodes, |F − exact| / |exact|, mean and max.`,
    metrics: [
      { key: 'tick', label: 'tick', ops: n, compare: true },
      { key: 'mean', label: 'mean error', unit: 'text' },
      { key: 'max', label: 'max error', unit: 'text' },
    ],
    rows,
    warnings,
  };
}
