// Workload 1: insert N boxes one by one, then remove N/2 of them one by one (in a shuffled order).
// Each insert run ends with one small query, so that an index that buffers inserts (quadkit
// places them at the next read) pays for placing them in the insert column, not the remove one.
import QuadtreeJS from '@timohausmann/quadtree-js';
import { Quadtree as QuadtreeTS, Rectangle } from '@timohausmann/quadtree-ts';
import RBush from 'rbush';
import { randomBoxes, shuffledIndices, toMinMax, toRectangles, toXYWH } from '../data.js';
import { gc, median, now, sink } from '../measure.js';

export const id = 'insert';

const WORLD = 1000;
// The small query that ends each insert run: the centre of the world.
const CENTRE = { x: WORLD / 2, y: WORLD / 2, width: 0, height: 0 };
const CENTRE_MINMAX = { minX: WORLD / 2, minY: WORLD / 2, maxX: WORLD / 2, maxY: WORLD / 2 };

export function run({ quick, quadkit }) {
  const n = quick ? 20_000 : 200_000;
  const nRemove = n / 2;
  const runs = quick ? 3 : 5;
  // quadtree-ts's remove visits every node of the tree, so a full run at 200k would take minutes:
  // stop a run after this budget and extrapolate from the removals done so far.
  const qtsRemoveBudgetMs = quick ? 300 : 1000;

  const boxes = randomBoxes(n, { world: WORLD, minSize: 0, maxSize: 2, seed: 1 });
  const order = shuffledIndices(n, 2).subarray(0, nRemove);
  const bounds = { x: 0, y: 0, width: WORLD, height: WORLD };
  const rows = [];
  const warnings = [];

  if (quadkit) {
    for (const [name, looseness] of [
      ['quadkit Quadtree (classic)', 1],
      ['quadkit Quadtree (loose ×2)', 2],
    ]) {
      const items = toXYWH(boxes);
      rows.push(
        measureInsertRemove(name, true, runs, n, nRemove, {
          create: () => new quadkit.Quadtree({ bounds, looseness }),
          // quadkit: items are identified by reference; remove(item) finds it through its registry.
          insert: (t) => {
            for (let i = 0; i < n; i++) t.insert(items[i]);
            sink.value += t.searchPoint(WORLD / 2, WORLD / 2).length;
          },
          remove: (t) => {
            for (let i = 0; i < nRemove; i++) t.remove(items[order[i]]);
            return nRemove;
          },
        }),
      );
      warnings.push(...validateQuadkit(quadkit, name, { bounds, looseness }, items, order));
    }
  }

  {
    // rbush: its natural item is { minX, minY, maxX, maxY } (no toBBox override); insert() is its
    // one-by-one path, remove(item) finds the item by reference, descending only through nodes
    // whose box contains it. Default maxEntries (9).
    const items = toMinMax(boxes);
    rows.push(
      measureInsertRemove('rbush', false, runs, n, nRemove, {
        create: () => new RBush(),
        insert: (t) => {
          for (let i = 0; i < n; i++) t.insert(items[i]);
          sink.value += t.search(CENTRE_MINMAX).length;
        },
        remove: (t) => {
          for (let i = 0; i < nRemove; i++) t.remove(items[order[i]]);
          return nRemove;
        },
      }),
    );
  }

  // quadtree-js and quadtree-ts are measured twice: with their defaults (maxObjects 10,
  // maxLevels 4), which gave their fastest inserts in a sweep but leave ~n/256 boxes per leaf, and
  // with maxLevels 7, the setting that answers queries well on this data (see query.js).
  for (const maxLevels of [4, 7]) {
    const label = maxLevels === 4 ? 'defaults, maxLevels 4' : 'maxLevels 7';
    {
      // quadtree-js: insert(rect) only; v1 has no remove (declined by the author, see v2).
      const items = toXYWH(boxes);
      rows.push(
        measureInsertRemove(`quadtree-js (${label})`, false, runs, n, nRemove, {
          create: () => new QuadtreeJS({ ...bounds }, 10, maxLevels),
          insert: (t) => {
            for (let i = 0; i < n; i++) t.insert(items[i]);
            sink.value += t.retrieve(CENTRE).length;
          },
          remove: null,
        }),
      );
    }
    {
      // quadtree-ts: items must be its Rectangle class (qtIndex method). remove(obj, fast = true)
      // is the documented bulk path (skips joining empty nodes; the one join a user would run at
      // the end is not counted). It still walks every node and indexOf()s every leaf: O(N).
      const items = toRectangles(boxes, Rectangle);
      const centreTS = new Rectangle(CENTRE);
      rows.push(
        measureInsertRemove(`quadtree-ts (${label})`, false, runs, n, nRemove, {
          create: () => new QuadtreeTS({ ...bounds, maxObjects: 10, maxLevels }),
          insert: (t) => {
            for (let i = 0; i < n; i++) t.insert(items[i]);
            sink.value += t.retrieve(centreTS).length;
          },
          remove: (t) => {
            const t0 = now();
            let done = 0;
            while (done < nRemove) {
              const end = Math.min(nRemove, done + 64);
              for (; done < end; done++) t.remove(items[order[done]], true);
              if (now() - t0 > qtsRemoveBudgetMs) break;
            }
            return done;
          },
        }),
      );
    }
  }

  rows.push({
    name: 'flatbush',
    quadkit: false,
    values: { insert: { na: 'n/a (static: bulk add+finish only)' }, remove: { na: 'n/a' } },
  });

  return {
    id,
    title: `Insert ${fmtK(n)} boxes one by one, then remove ${fmtK(nRemove)} one by one`,
    setup:
      `${fmtK(n)} boxes of width and height uniform in 0–2 units, uniform in a ${WORLD}×${WORLD} ` +
      `world (seeded); remove ${fmtK(nRemove)} of them in a shuffled order. ` +
      `Median of ${runs} runs after 1 warm-up run, a fresh index per run.`,
    metrics: [
      { key: 'insert', label: `insert ${fmtK(n)}`, ops: n, compare: true },
      { key: 'remove', label: `remove ${fmtK(nRemove)}`, ops: nRemove, compare: true },
    ],
    rows,
    warnings,
    notes: [
      'quadtree-js/-ts with their defaults (maxLevels 4) insert fastest but leave ' +
        `~${Math.round(n / 256).toLocaleString('en-US')} boxes per leaf (slow queries); ` +
        'maxLevels 7 is their query-tuned setting. rbush: default maxEntries 9.',
      'quadtree-ts remove: each run stops after ' +
        `${qtsRemoveBudgetMs / 1000} s; the total is extrapolated assuming the cost per removal ` +
        'is proportional to the items left (it indexOf()s every leaf; empty nodes stay with ' +
        '`fast`), which is lower than extrapolating at a constant rate.',
    ],
  };
}

