// Contiguous buckets of entries (a box and an item slot) for the nodes or cells of a dynamic
// index. Each node's items sit side by side, so a query streams through them instead of chasing
// links through memory. A bucket holds 2^c entries (its size class); a full bucket moves to one
// twice as large, and freed buckets go to a free list per class, so memory stays within twice
// the entries in use.

import { grown } from './grown.js';

/** Size class of the smallest bucket: 2^2 = 4 entries. */
const MIN_CLASS = 2;
const CLASSES = 32;

/** A pool of entry buckets: boxes in `box` (4 doubles each) and item slots in `slot`. */
export class Buckets {
  /** minX, minY, maxX, maxY of each entry. */
  box = new Float64Array(4 * 256);
  /** The item slot of each entry. */
  slot = new Int32Array(256);
  /** Entries handed out so far (the end of the used part of the arrays). */
  private top = 0;
  /** Head of the free list of each size class (-1: empty), threaded through `slot`. */
  private readonly free = new Int32Array(CLASSES).fill(-1);

  /** The size class of the smallest bucket that holds `n` entries. */
  static classFor(n: number): number {
    const c = n <= 1 ? 0 : 32 - Math.clz32(n - 1);
    return c < MIN_CLASS ? MIN_CLASS : c;
  }

  /** Returns the start of a free bucket of size class `c` (2^c entries). */
  alloc(c: number): number {
    const head = this.free[c]!;
    if (head >= 0) {
      this.free[c] = this.slot[head]!;
      return head;
    }
    const start = this.top;
    this.top += 1 << c;
    if (this.top > this.slot.length) this.grow(Math.max(2 * this.slot.length, this.top));
    return start;
  }

  /** Gives back the bucket at `start` of size class `c`. */
  release(start: number, c: number): void {
    this.slot[start] = this.free[c]!;
    this.free[c] = start;
  }

  /**
   * Moves the `count` entries of the bucket at `from` (size class `old`, -1 for none) to a new
   * bucket that holds at least `need`, frees the old one, and returns the new one's start; its
   * size class is `Buckets.classFor(need)`. The owner records both in its node or cell.
   */
  move(from: number, count: number, old: number, need: number): number {
    const start = this.alloc(Buckets.classFor(need));
    this.box.copyWithin(4 * start, 4 * from, 4 * (from + count));
    this.slot.copyWithin(start, from, from + count);
    if (old >= 0) this.release(from, old);
    return start;
  }

  /**
   * Takes `box` and `slot` as the arrays, their first `top` entries in use by buckets the owner
   * laid out (and sized) itself; the free lists start empty.
   */
  adopt(box: Float64Array<ArrayBuffer>, slot: Int32Array<ArrayBuffer>, top: number): void {
    this.box = box;
    this.slot = slot;
    this.top = top;
    this.free.fill(-1);
  }

  /** Forgets every bucket (capacity is kept). */
  clear(): void {
    this.top = 0;
    this.free.fill(-1);
  }

  private grow(capacity: number): void {
    this.box = grown(this.box, 4 * capacity);
    this.slot = grown(this.slot, capacity);
  }
}
