// Workload: each index's object door beside its typed-array door, in one process. A row is one
// kind of query asked both ways of the same items: of a tree built with from(objects) or
// load(objects), through the forms that return the objects (search, searchPoint, searchCircle,
// nearest, raycast), and of a tree built from a Float64Array (fromBoxes, fromPoints), through the
// allocation-free *Into forms, which return item indices. The two doors take turns in blocks of
// passes (typed, object, object, typed), so that both meet the same state of the machine, and the
// ratio is the median of the rounds' ratios. Measured in processes of their own, as the static tables measure them, one
// cell moved by up to 2x from one process to the next on a 2-core VM (the object door's 0.01%
// windows over 1M boxes: 4.2-6.1 ms per 1,000, the typed door's 2.9-3.7), more than the doors
// differ.

import { cityPoints, mulberry32, randomBoxes, randomPoints, randomWindows } from '../data.js';
import { gc, median, now, sink } from '../measure.js';
import { makeObjects, rectQuery } from './static-objects.js';

export const id = 'doors';

/** Node processes per table: each cell is the median over them. */
export const processes = 3;

const WORLD = 1000;
/** Query warm-up: at least WARM_PAIRS pairs of passes and WARM_MS of them, at most MAX_WARM. */
const WARM_PAIRS = 5;
/** Passes per block (the first not counted). */
const BLOCK = 4;
const WARM_MS = 300;
const MAX_WARM = 100;

/** The parts of this workload, each a table. */
export function parts() {
  return ['boxes', 'points', 'cities', 'dynamic'];
}

/**
 * Times `typed` and `object` (each returns a number: the answers' count) after a warm-up, in
 * rounds of four blocks of BLOCK passes: typed, object, object, typed (an ABBA design: each
 * door runs once right after the other door and once after itself, and a drift in time weighs
 * on both alike). The first pass of a block, which finds the caches full of the other tree's
 * data, is not counted. Returns the median pass of each door and the median of the rounds'
 * ratios (object / typed, of the blocks' medians summed per door); `mismatch` is set when the
 * two doors' answers differ.
 */
function paired(typed, object, { rounds, warmMs }) {
  let warmed = 0;
  let spent = 0;
  while (warmed < WARM_PAIRS || (spent < warmMs && warmed < MAX_WARM)) {
    const t0 = now();
    sink.value += typed() + object();
    spent += now() - t0;
    warmed++;
  }
  const all = { typed: [], object: [] };
  const ratios = [];
  const answers = { typed: 0, object: 0 };
  for (let k = 0; k < rounds; k++) {
    const sum = { typed: 0, object: 0 };
    for (const door of ['typed', 'object', 'object', 'typed']) {
      const run = door === 'typed' ? typed : object;
      const times = [];
      for (let p = 0; p < BLOCK; p++) {
        const t0 = now();
        answers[door] = run();
        const t = now() - t0;
        if (p > 0) times.push(t);
      }
      sink.value += answers[door];
      sum[door] += median(times);
      all[door].push(...times);
    }
    ratios.push(sum.object / sum.typed);
  }
  return {
    typed: median(all.typed),
    object: median(all.object),
    ratio: median(ratios),
    mismatch: answers.typed !== answers.object,
  };
}

