// typedoc's configuration (npm run docs): the API reference of every entry point in
// package.json's `exports`, each mapped from its built file back to its source (dist/x.js ->
// src/x.ts), written to docs/api/. Every exported declaration must have a TSDoc comment.
import { readFileSync } from 'node:fs';

const { exports } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/** The source file of each entry point in package.json's `exports`. */
export const entryPoints = Object.values(exports).map((target) =>
  target.default.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts'),
);

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  entryPoints,
  out: 'docs/api',
  excludeInternal: true,
  excludePrivate: true,
  validation: { notExported: true, invalidLink: true, notDocumented: true },
  // The one member of a mapped type, documented on its type alias (AsyncDisposal).
  intentionallyNotDocumented: ['batch.AsyncDisposal.__type.asyncDispose'],
  treatWarningsAsErrors: true,
  // typedoc's default languages, plus the README's SQL examples (tiles in DuckDB and PostGIS).
  highlightLanguages: [
    'bash',
    'console',
    'css',
    'html',
    'javascript',
    'json',
    'jsonc',
    'json5',
    'yaml',
    'tsx',
    'typescript',
    'sql',
  ],
  // Source links name the public repository, whatever remote (if any) a clone has.
  disableGit: true,
  sourceLinkTemplate: 'https://github.com/quadkit/quadkit/blob/main/{path}#L{line}',
};
