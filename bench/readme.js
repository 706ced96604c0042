// The performance tables from one full run: `readmeRows(json)` renders every table row of
// bench/README.md's Performance section from bench/results/latest.json; `applyRows` puts them in
// place of the rows with the same first cell, in order, and `applySubset` does the same for the
// top-level README, whose Performance section holds some of those rows (one table per job), in
// the same order. test/bench/readme.test.ts checks that both files hold exactly these rows, so the
// tables cannot drift from the committed run.
//
//   node bench/readme.js           rewrites both files' table rows from latest.json
//   node bench/readme.js --check   exits 1 when a row differs
//   node bench/readme.js --cold bench/results/partial.json
//                                  prints the cold and warm tables' rows of another run (a smoke
//                                  run's, say), to check them; writes nothing
//
// The prose around the tables is written by hand from the same file.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FLATBUSH_OBJECTS,
  FLATBUSH_OBJECTS_MEMORY,
  loadRow,
  OBJECT_DOOR,
  TYPED_DOOR,
} from './names.js';
import { coldGoalCell, coldPeerCell, coldSpeedup } from './render.js';
import { goalOf, JOBS, ROWS } from './workloads/cold-jobs.js';

// --- Numbers as the README prints them ---

const fixed = (x, digits) => x.toFixed(digits);
const thousands = (x) => Math.round(x).toLocaleString('en-US');

/** Three significant figures or so: 1,047 / 294 / 73.1 / 9.65 / 0.653; '—' when absent. */
export function f3(x) {
  if (x === null || x === undefined) return '—';
  if (x >= 1000) return thousands(x);
  if (x >= 100) return fixed(x, 0);
  if (x >= 10) return fixed(x, 1);
  if (x >= 1) return fixed(x, 2);
  return fixed(x, 3);
}

/** The static tables' figures: one decimal below 100. */
function f2(x) {
  if (x >= 1000) return thousands(x);
  if (x >= 100) return fixed(x, 0);
  return fixed(x, 1);
}

/** Three significant figures with the rest zeroed: 4,840 / 44,200. */
function approx3(x) {
  const e = Math.floor(Math.log10(x)) - 2;
  return thousands(Math.round(x / 10 ** e) * 10 ** e);
}

const bold = (s, on) => (on ? `**${s}**` : s);
const one = (x) => fixed(x, 1);
const whole = (x) => fixed(x, 0);

// --- Reading the run ---

// A cell's number: plain, or { ms, tag } with a note.
function num(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  return typeof v.ms === 'number' ? v.ms : null;
}

// The number in cell `key` of a run's row `name` of workload `id` (part `n`), or null.
function reader(json) {
  const results = json.results;
  const workload = (id, n) => {
    const w = results.find((r) => r.id === id && (n === undefined || r.n === n));
    if (!w)
      throw new Error(`bench/readme.js: no workload ${id}${n ? ` (n = ${n})` : ''} in the run`);
    return w;
  };
  const row = (id, name, n) => {
    const r = workload(id, n).rows.find((x) => x.name === name);
    if (!r) throw new Error(`bench/readme.js: no row "${name}" in ${id}`);
    return r;
  };
  return (id, name, key, n) => num(row(id, name, n).values[key]);
}

// --- The tables, in README order ---

/**
 * The rows of the cold and warm tables, one table per job in the order of bench/workloads/cold-jobs.js:
 * door, fastest peer, quadkit and peer cold, speed-up, quadkit and peer warm, speed-up, goal. A
 * run without them (a run from before the cold workload) gives each row with its peers and goal
 * and a dash in every measured cell.
 * @param json - the parsed bench/results/latest.json.
 */
