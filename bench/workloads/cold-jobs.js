// The rows of the cold and warm tables (bench/workloads/cold.js), one table per job: for each
// door, the quadkit measurement and the peers it is compared with (the fastest of them in each
// column), and the goal of the row. Plain data: the workload, bench/readme.js and the tests read
// it without loading any library.

import { COLD_GOALS } from '../targets.js';

/**
 * The jobs, in table order. `size(quick)` is the number of items (the cities are always all of
 * them); `data` says what they are, for the table's title.
 */
export const JOBS = [
  { id: 'boxes', size: (quick) => (quick ? 50_000 : 1_000_000), data: 'boxes' },
  { id: 'points', size: (quick) => (quick ? 50_000 : 1_000_000), data: 'points' },
  { id: 'cities', size: () => 0, data: 'cities' },
  { id: 'geo', size: () => 0, data: 'cities' },
  { id: 'dynamic', size: (quick) => (quick ? 10_000 : 200_000), data: 'boxes' },
  { id: 'clusters', size: () => 0, data: 'cities' },
  { id: 'force', size: (quick) => (quick ? 2_000 : 10_000), data: 'nodes' },
];

/** A measurement: one library, one door, one operation ('build' or a kind of query). */
const m = (lib, door, op) => ({ lib, door, op });

/** The key of a measurement, the same for every row that shares it. */
export const keyOf = ({ lib, door, op }) => `${lib}|${door}|${op}`;

// A row: its label (the door), the quadkit measurement, the peers, and the goal's name.
const row = (label, quadkit, peers, goal = 'other') => ({ label, quadkit, peers, goal });

// The static tables' queries: [op, object-door label, typed-door label, goal].
const STATIC_QUERIES = {
  q0: ['`search(rect)` → items, 0.01% windows', '`searchInto`, 0.01% windows', 'smallWindows'],
  q1: ['`search(rect)` → items, 1% windows', '`searchInto`, 1% windows'],
  deg1: ['`search(rect)` → items, 1°×1° windows', '`searchInto`, 1°×1° windows', 'smallWindows'],
  point: ['`searchPoint(x, y)` → items', '`searchPointInto`'],
  circle: ['`searchCircle(x, y, r)` → items', '`searchCircleInto`'],
  segment: ['`searchSegment` → items', '`searchSegmentInto`'],
  knn1: ['`nearest(x, y, 1)` → items', '`nearestInto`, k = 1', 'nearest'],
  knn10: ['`nearest(x, y, 10)` → items', '`nearestInto`, k = 10', 'nearest'],
};

// The rows of a static job: the build and each query, through each door, against `peers(op)`.
function staticRows(builds, ops, peers) {
  const rows = [];
  for (const door of ['objects', 'typed']) {
    const typed = door === 'typed';
    rows.push(
      row(
        typed ? builds.typed : '`StaticQuadtree.from(objects)`',
        m('quadkit', door, 'build'),
        peers('build').map((p) => m(p, door, 'build')),
        typed ? 'other' : (builds.objectsGoal ?? 'other'),
      ),
    );
    for (const op of ops) {
      const [objectLabel, typedLabel, goal] = STATIC_QUERIES[op];
      rows.push(
        row(
          typed ? typedLabel : objectLabel,
          m('quadkit', door, op),
          peers(op).map((p) => m(p, door, op)),
          goal,
        ),
      );
    }
  }
  return rows;
}

