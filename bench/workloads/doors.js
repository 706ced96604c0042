// Workload: each index's object door beside its typed-array door, in one process. A row is one
// kind of query asked both ways of the same items: of a tree built with from(objects) or
// load(objects), through the forms that return new arrays of the objects (search, searchPoint,
// searchCircle, nearest, raycast), and of a tree built from a Float64Array (fromBoxes,
// fromPoints), through the allocation-free *Into forms, which write item indices into an array
// the caller reuses. The two doors take turns in blocks of passes (typed, object, object, typed),
// so that both meet the same state of the machine, and the ratio is the median of the rounds'
// ratios of total time. Measured in processes of their own, as the static tables measure them,
// one cell moved by up to 2x from one process to the next on a 2-core VM (the object door's
// 0.01% windows over 1M boxes: 4.2-6.1 ms per 1,000, the typed door's 2.9-3.7), more than the
// doors differ.

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
import { gc, median, now, sink } from '../measure.js';
import { rectQuery } from './static-objects.js';

export const id = 'doors';

/** Node processes per table: each cell is the median over them. */
export const processes = 3;

const WORLD = 1000;
/** Query warm-up: at least WARM_PAIRS pairs of passes and WARM_MS of them, at most MAX_WARM. */
const WARM_PAIRS = 5;
const WARM_MS = 300;
const MAX_WARM = 100;
/** Passes per block (the first not counted). */
const BLOCK = 4;
/** The dynamic indexes, each measured in a process of its own. */
const DYNAMIC = ['Quadtree', 'GridLooseQuadtree', 'PointQuadtree'];

/** The parts of this workload, each a table. */
export function parts() {
  return ['boxes', 'points', 'cities', 'dynamic'];
}

/** The dynamic part runs each index in a process of its own (see `join`). */
export function splits(part) {
  return part === 'dynamic' ? DYNAMIC : [undefined];
}

/** One table from the results of its splits: their rows in order. */
export function join(pieces) {
  return {
    ...pieces[0],
    rows: pieces.flatMap((p) => p.rows),
    warnings: [...new Set(pieces.flatMap((p) => p.warnings ?? []))],
    cpuShare: Math.min(...pieces.map((p) => p.cpuShare)),
  };
}

