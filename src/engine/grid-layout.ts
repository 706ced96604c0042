// The operations of the grid-loose quadtree (see grid.ts) on the whole grid at once: the bulk
// load of an empty grid, the depth chosen from the items (grid-depth.ts), and the re-placement
// of every item that a new depth needs. Both place all items in one counting sort by cell
// (each cell's count, then the buckets laid out side by side at their final size, then one
// pass writing the entries; R. Hoetzlein, "Fast Fixed-Radius Nearest Neighbors: Interactive
// Million-Particle Fluids", GTC 2014, builds its particle grid so) instead of inserting them one
// by one, which grows each bucket through every size class on the way.

import { Buckets } from './buckets.js';
import { CELL_CLASS, CELL_COUNT, CELL_START, CELL_SUB, GridCells, levelOf } from './grid-cells.js';
import { nextDepth, SAMPLE, samplePosition } from './grid-depth.js';
import { BULK_MIN, dropPending } from './pending.js';

/** The cells of a grid-loose quadtree with its whole-grid operations; LooseGrid adds the walks. */
export abstract class GridLayout<T> extends GridCells<T> {
  /**
   * Places the buffered inserts. A burst of at least BULK_MIN into an empty grid is placed as a
   * load is: the depth chosen from its boxes, then one counting sort by cell (placeAll); other
   * bursts are placed one by one, the depth chosen again if the count has doubled.
   */
  flush(): void {
    const p = this.pending;
    if (p === 0) return;
    this.pending = 0;
    const { pendSlot, pendBox, chooser } = this;
    if (this.placed === 0 && p >= BULK_MIN) {
      // Every item of the store is in the burst: their boxes by slot, as placeAll reads them.
      // Slots handed out in order (a new index's first burst) are already so: no copy.
      let inOrder = p === this.store.used;
      for (let j = 0; inOrder && j < p; j++) inOrder = pendSlot[j] === j;
      let boxes = pendBox;
      if (!inOrder) {
        boxes = new Float64Array(4 * this.store.used);
        for (let j = 0; j < p; j++) {
          const s = pendSlot[j]!;
          for (let k = 0; k < 4; k++) boxes[4 * s + k] = pendBox[4 * j + k]!;
        }
      }
      this.prepare(pendBox, p);
      this.placeAll(boxes);
    } else {
      for (let j = 0; j < p; j++) this.placeOne(pendSlot[j]!, pendBox, 4 * j);
      // (Once all are placed: adapt reads every item's box from the cells.)
      if (chooser !== null && this.placed >= chooser.grow) this.adapt(true);
    }
    // Let a burst's buffer go; keep a small one for the next inserts.
    dropPending(this);
  }

  /**
   * Adds n items (the numbers 0..n-1 when `items` is null) with the boxes src[4i..4i+3] to this
   * empty grid, whose store has handed out no slot yet: item i gets slot i. Returns -1, or the
   * first item listed twice, in which case nothing is added.
   */
  loadAll(items: readonly T[] | null, n: number, src: Float64Array): number {
    const { store } = this;
    if (store.capacity < n) store.grow(n);
    // Slots, as insert gives them.
    for (let i = 0; i < n; i++) {
      if (store.add(items === null ? (i as T) : (items[i] as T)) < 0) {
        store.clear();
        return i;
      }
    }
    this.placeAll(src);
    return -1;
  }

  /**
   * Before `count` items with the boxes `src` are placed in the empty grid: chooses the depth for
   * them, and lays out empty cells for it.
   */
  prepare(src: Float64Array, count: number): void {
    const chooser = this.chooser;
    if (chooser === null || this.size !== 0 || count === 0) return;
    const depth = Math.round(chooser.ideal(count, this.side, chooser.sampleArray(src, count)));
    if (depth !== this.depth) {
      // (Nothing to place again: the cells are only emptied.)
      this.layout(depth);
      this.resetCells();
    }
    chooser.chosen(count);
  }

