// The priority queues of best-first nearest-neighbour search (Hjaltason & Samet, "Distance
// browsing in spatial databases", 1999): a min-heap of nodes keyed by their distance from the
// query point, and a bounded max-heap of the k best items so far. Both are binary heaps over
// parallel typed arrays, reused from one query to the next.

import { grown } from './grown.js';
import { sortByKey } from './key-sort.js';

/** A binary min-heap of (key, id) pairs, growable, allocation-free once warm. */
export class NodeQueue {
  keys = new Float64Array(16);
  ids = new Int32Array(16);
  length = 0;

  /** Empties the queue. */
  clear(): void {
    this.length = 0;
  }

  /** Adds `id` with priority `key` (smaller pops first). */
  push(id: number, key: number): void {
    if (this.length === this.ids.length) this.grow();
    const { keys, ids } = this;
    let i = this.length++;
    // Sift up.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const k = keys[parent]!;
      if (k <= key) break;
      keys[i] = k;
      ids[i] = ids[parent]!;
      i = parent;
    }
    keys[i] = key;
    ids[i] = id;
  }

  /** The smallest key (the queue must not be empty). */
  peekKey(): number {
    return this.keys[0]!;
  }

  /** Removes and returns the id with the smallest key (the queue must not be empty). */
  pop(): number {
    const { keys, ids } = this;
    const top = ids[0]!;
    const n = --this.length;
    if (n > 0) {
      const key = keys[n]!;
      const id = ids[n]!;
      // Sift down.
      let i = 0;
      const half = n >> 1;
      while (i < half) {
        let c = 2 * i + 1;
        if (c + 1 < n && keys[c + 1]! < keys[c]!) c++;
        if (keys[c]! >= key) break;
        keys[i] = keys[c]!;
        ids[i] = ids[c]!;
        i = c;
      }
      keys[i] = key;
      ids[i] = id;
    }
    return top;
  }

  /** Makes room for `n` entries now rather than as they come (see PackedTree's constructor). */
  reserve(n: number): void {
    if (this.ids.length < n) resize(this, n);
  }

  private grow(): void {
    resize(this, 2 * this.ids.length);
  }
}

// Replaces a heap's parallel arrays by copies of `size` entries, the entries kept.
function resize(heap: { keys: Float64Array; ids: Int32Array }, size: number): void {
  heap.keys = grown(heap.keys, size);
  heap.ids = grown(heap.ids, size);
}

/**
 * The k of a nearest-first search over `size` items: k, or Infinity when it takes every item
 * (which KBest keeps without a heap and sorts once).
 * @param k - how many the caller asks for (an integer >= 0, or Infinity).
 * @param size - how many items there are.
 */
export function searchK(k: number, size: number): number {
  return k >= size ? Number.POSITIVE_INFINITY : k;
}

/**
 * The k best (smallest key) ids seen so far, as a max-heap with ties broken by the smaller id (or
 * the smaller `order[id]`), so the answer is deterministic when several items are at the same
 * distance. With k = Infinity (every id offered), no heap: the ids are kept as they come and
 * sorted once by `drain`.
 */
export class KBest {
  keys = new Float64Array(4);
  ids = new Int32Array(4);
  // The rank of each kept id: the id, or order[id] (the heap's arrays have one length).
  private ranks = new Int32Array(4);
  length = 0;
  k = 0;
  // The scratch of the sort of an unbounded search (see key-sort.ts), swapped with keys and ids
  // when the sorted entries end there.
  private spareKeys = new Float64Array(0);
  private spareIds = new Int32Array(0);
  /**
   * How ids tie, when not by their own values: at the same key, id a goes before id b when
   * order[a] < order[b] (the packed tree over items keeps leaf positions, tied by item index
   * through its leaf-to-item table). Null: by the ids. `reset` keeps it.
   */
  order: Int32Array | null = null;
  /**
   * Whether an id may be kept (a nearest query's filter, on the ids it would keep); null: every
   * id. Asked only for an id that would enter the k best, so a rejected one never counts.
   */
  accept: ((id: number) => boolean) | null = null;

  /**
   * Starts a new search for the `k` best (Infinity: every id offered, sorted). The heap grows as
   * items enter it (doubling, up to k), never to k at once: a search for every item within a
   * distance holds room for what it finds, not for the index.
   */
  reset(k: number): void {
    this.k = k;
    this.length = 0;
  }

  /** Whether k ids have been kept. */
  get full(): boolean {
    return this.length === this.k;
  }

  /** The largest key kept (meaningful when `full`). */
  worst(): number {
    return this.keys[0]!;
  }

