// The libraries of the cold and warm tables, each fed the way its README shows, in a child
// process of its own (bench/workloads/cold-child.js): `feeder(spec)` makes the job's seeded data
// and queries and imports only the library measured. The object door holds the items as the
// user's objects ({ x, y, width, height } or { x, y }, made before any timing): quadkit builds
// from them and answers them; flatbush and kdbush are add()ed from them and their answers (item
// indices) are mapped back to the objects, as their users do. The typed door holds the items in
// a Float64Array: quadkit's fromBoxes/fromPoints and *Into forms (item indices into one reused
// array), the peers' numbers in and indices out.

import { readFileSync } from 'node:fs';
import {
  CITIES_WORLD,
  cityPoints,
  forceNodes,
  itemCentres,
  itemObjects,
  mapViews,
  mulberry32,
  nearPoints,
  pointFeatures,
  queryPoints,
  queryRadius,
  querySegments,
  queryWindows,
  randomBoxes,
  randomPoints,
} from '../data.js';
import { JOBS } from './cold-jobs.js';

import { peerFeeder } from './cold-peers.js';

/** Queries per pass. */
export const QUERIES = 1000;

const WORLD = { x: 0, y: 0, width: 1000, height: 1000 };
const GLOBE = { x: -180, y: -90, width: 360, height: 180 };

/** Great-circle radius of a geoWithin query (km), and the Earth's radius geokdbush uses. */
const WITHIN_KM = 100;
const EARTH_KM = 6371;

// --- Data and queries ---

/** The job's items: min/max boxes `mm` (x, y, x, y for points), points `xy`, objects. */
function dataOf(job, quick, citiesFile) {
  const n = JOBS.find((j) => j.id === job).size(quick);
  let xy = null;
  let boxes = null;
  if (job === 'points') xy = randomPoints(n, { world: WORLD.width, seed: 5 });
  else if (job === 'boxes' || job === 'dynamic') {
    const seed = job === 'dynamic' ? 1 : 3;
    boxes = randomBoxes(n, { world: WORLD.width, minSize: 0, maxSize: 2, seed });
  } else {
    const file = citiesFile ? readFileSync(citiesFile) : null;
    xy = file ? new Float64Array(file.buffer, file.byteOffset, file.byteLength / 8) : cityPoints();
    // A smoke run takes every fifth city.
    if (quick) xy = xy.filter((_, i) => (i >> 1) % 5 === 0);
  }
  const count = xy ? xy.length / 2 : boxes.length / 4;
  const mm = new Float64Array(4 * count);
  for (let i = 0; i < count; i++) {
    const x = xy ? xy[2 * i] : boxes[4 * i];
    const y = xy ? xy[2 * i + 1] : boxes[4 * i + 1];
    mm[4 * i] = x;
    mm[4 * i + 1] = y;
    mm[4 * i + 2] = xy ? x : x + boxes[4 * i + 2];
    mm[4 * i + 3] = xy ? y : y + boxes[4 * i + 3];
  }
  if (!xy && job === 'dynamic') {
    // The points of the point indexes: the boxes' min corners.
    xy = new Float64Array(2 * count);
    for (let i = 0; i < count; i++) {
      xy[2 * i] = mm[4 * i];
      xy[2 * i + 1] = mm[4 * i + 1];
    }
  }
  return { n: count, mm, xy, points: !boxes };
}

/** The query sets: windows (x, y, w, h) per kind, points, item centres, segments, a radius. */
function queriesOf(job, data) {
  const cities = data.points && job !== 'points';
  const world = cities ? CITIES_WORLD : WORLD;
  const [q0, q1] = queryWindows(QUERIES, world);
  // Near the cities: 1°×1° windows and query points within 3° of a random city.
  const near = cities ? nearPoints(data.xy, QUERIES, { seed: 41 }) : null;
  const deg1 = new Float64Array(4 * QUERIES);
  if (near) for (let i = 0; i < QUERIES; i++) deg1.set([near[2 * i], near[2 * i + 1], 1, 1], 4 * i);
  return {
    lonLat: cities,
    windows: { q0, q1, deg1 },
    at: near ?? queryPoints(QUERIES, world, 9),
    hits: itemCentres(data.mm, QUERIES, 10),
    segments: querySegments(QUERIES, world, 11),
    radius: queryRadius(world),
  };
}

