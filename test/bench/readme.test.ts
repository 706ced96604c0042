// The performance tables against the committed run: bench/readme.js renders every table row from
// bench/results/latest.json; bench/README.md must hold exactly those rows, and the top-level
// README a subsequence of them (one table per job).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Run {
  results: { id: string; n?: number; rows: { name: string; values: Record<string, unknown> }[] }[];
}
interface Readme {
  readmeRows(json: Run): string[];
  coldRows(json: Run): string[];
  applyRows(readme: string, rows: string[]): { text: string; changed: number };
  applySubset(readme: string, rows: string[]): { text: string; changed: number; matched: number };
  f3(x: number | null): string;
}

// Imported by URL: the bench is plain JavaScript outside the typed project.
const readme: Readme = await import(new URL('../../bench/readme.js', import.meta.url).href);
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const BENCH_README = readFileSync(new URL('../../bench/README.md', import.meta.url), 'utf8');
const f2 = (x: number) => x.toFixed(2);
const run = (): Run =>
  JSON.parse(readFileSync(new URL('../../bench/results/latest.json', import.meta.url), 'utf8'));

interface Spec {
  label: string;
  peers: { lib: string }[];
  goal: string;
}
const cold: {
  JOBS: { id: string }[];
  ROWS: Record<string, Spec[]>;
  goalOf(spec: Spec): { factor: number; text: string };
} = await import(new URL('../../bench/workloads/cold-jobs.js', import.meta.url).href);

/**
 * A run with the cold and warm tables in it: every row of every job, quadkit at `qk` ms and the
 * peer at `peer` ms, cold and warm (the run's own cold tables, if any, replaced).
 */
function withCold(json: Run, qk: number, peer: number): Run {
  const results = json.results.filter((r) => !r.id.startsWith('cold-'));
  for (const job of cold.JOBS) {
    results.push({
      id: `cold-${job.id}`,
      rows: cold.ROWS[job.id].map((spec) => ({
        name: spec.label,
        goal: { ...cold.goalOf(spec), key: spec.goal },
        peer: { cold: spec.peers[0].lib, warm: spec.peers[0].lib },
        candidates: spec.peers.map((p) => p.lib),
        values: { qkCold: qk, peerCold: peer, qkWarm: qk, peerWarm: peer },
      })),
    } as Run['results'][number]);
  }
  return { ...json, results };
}

