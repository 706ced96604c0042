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
  return new CliError(`${file}: cannot read the file (${err.code ?? err.message})`);
}
