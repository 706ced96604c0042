// The clusterer's folded grid against brute force: radius and box queries over seeded integer
// points with cells from tiny to wider than the data, boxes that fold over the table's edges or
// span more cells than it has, and coincident points.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGrid, rangeInto, withinInto } from '../../src/cluster/grid.js';
import { HALF } from '../../src/cluster/mercator.js';
import { mulberry32, randInt } from '../oracle.js';

function points(seed: number, n: number, spread: number) {
  const rng = mulberry32(seed);
  const cx = randInt(rng, -HALF + spread, HALF - spread);
  const cy = randInt(rng, -HALF + spread, HALF - spread);
  const x = new Int32Array(n);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    // One point in ten repeats an earlier one.
    const j = i > 0 && rng() < 0.1 ? randInt(rng, 0, i - 1) : -1;
    x[i] = j >= 0 ? x[j]! : cx + randInt(rng, -spread, spread);
    y[i] = j >= 0 ? y[j]! : cy + randInt(rng, -spread, spread);
  }
  return { x, y };
}

const sorted = (out: Int32Array, count: number) =>
  Array.from(out.subarray(0, count)).sort((a, b) => a - b);

describe('grid', () => {
  it('withinInto(g, x, y, r) returns each point with squared distance <= r * r exactly once (r up to 3 cells)', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 1e6 }),
        fc.double({ min: 1, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        (seed, n, spread, cell, ratio) => {
          const { x, y } = points(seed, n, spread);
          const g = buildGrid(x, y, n, cell, new Int32Array(n));
          const out = new Int32Array(n);
          const r = ratio * cell;
          const rng = mulberry32(seed ^ 7);
          for (let q = 0; q < 20; q++) {
            const i = n > 0 && q % 2 === 0 ? randInt(rng, 0, n - 1) : -1;
            const qx = i >= 0 ? x[i]! : (x[0] ?? 0) + randInt(rng, -spread, spread);
            const qy = i >= 0 ? y[i]! : (y[0] ?? 0) + randInt(rng, -spread, spread);
            const want: number[] = [];
            for (let j = 0; j < n; j++)
              if ((x[j]! - qx) ** 2 + (y[j]! - qy) ** 2 <= r * r) want.push(j);
            expect(sorted(out, withinInto(g, qx, qy, r, out))).toEqual(want);
          }
        },
      ),
      { seed: 3, numRuns: 150 },
    );
  });

  it('rangeInto(g, box) returns each point inside the closed box exactly once, for small, folded and wide boxes', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 1e6 }),
        fc.double({ min: 1, max: 1e5, noNaN: true }),
        (seed, n, spread, cell) => {
          const { x, y } = points(seed, n, spread);
          const g = buildGrid(x, y, n, cell, new Int32Array(n));
          const out = new Int32Array(n);
          const rng = mulberry32(seed ^ 9);
          for (let q = 0; q < 20; q++) {
            const w = randInt(rng, 0, 2 * spread) * (q % 3 === 0 ? 0.01 : 1);
            const h = randInt(rng, 0, 2 * spread) * (q % 3 === 1 ? 0.01 : 1);
            const minX = (x[0] ?? 0) + randInt(rng, -spread, spread) - w / 2;
            const minY = (y[0] ?? 0) + randInt(rng, -spread, spread) - h / 2;
            const want: number[] = [];
            for (let j = 0; j < n; j++)
              if (x[j]! >= minX && x[j]! <= minX + w && y[j]! >= minY && y[j]! <= minY + h)
                want.push(j);
            expect(sorted(out, rangeInto(g, minX, minY, minX + w, minY + h, out))).toEqual(want);
          }
          // The whole square, and an empty (inverted) box.
          expect(sorted(out, rangeInto(g, -HALF, -HALF, HALF, HALF, out))).toEqual(
            Array.from({ length: n }, (_, i) => i),
          );
          expect(rangeInto(g, 10, 0, 5, 0, out)).toBe(0);
        },
      ),
      { seed: 4, numRuns: 150 },
    );
  });
});
