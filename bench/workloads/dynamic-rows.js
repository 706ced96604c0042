// The rows of the dynamic workload (see dynamic.js): for each library, the frame loop its
// documentation shows for a scene of moving boxes (move every box, bring the index up to date,
// report every overlapping pair once), with the pair counter they share and the checks' brute
// force.

import QuadtreeJS from '@timohausmann/quadtree-js';
import { Quadtree as QuadtreeTS, Rectangle } from '@timohausmann/quadtree-ts';
import { Box, System } from 'detect-collisions';
import Flatbush from 'flatbush';
import RBush from 'rbush';
import { toMinMax, toRectangles, toXYWH } from '../data.js';
import { FLATBUSH_OBJECTS, TYPED_DOOR } from '../names.js';

/** The side of the square world the boxes bounce in. */
export const WORLD = 2000;
/** The world as bounds. */
export const BOUNDS = { x: 0, y: 0, width: WORLD, height: WORLD };
/** The row that runs the harness alone (stepBouncing, no index). */
export const HARNESS = '(harness: stepBouncing only, no index)';

/**
 * Pair results of one frame in `acc`: [count, order-independent 32-bit hash of the id pairs].
 * A typed array, so counting allocates nothing (a double in a closure variable would, per pair).
 */
export function pairCounter() {
  const acc = new Int32Array(2);
  const onPair = (ia, ib) => {
    const lo = ia < ib ? ia : ib;
    const hi = ia < ib ? ib : ia;
    let h = Math.imul(lo + 1, 0x9e3779b1) ^ Math.imul(hi + 1, 0x85ebca77);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    acc[0]++;
    acc[1] += h ^ (h >>> 12);
  };
  return { acc, onPair };
}

/**
 * The rows: `setup()` (untimed) builds the index on the boxes at pos0 and returns `frame(pos)`,
 * which must write every box's new position into the library's items, update the index and
 * report each overlapping pair once via onPair. Only `name` and the flags are read when
 * listing the rows (ctx then holds only quadkit).
 */