// --- Passes ---

/** A pass over every query: `fn(t, i)` answers query i and returns its count; the sum. */
const pass = (fn) => (t) => {
  let s = 0;
  for (let i = 0; i < QUERIES; i++) s += fn(t, i);
  return s;
};

/** A window pass: `fn(t, x, y, w, h)` for each window of `w` ([x, y, w, h] * QUERIES). */
const windowPass = (w, fn) =>
  pass((t, i) => fn(t, w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]));

// --- quadkit ---

// quadkit's static tree (and, for `pq-*` queries, a PointQuadtree fed one object at a time).
function quadkitStatic(qk, geo, door, data, q) {
  const { StaticQuadtree, PointQuadtree } = qk;
  const typed = door === 'typed';
  const objects = typed ? null : itemObjects(data.mm, data.n, data.points);
  const out = [];
  const rect = { x: 0, y: 0, width: 0, height: 0 };
  const win = (w) =>
    windowPass(w, (t, x, y, width, height) => {
      rect.x = x;
      rect.y = y;
      rect.width = width;
      rect.height = height;
      return typed ? t.searchInto(rect, out) : t.search(rect).length;
    });
  const { at, hits, segments: s, radius } = q;
  const knn = (k) =>
    pass((t, i) =>
      typed
        ? t.nearestInto(at[2 * i], at[2 * i + 1], k, Number.POSITIVE_INFINITY, out)
        : t.nearest(at[2 * i], at[2 * i + 1], k).length,
    );
  const items = [];
  const distances = new Float64Array(10);
  const geoKnn = pass((t, i) =>
    typed
      ? geo.geoNearestInto(t, at[2 * i], at[2 * i + 1], 10, null, items, distances)
      : geo.geoNearest(t, at[2 * i], at[2 * i + 1], 10).length,
  );
  // A PointQuadtree fed one object at a time; the build ends with one point query, which places
  // the buffered inserts (as the dynamic job's builds do), so that the timed queries, like the
  // peers', find the index built.
  const pointTree = () => {
    const bounds = q.lonLat ? GLOBE : WORLD;
    const t = new PointQuadtree({ bounds });
    for (const o of objects) t.insert(o);
    t.searchPoint(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2);
    return t;
  };
  const queries = {
    q0: win(q.windows.q0),
    q1: win(q.windows.q1),
    deg1: win(q.windows.deg1),
    point: pass((t, i) =>
      typed
        ? t.searchPointInto(hits[2 * i], hits[2 * i + 1], out)
        : t.searchPoint(hits[2 * i], hits[2 * i + 1]).length,
    ),
    circle: pass((t, i) =>
      typed
        ? t.searchCircleInto(at[2 * i], at[2 * i + 1], radius, out)
        : t.searchCircle(at[2 * i], at[2 * i + 1], radius).length,
    ),
    segment: pass((t, i) => {
      const [x1, y1, x2, y2] = [s[4 * i], s[4 * i + 1], s[4 * i + 2], s[4 * i + 3]];
      return typed
        ? t.searchSegmentInto(x1, y1, x2, y2, out)
        : t.searchSegment(x1, y1, x2, y2).length;
    }),
    knn1: knn(1),
    knn10: knn(10),
    'pq-knn10': knn(10),
    'geo-knn10': geoKnn,
    'pq-geo-knn10': geoKnn,
    'geo-within': pass(
      (t, i) => geo.geoWithin(t, at[2 * i], at[2 * i + 1], WITHIN_KM, EARTH_KM).length,
    ),
  };
  const build = typed
    ? () => (data.points ? StaticQuadtree.fromPoints(data.xy) : StaticQuadtree.fromBoxes(data.mm))
    : () => StaticQuadtree.from(objects);
  const builds = { 'pq-knn10': pointTree, 'pq-geo-knn10': pointTree };
  return { build, builds, queries, check: (t) => t.size };
}

