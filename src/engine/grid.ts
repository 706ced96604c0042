// The grid-loose quadtree engine behind GridLooseQuadtree: a complete loose quadtree stored as
// one dense grid per level, with no pointers (T. Ulrich, "Loose Octrees", Game Programming Gems 1,
// 2000; RonTang's "松散的四叉树实战" (loose quadtrees in practice) and his GridLooseQuadtree).
//
// - The world is a square of side W from the bounds' minimum corner. Level L has 2^L x 2^L cells
//   of side s = W / 2^L; a cell's loose box is the cell grown by s/2 on every side.
// - An item's level follows from its size (the deepest level whose cells are at least as large)
//   and its cell from its centre, so placing or relocating it is O(1). The placement is checked
//   exactly: the item must lie in the cell's loose box, strictly inside on the far (max) side;
//   when rounding or the world's edge breaks that, the item goes one level up. Items that fit no
//   cell (outside the world) go to an "outside" list that every query and the pair walk visit.
// - Cells are numbered level by level, in Morton order within a level, so a cell's parent is
//   its number shifted right by two and its four children are contiguous. Each cell counts the
//   items in its subtree, so walks skip empty regions like a pointer quadtree would.
// - An update that keeps the item's centre in its cell (and its box in the loose box) is O(1);
//   a relocation is O(1) plus the count updates up to the lowest common ancestor of the two
//   cells (1-2 levels for small moves).
// - pairs() needs no dedupe: two items of one level can only overlap if their cells are
//   neighbours (the strict far side guarantees a gap two cells apart), so each row of cells is
//   swept on its own and with the next row (src/engine/rows.ts); an item meets coarser items
//   from its own, finer, side ("the small objects are responsible for checking against larger
//   objects", Millington, Game Physics Engine Development, 12.4).

import type { Engine, VisitNode } from './engine.js';
import { CELL_COUNT, CELL_START, CELL_SUB, compact1by1, INF, levelOf } from './grid-cells.js';
import { GridLayout } from './grid-layout.js';
import { room } from './grown.js';
import { searchK } from './queue.js';
import type { Rows } from './rows.js';
import {
  boxKey,
  CIRCLE,
  maxKey,
  NODE_SHADE,
  scanAll,
  scanRect,
  scanShape,
  shapeHits,
} from './scan.js';
import { scanNearest } from './scan-nearest.js';
import { sortByMinX } from './scan-pairs.js';