// The items of a part: their boxes (min/max per item), the same items as objects, and the world.
function dataOf(part, quick) {
  if (part === 'cities') {
    const xy = cityPoints();
    return {
      xy,
      label: `the ${(xy.length / 2).toLocaleString('en-US')} cities`,
      world: { x: -180, y: -60, width: 360, height: 130 },
    };
  }
  const n = part === 'dynamic' ? (quick ? 20_000 : 200_000) : quick ? 100_000 : 1_000_000;
  const label = `${n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`} ${part === 'points' ? 'points' : 'boxes'}`;
  const world = { x: 0, y: 0, width: WORLD, height: WORLD };
  if (part === 'points') return { xy: randomPoints(n, { world: WORLD, seed: 5 }), label, world };
  const seed = part === 'dynamic' ? 1 : 3;
  return { boxes: randomBoxes(n, { world: WORLD, minSize: 0, maxSize: 2, seed }), label, world };
}

// The queries of a part, 4 numbers per query where they take two points: windows of 0.01% and 1%
// of the world, points at the centres of random items, query points uniform over the world,
// and segments from them in a random direction, up to a twentieth of the world's width long.
function queriesOf(mm, n, nQ, world) {
  const rnd = mulberry32(9);
  const at = new Float64Array(2 * nQ);
  const seg = new Float64Array(4 * nQ);
  const hit = new Float64Array(2 * nQ);
  for (let i = 0; i < nQ; i++) {
    const x = world.x + rnd() * world.width;
    const y = world.y + rnd() * world.height;
    const angle = rnd() * 2 * Math.PI;
    const len = (rnd() * world.width) / 20;
    at.set([x, y], 2 * i);
    seg.set([x, y, x + len * Math.cos(angle), y + len * Math.sin(angle)], 4 * i);
    const j = Math.floor(rnd() * n);
    hit.set([(mm[4 * j] + mm[4 * j + 2]) / 2, (mm[4 * j + 1] + mm[4 * j + 3]) / 2], 2 * i);
  }
  const windows = [0.0001, 0.01].map((f, k) => {
    const w = randomWindows(nQ, { world: 1, areaFraction: f, seed: 4 + k });
    for (let i = 0; i < nQ; i++) {
      w[4 * i] = world.x + w[4 * i] * world.width;
      w[4 * i + 1] = world.y + w[4 * i + 1] * world.height;
      w[4 * i + 2] = w[4 * i] + w[4 * i + 2] * world.width;
      w[4 * i + 3] = w[4 * i + 1] + w[4 * i + 3] * world.height;
    }
    return w;
  });
  // A radius that covers about 0.01% of the world.
  const radius = Math.sqrt((0.0001 * world.width * world.height) / Math.PI);
  return { at, seg, hit, windows, radius };
}

// The query rows of one index: [label, typed pass, object pass] per kind of query; a pass runs
// every query of its kind on one tree and returns the number of answers.
function queryOps(q, nQ) {
  const out = [];
  const items = [];
  const distances = new Float64Array(1);
  const pass = (fn) => (t) => {
    let s = 0;
    for (let i = 0; i < nQ; i++) s += fn(t, i);
    return s;
  };
  const windows = (w, search) => {
    const query = rectQuery(search);
    return pass((t, i) => query(t, w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]));
  };
  const { at, seg, hit, radius } = q;
  return [
    ...q.windows.map((w, k) => [
      `search, ${k === 0 ? '0.01%' : '1%'} windows`,
      windows(w, (t, rect) => t.searchInto(rect, out)),
      windows(w, (t, rect) => t.search(rect).length),
    ]),
    [
      'searchPoint, at item centres',
      pass((t, i) => t.searchPointInto(hit[2 * i], hit[2 * i + 1], out)),
      pass((t, i) => t.searchPoint(hit[2 * i], hit[2 * i + 1]).length),
    ],
    [
      'searchCircle, 0.01% of the area',
      pass((t, i) => t.searchCircleInto(at[2 * i], at[2 * i + 1], radius, out)),
      pass((t, i) => t.searchCircle(at[2 * i], at[2 * i + 1], radius).length),
    ],
    ...[1, 10].map((k) => [
      `nearest, k = ${k}`,
      pass((t, i) => t.nearestInto(at[2 * i], at[2 * i + 1], k, Number.POSITIVE_INFINITY, out)),
      pass((t, i) => t.nearest(at[2 * i], at[2 * i + 1], k).length),
    ]),
    [
      'raycast, first hit',
      pass((t, i) =>
        t.raycastInto(
          seg[4 * i],
          seg[4 * i + 1],
          seg[4 * i + 2],
          seg[4 * i + 3],
          1,
          items,
          distances,
        ),
      ),
      pass((t, i) =>
        t.raycast(seg[4 * i], seg[4 * i + 1], seg[4 * i + 2], seg[4 * i + 3]) === null ? 0 : 1,
      ),
    ],
  ];
}

export function run({ quick, quadkit, part }) {
  const nQ = quick ? 200 : 1000;
  const rounds = quick ? 1 : 5;
  const warmMs = quick ? 0 : WARM_MS;
  const { boxes, xy, label, world } = dataOf(part, quick);
  const points = xy !== undefined;
  const n = points ? xy.length / 2 : boxes.length / 4;
  // Min/max boxes (x, y, x, y for points), and the same items as objects.
  const mm = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    const x = points ? xy[2 * i] : boxes[4 * i];
    const y = points ? xy[2 * i + 1] : boxes[4 * i + 1];
    mm.set([x, y, points ? x : x + boxes[4 * i + 2], points ? y : y + boxes[4 * i + 3]], 4 * i);
  }
  const objects = makeObjects(mm, n, points);
  const q = queriesOf(mm, n, nQ, world);
  const rows = [];
  const warnings = [];
  const add = (index, op, m) => {
    rows.push({
      name: `quadkit ${index}: ${op}`,
      quadkit: true,
      values: { typed: m.typed, object: m.object, ratio: m.ratio },
    });
    if (m.mismatch) warnings.push(`${index} ${op}: the two doors gave different answer counts`);
  };

  // The indexes and their two doors: [name, typed door, object door (, toRect door)].
  const doors = [];
  if (quadkit && part !== 'dynamic') {
    const { StaticQuadtree } = quadkit;
    doors.push([
      'StaticQuadtree',
      points ? () => StaticQuadtree.fromPoints(xy) : () => StaticQuadtree.fromBoxes(mm),
      () => StaticQuadtree.from(objects),
    ]);
  } else if (quadkit) {
    const { Quadtree, GridLooseQuadtree, PointQuadtree } = quadkit;
    const bounds = world;
    const xy2 = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) xy2.set([mm[4 * i], mm[4 * i + 1]], 2 * i);
    const pointObjects = objects.map((o) => ({ x: o.x, y: o.y }));
    doors.push(
      [
        'Quadtree',
        () => Quadtree.fromBoxes(mm, { bounds }),
        () => new Quadtree({ bounds }).load(objects),
      ],
      [
        'GridLooseQuadtree',
        () => GridLooseQuadtree.fromBoxes(mm, { bounds }),
        () => new GridLooseQuadtree({ bounds }).load(objects),
      ],
      [
        'PointQuadtree',
        () => PointQuadtree.fromPoints(xy2, { bounds }),
        () => new PointQuadtree({ bounds }).load(pointObjects),
      ],
    );
  }

  for (const [index, typedDoor, objectDoor] of doors) {
    const typed = typedDoor();
    const object = objectDoor();
    gc();
    for (const [op, typedPass, objectPass] of queryOps(q, nQ)) {
      const m = paired(
        () => typedPass(typed),
        () => objectPass(object),
        { rounds, warmMs },
      );
      add(index, op, m);
    }
  }

  return {
    id: `${id}-${part}`,
    title: `Object door beside typed door, side by side: ${label}`,
    setup:
      `${label}${points ? '' : ' (0–2 units)'} in a Float64Array, for the typed door ` +
      `(${points ? 'fromPoints' : part === 'dynamic' ? 'fromBoxes, fromPoints' : 'fromBoxes'}, then the *Into forms, which write item indices into one reused ` +
      'array), and the same items held as { x, y, width, height } or { x, y } objects, for the ' +
      `object door (${part === 'dynamic' ? 'load(objects)' : 'from(objects)'}, then the forms that return new arrays of the objects; ` +
      `raycast returns { item, distance }). ${nQ} queries per pass; after warm-up passes (at ` +
      `least ${WARM_PAIRS} of each door and ${warmMs} ms), ${rounds} rounds of four blocks of ${BLOCK} passes (typed, object, ` +
      'object, typed), the first pass of each block not counted. Cells: the median pass of each door ' +
      "(ms) and the median of the rounds' ratios; " +
      `${quick ? 'one Node process' : `the median of ${processes} Node processes`}.`,
    metrics: [
      { key: 'typed', label: 'typed door' },
      { key: 'object', label: 'object door' },
      { key: 'ratio', label: 'object / typed', unit: '×', digits: 2 },
    ],
    rows,
    warnings,
    notes: [
      'The builds are compared in the static tables (and the load table), each door in a ' +
        'process of its own: a build in a process that holds a million objects, after a full ' +
        'collection of them, is not the typed door a user of typed arrays runs.',
    ],
  };
}
