// The published declarations: built as `npm run build` builds them (tsconfig.build.json, into a
// temporary folder), they hold no member marked @internal, and the public API is all there.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;

/** The entry points: their declarations in the build, and their sources. */
const ENTRIES = [
  { declarations: 'index.d.ts', source: '../../src/index.js' },
  { declarations: 'canvas.d.ts', source: '../../src/canvas.js' },
  { declarations: 'geo/index.d.ts', source: '../../src/geo/index.js' },
  { declarations: 'force.d.ts', source: '../../src/force.js' },
  { declarations: 'cluster/index.d.ts', source: '../../src/cluster/index.js' },
  { declarations: 'batch/index.d.ts', source: '../../src/batch/index.js' },
];

/** Members that exist at run time but are internal (marked @internal, or protected hooks). */
const INTERNAL = new Set([
  'bestFirstInto',
  'generationOf',
  'hitInto',
  'hitList',
  'itemOf',
  'loadNumbered',
  'pairSlots',
  'pointItems',
  'searchEdges',
  'slotItems',
  'slotOf',
  'summary',
]);

/** Prototypes of the built-in classes, where the walk up an exported class stops. */
const BUILT_IN = new Set<unknown>([Object.prototype, Error.prototype, null]);

/** A symbol key as the checker names it: `[Symbol.iterator]` for a well-known symbol. */
function symbolName(key: symbol): string {
  const known = Object.getOwnPropertyNames(Symbol).find(
    (n) => (Symbol as unknown as Record<string, unknown>)[n] === key,
  );
  return `[Symbol.${known ?? key.description}]`;
}

/** A member's name as the checker gives it: a symbol key as `[Symbol.name]`. */
function memberName(escaped: string): string {
  return escaped.startsWith('__@') ? `[Symbol.${escaped.slice(3).replace(/@\d+$/, '')}]` : escaped;
}
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

  it('reachable from the entry points, name typed arrays without type arguments (Float64Array<ArrayBuffer> needs TypeScript 5.7)', () => {
    const entries = ['index.d.ts', 'canvas.d.ts', 'geo/index.d.ts', 'force.d.ts'];
    entries.push('cluster/index.d.ts', 'batch/index.d.ts');
    const seen = new Set<string>();
    const stack = [...entries];
    while (stack.length > 0) {
      const file = stack.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const text = declarations.get(file);
      expect(text, file).toBeDefined();
      expect(text, file).not.toMatch(/\b(?:Float64|Float32|Int32|Uint32|Uint16|Uint8)Array</);
      for (const [, spec] of text!.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
        stack.push(join(file, '..', `${spec}.d.ts`).replace(/^\.\//, ''));
      }
    }
    expect(seen.size).toBeGreaterThan(entries.length);
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

  it('declare every member the exported classes have at run time, but the internal ones', async () => {
    const program = ts.createProgram(
      ENTRIES.map((e) => join(out, e.declarations)),
      { target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.esnext.disposable.d.ts'] },
    );
    const checker = program.getTypeChecker();
    const missing: string[] = [];
    for (const entry of ENTRIES) {
      const runtime = (await import(entry.source)) as Record<string, unknown>;
      const file = program.getSourceFile(join(out, entry.declarations))!;
      const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(file)!);
      for (let symbol of exports) {
        const value = runtime[symbol.name];
        if (typeof value !== 'function' || value.prototype === undefined) continue;
        if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
        const declared = new Set(
          checker
            .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))
            .map((p) => memberName(p.escapedName as string)),
        );
        for (
          let proto = value.prototype;
          !BUILT_IN.has(proto);
          proto = Object.getPrototypeOf(proto)
        ) {
          for (const key of Reflect.ownKeys(proto)) {
            const name = typeof key === 'symbol' ? symbolName(key) : key;
            if (name === 'constructor' || INTERNAL.has(name) || declared.has(name)) continue;
            // (Declared on what BatchPool.create returns: see AsyncDisposal.)
            if (symbol.name === 'BatchPool' && name === '[Symbol.asyncDispose]') continue;
            missing.push(`${symbol.name}.${name}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