describe('bench/readme.js', () => {
  it("bench/README.md's performance tables are the rows rendered from bench/results/latest.json", () => {
    const rows = readme.readmeRows(run());
    expect(rows.length).toBeGreaterThan(50);
    expect(readme.applyRows(BENCH_README, rows).changed).toBe(0);
  });

  it("the README's performance tables are some of those rows, in order, each as rendered", () => {
    const { changed, matched } = readme.applySubset(README, readme.readmeRows(run()));
    expect(changed).toBe(0);
    expect(matched).toBeGreaterThan(20);
  });

  it('a measurement that changes in the run changes its README row, and only that row', () => {
    const json = run();
    const insert = json.results.find((r) => r.id === 'insert')!;
    const rbush = insert.rows.find((r) => r.name === 'rbush')!;
    rbush.values.insert = 1234.4;
    for (const { text, changed } of [
      readme.applyRows(BENCH_README, readme.readmeRows(json)),
      readme.applySubset(README, readme.readmeRows(json)),
    ]) {
      expect(changed).toBe(1);
      expect(text.split('\n').find((l) => l.startsWith('| rbush |'))).toMatch(
        /^\| rbush \| 1,234 \|/,
      );
    }
  });

  it('names the workload or row a run lacks', () => {
    const json = run();
    expect(() =>
      readme.readmeRows({ results: json.results.filter((r) => r.id !== 'raycast') }),
    ).toThrow(/no workload raycast/);
    const insert = json.results.find((r) => r.id === 'insert')!;
    insert.rows = insert.rows.filter((r) => r.name !== 'rbush');
    expect(() => readme.readmeRows(json)).toThrow(/no row "rbush" in insert/);
  });

  it('applyRows replaces rows by their first cell, in order, inside the Performance section only', () => {
    const text = [
      '## Usage',
      '| a | 1 |',
      '## Performance',
      '| a | 2 |',
      '| b | 3 |',
      '| a | 4 |',
      '## Algorithms and sources',
      '| b | 5 |',
    ].join('\n');
    const { text: out, changed } = readme.applyRows(text, ['| a | 20 |', '| a | 40 |']);
    expect(changed).toBe(2);
    expect(out.split('\n')).toEqual([
      '## Usage',
      '| a | 1 |',
      '## Performance',
      '| a | 20 |',
      '| b | 3 |',
      '| a | 40 |',
      '## Algorithms and sources',
      '| b | 5 |',
    ]);
    expect(() => readme.applyRows(text, ['| b | 30 |', '| b | 50 |'])).toThrow(/starts "\| b \|"/);
  });

  it('applySubset rewrites the data rows of the Performance section from the run, in order, and names a row the run lacks', () => {
    const text = [
      '## Performance',
      '| | x |',
      '| --- | ---: |',
      '| a | 1 |',
      '| c | 3 |',
      '## Algorithms and sources',
      '| a | 9 |',
    ].join('\n');
    const rows = ['| a | 10 |', '| b | 20 |', '| c | 30 |'];
    const { text: out, changed, matched } = readme.applySubset(text, rows);
    expect([changed, matched]).toEqual([2, 2]);
    expect(out.split('\n')).toEqual([
      '## Performance',
      '| | x |',
      '| --- | ---: |',
      '| a | 10 |',
      '| c | 30 |',
      '## Algorithms and sources',
      '| a | 9 |',
    ]);
    expect(() => readme.applySubset(text, ['| c | 30 |', '| a | 10 |'])).toThrow(
      /line 5 "\| c \|" is no row of the run, or out of order/,
    );
    expect(() => readme.applySubset(text, ['| a | 10 |'])).toThrow(/"\| c \|"/);
  });

  it('renders each cold row: quadkit and the fastest peer, cold and warm, the speed-ups, the goal judged in both', () => {
    const rows = readme.coldRows(withCold(run(), 2, 3.3));
    expect(rows.length).toBe(Object.values(cold.ROWS).flat().length);
    expect(rows[0]).toBe(
      '| `StaticQuadtree.from(objects)` | flatbush | 2.00 | 3.30 | 1.65× | 2.00 | 3.30 | 1.65× | ≥ 1.5×: cold ✅, warm ✅ |',
    );
    expect(readme.coldRows(withCold(run(), 3, 3.3))[0]).toContain('≥ 1.5×: cold ❌, warm ❌');
  });

  it('gives a run without the cold tables their rows with the peers and goals and a dash in every measured cell', () => {
    const json = run();
    json.results = json.results.filter((r) => !r.id.startsWith('cold-'));
    const rows = readme.coldRows(json);
    expect(rows[0]).toBe(
      '| `StaticQuadtree.from(objects)` | flatbush | — | — | — | — | — | — | ≥ 1.5× |',
    );
    for (const row of rows) expect(row).toMatch(/ \| — \| — \| — \| — \| — \| — \| ≥ [\d.]+× \|$/);
  });

  it('names a cold row the run lacks', () => {
    const json = withCold(run(), 2, 3);
    const boxes = json.results.find((r) => r.id === 'cold-boxes')!;
    boxes.rows = boxes.rows.slice(1);
    expect(() => readme.coldRows(json)).toThrow(
      /no row "`StaticQuadtree.from\(objects\)`" in cold-boxes/,
    );
  });

  it('places every cold row in bench/README.md, and some in the README, each in the table of its job', () => {
    // Each job's quadkit time its own: 1.01 for the first job, 1.02 for the second, ...
    const ms = (job: number) => 1.01 + job / 100;
    const json = withCold(run(), 1, 5);
    json.results
      .filter((r) => r.id.startsWith('cold-'))
      .forEach((r, k) => {
        for (const row of r.rows) row.values.qkCold = ms(k);
      });
    const rows = readme.readmeRows(json);
    // Every cold row changes, and nothing else.
    expect(readme.applyRows(BENCH_README, rows).changed).toBe(
      Object.values(cold.ROWS).flat().length,
    );
    const coldLine = /\| ≥ [\d.]+×[^|]* \|$/;
    const subset = readme.applySubset(README, rows);
    expect(subset.changed).toBe(README.split('\n').filter((l) => coldLine.test(l)).length);
    expect(subset.changed).toBeGreaterThan(15);
    // The README's tables, by the first cell of their header, and the jobs whose rows they show.
    const jobsOf: Record<string, string[]> = {
      '1M boxes': ['boxes'],
      '1M points': ['points'],
      '135k cities': ['cities'],
      'maps, 135k cities': ['geo'],
      '200k boxes, one by one': ['dynamic'],
      'clusters, graphs': ['clusters', 'force'],
    };
    let allowed: string[] = [];
    let checked = 0;
    for (const line of subset.text.split('\n')) {
      const header = line.match(/^\| ([^|]+) \| fastest peer \|/);
      if (header)
        allowed = (jobsOf[header[1]] ?? []).map((id) =>
          f2(ms(cold.JOBS.findIndex((j) => j.id === id))),
        );
      else if (coldLine.test(line)) {
        expect(allowed).toContain(line.split(' | ')[2]);
        checked++;
      }
    }
    expect(checked).toBe(subset.changed);
  });

  it('f3 prints about three significant figures, thousands with a separator', () => {
    expect([1234.4, 294.4, 73.14, 9.654, 0.6527, null].map(readme.f3)).toEqual([
      '1,234',
      '294',
      '73.1',
      '9.65',
      '0.653',
      '—',
    ]);
  });
});