/**
 * Times `typed` and `object` (each runs one pass and returns a number, folded into the sink)
 * after a warm-up, in rounds of four blocks of BLOCK passes: typed, object, object, typed (an
 * ABBA design: each door runs once right after the other door and once after itself, and a
 * drift in time weighs on both alike). The first pass of a block, which finds the caches full of
 * the other tree's data, is not counted; the others are, collections included (the object
 * door's allocations are collected during its own passes). Returns the median over the rounds
 * of each door's mean pass, and of the rounds' ratios of total time (object / typed).
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
  const counted = 2 * (BLOCK - 1);
  const means = { typed: [], object: [] };
  const ratios = [];
  for (let k = 0; k < rounds; k++) {
    const total = { typed: 0, object: 0 };
    for (const door of ['typed', 'object', 'object', 'typed']) {
      const run = door === 'typed' ? typed : object;
      for (let p = 0; p < BLOCK; p++) {
        const t0 = now();
        sink.value += run();
        if (p > 0) total[door] += now() - t0;
      }
    }
    means.typed.push(total.typed / counted);
    means.object.push(total.object / counted);
    ratios.push(total.object / total.typed);
  }
  return { typed: median(means.typed), object: median(means.object), ratio: median(ratios) };
}

// The items of a part: boxes ([x, y, w, h] per item) or points (xy), a label, and the world.
function dataOf(part, quick) {
  if (part === 'cities') {
    const xy = cityPoints();
    return {
      xy,
      label: `the ${(xy.length / 2).toLocaleString('en-US')} cities`,
      world: CITIES_WORLD,
    };
  }
  const n = part === 'dynamic' ? (quick ? 20_000 : 200_000) : quick ? 100_000 : 1_000_000;
  const count = n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`;
  const world = { x: 0, y: 0, width: WORLD, height: WORLD };
  if (part === 'points') {
    return { xy: randomPoints(n, { world: WORLD, seed: 5 }), label: `${count} points`, world };
  }
  const seed = part === 'dynamic' ? 1 : 3;
  const boxes = randomBoxes(n, { world: WORLD, minSize: 0, maxSize: 2, seed });
  return { boxes, label: `${count} boxes`, world };
}

// The queries of a part over items with boxes `mm` (min/max per item): the static tables'
// windows (see queryWindows) as minX, minY, maxX, maxY, points at the centres of random items, query points
// uniform over the world, and segments from them in a random direction, up to a twentieth of the
// world's width long.
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
  // The windows as minX, minY, maxX, maxY.
  const windows = queryWindows(nQ, world);
  for (const w of windows) {
    for (let i = 0; i < nQ; i++) {
      w[4 * i + 2] += w[4 * i];
      w[4 * i + 3] += w[4 * i + 1];
    }
  }
  const radius = queryRadius(world);
  return { at, seg, hit, windows, radius };
}

// The query rows of one index: { op, typed, object, ask } per kind of query. `typed` and
// `object` run a pass (every query of the kind on one tree, through one door) and return the
// number of answers; `ask(t, i)` answers query i through the forms that return arrays (on either
// tree), for the untimed check that both doors give the same items.
function queryOps(q, nQ) {
  const out = [];
  const items = [];
  const distances = new Float64Array(1);
  const pass = (fn) => (t) => {
    let s = 0;
    for (let i = 0; i < nQ; i++) s += fn(t, i);
    return s;
  };
  const { at, seg, hit, radius } = q;
  const windowOps = q.windows.map((w, k) => {
    const into = rectQuery((t, rect) => t.searchInto(rect, out));
    const search = rectQuery((t, rect) => t.search(rect));
    const query = (fn) => (t, i) => fn(t, w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]);
    return {
      op: `search, ${k === 0 ? '0.01%' : '1%'} windows`,
      typed: pass(query(into)),
      object: pass((t, i) => query(search)(t, i).length),
      ask: query(search),
    };
  });
  const ray = (t, i) => t.raycast(seg[4 * i], seg[4 * i + 1], seg[4 * i + 2], seg[4 * i + 3]);
  return [
    ...windowOps,
    {
      op: 'searchPoint, at item positions',
      typed: pass((t, i) => t.searchPointInto(hit[2 * i], hit[2 * i + 1], out)),
      object: pass((t, i) => t.searchPoint(hit[2 * i], hit[2 * i + 1]).length),
      ask: (t, i) => t.searchPoint(hit[2 * i], hit[2 * i + 1]),
    },
    {
      op: 'searchCircle, 0.01% of the area',
      typed: pass((t, i) => t.searchCircleInto(at[2 * i], at[2 * i + 1], radius, out)),
      object: pass((t, i) => t.searchCircle(at[2 * i], at[2 * i + 1], radius).length),
      ask: (t, i) => t.searchCircle(at[2 * i], at[2 * i + 1], radius),
    },
    ...[1, 10].map((k) => ({
      op: `nearest, k = ${k}`,
      typed: pass((t, i) =>
        t.nearestInto(at[2 * i], at[2 * i + 1], k, Number.POSITIVE_INFINITY, out),
      ),
      object: pass((t, i) => t.nearest(at[2 * i], at[2 * i + 1], k).length),
      ask: (t, i) => t.nearest(at[2 * i], at[2 * i + 1], k),
    })),
    {
      op: 'raycast, first hit',
      typed: pass((t, i) =>
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
      object: pass((t, i) => (ray(t, i) === null ? 0 : 1)),
      ask: (t, i) => {
        const h = ray(t, i);
        return h === null ? [] : [h.item];
      },
    },
  ];
}

// The first query whose answers differ between the doors, or -1: the typed tree answers item
// indices, the object tree objects, mapped to their indices by `indexOf`. Nearest answers and
// ray hits are compared in order (ties go by item index on both), the others as sets.
function firstMismatch(op, typed, object, nQ, indexOf) {
  const ordered = op.op.startsWith('nearest') || op.op.startsWith('raycast');
  for (let i = 0; i < nQ; i++) {
    const a = Array.from(op.ask(typed, i));
    const b = Array.from(op.ask(object, i), (o) => indexOf.get(o));
    if (!ordered) {
      a.sort((x, y) => x - y);
      b.sort((x, y) => x - y);
    }
    if (a.length !== b.length || a.some((v, j) => v !== b[j])) return i;
  }
  return -1;
}

export function run({ quick, quadkit, part, split }) {
  const nQ = quick ? 200 : 1000;
  const rounds = quick ? 1 : 5;
  const warmMs = quick ? 0 : WARM_MS;
  const { boxes, xy, label, world } = dataOf(part, quick);
  const pointIndex = split === 'PointQuadtree';
  // PointQuadtree takes the boxes' min corners.
  const points = xy !== undefined || pointIndex;
  const n = xy !== undefined ? xy.length / 2 : boxes.length / 4;
  // Min/max boxes (x, y, x, y for points), and the same items as objects.
  const mm = new Float64Array(4 * n);
  const pxy = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const x = xy !== undefined ? xy[2 * i] : boxes[4 * i];
    const y = xy !== undefined ? xy[2 * i + 1] : boxes[4 * i + 1];
    const w = points ? 0 : boxes[4 * i + 2];
    const h = points ? 0 : boxes[4 * i + 3];
    mm.set([x, y, x + w, y + h], 4 * i);
    pxy.set([x, y], 2 * i);
  }
  const objects = itemObjects(mm, n, points);
  const indexOf = new Map(objects.map((o, i) => [o, i]));
  const q = queriesOf(mm, n, nQ, world);

  // The index and its two doors: a tree from the typed array and one from the objects.
  let index = 'StaticQuadtree';
  let doors = null;
  if (quadkit && part !== 'dynamic') {
    const { StaticQuadtree } = quadkit;
    doors = [
      () => (points ? StaticQuadtree.fromPoints(pxy) : StaticQuadtree.fromBoxes(mm)),
      () => StaticQuadtree.from(objects),
    ];
  } else if (quadkit) {
    index = split;
    const Index = quadkit[index];
    const bounds = world;
    doors = [
      () => (pointIndex ? Index.fromPoints(pxy, { bounds }) : Index.fromBoxes(mm, { bounds })),
      () => new Index({ bounds }).load(objects),
    ];
  }

  const rows = [];
  const warnings = [];
  if (doors !== null) {
    const typed = doors[0]();
    const object = doors[1]();
    for (const op of queryOps(q, nQ)) {
      const bad = firstMismatch(op, typed, object, nQ, indexOf);
      if (bad >= 0) warnings.push(`${index}, ${op.op}: the doors answer query ${bad} differently`);
      gc();
      const m = paired(
        () => op.typed(typed),
        () => op.object(object),
        { rounds, warmMs },
      );
      rows.push({
        name: `quadkit ${index}: ${op.op}`,
        quadkit: true,
        values: { typed: m.typed, object: m.object, ratio: m.ratio },
      });
    }
  }

  const dynamic = part === 'dynamic';
  return {
    id: `${id}-${part}`,
    title: `Object door beside typed door, side by side: ${label}`,
    setup:
      `${label}${points && !dynamic ? '' : ' (0–2 units)'}${dynamic ? ', the points of PointQuadtree their min corners,' : ''} in a Float64Array, ` +
      `for the typed door (${dynamic ? 'fromBoxes, fromPoints' : points ? 'fromPoints' : 'fromBoxes'}, then the *Into forms, ` +
      'which write item indices into one reused array), and the same items held as ' +
      '{ x, y, width, height } or { x, y } objects, for the object door ' +
      `(${dynamic ? 'load(objects)' : 'from(objects)'}, then the forms that return new arrays of the objects; ` +
      `raycast returns { item, distance }). ${nQ} queries per pass; after warm-up passes (at ` +
      `least ${WARM_PAIRS} of each door and ${warmMs} ms, up to ${MAX_WARM}), ${rounds} ` +
      `round${rounds === 1 ? '' : 's'} of four blocks of ${BLOCK} passes (typed, object, object, ` +
      'typed), the first pass of each block not counted. Cells: the mean pass of each door (ms) ' +
      "and the ratio of the doors' total times, each the median over the rounds" +
      `${quick ? '' : ` and then over ${processes} Node processes`}` +
      `${dynamic ? ', each index in processes of its own' : ''}. Before timing, every query's ` +
      'answers are compared between the doors (untimed).',
    metrics: [
      { key: 'typed', label: 'typed door' },
      { key: 'object', label: 'object door' },
      { key: 'ratio', label: 'object / typed', unit: '×', digits: 2 },
    ],
    rows,
    warnings,
    notes: [
      "Both trees are alive in one process and the library's query code serves both (the " +
        'object tree answers runs of leaf positions, the typed tree item indices), where an ' +
        'application that uses one door runs only its own.',
      'The builds are compared in the static tables (and the load table), each door in a ' +
        'process of its own: a typed build in a process that holds a million objects is not the ' +
        'one a user of typed arrays runs.',
    ],
  };
}
