import { forceManyBody as d3ManyBody } from 'd3-force';
import { describe, expect, it } from 'vitest';
import { forceManyBody } from '../../src/force.js';
import { mulberry32 } from '../oracle.js';
import { type Body, exactForces, randomBodies, relativeError, tickForces } from './reference.js';

// Rounding: any order of summing a node's n - 1 terms is off from the exact sum by at most about
// n * 2^-53 times the sum of the terms' magnitudes (`scale`); 1e-12 * scale holds that for n up
// to 10k with a wide margin, and is far below any Barnes–Hut error (1e-4 and more).
const ROUNDING = 1e-12;

function expectWithinRounding(
  f: { fx: Float64Array; fy: Float64Array },
  exact: { fx: Float64Array; fy: Float64Array; scale: Float64Array },
): void {
  let worst = 0;
  for (let i = 0; i < f.fx.length; i++) {
    const e = Math.hypot(f.fx[i]! - exact.fx[i]!, f.fy[i]! - exact.fy[i]!);
    worst = Math.max(worst, e / exact.scale[i]!);
  }
  expect(worst).toBeLessThan(ROUNDING);
}

describe('forceManyBody with theta 0', () => {
  for (const n of [1000, 10000]) {
    it(`adds to each of ${n} random nodes the exact O(n²) sum, within rounding`, () => {
      const nodes = randomBodies(n, 1000, mulberry32(n));
      const strength = (i: number) => -30 + 20 * Math.sin(i);
      const exact = exactForces(nodes, { strength });
      const f = tickForces(
        forceManyBody<Body>()
          .theta(0)
          .strength((_, i) => strength(i)),
        nodes,
      );
      expectWithinRounding(f, exact);
    });
  }

  it('keeps the sum exact with distanceMin and distanceMax clipping many pairs', () => {
    const nodes = randomBodies(2000, 100, mulberry32(3));
    const rule = { strength: () => -30, distanceMin: 4, distanceMax: 20 };
    const exact = exactForces(nodes, rule);
    const f = tickForces(forceManyBody<Body>().theta(0).distanceMin(4).distanceMax(20), nodes);
    expectWithinRounding(f, exact);
  });

  it('sums clustered nodes (many cells of one quadrant, deep leaves) exactly', () => {
    const rng = mulberry32(8);
    const nodes: Body[] = [];
    for (let c = 0; c < 20; c++) {
      const cx = rng() * 1e6;
      const cy = rng() * 1e6;
      for (let k = 0; k < 100; k++) {
        nodes.push({ x: cx + rng() * 1e-3, y: cy + rng() * 1e-3, vx: 0, vy: 0 });
      }
    }
    const rule = { strength: () => -30, distanceMin: 1e-6 };
    const exact = exactForces(nodes, rule);
    const f = tickForces(forceManyBody<Body>().theta(0).distanceMin(1e-6), nodes);
    expectWithinRounding(f, exact);
  });
});

describe("forceManyBody with d3's default theta (0.9)", () => {
  for (const n of [1000, 10000]) {
    it(`errs on ${n} random nodes no more than d3's forceManyBody on the same nodes`, () => {
      const nodes = randomBodies(n, 1000, mulberry32(100 + n));
      const exact = exactForces(nodes, { strength: () => -30 });
      const ours = relativeError(tickForces(forceManyBody<Body>(), nodes), exact);
      const d3 = relativeError(tickForces(d3ManyBody<Body>(), nodes), exact);
      expect(ours.mean).toBeGreaterThan(0);
      expect(ours.mean).toBeLessThanOrEqual(d3.mean);
      expect(ours.max).toBeLessThanOrEqual(d3.max);
    });
  }

  it('errs less as theta shrinks', () => {
    const nodes = randomBodies(3000, 1000, mulberry32(5));
    const exact = exactForces(nodes, { strength: () => -30 });
    const errors = [1.2, 0.9, 0.5, 0.2].map(
      (t) => relativeError(tickForces(forceManyBody<Body>().theta(t), nodes), exact).mean,
    );
    for (let i = 1; i < errors.length; i++) expect(errors[i]!).toBeLessThan(errors[i - 1]!);
  });
});
