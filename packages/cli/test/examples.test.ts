// What a newcomer meets: `quadkit sample` and the sample files it writes; the precision of the
// numbers the command prints (CSV rounded to what a person reads: distances to the metre, degrees
// to 6 decimals; every digit with --full-precision; JSON output always exact); and the examples.
//
// Every example the command prints in its help (the root's and each command's), and every
// command in packages/cli/README.md, run as printed: each one as a shell command, in the order
// printed, in a fresh folder, with `quadkit` on the PATH. Each must exit 0 and write an answer
// that parses and is not empty (or the file it names with -o); each answer the README shows must
// be what its command writes. An example that fails fails here. Each help and the README must
// also work from an empty folder of its own: every file an example reads is made by one before
// it in the same place (`quadkit sample`, or an -o), which is checked without running them again.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parquetMetadata } from 'hyparquet';
import { haversine } from 'quadkit/geo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FgbFile } from '../src/fgb.js';
import { SAMPLES } from '../src/samples.js';
import { QkFile } from '../src/store.js';
import { BIN, lines, quadkit } from './run.js';

const README = new URL('../README.md', import.meta.url);
const DATA = new URL('../data/', import.meta.url);
const data = (name: string) => readFileSync(new URL(name, DATA));

let dir = '';
let cities = '';
let countries = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quadkit-sample-'));
  const run = await quadkit(['sample', dir]);
  expect(run.code, run.stderr).toBe(0);
  cities = join(dir, 'cities.csv');
  countries = join(dir, 'countries.geojson');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('quadkit sample', () => {
  it('writes the shipped files into the folder given, making it, and names each on stderr', async () => {
    const folder = join(dir, 'a', 'b');
    const run = await quadkit(['sample', folder]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(readdirSync(folder).sort()).toEqual(SAMPLES.map((s) => s.name).sort());
    for (const { name } of SAMPLES) {
      expect(readFileSync(join(folder, name)).equals(data(name))).toBe(true);
      expect(run.stderr).toContain(`quadkit: wrote ${join(folder, name)}: `);
    }
    // Again: the same files are left as they are.
    const again = await quadkit(['sample', folder, '-q']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    const told = await quadkit(['sample', folder]);
    expect(told.stderr).toContain(`quadkit: ${join(folder, 'cities.csv')} is already the sample: `);
  });

  it('refuses to write over a different file of the same name, and then writes nothing', async () => {
    const folder = join(dir, 'taken');
    mkdirSync(folder);
    writeFileSync(join(folder, 'cities.csv'), 'name,lon,lat\nmine,1,2\n');
    const run = await quadkit(['sample', folder]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `quadkit: ${join(folder, 'cities.csv')}: a different file of that name is already there; move it, or write the samples to another folder (quadkit sample FOLDER)\n`,
    );
    expect(readdirSync(folder)).toEqual(['cities.csv']);
    expect(readFileSync(join(folder, 'cities.csv'), 'utf8')).toBe('name,lon,lat\nmine,1,2\n');
    const file = join(folder, 'cities.csv');
    const notFolder = await quadkit(['sample', file]);
    expect(notFolder.code).toBe(1);
    expect(notFolder.stderr).toBe(
      `quadkit: ${file}: not a folder (a file of that name is in the way); give a folder\n`,
    );
  });

  it('a missing sample file is an error that says how to get it', async () => {
    const run = await quadkit(['query', join(dir, 'nowhere', 'cities.csv'), '--near', '0,0']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /nowhere\/cities\.csv: cannot read the file \(ENOENT\); `quadkit sample` writes the sample files/,
    );
  });

  it('ships a few thousand of the largest cities and the countries, each file under 300 KB, in the package', async () => {
    const rows: Record<string, string>[] = parse(data('cities.csv'), { columns: true });
    expect(Object.keys(rows[0]!)).toEqual(['name', 'country', 'lon', 'lat', 'population']);
    expect(rows.length).toBeGreaterThan(2000);
    expect(rows.every((r) => Number(r.population) >= 100_000)).toBe(true);
    // (The README says how many.)
    const said = /the ([\d,]+) cities of the world/.exec(readFileSync(README, 'utf8'));
    expect(Number(said?.[1]?.replaceAll(',', ''))).toBe(rows.length);
    const collection = JSON.parse(data('countries.geojson').toString('utf8'));
    expect(collection.features.length).toBeGreaterThan(150);
    expect(
      collection.features.every((f: { properties: { name?: string } }) => f.properties.name),
    ).toBe(true);
    for (const { name } of SAMPLES) expect(data(name).length).toBeLessThan(300 * 1024);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.files).toContain('data');
    // Nearly every city is in a country (the 1:110m coasts leave a few out at sea).
    const run = await quadkit(['join', cities, countries, '--count', '-f', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const total = lines(run.stdout).reduce((n, f) => n + f.properties.point_count, 0);
    expect(total).toBeGreaterThan(rows.length * 0.9);
  });
});

describe('the precision of the numbers printed', () => {
  const near = ['--near', '2.2945,48.8584', '-k', '25'];

  it('CSV gives distances in km to 3 decimals (the metre), JSON the exact ones', async () => {
    const json = await quadkit(['query', cities, ...near, '-f', 'ndjson']);
    expect(json.code, json.stderr).toBe(0);
    const features = lines(json.stdout);
    expect(features).toHaveLength(25);
    const exact = features.map((f) => f.properties.distance_km as number);
    // Exact: the great-circle distance itself, not a rounded one.
    for (let i = 0; i < features.length; i++) {
      const [lon, lat] = features[i].geometry.coordinates;
      expect(exact[i]).toBeCloseTo(haversine(2.2945, 48.8584, lon, lat), 9);
    }
    expect(exact.some((d) => Math.abs(d * 1000 - Math.round(d * 1000)) > 1e-6)).toBe(true);
    const geojson = JSON.parse((await quadkit(['query', cities, ...near])).stdout);
    expect(geojson.features.map((f: { properties: object }) => f.properties)).toEqual(
      features.map((f) => f.properties),
    );

    const csv = await quadkit(['query', cities, ...near, '-f', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const rows: Record<string, string>[] = parse(csv.stdout, { columns: true });
    expect(rows.map((r) => r.distance_km)).toEqual(exact.map((d) => d.toFixed(3)));
    expect(rows.every((r) => /^\d+\.\d{3}$/.test(r.distance_km!))).toBe(true);

    const full = await quadkit(['query', cities, ...near, '-f', 'csv', '--full-precision']);
    expect(full.code, full.stderr).toBe(0);
    const fullRows: Record<string, string>[] = parse(full.stdout, { columns: true });
    expect(fullRows.map((r) => r.distance_km)).toEqual(exact.map((d) => String(d)));
  });

  it('CSV gives longitudes and latitudes to 6 decimals, every digit with --full-precision; JSON keeps them', async () => {
    const file = join(dir, 'precise.csv');
    writeFileSync(
      file,
      'name,lon,lat\nA,2.123456789,48.987654321\nB,-0.5,10\nC,-179.99999996,-0.0000004\n',
    );
    const query = ['--bbox', '-180,-90,180,90'];
    const csv = await quadkit(['query', file, ...query, '-f', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe('lon,lat,name\n2.123457,48.987654,A\n-0.5,10,B\n-180,0,C\n');
    const full = await quadkit(['query', file, ...query, '-f', 'csv', '--full-precision']);
    expect(full.stdout).toBe(
      'lon,lat,name\n2.123456789,48.987654321,A\n-0.5,10,B\n-179.99999996,-4e-7,C\n',
    );
    const json = await quadkit(['query', file, ...query, '-f', 'ndjson']);
    expect(lines(json.stdout).map((f) => f.geometry.coordinates)).toEqual([
      [2.123456789, 48.987654321],
      [-0.5, 10],
      [-179.99999996, -0.0000004],
    ]);
    // join writes its points the same way.
    const joined = await quadkit(['join', file, countries, '-f', 'csv']);
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stdout.split('\n')[1]).toBe('2.123457,48.987654,A,France');
    const joinedFull = await quadkit(['join', file, countries, '-f', 'csv', '--full-precision']);
    expect(joinedFull.stdout.split('\n')[1]).toBe('2.123456789,48.987654321,A,France');
  });

  it('--full-precision with JSON output is refused: JSON is always exact', async () => {
    for (const format of ['geojson', 'ndjson']) {
      const run = await quadkit(['query', cities, ...near, '-f', format, '--full-precision']);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `quadkit: --full-precision applies to --format csv (${format} output is always exact)\n`,
      );
    }
    const join = await quadkit(['join', cities, countries, '--full-precision']);
    expect(join.code).toBe(1);
    expect(join.stderr).toMatch(/--full-precision applies to --format csv/);
  });
});

const root = mkdtempSync(join(tmpdir(), 'quadkit-examples-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// `quadkit` on the PATH: the package's launcher, as `npm install` puts it there.
const bin = join(root, 'bin');
mkdirSync(bin);
const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
writeFileSync(
  join(bin, 'quadkit'),
  `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(BIN)} "$@"\n`,
);
chmodSync(join(bin, 'quadkit'), 0o755);

interface Shell {
  code: number;
  stdout: string;
  stderr: string;
}

function shell(command: string, cwd: string): Promise<Shell> {
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      ['-c', command],
      { cwd, maxBuffer: 1 << 28, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

/** The lines under each `Examples` heading of a help text. */
function helpExamples(help: string): string[] {
  const out: string[] = [];
  const lines = help.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^Examples\b.*:$/.test(lines[i]!)) continue;
    for (i++; i < lines.length && /^ {2}\S/.test(lines[i]!); i++) out.push(lines[i]!.trim());
  }
  return out;
}

/** The README's fenced blocks: `sh` blocks are commands, the others what the one before prints. */
function readmeBlocks(text: string): { lang: string; lines: string[] }[] {
  const blocks: { lang: string; lines: string[] }[] = [];
  const fence = /^```(\S*)\n([\s\S]*?)^```$/gm;
  for (const m of text.matchAll(fence))
    blocks.push({ lang: m[1]!, lines: m[2]!.split('\n').filter((l) => l.trim() !== '') });
  return blocks;
}

// The `quadkit ...` part of an example (after a pipe), as words.
function quadkitWords(command: string): string[] {
  const part = command
    .split('|')
    .map((p) => p.trim())
    .find((p) => p.startsWith('quadkit '));
  if (part === undefined) throw new Error(`not a quadkit command: ${command}`);
  return part.split(/\s+/);
}

/**
 * Checks what an example wrote: the files `quadkit sample` names, the index -o names, or its
 * standard output in the format it asked for; each must parse and hold at least one feature.
 */
async function checkAnswer(command: string, run: Shell, cwd: string): Promise<void> {
  const words = quadkitWords(command);
  const flag = (...names: string[]) => {
    const at = words.findIndex((w) => names.includes(w));
    return at < 0 ? undefined : words[at + 1];
  };
  if (words[1] === 'sample') {
    const folder = join(cwd, words[2] ?? '.');
    for (const { name } of SAMPLES) {
      const text = readFileSync(join(folder, name), 'utf8');
      if (name.endsWith('.csv')) expect(parse(text, { columns: true }).length).toBeGreaterThan(0);
      else expect(JSON.parse(text).features.length).toBeGreaterThan(0);
    }
    return;
  }
  const output = flag('-o', '--output');
  if (output?.endsWith('.fgb')) {
    const fgb = await FgbFile.open(join(cwd, output));
    await fgb.close();
    expect(fgb.header.featuresCount).toBeGreaterThan(0);
    return;
  }
  if (output?.endsWith('.parquet')) {
    const bytes = readFileSync(join(cwd, output));
    const metadata = parquetMetadata(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
    );
    expect(Number(metadata.num_rows)).toBeGreaterThan(0);
    return;
  }
  if (output !== undefined) {
    const qk = await QkFile.open(join(cwd, output));
    try {
      expect(qk.header.count).toBeGreaterThan(0);
    } finally {
      await qk.close();
    }
    return;
  }
  const format = flag('-f', '--format') ?? 'geojson';
  expect(run.stdout.trim(), 'its answer').not.toBe('');
  if (format === 'csv') {
    const rows: Record<string, string>[] = parse(run.stdout, { columns: true });
    expect(rows.length, 'its answer').toBeGreaterThan(0);
  } else if (format === 'ndjson') {
    const features = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(features.every((f) => f.type === 'Feature')).toBe(true);
  } else {
    const collection = JSON.parse(run.stdout);
    expect(collection.type).toBe('FeatureCollection');
    expect(collection.features.length, 'its answer').toBeGreaterThan(0);
  }
}

/** Runs one example in a folder; it must succeed and answer. */
async function runOne(command: string, cwd: string): Promise<Shell> {
  // (No example may reach the network.)
  expect(command, command).not.toMatch(/https?:|\bcurl\b|\bwget\b/);
  const run = await shell(command, cwd);
  expect(run.code, `${command}\n${run.stderr}`).toBe(0);
  await checkAnswer(command, run, cwd).catch((e: Error) => {
    throw new Error(`${command}: ${e.message}\n${run.stdout.slice(0, 400)}`);
  });
  return run;
}

// The files an example reads (its data files, and what `cat` pipes in), and those it makes.
const DATA_FILE = /\.(csv|tsv|geojson|json|ndjson|geojsonl|jsonl|qk|fgb)$/;
function filesRead(command: string): string[] {
  const words = command.split(/[\s|]+/);
  return words
    .filter((w, i) => DATA_FILE.test(w) && words[i - 1] !== '-o' && words[i - 1] !== '--output')
    .map(normalize);
}
function filesMade(command: string): string[] {
  const words = quadkitWords(command);
  if (words[1] === 'sample') return SAMPLES.map((s) => normalize(join(words[2] ?? '.', s.name)));
  const at = words.findIndex((w) => w === '-o' || w === '--output');
  return at < 0 ? [] : [normalize(words[at + 1]!)];
}

/** Where examples are printed, and the examples in the order printed. */
interface Source {
  name: string;
  commands: string[];
  /** README answers shown: the command before each, and the text shown. */
  shown: { command: string; lang: string; text: string }[];
}

// The help texts as the command prints them: the root's, and each command's it lists.
const rootHelp = (await quadkit(['--help'])).stdout;
const commandList = rootHelp.slice(
  rootHelp.indexOf('\nCommands:\n'),
  rootHelp.indexOf('\nExamples'),
);
const commands = [...commandList.matchAll(/^ {2}([a-z-]+) /gm)]
  .map((m) => m[1]!)
  .filter((c) => c !== 'help');
const sources: Source[] = [{ name: 'quadkit --help', commands: helpExamples(rootHelp), shown: [] }];
for (const command of commands) {
  const help = (await quadkit([command, '--help'])).stdout;
  sources.push({ name: `quadkit ${command} --help`, commands: helpExamples(help), shown: [] });
}
// The README: `sh` blocks are commands; any other block shows what the command before writes.
const readme: Source = { name: 'packages/cli/README.md', commands: [], shown: [] };
for (const block of readmeBlocks(readFileSync(README, 'utf8'))) {
  if (block.lang === 'sh') readme.commands.push(...block.lines.filter((l) => !l.startsWith('#')));
  else
    readme.shown.push({
      command: readme.commands.at(-1) ?? `(none before the ${block.lang} block)`,
      lang: block.lang,
      text: block.lines.join('\n'),
    });
}
sources.push(readme);

// Every example runs in one fresh folder, once even if printed in more than one place, as soon
// as the examples (printed before it) that make the files it reads have run: in the order
// printed where one needs another, a few at a time otherwise. That each help and the README
// works from an empty folder of its own is checked by the test of the files each example reads.
const cwd = join(root, 'examples');
mkdirSync(cwd);
const AT_ONCE = 3;
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}
let runs: Map<string, Promise<Shell>> | undefined;
function runAll(): Map<string, Promise<Shell>> {
  if (runs !== undefined) return runs;
  runs = new Map();
  const maker = new Map<string, string>();
  for (const command of sources.flatMap((s) => s.commands)) {
    if (runs.has(command)) continue;
    const needs = filesRead(command)
      .map((file) => maker.get(file))
      .filter((c) => c !== undefined)
      .map((c) => runs!.get(c)!);
    const run = Promise.all(needs).then(() => slot(() => runOne(command, cwd)));
    // (Its failure is reported by the test of each place that prints it.)
    run.catch(() => {});
    runs.set(command, run);
    for (const file of filesMade(command)) if (!maker.has(file)) maker.set(file, command);
  }
  return runs;
}

// (They start at once, and run while the tests above run in this process.)
beforeAll(() => {
  runAll();
});

describe('every example of the help and of packages/cli/README.md works as printed', () => {
  it('the help lists the commands; each help and the README has examples, the first writing the sample files', () => {
    expect(commands).toEqual(expect.arrayContaining(['sample', 'index', 'query', 'join']));
    expect(sources.map((s) => s.name)).toContain('packages/cli/README.md');
    for (const source of sources) {
      expect(source.commands.length, source.name).toBeGreaterThanOrEqual(2);
      expect(source.commands[0], source.name).toBe('quadkit sample');
    }
    expect(readme.commands.length).toBeGreaterThanOrEqual(6);
  });

  it('each example reads only files that an example before it in the same place makes', () => {
    for (const source of sources) {
      const made = new Set<string>();
      for (const command of source.commands) {
        for (const file of filesRead(command))
          expect(
            made.has(file),
            `${source.name}: ${command} reads ${file}, made by none before`,
          ).toBe(true);
        for (const file of filesMade(command)) made.add(file);
      }
    }
  });

  it.each(sources.map((s) => [s.name, s] as const))('%s', async (_, source) => {
    const all = runAll();
    for (const command of source.commands) await all.get(command);
    for (const { command, lang, text } of source.shown) {
      expect(['csv', 'json', 'text'], `a README block of ${lang}`).toContain(lang);
      expect((await all.get(command))?.stdout.trimEnd(), command).toBe(text);
    }
  });

  it('an example that fails, or answers nothing, fails these checks', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    await expect(runOne('quadkit query cities.csv --near 0,0', empty)).rejects.toThrow(
      /cities\.csv: cannot read the file \(ENOENT\)/,
    );
    // An answer with no feature, in each format.
    const none = { code: 0, stderr: '' };
    for (const [command, stdout] of [
      ['quadkit query one.csv --within 0,0,1', '{"type":"FeatureCollection","features":[\n\n]}\n'],
      ['quadkit query one.csv --within 0,0,1 --format csv', 'lon,lat,name\n'],
      ['quadkit query one.csv --within 0,0,1 -f ndjson', ''],
    ] as const)
      await expect(checkAnswer(command, { ...none, stdout }, empty)).rejects.toThrow(/its answer/);
    expect(filesRead('cat cities.csv | quadkit query - --near 0,0')).toEqual(['cities.csv']);
    expect(filesRead('quadkit index a.geojson -o b.qk')).toEqual(['a.geojson']);
    expect(filesMade('quadkit sample data')).toEqual(['data/cities.csv', 'data/countries.geojson']);
  });
});
