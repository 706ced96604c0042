import { type FileHandle, open } from 'node:fs/promises';
import { isSampleName } from './samples.js';

// The one error the command reports as a message (no stack): the user's input or arguments are
// wrong, and the text says where and how to fix it.

/** An error in the user's input or arguments; the command prints its message and exits 1. */
export class CliError extends Error {
  override name = 'CliError';
}

/**
 * The error for a file that cannot be opened or read.
 * @param file - the file's path.
 * @param e - the error of the file system call.
 */
export function unreadable(file: string, e: unknown): CliError {
  const err = e as NodeJS.ErrnoException;
  // (The examples' files: a newcomer who copies one before `quadkit sample` is told where they are.)
  const hint =
    err.code === 'ENOENT' && isSampleName(file)
      ? '; `quadkit sample` writes the sample files into the current folder'
      : '';
  return new CliError(`${file}: cannot read the file (${err.code ?? err.message})${hint}`);
}

/**
 * Opens a file to read, or throws the CliError that names it: one that cannot be opened, or a
 * folder (which opens, then fails on its first read with no name in the system's error).
 * @param file - the file's path.
 */
export async function openToRead(file: string): Promise<FileHandle> {
  const handle = await open(file, 'r').catch((e: unknown) => {
    throw unreadable(file, e);
  });
  const folder = await handle.stat().then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (folder) {
    await handle.close();
    throw new CliError(`${file}: is a folder; give a file`);
  }
  return handle;
}