/** The rows of each job, in table order. */
export const ROWS = {
  boxes: staticRows(
    { typed: '`StaticQuadtree.fromBoxes(Float64Array)`', objectsGoal: 'fromObjects' },
    ['q0', 'q1', 'point', 'circle', 'segment', 'knn1', 'knn10'],
    () => ['flatbush'],
  ),
  points: staticRows(
    { typed: '`StaticQuadtree.fromPoints(Float64Array)`' },
    ['q0', 'q1', 'circle', 'knn1', 'knn10'],
    // kdbush, the point index, for ranges; flatbush too where it has been as fast (builds, and
    // the small windows whose goal names both); flatbush alone for nearest (kdbush has none).
    (op) =>
      op === 'circle' || op === 'q1'
        ? ['kdbush']
        : op.startsWith('knn')
          ? ['flatbush']
          : ['kdbush', 'flatbush'],
  ),
  cities: [
    ...staticRows(
      { typed: '`StaticQuadtree.fromPoints(Float64Array)`' },
      ['deg1', 'knn10'],
      (op) => (op === 'knn10' ? ['flatbush'] : ['kdbush', 'flatbush']),
    ),
    row(
      '`PointQuadtree` (`insert` each): `nearest(x, y, 10)` → items',
      m('quadkit', 'objects', 'pq-knn10'),
      [m('flatbush', 'objects', 'knn10')],
      'nearest',
    ),
  ],
  geo: [
    row(
      '`geoNearest(index, lon, lat, 10)` → items (`StaticQuadtree.from`)',
      m('quadkit', 'objects', 'geo-knn10'),
      [m('geokdbush', 'objects', 'geo-knn10')],
      'greatCircle',
    ),
    row(
      '`geoNearest(index, lon, lat, 10)` → items (`PointQuadtree`, `insert` each)',
      m('quadkit', 'objects', 'pq-geo-knn10'),
      [m('geokdbush', 'objects', 'geo-knn10')],
      'greatCircle',
    ),
    row(
      '`geoWithin(index, lon, lat, 100)` → items (`StaticQuadtree.from`)',
      m('quadkit', 'objects', 'geo-within'),
      [m('geokdbush', 'objects', 'geo-within')],
      'greatCircle',
    ),
    row(
      '`geoNearestInto(fromPoints tree, lon, lat, 10, …)`',
      m('quadkit', 'typed', 'geo-knn10'),
      [m('geokdbush', 'typed', 'geo-knn10')],
      'greatCircle',
    ),
  ],
  dynamic: [
    // quadtree-ts with its defaults inserts fastest (rbush's insert took 3.7 to 17 times as long,
    // cold and warm, in two runs on a busy machine).
    row('`new Quadtree` + `insert` each (+ one query)', m('quadkit', 'objects', 'build'), [
      m('quadtree-ts', 'objects', 'build'),
    ]),
    row(
      '`new GridLooseQuadtree` + `insert` each (+ one query)',
      m('quadkit', 'objects', 'grid-build'),
      [m('quadtree-ts', 'objects', 'build')],
    ),
    row('`new PointQuadtree` + `insert` each (+ one query)', m('quadkit', 'objects', 'pq-build'), [
      m('d3-quadtree', 'objects', 'build'),
    ]),
    row('`Quadtree` `search(rect)` → items, 0.01% windows', m('quadkit', 'objects', 'q0'), [
      m('rbush', 'objects', 'q0'),
    ]),
    row(
      '`PointQuadtree` `nearest(x, y, 1)` → items',
      m('quadkit', 'objects', 'pq-knn1'),
      [m('d3-quadtree', 'objects', 'knn1')],
      'nearest',
    ),
  ],
  clusters: [
    row('`new Clusterer().load(features)`', m('quadkit', 'objects', 'build'), [
      m('supercluster', 'objects', 'build'),
    ]),
    row('`getClusters(bbox, zoom)`, 1,000 map views', m('quadkit', 'objects', 'views'), [
      m('supercluster', 'objects', 'views'),
    ]),
  ],
  force: [
    row('`forceManyBody()` tick', m('quadkit', 'objects', 'tick'), [
      m('d3-force', 'objects', 'tick'),
    ]),
  ],
};

/** The goal of a row: its factor and text (see COLD_GOALS in targets.js). */
export const goalOf = (r) => COLD_GOALS[r.goal];

/** The measurements of a job, each once, quadkit's first. */
export function measurementsOf(job) {
  const seen = new Map();
  for (const r of ROWS[job]) {
    for (const x of [r.quadkit, ...r.peers]) seen.set(keyOf(x), x);
  }
  return [...seen.values()];
}

/** Whether an operation is timed as a build (the first build cold, a later one warm). */
export const isBuild = (op) => op.endsWith('build');
