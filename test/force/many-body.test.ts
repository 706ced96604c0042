import { forceManyBody as d3ManyBody } from 'd3-force';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forceManyBody } from '../../src/force.js';
import { mulberry32 } from '../oracle.js';
import { type Body, exactForces, randomBodies, tickForces } from './reference.js';

const body = (x: number, y: number): Body => ({ x, y, vx: 0, vy: 0 });

/** The forces of d3's forceManyBody and quadkit's on the same nodes, same random source. */
function both(
  nodes: Body[],
  setup: <F extends ReturnType<typeof forceManyBody<Body>>>(f: F) => F = (f) => f,
  seed = 1,
) {
  const ours = tickForces(setup(forceManyBody<Body>()), nodes, mulberry32(seed));
  const d3f = d3ManyBody<Body>();
  const d3 = tickForces(
    setup(d3f as unknown as ReturnType<typeof forceManyBody<Body>>),
    nodes,
    mulberry32(seed),
  );
  return { ours, d3 };
}

function expectClose(a: Float64Array, b: Float64Array, rel = 1e-9): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) {
    expect(Math.abs(a[i]! - b[i]!)).toBeLessThanOrEqual(rel * Math.max(1e-300, Math.abs(b[i]!)));
  }
}

describe('forceManyBody: coincident nodes', () => {
  it('jiggles nodes at one point exactly as d3 does, drawing from the same random source', () => {
    for (const k of [2, 3, 20]) {
      const nodes = Array.from({ length: k }, () => body(5, 5));
      const { ours, d3 } = both(nodes);
      expectClose(ours.fx, d3.fx);
      expectClose(ours.fy, d3.fy);
      // They are pushed apart, not left in place or made NaN.
      expect(ours.fx.some((v) => v !== 0)).toBe(true);
      expect(ours.fx.every(Number.isFinite)).toBe(true);
    }
  });

  it('jiggles groups of coincident nodes and nodes level on an axis as d3 does', () => {
    // Two groups on one horizontal line (dy = 0 between them), one on the diagonal. (With theta
    // 0.9, d3 would take the two groups as one body from the third, where quadkit's one leaf
    // sums them exactly: a difference of approximation, not of jiggle; 0.3 opens them in both.)
    const nodes = [body(0, 0), body(0, 0), body(0, 0), body(10, 0), body(10, 0), body(30, 30)];
    for (const theta of [0, 0.3]) {
      const { ours, d3 } = both(nodes, (f) => f.theta(theta), 7);
      expectClose(ours.fx, d3.fx);
      expectClose(ours.fy, d3.fy);
    }
  });

  it('separates a repeated point in a simulation-sized set (groups larger than a leaf)', () => {
    const rng = mulberry32(4);
    const nodes = randomBodies(500, 100, rng);
    for (let i = 0; i < 50; i++) nodes.push(body(50, 50));
    const { ours } = both(nodes);
    for (let i = 500; i < 550; i++) {
      expect(Number.isFinite(ours.fx[i]!) && Number.isFinite(ours.fy[i]!)).toBe(true);
    }
    // The 50 copies are pushed in (at least) two different directions.
    const dirs = new Set(ours.fx.slice(500).map((v) => Math.sign(v)));
    expect(dirs.size).toBeGreaterThan(1);
  });
});

