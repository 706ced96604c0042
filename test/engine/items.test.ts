// The item registry of the dynamic indexes (src/engine/items.ts): an object item carries a mark
// (its store and slot), other items are hashed, and `find` tries the slot after the last one found
// first. These tests run it against a Map per store under every mix of adds, releases, clears and
// lookups, in order and out of order, with the same items in several stores at once.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ItemStore } from '../../src/engine/items.js';
import { GridLooseQuadtree, Quadtree } from '../../src/index.js';
import { exposeGc } from '../gc.js';

type Op =
  | { t: 'add'; st: number; k: number }
  | { t: 'release'; st: number; k: number }
  | { t: 'find'; st: number; k: number }
  | { t: 'sweep'; st: number; from: number }
  | { t: 'clear'; st: number };

const KEYS = 12;
const STORES = 3;

// An operation on key k of store st.
const onKey = <K extends 'add' | 'release' | 'find'>(t: K) =>
  fc.record({ t: fc.constant(t), st: fc.nat(STORES - 1), k: fc.nat(KEYS - 1) });

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: onKey('add'), weight: 4 },
  { arbitrary: onKey('release'), weight: 2 },
  { arbitrary: onKey('find'), weight: 3 },
  {
    arbitrary: fc.record({
      t: fc.constant('sweep' as const),
      st: fc.nat(STORES - 1),
      from: fc.nat(KEYS - 1),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ t: fc.constant('clear' as const), st: fc.nat(STORES - 1) }), weight: 1 },
);

// Keys of every kind a store meets: plain objects (marked), a frozen one, an array and a function
// (marked or not), and primitives (hashed).
function keysOf(): unknown[] {
  const keys: unknown[] = [];
  for (let i = 0; i < 6; i++) keys.push({ i });
  keys.push(Object.freeze({ i: 6 }), [7], () => 8, 9, 'ten', Number.NaN);
  return keys;
}