export function rowDefs({ quadkit, n, boxes, pos0, qt, onPair }) {
  const bounds = BOUNDS;
  const defs = [];
  const row = (name, flags, setup) => defs.push({ name, ...flags, setup });

  if (quadkit) {
    // quadkit: the caller mutates item.x / item.y, then tells the index: updateAll() once per
    // frame (re-reads every item, no lookups) or update(item) per item. pairs(cb) reports each
    // overlapping pair once; no de-duplication on the caller's side.
    const quadkitRow = (name, create, perItem) =>
      row(name, { quadkit: true }, () => {
        const items = toXYWH(boxes);
        const t = create();
        t.load(items);
        const cb = (a, b) => onPair(a.id, b.id);
        if (perItem) {
          return (p) => {
            for (let i = 0; i < n; i++) {
              const it = items[i];
              it.x = p[2 * i];
              it.y = p[2 * i + 1];
              t.update(it);
            }
            t.pairs(cb);
          };
        }
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
    if (typeof quadkit.GridLooseQuadtree === 'function') {
      const grid = () => new quadkit.GridLooseQuadtree({ bounds });
      quadkitRow('quadkit GridLooseQuadtree updateAll() + pairs()', grid, false);
      quadkitRow('quadkit GridLooseQuadtree update() ×N + pairs()', grid, true);
    }
    // The typed-array door: the items are the numbers 0..n-1, their boxes (minX, minY, maxX,
    // maxY) in a Float64Array the index keeps; the frame writes the new boxes there, as the
    // flatbush row reads them from the frame's arrays, and pairs() reports the numbers.
    if (typeof quadkit.GridLooseQuadtree?.fromBoxes === 'function') {
      row(
        `quadkit GridLooseQuadtree updateAll() + pairs(), ${TYPED_DOOR}`,
        { quadkit: true },
        () => {
          const mm = new Float64Array(4 * n);
          const write = (p) => {
            for (let i = 0; i < n; i++) {
              const x = p[2 * i];
              const y = p[2 * i + 1];
              mm[4 * i] = x;
              mm[4 * i + 1] = y;
              mm[4 * i + 2] = x + boxes[4 * i + 2];
              mm[4 * i + 3] = y + boxes[4 * i + 3];
            }
          };
          write(pos0);
          const t = quadkit.GridLooseQuadtree.fromBoxes(mm, { bounds });
          return (p) => {
            write(p);
            t.updateAll();
            t.pairs(onPair);
          };
        },
      );
    }
    quadkitRow(
      'quadkit Quadtree (classic) updateAll() + pairs()',
      () => new quadkit.Quadtree({ bounds, looseness: 1 }),
      false,
    );
    quadkitRow(
      'quadkit Quadtree (loose ×2) updateAll() + pairs()',
      () => new quadkit.Quadtree({ bounds, looseness: 2 }),
      false,
    );
  }

  // Baseline: sort-and-sweep on x, written here. The boxes are kept in parallel arrays in minX
  // order; each frame rewrites their coordinates, restores the order by insertion sort (nearly
  // sorted after a small move: the classic frame-coherent sweep-and-prune), then sweeps: each
  // box meets the boxes after it whose minX is <= its maxX, and the y intervals are tested.
  row('baseline: sort-and-sweep (insertion sort, kept order)', { baseline: true }, () => {
    const s = sweepState(boxes, pos0);
    return (p) => {
      s.refresh(p);
      s.insertionSort();
      s.sweep(onPair);
    };
  });

  // The same sweep after a plain Array#sort of the ids by minX every frame (from last frame's
  // order, which V8's TimSort exploits: nearly sorted runs merge in about linear time).
  row('baseline: sort-and-sweep (Array#sort every frame)', { baseline: true }, () => {
    const s = sweepState(boxes, pos0);
    const order = Array.from(s.ids);
    const keyX = new Float64Array(n);
    const byX = (a, b) => keyX[a] - keyX[b];
    return (p) => {
      for (let i = 0; i < n; i++) keyX[i] = p[2 * i];
      order.sort(byX);
      for (let k = 0; k < n; k++) s.ids[k] = order[k];
      s.refresh(p);
      s.sweep(onPair);
    };
  });

  // flatbush: static, so rebuild every frame (add + finish), then search per box (indices),
  // keeping partners with a larger index so each pair is counted once. This row reads the
  // positions from the frame's typed array and reports indices: no objects at all.
  row('flatbush rebuild+search', {}, () => {
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

  // flatbush fed the same objects as every other row: the frame writes the positions into the
  // objects, the rebuild reads them back, and the indices a search returns are mapped to the
  // objects, whose ids are reported (as a flatbush user holding objects does).
  row(FLATBUSH_OBJECTS, {}, () => {
    const items = toXYWH(boxes);
    return (p) => {
      for (let i = 0; i < n; i++) {
        const it = items[i];
        it.x = p[2 * i];
        it.y = p[2 * i + 1];
      }
      const t = new Flatbush(n);
      for (let i = 0; i < n; i++) {
        const it = items[i];
        t.add(it.x, it.y, it.x + it.width, it.y + it.height);
      }
      t.finish();
      for (let i = 0; i < n; i++) {
        const it = items[i];
        const found = t.search(it.x, it.y, it.x + it.width, it.y + it.height);
        for (let k = 0; k < found.length; k++) {
          if (found[k] > i) onPair(it.id, items[found[k]].id);
        }
      }
    };
  });

  // rbush, when everything moves: clear() + load() (bulk OMT) per frame, then search(item).
  row('rbush clear+load+search', {}, () => {
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

  // rbush, one by one: remove(item) while it still has its old bbox (it searches by bbox), then
  // mutate and insert(item); then search(item) per box.
  row('rbush remove+insert+search', {}, () => {
    const items = toMinMax(boxes);
    const t = new RBush();
    t.load(items);
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

  // quadtree-js: no update/remove in v1; its demos clear() and re-insert every frame, then
  // retrieve(item) per box (candidates), filtered to exact overlaps with a larger id.
  row('quadtree-js clear+insert+retrieve', {}, () => {
    const items = toXYWH(boxes);
    const t = new QuadtreeJS({ ...bounds }, qt.maxObjects, qt.maxLevels);
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
  row('quadtree-ts clear+insert+retrieve', {}, () => {
    const items = toRectangles(boxes, Rectangle);
    const t = new QuadtreeTS({ ...bounds, maxObjects: qt.maxObjects, maxLevels: qt.maxLevels });
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

  // detect-collisions (now check2d): Box bodies in a System (an rbush BVH). Per frame, as its
  // README shows: setPosition(x, y, false) batches the move, system.update() re-inserts every
  // moved body, system.checkAll(cb) runs SAT on every BVH candidate pair. checkAll reports each
  // colliding pair twice, (a, b) and (b, a): the callback keeps the one with a.id < b.id. The
  // callback returns undefined (a truthy return would stop checkAll).
  row('detect-collisions update+checkAll', {}, () => {
    const sys = new System();
    const bodies = new Array(n);
    for (let i = 0; i < n; i++) {
      bodies[i] = new Box(
        { x: pos0[2 * i], y: pos0[2 * i + 1] },
        boxes[4 * i + 2],
        boxes[4 * i + 3],
        {
          userData: i,
        },
      );
      sys.insert(bodies[i]);
    }
    const cb = (res) => {
      const a = res.a.userData;
      const b = res.b.userData;
      if (a < b) onPair(a, b);
    };
    return (p) => {
      for (let i = 0; i < n; i++) bodies[i].setPosition(p[2 * i], p[2 * i + 1], false);
      sys.update();
      sys.checkAll(cb);
    };
  });

  row(HARNESS, { baseline: true }, () => () => {});
  return defs;
}

function rbushPairs(t, items, onPair) {
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const found = t.search(it);
    for (let k = 0; k < found.length; k++) if (found[k].id > it.id) onPair(it.id, found[k].id);
  }
}

/**
 * Sort-and-sweep state: ids in minX order and the boxes' coordinates in the same order (parallel
 * typed arrays, so the sweep reads memory in order).
 */
function sweepState(boxes, pos0) {
  const n = boxes.length / 4;
  const w = new Float64Array(n);
  const h = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    w[i] = boxes[4 * i + 2];
    h[i] = boxes[4 * i + 3];
  }
  const ids = Int32Array.from(
    Array.from({ length: n }, (_, i) => i).sort((a, b) => pos0[2 * a] - pos0[2 * b]),
  );
  const x0 = new Float64Array(n);
  const x1 = new Float64Array(n);
  const y0 = new Float64Array(n);
  const y1 = new Float64Array(n);
  return {
    ids,
    /** Rewrites the coordinates of the boxes from positions `p`, in the current order. */
    refresh(p) {
      for (let k = 0; k < n; k++) {
        const i = ids[k];
        const x = p[2 * i];
        const y = p[2 * i + 1];
        x0[k] = x;
        x1[k] = x + w[i];
        y0[k] = y;
        y1[k] = y + h[i];
      }
    },
    /** Restores minX order (stable insertion sort: linear when the order barely changed). */
    insertionSort() {
      for (let k = 1; k < n; k++) {
        const key = x0[k];
        if (x0[k - 1] <= key) continue;
        const id = ids[k];
        const kx1 = x1[k];
        const ky0 = y0[k];
        const ky1 = y1[k];
        let j = k - 1;
        while (j >= 0 && x0[j] > key) {
          x0[j + 1] = x0[j];
          x1[j + 1] = x1[j];
          y0[j + 1] = y0[j];
          y1[j + 1] = y1[j];
          ids[j + 1] = ids[j];
          j--;
        }
        x0[j + 1] = key;
        x1[j + 1] = kx1;
        y0[j + 1] = ky0;
        y1[j + 1] = ky1;
        ids[j + 1] = id;
      }
    },
    /** Reports every overlapping pair once (closed intervals). */
    sweep(onPair) {
      for (let a = 0; a < n; a++) {
        const ax1 = x1[a];
        const ay0 = y0[a];
        const ay1 = y1[a];
        for (let b = a + 1; b < n && x0[b] <= ax1; b++) {
          if (y0[b] <= ay1 && ay0 <= y1[b]) onPair(ids[a], ids[b]);
        }
      }
    },
  };
}

/** Every overlapping pair of the boxes at positions p, by testing each pair (the check of a run). */
export function bruteForcePairs(boxes, p, onPair) {
  const n = boxes.length / 4;
  for (let i = 0; i < n; i++) {
    const ax = p[2 * i];
    const ay = p[2 * i + 1];
    const aX = ax + boxes[4 * i + 2];
    const aY = ay + boxes[4 * i + 3];
    for (let j = i + 1; j < n; j++) {
      const bx = p[2 * j];
      const by = p[2 * j + 1];
      if (bx <= aX && ax <= bx + boxes[4 * j + 2] && by <= aY && ay <= by + boxes[4 * j + 3]) {
        onPair(i, j);
      }
    }
  }
}