describe('forceManyBody: options', () => {
  it('reads a per-node strength once, at initialize, with (node, i, nodes)', () => {
    const nodes = randomBodies(300, 100, mulberry32(2));
    const calls: number[] = [];
    const strength = (i: number) => (i % 3 === 0 ? 0 : i % 3 === 1 ? -50 : -7);
    const f = forceManyBody<Body>()
      .theta(0)
      .strength((node, i, all) => {
        expect(all[i]).toBe(node);
        calls.push(i);
        return strength(i);
      });
    const got = tickForces(f, nodes);
    expect(calls.length).toBe(300); // at initialize (strength() came before the nodes)
    const exact = exactForces(nodes, { strength });
    expectClose(got.fx, exact.fx, 1e-9);
    expectClose(got.fy, exact.fy, 1e-9);
  });

  it('gives the strength, theta and distances back as set (d3 getters)', () => {
    const f = forceManyBody().strength(-5).theta(0.5).distanceMin(2).distanceMax(100);
    expect(f.strength()({}, 0, [])).toBe(-5);
    expect(f.theta()).toBe(0.5);
    expect(f.distanceMin()).toBe(2);
    expect(f.distanceMax()).toBe(100);
    const d = forceManyBody();
    expect([d.theta(), d.distanceMin(), d.distanceMax(), d.strength()({}, 0, [])]).toEqual([
      0.9,
      1,
      Number.POSITIVE_INFINITY,
      -30,
    ]);
  });

  it('ignores nodes at distanceMax or beyond and caps forces below distanceMin', () => {
    // Node 0 at the origin; node 1 at 5 (beyond distanceMax 4); node 2 at 0.5 (below
    // distanceMin 2: l = 0.25 becomes sqrt(4 * 0.25) = 1).
    const nodes = [body(0, 0.001), body(5, 0), body(0.5, 0)];
    const f = tickForces(forceManyBody<Body>().strength(-1).distanceMin(2).distanceMax(4), nodes);
    const dy = -0.001;
    expect(f.fx[0]).toBeCloseTo((-1 * 0.5) / Math.sqrt(4 * (0.25 + dy * dy)), 12);
    // property: with random options, any theta matches the exact sum within its error, and
    // theta 0 matches it within rounding.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.double({ min: 0, max: 30, noNaN: true }),
        fc.double({ min: 1, max: 200, noNaN: true }),
        (seed, dmin, dmax) => {
          const ns = randomBodies(200, 100, mulberry32(seed));
          const exact = exactForces(ns, {
            strength: () => -30,
            distanceMin: dmin,
            distanceMax: dmax,
          });
          const got = tickForces(
            forceManyBody<Body>().theta(0).distanceMin(dmin).distanceMax(dmax),
            ns,
          );
          for (let i = 0; i < ns.length; i++) {
            const e = Math.hypot(got.fx[i]! - exact.fx[i]!, got.fy[i]! - exact.fy[i]!);
            expect(e).toBeLessThanOrEqual(1e-12 * exact.scale[i]! + 1e-300);
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('matches d3 to rounding with theta 0, jiggles included, on points full of repeats and level pairs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 })), {
          maxLength: 80,
        }),
        fc.integer({ min: 1, max: 2 ** 31 }),
        (points, seed) => {
          // Every pair is coincident or level on an axis often: d3 draws a jiggle for each, in
          // the order of its walk; quadkit must draw the same ones in the same order.
          const nodes = points.map(([x, y]) => body(x / 2, y / 2));
          const { ours, d3 } = both(nodes, (f) => f.theta(0), seed);
          expectClose(ours.fx, d3.fx, 1e-9);
          expectClose(ours.fy, d3.fy, 1e-9);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('adds nothing for 0 and 1 nodes', () => {
    expect(tickForces(forceManyBody<Body>(), []).fx.length).toBe(0);
    const one = tickForces(forceManyBody<Body>(), [body(3, 4)]);
    expect([one.fx[0], one.fy[0]]).toEqual([0, 0]);
  });
});

describe('forceManyBody: bad input', () => {
  it('rejects bad options with a RangeError or TypeError naming the option', () => {
    const f = forceManyBody();
    expect(() => f.theta(-1)).toThrow(/theta.*-1/);
    expect(() => f.theta(Number.NaN)).toThrow(RangeError);
    expect(() => f.distanceMin(Number.POSITIVE_INFINITY)).toThrow(/distanceMin/);
    expect(() => f.distanceMax(-2)).toThrow(/distanceMax/);
    expect(() => f.strength('x' as unknown as number)).toThrow(TypeError);
    expect(() => f.theta('1' as unknown as number)).toThrow(
      /theta must be a finite number >= 0, got "1"/,
    );
    expect(() => f.distanceMax(-2)).toThrow(/distanceMax must be a number >= 0, got -2/);
    expect(() => f.strength(Number.NaN)).toThrow(/strength/);
    // Nothing changed.
    expect([f.theta(), f.distanceMin(), f.distanceMax()]).toEqual([
      0.9,
      1,
      Number.POSITIVE_INFINITY,
    ]);
  });

  it('rejects a node without a finite position, naming it', () => {
    const f = forceManyBody<Body>();
    const nodes = [body(0, 0), body(Number.NaN, 1)];
    f.initialize(nodes, Math.random);
    expect(() => f(1)).toThrow(/nodes\[1\]/);
    expect(nodes[0]!.vx).toBe(0);
  });

  it('rejects a strength accessor that returns a non-number, naming the node', () => {
    const f = forceManyBody<Body>().strength((_, i) => (i === 2 ? Number.NaN : -1));
    expect(() => f.initialize([body(0, 0), body(1, 1), body(2, 2)])).toThrow(/nodes\[2\]/);
  });
});

describe('forceManyBody: each tick reuses its arrays', () => {
  it('keeps the same typed arrays from tick to tick while the nodes do not grow', () => {
    const nodes = randomBodies(2000, 500, mulberry32(9));
    const f = forceManyBody<Body>();
    f.initialize(nodes, mulberry32(1));
    f(1);
    const t = f.tree;
    const arraysOf = () => [t.bx, t.by, t.bs, t.sx, t.sy, t.ss, t.sid, t.lo, t.hi, t.skip, t.cx];
    const arrays = arraysOf();
    for (let k = 0; k < 5; k++) {
      for (const b of nodes) {
        b.x += b.vx;
        b.y += b.vy;
      }
      f(0.5);
      const now = arraysOf();
      for (let i = 0; i < arrays.length; i++) expect(now[i]).toBe(arrays[i]);
    }
    // Re-initializing with fewer nodes keeps them too.
    f.initialize(nodes.slice(0, 100));
    f(1);
    expect(t.bx).toBe(arrays[0]);
  });
});

describe('forceManyBody: visit', () => {
  it('shows the cells of the last tick, parents first, counts and charges adding up', () => {
    const nodes = randomBodies(1000, 100, mulberry32(12));
    const f = forceManyBody<Body>().strength((_, i) => -1 - (i % 5));
    f.initialize(nodes);
    f(1);
    let root: { count: number; charge: number; cx: number; cy: number } | null = null;
    let cells = 0;
    f.visit((c) => {
      root ??= { ...c };
      cells++;
      // Every node of a cell lies in its square.
      expect(c.width).toBe(c.height);
    });
    expect(root).not.toBeNull();
    const r = root as unknown as { count: number; charge: number; cx: number; cy: number };
    expect(r.count).toBe(1000);
    let total = 0;
    let cx = 0;
    for (let i = 0; i < 1000; i++) {
      total += -1 - (i % 5);
      cx += (1 + (i % 5)) * nodes[i]!.x;
    }
    expect(r.charge).toBeCloseTo(total, 9);
    expect(r.cx).toBeCloseTo(cx / -total, 9);
    expect(cells).toBeGreaterThan(1000 / 8);
    let seen = 0;
    f.visit(() => {
      seen++;
      return true;
    });
    expect(seen).toBe(1);
  });
});
