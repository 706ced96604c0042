import { forceManyBody as d3ManyBody, type Force, forceLink, forceSimulation } from 'd3-force';
import { describe, expect, it } from 'vitest';
import { forceManyBody } from '../../src/force.js';
import { mulberry32 } from '../oracle.js';
import { type Body, layoutEnergy } from './reference.js';

const SPRING = { strength: 0.5, distance: 30 };
const STRENGTH = -30;

interface Link {
  source: number;
  target: number;
}

// A random connected graph: a random tree plus `extra` random edges.
function randomGraph(n: number, extra: number, seed: number): Link[] {
  const rng = mulberry32(seed);
  const links: Link[] = [];
  for (let i = 1; i < n; i++) links.push({ source: Math.floor(rng() * i), target: i });
  for (let k = 0; k < extra; k++) {
    const a = Math.floor(rng() * n);
    const b = Math.floor(rng() * n);
    if (a !== b) links.push({ source: a, target: b });
  }
  return links;
}

// Runs a simulation of the graph to rest (d3's 300 ticks) with the given charge and a seeded
// random source; returns the node positions.
function settle(n: number, links: Link[], charge: Force<Body, undefined>, seed: number): Body[] {
  const nodes: Body[] = Array.from({ length: n }, () => ({
    x: Number.NaN,
    y: Number.NaN,
    vx: 0,
    vy: 0,
  }));
  const sim = forceSimulation(nodes)
    .randomSource(mulberry32(seed))
    .force(
      'link',
      forceLink(links.map((l) => ({ ...l })))
        .strength(SPRING.strength)
        .distance(SPRING.distance),
    )
    .force('charge', charge)
    .stop();
  const ticks = Math.ceil(Math.log(sim.alphaMin()) / Math.log(1 - sim.alphaDecay()));
  sim.tick(ticks);
  return nodes;
}

// d3-force's initial placement of nodes without a position.
function phyllotaxis(n: number): Body[] {
  return Array.from({ length: n }, (_, i) => {
    const r = 10 * Math.sqrt(0.5 + i);
    const a = i * Math.PI * (3 - Math.sqrt(5));
    return { x: r * Math.cos(a), y: r * Math.sin(a), vx: 0, vy: 0 };
  });
}

describe('forceManyBody in a d3-force simulation', () => {
  for (const [n, extra] of [
    [300, 60],
    [1000, 300],
  ] as const) {
    it(`settles a graph of ${n} nodes at the energy d3's forceManyBody settles it (within 0.2%)`, () => {
      const links = randomGraph(n, extra, n);
      const energy = (nodes: Body[]) => layoutEnergy(nodes, links, SPRING, STRENGTH);
      const ours = settle(n, links, forceManyBody().strength(STRENGTH), 5);
      const d3 = settle(n, links, d3ManyBody().strength(STRENGTH), 5);
      // Energy of the start (d3's phyllotaxis placement, the same for both): both runs lower it,
      // and by the same amount within a few %.
      const start = energy(phyllotaxis(n));
      const eOurs = energy(ours);
      const eD3 = energy(d3);
      expect(Math.abs(eOurs - eD3)).toBeLessThan(0.002 * Math.abs(eD3));
      expect(start - eOurs).toBeGreaterThan(0);
      expect(Math.abs(start - eOurs - (start - eD3))).toBeLessThan(0.01 * (start - eD3));
    });
  }
});
