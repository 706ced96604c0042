// The cells of the grid-loose quadtree (see grid.ts): the layout of one dense grid per level,
// the O(1) placement of an item by its size and centre, and the mutations (insert, remove, move,
// moveAll) with the subtree counts. GridLayout (grid-layout.ts) adds the operations on the whole
// grid (the bulk load, the depth chosen from the items and the re-placement it needs), LooseGrid
// (grid.ts) the walks (queries, pairs, visit).

import { Buckets } from './buckets.js';
import type { VisitNode } from './engine.js';
import { DepthChooser } from './grid-depth.js';
import { FIRST_RESULTS, grown } from './grown.js';
import { ItemStore } from './items.js';
import { appendPending, dropPending } from './pending.js';
import { KBest, NodeQueue } from './queue.js';
import { Rows } from './rows.js';
import { PairBuffer } from './scan-pairs.js';

export const INF = Number.POSITIVE_INFINITY;

// Fields of a cell's record in `cells` (4 ints). The region tree's node records (tree-nodes.ts)
// have fields of the same meanings at other offsets: NODE_ names there, CELL_ names here.
/** Start of the cell's bucket. */
export const CELL_START = 0;
/** Items in the cell itself. */
export const CELL_COUNT = 1;
/** Size class of the cell's bucket (2^CELL_CLASS entries); -1 when it has none. */
export const CELL_CLASS = 2;
/** Items in the cell's subtree, itself included. */
export const CELL_SUB = 3;

/** Spreads the low 16 bits of v to the even bits (Morton interleave). */
function part1by1(v: number): number {
  v &= 0xffff;
  v = (v | (v << 8)) & 0x00ff00ff;
  v = (v | (v << 4)) & 0x0f0f0f0f;
  v = (v | (v << 2)) & 0x33333333;
  return (v | (v << 1)) & 0x55555555;
}

/** Gathers the even bits of v (the inverse of part1by1). */
export function compact1by1(v: number): number {
  v &= 0x55555555;
  v = (v | (v >>> 1)) & 0x33333333;
  v = (v | (v >>> 2)) & 0x0f0f0f0f;
  v = (v | (v >>> 4)) & 0x00ff00ff;
  return (v | (v >>> 8)) & 0xffff;
}

/** The level of cell number c: cells of level L are numbered from (4^L - 1) / 3. */
export function levelOf(c: number): number {
  return (31 - Math.clz32(3 * c + 1)) >> 1;
}

/**
 * The cells and items of a grid-loose quadtree, and its mutations; GridLayout adds the whole-grid
 * operations (bulk load, depth), LooseGrid the walks.
 */
export abstract class GridCells<T> {
  readonly store = new ItemStore<T>();
  readonly buckets = new Buckets();
  /**
   * 4 ints per cell: CELL_START, CELL_COUNT, CELL_CLASS, CELL_SUB; the last record is the outside
   * list.
   */
  cells = new Int32Array(0);
  results: Int32Array;
  walking = 0;
  /** The number of the outside list's record. */
  outside = 0;
  /** Side of the square world. */
  readonly side: number;
  /** The finest level. */
  depth = 0;
  /** @internal Inserted items not yet placed in a cell: their slots (see `flush`). */
  pendSlot = new Int32Array(64);
  /** @internal The boxes of the inserted items not yet placed, 4 doubles each. */
  pendBox = new Float64Array(4 * 64);
  /** @internal How many inserted items are not yet placed. */
  pending = 0;
  /** Chooses the depth from the items; null when the user pinned it. */
  protected readonly chooser: DepthChooser | null;
  /** First cell number of each level. */
  protected first = new Int32Array(0);
  /** Cell side at each level, and its inverse. */
  protected cellSize = new Float64Array(0);
  protected inverse = new Float64Array(0);
  /** Items at each level (index depth + 1: the outside list). */
  protected levelCount = new Int32Array(0);
  protected stack = new Int32Array(0);
  /** The pair walk and visit call user code, which may query: they keep stacks of their own. */
  protected pairStack = new Int32Array(0);
  protected visitStack = new Int32Array(0);
  protected readonly queue = new NodeQueue();
  readonly best = new KBest();
  protected readonly view: VisitNode = { x: 0, y: 0, width: 0, height: 0, depth: 0, count: 0 };
  /** Scratch of `looseBox`. */
  protected readonly lb = new Float64Array(4);
  /** The box around the items of the cell the pair walk is at. */
  protected readonly around = new Float64Array(4);
  /** 4 per slot: where the item's box may move in O(1) (see setFit). */
  protected fit = new Float64Array(4 * 64);
  /** The pair walk's items by row: 2^L rows at level L, from row 2^L - 1. */
  protected rows = new Rows(1);
  /** Pairs of the outside list's scans, reported from here. */
  protected readonly outsidePairs = new PairBuffer();
  /** The pair walk's non-empty cells, in walk order. */
  protected cellList = new Int32Array(64);

