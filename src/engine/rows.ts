// The pair walk of the grid-loose quadtree works on rows: the items of one level whose cells
// share a row (the same j), copied side by side (their boxes interleaved in one array, as the
// buckets hold them, and their slots in another) and sorted by minX.
// One sweep over a row finds every overlapping pair of items in the same row, whatever their
// columns; one merge sweep of two rows finds the pairs between them, after each row is cut down
// to the items that reach the other's y extent. Long sweeps replace the many short per-cell
// sweeps (a mispredicted loop exit each), and the cut skips most items of vertical neighbours.
// The sweeps write pairs into a buffer without branching on the outcome of the test and call
// back from the buffer in a tight loop: a branch on a test that passes half the time would be
// mispredicted half the time.
//
// Numbers are read from typed arrays inside the functions, never passed as double arguments
// (see scan.ts). One array of boxes rather than one per coordinate: the sweeps keep fewer
// arrays in registers (1M candidates of the bench's 100k moving boxes: within and cross 12-15%
// faster in a replica of the sweeps).

import { itemPairs, report } from './scan-pairs.js';

/** Room for pairs between reports (2 numbers each). */
const OUT = 2 * 4096;
/**
 * The sweeps write pairs here: one buffer for all instances (a module constant, which V8
 * compiles to faster stores than a field's array), reported from where they are. A pair walk
 * of another index inside a callback saves the numbers being reported (`busy` of them) first
 * and puts them back when it ends (`enter`, `leave`).
 */
const PAIRS = new Int32Array(OUT);
/** Numbers of PAIRS that an `emit` under way is reporting (0: none). */
let busy = 0;

/** Scratch of the row sweeps: the entries of every row, and the cut-down rows of a cross. */
export class Rows {
  /** Numbers in PAIRS not yet reported. */
  private n = 0;
  /** The walk's items, to report items[slot] for each slot; null: report the slots. */
  items: readonly unknown[] | null = null;
  /** What a walk that began inside another's callback saved of PAIRS (see `enter`). */
  private saved = new Int32Array(0);
  private savedLength = 0;
  /** Entries by row: their boxes (minX, minY, maxX, maxY each) and their item slots. */
  box = new Float64Array(4 * 64);
  slot = new Int32Array(64);
  /** Row r holds entries [start[r], start[r + 1]). */
  readonly start: Int32Array;
  /** Where the next entry of row r goes while rows are filled. */
  readonly fill: Int32Array;
  /** Least minY and greatest maxY of the entries of each row. */
  readonly minY: Float64Array;
  readonly maxY: Float64Array;
  /** Two cut-down rows of a cross (boxes and slots): the first from 0, the second after it. */
  private cbox = new Float64Array(4 * 64);
  private cslot = new Int32Array(64);

  constructor(rows: number) {
    this.start = new Int32Array(rows + 1);
    this.fill = new Int32Array(rows);
    this.minY = new Float64Array(rows);
    this.maxY = new Float64Array(rows);
  }

  /** Makes room for n entries (contents are not kept). */
  reserve(n: number): void {
    if (this.slot.length >= n) return;
    const cap = Math.max(n, 2 * this.slot.length);
    this.box = new Float64Array(4 * cap);
    this.slot = new Int32Array(cap);
    this.cbox = new Float64Array(4 * cap);
    this.cslot = new Int32Array(cap);
  }

  /**
   * Reports each overlapping pair of entries of row r (sorted by minX): the pairs are buffered
   * and passed to `callback` when the buffer fills up or at `flush`.
   */
  within(r: number, callback: (a: number, b: number) => void): void {
    const { box, slot } = this;
    const out = PAIRS;
    const to = this.start[r + 1]!;
    let n = this.n;
    for (let e = this.start[r]!; e < to; e++) {
      const i = 4 * e;
      const minY = box[i + 1]!;
      const maxX = box[i + 2]!;
      const maxY = box[i + 3]!;
      const s = slot[e]!;
      for (let f = e + 1; f < to && box[4 * f]! <= maxX; f++) {
        // Branch-free: write the pair, keep it when the y intervals meet.
        out[n] = s;
        out[n + 1] = slot[f]!;
        n += 2 * (+(box[4 * f + 1]! <= maxY) & +(box[4 * f + 3]! >= minY));
        if (n === OUT) n = this.emit(n, callback);
      }
    }
    this.n = n;
  }

  /** Calls `callback` for the pairs written so far. */
  flush(callback: (a: number, b: number) => void): void {
    this.n = this.emit(this.n, callback);
  }

  // Calls `callback` for the n / 2 pairs in PAIRS; returns 0, the new count.
  private emit(n: number, callback: (a: number, b: number) => void): number {
    const out = PAIRS;
    // Cleared first: if the callback throws, the next walk starts empty.
    this.n = 0;
    const outer = busy;
    busy = n;
    try {
      report(out, n, callback, this.items);
    } finally {
      busy = outer;
    }
    return 0;
  }

