// Begin/end tracking of overlapping pairs over any dynamic index, for enter/exit events in a game
// loop. The current contacts live in an open-addressing hash table in typed arrays, keyed by the
// two items' slots and the slots' generations (so a slot reused by a new item is a new contact).
// Each frame stamps the contacts it sees; an unchanged contact costs one probe and one write, and
// nothing is allocated for it.

import { DynamicIndex } from './dynamic.js';
import { grown } from './engine/grown.js';
import { describe, InvalidTypeError } from './errors.js';
import { QueryIndex } from './queries.js';
import type { IndexSummary, PairCallback } from './types.js';
import { checkFunction } from './validate.js';

const EMPTY = 0;
const GONE = -1; // a tombstone: probing goes on past it

/** What `ContactTracker.toJSON()` gives. */
export interface TrackerSummary {
  /** Always `'ContactTracker'`. */
  kind: 'ContactTracker';
  /** The number of pairs overlapping at the last update. */
  size: number;
  /** The tracked index's own summary. */
  index: IndexSummary;
}

/**
 * Tracks which pairs of items of an index overlap from one frame to the next, and reports the
 * pairs that began and stopped overlapping at each `update`.
 *
 * @example
 * const contacts = new ContactTracker(tree);
 * // each frame, after moving things and updating the tree:
 * contacts.update(
 *   (a, b) => console.log('touch', a, b),
 *   (a, b) => console.log('part', a, b),
 * );
 *
 * @typeParam T - the item type of the index.
 */
export class ContactTracker<T> {
  /** The index whose pairs are tracked. */
  readonly index: DynamicIndex<T>;
  /** 4 ints per entry: slot a, slot b (a < b), and their generations. */
  private keys = new Int32Array(4 * 64);
  /** Per entry: the frame it was last seen in (> 0), EMPTY or GONE. */
  private stamp = new Int32Array(64);
  /** Per entry: the two items, kept so that ends can be reported after removals. */
  private itemA: (T | undefined)[] = new Array(64).fill(undefined);
  private itemB: (T | undefined)[] = new Array(64).fill(undefined);
  private live = 0;
  private used = 0; // live entries and tombstones
  private frame = 0;
  /** Slot pairs that began this frame, reported after the walk. */
  private began = new Int32Array(64);
  private beganCount = 0;
  private readonly see = (a: number, b: number): void => this.seen(a, b);

  /**
   * @param index - any dynamic index (Quadtree, GridLooseQuadtree, PointQuadtree).
   * @throws InvalidTypeError (a TypeError) for anything else, a StaticQuadtree included.
   */
  constructor(index: DynamicIndex<T>) {
    if (!(index instanceof DynamicIndex)) {
      const other: unknown = index;
      const what =
        other instanceof QueryIndex
          ? `a ${other.constructor.name}, which never changes: call its pairs() once instead`
          : describe(other);
      throw new InvalidTypeError(
        `quadkit: new ContactTracker(index) needs a dynamic index (Quadtree, GridLooseQuadtree or PointQuadtree), got ${what}`,
      );
    }
    this.index = index;
  }

  /**
   * A small summary for `JSON.stringify` and logs: `{ kind: 'ContactTracker', size, index }`
   * (the index's own summary), never the contact table.
   */
  toJSON(): TrackerSummary {
    return { kind: 'ContactTracker', size: this.live, index: this.index.toJSON() };
  }

  /** The number of pairs overlapping at the last `update`. */
  get size(): number {
    return this.live;
  }

  /**
   * Finds the overlapping pairs of the index now, then calls `onEnd(a, b)` for each pair that
   * overlapped at the previous update and no longer does (or whose item was removed), and
   * `onBegin(a, b)` for each pair that overlaps now and did not then. The callbacks may change
   * the index (the walk is over by then).
   * @param onBegin - called for each pair that began overlapping.
   * @param onEnd - called for each pair that stopped overlapping.
   */
  update(onBegin?: PairCallback<T>, onEnd?: PairCallback<T>): this {
    if (onBegin !== undefined) checkFunction('onBegin', onBegin);
    if (onEnd !== undefined) checkFunction('onEnd', onEnd);
    // Stamp every current pair; new ones are recorded as begun.
    this.frame = this.frame === 0x7fffffff ? 1 : this.frame + 1;
    this.beganCount = 0;
    this.index.pairSlots(this.see);
    // Ends: entries not seen this frame.
    const { stamp, itemA, itemB } = this;
    for (let e = 0; e < stamp.length; e++) {
      const st = stamp[e]!;
      if (st === EMPTY || st === GONE || st === this.frame) continue;
      const a = itemA[e] as T;
      const b = itemB[e] as T;
      stamp[e] = GONE;
      itemA[e] = undefined;
      itemB[e] = undefined;
      this.live--;
      if (onEnd !== undefined) onEnd(a, b);
    }
    // Begins, reported after the walk so that the callbacks may change the index.
    const { began, index } = this;
    const n = this.beganCount;
    if (onBegin !== undefined) {
      for (let i = 0; i < n; i++)
        onBegin(index.itemOf(began[2 * i]!), index.itemOf(began[2 * i + 1]!));
    }
    return this;
  }