/**
 * Times insert (all items) then remove (a subset) on a fresh index, `runs` times after one
 * warm-up run. `remove` returns how many it removed; fewer than `nRemove` means it ran out of
 * its time budget, and the total is extrapolated from the rate so far (labelled as such).
 */
function measureInsertRemove(name, isQuadkit, runs, n, nRemove, { create, insert, remove }) {
  const ins = [];
  const rem = [];
  for (let r = 0; r < runs + 1; r++) {
    const t = create();
    gc();
    let t0 = now();
    insert(t);
    const ti = now() - t0;
    if (r > 0) ins.push(ti);
    if (!remove) continue;
    t0 = now();
    const done = remove(t);
    const tr = now() - t0;
    sink.value += done;
    if (r > 0) rem.push({ ms: tr, done });
  }
  const values = { insert: median(ins) };
  if (!remove) {
    values.remove = { na: 'n/a (no remove in v1)' };
  } else if (rem.every((s) => s.done === nRemove)) {
    values.remove = median(rem.map((s) => s.ms));
  } else {
    // Stopped early after `done` of `nRemove` removals. Two ways to extrapolate: the rate so far
    // (cost per removal constant: an upper estimate) or cost proportional to the items left in
    // the tree (quadtree-ts indexOf()s every leaf: a lower estimate). The table shows the lower.
    const itemsSeen = (k) => k * n - (k * (k - 1)) / 2; // sum of items left over k removals
    const done = Math.min(...rem.map((s) => s.done));
    const upper = median(rem.map((s) => (s.ms / s.done) * nRemove));
    const lower = median(rem.map((s) => (s.ms / itemsSeen(s.done)) * itemsSeen(nRemove)));
    values.remove = {
      ms: lower,
      note:
        `extrapolated from the first ${done.toLocaleString('en-US')} removals of each run; ` +
        `up to ${(upper / 1000).toFixed(1)} s at a constant rate`,
    };
  }
  return { name, quadkit: isQuadkit, values };
}

/** Untimed sanity check: the index holds exactly what was inserted and not yet removed. */
function validateQuadkit(quadkit, name, options, items, order) {
  const out = [];
  const t = new quadkit.Quadtree(options);
  for (const it of items) t.insert(it);
  const all = options.bounds;
  let got = t.search(all).length;
  if (got !== items.length) out.push(`${name}: search(world) found ${got} of ${items.length}`);
  let removed = 0;
  for (const i of order) removed += t.remove(items[i]) ? 1 : 0;
  if (removed !== order.length)
    out.push(`${name}: remove() returned true ${removed}/${order.length}`);
  if (t.remove(items[order[0]])) out.push(`${name}: removing a removed item returned true`);
  got = t.search(all).length;
  const left = items.length - order.length;
  if (got !== left)
    out.push(`${name}: after removals search(world) found ${got}, expected ${left}`);
  return out;
}

function fmtK(n) {
  return n >= 1000 ? `${n / 1000}k` : String(n);
}
