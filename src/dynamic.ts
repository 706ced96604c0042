// The front door every dynamic index shares: the queries of QueryIndex plus the mutators, which
// validate input at the boundary and refuse to run inside a walk that calls user code.
// Subclasses (Quadtree, GridLooseQuadtree, PointQuadtree) only choose the engine.

import type { Engine } from './engine/engine.js';
import { DuplicateItemError, WalkInProgressError, wrongType } from './errors.js';
import { QueryIndex } from './queries.js';
import type { NumberedReader } from './typed-items.js';
import type { ItemReader } from './validate.js';

/** The end of a `load` error: nothing was added. */
const NOTHING_LOADED = '; nothing was loaded';

/**
 * A dynamic spatial index of items kept by reference, exact in every answer.
 *
 * Items' bounds are copied in at `insert` and re-read by `update`. Queries never call user code;
 * `pairs` and `visit` do, and mutating the index from inside their callbacks throws an Error
 * (queries from inside them are fine).
 *
 * An object item is found again (`remove`, `update`, `has`, the duplicate check of `insert`) by
 * two private fields the index adds to it, which the object's own code, `Object.keys`, JSON and
 * `structuredClone` never see (a debugger shows them; like any added field they give the object
 * a new hidden class in V8). Primitives and objects that are not extensible (frozen, sealed) are
 * found through a Map, and so are all the items of an index once one of its objects has been
 * inserted into another index while still in it, until its `clear()`.
 *
 * @typeParam T - the item type.
 */
export abstract class DynamicIndex<T> extends QueryIndex<T> {
  /** @internal */
  declare protected readonly engine: Engine<T>;
  /** Reads an item's bounds into an array (at 0..3), or throws. */
  private read: ItemReader<T>;
  private scratch = new Float64Array(0);

  /** @internal */
  protected constructor(engine: Engine<T>, read: ItemReader<T>) {
    super(engine);
    this.read = read;
  }

  /** @internal */
  protected slotItems(): readonly T[] {
    return this.engine.store.items as T[];
  }

  /**
   * Adds an item. Its bounds are read and checked now; the item is placed in the index by the
   * next read (query, remove, update, walk), which places a burst of inserts in bulk: inserting
   * many items one by one and then querying costs less than placing each on its own, and the
   * answers are the same.
   * @param item - the item; its bounds are read now (and again by `update`).
   * @throws DuplicateItemError if the item is already in the index; InvalidValueError (a
   * RangeError) for bounds that are not finite or have a negative size; InvalidTypeError (a
   * TypeError) for an item that is not an object (without `toRect`), null or undefined;
   * WalkInProgressError from inside a `pairs`, `visit` or `toRect` callback.
   */
  insert(item: T): this {
    this.idle('insert');
    this.readGuarded(item);
    // The engine tells a duplicate (and changes nothing).
    if (this.engine.insert(item, this.args, 0) < 0) {
      throw new DuplicateItemError(
        'quadkit: insert(item): the item is already in the index; call update(item) after moving it',
      );
    }
    return this;
  }

  /**
   * Adds many items. All are validated first: if any is bad, or already present, or listed
   * twice, nothing is added (and the error is the one `insert` would throw).
   * @param items - the items to add.
   */
  load(items: readonly T[]): this {
    this.idle('load');
    if (!Array.isArray(items)) wrongType('load(items): items', items, 'an array of items');
    const { engine } = this;
    const n = items.length;
    const boxes = new Float64Array(4 * n);
    // All bounds first, in one loop (the reader may call user code: toRect).
    engine.walking++;
    try {
      this.read.many(items, boxes, NOTHING_LOADED);
    } finally {
      engine.walking--;
    }
    return this.place(items, n, boxes);
  }

  /**
   * Makes this new, empty index one over the numbers 0 to n - 1, whose bounds `read` takes from
   * the caller's array, and adds them (the typed-array doors `fromBoxes` and `fromPoints`).
   * @internal
   */
  protected loadNumbered(read: NumberedReader, n: number): this {
    this.read = read as unknown as ItemReader<T>;
    const boxes = new Float64Array(4 * n);
    read.first(n, boxes, NOTHING_LOADED);
    return this.place(null, n, boxes);
  }

  // Adds the items (the numbers 0..n-1 when null) whose bounds are in `boxes`. An engine with
  // `loadAll` places them all at once into an index that has handed out no slot (an item listed
  // twice: it adds none). Otherwise they are inserted one by one, and the engine tells a
  // duplicate (already present, or listed twice): then the items added so far are taken out
  // again, last first, which hands their slots back in the same order.
  private place(items: readonly T[] | null, n: number, boxes: Float64Array<ArrayBuffer>): this {
    const { engine } = this;
    engine.prepare?.(boxes, n);
    if (engine.loadAll !== undefined && engine.store.used === 0) {
      const twice = engine.loadAll(items, n, boxes);
      if (twice >= 0) throw duplicate(twice);
      return this;
    }
    let i = 0;
    if (items === null) while (i < n && engine.insert(i as T, boxes, 4 * i) >= 0) i++;
    else while (i < n && engine.insert(items[i] as T, boxes, 4 * i) >= 0) i++;
    if (i < n) {
      const { store } = engine;
      for (let j = i - 1; j >= 0; j--) {
        engine.remove(store.find(items === null ? (j as T) : (items[j] as T)));
      }
      throw duplicate(i);
    }
    return this;
  }