describe('ItemStore', () => {
  it('add(item) of an item already present returns -1 and keeps its slot, NaN and -0 included', () => {
    const store = new ItemStore<number>(2);
    expect(store.add(7)).toBe(0);
    expect(store.add(Number.NaN)).toBe(1);
    expect(store.add(0)).toBe(2);
    expect(store.add(Number.NaN)).toBe(-1);
    expect(store.add(-0)).toBe(-1);
    expect(store.add(7)).toBe(-1);
    expect([store.find(7), store.find(Number.NaN), store.find(0)]).toEqual([0, 1, 2]);
    expect(store.slots.size).toBe(3);
  });

  it('find(item) returns the slot add(item) gave, or -1, under any mix of adds, releases and clears in several stores sharing items', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const keys = keysOf();
        expect(keys.length).toBe(KEYS);
        const stores = Array.from({ length: STORES }, () => new ItemStore<unknown>(2));
        const models = stores.map(() => new Map<unknown, number>());
        const expectFind = (st: number, key: unknown) => {
          expect(stores[st]!.find(key)).toBe(models[st]!.get(key) ?? -1);
        };
        for (const o of ops) {
          const store = stores[o.st]!;
          const model = models[o.st]!;
          if (o.t === 'add') {
            const key = keys[o.k];
            const s = store.add(key);
            if (model.has(key)) expect(s).toBe(-1);
            else {
              expect(s).toBeGreaterThanOrEqual(0);
              expect([...model.values()]).not.toContain(s);
              model.set(key, s);
            }
          } else if (o.t === 'release') {
            const key = keys[o.k];
            const s = model.get(key);
            if (s !== undefined) {
              store.release(s);
              model.delete(key);
            }
          } else if (o.t === 'find') {
            expectFind(o.st, keys[o.k]);
          } else if (o.t === 'sweep') {
            // Every key from `from` on, in slot order where they have slots: the path the hint serves.
            const inOrder = [...model.entries()].sort((a, b) => a[1] - b[1]).map(([k]) => k);
            for (const key of inOrder.slice(o.from % (inOrder.length + 1))) expectFind(o.st, key);
            for (const key of keys) expectFind(o.st, key);
          } else {
            store.clear();
            model.clear();
          }
          // A free slot holds undefined: it is never found as an item.
          expect(store.find(undefined)).toBe(-1);
        }
        // Every store still answers for every key.
        for (let st = 0; st < STORES; st++) for (const key of keys) expectFind(st, key);
      }),
      { numRuns: 400 },
    );
  });

  it('an object keeps its own keys, JSON and structured clone after add(item)', () => {
    const item = { x: 1, y: 2, tag: 'a' };
    const before = [Reflect.ownKeys(item), JSON.stringify(item), structuredClone(item)];
    const store = new ItemStore<object>();
    store.add(item);
    new ItemStore<object>().add(item);
    expect([Reflect.ownKeys(item), JSON.stringify(item), structuredClone(item)]).toEqual(before);
    expect(Object.getOwnPropertySymbols(item)).toEqual([]);
  });

  it('an object that is not extensible is hashed, and an extensible one is not', () => {
    const store = new ItemStore<object>();
    const frozen = Object.freeze({ i: 0 });
    const closed = Object.preventExtensions({ i: 1 });
    const open = { i: 2 };
    expect([store.add(frozen), store.add(closed), store.add(open)]).toEqual([0, 1, 2]);
    expect([store.slots.has(frozen), store.slots.has(closed), store.slots.has(open)]).toEqual([
      true,
      true,
      false,
    ]);
    expect([store.add(frozen), store.add(closed), store.add(open)]).toEqual([-1, -1, -1]);
    store.release(0);
    expect([store.find(frozen), store.find(closed), store.find(open)]).toEqual([-1, 1, 2]);
  });

  it('an object whose store was dropped and collected is taken by another store', async () => {
    const gc = exposeGc();
    const items = Array.from({ length: 100 }, (_, i) => ({ i }));
    (() => {
      const dropped = new ItemStore<{ i: number }>();
      for (const item of items) dropped.add(item);
    })();
    // (The WeakRef of the dropped store is emptied once the current job has ended.)
    await new Promise((r) => setTimeout(r, 0));
    gc();
    const store = new ItemStore<{ i: number }>();
    expect(items.map((item) => store.add(item))).toEqual(items.map((_, i) => i));
    expect(items.map((item) => store.find(item))).toEqual(items.map((_, i) => i));
    expect(store.add(items[3]!)).toBe(-1);
  });

  it('find(item) after a release does not return the freed slot, even when it is the next one', () => {
    const a = { i: 0 };
    const b = { i: 1 };
    const store = new ItemStore<{ i: number }>();
    store.add(a);
    store.add(b);
    expect(store.find(a)).toBe(0);
    store.release(1);
    expect(store.find(b)).toBe(-1);
    expect(store.find(undefined as unknown as { i: number })).toBe(-1);
    expect(store.add(b)).toBe(1);
    expect(store.find(b)).toBe(1);
  });
});

describe('update(item) in the order the items were loaded', () => {
  const WORLD = { x: 0, y: 0, width: 400, height: 100 };
  const make = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: i,
      x: (i * 37) % 101,
      y: (i * 53) % 97,
      width: 1,
      height: 1,
    }));
  for (const [name, create] of [
    [
      'Quadtree',
      () => new Quadtree<ReturnType<typeof make>[number]>({ bounds: WORLD, maxObjects: 4 }),
    ],
    [
      'GridLooseQuadtree',
      () => new GridLooseQuadtree<ReturnType<typeof make>[number]>({ bounds: WORLD }),
    ],
  ] as const) {
    it(`${name}: update(item) over the items in any order moves exactly those items`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 60 }),
          fc.integer({ min: 0, max: 59 }),
          fc.boolean(),
          (n, removed, reversed) => {
            const items = make(n);
            const tree = create().load(items);
            const gone = items[removed];
            if (gone !== undefined) expect(tree.remove(gone)).toBe(true);
            const order = reversed ? [...items].reverse() : items;
            for (const it of order) {
              it.x += 200;
              expect(tree.update(it)).toBe(it !== gone);
            }
            const found = tree.search({ x: 200, y: 0, width: 101, height: 97 });
            expect(found.map((it) => it.id).sort((p, q) => p - q)).toEqual(
              items.filter((it) => it !== gone).map((it) => it.id),
            );
            expect(tree.search({ x: 0, y: 0, width: 101, height: 97 })).toEqual([]);
          },
        ),
        { numRuns: 60 },
      );
    });
  }
});