export function coldRows(json) {
  const out = [];
  const ms = (x) => (typeof x === 'number' ? f3(x) : '—');
  const speedup = (x) => (x === null ? '—' : `${fixed(x, 2)}×`);
  for (const job of JOBS) {
    const result = json.results.find((r) => r.id === `cold-${job.id}`);
    for (const spec of ROWS[job.id]) {
      if (!result) {
        const peers = [...new Set(spec.peers.map((p) => p.lib))].join(' / ');
        out.push(
          `| ${spec.label} | ${peers} | — | — | — | — | — | — | ≥ ${goalOf(spec).factor}× |`,
        );
        continue;
      }
      const row = result.rows.find((r) => r.name === spec.label);
      if (!row) throw new Error(`bench/readme.js: no row "${spec.label}" in cold-${job.id}`);
      const v = row.values;
      out.push(
        `| ${spec.label} | ${coldPeerCell(row)} | ${ms(v.qkCold)} | ${ms(v.peerCold)} | ` +
          `${speedup(coldSpeedup(row, 'Cold'))} | ${ms(v.qkWarm)} | ${ms(v.peerWarm)} | ` +
          `${speedup(coldSpeedup(row, 'Warm'))} | ${coldGoalCell(row)} |`,
      );
    }
  }
  return out;
}

/**
 * Every table row of the README's Performance section, in order, from a run's latest.json.
 * @param json - the parsed bench/results/latest.json.
 */
