// What a command must undo if it is interrupted (Ctrl-C) or terminated before it finishes: a
// scratch folder, a partial output file, a hidden cursor. Node's default for these signals ends
// the process at once, without `finally` blocks, so such things would be left behind.

import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const cleanups = new Set<() => void>();

/**
 * Runs `cleanup` (synchronous) if the process receives SIGINT, SIGTERM or SIGHUP, before it
 * ends as that signal would have ended it.
 * @param cleanup - undoes what the command has begun; must not throw for what is already gone.
 * @returns the function to call once the work is done or undone otherwise.
 */
export function onInterrupt(cleanup: () => void): () => void {
  if (cleanups.size === 0) {
    for (const signal of SIGNALS) process.on(signal, interrupted);
    // (An exit before the work's own cleanup, `process.exit` on a closed stdout say, runs it.)
    process.once('exit', runLeft);
  }
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
    if (cleanups.size === 0) {
      for (const signal of SIGNALS) process.off(signal, interrupted);
      process.off('exit', runLeft);
    }
  };
}

function interrupted(signal: NodeJS.Signals): void {
  for (const s of SIGNALS) process.off(s, interrupted);
  runLeft();
  // With no listener left, the signal's default action ends the process (exit status 128 + n).
  process.kill(process.pid, signal);
}

// Runs the cleanups still registered, once.
function runLeft(): void {
  process.off('exit', runLeft);
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // (The process is ending: the other cleanups still run.)
    }
  }
  cleanups.clear();
}

/**
 * Creates (or empties) a file at once, before any signal can be handled: a file created by an
 * asynchronous call could appear after an interrupt's cleanup has run, and be left behind. The
 * caller then opens it for writing with flag `r+`.
 * @param path - the file.
 */
export function createNow(path: string): void {
  closeSync(openSync(path, 'w'));
}

/** A scratch folder removed when the work ends or is interrupted. */
export interface Scratch {
  /** The folder's path. */
  readonly path: string;
  /** Removes the folder (and what `also` removes) and stops watching for signals. */
  remove(): void;
}

/**
 * Makes a scratch folder in the temporary directory, removed with what `also` removes if the
 * process is interrupted first. The cleanup is in place before the folder exists: a signal
 * that comes while it is made is handled once it is.
 * @param prefix - the start of the folder's name (`quadkit-`).
 * @param also - more to remove if interrupted (a partial output file).
 */
export function scratchFolder(prefix: string, also: () => void = () => {}): Scratch {
  let path = '';
  const removeFolder = () => {
    if (path !== '') rmSync(path, { recursive: true, force: true });
  };
  const release = onInterrupt(() => {
    removeFolder();
    also();
  });
  path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    remove() {
      removeFolder();
      release();
    },
  };
}
