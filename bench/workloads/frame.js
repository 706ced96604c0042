// Workload 3: a simulation frame. N boxes each move a little; per frame, bring the index up to date
// with every box, then find every overlapping pair exactly once.

import QuadtreeJS from '@timohausmann/quadtree-js';
import { Quadtree as QuadtreeTS, Rectangle } from '@timohausmann/quadtree-ts';
import Flatbush from 'flatbush';
import RBush from 'rbush';
import { moverFrames, overlapsXYWH, randomBoxes, toMinMax, toRectangles, toXYWH } from '../data.js';
import { gc, mean, median, now, sink } from '../measure.js';

export const id = 'frame';

const WORLD = 2000;
const STEP = 2;
// quadtree-js/-ts settings for this data (10k boxes of 2–20 in 2000²), from a sweep of
// maxLevels 4–8 × maxObjects 4–32 on the clear+insert+retrieve frame below (maxLevels 5–6 with
// maxObjects 10–16 were best for both; the defaults, maxLevels 4, were ~1.8× slower).
const QT_MAX_OBJECTS = 16;
const QT_MAX_LEVELS = 6;

export function run({ quick, quadkit }) {
  const n = quick ? 2_000 : 10_000;
  const warmFrames = quick ? 5 : 10;
  const measuredFrames = quick ? 10 : 50;
  const boxes = randomBoxes(n, { world: WORLD, minSize: 2, maxSize: 20, seed: 5 });
  const frames = moverFrames(boxes, warmFrames + measuredFrames, {
    world: WORLD,
    step: STEP,
    seed: 6,
  });
  const bounds = { x: 0, y: 0, width: WORLD, height: WORLD };
  const rows = [];

  // Pair results of one frame: a count and an order-independent checksum of the ids.
  let count = 0;
  let checksum = 0;
  const onPair = (ia, ib) => {
    count++;
    checksum += ia * ib + ia + ib;
  };

  // Runs `frame(f)` for every frame; the first `warmFrames` are not recorded. `frame` must move
  // every box to frames[f], update the index and report each overlapping pair once via onPair.
  function measure(name, isQuadkit, setup) {
    const frame = setup();
    gc();
    const times = [];
    const counts = [];
    const sums = [];
    for (let f = 0; f < frames.length; f++) {
      count = 0;
      checksum = 0;
      const t0 = now();
      frame(frames[f]);
      const t = now() - t0;
      sink.value += count;
      if (f >= warmFrames) times.push(t);
      counts.push(count);
      sums.push(checksum);
    }
    rows.push({
      name,
      quadkit: isQuadkit,
      values: { frame: mean(times), median: median(times), pairs: Math.round(mean(counts)) },
      counts,
      sums,
    });
  }

  if (quadkit) {
    for (const [label, looseness] of [
      ['classic', 1],
      ['loose ×2', 2],
    ]) {
      // quadkit: the caller mutates item.x / item.y, then tells the index: update(item) per item,
      // or updateAll() once (re-reads every item, no Map lookups). pairs(cb) reports each
      // overlapping pair once, with no de-duplication needed on the caller's side.
      const setupTree = () => {
        const items = toXYWH(boxes);
        const t = new quadkit.Quadtree({ bounds, looseness });
        for (const it of items) t.insert(it);
        const cb = (a, b) => onPair(a.id, b.id);
        return { items, t, cb };
      };
      measure(`quadkit Quadtree (${label}) update() ×N + pairs()`, true, () => {
        const { items, t, cb } = setupTree();
        return (p) => {
          for (let i = 0; i < n; i++) {
            const it = items[i];
            it.x = p[2 * i];
            it.y = p[2 * i + 1];
            t.update(it);
          }
          t.pairs(cb);
        };
      });
      measure(`quadkit Quadtree (${label}) updateAll() + pairs()`, true, () => {
        const { items, t, cb } = setupTree();
        return (p) => {
          for (let i = 0; i < n; i++) {
            const it = items[i];
            it.x = p[2 * i];
            it.y = p[2 * i + 1];
          }
          t.updateAll();
          t.pairs(cb);
        };
      });
    }
  }

  // rbush: remove(item) must run while the item still has its old bbox (it searches by bbox),
  // then mutate and insert(item); then search(item) per box, counting only partners with a
  // larger id so each pair is counted once (self excluded).
  measure('rbush remove+insert+search', false, () => {
    const items = toMinMax(boxes);
    const t = new RBush();
    for (const it of items) t.insert(it);
    return (p) => {
      for (let i = 0; i < n; i++) {
        const it = items[i];
        t.remove(it);
        it.minX = p[2 * i];
        it.minY = p[2 * i + 1];
        it.maxX = it.minX + boxes[4 * i + 2];
        it.maxY = it.minY + boxes[4 * i + 3];
        t.insert(it);
      }
      rbushPairs(t, items, onPair);
    };
  });

  // rbush, the other natural way when everything moves: clear() + load() (bulk OMT) per frame.
  measure('rbush clear+load+search', false, () => {
    const items = toMinMax(boxes);
    const t = new RBush();
    return (p) => {
      t.clear();
      for (let i = 0; i < n; i++) {
        const it = items[i];
        it.minX = p[2 * i];
        it.minY = p[2 * i + 1];
        it.maxX = it.minX + boxes[4 * i + 2];
        it.maxY = it.minY + boxes[4 * i + 3];
      }
      t.load(items);
      rbushPairs(t, items, onPair);
    };
  });

  // flatbush: static, so rebuild every frame (add + finish), then search per box (indices).
  measure('flatbush rebuild+search', false, () => {
    return (p) => {
      const t = new Flatbush(n);
      for (let i = 0; i < n; i++) {
        const x = p[2 * i];
        const y = p[2 * i + 1];
        t.add(x, y, x + boxes[4 * i + 2], y + boxes[4 * i + 3]);
      }
      t.finish();
      for (let i = 0; i < n; i++) {
        const x = p[2 * i];
        const y = p[2 * i + 1];
        const found = t.search(x, y, x + boxes[4 * i + 2], y + boxes[4 * i + 3]);
        for (let k = 0; k < found.length; k++) if (found[k] > i) onPair(i, found[k]);
      }
    };
  });

  // quadtree-js: no update/remove in v1; its demos clear() and re-insert every frame, then
  // retrieve(item) per box (candidates) and filter to exact overlaps with a larger id.
  measure('quadtree-js clear+insert+retrieve', false, () => {
    const items = toXYWH(boxes);
    const t = new QuadtreeJS({ ...bounds }, QT_MAX_OBJECTS, QT_MAX_LEVELS);
    return (p) => {
      t.clear();
      for (let i = 0; i < n; i++) {
        const it = items[i];
        it.x = p[2 * i];
        it.y = p[2 * i + 1];
        t.insert(it);
      }
      for (let i = 0; i < n; i++) {
        const it = items[i];
        const cands = t.retrieve(it);
        for (let k = 0; k < cands.length; k++) {
          const o = cands[k];
          if (
            o.id > it.id &&
            o.x <= it.x + it.width &&
            it.x <= o.x + o.width &&
            o.y <= it.y + it.height &&
            it.y <= o.y + o.height
          ) {
            onPair(it.id, o.id);
          }
        }
      }
    };
  });

  // quadtree-ts: update() is remove+insert and remove() walks the whole tree (O(N) each), so
  // clear() + re-insert is its practical per-frame path, as in quadtree-js.
  measure('quadtree-ts clear+insert+retrieve', false, () => {
    const items = toRectangles(boxes, Rectangle);
    const t = new QuadtreeTS({ ...bounds, maxObjects: QT_MAX_OBJECTS, maxLevels: QT_MAX_LEVELS });
    return (p) => {
      t.clear();
      for (let i = 0; i < n; i++) {
        const it = items[i];
        it.x = p[2 * i];
        it.y = p[2 * i + 1];
        t.insert(it);
      }
      for (let i = 0; i < n; i++) {
        const it = items[i];
        const cands = t.retrieve(it);
        for (let k = 0; k < cands.length; k++) {
          const o = cands[k];
          if (
            o.data > it.data &&
            o.x <= it.x + it.width &&
            it.x <= o.x + o.width &&
            o.y <= it.y + it.height &&
            it.y <= o.y + o.height
          ) {
            onPair(it.data, o.data);
          }
        }
      }
    };
  });

  // Checks: every library must report the same pairs in every frame; frame 0 is also checked
  // against brute force, and quadkit's pairs() against duplicates and self-pairs.
  const warnings = [];
  const brute = bruteForcePairs(boxes, frames[0]);
  const ref = rows.find((r) => r.name === 'rbush remove+insert+search');
  for (const r of rows) {
    if (r.counts[0] !== brute.count || r.sums[0] !== brute.sum) {
      warnings.push(
        `${r.name}: frame 0 has ${r.counts[0]} pairs, brute force ${brute.count}` +
          (r.counts[0] === brute.count ? ' (same count, different pairs)' : ''),
      );
    }
    const bad = r.counts.findIndex((c, f) => c !== ref.counts[f] || r.sums[f] !== ref.sums[f]);
    if (bad >= 0) {
      warnings.push(
        `${r.name}: frame ${bad} has ${r.counts[bad]} pairs, rbush ${ref.counts[bad]}` +
          (r.counts[bad] === ref.counts[bad] ? ' (same count, different pairs)' : ''),
      );
    }
  }
  if (quadkit) warnings.push(...checkQuadkitPairs(quadkit, boxes, bounds));

  return {
    id,
    title: `One frame: update ${n.toLocaleString('en-US')} moving boxes, then find all overlapping pairs`,
    setup:
      `${n.toLocaleString('en-US')} boxes of width and height uniform in 2–20 units in a ` +
      `${WORLD}×${WORLD} world (seeded); every frame each box moves by a uniform step in ` +
      `±${STEP} per axis (bouncing off the edges). Mean (and median) ms per frame over ` +
      `${measuredFrames} frames after ${warmFrames} warm-up frames; the same frames for every ` +
      'library. Moving the boxes (writing x/y) is inside the frame for everyone.',
    metrics: [
      { key: 'frame', label: 'frame, mean', compare: true },
      { key: 'median', label: 'frame, median' },
      { key: 'pairs', label: 'pairs/frame', unit: 'count' },
    ],
    rows: rows.map(({ counts, sums, ...r }) => r),
    warnings,
    notes: [
      'Pairs are counted once each: quadkit `pairs()` by construction; peers by keeping only ' +
        'partners with a larger id. Every row is checked frame by frame against rbush ' +
        '(count and an id checksum) and frame 0 against brute force.',
      `quadtree-js/-ts: maxObjects ${QT_MAX_OBJECTS}, maxLevels ${QT_MAX_LEVELS} (tuned, see ` +
        'source); rbush maxEntries 9 (default).',
    ],
  };
}

