// Every example the command prints in its help (the root's and each command's), and every
// command in packages/cli/README.md, run as printed: each one as a shell command, in the order
// printed, in a fresh folder, with `quadkit` on the PATH. Each must exit 0 and write an answer
// that parses and is not empty (or the file it names with -o); each answer the README shows must
// be what its command writes. An example that fails fails here. Each help and the README must
// also work from an empty folder of its own: every file an example reads is made by one before
// it in the same place (`quadkit sample`, or an -o), which is checked without running them again.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLES } from '../src/samples.js';
import { QkFile } from '../src/store.js';
import { BIN, quadkit } from './run.js';

const README = new URL('../README.md', import.meta.url);

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
const DATA_FILE = /\.(csv|tsv|geojson|json|ndjson|geojsonl|jsonl|qk)$/;
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

// Every example runs in one fresh folder, in the order printed (the root's help first); one
// printed in more than one place runs once. Each source is checked to work from an empty
// folder of its own by the test of the files it reads, below.
const cwd = join(root, 'examples');
mkdirSync(cwd);
const runs = new Map<string, Shell>();

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
    for (const command of source.commands)
      if (!runs.has(command)) runs.set(command, await runOne(command, cwd));
    for (const { command, lang, text } of source.shown) {
      expect(['csv', 'json', 'text'], `a README block of ${lang}`).toContain(lang);
      expect(runs.get(command)?.stdout.trimEnd(), command).toBe(text);
    }
  });

  it('an example that fails, or answers nothing, fails these checks', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    await expect(runOne('quadkit query cities.csv --near 0,0', empty)).rejects.toThrow(
      /cities\.csv: cannot read the file \(ENOENT\)/,
    );
    writeFileSync(join(empty, 'one.csv'), 'name,lon,lat\nA,10,10\n');
    await expect(runOne('quadkit query one.csv --within 0,0,1', empty)).rejects.toThrow(
      /its answer/,
    );
    expect(filesRead('cat cities.csv | quadkit query - --near 0,0')).toEqual(['cities.csv']);
    expect(filesRead('quadkit index a.geojson -o b.qk')).toEqual(['a.geojson']);
    expect(filesMade('quadkit sample data')).toEqual(['data/cities.csv', 'data/countries.geojson']);
  });
});
