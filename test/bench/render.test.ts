// The bench's verdicts: renderTargets (bench/render.js) judges the targets of bench/targets.js
// against the rows of a run, and renderWorkload prints a cell with its annotation.

import { describe, expect, it } from 'vitest';

interface Row {
  name: string;
  quadkit: boolean;
  values: Record<string, unknown>;
}
interface Result {
  id: string;
  n?: number;
  title?: string;
  setup?: string;
  metrics?: { key: string; label: string; unit?: string; compare?: boolean }[];
  rows: Row[];
  notes?: string[];
  warnings?: string[];
}
interface Render {
  renderTargets(results: Result[]): string;
  renderWorkload(result: Result): string;
}

// Imported by URL: the bench is plain JavaScript outside the typed project.
const render: Render = await import(new URL('../../bench/render.js', import.meta.url).href);
const names: { FLATBUSH_OBJECTS_MEMORY: string } = await import(
  new URL('../../bench/names.js', import.meta.url).href
);

// The targets table's line for a target text and a quadkit row.
function line(table: string, text: string, variant: string): string | undefined {
  return table.split('\n').find((l) => l.startsWith(`| ${text} | ${variant} |`));
}

const STATIC_BUILD = "StaticQuadtree builds 1M boxes in at most half of flatbush's time";

function staticBoxes(quadkitMs: number, flatbushMs: number): Result {
  return {
    id: 'static-boxes',
    rows: [
      { name: 'quadkit StaticQuadtree', quadkit: true, values: { build: quadkitMs } },
      { name: 'flatbush', quadkit: false, values: { build: flatbushMs } },
    ],
  };
}

function memory(heap: Record<string, number>): Result {
  const rss = { ms: 35, tag: '30–40' };
  return {
    id: 'memory',
    rows: Object.entries(heap).map(([name, bytes]) => ({
      name,
      quadkit: name.startsWith('quadkit'),
      values: { peak: rss, rss, heap: bytes, buffer: 38.4 },
    })),
  };
}

// The verdict on the static build target of a quadkit build of quadkitMs against flatbush's 100.
function buildVerdict(quadkitMs: number): string | undefined {
  return line(
    render.renderTargets([staticBoxes(quadkitMs, 100)]),
    STATIC_BUILD,
    'quadkit StaticQuadtree',
  );
}

describe('renderTargets', () => {
  it('marks a speed-up target met when the quadkit row is at least `factor` times faster than the named peer', () => {
    expect(buildVerdict(40)).toContain('2.50× vs flatbush');
    expect(buildVerdict(40)).toContain('✅ met');
    expect(buildVerdict(60)).toContain('1.67× vs flatbush');
    expect(buildVerdict(60)).toContain('❌ not met');
  });

  it('states a "within x× of" target as the ratio of the two times', () => {
    const within = (objectMs: number) =>
      line(
        render.renderTargets([
          {
            id: 'static-boxes',
            rows: [
              { name: 'quadkit StaticQuadtree', quadkit: true, values: { build: 50 } },
              {
                name: 'quadkit StaticQuadtree from(objects)',
                quadkit: true,
                values: { build: objectMs },
              },
            ],
          },
        ]),
        'boxes build: the object door within 1.3× of the typed door',
        'quadkit StaticQuadtree from(objects)',
      );
    expect(within(60)).toContain('1.20× the time of quadkit StaticQuadtree');
    expect(within(60)).toContain('✅ met');
    expect(within(70)).toContain('1.40× the time of quadkit StaticQuadtree');
    expect(within(70)).toContain('❌ not met');
  });

  it('says when a verdict lies within 3% of its target, either way', () => {
    expect(buildVerdict(49.5)).toContain('✅ met (within 3% of the target');
    expect(buildVerdict(50.5)).toContain('❌ not met (within 3% of the target');
    expect(buildVerdict(40)).not.toContain('within');
    expect(buildVerdict(60)).not.toContain('within');
  });

  it('says nothing of the targets whose workload the run did not measure', () => {
    expect(render.renderTargets([staticBoxes(40, 100)])).not.toContain('static indexes keep');
    expect(render.renderTargets([])).toBe('');
  });

  it('judges memory on the exact figures (heap + buffers, buffer), never on RSS', () => {
    const table = render.renderTargets([
      memory({
        'quadkit StaticQuadtree fromBoxes': 38.4,
        'quadkit StaticQuadtree fromPoints': 38.5,
        flatbush: 38.4,
      }),
    ]);
    const heap = "static indexes keep at most flatbush's bytes per item (heap + buffers)";
    expect(line(table, heap, 'quadkit StaticQuadtree fromBoxes')).toContain('✅ met');
    expect(line(table, heap, 'quadkit StaticQuadtree fromPoints')).toContain('❌ not met');
    expect(table).not.toMatch(/RSS/);
  });

  it('judges from(objects), which keeps the items, against flatbush with the array of items its indices map to', () => {
    const verdict = (objects: number) => {
      const table = render.renderTargets([
        memory({
          'quadkit StaticQuadtree from(objects)': objects,
          flatbush: 38.4,
          [names.FLATBUSH_OBJECTS_MEMORY]: 46.4,
        }),
      ]);
      const plain = "static indexes keep at most flatbush's bytes per item (heap + buffers)";
      expect(line(table, plain, 'quadkit StaticQuadtree from(objects)')).toBeUndefined();
      return line(
        table,
        'from(objects) keeps at most what flatbush fed the objects keeps with the array of items its answers index into (heap + buffers)',
        'quadkit StaticQuadtree from(objects)',
      );
    };
    expect(verdict(46.4)).toContain('✅ met');
    expect(verdict(46.5)).toContain('❌ not met');
    // Exact figures move by nothing from run to run: no margin note.
    expect(verdict(46.5)).not.toContain('within');
  });
});

describe('renderWorkload', () => {
  it('prints a value with its annotation, the spread of the processes', () => {
    const [row] = memory({ 'quadkit StaticQuadtree fromBoxes': 38.4 }).rows;
    const md = render.renderWorkload({
      id: 'memory',
      title: 'Memory',
      setup: '',
      metrics: [{ key: 'rss', label: 'RSS kept (bytes/item)', unit: 'count' }],
      rows: [row as Row],
      notes: [],
      warnings: [],
    });
    expect(md).toContain('| **quadkit StaticQuadtree fromBoxes** | 35 *(30–40)* |');
  });
});
