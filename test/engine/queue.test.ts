// The k-best heap of every nearest-first search, checked against a sort: keys drawn from a few
// values (ties on most offers), ids tied by themselves or by an order table, k below, at and
// above the number offered, one search after another on the same heap (its arrays grown by the
// first, and by an unbounded one).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KBest } from '../../src/engine/queue.js';

// The k smallest (key, rank) of the offers, as [id, key] pairs in that order.
function bruteBest(offers: [number, number][], k: number, order: Int32Array | null) {
  const rank = (id: number) => (order === null ? id : order[id]!);
  return offers
    .map(([id, key]) => ({ id, key }))
    .sort((a, b) => a.key - b.key || rank(a.id) - rank(b.id))
    .slice(0, k)
    .map(({ id, key }) => [id, key]);
}

// One search: offers each [id, key], drains, returns [id, key] pairs nearest first.
function search(best: KBest, offers: [number, number][], k: number) {
  best.reset(k);
  for (const [id, key] of offers) best.offer(id, key);
  const out = new Int32Array(offers.length);
  const n = best.drain(out);
  return Array.from(out.subarray(0, n), (id, i) => [id, best.keys[i]!]);
}

const SIZE = 40;

describe('KBest', () => {
  it('drain() gives the k smallest keys offered, ties by id or by order[id], search after search', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(
          fc.tuple(
            fc.uniqueArray(fc.integer({ min: 0, max: SIZE - 1 }), { maxLength: SIZE }),
            fc.array(fc.integer({ min: 0, max: 3 }), { minLength: SIZE, maxLength: SIZE }),
            fc.oneof(fc.integer({ min: 0, max: SIZE + 2 }), fc.constant(Number.POSITIVE_INFINITY)),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        fc.uniqueArray(fc.integer({ min: 0, max: 999 }), { minLength: SIZE, maxLength: SIZE }),
        (ordered, searches, table) => {
          const best = new KBest();
          const order = ordered ? Int32Array.from(table) : null;
          best.order = order;
          for (const [ids, keyOf, k] of searches) {
            const offers = ids.map((id): [number, number] => [id, keyOf[id]! / 2]);
            // (An unbounded search sorts its entries by key and order: the same answer.)
            expect(search(best, offers, k)).toEqual(bruteBest(offers, k, order));
          }
        },
      ),
      { seed: 41, numRuns: 300 },
    );
  });

  it('offer(id, key) keeps a tied id only when it ranks before the worst kept', () => {
    const best = new KBest();
    best.order = Int32Array.from([5, 1, 3, 0]);
    best.reset(2);
    // Ranks 5, 1, 3, 0 at one key: the two of rank 0 and 1 (ids 3 and 1) are kept.
    for (let id = 0; id < 4; id++) best.offer(id, 7);
    const out = new Int32Array(2);
    expect(best.drain(out)).toBe(2);
    expect(Array.from(out)).toEqual([3, 1]);
  });
});