  /** Offers `id` at distance `key`; keeps it if it is among the k best so far. */
  offer(id: number, key: number): void {
    // Equal keys are ordered by rank (the id, or order[id]): every comparison below compares
    // ranks too, not only on a tie. A test first run on a tie (rare: duplicate points) had no
    // type feedback, and running it dropped the optimised walk that inlines this method, mid-
    // query, on data with duplicates (the cities); the ranks kept beside the ids make it one
    // integer comparison.
    const order = this.order;
    const rank = order === null ? id : order[id]!;
    if (this.length < this.k) {
      if (this.accept !== null && !this.accept(id)) return;
      if (this.length === this.ids.length) this.grow();
      const { keys, ids, ranks } = this;
      if (this.k === Number.POSITIVE_INFINITY) {
        // Unbounded: kept as offered, sorted by `drain`.
        keys[this.length] = key;
        ids[this.length++] = id;
        return;
      }
      // Sift up in the max-heap.
      let i = this.length++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        const pk = keys[parent]!;
        const pr = ranks[parent]!;
        const later = pr > rank;
        if (pk > key || (pk === key && later)) break;
        keys[i] = pk;
        ids[i] = ids[parent]!;
        ranks[i] = pr;
        i = parent;
      }
      keys[i] = key;
      ids[i] = id;
      ranks[i] = rank;
      return;
    }
    const wk = this.keys[0]!;
    const later = rank > this.ranks[0]!;
    if (key > wk || (key === wk && later)) return;
    if (this.accept !== null && !this.accept(id)) return;
    // Replace the worst and sift down.
    this.siftDown(this.length, key, id, rank);
  }

  /**
   * Writes the kept ids into `out` nearest first and returns how many there are; afterwards
   * `keys[i]` is the key of `out[i]`.
   */
  drain(out: Int32Array): number {
    if (this.k === Number.POSITIVE_INFINITY) return this.drainSorted(out);
    const { keys, ids } = this;
    const n = this.length;
    // Heap sort: repeatedly move the worst to the end.
    for (let end = n - 1; end >= 0; end--) {
      const worst = keys[0]!;
      out[end] = ids[0]!;
      this.siftDown(end, keys[end]!, ids[end]!, this.ranks[end]!);
      keys[end] = worst;
    }
    this.length = 0;
    return n;
  }

  // `drain` of an unbounded search: sorts the entries as offered.
  private drainSorted(out: Int32Array): number {
    const n = this.length;
    if (this.spareIds.length < n) {
      this.spareKeys = new Float64Array(this.keys.length);
      this.spareIds = new Int32Array(this.ids.length);
    }
    if (sortByKey(this.keys, this.ids, this.spareKeys, this.spareIds, n, this.order) === 1) {
      const { keys, ids } = this;
      this.keys = this.spareKeys;
      this.ids = this.spareIds;
      this.spareKeys = keys;
      this.spareIds = ids;
    }
    const ids = this.ids;
    for (let i = 0; i < n; i++) out[i] = ids[i]!;
    this.length = 0;
    return n;
  }

  /** Makes room for `n` ids now rather than as they come (see PackedTree's constructor). */
  reserve(n: number): void {
    if (this.ids.length < n) this.resize(n);
  }

  // Doubles the heap's room (up to k), its entries kept.
  private grow(): void {
    this.resize(Math.min(this.k, 2 * this.ids.length));
  }

  // Copies the ids and keys into arrays of `size` entries; the ranks, when shorter (the unbounded
  // sort may swap in shorter ids, never longer than any the heap has had).
  private resize(size: number): void {
    resize(this, size);
    if (this.ranks.length < size) this.ranks = grown(this.ranks, size);
  }

  // Puts (key, id) of rank `rank` at the root of the heap of the first n entries and restores
  // the heap order, where entries compare by key, then by rank (see `offer`).
  private siftDown(n: number, key: number, id: number, rank: number): void {
    const { keys, ids, ranks } = this;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      let ck = keys[c]!;
      let cr = ranks[c]!;
      if (c + 1 < n) {
        const rk = keys[c + 1]!;
        const rr = ranks[c + 1]!;
        const later = rr > cr;
        if (rk > ck || (rk === ck && later)) {
          c++;
          ck = rk;
          cr = rr;
        }
      }
      const later = rank > cr;
      if (ck < key || (ck === key && later)) break;
      keys[i] = ck;
      ids[i] = ids[c]!;
      ranks[i] = cr;
      i = c;
    }
    keys[i] = key;
    ids[i] = id;
    ranks[i] = rank;
  }
}
