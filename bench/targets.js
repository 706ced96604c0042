// The speed-up targets of `npm run bench`, each checked against named rows of one run (see
// renderTargets in render.js).

import {
  FLATBUSH_OBJECTS,
  FLATBUSH_OBJECTS_MEMORY,
  loadRow,
  OBJECT_DOOR,
  TYPED_DOOR,
} from './names.js';

// Speed-up targets, checked against named rows (not just "the best peer").
// Optional: `n` picks one part of a multi-part workload (the result's `n`); `variant` keeps only
// the quadkit rows whose name contains it (is it, with `exact: true`), and `without` drops those
// whose name contains that; `zero: true` checks that the metric is 0 instead of a speed-up, and
// `maxAllocKB` that the row's `alloc` (KB allocated per frame) stays below it: a loop that
// allocates will collect garbage sooner or later, even with no GC in the frames measured;
// `maxRatio` that each quadkit row's metric, a ratio measured by the workload, is at most that;
// `steady: true` marks exact figures (the same in every run), which get no margin note.
export const TARGETS = [
  {
    workload: 'insert',
    metric: 'insert',
    peer: 'fastest peer',
    factor: 2,
    text: 'one-by-one insert ≥ 2× faster than the fastest peer',
  },
  {
    workload: 'insert',
    metric: 'remove',
    peer: 'fastest peer',
    factor: 2,
    text: 'one-by-one remove ≥ 2× faster than the fastest peer',
  },
  {
    workload: 'query',
    metric: 'q0.01',
    peer: 'rbush',
    factor: 1,
    text: 'window queries (0.01%) at least as fast as rbush',
  },
  {
    workload: 'query',
    metric: 'q1',
    peer: 'rbush',
    factor: 1,
    text: 'window queries (1%) at least as fast as rbush',
  },
  {
    workload: 'frame',
    metric: 'frame',
    peer: 'rbush remove+insert+search',
    factor: 5,
    text: 'frame ≥ 5× faster than rbush remove+insert+search',
  },
  {
    workload: 'static-boxes',
    metric: 'build',
    peer: 'flatbush',
    factor: 2,
    variant: 'quadkit StaticQuadtree',
    exact: true,
    text: "StaticQuadtree builds 1M boxes in at most half of flatbush's time",
  },
  ...['q0', 'q1'].map((metric) => ({
    workload: 'static-boxes',
    metric,
    peer: 'flatbush',
    factor: 1.2,
    variant: 'quadkit StaticQuadtree',
    exact: true,
    text: `StaticQuadtree ${metric === 'q0' ? '0.01%' : '1%'} windows ≥ 1.2× faster than flatbush`,
  })),
  ...['knn1', 'knn10'].map((metric) => ({
    workload: 'static-boxes',
    metric,
    peer: 'flatbush',
    factor: 1,
    variant: 'quadkit StaticQuadtree',
    exact: true,
    text: `StaticQuadtree kNN (k = ${metric === 'knn1' ? 1 : 10}) at least as fast as flatbush's neighbors`,
  })),
  // Points: radius queries against kdbush's within on 1M uniform points and on the cities, and
  // kNN on the cities against flatbush's neighbors.
  ...['static-points', 'static-cities'].map((workload) => ({
    workload,
    metric: 'radius',
    peer: 'kdbush',
    factor: 1,
    variant: 'quadkit StaticQuadtree',
    exact: true,
    text: `${workload === 'static-points' ? '1M points' : 'cities'}: radius queries at least as fast as kdbush's within`,
  })),
  ...['knn1', 'knn10'].map((metric) => ({
    workload: 'static-cities',
    metric,
    peer: 'flatbush',
    factor: 1,
    variant: 'quadkit StaticQuadtree',
    exact: true,
    text: `cities: kNN (k = ${metric === 'knn1' ? 1 : 10}) at least as fast as flatbush's neighbors`,
  })),
  // The object doors against the typed doors. The builds: from(objects) against
  // fromBoxes/fromPoints in the static tables (each door in a process of its own), within 1.3x.
  ...['static-boxes', 'static-points', 'static-cities'].map((workload) => ({
    workload,
    metric: 'build',
    peer: 'quadkit StaticQuadtree',
    variant: OBJECT_DOOR,
    factor: 1 / 1.3,
    text: `${workload.slice(7)} build: the object door within 1.3× of the typed door`,
  })),
  // The queries: each form that returns items against its *Into form on a typed-array tree,
  // side by side in one process (the doors workload), within 1.3x.
  ...['boxes', 'points', 'cities', 'dynamic'].map((part) => ({
    workload: `doors-${part}`,
    metric: 'ratio',
    maxRatio: 1.3,
    text: `${part === 'dynamic' ? 'dynamic indexes' : part}: each query through the object door within 1.3× of the typed door`,
  })),
  {
    workload: 'static-boxes',
    metric: 'build',
    peer: `flatbush ${OBJECT_DOOR}`,
    variant: OBJECT_DOOR,
    factor: 1,
    text: 'StaticQuadtree.from(objects) at least as fast as flatbush add() from the same objects',
  },
  // The dynamic indexes' load(objects) against their typed-array doors: within 1.3x.
  ...['Quadtree', 'GridLooseQuadtree', 'PointQuadtree'].map((index) => ({
    workload: 'load',
    metric: 'load',
    peer: loadRow(index, true),
    variant: loadRow(index, false),
    exact: true,
    factor: 1 / 1.3,
    text: `${index}: load(objects) within 1.3× of ${index === 'PointQuadtree' ? 'fromPoints' : 'fromBoxes'} on a Float64Array`,
  })),
  {
    workload: 'static-point-inserts',
    metric: 'insert',
    peer: 'd3-quadtree add',
    factor: 2,
    text: 'PointQuadtree inserts ≥ 2× faster than d3-quadtree add',
  },
  ...[50_000, 100_000].flatMap((n) => [
    {
      workload: 'dynamic',
      n,
      metric: 'frame',
      peer: 'fastest peer',
      factor: 5,
      variant: 'GridLooseQuadtree',
      text: `dynamic scene, N = ${n / 1000}k: GridLooseQuadtree frame ≥ 5× faster than the fastest peer`,
    },
    {
      workload: 'dynamic',
      n,
      metric: 'frame',
      peer: FLATBUSH_OBJECTS,
      factor: 5,
      variant: 'GridLooseQuadtree',
      without: TYPED_DOOR,
      text: `dynamic scene, N = ${n / 1000}k: GridLooseQuadtree frame ≥ 5× faster than flatbush fed the same objects`,
    },
    {
      workload: 'dynamic',
      n,
      metric: 'gc',
      zero: true,
      maxAllocKB: 8,
      variant: 'GridLooseQuadtree updateAll',
      text: `dynamic scene, N = ${n / 1000}k: no GC in the steady-state frame loop (updateAll + pairs)`,
    },
  ]),
  ...['classic', 'flatbush'].map((peer) => ({
    workload: 'depth',
    worst: peer,
    text: `depth sweep: GridLooseQuadtree faster than ${peer === 'classic' ? 'the classic Quadtree' : 'flatbush'} in every scene (worst ratio < 1)`,
  })),
  ...['buffer', 'heap'].map((metric) => ({
    workload: 'memory',
    // Exact figures, the same from one run to the next: no margin note.
    steady: true,
    metric,
    peer: 'flatbush',
    variant: 'quadkit StaticQuadtree',
    factor: 1,
    // What releasing from(objects) frees holds the items too: it is compared with flatbush and the
    // array of the items its answers index into (below).
    ...(metric === 'heap' ? { without: OBJECT_DOOR } : {}),
    text: `static indexes keep at most flatbush's bytes per item (${metric === 'buffer' ? 'the index buffer' : 'heap + buffers'})`,
  })),
  {
    workload: 'memory',
    // Exact figures, the same from one run to the next: no margin note.
    steady: true,
    metric: 'heap',
    peer: FLATBUSH_OBJECTS_MEMORY,
    variant: `quadkit StaticQuadtree ${OBJECT_DOOR}`,
    factor: 1,
    text: 'from(objects) keeps at most what flatbush fed the objects keeps with the array of items its answers index into (heap + buffers)',
  },
  // RSS (kept, and the build's peak) is reported with its spread, not a target: for the same
  // build, byte for byte the same buffer, RSS kept moved by up to 12 bytes per item from one
  // process to the next and the peak by about 2 MB, as the allocator and V8's background threads
  // return freed pages to the system or not; quadkit's and flatbush's medians differ by less.
  {
    workload: 'mesh-10k',
    metric: 'lookup',
    peer: 'linear scan',
    factor: 100,
    text: 'TriangleIndex locate on 10k triangles ≥ 100× faster than a linear scan',
  },
  ...[10_000, 100_000].map((n) => ({
    workload: 'force',
    n,
    metric: 'tick',
    peer: 'd3-force forceManyBody',
    factor: 2,
    text: `many-body force tick, N = ${n / 1000}k: ≥ 2× faster than d3-force's forceManyBody (theta 0.9)`,
  })),
  ...['cities', '1M'].map((part) => ({
    workload: `cluster-${part}`,
    metric: 'total',
    peer: 'supercluster',
    factor: 1.5,
    text: `clustering ${part === 'cities' ? 'the 135k cities' : '1M random points'} (load + getClusters of the world at zooms 0–16) ≥ 1.5× faster than supercluster`,
  })),
  {
    workload: 'geo-knn',
    metric: 'knn',
    peer: 'geokdbush around (kdbush)',
    factor: 1.5,
    text: 'great-circle kNN (k = 10) on the cities ≥ 1.5× faster than geokdbush on kdbush',
  },
  {
    workload: 'geo-pip',
    metric: 'join',
    peer: 'flatbush + turf booleanPointInPolygon',
    factor: 3,
    text: 'point-in-polygon join of 1M points to the countries ≥ 3× faster than flatbush + turf',
  },
  ...['knn1', 'knn10'].map((metric) => ({
    workload: 'batch',
    metric,
    peer: 'StaticQuadtree nearestInto, 1 thread (baseline)',
    factor: 1.7,
    variant: 'worker',
    text: `batch kNN (k = ${metric === 'knn1' ? 1 : 10}) ≥ 1.7x single-thread`,
  })),
];

/**
 * The goals of the cold and warm tables (bench/workloads/cold.js; each row names one): quadkit's
 * speed-up over the row's fastest peer (the peer's time over quadkit's), judged cold and warm.
 */
export const COLD_GOALS = {
  smallWindows: { factor: 1.2, text: 'small windows ≥ 1.2× the fastest of flatbush and kdbush' },
  nearest: { factor: 1, text: 'nearest at least as fast as the fastest peer' },
  fromObjects: { factor: 1.5, text: 'StaticQuadtree.from(objects) ≥ 1.5× flatbush' },
  greatCircle: { factor: 1.5, text: 'great-circle queries ≥ 1.5× geokdbush' },
  other: { factor: 1, text: 'at least as fast as the fastest peer' },
};