  /**
   * Removes an item.
   * @returns false when the item was not in the index.
   */
  remove(item: T): boolean {
    this.idle('remove');
    const s = this.engine.store.find(item);
    if (s < 0) return false;
    this.engine.remove(s);
    return true;
  }

  /**
   * Re-reads the bounds of an item that moved or resized. O(1) while the item stays inside its
   * node's bounds; otherwise it climbs to the nearest node that contains it and descends again.
   * @returns false when the item is not in the index.
   * @throws InvalidValueError/InvalidTypeError for bad bounds (the item keeps its previous
   * bounds).
   */
  update(item: T): boolean {
    this.idle('update');
    const s = this.engine.store.find(item);
    if (s < 0) return false;
    this.readGuarded(item);
    this.engine.move(s, this.args, 0);
    return true;
  }

  /**
   * Re-reads the bounds of every item (after a simulation step), with no lookup per item.
   * All bounds are read and checked first: if any is bad, it throws and no item is moved.
   */
  updateAll(): this {
    this.idle('updateAll');
    const { engine, read } = this;
    const { items, used } = engine.store;
    if (this.scratch.length < 4 * used) this.scratch = new Float64Array(4 * engine.store.capacity);
    const scratch = this.scratch;
    // Reading calls user code (toRect): it may query, but not change the index meanwhile.
    engine.walking++;
    try {
      readAll(items, used, read, scratch, this.args);
    } finally {
      engine.walking--;
    }
    if (engine.moveAll !== undefined) {
      engine.moveAll(scratch);
      return this;
    }
    for (let s = 0; s < used; s++) {
      if (items[s] === undefined) continue;
      engine.move(s, scratch, 4 * s);
    }
    return this;
  }

  /** Whether the item is in the index. */
  has(item: T): boolean {
    return this.engine.store.find(item) >= 0;
  }

  /** Removes every item. */
  clear(): void {
    this.idle('clear');
    this.engine.clear();
  }

  /**
   * Collapses subtrees that hold at most `maxObjects` items. A removal does it at once for the
   * subtree it leaves small (so after inserts and removals the tree is the one a fresh build of
   * its items makes); moves leave small subtrees that it tidies by itself now and then. Call it
   * after many moves to tidy at once. Answers are unchanged.
   */
  cleanup(): this {
    this.idle('cleanup');
    this.engine.cleanup();
    return this;
  }

  /** Every item, in no particular order. */
  all(): T[] {
    const { items, used } = this.engine.store;
    const out = new Array<T>(this.size);
    let n = 0;
    for (let s = 0; s < used; s++) {
      const item = items[s];
      if (item !== undefined) out[n++] = item;
    }
    return out;
  }

  /**
   * The item in a slot, and the slot's generation (it changes when the slot is freed), for
   * trackers built on `pairSlots`. The slot of an item, or -1.
   * @internal
   */
  itemOf(slot: number): T {
    return this.engine.store.items[slot] as T;
  }

  /** @internal */
  generationOf(slot: number): number {
    return this.engine.store.gen[slot]!;
  }

  /** @internal */
  slotOf(item: T): number {
    return this.engine.store.find(item);
  }

  // Reads an item's bounds into `args`; the reader may call user code (toRect), which may query
  // the index but not change it meanwhile (a query stages its numbers in `args` too, before the
  // reader writes the bounds there).
  private readGuarded(item: T): void {
    this.engine.walking++;
    try {
      this.read(item, this.args);
    } finally {
      this.engine.walking--;
    }
  }

  private idle(method: string): void {
    if (this.engine.walking !== 0) {
      throw new WalkInProgressError(
        `quadkit: ${method}() was called from inside a pairs(), visit() or toRect callback or a nearest() filter; collect the changes and apply them after`,
      );
    }
  }
}

// The error of a load whose items[i] is already in the index or listed twice.
function duplicate(i: number): DuplicateItemError {
  return new DuplicateItemError(
    `quadkit: load(items): items[${i}] is already in the index or listed twice${NOTHING_LOADED}`,
  );
}

// Reads the bounds of items[0..used) into scratch (4 numbers per slot), each through `box`. A
// function of its own, outside updateAll's try/finally: V8 compiled the loop inside it on-stack
// and then deoptimised at the finally block in every frame (about 300 KB of garbage per frame at
// 50k items).
function readAll<T>(
  items: readonly (T | undefined)[],
  used: number,
  read: (item: T, out: Float64Array) => void,
  scratch: Float64Array,
  box: Float64Array,
): void {
  for (let s = 0; s < used; s++) {
    const item = items[s];
    if (item === undefined) continue;
    read(item, box);
    scratch[4 * s] = box[0]!;
    scratch[4 * s + 1] = box[1]!;
    scratch[4 * s + 2] = box[2]!;
    scratch[4 * s + 3] = box[3]!;
  }
}
