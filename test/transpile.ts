// quadkit's src/ as plain JavaScript, for code that Vitest does not transform: worker threads.
// Vitest does not transform code that runs in a worker_threads Worker, Node 20 cannot import
// TypeScript, and dist/ may be stale (or absent) when the tests run locally, so the tests
// transpile src/ file by file with the TypeScript compiler API (the project already requires
// isolatedModules, so per-file transpilation is exact) into a temporary directory, and the
// workers import that: they always run the same source as the main thread, with no build step.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Transpiles every .ts file under `src` to .js under `out` (an ES module package). */
function transpileSources(src: string, out: string): void {
  const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const { outputText } = ts.transpileModule(readFileSync(path, 'utf8'), {
          fileName: path,
          compilerOptions: {
            module: ts.ModuleKind.ESNext,
            target: ts.ScriptTarget.ES2022,
            verbatimModuleSyntax: true,
          },
        });
        const target = join(out, relative(src, path)).replace(/\.ts$/, '.js');
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, outputText);
      }
    }
  };
  walk(src);
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
}

/** A transpiled copy of src/ in a temporary directory; `remove()` deletes it. */
export interface TranspiledLibrary {
  /** The directory (src/index.ts is index.js in it). */
  dir: string;
  remove(): void;
}

/** Transpiles src/ into a new temporary directory named after `prefix`. */
export function transpileLibrary(prefix: string): TranspiledLibrary {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  transpileSources(SRC, dir);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
