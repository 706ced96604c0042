// The item registry every dynamic index shares: each item gets a slot, with the node or cell
// that holds it and its position in that node's bucket (where its bounds live: queries never
// read user objects).
//
// Identity: an object item carries a mark, two private fields (invisible to the user's code,
// to JSON and to Object.keys) naming the store that holds it and its slot there, so inserting,
// finding and removing it costs a field read and write rather than a hash operation (200k
// inserts: a Map's growth alone took longer than quadtree-ts's whole insert). Every mark is
// checked against the store's own `items`, so a mark left by a removal, a `clear` or a store
// since dropped is never believed. An object holds one mark: when a second store takes an
// object that a first still holds, the mark moves to the second and the first, told so, keeps
// its items in a Map from then on (until it is cleared), as every store does for items that
// cannot be marked (numbers and other primitives, objects that are not extensible).

import { grown } from './grown.js';

// The constructor that returns its argument: a class extending it adds its private fields to any
// object passed to `new` (the objects need not be its instances).
const Itself = function (this: unknown, o: object) {
  return o;
} as unknown as new (
  o: object,
) => object;

// The mark of an object item: the store holding it (as that store's WeakRef, so that a mark
// never keeps a dropped store alive) and its slot there.
class Mark extends Itself {
  #home: WeakRef<ItemStore<unknown>> | undefined = undefined;
  #slot = -1;

  // The store's WeakRef on a marked object, else undefined.
  static home(o: object): WeakRef<ItemStore<unknown>> | undefined {
    return #home in o ? o.#home : undefined;
  }

  // The slot on an object whose mark is the store's (see home).
  static slot(o: object): number {
    return (o as Mark).#slot;
  }

