// The pair scans of the trees and the sort of the grid's buckets by minX: runs of entries (see
// scan.ts) tested against each other, with the pairs written to a buffer first.

/** Entries per block of a pair scan: a block pair yields at most BLOCK * BLOCK pairs. */
const BLOCK = 32;
/** Room for buffered pairs (2 numbers each): room for four block pairs' worth. */
const PAIR_ROOM = 8 * BLOCK * BLOCK;

/**
 * A pair walk's callback as the user gave it, called with items: the walks type it by slots.
 * @param callback - the callback the walk was given.
 */
export function itemPairs(
  callback: (a: number, b: number) => void,
): (a: unknown, b: unknown) => void {
  return callback as unknown as (a: unknown, b: unknown) => void;
}

/**
 * Calls `callback` for the n / 2 pairs of slots in `out`: with the slots, or with items[slot] when
 * `items` is given (the front door's items, mapped here: no wrapper call per pair between the
 * walk and the user's callback).
 */
export function report(
  out: Int32Array,
  n: number,
  callback: (a: number, b: number) => void,
  items: readonly unknown[] | null,
): void {
  if (items === null) {
    for (let k = 0; k < n; k += 2) callback(out[k]!, out[k + 1]!);
    return;
  }
  // A callback that reads its items (100k moving boxes, `a.id` and `b.id` of 600k pairs a
  // frame) spends about 7 ms a frame on those reads: the objects lie in the caller's order, the
  // pairs come in space order. A tight pass touching each item of the buffer before the calls,
  // to overlap the cache misses, took the same 7 ms itself and saved the callback as much.
  const mapped = itemPairs(callback);
  for (let k = 0; k < n; k += 2) mapped(items[out[k]!], items[out[k + 1]!]);
}

/**
 * The pair scans of the trees: each overlapping pair is written to a buffer without branching on
 * the outcome of the test, and the buffer is reported to the callback in a tight loop (as the
 * grid's row sweeps do, see rows.ts). The scans work block by block and the buffer is flushed
 * between blocks, so the kernels make no calls at all: V8 compiles a call or property access
 * that has not run yet as a deoptimization, which (with on-stack replacement) repeated at every
 * entry. One buffer per index: a pair walk of another index inside a callback has its own.
 */
export class PairBuffer {
  readonly out = new Int32Array(PAIR_ROOM);
  /** Numbers in `out` not yet reported. */
  n = 0;
  /** The walk's items, to report items[slot] for each slot; null: report the slots. */
  items: readonly unknown[] | null = null;

  /**
   * Reports each overlapping pair within entries [from, to), and each pair of one of the frame
   * entries [fs, fe) (of `fbox`, `fslot`) and one of them that overlap, frame first; some may
   * stay in the buffer until `flush`.
   */
  scan(
    box: Float64Array,
    slot: Int32Array,
    from: number,
    to: number,
    fbox: Float64Array,
    fslot: Int32Array,
    fs: number,
    fe: number,
    callback: (a: number, b: number) => void,
  ): void {
    for (let a = from; a < to; a += BLOCK) {
      const aEnd = Math.min(a + BLOCK, to);
      this.room(callback);
      this.n = pairsWithin(box, slot, a, aEnd, this.out, this.n);
      for (let b = aEnd; b < to; b += BLOCK) {
        this.room(callback);
        this.n = pairsAcross(
          box,
          slot,
          a,
          aEnd,
          box,
          slot,
          b,
          Math.min(b + BLOCK, to),
          this.out,
          this.n,
        );
      }
      for (let f = fs; f < fe; f += BLOCK) {
        this.room(callback);
        this.n = pairsAcross(
          fbox,
          fslot,
          f,
          Math.min(f + BLOCK, fe),
          box,
          slot,
          a,
          aEnd,
          this.out,
          this.n,
        );
      }
    }
  }

  /** Calls `callback` for the buffered pairs and empties the buffer (first, in case it throws). */
  flush(callback: (a: number, b: number) => void): void {
    const { out, n } = this;
    this.n = 0;
    report(out, n, callback, this.items);
  }

  // Flushes unless the buffer has room for a block pair's pairs.
  private room(callback: (a: number, b: number) => void): void {
    if (this.n > PAIR_ROOM - 2 * BLOCK * BLOCK) this.flush(callback);
  }
}

