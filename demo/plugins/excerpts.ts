// A Vite plugin that gives each scene the few lines of its own source that call quadkit, shown
// under its canvas. In demo/src/scenes/<id>.ts the lines between `// #region excerpt` and
// `// #endregion` are the excerpt (several regions are joined by a `// …` line), dedented.
// `import { excerpts } from 'virtual:excerpts'` gives `{ [id]: text }`, read at build time, so
// the page ships those lines only, and they are the code that runs.

import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const ID = 'virtual:excerpts';
const RESOLVED = `\0${ID}`;
const SCENES = fileURLToPath(new URL('../src/scenes/', import.meta.url));
const START = /^\s*\/\/ #region excerpt\s*$/;
const END = /^\s*\/\/ #endregion\s*$/;

/**
 * The excerpt of a scene's source: its marked regions, each dedented, joined by `// …`.
 * @param source - the scene's TypeScript source.
 */
export function excerptOf(source: string): string {
  const regions: string[][] = [];
  let region: string[] | null = null;
  for (const line of source.split('\n')) {
    if (region === null) {
      if (START.test(line)) region = [];
    } else if (END.test(line)) {
      regions.push(region);
      region = null;
    } else region.push(line);
  }
  if (region !== null) throw new Error('an excerpt region is not closed');
  return regions
    .map((lines) => {
      const indent = Math.min(
        ...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length),
      );
      return lines.map((l) => l.slice(indent).trimEnd()).join('\n');
    })
    .join('\n// …\n');
}

/** The `virtual:excerpts` module, from the scenes' sources. */
export function excerptsPlugin(): Plugin {
  return {
    name: 'quadkit-excerpts',
    resolveId(id) {
      return id === ID ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      const excerpts: Record<string, string> = {};
      for (const file of readdirSync(SCENES).filter((f) => f.endsWith('.ts'))) {
        const path = join(SCENES, file);
        this.addWatchFile(path);
        const text = excerptOf(readFileSync(path, 'utf8'));
        if (text !== '') excerpts[basename(file, '.ts')] = text;
      }
      return `export const excerpts = ${JSON.stringify(excerpts)};\n`;
    },
  };
}