export function readmeRows(json) {
  const V = reader(json);
  const out = coldRows(json);
  const P = (s) => out.push(s);

  // Dynamic rectangles: inserts and removes, windows over 1M inserted boxes.
  const ins = (r) => V('insert', r, 'insert');
  const rem = (r) => V('insert', r, 'remove');
  const q = (r, k) => V('query', r, k);
  const QC = 'quadkit Quadtree (classic)';
  const QL = 'quadkit Quadtree (loose ×2)';
  const JS4 = 'quadtree-js (defaults, maxLevels 4)';
  const TS4 = 'quadtree-ts (defaults, maxLevels 4)';
  const JS7 = 'quadtree-js (maxLevels 7)';
  const TS7 = 'quadtree-ts (maxLevels 7)';
  const mi = Math.min(...[QC, QL, 'rbush', JS4, TS4, JS7, TS7].map(ins));
  const mr = Math.min(...[QC, QL, 'rbush'].map(rem));
  for (const [label, r] of [
    ['**quadkit Quadtree** classic', QC],
    ['**quadkit Quadtree** loose', QL],
  ]) {
    P(
      `| ${label} | ${bold(f3(ins(r)), ins(r) === mi)} | ${bold(f3(rem(r)), rem(r) === mr)} | ` +
        `${f3(q(`${r} search`, 'q0.01'))} / ${f3(q(`${r} searchInto`, 'q0.01'))} | ` +
        `${f3(q(`${r} search`, 'q1'))} / ${f3(q(`${r} searchInto`, 'q1'))} |`,
    );
  }
  P(
    `| rbush | ${bold(f3(ins('rbush')), ins('rbush') === mi)} | ${bold(f3(rem('rbush')), rem('rbush') === mr)} | ` +
      `${f3(q('rbush', 'q0.01'))} | ${f3(q('rbush', 'q1'))} |`,
  );
  P(
    `| quadtree-js / -ts (defaults: 4 levels) | ${bold(f3(ins(JS4)), ins(JS4) === mi)} / ${bold(f3(ins(TS4)), ins(TS4) === mi)} | ` +
      `no remove / ≈ ${approx3(rem(TS4))} | | |`,
  );
  P(
    `| quadtree-js / -ts (7 levels) | ${f3(ins(JS7))} / ${f3(ins(TS7))} | no remove / ≈ ${approx3(rem(TS7))} | ` +
      `${f3(q('quadtree-js', 'q0.01'))} / ${f3(q('quadtree-ts', 'q0.01'))} | ` +
      `${f3(q('quadtree-js', 'q1'))} / ${f3(q('quadtree-ts', 'q1'))} |`,
  );
  P(
    `| flatbush (static: bulk build) | | | **${f3(q('flatbush', 'q0.01'))}** | **${f3(q('flatbush', 'q1'))}** |`,
  );

  // Moving boxes: ms per frame at 10k, 50k, 100k and GC events at 100k.
  const G = 'quadkit GridLooseQuadtree ';
  const Ns = [10000, 50000, 100000];
  const fr = (r, n) => V('dynamic', r, 'frame', n);
  const gc = (r) => V('dynamic', r, 'gc', 100000);
  const frame = (x) => (x < 1 ? fixed(x, 3) : f3(x));
  const f1 = (x) => (x < 100 ? fixed(x, 1) : f3(x));
  for (const [label, r, b] of [
    [
      '**quadkit GridLooseQuadtree** `fromBoxes` (`updateAll` + `pairs`), typed arrays, numbers',
      `${G}updateAll() + pairs(), ${TYPED_DOOR}`,
      true,
    ],
    [
      '**quadkit GridLooseQuadtree** objects (`updateAll` + `pairs`)',
      `${G}updateAll() + pairs()`,
      false,
    ],
    [
      '**quadkit GridLooseQuadtree** objects (`update` per box + `pairs`)',
      `${G}update() ×N + pairs()`,
      false,
    ],
  ]) {
    P(`| ${label} | ${Ns.map((n) => bold(frame(fr(r, n)), b)).join(' | ')} | **${gc(r)}** |`);
  }
  const CL = 'quadkit Quadtree (classic) updateAll() + pairs()';
  const LO = 'quadkit Quadtree (loose ×2) updateAll() + pairs()';
  P(
    `| **quadkit Quadtree** classic / loose, objects (\`updateAll\` + \`pairs\`) | ` +
      `${Ns.map((n) => `${f1(fr(CL, n))} / ${f1(fr(LO, n))}`).join(' | ')} | **0** |`,
  );
  for (const [label, r] of [
    [
      'sort-and-sweep baseline (insertion sort)',
      'baseline: sort-and-sweep (insertion sort, kept order)',
    ],
    ['flatbush (rebuild + search per box), typed arrays, indices', 'flatbush rebuild+search'],
    ['flatbush (rebuild + search per box), the same objects', FLATBUSH_OBJECTS],
    ['rbush (clear + load + search per box)', 'rbush clear+load+search'],
  ]) {
    const g = gc(r);
    P(`| ${label} | ${Ns.map((n) => f1(fr(r, n))).join(' | ')} | ${g === 0 ? '**0**' : g} |`);
  }
  const QJ = 'quadtree-js clear+insert+retrieve';
  const QT = 'quadtree-ts clear+insert+retrieve';
  P(
    `| quadtree-js / -ts (clear + insert + retrieve) | ` +
      `${Ns.map((n) => `${f1(fr(QJ, n))} / ${f1(fr(QT, n))}`).join(' | ')} | ${gc(QJ)} / ${gc(QT)} |`,
  );
  const DC = 'detect-collisions update+checkAll';
  P(
    `| detect-collisions (update + checkAll) | ${Ns.map((n) => f1(fr(DC, n))).join(' | ')} | ${gc(DC)} |`,
  );

  // Bulk load: the object door and the typed door of each dynamic index.
  const L = (r) => V('load', r, 'load');
  const loads = ['Quadtree', 'GridLooseQuadtree', 'PointQuadtree'].map((k) => [
    k,
    L(loadRow(k, false)),
    L(loadRow(k, true)),
  ]);
  const mo = Math.min(...loads.map((x) => x[1]));
  const mt = Math.min(...loads.map((x) => x[2]));
  for (const [k, o, t] of loads)
    P(`| **quadkit ${k}** | ${bold(f3(o), o === mo)} | ${bold(f3(t), t === mt)} |`);
  P(
    `| rbush \`load\` / d3-quadtree \`addAll\` (points) | ${f3(L('rbush load(objects)'))} / ${f3(L('d3-quadtree addAll (points)'))} | |`,
  );

  // Static data: 1M boxes, 1M points.
  const cols = ['build', 'q0', 'q1', 'radius', 'knn1', 'knn10'];
  const QK = 'quadkit StaticQuadtree';
  const QO = `quadkit StaticQuadtree ${OBJECT_DOOR}`;
  for (const part of ['boxes', 'points']) {
    const S = (r, k) => V(`static-${part}`, r, k);
    const peers =
      part === 'boxes'
        ? [
            ['flatbush', `flatbush ${OBJECT_DOOR}`],
            ['rbush (load) + rbush-knn', `rbush ${OBJECT_DOOR}`],
          ]
        : [
            ['flatbush', `flatbush ${OBJECT_DOOR}`],
            ['kdbush', `kdbush ${OBJECT_DOOR}`],
          ];
    const D3 = 'd3-quadtree (addAll)';
    const all = [QK, QO, ...peers.flat(), ...(part === 'points' ? [D3] : [])];
    const best = {};
    for (const c of cols) best[c] = Math.min(...all.map((r) => S(r, c)).filter((x) => x !== null));
    const cell = (r, c) => {
      const x = S(r, c);
      return x === null ? '' : bold(f2(x), x === best[c]);
    };
    P(`| **quadkit StaticQuadtree** (typed) | ${cols.map((c) => cell(QK, c)).join(' | ')} |`);
    P(`| **quadkit StaticQuadtree** (objects) | ${cols.map((c) => cell(QO, c)).join(' | ')} |`);
    if (part === 'boxes') {
      P(
        `| **quadkit StaticQuadtree** (objects through \`toRect\`) | ${f2(S(`${QO}, toRect`, 'build'))} | | | | | |`,
      );
    }
    for (const [t, o] of peers) {
      const pair = (c) => {
        const x = S(t, c);
        const y = S(o, c);
        if (x === null) return 'no kNN';
        return `${bold(f2(x), x === best[c])} / ${bold(f2(y), y === best[c])}`;
      };
      const label = t.startsWith('rbush') ? 'rbush (bulk load) + rbush-knn' : t;
      P(`| ${label} (typed / objects) | ${cols.map(pair).join(' | ')} |`);
    }
    if (part === 'points') {
      P(
        `| d3-quadtree (addAll; visit for ranges) | ${cols.map((c) => cell(D3, c) || 'no kNN').join(' | ')} |`,
      );
    }
  }

  // The object door beside the typed door, ratios per query form.
  const forms = [
    ['`search`, 0.01% windows', 'search, 0.01% windows'],
    ['`search`, 1% windows', 'search, 1% windows'],
    ['`searchPoint`', 'searchPoint, at item positions'],
    ['`searchCircle`, 0.01% of the area', 'searchCircle, 0.01% of the area'],
    ['`nearest`, k = 1', 'nearest, k = 1'],
    ['`nearest`, k = 10', 'nearest, k = 10'],
    ['`raycast`, first hit', 'raycast, first hit'],
  ];
  for (const [label, key] of forms) {
    const cells = [
      ...['boxes', 'points', 'cities'].map((p) =>
        V(`doors-${p}`, `quadkit StaticQuadtree: ${key}`, 'ratio'),
      ),
      ...['Quadtree', 'GridLooseQuadtree', 'PointQuadtree'].map((ix) =>
        V('doors-dynamic', `quadkit ${ix}: ${key}`, 'ratio'),
      ),
    ];
    P(`| ${label} | ${cells.map((x) => fixed(x, 2)).join(' | ')} |`);
  }

  // Memory: peak, RSS, heap + buffers and buffer per item.
  const M = (r, k) => V('memory', r, k);
  const join = (rows, k, fmt) =>
    rows.map((r) => (M(r, k) === null ? '—' : fmt(M(r, k)))).join(' / ');
  const statics = [`${QK} fromBoxes`, `${QK} ${OBJECT_DOOR}`, `${QK} fromPoints`];
  const staticPeers = ['flatbush', FLATBUSH_OBJECTS_MEMORY, 'kdbush (points)', 'rbush load'];
  const dynamics = [
    'quadkit Quadtree load',
    'quadkit GridLooseQuadtree load',
    'quadkit PointQuadtree load',
  ];
  const dynamicPeers = ['rbush load (dynamic size)', 'd3-quadtree addAll (points)'];
  P(
    `| **quadkit StaticQuadtree** \`fromBoxes\` / \`from(objects)\` / \`fromPoints\` (1M) | ` +
      `${join(statics, 'peak', one)} | ${join(statics, 'rss', one)} | ${join(statics, 'heap', one)} | ` +
      `${one(M(statics[0], 'buffer'))} |`,
  );
  P(
    `| flatbush / flatbush with the array of its objects / kdbush / rbush (1M) | ` +
      `${join(staticPeers, 'peak', one)} | ${join(staticPeers, 'rss', one)} | ` +
      `${join(staticPeers, 'heap', one)} | ${join(staticPeers, 'buffer', one)} |`,
  );
  P(
    `| **quadkit Quadtree** / **GridLooseQuadtree** / **PointQuadtree** \`load\` (200k) | ` +
      `${join(dynamics, 'peak', one)} | ${join(dynamics, 'rss', whole)} | ${join(dynamics, 'heap', whole)} | |`,
  );
  P(
    `| rbush / d3-quadtree (200k) | ${join(dynamicPeers, 'peak', one)} | ${join(dynamicPeers, 'rss', whole)} | ` +
      `${join(dynamicPeers, 'heap', one)} | |`,
  );

  // Both cores: the batch pool against one thread.
  const B = (r, k) => V('batch', r, k);
  const BASE = 'StaticQuadtree nearestInto, 1 thread (baseline)';
  const W1 = 'BatchPool, main + 1 worker';
  const W2 = 'BatchPool, main + 2 workers';
  const b1 = Math.min(B(W1, 'knn1'), B(W2, 'knn1'));
  const b10 = Math.min(B(W1, 'knn10'), B(W2, 'knn10'));
  P(
    `| StaticQuadtree \`nearestInto\`, one thread | ${f3(B(BASE, 'knn1'))} | ${f3(B(BASE, 'knn10'))} | 100% |`,
  );
  for (const [label, r] of [
    ['**BatchPool**, main thread + 1 worker', W1],
    ['**BatchPool**, main thread + 2 workers', W2],
  ]) {
    const speed = (k) => fixed(B(BASE, k) / B(r, k), 2);
    P(
      `| ${label} | ${bold(f3(B(r, 'knn1')), B(r, 'knn1') === b1)} (${speed('knn1')}×) | ` +
        `${bold(f3(B(r, 'knn10')), B(r, 'knn10') === b10)} (${speed('knn10')}×) | ${whole(B(r, 'main'))}% |`,
    );
  }

  // The jobs on top of the indexes: maps, graphs, clustering.
  const gk = (r) => V('geo-knn', r, 'knn');
  const gq = gk('quadkit PointQuadtree geoNearest');
  const gd = gk('geokdbush around (kdbush)');
  P(
    `| great-circle kNN, k = 10, 1,000 queries on the 135k cities | **${one(gq)}** (PointQuadtree), ` +
      `${one(gk('quadkit StaticQuadtree geoNearest'))} (StaticQuadtree) | geokdbush ${one(gd)} | ${one(gd / gq)}× |`,
  );
  const gp = (r) => V('geo-pip', r, 'join');
  const pq = gp('quadkit GeoIndex containing');
  const pt = gp('flatbush + turf booleanPointInPolygon');
  P(
    `| point-in-polygon join, 1M random points to the 177 countries | **${f3(pq)}** (\`GeoIndex.containing\`) | ` +
      `flatbush + turf ${f3(pt)} | ${one(pt / pq)}× |`,
  );
  for (const [n, label] of [
    [10000, 'many-body force tick, 10k nodes (theta 0.9)'],
    [100000, 'many-body force tick, 100k nodes'],
  ]) {
    const qv = V('force', 'quadkit/force forceManyBody', 'tick', n);
    const dv = V('force', 'd3-force forceManyBody', 'tick', n);
    P(`| ${label} | **${f3(qv)}** | d3-force ${f3(dv)} | ${one(dv / qv)}× |`);
  }
  for (const [id, label] of [
    [
      'cluster-cities',
      'clustering the 135k cities, zooms 0–16 (load + `getClusters` of the world)',
    ],
    ['cluster-1M', 'clustering 1M random points, zooms 0–16'],
  ]) {
    const qv = V(id, 'quadkit Clusterer', 'total');
    const sv = V(id, 'supercluster', 'total');
    P(`| ${label} | **${f3(qv)}** | supercluster ${f3(sv)} | ${one(sv / qv)}× |`);
  }

  // Point location in meshes.
  const T = 'quadkit TriangleIndex';
  const me = (id, r, k) => V(id, r, k);
  P(
    `| **quadkit TriangleIndex** \`locate\` | ${f3(me('mesh-10k', T, 'build'))} | **${whole(me('mesh-10k', T, 'lookup'))}** | ` +
      `${f3(me('mesh-cities', T, 'build'))} | **${whole(me('mesh-cities', T, 'lookup'))}** |`,
  );
  P(
    `| navmesh \`isPointInMesh\` | ${f3(me('mesh-10k', 'navmesh isPointInMesh', 'build'))} | ` +
      `${thousands(me('mesh-10k', 'navmesh isPointInMesh', 'lookup'))} | not run (quadratic build) | |`,
  );
  P(
    `| linear scan (box test, then orientation signs) | | ${thousands(me('mesh-10k', 'linear scan', 'lookup'))} | | ` +
      `${thousands(me('mesh-cities', 'linear scan', 'lookup'))} |`,
  );

  // Rays.
  const rc = (r) => V('raycast', r, 'cast');
  P(`| **quadkit StaticQuadtree** \`raycastInto\` | **${one(rc('quadkit StaticQuadtree'))}** |`);
  P(
    `| **quadkit Quadtree** (loose) / **GridLooseQuadtree** | ${one(rc('quadkit Quadtree (loose)'))} / ` +
      `${one(rc('quadkit GridLooseQuadtree'))} |`,
  );
  P(`| detect-collisions \`System.raycast\` | ${f3(rc('detect-collisions raycast'))} |`);
  P(`| linear scan (slab test per box) | ${f3(rc('linear scan'))} |`);
  for (const row of fileRows(json)) P(row);
  return out;
}

