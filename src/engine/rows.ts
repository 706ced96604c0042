// The pair walk of the grid-loose quadtree works on rows: the items of one level whose cells
// share a row (the same j), copied side by side (one array per coordinate) and sorted by minX.
// One sweep over a row finds every overlapping pair of items in the same row, whatever their
// columns; one merge sweep of two rows finds the pairs between them, after each row is cut down
// to the items that reach the other's y extent. Long sweeps replace the many short per-cell
// sweeps (a mispredicted loop exit each), and the cut skips most items of vertical neighbours.
// The sweeps write pairs into a buffer without branching on the outcome of the test and call
// back from the buffer in a tight loop: a branch on a test that passes half the time would be
// mispredicted half the time.
//
// Numbers are read from typed arrays inside the functions, never passed as double arguments
// (see scan.ts).

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
  /** What a walk that began inside another's callback saved of PAIRS (see `enter`). */
  private saved = new Int32Array(0);
  private savedLength = 0;
  /** Entries by row: minX, maxX, minY, maxY and the item slot. */
  x0 = new Float64Array(64);
  x1 = new Float64Array(64);
  y0 = new Float64Array(64);
  y1 = new Float64Array(64);
  slot = new Int32Array(64);
  /** Row r holds entries [start[r], start[r + 1]). */
  readonly start: Int32Array;
  /** Where the next entry of row r goes while rows are filled. */
  readonly fill: Int32Array;
  /** Least minY and greatest maxY of the entries of each row. */
  readonly minY: Float64Array;
  readonly maxY: Float64Array;
  /** Two cut-down rows of a cross: the first from 0, the second after it. */
  private cx0 = new Float64Array(64);
  private cx1 = new Float64Array(64);
  private cy0 = new Float64Array(64);
  private cy1 = new Float64Array(64);
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
    this.x0 = new Float64Array(cap);
    this.x1 = new Float64Array(cap);
    this.y0 = new Float64Array(cap);
    this.y1 = new Float64Array(cap);
    this.slot = new Int32Array(cap);
    this.cx0 = new Float64Array(cap);
    this.cx1 = new Float64Array(cap);
    this.cy0 = new Float64Array(cap);
    this.cy1 = new Float64Array(cap);
    this.cslot = new Int32Array(cap);
  }

  /**
   * Reports each overlapping pair of entries of row r (sorted by minX): the pairs are buffered
   * and passed to `callback` when the buffer fills up or at `flush`.
   */
  within(r: number, callback: (a: number, b: number) => void): void {
    const { x0, x1, y0, y1, slot } = this;
    const out = PAIRS;
    const to = this.start[r + 1]!;
    let n = this.n;
    for (let e = this.start[r]!; e < to; e++) {
      const maxX = x1[e]!;
      const minY = y0[e]!;
      const maxY = y1[e]!;
      const s = slot[e]!;
      for (let f = e + 1; f < to && x0[f]! <= maxX; f++) {
        // Branch-free: write the pair, keep it when the y intervals meet.
        out[n] = s;
        out[n + 1] = slot[f]!;
        n += 2 * (+(y0[f]! <= maxY) & +(y1[f]! >= minY));
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
      for (let k = 0; k < n; k += 2) callback(out[k]!, out[k + 1]!);
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
    const { cx0: x0, cx1: x1, cy0: y0, cy1: y1, cslot: slot } = this;
    const out = PAIRS;
    let n = this.n;
    let i = 0;
    let j = na;
    while (i < na && j < nb) {
      if (x0[i]! <= x0[j]!) {
        // a_i starts first: it meets in x every b from j that starts before it ends.
        const maxX = x1[i]!;
        const minY = y0[i]!;
        const maxY = y1[i]!;
        const s = slot[i]!;
        for (let k = j; k < nb && x0[k]! <= maxX; k++) {
          out[n] = s;
          out[n + 1] = slot[k]!;
          n += 2 * (+(y0[k]! <= maxY) & +(y1[k]! >= minY));
          if (n === OUT) n = this.emit(n, callback);
        }
        i++;
      } else {
        const maxX = x1[j]!;
        const minY = y0[j]!;
        const maxY = y1[j]!;
        const s = slot[j]!;
        for (let k = i; k < na && x0[k]! <= maxX; k++) {
          out[n] = slot[k]!;
          out[n + 1] = s;
          n += 2 * (+(y0[k]! <= maxY) & +(y1[k]! >= minY));
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
    const { x0, x1, y0, y1, slot, cx0, cx1, cy0, cy1, cslot } = this;
    const lo = this.minY[o]!;
    const hi = this.maxY[o]!;
    const to = this.start[r + 1]!;
    for (let e = this.start[r]!; e < to; e++) {
      const a = y0[e]!;
      const b = y1[e]!;
      // Branch-free: write the entry, keep it when it passes.
      cx0[n] = x0[e]!;
      cx1[n] = x1[e]!;
      cy0[n] = a;
      cy1[n] = b;
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
    const { x0, x1, y0, y1, slot } = this;
    for (let e = aFrom; e < aTo; e++) {
      const minX = abox[4 * e]!;
      const minY = abox[4 * e + 1]!;
      const maxX = abox[4 * e + 2]!;
      const maxY = abox[4 * e + 3]!;
      for (let f = 0; f < total; f++) {
        if ((+(x0[f]! <= maxX) & +(y0[f]! <= maxY) & +(x1[f]! >= minX) & +(y1[f]! >= minY)) !== 0) {
          callback(aslot[e]!, slot[f]!);
        }
      }
    }
  }
}
