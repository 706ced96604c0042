// The streams a run of the command reads and writes: the process's own when run as `quadkit`,
// others when `main` is called from a program (or a test) that collects what it writes.
import type { Readable, Writable } from 'node:stream';

/** Standard input, output and error of one run of the command. */
export interface Io {
  /** Read for the input file `-`. */
  stdin: Readable & { isTTY?: boolean };
  /** The command's answer. */
  stdout: Writable & { isTTY?: boolean; columns?: number };
  /** Messages, errors and the progress bar (drawn only when this is a terminal). */
  stderr: Writable & { isTTY?: boolean; columns?: number };
}

/** The process's own standard streams. */
export function processIo(): Io {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
}