  // Marks `o` as in slot `s` of `home`; adds the fields if it has none.
  static set(o: object, home: WeakRef<ItemStore<unknown>>, s: number): void {
    if (!(#home in o)) new Mark(o);
    (o as Mark).#home = home;
    (o as Mark).#slot = s;
  }
}

// Whether an item is an object (or function), which can carry a mark.
function isObject(x: unknown): x is object {
  return typeof x === 'object' ? x !== null : typeof x === 'function';
}

/** Slots and bounds of the items of a dynamic index. */
export class ItemStore<T> {
  /** slot -> item (`undefined` for a free slot). */
  items: (T | undefined)[] = [];
  /**
   * item -> slot for the items without this store's mark: primitives, objects that are not
   * extensible and, once `mapped`, every item.
   */
  readonly slots = new Map<T, number>();
  /** The node or cell that holds the slot. */
  node: Int32Array;
  /** The slot's position in its node's bucket; threads the free list of slots. */
  pos: Int32Array;
  /** Bumped each time the slot is freed, so a reused slot is told apart from its last item. */
  gen: Int32Array;
  /** Slots handed out so far (free ones included). */
  used = 0;
  private freeHead = -1;
  // The slot after the last one found: callers that update their items in the order they were
  // added find each one here, without hashing.
  private next = 0;
  // What the marks of this store's items hold.
  private readonly self = new WeakRef<ItemStore<unknown>>(this);
  // Every item is in `slots` (marks are not used): since another store took the mark of one of
  // this store's items (see `lost`), until `clear`.
  private mapped = false;
  // Another store took the mark of an item this one holds: map every item before the next use.
  private lost = false;

  constructor(capacity = 64) {
    this.node = new Int32Array(capacity);
    this.pos = new Int32Array(capacity);
    this.gen = new Int32Array(capacity);
  }

  /** How many slots the arrays hold. */
  get capacity(): number {
    return this.node.length;
  }

  /**
   * Gives `item` a slot and returns it, or returns -1 and changes nothing when the item already
   * has one. The caller places the slot.
   */
  add(item: T): number {
    if (this.lost) this.mapAll();
    if (!this.mapped && isObject(item)) {
      const home = Mark.home(item);
      if (home === this.self) {
        const t = Mark.slot(item);
        if (t < this.used && this.items[t] === item) return -1;
      } else if (home !== undefined) {
        // Held by another store (or one since dropped): the mark comes here.
        home.deref()?.yieldMark(item);
      }
      // (An object without a mark that is not extensible cannot take one: it is hashed.)
      if (home !== undefined || Object.isExtensible(item)) {
        const s = this.slotFor(item);
        Mark.set(item, this.self, s);
        return s;
      }
    }
    const slots = this.slots;
    const before = slots.size;
    // One hash operation: set, and tell a duplicate by the size staying the same.
    slots.set(item, this.freeHead >= 0 ? this.freeHead : this.used);
    if (slots.size === before) {
      // Already present: restore its slot (a linear search, on this error path only; the Map
      // takes NaN for NaN, where indexOf would not find it).
      slots.set(
        item,
        this.items.findIndex((x) => x === item || (Number.isNaN(x) && Number.isNaN(item))),
      );
      return -1;
    }
    return this.slotFor(item);
  }

  // Takes a free slot, or a new one, for `item`.
  private slotFor(item: T): number {
    let s = this.freeHead;
    if (s >= 0) {
      this.freeHead = this.pos[s]!;
      this.items[s] = item;
    } else {
      s = this.used++;
      if (s === this.capacity) this.grow(2 * s);
      this.items.push(item);
    }
    return s;
  }

  /**
   * The slot of an item, or -1 when it is not in the store. The slot after the last one found
   * is tried first, an array read instead of a hash lookup: a loop over the items in the order
   * they were added finds every one there (100k `update` calls in that order: 10.3 -> 5.4 ms).
   */
  find(item: T): number {
    if (this.lost) this.mapAll();
    const h = this.next;
    // (A free slot holds undefined, which is never an item.)
    if (h < this.used && item !== undefined && this.items[h] === item) {
      this.next = h + 1;
      return h;
    }
    let s: number | undefined;
    if (!this.mapped && isObject(item) && Mark.home(item) === this.self) {
      s = Mark.slot(item);
      if (s >= this.used || this.items[s] !== item) return -1;
    } else {
      if (this.slots.size === 0) return -1;
      s = this.slots.get(item);
      if (s === undefined) return -1;
    }
    this.next = s + 1;
    return s;
  }

  /** Frees the slot of an item that the caller has already taken out of its node. */
  release(s: number): void {
    if (this.slots.size !== 0) this.slots.delete(this.items[s] as T);
    this.items[s] = undefined;
    this.pos[s] = this.freeHead;
    this.node[s] = -1;
    this.gen[s] = (this.gen[s]! + 1) | 0;
    this.freeHead = s;
  }

  /** Forgets every item (capacity is kept); every slot counts as freed. */
  clear(): void {
    for (let s = 0; s < this.used; s++) this.gen[s] = (this.gen[s]! + 1) | 0;
    this.items = [];
    this.slots.clear();
    this.used = 0;
    this.freeHead = -1;
    this.mapped = false;
    this.lost = false;
  }

  // Another store takes the mark of `item`: if this one still holds the item, it maps every item
  // before its next use.
  private yieldMark(item: object): void {
    const s = Mark.slot(item);
    if (!this.mapped && s < this.used && this.items[s] === item) this.lost = true;
  }

  // Puts every item in `slots` and stops using marks.
  private mapAll(): void {
    const { items, used, slots } = this;
    for (let s = 0; s < used; s++) {
      const item = items[s];
      if (item !== undefined && isObject(item)) slots.set(item, s);
    }
    this.mapped = true;
    this.lost = false;
  }

  /** Copies every array into ones of `capacity` slots. */
  grow(capacity: number): void {
    this.node = grown(this.node, capacity);
    this.pos = grown(this.pos, capacity);
    this.gen = grown(this.gen, capacity);
  }
}
