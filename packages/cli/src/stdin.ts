// Standard input as an input file (`-`): copied to a scratch file as it arrives, so that it is
// read as any file is (its format found from its first bytes, a small GeoJSON document parsed
// whole, a CSV's delimiter read off its header) and never held in memory.
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CliError } from './errors.js';
import type { Io } from './io.js';
import { createNow, scratchFolder } from './signals.js';

/** The input file argument that means standard input. */
export const STDIN = '-';

/** What messages call standard input. */
export const STDIN_NAME = 'stdin';

/** Standard input copied to a file, and the function that removes the file. */
export interface Spool {
  /** The file's path. */
  path: string;
  /** Removes the file (and its folder). */
  dispose(): void;
}

/**
 * Copies all of standard input to a scratch file (removed by `dispose`, or if the process is
 * interrupted first). It can be read once: `join` refuses `-` for both of its files.
 * @param input - the stream to copy (the process's standard input, or what `main` was given).
 */
export async function spoolStdin(input: Io['stdin'] = process.stdin): Promise<Spool> {
  if (input.isTTY)
    throw new CliError(
      'standard input (-) is a terminal: pipe the data in, e.g. cat cities.csv | quadkit query - --bbox …',
    );
  const folder = scratchFolder('quadkit-stdin-');
  const spool = { path: join(folder.path, STDIN_NAME), dispose: () => folder.remove() };
  try {
    createNow(spool.path);
    await pipeline(input, createWriteStream(spool.path, { flags: 'r+' }));
  } catch (e) {
    spool.dispose();
    throw new CliError(
      `${STDIN_NAME}: cannot copy standard input to a scratch file in the temporary folder (${(e as NodeJS.ErrnoException).code ?? e})`,
    );
  }
  return spool;
}

/**
 * How messages name an input file: `stdin` for `-`, else the path as given.
 * @param file - the input file argument.
 */
export function displayName(file: string): string {
  return file === STDIN ? STDIN_NAME : file;
}