// quadkit's dynamic indexes, fed one object at a time; each build ends with one point query.
function quadkitDynamic(qk, data, q) {
  const bounds = WORLD;
  const objects = itemObjects(data.mm, data.n, false);
  const points = itemObjects(data.mm, data.n, true);
  const c = WORLD.width / 2;
  const fill = (t, items) => {
    for (const o of items) t.insert(o);
    t.searchPoint(c, c);
    return t;
  };
  const rect = { x: 0, y: 0, width: 0, height: 0 };
  const { at } = q;
  return {
    build: () => fill(new qk.Quadtree({ bounds }), objects),
    builds: {
      'grid-build': () => fill(new qk.GridLooseQuadtree({ bounds }), objects),
      'pq-build': () => fill(new qk.PointQuadtree({ bounds }), points),
      'pq-knn1': () => fill(new qk.PointQuadtree({ bounds }), points),
    },
    check: (t) => t.size,
    queries: {
      q0: windowPass(q.windows.q0, (t, x, y, width, height) => {
        rect.x = x;
        rect.y = y;
        rect.width = width;
        rect.height = height;
        return t.search(rect).length;
      }),
      'pq-knn1': pass((t, i) => t.nearest(at[2 * i], at[2 * i + 1], 1).length),
    },
  };
}

// quadkit/cluster's Clusterer over the cities as GeoJSON points, asked for map views.
function quadkitClusters(Clusterer, data) {
  return clusterFeeder(() => new Clusterer({}), data);
}

/** A clusterer (quadkit's or supercluster, made by `make`): load the features, ask map views. */
export function clusterFeeder(make, data) {
  const features = pointFeatures(data.xy);
  const views = mapViews(data.xy, QUERIES, 43);
  const box = [0, 0, 0, 0];
  return {
    build: () => make().load(features),
    check: () => features.length,
    queries: {
      views: pass((t, i) => {
        box[0] = views[5 * i];
        box[1] = views[5 * i + 1];
        box[2] = views[5 * i + 2];
        box[3] = views[5 * i + 3];
        return t.getClusters(box, views[5 * i + 4]).length;
      }),
    },
  };
}

/** A many-body force (quadkit's or d3-force's, made by `make`): initialize, then ticks. */
export function forceFeeder(make, quick) {
  const nodes = forceNodes(JOBS.find((j) => j.id === 'force').size(quick), 42);
  return {
    build: () => {
      const force = make();
      force.initialize(nodes, mulberry32(7));
      return force;
    },
    check: () => nodes.length,
    queries: {
      tick: (force) => {
        force(0.5);
        return nodes.length;
      },
    },
    // A pass is one tick of every node, not QUERIES queries.
    single: true,
  };
}

/**
 * The feeder of one measurement: `{ build, builds, queries, check, single }`, where `build()`
 * makes the index (`builds[op]` instead when the op has its own), `queries[op](index)` runs a
 * pass and returns its count, and `check(index)` the count a build row reports.
 * @param spec - `{ job, lib, door, op, quick, citiesFile, dist }`: `dist`, the URL of a copy of
 *   quadkit's dist/ folder (with a slash at the end), or none for dist/ itself.
 */
export async function feeder({ job, lib, door, quick, citiesFile, dist }) {
  // quadkit from `dist` (a copy of dist/ taken when the table started), else from dist/.
  const quadkit = (path) => import(new URL(path, dist ?? new URL('../../dist/', import.meta.url)));
  if (job === 'force') {
    const { forceManyBody } =
      lib === 'quadkit' ? await quadkit('force.js') : await import('d3-force');
    return forceFeeder(forceManyBody, quick);
  }
  const data = dataOf(job, quick, citiesFile);
  if (job === 'clusters') {
    if (lib === 'quadkit') {
      const { Clusterer } = await quadkit('cluster/index.js');
      return quadkitClusters(Clusterer, data);
    }
    const { default: Supercluster } = await import('supercluster');
    return clusterFeeder(() => new Supercluster({}), data);
  }
  const q = queriesOf(job, data);
  if (lib === 'quadkit') {
    const qk = await quadkit('index.js');
    if (job === 'dynamic') return quadkitDynamic(qk, data, q);
    const geo = job === 'geo' ? await quadkit('geo/index.js') : null;
    return quadkitStatic(qk, geo, door, data, q);
  }
  return peerFeeder({ lib, door, job, data, q, pass, windowPass, within: [WITHIN_KM, EARTH_KM] });
}