/** A grid-loose quadtree over item slots. Front doors validate and map slots to items. */
export class LooseGrid<T> extends GridLayout<T> implements Engine<T> {
  queryRect(q: Float64Array, qi: number, all: number, limit: number): number {
    this.flush();
    const { cells, stack, first, depth } = this;
    const minX = q[qi]!;
    const minY = q[qi + 1]!;
    const maxX = q[qi + 2]!;
    const maxY = q[qi + 3]!;
    const { box, slot } = this.buckets;
    const o = 4 * this.outside;
    let results = room(this, 0, cells[o + CELL_COUNT]!);
    let n = all
      ? scanAll(
          slot,
          cells[o + CELL_START]!,
          cells[o + CELL_START]! + cells[o + CELL_COUNT]!,
          results,
          0,
        )
      : scanRect(
          box,
          slot,
          cells[o + CELL_START]!,
          cells[o + CELL_START]! + cells[o + CELL_COUNT]!,
          minX,
          minY,
          maxX,
          maxY,
          results,
          0,
        );
    if (cells[CELL_SUB] === 0 || n >= limit) return n;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      let c = stack[--sp]!;
      const inside = c < 0;
      if (inside) c = ~c;
      const r = 4 * c;
      const from = cells[r + CELL_START]!;
      const to = from + cells[r + CELL_COUNT]!;
      results = room(this, n, to - from);
      let contained = inside;
      if (!inside) {
        const lb = this.looseBox(c);
        if (lb[0]! > maxX || lb[1]! > maxY || lb[2]! < minX || lb[3]! < minY) continue;
        contained = lb[0]! >= minX && lb[1]! >= minY && lb[2]! <= maxX && lb[3]! <= maxY;
      }
      n =
        all || contained
          ? scanAll(slot, from, to, results, n)
          : scanRect(box, slot, from, to, minX, minY, maxX, maxY, results, n);
      if (n >= limit) break;
      const L = levelOf(c);
      if (L === depth) continue;
      const kid = first[L + 1]! + 4 * (c - first[L]!);
      for (let k = kid; k < kid + 4; k++)
        if (cells[4 * k + CELL_SUB]! > 0) stack[sp++] = contained ? ~k : k;
    }
    return n;
  }

  searchShape(shape: number, q: Float64Array, qi: number): number {
    this.flush();
    const a = q[qi]!;
    const b = q[qi + 1]!;
    const c = q[qi + 2]!;
    const d = q[qi + 3]!;
    const { cells, stack, first, depth } = this;
    const { box, slot } = this.buckets;
    const o = 4 * this.outside;
    let results = room(this, 0, cells[o + CELL_COUNT]!);
    let n = scanShape(
      box,
      slot,
      cells[o + CELL_START]!,
      cells[o + CELL_START]! + cells[o + CELL_COUNT]!,
      shape,
      q,
      qi,
      results,
      0,
    );
    if (cells[CELL_SUB] === 0) return n;
    // Cells are pruned by the shape's bounding box first, then by the exact test.
    const sMinX = shape === CIRCLE ? a - c : Math.min(a, c);
    const sMaxX = shape === CIRCLE ? a + c : Math.max(a, c);
    const sMinY = shape === CIRCLE ? b - c : Math.min(b, d);
    const sMaxY = shape === CIRCLE ? b + c : Math.max(b, d);
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const cell = stack[--sp]!;
      const lb = this.looseBox(cell);
      if (lb[0]! > sMaxX || lb[1]! > sMaxY || lb[2]! < sMinX || lb[3]! < sMinY) continue;
      if (!shapeHits(shape, lb[0]!, lb[1]!, lb[2]!, lb[3]!, a, b, c, d)) continue;
      const r = 4 * cell;
      const from = cells[r + CELL_START]!;
      results = room(this, n, cells[r + CELL_COUNT]!);
      n = scanShape(box, slot, from, from + cells[r + CELL_COUNT]!, shape, q, qi, results, n);
      const L = levelOf(cell);
      if (L === depth) continue;
      const kid = first[L + 1]! + 4 * (cell - first[L]!);
      for (let k = kid; k < kid + 4; k++) if (cells[4 * k + CELL_SUB]! > 0) stack[sp++] = k;
    }
    return n;
  }

  nearest(metric: number, q: Float64Array, qi: number, k: number): number {
    this.flush();
    const { cells, queue, best, first, depth } = this;
    const a = q[qi]!;
    const b = q[qi + 1]!;
    const c = q[qi + 2]!;
    const d = q[qi + 3]!;
    const limit = maxKey(metric, q, qi);
    const { box, slot } = this.buckets;
    queue.clear();
    best.reset(searchK(k, this.size));
    if (k === 0) return 0;
    const o = 4 * this.outside;
    const os = cells[o + CELL_START]!;
    scanNearest(box, slot, os, os + cells[o + CELL_COUNT]!, metric, q, qi, best);
    if (cells[CELL_SUB]! > 0) queue.push(0, 0);
    while (queue.length > 0) {
      const bound = best.full ? Math.min(limit, best.worst()) : limit;
      if (queue.peekKey() > bound) break;
      const cell = queue.pop();
      const r = 4 * cell;
      const from = cells[r + CELL_START]!;
      scanNearest(box, slot, from, from + cells[r + CELL_COUNT]!, metric, q, qi, best);
      const L = levelOf(cell);
      if (L === depth) continue;
      const kid = first[L + 1]! + 4 * (cell - first[L]!);
      for (let k = kid; k < kid + 4; k++) {
        if (cells[4 * k + CELL_SUB] === 0) continue;
        const lb = this.looseBox(k);
        // Shaded by a few ulps, so that rounding never ranks a cell behind an item inside it.
        const key = boxKey(metric, lb[0]!, lb[1]!, lb[2]!, lb[3]!, a, b, c, d) * NODE_SHADE;
        if (key <= limit) queue.push(k, key);
      }
    }
    return best.drain(room(this, 0, best.length));
  }

  /**
   * Calls `callback` once for every overlapping pair of slots. The items of each level are
   * gathered by row (cells of one j) and sorted by minX; then each row is swept, and merge-swept
   * with the next row of its level and with the rows of coarser levels its items can reach;
   * finally the outside list meets everything.
   */
  pairs(callback: (a: number, b: number) => void, items: readonly unknown[] | null): void {
    this.flush();
    const cells = this.cells;
    const { box, slot } = this.buckets;
    const o = 4 * this.outside;
    const oFrom = cells[o + CELL_START]!;
    const oTo = oFrom + cells[o + CELL_COUNT]!;
    // The outside list against itself.
    const pairs = this.outsidePairs;
    const rows = this.rows;
    // Both report items[slot] when items are given (not kept after the walk).
    pairs.items = items;
    rows.items = items;
    try {
      pairs.scan(box, slot, oFrom, oTo, box, slot, 0, 0, callback);
      pairs.flush(callback);
      const total = cells[CELL_SUB]!;
      if (total === 0) return;
      rows.enter();
      try {
        this.pairRows(callback);
      } finally {
        rows.leave();
      }
      // The outside list against the tree's items.
      if (oTo > oFrom) rows.against(box, slot, oFrom, oTo, total, callback);
    } finally {
      pairs.items = null;
      rows.items = null;
    }
  }

  // The pairs among the tree's items (see `pairs`).
  private pairRows(callback: (a: number, b: number) => void): void {
    const { levelCount, depth } = this;
    const rows = this.gatherRows();
    // Same level: rows two apart have no overlapping items (the strict far side of placement).
    for (let L = 0; L <= depth; L++) {
      if (levelCount[L] === 0) continue;
      const base = (1 << L) - 1;
      const top = base + (1 << L) - 1;
      for (let r = base; r <= top; r++) {
        if (rows.start[r] === rows.start[r + 1]) continue;
        rows.within(r, callback);
        if (r < top && rows.start[r + 1] !== rows.start[r + 2]) rows.cross(r, r + 1, callback);
      }
    }
    // Across levels, from the finer side: the coarser rows whose loose boxes meet the row's
    // y extent.
    const around = this.around;
    for (let L = 1; L <= depth; L++) {
      if (levelCount[L] === 0) continue;
      const base = (1 << L) - 1;
      for (let r = base; r < base + (1 << L); r++) {
        if (rows.start[r] === rows.start[r + 1]) continue;
        around[1] = rows.minY[r]!;
        around[3] = rows.maxY[r]!;
        for (let K = 0; K < L; K++) {
          if (levelCount[K] === 0) continue;
          const kBase = (1 << K) - 1;
          const j1 = this.lastCell(1, K);
          for (let j = this.firstCell(1, K); j <= j1; j++) {
            const rk = kBase + j;
            if (rows.start[rk] !== rows.start[rk + 1]) rows.cross(r, rk, callback);
          }
        }
      }
    }
    rows.flush(callback);
  }

  // Copies the tree's items into `rows`, row by row (level by level), each row sorted by minX.
  // Cells are visited depth first in Morton order, so a row's cells come in column order; each
  // cell's bucket is kept sorted by minX (in place, near-linear from last call's order), so the
  // copy only has to fix the order where cells meet.
  private gatherRows(): Rows {
    const { cells, pairStack: stack, first, depth } = this;
    const rows = this.rows;
    const { start, fill, minY, maxY } = rows;
    const total = cells[CELL_SUB]!;
    rows.reserve(total);
    if (this.cellList.length < total)
      this.cellList = new Int32Array(Math.max(total, 2 * this.cellList.length));
    const list = this.cellList;
    const { box, slot } = this.buckets;
    const pos = this.store.pos;
    start.fill(0);
    let nl = 0;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const c = stack[--sp]!;
      const L = levelOf(c);
      if (L < depth) {
        const kid = first[L + 1]! + 4 * (c - first[L]!);
        for (let k = kid + 3; k >= kid; k--) if (cells[4 * k + CELL_SUB]! > 0) stack[sp++] = k;
      }
      const count = cells[4 * c + CELL_COUNT]!;
      if (count === 0) continue;
      const from = cells[4 * c + CELL_START]!;
      sortByMinX(box, slot, from, from + count, pos, from);
      list[nl++] = c;
      start[(1 << L) + compact1by1((c - first[L]!) >>> 1)]! += count;
    }
    // start[r + 1] holds row r's count: prefix sums.
    const nRows = fill.length;
    for (let r = 0; r < nRows; r++) {
      start[r + 1]! += start[r]!;
      fill[r] = start[r]!;
      minY[r] = INF;
      maxY[r] = -INF;
    }
    const { box: rbox, slot: rslot } = rows;
    for (let k = 0; k < nl; k++) {
      const c = list[k]!;
      const L = levelOf(c);
      const r = (1 << L) - 1 + compact1by1((c - first[L]!) >>> 1);
      const from = cells[4 * c + CELL_START]!;
      const to = from + cells[4 * c + CELL_COUNT]!;
      let n = fill[r]!;
      let lo = minY[r]!;
      let hi = maxY[r]!;
      const rs = start[r]!;
      for (let e = from; e < to; e++) {
        const ax = box[4 * e]!;
        const a = box[4 * e + 1]!;
        const bx = box[4 * e + 2]!;
        const b = box[4 * e + 3]!;
        // Insertion into the row's sorted entries: only entries near a cell border move.
        let m = n++;
        while (m > rs && rbox[4 * m - 4]! > ax) {
          const j = 4 * m;
          rbox[j] = rbox[j - 4]!;
          rbox[j + 1] = rbox[j - 3]!;
          rbox[j + 2] = rbox[j - 2]!;
          rbox[j + 3] = rbox[j - 1]!;
          rslot[m] = rslot[m - 1]!;
          m--;
        }
        const j = 4 * m;
        rbox[j] = ax;
        rbox[j + 1] = a;
        rbox[j + 2] = bx;
        rbox[j + 3] = b;
        rslot[m] = slot[e]!;
        if (a < lo) lo = a;
        if (b > hi) hi = b;
      }
      fill[r] = n;
      minY[r] = lo;
      maxY[r] = hi;
    }
    return rows;
  }

  // The first column (axis 0) or row (axis 1) at level K whose loose boxes reach the minimum
  // of `around` on that axis: the least i >= 0 with o + (i + 1.5) s >= v, from an estimate
  // adjusted by the exact test. (Numbers come from `around`, not arguments: see scan.ts.)
  private firstCell(axis: number, K: number): number {
    const v = this.around[axis]!;
    const o = axis === 0 ? this.x : this.y;
    const s = this.cellSize[K]!;
    let i = Math.floor((v - o) * this.inverse[K]! - 1.5);
    if (i < 0) i = 0;
    const top = (1 << K) - 1;
    if (i > top) i = top;
    while (i > 0 && o + (i - 1 + 1.5) * s >= v) i--;
    while (i < top && o + (i + 1.5) * s < v) i++;
    return i;
  }

  // The last column or row at level K whose loose boxes start at or before the maximum of
  // `around` on that axis: the greatest i <= 2^K - 1 with o + (i - 0.5) s <= v (-1 if none).
  private lastCell(axis: number, K: number): number {
    const v = this.around[2 + axis]!;
    const o = axis === 0 ? this.x : this.y;
    const s = this.cellSize[K]!;
    const top = (1 << K) - 1;
    let i = Math.floor((v - o) * this.inverse[K]! + 0.5);
    if (i > top) i = top;
    while (i < top && o + (i + 1 - 0.5) * s <= v) i++;
    while (i >= 0 && o + (i - 0.5) * s > v) i--;
    return i;
  }

  visit(callback: (node: VisitNode) => unknown): void {
    this.flush();
    const { cells, visitStack: stack, first, depth, view } = this;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const c = stack[--sp]!;
      const L = levelOf(c);
      const m = c - first[L]!;
      const s = this.cellSize[L]!;
      view.x = this.x + compact1by1(m) * s;
      view.y = this.y + compact1by1(m >>> 1) * s;
      view.width = s;
      view.height = s;
      view.depth = L;
      // The root also holds the outside list.
      view.count =
        cells[4 * c + CELL_COUNT]! + (c === 0 ? cells[4 * this.outside + CELL_COUNT]! : 0);
      if (callback(view) === true || L === depth) continue;
      const kid = first[L + 1]! + 4 * m;
      for (let k = kid + 3; k >= kid; k--) if (cells[4 * k + CELL_SUB]! > 0) stack[sp++] = k;
    }
  }
}