  constructor(
    readonly x: number,
    readonly y: number,
    width: number,
    height: number,
    depth: number,
    auto: boolean,
  ) {
    this.side = Math.max(width, height);
    this.chooser = auto ? new DepthChooser() : null;
    this.layout(depth);
    this.results = new Int32Array(FIRST_RESULTS);
    this.clear();
  }

  /**
   * Chooses the depth again from a sample of the items when the chooser says so (see
   * grid-layout.ts); `force` after the item count doubled or fell to a quarter.
   */
  abstract adapt(force: boolean): void;

  /** Places the buffered inserts (see grid-layout.ts). Every read calls it first. */
  abstract flush(): void;

  // Sizes every array that depends on the depth, for `depth` levels below the root.
  protected layout(depth: number): void {
    this.depth = depth;
    this.first = new Int32Array(depth + 2);
    this.cellSize = new Float64Array(depth + 1);
    this.inverse = new Float64Array(depth + 1);
    for (let L = 0; L <= depth; L++) {
      this.first[L + 1] = this.first[L]! + 4 ** L;
      this.cellSize[L] = this.side / 2 ** L;
      this.inverse[L] = 2 ** L / this.side;
    }
    this.outside = this.first[depth + 1]!;
    this.cells = new Int32Array(4 * (this.outside + 1));
    this.levelCount = new Int32Array(depth + 2);
    // Depth-first walks hold at most 3 cells per level plus 4.
    this.stack = new Int32Array(3 * (depth + 1) + 8);
    this.pairStack = new Int32Array(3 * (depth + 1) + 8);
    this.visitStack = new Int32Array(3 * (depth + 1) + 8);
    this.rows = new Rows(2 ** (depth + 1) - 1);
  }

  /** The box of slot s, from its bucket, at index `at` of `out`. */
  boxOf(s: number, out: Float64Array, at: number): void {
    const e = 4 * (this.cells[4 * this.store.node[s]! + CELL_START]! + this.store.pos[s]!);
    const box = this.buckets.box;
    out[at] = box[e]!;
    out[at + 1] = box[e + 1]!;
    out[at + 2] = box[e + 2]!;
    out[at + 3] = box[e + 3]!;
  }

  get size(): number {
    return this.placed + this.pending;
  }

  /** Items placed in the cells and the outside list (the buffered inserts not counted). */
  protected get placed(): number {
    return this.cells[CELL_SUB]! + this.cells[4 * this.outside + CELL_COUNT]!;
  }

  clear(): void {
    this.store.clear();
    this.pending = 0;
    dropPending(this);
    this.buckets.clear();
    this.resetCells();
    this.chooser?.reset();
  }