  /** Calls `callback(a, b)` for each pair overlapping at the last `update`. */
  forEach(callback: PairCallback<T>): void {
    checkFunction('callback', callback);
    const { stamp, itemA, itemB } = this;
    for (let e = 0; e < stamp.length; e++) {
      if (stamp[e]! > 0) callback(itemA[e] as T, itemB[e] as T);
    }
  }

  /** Whether items a and b overlapped at the last `update`. */
  has(a: T, b: T): boolean {
    let sa = this.index.slotOf(a);
    let sb = this.index.slotOf(b);
    if (sa < 0 || sb < 0) return false;
    if (sa > sb) {
      const t = sa;
      sa = sb;
      sb = t;
    }
    const e = this.find(sa, sb, this.index.generationOf(sa), this.index.generationOf(sb));
    return e >= 0 && this.stamp[e]! > 0;
  }

  /** Forgets every contact (the next update reports every overlapping pair as begun). */
  clear(): void {
    this.stamp.fill(EMPTY);
    this.itemA.fill(undefined);
    this.itemB.fill(undefined);
    this.live = 0;
    this.used = 0;
  }

  // One overlapping pair of slots, seen during the walk.
  private seen(a: number, b: number): void {
    if (a > b) {
      const t = a;
      a = b;
      b = t;
    }
    const index = this.index;
    const ga = index.generationOf(a);
    const gb = index.generationOf(b);
    const e = this.find(a, b, ga, gb);
    if (e >= 0) {
      this.stamp[e] = this.frame;
      return;
    }
    this.add(a, b, ga, gb);
    if (2 * this.beganCount + 2 > this.began.length) {
      this.began = grown(this.began, 2 * this.began.length);
    }
    this.began[2 * this.beganCount] = a;
    this.began[2 * this.beganCount + 1] = b;
    this.beganCount++;
  }

  // The entry of a key, or -1. Linear probing from the key's hash.
  private find(a: number, b: number, ga: number, gb: number): number {
    const { keys, stamp } = this;
    const mask = stamp.length - 1;
    for (let e = hash(a, b, ga, gb) & mask; ; e = (e + 1) & mask) {
      const st = stamp[e]!;
      if (st === EMPTY) return -1;
      if (
        st !== GONE &&
        keys[4 * e] === a &&
        keys[4 * e + 1] === b &&
        keys[4 * e + 2] === ga &&
        keys[4 * e + 3] === gb
      ) {
        return e;
      }
    }
  }

  // Adds a key that is not in the table, stamped with this frame.
  private add(a: number, b: number, ga: number, gb: number): void {
    if (2 * (this.used + 1) > this.stamp.length) this.rehash();
    const { keys, stamp } = this;
    const mask = stamp.length - 1;
    let e = hash(a, b, ga, gb) & mask;
    while (stamp[e] !== EMPTY && stamp[e] !== GONE) e = (e + 1) & mask;
    if (stamp[e] === EMPTY) this.used++;
    keys[4 * e] = a;
    keys[4 * e + 1] = b;
    keys[4 * e + 2] = ga;
    keys[4 * e + 3] = gb;
    stamp[e] = this.frame;
    const index = this.index;
    this.itemA[e] = index.itemOf(a);
    this.itemB[e] = index.itemOf(b);
    this.live++;
  }

  // Rebuilds the table without tombstones, twice as large if it is more than a quarter full.
  private rehash(): void {
    const { keys, stamp, itemA, itemB } = this;
    const size = 4 * this.live + 4 > stamp.length ? 2 * stamp.length : stamp.length;
    this.keys = new Int32Array(4 * size);
    this.stamp = new Int32Array(size);
    this.itemA = new Array(size).fill(undefined);
    this.itemB = new Array(size).fill(undefined);
    this.used = 0;
    const mask = size - 1;
    for (let e = 0; e < stamp.length; e++) {
      if (stamp[e]! <= 0) continue;
      let f = hash(keys[4 * e]!, keys[4 * e + 1]!, keys[4 * e + 2]!, keys[4 * e + 3]!) & mask;
      while (this.stamp[f] !== EMPTY) f = (f + 1) & mask;
      for (let k = 0; k < 4; k++) this.keys[4 * f + k] = keys[4 * e + k]!;
      this.stamp[f] = stamp[e]!;
      this.itemA[f] = itemA[e];
      this.itemB[f] = itemB[e];
      this.used++;
    }
  }
}

// Mixes the four ints of a key (multiply-xorshift, after MurmurHash3's finaliser).
function hash(a: number, b: number, ga: number, gb: number): number {
  let h =
    Math.imul(a, 0x9e3779b1) ^
    Math.imul(b + 0x7f4a7c15, 0x85ebca77) ^
    Math.imul(ga ^ (gb << 16), 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}
