// Two ways to run the command in tests: in this process through `main` (quick: no node to start,
// the same code path from the argument parser down), and as a real process through its launcher
// (for what only a process has: its exit status, signals, a closed pipe, a small heap).
import { execFile } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../src/main.js';

/** The command's launcher (it runs the compiled dist/: `npm run build` first). */
export const BIN = fileURLToPath(new URL('../bin/quadkit.js', import.meta.url));

/** What one run of the command gave. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

// A stream that keeps what is written to it.
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    highWaterMark: 1 << 20,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Runs the command in this process with its arguments, `input` (when given) as its standard
 * input; never throws for a failed command.
 * @param args - the arguments after `quadkit`.
 * @param input - standard input (default: empty).
 */
export async function quadkit(args: string[], input?: string | Buffer): Promise<Run> {
  const stdout = collector();
  const stderr = collector();
  const stdin = Readable.from(input === undefined ? [] : [Buffer.from(input)]);
  const code = await main(args, { stdin, stdout: stdout.stream, stderr: stderr.stream });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * Runs `fn` with the temporary directory (where the command makes its scratch folders) set to
 * `tmp`, as TMPDIR would set it for a process.
 * @param tmp - the folder.
 * @param fn - what to run.
 */
export async function withTmp<T>(tmp: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

/**
 * Runs the command as a process with its arguments; never throws on a non-zero exit.
 * @param args - the arguments after `quadkit`.
 * @param options - node's own flags, standard input, the temporary directory.
 */
export function subprocess(
  args: string[],
  options: { nodeArgs?: string[]; input?: string | Buffer; tmp?: string } = {},
): Promise<Run> {
  const { nodeArgs = [], input, tmp } = options;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...nodeArgs, BIN, ...args],
      {
        maxBuffer: 1 << 30,
        env: tmp === undefined ? process.env : { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp },
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin!.end(input);
  });
}

/** The lines of newline-delimited JSON, parsed. */
export const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
