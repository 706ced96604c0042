// The README's usage block, run as it is printed: its import of 'quadkit' is served by src/, and
// every line that ends in a comment holding a value (`tree.searchPoint(110, 110); // [player]`)
// must produce that value.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as quadkit from '../src/index.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The first ```js block after the heading `## Usage`. */
function usageBlock(): string {
  const at = README.indexOf('\n## Usage');
  const open = README.indexOf('```js\n', at);
  const close = README.indexOf('\n```', open + 6);
  if (at < 0 || open < 0 || close < 0) throw new Error('the README has no usage block');
  return README.slice(open + 6, close);
}

/** The value a comment states (the longest prefix before `: ` that is a JS expression), or null. */
function statedValue(comment: string): string | null {
  if (!/^[[{'"\d-]|^(true|false|null)\b/.test(comment)) return null;
  const cuts = [comment.length];
  for (let i = comment.indexOf(': '); i >= 0; i = comment.indexOf(': ', i + 1)) cuts.push(i);
  for (const cut of cuts.sort((a, b) => b - a)) {
    const text = comment.slice(0, cut);
    try {
      new Function(`return (${text});`);
      return text;
    } catch {}
  }
  return null;
}

/** The block as a function body: the import dropped, each stated value checked. */
function instrument(block: string): { body: string; checks: number } {
  let checks = 0;
  const lines = block.split('\n').map((line, i) => {
    if (/^import .* from 'quadkit';$/.test(line)) return '';
    const m = /^(\s*)(.+?);\s*\/\/\s*(.+)$/.exec(line);
    const value = m === null ? null : statedValue(m[3]!);
    if (m === null || value === null || /^(const|let|var) /.test(m[2]!)) return line;
    checks++;
    return `${m[1]}check(${m[2]}, () => (${value}), ${i + 1});`;
  });
  return { body: lines.join('\n'), checks };
}

describe('the README', () => {
  it('its usage block runs as printed, and every value its comments state is what the line gives', () => {
    const { body, checks } = instrument(usageBlock());
    expect(checks).toBeGreaterThanOrEqual(6);
    const seen: number[] = [];
    const check = (actual: unknown, expected: () => unknown, line: number) => {
      expect(actual, `usage block line ${line}`).toEqual(expected());
      seen.push(line);
    };
    const names = Object.keys(quadkit);
    new Function('check', ...names, body)(check, ...names.map((n) => (quadkit as never)[n]));
    expect(seen.length).toBe(checks);
  });

  it('the check fails on a stated value the line does not give', () => {
    const { body, checks } = instrument('const a = [1, 2];\na.length; // 3\n');
    expect(checks).toBe(1);
    const check = (actual: unknown, expected: () => unknown) => expect(actual).toEqual(expected());
    expect(() => new Function('check', body)(check)).toThrow(/expected 2 to deeply equal 3/);
  });

  it('every quadkit command it shows is an example of the command, which the CLI tests run as printed', () => {
    const commands = README.split('```sh\n')
      .slice(1)
      .flatMap((block) => block.slice(0, block.indexOf('```')).split('\n'))
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line.startsWith('quadkit '));
    expect(commands.length).toBeGreaterThanOrEqual(3);
    const bin = new URL('../packages/cli/bin/quadkit.js', import.meta.url).pathname;
    const help = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    const cliReadme = readFileSync(new URL('../packages/cli/README.md', import.meta.url), 'utf8');
    const examples = new Set(
      `${help}\n${cliReadme}`.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()),
    );
    expect(commands.filter((c) => !examples.has(c))).toEqual([]);
  });

  it('the option defaults it states are what each index reports in toJSON().options', () => {
    const at = README.indexOf('Options are an object:');
    const text = README.slice(at, README.indexOf('\n\n', at)).replace(/\s+/g, ' ');
    const bounds = { x: 0, y: 0, width: 1, height: 1 };
    const made: Record<string, () => { toJSON(): { options: object } }> = {
      Quadtree: () => new quadkit.Quadtree({ bounds }),
      GridLooseQuadtree: () => new quadkit.GridLooseQuadtree({ bounds }),
      PointQuadtree: () => new quadkit.PointQuadtree({ bounds }),
      StaticQuadtree: () => quadkit.StaticQuadtree.from([{ x: 0, y: 0 }]),
    };
    let checked = 0;
    for (const [, list, name] of text.matchAll(/`\{ ([^`]*) \}` for `(\w+)/g)) {
      const options = made[name!]!().toJSON().options as Record<string, unknown>;
      for (const [, key, value] of list!.matchAll(/(\w+) = (\d+)/g)) {
        expect(options[key!], `${name}'s ${key}`).toBe(Number(value));
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
    // "an empty index, new or cleared, reads 6"
    const grid = new quadkit.GridLooseQuadtree({ bounds });
    expect(text).toContain(`new or cleared, reads ${grid.depth}`);
    grid.load(Array.from({ length: 5000 }, (_, i) => ({ x: (i % 71) / 71, y: i / 5000 })));
    expect(grid.depth).not.toBe(quadkit.DEFAULT_GRID_DEPTH);
    grid.clear();
    expect(grid.depth).toBe(quadkit.DEFAULT_GRID_DEPTH);
  });

  it('is at most 400 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(400);
  });
});
