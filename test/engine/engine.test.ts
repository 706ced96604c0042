// The contract of src/engine/engine.ts held against the indexes: every index offers quadkit/geo
// the doors of GeoAccess, and every dynamic index offers ContactTracker those of SlotAccess
// (checked at compile time by the assignments, and here by their answers against brute force).
import { describe, expect, it } from 'vitest';
import type { GeoAccess, SlotAccess } from '../../src/engine/engine.js';
import {
  type DynamicIndex,
  GridLooseQuadtree,
  PointQuadtree,
  Quadtree,
  type QueryIndex,
  StaticQuadtree,
} from '../../src/index.js';
import {
  boxesOf,
  brutePairs,
  bruteSearch,
  mulberry32,
  randInt,
  sameItems,
  samePairs,
} from '../oracle.js';

interface Item {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

const bounds = { x: 0, y: 0, width: 64, height: 64 };
const rng = mulberry32(31);
const items: Item[] = Array.from({ length: 80 }, (_, id) => ({
  id,
  x: randInt(rng, -4, 66),
  y: randInt(rng, -4, 66),
  width: randInt(rng, 0, 6),
  height: randInt(rng, 0, 6),
}));
const points: Item[] = items.map((it) => ({ ...it, width: 0, height: 0 }));
const label = (it: Item): string => `#${it.id}`;

const DYNAMIC: { name: string; points: boolean; make(): DynamicIndex<Item> }[] = [
  { name: 'Quadtree', points: false, make: () => Quadtree.from(items, { bounds, maxObjects: 4 }) },
  {
    name: 'GridLooseQuadtree',
    points: false,
    make: () => GridLooseQuadtree.from(items, { bounds }),
  },
  { name: 'PointQuadtree', points: true, make: () => PointQuadtree.from(points, { bounds }) },
];
const KINDS: { name: string; points: boolean; make(): QueryIndex<Item> }[] = [
  ...DYNAMIC,
  { name: 'StaticQuadtree', points: false, make: () => StaticQuadtree.from(items) },
];

describe.each(KINDS)('$name offers GeoAccess', ({ points: ofPoints, make }) => {
  it('searchEdges finds what search finds, infinite edges included; pointItems tells points', () => {
    const index = make();
    const doors: GeoAccess<Item> = index;
    const boxes = boxesOf(ofPoints ? points : items);
    for (let t = 0; t < 40; t++) {
      const x = randInt(rng, -8, 64);
      const y = randInt(rng, -8, 64);
      const w = randInt(rng, 0, 20);
      const h = randInt(rng, 0, 20);
      const want = bruteSearch(boxes, { x, y, width: w, height: h });
      expect(sameItems(doors.searchEdges(x, y, x + w, y + h, Infinity), want, label)).toBeNull();
    }
    const all = doors.searchEdges(-Infinity, -Infinity, Infinity, Infinity, Infinity);
    expect(sameItems(all, ofPoints ? points : items, label)).toBeNull();
    // PointQuadtree knows its items are points; the others do not claim it for boxes.
    expect(doors.pointItems()).toBe(ofPoints);
  });
});

describe.each(DYNAMIC)('$name offers SlotAccess', ({ points: ofPoints, make }) => {
  it('pairSlots, itemOf, slotOf and generationOf agree with the items and brute force', () => {
    const index = make();
    const doors: SlotAccess<Item> = index;
    const list = ofPoints ? points : items;
    const seen: [Item, Item][] = [];
    doors.pairSlots((a, b) => {
      seen.push([doors.itemOf(a), doors.itemOf(b)]);
    });
    expect(samePairs(seen, brutePairs(boxesOf(list)), label)).toBeNull();
    for (const it of list) expect(doors.itemOf(doors.slotOf(it))).toBe(it);
    expect(doors.slotOf({ ...list[0]! })).toBe(-1);
    const s = doors.slotOf(list[0]!);
    const g = doors.generationOf(s);
    index.remove(list[0]!);
    expect(doors.generationOf(s)).not.toBe(g);
  });
});
