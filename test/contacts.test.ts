import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContactTracker, GridLooseQuadtree, Quadtree } from '../src/index.js';
import { boxesOf, brutePairs, mulberry32, randFloat, randInt } from './oracle.js';

interface Body {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

// A pair of items as an order-free key.
const key = (a: Body, b: Body) => (a.id < b.id ? `${a.id}:${b.id}` : `${b.id}:${a.id}`);

function bruteContacts(bodies: readonly Body[]): Set<string> {
  return new Set(brutePairs(boxesOf(bodies)).map(([a, b]) => key(a, b)));
}

const makers = [
  [
    'Quadtree',
    () => new Quadtree<Body>({ bounds: { x: 0, y: 0, width: 64, height: 64 }, maxObjects: 2 }),
  ],
  [
    'Quadtree (loose)',
    () =>
      new Quadtree<Body>({
        bounds: { x: 0, y: 0, width: 64, height: 64 },
        maxObjects: 2,
        looseness: 2,
      }),
  ],
  [
    'GridLooseQuadtree',
    () => new GridLooseQuadtree<Body>({ bounds: { x: 0, y: 0, width: 64, height: 64 }, depth: 4 }),
  ],
] as const;

describe('ContactTracker', () => {
  for (const [name, make] of makers) {
    it(`update(onBegin, onEnd) reports exactly the pairs that began and ended since the last call (${name})`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
          const rng = mulberry32(seed);
          const index = make();
          const tracker = new ContactTracker(index);
          let bodies: Body[] = [];
          let nextId = 0;
          let previous = new Set<string>();
          for (let frame = 0; frame < 40; frame++) {
            // A scripted random step: moves, resizes, inserts and removals, inside and outside.
            for (const b of bodies) {
              b.x += randInt(rng, -3, 3);
              b.y += randInt(rng, -3, 3);
              if (rng() < 0.1) b.width = randInt(rng, 0, 12);
            }
            index.updateAll();
            for (let k = randInt(rng, 0, 4); k > 0; k--) {
              const b = {
                id: nextId++,
                x: randInt(rng, -8, 70),
                y: randInt(rng, -8, 70),
                width: randInt(rng, 0, 10),
                height: randInt(rng, 0, 10),
              };
              bodies.push(b);
              index.insert(b);
            }
            if (bodies.length > 0 && rng() < 0.4) {
              const gone = bodies[randInt(rng, 0, bodies.length - 1)]!;
              index.remove(gone);
              bodies = bodies.filter((b) => b !== gone);
            }
            const began = new Set<string>();
            const ended = new Set<string>();
            tracker.update(
              (a, b) => {
                expect(began.has(key(a, b))).toBe(false);
                began.add(key(a, b));
              },
              (a, b) => {
                expect(ended.has(key(a, b))).toBe(false);
                ended.add(key(a, b));
              },
            );
            const now = bruteContacts(bodies);
            expect([...began].sort()).toEqual([...now].filter((k) => !previous.has(k)).sort());
            expect([...ended].sort()).toEqual([...previous].filter((k) => !now.has(k)).sort());
            expect(tracker.size).toBe(now.size);
            const listed = new Set<string>();
            tracker.forEach((a, b) => {
              listed.add(key(a, b));
            });
            expect([...listed].sort()).toEqual([...now].sort());
            previous = now;
          }
        }),
        { numRuns: 40 },
      );
    });
  }

  it('a slot reused by a new item is a new contact: the old pair ends and the new one begins', () => {
    const tree = new Quadtree<Body>({ bounds: { x: 0, y: 0, width: 10, height: 10 } });
    const a = { id: 0, x: 0, y: 0, width: 4, height: 4 };
    const b = { id: 1, x: 2, y: 2, width: 4, height: 4 };
    tree.insert(a).insert(b);
    const tracker = new ContactTracker(tree);
    tracker.update();
    expect(tracker.has(a, b)).toBe(true);
    // b leaves and c takes its slot, in the same place.
    const c = { id: 2, x: 2, y: 2, width: 4, height: 4 };
    tree.remove(b);
    tree.insert(c);
    const began: string[] = [];
    const ended: string[] = [];
    tracker.update(
      (p, q) => began.push(key(p, q)),
      (p, q) => ended.push(key(p, q)),
    );
    expect(began).toEqual(['0:2']);
    expect(ended).toEqual(['0:1']);
    expect(tracker.has(a, b)).toBe(false);
    expect(tracker.has(a, c)).toBe(true);
  });

  it('callbacks may change the index, and clear() makes every pair begin again', () => {
    const tree = new GridLooseQuadtree<Body>({ bounds: { x: 0, y: 0, width: 10, height: 10 } });
    const bodies = Array.from({ length: 5 }, (_, id) => ({
      id,
      x: id,
      y: id,
      width: 2,
      height: 2,
    }));
    tree.load(bodies);
    const tracker = new ContactTracker(tree);
    let begun = 0;
    tracker.update(() => {
      begun++;
      tree.update(bodies[0]!);
    });
    expect(begun).toBe(bruteContacts(bodies).size);
    tracker.clear();
    expect(tracker.size).toBe(0);
    begun = 0;
    tracker.update(() => begun++);
    expect(begun).toBe(bruteContacts(bodies).size);
  });

  it('keeps up with thousands of contacts and many frames (table growth and tombstones)', () => {
    const rng = mulberry32(7);
    const tree = new GridLooseQuadtree<Body>({
      bounds: { x: 0, y: 0, width: 200, height: 200 },
      depth: 4,
    });
    const bodies = Array.from({ length: 1500 }, (_, id) => ({
      id,
      x: randFloat(rng, 0, 200),
      y: randFloat(rng, 0, 200),
      width: randFloat(rng, 1, 8),
      height: randFloat(rng, 1, 8),
    }));
    tree.load(bodies);
    const tracker = new ContactTracker(tree);
    let current = new Set<string>();
    for (let frame = 0; frame < 60; frame++) {
      for (const b of bodies) {
        b.x += randFloat(rng, -1, 1);
        b.y += randFloat(rng, -1, 1);
      }
      tree.updateAll();
      tracker.update(
        (a, b) => current.add(key(a, b)),
        (a, b) => current.delete(key(a, b)),
      );
      const now = bruteContacts(bodies);
      expect(current.size).toBe(now.size);
      current = new Set([...current].filter((k) => now.has(k)));
      expect(current.size).toBe(now.size);
    }
  });

  it('new ContactTracker(index) rejects what is not a quadkit index', () => {
    expect(() => new ContactTracker({} as never)).toThrow(TypeError);
  });
});
