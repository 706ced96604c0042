// The published declarations: built as `npm run build` builds them (tsconfig.build.json, into a
// temporary folder), they hold no member marked @internal, and the public API is all there.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
let out = '';
let declarations = new Map<string, string>();

/** Every .d.ts under dir, by path relative to it. */
function readDeclarations(dir: string, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      for (const [k, v] of readDeclarations(path, `${prefix}${entry.name}/`)) found.set(k, v);
    } else if (entry.name.endsWith('.d.ts')) {
      found.set(prefix + entry.name, readFileSync(path, 'utf8'));
    }
  }
  return found;
}

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'quadkit-dts-'));
  execFileSync(
    process.execPath,
    [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', out, '--emitDeclarationOnly'],
    { stdio: 'pipe' },
  );
  declarations = readDeclarations(out);
}, 120_000);

afterAll(() => {
  if (out !== '') rmSync(out, { recursive: true, force: true });
});

describe('the built declarations', () => {
  it('hold no @internal member: not pairSlots, itemOf, generationOf, slotOf, engine or summary', () => {
    expect(declarations.size).toBeGreaterThan(5);
    for (const [file, text] of declarations) {
      expect(text, file).not.toMatch(/@internal/);
      if (file.startsWith('engine/') || file.startsWith('geometry/')) continue;
      expect(text, file).not.toMatch(/\b(pairSlots|itemOf|generationOf|slotOf|summary)\(/);
      expect(text, file).not.toMatch(/\bengine\b[?:;]/);
    }
  });

  it('keep the public API: from, toJSON, nearestWithDistances and the error classes', () => {
    const index = declarations.get('index.d.ts') ?? '';
    for (const name of ['InvalidValueError', 'UnknownOptionError', 'RequireToRect', 'Neighbour']) {
      expect(index).toContain(name);
    }
    expect(declarations.get('quadtree.d.ts')).toMatch(/static from<T>\(/);
    expect(declarations.get('quadtree.d.ts')).toMatch(/toJSON\(\): IndexSummary<QuadtreeSettings>/);
    expect(declarations.get('queries.d.ts')).toMatch(/nearestWithDistances\(/);
  });
});
