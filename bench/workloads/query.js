// Workload 2: window queries (0.01% and 1% of the area) on N boxes inserted one by one.

import QuadtreeJS from '@timohausmann/quadtree-js';
import { Quadtree as QuadtreeTS, Rectangle } from '@timohausmann/quadtree-ts';
import Flatbush from 'flatbush';
import RBush from 'rbush';
import { randomBoxes, randomWindows, toMinMax, toRectangles, toXYWH } from '../data.js';
import { gc, now, repeat } from '../measure.js';

export const id = 'query';

const WORLD = 1000;
const AREAS = [
  { key: 'q0.01', fraction: 0.0001, label: '0.01%' },
  { key: 'q1', fraction: 0.01, label: '1%' },
];
// quadtree-js/-ts settings for this data: a sweep (maxLevels 6–9 × maxObjects 10–64 at 1M boxes,
// 4–10 × 4–32 at 200k) put maxLevels 7 / maxObjects 10 at or near the best query time. Their
// defaults (4 / 10) leave ~4k boxes in each of 256 leaves: 1% windows ~3× slower at 200k.
const QT_MAX_OBJECTS = 10;
const QT_MAX_LEVELS = 7;

export function run({ quick, quadkit }) {
  const n = quick ? 100_000 : 1_000_000;
  const nQueries = quick ? 200 : 1000;
  const runs = quick ? 3 : 5;
  const buildRuns = 2;
  const boxes = randomBoxes(n, { world: WORLD, minSize: 0, maxSize: 2, seed: 3 });
  const windows = AREAS.map((a) =>
    randomWindows(nQueries, { world: WORLD, areaFraction: a.fraction, seed: 4 }),
  );
  const bounds = { x: 0, y: 0, width: WORLD, height: WORLD };
  const xywhQueries = windows.map(toXYWH);
  const rows = [];

  // Each library: build `buildRuns` times one by one (best time), keep the last index, then for
  // each query variant time `runs` passes of all queries per area after a warm-up pass.
  // `query(index, q)` returns the number of exact hits; totals are compared across libraries.
  function measure(isQuadkit, { build, queries, variants, buildNote }) {
    let index = null;
    const buildTimes = [];
    for (let r = 0; r < buildRuns; r++) {
      index = null;
      gc();
      const t0 = now();
      index = build();
      buildTimes.push(now() - t0);
    }
    const buildMs = Math.min(...buildTimes);
    for (const { name, query } of variants) {
      const values = { build: buildNote ? { ms: buildMs, tag: buildNote } : buildMs };
      const hits = {};
      AREAS.forEach((a, ai) => {
        const qs = queries[ai];
        gc();
        const m = repeat({
          runs,
          gcEach: false,
          run: () => {
            let total = 0;
            for (let i = 0; i < qs.length; i++) total += query(index, qs[i]);
            return total;
          },
        });
        values[a.key] = m.median;
        values[`${a.key}hits`] = m.result / nQueries;
        hits[a.key] = m.result;
      });
      rows.push({ name, quadkit: isQuadkit, values, hits });
    }
  }

  if (quadkit) {
    for (const [label, looseness] of [
      ['classic', 1],
      ['loose ×2', 2],
    ]) {
      const items = toXYWH(boxes);
      const out = [];
      measure(true, {
        build: () => {
          const t = new quadkit.Quadtree({ bounds, looseness });
          for (let i = 0; i < n; i++) t.insert(items[i]);
          return t;
        },
        queries: xywhQueries,
        // search(rect) returns a fresh exact T[]; searchInto(rect, out) fills a reused array.
        variants: [
          { name: `quadkit Quadtree (${label}) search`, query: (t, q) => t.search(q).length },
          { name: `quadkit Quadtree (${label}) searchInto`, query: (t, q) => t.searchInto(q, out) },
        ],
      });
    }
  }

  {
    // rbush: insert() one by one, search({minX, minY, maxX, maxY}) returns exact items.
    const items = toMinMax(boxes);
    measure(false, {
      build: () => {
        const t = new RBush();
        for (let i = 0; i < n; i++) t.insert(items[i]);
        return t;
      },
      queries: windows.map(toMinMax),
      variants: [{ name: 'rbush', query: (t, q) => t.search(q).length }],
    });
  }

  {
    // flatbush: static, so the only way in is add() for every box, then finish() (a bulk Hilbert
    // sort). search(minX, minY, maxX, maxY) returns exact item indices.
    const qs = windows.map(toMinMax);
    measure(false, {
      build: () => {
        const t = new Flatbush(n);
        for (let i = 0; i < n; i++) {
          const x = boxes[4 * i];
          const y = boxes[4 * i + 1];
          t.add(x, y, x + boxes[4 * i + 2], y + boxes[4 * i + 3]);
        }
        t.finish();
        return t;
      },
      buildNote: 'bulk add+finish',
      queries: qs,
      variants: [
        { name: 'flatbush', query: (t, q) => t.search(q.minX, q.minY, q.maxX, q.maxY).length },
      ],
    });
  }

  {
    // quadtree-js: insert() one by one; retrieve(rect) returns candidates (every box in the
    // leaves the window touches, de-duplicated), so the user filters them to exact hits.
    const items = toXYWH(boxes);
    measure(false, {
      build: () => {
        const t = new QuadtreeJS({ ...bounds }, QT_MAX_OBJECTS, QT_MAX_LEVELS);
        for (let i = 0; i < n; i++) t.insert(items[i]);
        return t;
      },
      queries: xywhQueries,
      // (Each peer gets its own filter literal so its call sites stay monomorphic.)
      variants: [
        {
          name: 'quadtree-js',
          query: (t, q) =>
            t
              .retrieve(q)
              .filter(
                (o) =>
                  o.x <= q.x + q.width &&
                  q.x <= o.x + o.width &&
                  o.y <= q.y + q.height &&
                  q.y <= o.y + o.height,
              ).length,
        },
      ],
    });
  }

  {
    // quadtree-ts: the same, with its Rectangle class for items and for the query window.
    const items = toRectangles(boxes, Rectangle);
    measure(false, {
      build: () => {
        const t = new QuadtreeTS({
          ...bounds,
          maxObjects: QT_MAX_OBJECTS,
          maxLevels: QT_MAX_LEVELS,
        });
        for (let i = 0; i < n; i++) t.insert(items[i]);
        return t;
      },
      queries: windows.map((w) => toRectangles(w, Rectangle)),
      variants: [
        {
          name: 'quadtree-ts',
          query: (t, q) =>
            t
              .retrieve(q)
              .filter(
                (o) =>
                  o.x <= q.x + q.width &&
                  q.x <= o.x + o.width &&
                  o.y <= q.y + q.height &&
                  q.y <= o.y + o.height,
              ).length,
        },
      ],
    });
  }

  const warnings = [];
  for (const a of AREAS) {
    const ref = rows.find((r) => r.name === 'rbush').hits[a.key];
    for (const r of rows) {
      if (r.hits[a.key] !== ref) {
        warnings.push(
          `${a.label} windows: ${r.name} found ${r.hits[a.key]} hits in total, rbush ${ref}`,
        );
      }
    }
  }

  const k = (x) => (x >= 1e6 ? `${x / 1e6}M` : `${x / 1e3}k`);
  return {
    id,
    title: `${nQueries.toLocaleString('en-US')} window queries on ${k(n)} boxes inserted one by one`,
    setup:
      `${k(n)} boxes of width and height uniform in 0–2 units, uniform in a ${WORLD}×${WORLD} ` +
      `world (seeded), inserted one by one (flatbush: bulk). ${nQueries} square windows of 0.01% ` +
      `(${WORLD * 0.01}×${WORLD * 0.01}) and 1% (${WORLD * 0.1}×${WORLD * 0.1}) of the area. ` +
      `Query columns: total ms for all ${nQueries} queries (per query in brackets), median of ` +
      `${runs} passes after a warm-up pass; build: best of ${buildRuns}, not in the query time.`,
    metrics: [
      { key: 'build', label: `build ${k(n)}`, compare: false },
      ...AREAS.flatMap((a) => [
        { key: a.key, label: `${a.label} windows`, ops: nQueries, compare: true },
        { key: `${a.key}hits`, label: `hits/query ${a.label}`, unit: 'count' },
      ]),
    ],
    rows: rows.map(({ hits, ...r }) => r),
    warnings,
    notes: [
      'Every library reports exact hits: quadtree-js/-ts `retrieve` candidates are filtered with a ' +
        'closed-interval overlap test, as their users must.',
      'quadkit `search` and rbush return item arrays, flatbush returns index arrays; ' +
        '`searchInto` reuses one output array.',
      `quadtree-js/-ts: maxObjects ${QT_MAX_OBJECTS}, maxLevels ${QT_MAX_LEVELS} (tuned, see source); ` +
        'rbush maxEntries 9 (default); flatbush nodeSize 16 (default).',
    ],
  };
}
