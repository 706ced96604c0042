// The quadkit command as a process, for what only a process has: its exit status, signals, its
// own standard input, a reader that closes the pipe early, a small heap. (The other tests run
// the command in the test's process, through main.) These run at the same time as each other.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, lines, quadkit, subprocess } from './run.js';

// The sample cities, as CSV (shipped) and as newline-delimited GeoJSON.
const csv = fileURLToPath(new URL('../data/cities.csv', import.meta.url));
let dir = '';
let ndjson = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quadkit-process-'));
  ndjson = join(dir, 'cities.ndjson');
  const run = await quadkit(['query', csv, '--bbox', '-180,-90,180,90', '-f', 'ndjson']);
  expect(run.code, run.stderr).toBe(0);
  writeFileSync(ndjson, run.stdout);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.concurrent('quadkit as a process', () => {
  it('an interrupted index (SIGINT, SIGTERM) leaves neither its scratch folder nor a partial index behind', async ({
    expect,
  }) => {
    // A large input, so that the signal comes while it is being read: the cities eight times.
    const big = join(dir, 'eight.ndjson');
    writeFileSync(big, readFileSync(ndjson, 'utf8').repeat(8));
    const output = join(dir, 'interrupted.qk');
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const scratchRoot = mkdtempSync(join(tmpdir(), 'quadkit-cli-tmp-'));
      const child = spawn(process.execPath, [BIN, 'index', big, '-o', output], {
        env: { ...process.env, TMPDIR: scratchRoot, TMP: scratchRoot, TEMP: scratchRoot },
        stdio: 'ignore',
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.once('exit', (_code, s) => resolve(s)),
      );
      try {
        // The scratch folder is made before the input is read.
        while (readdirSync(scratchRoot).length === 0) await new Promise((r) => setTimeout(r, 2));
        expect(readdirSync(scratchRoot)[0]).toMatch(/^quadkit-/);
        child.kill(signal);
        expect(await exited).toBe(signal);
        expect(readdirSync(scratchRoot)).toEqual([]);
        expect(readdirSync(dir).filter((f) => f.startsWith('interrupted.qk'))).toEqual([]);
      } finally {
        child.kill('SIGKILL');
        rmSync(scratchRoot, { recursive: true, force: true });
      }
    }
  });

  it('the process exits with the status main returns: 0 for help, 1 for bad input, its message on stderr', async ({
    expect,
  }) => {
    const help = await subprocess(['--help']);
    expect(help.code).toBe(0);
    // (The process runs the built dist/, the other tests src/: they must be the same.)
    expect(help.stdout, 'dist/ is older than src/: npm run build').toBe(
      (await quadkit(['--help'])).stdout,
    );
    const missing = await subprocess(['query', join(dir, 'nope.csv'), '--near', '0,0']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(
      `quadkit: ${join(dir, 'nope.csv')}: cannot read the file (ENOENT)\n`,
    );
  });

  it('a reader that stops early (| head) leaves no scratch copy of standard input behind', async ({
    expect,
  }) => {
    const tmp = mkdtempSync(join(tmpdir(), 'quadkit-cli-stdin-'));
    // 1,000 cities: an answer of several chunks.
    const input = `${readFileSync(ndjson, 'utf8').split('\n').slice(0, 1000).join('\n')}\n`;
    try {
      for (let run = 0; run < 3; run++) {
        const child = spawn(
          process.execPath,
          [BIN, 'query', '-', '--bbox', '-180,-90,180,90', '-f', 'ndjson'],
          { env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp } },
        );
        const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
        // The first chunk of the answer, then the pipe closes, as `head -1` closes it.
        child.stdout.once('data', () => child.stdout.destroy());
        child.stdin.on('error', () => {});
        child.stdin.end(input);
        expect(await exited).toBe(0);
        expect(readdirSync(tmp)).toEqual([]);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('queries a GeoJSON file several times larger than the memory it may use', async ({
    expect,
  }) => {
    // About 12 MB of features (1,000 of 12 KB each), read with a 16 MB heap: parsing it whole
    // could not fit. Feature i lies 0.01° east of feature i - 1 (0.95 km at this latitude).
    const path = join(dir, 'big.geojson');
    const feature = lines(readFileSync(ndjson, 'utf8'))[0];
    const [lon, lat] = feature.geometry.coordinates as [number, number];
    const features = Array.from({ length: 1000 }, (_, i) =>
      JSON.stringify({
        ...feature,
        geometry: { type: 'Point', coordinates: [lon + i * 0.01, lat] },
        properties: { ...feature.properties, i, pad: 'x'.repeat(12_000) },
      }),
    );
    writeFileSync(path, `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}\n`);
    const run = await subprocess(['query', path, '--within', `${lon},${lat},2.5`, '-f', 'ndjson'], {
      nodeArgs: ['--max-old-space-size=16'],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout).map((f) => f.properties.i)).toEqual([0, 1, 2]);
  }, 300_000);

  it('reads its own standard input as -, as it reads the file, and leaves no scratch copy', async ({
    expect,
  }) => {
    const tmp = mkdtempSync(join(tmpdir(), 'quadkit-cli-stdin-'));
    try {
      const args = ['--within', '2.35,48.85,300', '-f', 'ndjson'];
      const piped = await subprocess(['query', '-', ...args], { input: readFileSync(csv), tmp });
      expect(piped.code, piped.stderr).toBe(0);
      const want = lines((await quadkit(['query', csv, ...args])).stdout);
      expect(want.length).toBeGreaterThan(10);
      expect(lines(piped.stdout)).toEqual(want);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