function rbushPairs(t, items, onPair) {
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const found = t.search(it);
    for (let k = 0; k < found.length; k++) if (found[k].id > it.id) onPair(it.id, found[k].id);
  }
}

function bruteForcePairs(boxes, p) {
  const n = boxes.length / 4;
  let count = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const ax = p[2 * i];
    const ay = p[2 * i + 1];
    const aX = ax + boxes[4 * i + 2];
    const aY = ay + boxes[4 * i + 3];
    for (let j = i + 1; j < n; j++) {
      const bx = p[2 * j];
      const by = p[2 * j + 1];
      if (bx <= aX && ax <= bx + boxes[4 * j + 2] && by <= aY && ay <= by + boxes[4 * j + 3]) {
        count++;
        sum += i * j + i + j;
      }
    }
  }
  return { count, sum };
}

/** Untimed: pairs() on the initial boxes reports no self-pair and no pair twice. */
function checkQuadkitPairs(quadkit, boxes, bounds) {
  const out = [];
  for (const looseness of [1, 2]) {
    const t = new quadkit.Quadtree({ bounds, looseness });
    for (const it of toXYWH(boxes)) t.insert(it);
    const seen = new Set();
    let self = 0;
    let dup = 0;
    let notOverlapping = 0;
    t.pairs((a, b) => {
      if (a === b) self++;
      const key = a.id < b.id ? `${a.id},${b.id}` : `${b.id},${a.id}`;
      if (seen.has(key)) dup++;
      seen.add(key);
      if (!overlapsXYWH(a, b)) notOverlapping++;
    });
    if (self || dup || notOverlapping) {
      out.push(
        `quadkit pairs() (looseness ${looseness}): ${self} self-pairs, ${dup} duplicates, ` +
          `${notOverlapping} non-overlapping pairs`,
      );
    }
  }
  return out;
}
