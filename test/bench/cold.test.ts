// The cold and warm tables (bench/workloads/cold*.js): the rows each job compares, the verdicts
// of their goals in the markdown table and the targets table, and the exact test that stands in
// for flatbush's missing segment query.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intersects, rect, segment } from '../../src/index.js';

interface Measurement {
  lib: string;
  door: string;
  op: string;
}
interface Spec {
  label: string;
  quadkit: Measurement;
  peers: Measurement[];
  goal: string;
}
interface ColdRow {
  name: string;
  quadkit: boolean;
  goal: { factor: number; text: string; key: string };
  peer: { cold: string | null; warm: string | null };
  candidates: string[];
  values: Record<string, number | null>;
}
interface Jobs {
  JOBS: { id: string; size(quick: boolean): number }[];
  ROWS: Record<string, Spec[]>;
  keyOf(m: Measurement): string;
  measurementsOf(job: string): Measurement[];
  goalOf(spec: Spec): { factor: number; text: string };
}
interface Render {
  renderWorkload(w: object): string;
  renderTargets(results: object[]): string;
}

// Imported by URL: the bench is plain JavaScript outside the typed project.
const jobs: Jobs = await import(
  new URL('../../bench/workloads/cold-jobs.js', import.meta.url).href
);
const render: Render = await import(new URL('../../bench/render.js', import.meta.url).href);
const peers: {
  segmentMeetsBox(...v: number[]): boolean;
} = await import(new URL('../../bench/workloads/cold-peers.js', import.meta.url).href);

/** A cold row as cold.js makes it: quadkit's and the peer's times, cold and warm. */
function coldRow(spec: Spec, [qkCold, peerCold, qkWarm, peerWarm]: number[]): ColdRow {
  const peer = spec.peers[0].lib;
  return {
    name: spec.label,
    quadkit: true,
    goal: { ...jobs.goalOf(spec), key: spec.goal },
    peer: { cold: peer, warm: peer },
    candidates: spec.peers.map((p) => p.lib),
    values: { qkCold, peerCold, qkWarm, peerWarm },
  };
}

const table = (rows: ColdRow[]) => ({
  id: 'cold-boxes',
  layout: 'cold',
  title: 'Cold and warm: 1M boxes',
  setup: '',
  metrics: [],
  rows,
  warnings: [],
  notes: [],
});

describe('the cold and warm jobs', () => {
  it('compare every build and query of the static tables through both doors', () => {
    for (const job of ['boxes', 'points']) {
      const rows = jobs.ROWS[job];
      const doors = (door: string) => rows.filter((r) => r.quadkit.door === door);
      expect(doors('objects').length).toBe(doors('typed').length);
      expect(rows.map((r) => r.quadkit.op)).toContain('build');
      for (const r of rows) {
        expect(r.peers.length).toBeGreaterThan(0);
        // A peer is measured through the same door as quadkit, on the same operation.
        for (const p of r.peers) expect([p.door, p.op]).toEqual([r.quadkit.door, r.quadkit.op]);
      }
    }
  });

  it('give every row a goal: small windows 1.2×, from(objects) 1.5× flatbush, great-circle 1.5×, the rest 1×', () => {
    const factor = (job: string, label: string) =>
      jobs.goalOf(jobs.ROWS[job].find((r) => r.label === label) as Spec).factor;
    expect(factor('boxes', '`search(rect)` → items, 0.01% windows')).toBe(1.2);
    expect(factor('points', '`searchInto`, 0.01% windows')).toBe(1.2);
    expect(factor('boxes', '`StaticQuadtree.from(objects)`')).toBe(1.5);
    expect(factor('boxes', '`search(rect)` → items, 1% windows')).toBe(1);
    expect(factor('boxes', '`nearest(x, y, 10)` → items')).toBe(1);
    for (const r of jobs.ROWS.geo) expect(jobs.goalOf(r).factor).toBe(1.5);
  });

  it('measure each library once per job, however many rows show it', () => {
    const list = jobs.measurementsOf('dynamic');
    const keys = list.map(jobs.keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    // quadtree-ts's inserts stand beside both Quadtree and GridLooseQuadtree.
    expect(keys.filter((k) => k.startsWith('quadtree-ts')).length).toBe(1);
  });
});

describe('the cold table', () => {
  const [from, small] = jobs.ROWS.boxes;

  it("gives each door quadkit's and the fastest peer's times, cold and warm, the speed-ups and the goal's verdicts", () => {
    const md = render.renderWorkload(table([coldRow(from, [100, 150, 50, 60])]));
    expect(md).toContain(
      '| `StaticQuadtree.from(objects)` | flatbush | 100 | 150 | 1.50× | 50.0 | 60.0 | 1.20× | ≥ 1.5×: cold ✅, warm ❌ |',
    );
  });

  it('marks a column not measured with a dash, never as met', () => {
    const row = coldRow(small, [2, 3, 1, 1]);
    row.values.peerWarm = null;
    const md = render.renderWorkload(table([row]));
    expect(md).toContain('| 2.00 | 3.00 | 1.50× | 1.00 | — | — | ≥ 1.2×: cold ✅, warm — |');
  });

  it('puts each row in the targets table, met only when both columns reach the goal', () => {
    const targets = render.renderTargets([
      table([coldRow(from, [100, 160, 50, 80]), coldRow(small, [2, 2, 1, 2])]),
    ]);
    const line = (label: string) => targets.split('\n').find((l) => l.includes(label)) ?? '';
    expect(line('`StaticQuadtree.from(objects)`')).toContain('cold 1.60×, warm 1.60× vs flatbush');
    expect(line('`StaticQuadtree.from(objects)`')).toContain('✅ met');
    expect(line('0.01% windows')).toContain('❌ not met (cold)');
  });
});

describe('segmentMeetsBox, the filter of flatbush searches for segments', () => {
  it('agrees with quadkit’s exact segment–rectangle test, touching included', () => {
    const coord = fc.integer({ min: -8, max: 8 });
    const size = fc.integer({ min: 0, max: 6 });
    fc.assert(
      fc.property(
        coord,
        coord,
        coord,
        coord,
        coord,
        coord,
        size,
        size,
        (x1, y1, x2, y2, x, y, w, h) => {
          const exact = intersects(segment(x1, y1, x2, y2), rect(x, y, w, h));
          expect(peers.segmentMeetsBox(x1, y1, x2, y2, x, y, x + w, y + h)).toBe(exact);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