  // Empties every cell and the level counts.
  protected resetCells(): void {
    const cells = this.cells;
    for (let c = 0; c <= this.outside; c++) {
      cells[4 * c + CELL_START] = 0;
      cells[4 * c + CELL_COUNT] = 0;
      cells[4 * c + CELL_CLASS] = -1;
      cells[4 * c + CELL_SUB] = 0;
    }
    this.levelCount.fill(0);
  }

  cleanup(): void {
    // A dense grid has nothing to collapse.
  }

  // Writes the loose box of cell c (not the outside list) into `lb`: minX, minY, maxX, maxY.
  protected looseBox(c: number): Float64Array {
    const L = levelOf(c);
    const m = c - this.first[L]!;
    const s = this.cellSize[L]!;
    const i = compact1by1(m);
    const j = compact1by1(m >>> 1);
    const lb = this.lb;
    lb[0] = this.x + (i - 0.5) * s;
    lb[1] = this.y + (j - 0.5) * s;
    lb[2] = this.x + (i + 1.5) * s;
    lb[3] = this.y + (j + 1.5) * s;
    return lb;
  }

  /** The cell an item with the box src[i..i+3] belongs in, or the outside list. O(1). */
  place(src: Float64Array, at: number): number {
    const { x, y, side, depth } = this;
    const minX = src[at]!;
    const minY = src[at + 1]!;
    const maxX = src[at + 2]!;
    const maxY = src[at + 3]!;
    const size = Math.max(maxX - minX, maxY - minY);
    // The deepest level whose cells are at least as large as the item: floor(log2(side / size)).
    const q = side / size;
    let L = q >= 2 ** depth ? depth : q < 2 ? 0 : 31 - Math.clz32(q);
    const ex = minX + (maxX - minX) * 0.5;
    const ey = minY + (maxY - minY) * 0.5;
    for (; L >= 0; L--) {
      const s = this.cellSize[L]!;
      const inv = this.inverse[L]!;
      const n = (1 << L) - 1;
      let i = Math.floor((ex - x) * inv);
      let j = Math.floor((ey - y) * inv);
      i = i < 0 ? 0 : i > n ? n : i;
      j = j < 0 ? 0 : j > n ? n : j;
      // Inside the loose box, strictly on the far side (what pairs() relies on).
      if (
        minX >= x + (i - 0.5) * s &&
        maxX < x + (i + 1.5) * s &&
        minY >= y + (j - 0.5) * s &&
        maxY < y + (j + 1.5) * s
      ) {
        return this.first[L]! + (part1by1(i) | (part1by1(j) << 1));
      }
    }
    return this.outside;
  }

  /**
   * Adds an item with the box src[i..i+3] and returns its slot, or -1 if it is already present.
   * The item is buffered: the next read places it (see `flush`).
   */
  insert(item: T, src: Float64Array, i: number): number {
    const s = this.store.add(item);
    if (s < 0) return s;
    appendPending(this, this.pending++, s, src, i);
    return s;
  }

  // Places slot s with the box src[i..i+3] in its cell.
  protected placeOne(s: number, src: Float64Array, i: number): void {
    const c = this.place(src, i);
    this.put(s, c, src, i);
    this.count(c, 1);
  }

  remove(s: number): void {
    this.flush();
    const c = this.store.node[s]!;
    this.take(s, c);
    this.count(c, -1);
    this.store.release(s);
    if (this.chooser !== null && (this.size === 0 || this.size < this.chooser.shrink)) {
      this.adapt(true);
    }
  }

  move(s: number, src: Float64Array, i: number): void {
    if (this.pending !== 0) this.flush();
    // Items that move change what the depth was chosen for: a look every so many moves.
    if (this.chooser !== null && --this.chooser.countdown < 0) this.adapt(false);
    this.moveSlot(s, src, i);
  }

