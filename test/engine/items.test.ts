// The item registry of the dynamic indexes (src/engine/items.ts): `find` tries the slot after the
// last one found before hashing, so these tests run it against a Map of the items under every
// mix of adds, releases, clears and lookups, in order and out of order.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ItemStore } from '../../src/engine/items.js';
import { GridLooseQuadtree, Quadtree } from '../../src/index.js';

type Op =
  | { t: 'add'; k: number }
  | { t: 'release'; k: number }
  | { t: 'find'; k: number }
  | { t: 'sweep'; from: number }
  | { t: 'clear' };

const KEYS = 12;

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ t: fc.constant('add' as const), k: fc.nat(KEYS - 1) }), weight: 4 },
  { arbitrary: fc.record({ t: fc.constant('release' as const), k: fc.nat(KEYS - 1) }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('find' as const), k: fc.nat(KEYS - 1) }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('sweep' as const), from: fc.nat(KEYS - 1) }), weight: 1 },
  { arbitrary: fc.constant({ t: 'clear' as const }), weight: 1 },
);

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

  it('find(item) returns the slot add(item) gave, or -1, under any mix of adds, releases and clears', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const keys = Array.from({ length: KEYS }, (_, i) => ({ i }));
        const store = new ItemStore<{ i: number }>(2);
        const model = new Map<{ i: number }, number>();
        const expectFind = (key: { i: number }) => {
          expect(store.find(key)).toBe(model.get(key) ?? -1);
        };
        for (const o of ops) {
          if (o.t === 'add') {
            const key = keys[o.k]!;
            const s = store.add(key);
            if (model.has(key)) expect(s).toBe(-1);
            else model.set(key, s);
          } else if (o.t === 'release') {
            const key = keys[o.k]!;
            const s = model.get(key);
            if (s !== undefined) {
              store.release(s);
              model.delete(key);
            }
          } else if (o.t === 'find') {
            expectFind(keys[o.k]!);
          } else if (o.t === 'sweep') {
            // Every key from `from` on, in slot order where they have slots: the path the hint serves.
            const inOrder = [...model.entries()].sort((a, b) => a[1] - b[1]).map(([k]) => k);
            for (const key of inOrder.slice(o.from % (inOrder.length + 1))) expectFind(key);
            for (const key of keys) expectFind(key);
          } else {
            store.clear();
            model.clear();
          }
          // A free slot holds undefined: it is never found as an item.
          expect(store.find(undefined as unknown as { i: number })).toBe(-1);
        }
      }),
      { numRuns: 300 },
    );
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
