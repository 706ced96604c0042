// The published package, as a user gets it: packs a copy of the sources that has no dist/ (as a
// fresh clone has none), installs the tarball into an empty project without the network, and
// uses it from Node and from TypeScript. Also runs publint and are-the-types-wrong over it.

import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  exports: Record<string, unknown>;
};

// Every file an `exports` condition points at, per entry point ('.', './canvas', ...).
function targets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(targets);
}
const ENTRIES = Object.entries(pkg.exports).map(([key, value]) => ({
  key,
  specifier: key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`,
  files: targets(value).map((t) => t.replace(/^\.\//, '')),
}));

// Where the sources of a packed module are: dist/x.js -> src/x.ts.
const sourceOf = (file: string) =>
  join(ROOT, file.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts'));

// Not copied into the clean checkout: installs, build output and local artefacts.
const NOT_SOURCES = new Set([
  'node_modules',
  'dist',
  '.git',
  'coverage',
  'docs/api',
  'demo/dist',
  'test/demo/screenshots',
]);

let work = '';
let app = '';
let tarball = '';
let packed: string[] = [];

const run = (cmd: string, args: string[], cwd: string) =>
  spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'quadkit-pack-'));
  // A checkout without dist/, sharing the repository's node_modules.
  const checkout = join(work, 'checkout');
  cpSync(ROOT, checkout, {
    recursive: true,
    filter: (src) => !NOT_SOURCES.has(relative(ROOT, src)),
  });
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  // npm pack runs the prepare script (the build); --json keeps its output on stderr.
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: checkout,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, info!.filename);
  packed = info!.files.map((f) => f.path);

  // An empty ESM project that installs the tarball (it has no dependencies: no network needed).
  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }),
  );
  execFileSync(
    'npm',
    ['install', tarball, '--offline', '--no-audit', '--no-fund', '--no-package-lock'],
    { cwd: app, stdio: 'pipe' },
  );
}, 180_000);

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('npm pack on a checkout without dist/ builds it and packs every exports target', () => {
    expect(ENTRIES.map((e) => e.key)).toContain('.');
    for (const entry of ENTRIES) {
      expect(entry.files.length).toBeGreaterThan(0);
      for (const file of entry.files) expect(packed).toContain(file);
    }
    for (const file of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
      expect(packed).toContain(file);
    }
  });

  it('packs no test, bench, demo or docs files', () => {
    const stray = packed.filter(
      (f) => /^(test|bench|demo|docs|examples)\//.test(f) || /\.(test|e2e|bench)\./.test(f),
    );
    expect(stray).toEqual([]);
    expect(packed.every((f) => /^(dist|src)\//.test(f) || !f.includes('/'))).toBe(true);
  });

  it('every relative link of the packed README points at a packed file', () => {
    const readme = readFileSync(join(app, 'node_modules', pkg.name, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)|src="([^"]+)"/g)].map(
      (m) => m[1] ?? m[2]!,
    );
    expect(links.length).toBeGreaterThan(0);
    const relativeLinks = links.filter((url) => !/^(https?:|mailto:|#)/.test(url));
    expect(relativeLinks.filter((url) => !packed.includes(url.split('#')[0]!))).toEqual([]);
  });

  it('every entry point imports from Node with the exports of its source module', async () => {
    const script = `const names = {};
${ENTRIES.map((e) => `names[${JSON.stringify(e.key)}] = Object.keys(await import(${JSON.stringify(e.specifier)})).sort();`).join('\n')}
console.log(JSON.stringify(names));`;
    const out = run('node', ['--input-type=module', '-e', script], app);
    expect(out.stderr).toBe('');
    const names = JSON.parse(out.stdout) as Record<string, string[]>;
    for (const entry of ENTRIES) {
      const main = entry.files.find((f) => f.endsWith('.js'))!;
      const source = (await import(sourceOf(main))) as Record<string, unknown>;
      expect(names[entry.key]).toEqual(Object.keys(source).sort());
      expect(names[entry.key]!.length).toBeGreaterThan(0);
    }
  });

  it('the declarations type-check a TypeScript file that uses every entry point', () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022'],
          types: [],
          strict: true,
          exactOptionalPropertyTypes: true,
          skipLibCheck: false,
          noEmit: true,
        },
        files: ['use.ts'],
      }),
    );
    writeFileSync(
      join(app, 'use.ts'),
      `${ENTRIES.map((e, i) => `import * as entry${i} from ${JSON.stringify(e.specifier)};`).join('\n')}
import { Quadtree } from ${JSON.stringify(pkg.name)};

export const entries = [${ENTRIES.map((_, i) => `entry${i}`).join(', ')}];
const tree = new Quadtree({ bounds: { x: 0, y: 0, width: 100, height: 100 } });
tree.insert({ x: 10, y: 10, width: 5, height: 5 });
export const hits: number = tree.search({ x: 0, y: 0, width: 20, height: 20 }).length;
// @ts-expect-error: a string has no bounds (this line fails to compile if the types are any)
tree.insert('not a rectangle');
`,
    );
    const tsc = run(
      'node',
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
      app,
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);

    // The same file with a type error fails: the check is real.
    writeFileSync(
      join(app, 'use.ts'),
      `import { Quadtree } from ${JSON.stringify(pkg.name)};\nexport const n: string = new Quadtree({ bounds: { x: 0, y: 0, width: 1, height: 1 } }).size;\n`,
    );
    const bad = run(
      'node',
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
      app,
    );
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/use\.ts.*TS2322/);
  });

  it('publint (strict) and are-the-types-wrong (ESM-only) find no problem in the tarball', () => {
    const publint = run(join(BIN, 'publint'), ['run', tarball, '--strict'], work);
    expect(publint.stdout + publint.stderr).toMatch(/All good/);
    expect(publint.status).toBe(0);
    const attw = run(
      join(BIN, 'attw'),
      [tarball, '--profile', 'esm-only', '--format', 'json'],
      work,
    );
    expect(attw.status, attw.stdout + attw.stderr).toBe(0);
    const report = JSON.parse(attw.stdout) as {
      analysis: { entrypoints: Record<string, unknown> };
      problems: Record<string, { resolutionKind?: string }[]>;
    };
    // Every entry point is analysed; the only problems are those of CommonJS and node10
    // resolution, which an ESM-only package has by design.
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual(
      ENTRIES.map((e) => e.key).sort(),
    );
    const kinds = new Set(
      Object.values(report.problems).flatMap((list) => list.map((p) => p.resolutionKind)),
    );
    expect([...kinds].filter((k) => k !== 'node10' && k !== 'node16-cjs')).toEqual([]);
  });
});
