import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PackedTree } from '../../src/engine/packed.js';
import type { BoxSource } from '../../src/engine/packed-build.js';
import { arraySource, itemSource, pointSource } from '../../src/engine/sources.js';
import { mulberry32 } from '../oracle.js';

interface Item {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface MinMax {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

// The leaves' boxes and items, the parents, and each item's leaf, as the build wrote them.
function built(source: BoxSource, nodeSize: number, bounds: Float64Array | null) {
  const rank = new Uint32Array(source.n);
  const tree = PackedTree.build(source, nodeSize, false, bounds, rank);
  if (tree === null) throw new Error('the build refused the boxes');
  return {
    boxes: Array.from(tree.boxes),
    indices: Array.from(tree.indices),
    rank: Array.from(rank),
  };
}

// The same boxes through every source: a Float64Array, `{ x, y, width, height }` items, and
// `{ minX, minY, maxX, maxY }` items through a toRect that makes a new rectangle each call.
function everySource(boxes: Float64Array): [string, BoxSource][] {
  const n = boxes.length / 4;
  const items: Item[] = [];
  const minMax: MinMax[] = [];
  for (let i = 0; i < n; i++) {
    const [a, b, c, d] = boxes.subarray(4 * i, 4 * i + 4);
    items.push({ x: a!, y: b!, width: c! - a!, height: d! - b! });
    minMax.push({ minX: a!, minY: b!, maxX: c!, maxY: d! });
  }
  const toRect = (m: MinMax) => ({
    x: m.minX,
    y: m.minY,
    width: m.maxX - m.minX,
    height: m.maxY - m.minY,
  });
  return [
    ['arraySource', arraySource(boxes, n)],
    ['itemSource', itemSource(items, undefined)],
    ['itemSource through toRect', itemSource(minMax, toRect)],
  ];
}

// Boxes whose corners survive the round trip through x + width (integers and halves).
function boxesOf(list: readonly [number, number, number, number][]): Float64Array {
  const out = new Float64Array(4 * list.length);
  list.forEach(([x, y, w, h], i) => {
    out.set([x / 2, y / 2, (x + w) / 2, (y + h) / 2], 4 * i);
  });
  return out;
}

describe('the sources of a packed build', () => {
  const coord = fc.integer({ min: -200, max: 200 });
  const size = fc.integer({ min: 0, max: 40 });

  it('build the same tree from boxes in a Float64Array, from items and from items through toRect', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coord, coord, size, size), { maxLength: 300 }),
        fc.integer({ min: 2, max: 20 }),
        fc.boolean(),
        (list, nodeSize, withBounds) => {
          const boxes = boxesOf(list);
          const bounds = withBounds ? Float64Array.of(-50, -50, 50, 50) : null;
          const [[, first], ...others] = everySource(boxes);
          const expected = built(first!, nodeSize, bounds);
          for (const [name, source] of others) {
            expect(built(source, nodeSize, bounds), name).toEqual(expected);
          }
        },
      ),
    );
  });

  it('build the same tree from points read a chunk at a time as from their zero-size boxes, over many chunks', () => {
    const rnd = mulberry32(5);
    for (const n of [0, 1, 16384, 40000]) {
      const points = new Float64Array(2 * n);
      // Duplicates and one repeated point among them.
      for (let i = 0; i < 2 * n; i++) points[i] = i % 7 === 0 ? 3 : Math.floor(rnd() * 1000) / 4;
      const boxes = new Float64Array(4 * n);
      for (let i = 0; i < n; i++)
        boxes.set([points[2 * i]!, points[2 * i + 1]!, points[2 * i]!, points[2 * i + 1]!], 4 * i);
      for (const nodeSize of [16, 10]) {
        const expected = built(arraySource(boxes, n), nodeSize, null);
        expect(built(pointSource(points, n), nodeSize, null), `${n} points`).toEqual(expected);
        const [, items, mapped] = everySource(boxes);
        expect(built(items![1], nodeSize, null), `${n} items`).toEqual(expected);
        expect(built(mapped![1], nodeSize, null), `${n} items through toRect`).toEqual(expected);
      }
    }
  });

  it('a tree built from items knows whether every leaf is a point, as a scan of its boxes finds, without scanning', () => {
    const item = fc.oneof(
      fc.record({ x: fc.integer({ min: -50, max: 50 }), y: fc.integer({ min: -50, max: 50 }) }),
      fc.record({
        x: fc.integer({ min: -50, max: 50 }),
        y: fc.integer({ min: -50, max: 50 }),
        width: fc.constantFrom(0, -0, 0.5, 3),
        height: fc.constantFrom(0, 0, 2),
      }),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 300 }), (items) => {
        const expected = items.every((o) => !('width' in o) || (o.width === 0 && o.height === 0));
        const tree = PackedTree.build(itemSource(items, undefined), 8, false, null, null)!;
        // (-1 would be not known: the first query that asks would scan.)
        expect((tree as unknown as { pointLeaves: number }).pointLeaves).toBe(expected ? 1 : 0);
        expect(tree.allPoints()).toBe(expected);
        const mapped = PackedTree.build(
          itemSource(items, (o) => ({ ...o })),
          8,
          false,
          null,
          null,
        )!;
        expect(mapped.allPoints()).toBe(expected);
      }),
      { seed: 36, numRuns: 300 },
    );
  });

  it('itemSource names the item whose toRect throws, in the key pass and in the placement', () => {
    const items = Array.from({ length: 30000 }, (_, i) => ({ p: i }));
    for (const failOn of [1, 2]) {
      let calls = 0;
      const error = new Error('no bounds here');
      const toRect = (it: { p: number }) => {
        if (it.p === 20000 && ++calls === failOn) throw error;
        return { x: it.p, y: 0 };
      };
      expect(() => built(itemSource(items, toRect), 16, null)).toThrow(error);
      expect(error.message).toBe('no bounds here (items[20000])');
    }
  });

  it('itemSource names a bad item in the key pass, and an item whose bounds turn bad in the placement', () => {
    const items: { x: number; y: number }[] = Array.from({ length: 30000 }, (_, i) => ({
      x: i,
      y: 0,
    }));
    const bad = [...items];
    bad[20000] = { x: Number.NaN, y: 0 };
    expect(() => built(itemSource(bad, undefined), 16, null)).toThrow(
      /item\.x .*NaN.*\(items\[20000\]\)/,
    );
    let reads = 0;
    const turning = [...items];
    turning[25000] = {
      get x() {
        return ++reads > 1 ? Number.POSITIVE_INFINITY : 5;
      },
      y: 0,
    };
    expect(() => built(itemSource(turning, undefined), 16, null)).toThrow(
      /item\.x .*Infinity.*\(items\[25000\]\)/,
    );
    expect(reads).toBeGreaterThan(1);
  });
});
