// The one error the command reports as a message (no stack): the user's input or arguments are
// wrong, and the text says where and how to fix it.

/** An error in the user's input or arguments; the command prints its message and exits 1. */
export class CliError extends Error {
  override name = 'CliError';
}