  // move() without the look at the depth: small enough for V8 to inline into update().
  protected moveSlot(s: number, src: Float64Array, i: number): void {
    const { store, fit } = this;
    const minX = src[i]!;
    const minY = src[i + 1]!;
    const maxX = src[i + 2]!;
    const maxY = src[i + 3]!;
    const f = 4 * s;
    if (minX >= fit[f]! && minY >= fit[f + 1]! && maxX < fit[f + 2]! && maxY < fit[f + 3]!) {
      // Still inside its fit box: O(1).
      const e = 4 * (this.cells[4 * store.node[s]! + CELL_START]! + store.pos[s]!);
      const box = this.buckets.box;
      box[e] = minX;
      box[e + 1] = minY;
      box[e + 2] = maxX;
      box[e + 3] = maxY;
      return;
    }
    this.relocate(s, src, i);
  }

  // Moves slot s, whose box src[i..i+3] left its fit box, to the cell that fits it now.
  protected relocate(s: number, src: Float64Array, i: number): void {
    const { store, cells } = this;
    const c = store.node[s]!;
    const outside = this.outside;
    const d = this.place(src, i);
    this.take(s, c);
    this.put(s, d, src, i);
    if (c === d) return;
    if (c === outside || d === outside) {
      this.count(c, -1);
      this.count(d, 1);
      return;
    }
    // Move the subtree counts: from c up and d up to their lowest common ancestor.
    this.levelCount[levelOf(c)]!--;
    this.levelCount[levelOf(d)]!++;
    let a = c;
    let b = d;
    let la = levelOf(a);
    let lb = levelOf(b);
    while (la > lb) {
      cells[4 * a + CELL_SUB]!--;
      a = this.parent(a, la--);
    }
    while (lb > la) {
      cells[4 * b + CELL_SUB]!++;
      b = this.parent(b, lb--);
    }
    while (a !== b) {
      cells[4 * a + CELL_SUB]!--;
      cells[4 * b + CELL_SUB]!++;
      a = this.parent(a, la--);
      b = this.parent(b, lb--);
    }
  }

  /**
   * Gives every item its box from src[4 * slot..+3], as `move` would: the O(1) case (the box
   * stays in its fit box) inline, slot by slot; relocations through `relocate`.
   */
  moveAll(src: Float64Array): void {
    this.flush();
    const { store, cells } = this;
    const { items, used, node, pos } = store;
    let fit = this.fit;
    for (let s = 0; s < used; s++) {
      if (items[s] === undefined) continue;
      const i = 4 * s;
      const minX = src[i]!;
      const minY = src[i + 1]!;
      const maxX = src[i + 2]!;
      const maxY = src[i + 3]!;
      if (minX >= fit[i]! && minY >= fit[i + 1]! && maxX < fit[i + 2]! && maxY < fit[i + 3]!) {
        const e = 4 * (cells[4 * node[s]! + CELL_START]! + pos[s]!);
        const box = this.buckets.box;
        box[e] = minX;
        box[e + 1] = minY;
        box[e + 2] = maxX;
        box[e + 3] = maxY;
      } else {
        this.relocate(s, src, i);
        fit = this.fit;
      }
    }
    // A look at the depth once per frame (a sample: no allocation unless the depth changes).
    if (this.chooser !== null) this.adapt(false);
  }

  // The parent of cell c of level L > 0.
  protected parent(c: number, L: number): number {
    return this.first[L - 1]! + ((c - this.first[L]!) >>> 2);
  }

  // Adds `delta` to the counts of cell c's level and of every cell from c up to the root.
  protected count(c: number, delta: number): void {
    const cells = this.cells;
    if (c === this.outside) {
      this.levelCount[this.depth + 1]! += delta;
      return;
    }
    let L = levelOf(c);
    this.levelCount[L]! += delta;
    for (;;) {
      cells[4 * c + CELL_SUB]! += delta;
      if (L === 0) break;
      c = this.parent(c, L--);
    }
  }

