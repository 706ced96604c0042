// The API reference (npm run docs): typedoc over every entry point of package.json's `exports`,
// with every exported declaration documented. Runs typedoc's converter and validation with the
// project's typedoc.config.js, without writing the HTML.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  Application,
  Logger,
  type LogLevel,
  PackageJsonReader,
  type ProjectReflection,
  TSConfigReader,
  TypeDocReader,
} from 'typedoc';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const { exports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, { default: string }>;
};

// Collects the warnings and errors typedoc reports.
class Collector extends Logger {
  readonly messages: string[] = [];
  override log(message: string, level: LogLevel): void {
    super.log(message, level);
    if (level >= 2) this.messages.push(message); // Warn and Error
  }
}

// Converts and validates with typedoc.config.js (plus overrides); the project and what it said.
async function document(
  overrides: Record<string, unknown> = {},
): Promise<{ project: ProjectReflection | undefined; messages: string[] }> {
  const app = await Application.bootstrapWithPlugins(
    // The type check is typecheck's job (a faster compiler); typedoc only reads the comments.
    { options: join(ROOT, 'typedoc.config.js'), skipErrorChecking: true, ...overrides },
    [new TypeDocReader(), new PackageJsonReader(), new TSConfigReader()],
  );
  const logger = new Collector();
  app.logger = logger;
  const project = await app.convert();
  if (project !== undefined) app.validate(project);
  return { project, messages: logger.messages };
}

const fixtures: string[] = [];
afterAll(() => {
  for (const dir of fixtures) rmSync(dir, { recursive: true, force: true });
});

// A one-file project outside the repository, documented by the same configuration.
async function documentFixture(source: string) {
  const dir = mkdtempSync(join(tmpdir(), 'quadkit-docs-'));
  fixtures.push(dir);
  writeFileSync(join(dir, 'entry.ts'), source);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, module: 'NodeNext', target: 'ES2022', noEmit: true },
      files: ['entry.ts'],
    }),
  );
  return document({
    entryPoints: [join(dir, 'entry.ts')],
    tsconfig: join(dir, 'tsconfig.json'),
    name: 'fixture',
    // (The project's exception names a symbol the fixture does not have.)
    intentionallyNotDocumented: [],
  });
}

describe('the API reference', () => {
  it('documents one module per exports entry, and every export of each has TSDoc', async () => {
    const { project, messages } = await document();
    expect(messages).toEqual([]);
    expect(project).toBeDefined();
    // One module per entry point, named after its source file (src/index.ts -> index), or after
    // its folder when the file is a folder's index (src/geo/index.ts -> geo).
    const modules = project!.children!.map((m) => m.name).sort();
    const expected = Object.values(exports)
      .map((t) =>
        t.default
          .replace(/^\.\/dist\//, '')
          .replace(/\.js$/, '')
          .replace(/(.)\/index$/, '$1'),
      )
      .sort();
    expect(modules).toEqual(expected);
    for (const m of project!.children!) expect(m.children?.length ?? 0).toBeGreaterThan(0);
  }, 120_000);

  it('the check fails on an export without TSDoc, naming it', async () => {
    const bad = await documentFixture(
      '/** Documented. */\nexport const fine = 1;\n' +
        'export function undocumentedThing(a: number): number {\n  return a;\n}\n' +
        '/** Documented, but not its field. */\nexport interface Half {\n  field: number;\n}\n',
    );
    expect(bad.messages.join('\n')).toMatch(/undocumentedThing.*does not have any documentation/);
    expect(bad.messages.join('\n')).toMatch(/Half\.field.*does not have any documentation/);
    expect(bad.messages.length).toBe(2);

    const good = await documentFixture(
      '/** Documented. */\nexport const fine = 1;\n' +
        '/**\n * Returns its argument.\n * @param a - any number.\n */\n' +
        'export function documentedThing(a: number): number {\n  return a;\n}\n',
    );
    expect(good.messages).toEqual([]);
  }, 120_000);
});