/** The rows of the reading table, in order: the run's row names (bench/workloads/files.js). */
const READING = [
  'quadkit, points GeoJSON',
  'quadkit, points NDJSON',
  'quadkit, points CSV',
  'quadkit, points FlatGeobuf',
  'JSON.parse of the whole text, points GeoJSON',
  'stream-json (parser, pick, streamArray), points GeoJSON',
  'mapshaper -i -info, points GeoJSON',
  'quadkit, countries GeoJSON',
  'quadkit, countries NDJSON',
  'JSON.parse of the whole text, countries GeoJSON',
  'stream-json (parser, pick, streamArray), countries GeoJSON',
  'mapshaper -i -info, countries GeoJSON',
];
/** The rows of the join table and the keys of its cases. */
const JOINERS = ['quadkit join', 'mapshaper 0.7.70 -join', 'flatbush + turf booleanPointInPolygon'];
const JOIN_CASES = ['110mc', '110mt', '10mc', '10mt'];

// The files tables: MB/s of a read pass over each file, then `quadkit join` beside mapshaper and
// flatbush + turf (seconds; ≈ marks a peer's time scaled from a part of the points), the speed-up
// over the faster peer, and each tool's peak RSS over the four joins. A row the run lacks (a peer
// that could not be installed) prints dashes.
function fileRows(json) {
  const out = [];
  const table = (id) => json.results.find((r) => r.id === id);
  const cell = (x, digits) => (typeof x === 'number' ? fixed(x, digits) : '—');
  const reading = table('files-reading');
  for (const name of READING) {
    const v = reading?.rows.find((r) => r.name === name)?.values;
    const label = name.startsWith('quadkit') ? `**${name}**` : name;
    out.push(
      `| ${label} | ${cell(v?.mb, 0)} | ${cell(v?.seconds, 2)} | ${cell(v?.rate, 1)} | ` +
        `${cell(typeof v?.perFeature === 'number' ? v.perFeature : null, 2)} |`,
    );
  }
  const joined = table('files-join');
  const valuesOf = (name) => joined?.rows.find((r) => r.name === name)?.values;
  const seconds = (x) => {
    const ms = num(x);
    if (ms === null) return '—';
    return `${x?.note ? '≈ ' : ''}${f3(ms / 1000)}`;
  };
  for (const name of JOINERS) {
    const v = valuesOf(name);
    const rss = JOIN_CASES.map((k) => num(v?.[`${k}Rss`])).filter((x) => x !== null);
    const rssCell = rss.length ? `${whole(Math.min(...rss))}–${whole(Math.max(...rss))}` : '—';
    const label = name === 'quadkit join' ? `**${name}**` : name;
    out.push(`| ${label} | ${JOIN_CASES.map((k) => seconds(v?.[k])).join(' | ')} | ${rssCell} |`);
  }
  const speedups = JOIN_CASES.map((k) => {
    const q = num(valuesOf('quadkit join')?.[k]);
    const peers = JOINERS.slice(1)
      .map((name) => num(valuesOf(name)?.[k]))
      .filter((x) => x !== null);
    return q === null || !peers.length ? '—' : `${one(Math.min(...peers) / q)}×`;
  });
  out.push(`| quadkit's speed-up over the faster peer | ${speedups.join(' | ')} | |`);
  return out;
}