  // Appends slot s with the box src[i..i+3] to cell c's bucket.
  protected put(s: number, c: number, src: Float64Array, i: number): void {
    const { cells, store } = this;
    const minX = src[i]!;
    const minY = src[i + 1]!;
    const maxX = src[i + 2]!;
    const maxY = src[i + 3]!;
    const r = 4 * c;
    const count = cells[r + CELL_COUNT]!;
    const k = cells[r + CELL_CLASS]!;
    if (k < 0 || count === 1 << k) this.resize(c, count + 1);
    const e = cells[r + CELL_START]! + count;
    const { box, slot } = this.buckets;
    box[4 * e] = minX;
    box[4 * e + 1] = minY;
    box[4 * e + 2] = maxX;
    box[4 * e + 3] = maxY;
    slot[e] = s;
    cells[r + CELL_COUNT] = count + 1;
    store.pos[s] = count;
    store.node[s] = c;
    if (this.fit.length < 4 * store.capacity) this.fit = grown(this.fit, 4 * store.capacity);
    this.setFit(s, c, src, i);
  }

  /**
   * Writes the fit box of slot s, in cell c with the box src[i..i+3]: where the box may move
   * in O(1) (moveAll, update) before the item is placed again. Inside the cell's loose box (what
   * queries and pairs rely on) and, on each side where the cell has a neighbour, with the item's
   * centre inside the cell (for the item's present size). With the loose box alone, moving
   * items drifted to its edges: the rows of the pair walk then reached half a cell into the next
   * ones, and the crosses of adjacent rows kept 133k entries of the bench's 100k moving boxes
   * after 200 frames, against 95k with every item in the cell of its centre. Empty for the
   * outside list, so that any move places the item again. A side whose bound the box already
   * passes (rounding) keeps the loose bound, so that no item is placed again at every move.
   */
  protected setFit(s: number, c: number, src: Float64Array, i: number): void {
    const fit = this.fit;
    const f = 4 * s;
    if (c === this.outside) {
      fit[f] = INF;
      fit[f + 1] = INF;
      fit[f + 2] = -INF;
      fit[f + 3] = -INF;
      return;
    }
    const lb = this.looseBox(c);
    const L = levelOf(c);
    const m = c - this.first[L]!;
    const size = this.cellSize[L]!;
    const last = (1 << L) - 1;
    for (let axis = 0; axis < 2; axis++) {
      const k = axis === 0 ? compact1by1(m) : compact1by1(m >>> 1);
      const lo = src[i + axis]!;
      const hi = src[i + axis + 2]!;
      const half = (hi - lo) * 0.5;
      // The cell spans lb[axis] + size / 2 to lb[axis + 2] - size / 2.
      let a = lb[axis]!;
      let b = lb[axis + 2]!;
      const ta = a + 0.5 * size - half;
      const tb = b - 0.5 * size + half;
      if (k > 0 && ta > a && lo >= ta) a = ta;
      if (k < last && tb < b && hi < tb) b = tb;
      fit[f + axis] = a;
      fit[f + axis + 2] = b;
    }
  }

  // Takes slot s out of cell c's bucket: the last entry fills its place.
  protected take(s: number, c: number): void {
    const { cells, store } = this;
    const { box, slot } = this.buckets;
    const r = 4 * c;
    const start = cells[r + CELL_START]!;
    const last = start + cells[r + CELL_COUNT]! - 1;
    const e = start + store.pos[s]!;
    if (e !== last) {
      box.copyWithin(4 * e, 4 * last, 4 * last + 4);
      const moved = slot[last]!;
      slot[e] = moved;
      store.pos[moved] = e - start;
    }
    cells[r + CELL_COUNT]!--;
  }

  // Moves cell c's entries to a bucket that holds at least `need`.
  protected resize(c: number, need: number): void {
    const { cells } = this;
    const r = 4 * c;
    cells[r + CELL_START] = this.buckets.move(
      cells[r + CELL_START]!,
      cells[r + CELL_COUNT]!,
      cells[r + CELL_CLASS]!,
      need,
    );
    cells[r + CELL_CLASS] = Buckets.classFor(need);
  }
}