// Writes into out from n the slots of each overlapping pair of entries within [from, to);
// returns the new count.
function pairsWithin(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  out: Int32Array,
  n: number,
): number {
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    const minX = box[i]!;
    const minY = box[i + 1]!;
    const maxX = box[i + 2]!;
    const maxY = box[i + 3]!;
    const s = slot[e]!;
    for (let f = e + 1; f < to; f++) {
      const j = 4 * f;
      // Branch-free: write the pair, keep it when the boxes overlap.
      out[n] = s;
      out[n + 1] = slot[f]!;
      n +=
        2 *
        (+(box[j]! <= maxX) &
          +(box[j + 1]! <= maxY) &
          +(box[j + 2]! >= minX) &
          +(box[j + 3]! >= minY));
    }
  }
  return n;
}

// Writes into out from n the slots (a, b) of each overlapping pair of an entry a of [aFrom, aTo)
// (of `abox`, `aslot`) and an entry b of [bFrom, bTo) (of `bbox`, `bslot`); returns the new count.
function pairsAcross(
  abox: Float64Array,
  aslot: Int32Array,
  aFrom: number,
  aTo: number,
  bbox: Float64Array,
  bslot: Int32Array,
  bFrom: number,
  bTo: number,
  out: Int32Array,
  n: number,
): number {
  for (let f = bFrom; f < bTo; f++) {
    const j = 4 * f;
    const minX = bbox[j]!;
    const minY = bbox[j + 1]!;
    const maxX = bbox[j + 2]!;
    const maxY = bbox[j + 3]!;
    const s = bslot[f]!;
    for (let e = aFrom; e < aTo; e++) {
      const i = 4 * e;
      out[n] = aslot[e]!;
      out[n + 1] = s;
      n +=
        2 *
        (+(abox[i]! <= maxX) &
          +(abox[i + 1]! <= maxY) &
          +(abox[i + 2]! >= minX) &
          +(abox[i + 3]! >= minY));
    }
  }
  return n;
}

/**
 * Copies to `dbox`/`dslot` from index `n` the entries [from, to) of `sbox`/`sslot` whose boxes
 * overlap the box q[qi..qi+3]; returns the new count. The source and destination may be the
 * same arrays when n >= to.
 */
export function copyOverlapping(
  sbox: Float64Array,
  sslot: Int32Array,
  from: number,
  to: number,
  q: Float64Array,
  qi: number,
  dbox: Float64Array,
  dslot: Int32Array,
  n: number,
): number {
  const minX = q[qi]!;
  const minY = q[qi + 1]!;
  const maxX = q[qi + 2]!;
  const maxY = q[qi + 3]!;
  for (let e = from; e < to; e++) {
    const i = 4 * e;
    const a = sbox[i]!;
    const b = sbox[i + 1]!;
    const c = sbox[i + 2]!;
    const d = sbox[i + 3]!;
    const j = 4 * n;
    dbox[j] = a;
    dbox[j + 1] = b;
    dbox[j + 2] = c;
    dbox[j + 3] = d;
    dslot[n] = sslot[e]!;
    n += +(a <= maxX) & +(b <= maxY) & +(c >= minX) & +(d >= minY);
  }
  return n;
}

/**
 * Sorts entries [from, to) by minX with insertion sort (near-linear on last frame's order, as
 * motion is coherent), telling each moved slot its new position: pos[slot] = index - base.
 */
export function sortByMinX(
  box: Float64Array,
  slot: Int32Array,
  from: number,
  to: number,
  pos: Int32Array,
  base: number,
): void {
  for (let e = from + 1; e < to; e++) {
    const minX = box[4 * e]!;
    if (box[4 * e - 4]! <= minX) continue;
    const minY = box[4 * e + 1]!;
    const maxX = box[4 * e + 2]!;
    const maxY = box[4 * e + 3]!;
    const s = slot[e]!;
    let f = e;
    do {
      box[4 * f] = box[4 * f - 4]!;
      box[4 * f + 1] = box[4 * f - 3]!;
      box[4 * f + 2] = box[4 * f - 2]!;
      box[4 * f + 3] = box[4 * f - 1]!;
      const moved = slot[f - 1]!;
      slot[f] = moved;
      pos[moved] = f - base;
      f--;
    } while (f > from && box[4 * f - 4]! > minX);
    box[4 * f] = minX;
    box[4 * f + 1] = minY;
    box[4 * f + 2] = maxX;
    box[4 * f + 3] = maxY;
    slot[f] = s;
    pos[s] = f - base;
  }
}