/** The lines of the Performance section: from its heading to the next one, or to the end. */
function performanceSection(lines) {
  const start = lines.findIndex((l) => l.startsWith('## Performance'));
  if (start < 0) throw new Error('bench/readme.js: the README has no Performance section');
  const next = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return { start, end: next < 0 ? lines.length : next };
}

/**
 * Puts `rows` in place of the README's table rows with the same first cell, in order, within
 * the Performance section; throws naming a row it cannot place.
 * @param readme - the README's text.
 * @param rows - the rows from `readmeRows`.
 * @returns the new text and how many rows changed.
 */
export function applyRows(readme, rows) {
  const lines = readme.split('\n');
  const { start, end } = performanceSection(lines);
  let at = start;
  let changed = 0;
  for (const row of rows) {
    const first = `${row.split(' | ')[0]} |`;
    let i = at;
    while (i < end && !lines[i].startsWith(first)) i++;
    if (i === end)
      throw new Error(`bench/readme.js: no README row after line ${at + 1} starts "${first}"`);
    if (lines[i] !== row) changed++;
    lines[i] = row;
    at = i + 1;
  }
  return { text: lines.join('\n'), changed };
}

/** A table row's first cell, with the bar after it: `| rbush |`. */
const firstCell = (row) => `${row.split(' | ')[0]} |`;