  /**
   * Chooses the depth again from a sample of the items when the chooser says so (see
   * grid-depth.ts): when the item count doubled or fell to a quarter since the last choice
   * (`force`), or, after moves, when the ideal depth left the current one by a level or more.
   * An empty grid keeps its cells and forgets the choice and its slots: the next items take
   * slots from 0 as in a new index (the sample that chooses reads the items by slot), and
   * choose the depth as they would there.
   */
  adapt(force: boolean): void {
    const chooser = this.chooser;
    if (chooser === null) return;
    const { items, used } = this.store;
    const n = this.size;
    if (n === 0) {
      chooser.reset();
      this.store.clear();
      return;
    }
    let m = 0;
    for (let k = 0; k < Math.min(used, SAMPLE); k++) {
      const s = samplePosition(k, used);
      if (items[s] !== undefined) this.boxOf(s, chooser.boxes, 4 * m++);
    }
    const ideal = chooser.ideal(n, this.side, m);
    this.redepth(force ? Math.round(ideal) : nextDepth(ideal, this.depth));
    chooser.chosen(n);
  }

  /**
   * Places every item again in a grid of `depth` levels below the root (slots are kept): the
   * boxes are gathered by slot from the buckets, the grid is laid out anew, and all are placed.
   */
  redepth(depth: number): void {
    if (depth === this.depth) return;
    const { items, used } = this.store;
    const boxes = new Float64Array(4 * used);
    for (let s = 0; s < used; s++) if (items[s] !== undefined) this.boxOf(s, boxes, 4 * s);
    this.layout(depth);
    this.placeAll(boxes);
  }

  // Places every item of the store (slot s with the box src[4s..4s+3]) into the emptied cells:
  // a counting sort by cell.
  protected placeAll(src: Float64Array): void {
    const { store, outside } = this;
    const { items, used, node, pos } = store;
    this.resetCells();
    const cells = this.cells;
    // The cell of each item (kept in `node`, where it ends), counted.
    for (let s = 0; s < used; s++) {
      if (items[s] === undefined) continue;
      const c = this.place(src, 4 * s);
      node[s] = c;
      cells[4 * c + CELL_COUNT]!++;
    }
    // The buckets side by side, each of the size class of its cell's count; the counts become
    // fill cursors.
    let top = 0;
    for (let c = 0; c <= outside; c++) {
      const r = 4 * c;
      const k = cells[r + CELL_COUNT]!;
      if (k === 0) continue;
      const size = Buckets.classFor(k);
      cells[r + CELL_START] = top;
      cells[r + CELL_CLASS] = size;
      cells[r + CELL_SUB] = c === outside ? 0 : k;
      cells[r + CELL_COUNT] = 0;
      this.levelCount[c === outside ? this.depth + 1 : levelOf(c)]! += k;
      top += 1 << size;
    }
    let { box, slot } = this.buckets;
    if (slot.length < top) {
      box = new Float64Array(4 * top);
      slot = new Int32Array(top);
    }
    if (this.fit.length < 4 * store.capacity) this.fit = new Float64Array(4 * store.capacity);
    // The entries, and each item's fit box (see setFit).
    for (let s = 0; s < used; s++) {
      if (items[s] === undefined) continue;
      const c = node[s]!;
      const r = 4 * c;
      const p = cells[r + CELL_COUNT]!;
      cells[r + CELL_COUNT] = p + 1;
      const e = cells[r + CELL_START]! + p;
      box[4 * e] = src[4 * s]!;
      box[4 * e + 1] = src[4 * s + 1]!;
      box[4 * e + 2] = src[4 * s + 2]!;
      box[4 * e + 3] = src[4 * s + 3]!;
      slot[e] = s;
      pos[s] = p;
      this.setFit(s, c, src, 4 * s);
    }
    // The subtree counts: each level's cells into their parents, from the finest level up.
    const first = this.first;
    for (let L = this.depth; L > 0; L--) {
      const up = first[L - 1]!;
      for (let c = first[L]!; c < first[L + 1]!; c++) {
        const k = cells[4 * c + CELL_SUB]!;
        if (k !== 0) cells[4 * (up + ((c - first[L]!) >>> 2)) + CELL_SUB]! += k;
      }
    }
    this.buckets.adopt(box, slot, top);
  }
}