  /**
   * Starts a walk: when it runs inside the callback of another walk's report, saves the pairs
   * that report is reading (the walk will overwrite them); `leave` puts them back.
   */
  enter(): void {
    this.n = 0;
    this.savedLength = busy;
    if (busy === 0) return;
    if (this.saved.length < busy) this.saved = new Int32Array(OUT);
    this.saved.set(PAIRS.subarray(0, busy));
  }

  /** Ends a walk begun by `enter` (also when it throws). */
  leave(): void {
    const k = this.savedLength;
    if (k === 0) return;
    PAIRS.set(this.saved.subarray(0, k));
    this.savedLength = 0;
  }

  /**
   * Reports (as `within` does) each overlapping pair (a, b) of an entry a of row ra and an entry
   * b of row rb (both sorted by minX). Each row is first cut down to the entries that meet the other
   * row's y extent; then a merge sweep tests in y only the pairs that overlap in x.
   */
  cross(ra: number, rb: number, callback: (a: number, b: number) => void): void {
    // Row a's entries that reach row b's y extent go to [0, na), row b's to [na, nb).
    const na = this.cut(ra, rb, 0);
    if (na === 0) return;
    const nb = this.cut(rb, ra, na);
    if (nb === na) return;
    const { cbox: box, cslot: slot } = this;
    const out = PAIRS;
    let n = this.n;
    let i = 0;
    let j = na;
    while (i < na && j < nb) {
      if (box[4 * i]! <= box[4 * j]!) {
        // a_i starts first: it meets in x every b from j that starts before it ends.
        const minY = box[4 * i + 1]!;
        const maxX = box[4 * i + 2]!;
        const maxY = box[4 * i + 3]!;
        const s = slot[i]!;
        for (let k = j; k < nb && box[4 * k]! <= maxX; k++) {
          out[n] = s;
          out[n + 1] = slot[k]!;
          n += 2 * (+(box[4 * k + 1]! <= maxY) & +(box[4 * k + 3]! >= minY));
          if (n === OUT) n = this.emit(n, callback);
        }
        i++;
      } else {
        const minY = box[4 * j + 1]!;
        const maxX = box[4 * j + 2]!;
        const maxY = box[4 * j + 3]!;
        const s = slot[j]!;
        for (let k = i; k < na && box[4 * k]! <= maxX; k++) {
          out[n] = slot[k]!;
          out[n + 1] = s;
          n += 2 * (+(box[4 * k + 1]! <= maxY) & +(box[4 * k + 3]! >= minY));
          if (n === OUT) n = this.emit(n, callback);
        }
        j++;
      }
    }
    this.n = n;
  }

  // Copies the entries of row r whose y intervals meet row o's y extent to the cut-down rows from
  // index n, in order; returns the new end.
  private cut(r: number, o: number, n: number): number {
    const { box, slot, cbox, cslot } = this;
    const lo = this.minY[o]!;
    const hi = this.maxY[o]!;
    const to = this.start[r + 1]!;
    for (let e = this.start[r]!; e < to; e++) {
      const i = 4 * e;
      const j = 4 * n;
      const a = box[i + 1]!;
      const b = box[i + 3]!;
      // Branch-free: write the entry, keep it when it passes.
      cbox[j] = box[i]!;
      cbox[j + 1] = a;
      cbox[j + 2] = box[i + 2]!;
      cbox[j + 3] = b;
      cslot[n] = slot[e]!;
      n += +(a <= hi) & +(b >= lo);
    }
    return n;
  }

  /**
   * Calls `callback(a, b)` for each overlapping pair of an entry a of `abox`/`aslot` [aFrom, aTo)
   * (4 numbers per box) and an entry b of rows [0, total).
   */
  against(
    abox: Float64Array,
    aslot: Int32Array,
    aFrom: number,
    aTo: number,
    total: number,
    callback: (a: number, b: number) => void,
  ): void {
    const { box, slot, items } = this;
    const mapped = itemPairs(callback);
    for (let e = aFrom; e < aTo; e++) {
      const minX = abox[4 * e]!;
      const minY = abox[4 * e + 1]!;
      const maxX = abox[4 * e + 2]!;
      const maxY = abox[4 * e + 3]!;
      for (let f = 0; f < total; f++) {
        const j = 4 * f;
        if (
          (+(box[j]! <= maxX) &
            +(box[j + 1]! <= maxY) &
            +(box[j + 2]! >= minX) &
            +(box[j + 3]! >= minY)) !==
          0
        ) {
          if (items === null) callback(aslot[e]!, slot[f]!);
          else mapped(items[aslot[e]!], items[slot[f]!]);
        }
      }
    }
  }
}
