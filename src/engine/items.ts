// The item registry every dynamic index shares: each item gets a slot, its bounds live in typed
// arrays (queries never read user objects), and each slot is a link in a doubly-linked list of
// the node or cell that holds it, so unlinking is O(1).

/** Slots and bounds of the items of a dynamic index. */
export class ItemStore<T> {
  /** slot -> item (`undefined` for a free slot). */
  items: (T | undefined)[] = [];
  /** item -> slot: identity by reference. */
  readonly slots = new Map<T, number>();
  /**
   * 8 per slot, one cache line: the item's minX, minY, maxX, maxY, then the "fit" box it may
   * move inside without relocation (its node's bounds): minX, minY, maxX, maxY.
   */
  box: Float64Array;
  /** The node or cell that holds the slot. */
  node: Int32Array;
  /** The next and previous slot in the same node (-1: none); `next` also threads the free list. */
  next: Int32Array;
  prev: Int32Array;
  /** Slots handed out so far (free ones included). */
  used = 0;
  private freeHead = -1;

  constructor(capacity = 64) {
    this.box = new Float64Array(8 * capacity);
    this.node = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
    this.prev = new Int32Array(capacity);
  }

  /** How many slots the arrays hold. */
  get capacity(): number {
    return this.node.length;
  }

  /** Gives `item` a slot with the bounds (minX, minY, maxX, maxY); the caller links it. */
  add(item: T, minX: number, minY: number, maxX: number, maxY: number): number {
    let s = this.freeHead;
    if (s >= 0) {
      this.freeHead = this.next[s]!;
      this.items[s] = item;
    } else {
      s = this.used++;
      if (s === this.capacity) this.grow(2 * s);
      this.items.push(item);
    }
    this.slots.set(item, s);
    const box = this.box;
    box[8 * s] = minX;
    box[8 * s + 1] = minY;
    box[8 * s + 2] = maxX;
    box[8 * s + 3] = maxY;
    return s;
  }

  /** Frees the slot of an item that the caller has already unlinked. */
  release(s: number): void {
    this.slots.delete(this.items[s] as T);
    this.items[s] = undefined;
    this.next[s] = this.freeHead;
    this.node[s] = -1;
    this.freeHead = s;
  }

  /** Forgets every item (capacity is kept). */
  clear(): void {
    this.items = [];
    this.slots.clear();
    this.used = 0;
    this.freeHead = -1;
  }

  /** Copies every array into ones of `capacity` slots. */
  grow(capacity: number): void {
    const grow32 = (a: Int32Array) => {
      const b = new Int32Array(capacity);
      b.set(a);
      return b;
    };
    const box = new Float64Array(8 * capacity);
    box.set(this.box);
    this.box = box;
    this.node = grow32(this.node);
    this.next = grow32(this.next);
    this.prev = grow32(this.prev);
  }
}