/**
 * Rewrites the data rows of `readme`'s Performance section from `rows`, of which they are a
 * subsequence: each data row (a table line that is neither a header nor the line under it) takes
 * the next rendered row with the same first cell. Throws naming a row that has none.
 */
export function applySubset(readme, rows) {
  const lines = readme.split('\n');
  const { start, end } = performanceSection(lines);
  const rule = (l) => l?.startsWith('| ---') === true;
  let at = 0;
  let changed = 0;
  let matched = 0;
  for (let i = start; i < end; i++) {
    const line = lines[i];
    if (!line.startsWith('| ') || rule(line) || rule(lines[i + 1])) continue;
    const first = firstCell(line);
    while (at < rows.length && firstCell(rows[at]) !== first) at++;
    if (at === rows.length)
      throw new Error(
        `bench/readme.js: README line ${i + 1} "${first}" is no row of the run, or out of order`,
      );
    if (line !== rows[at]) changed++;
    lines[i] = rows[at++];
    matched++;
  }
  return { text: lines.join('\n'), changed, matched };
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const coldFile = process.argv.indexOf('--cold');
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && coldFile > 0) {
  const json = JSON.parse(readFileSync(process.argv[coldFile + 1], 'utf8'));
  console.log(coldRows(json).join('\n'));
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const json = JSON.parse(readFileSync(join(root, 'bench/results/latest.json'), 'utf8'));
  const rows = readmeRows(json);
  const check = process.argv.includes('--check');
  let differ = 0;
  for (const [file, apply] of [
    ['bench/README.md', applyRows],
    ['README.md', applySubset],
  ]) {
    const path = join(root, file);
    const { text, changed } = apply(readFileSync(path, 'utf8'), rows);
    differ += changed;
    if (check)
      console.log(
        `${file}: ${changed === 0 ? 'tables match latest.json' : `${changed} rows differ from latest.json`}`,
      );
    else {
      writeFileSync(path, text);
      console.log(`${file}: ${changed} table rows rewritten from latest.json`);
    }
  }
  if (check) process.exitCode = differ === 0 ? 0 : 1;
}
