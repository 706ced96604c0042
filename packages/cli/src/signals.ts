// What a command must undo if it is interrupted (Ctrl-C) or terminated before it finishes: a
// scratch folder, a partial output file, a hidden cursor. Node's default for these signals ends
// the process at once, without `finally` blocks, so such things would be left behind.

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const cleanups = new Set<() => void>();

/**
 * Runs `cleanup` (synchronous) if the process receives SIGINT, SIGTERM or SIGHUP, before it
 * ends as that signal would have ended it.
 * @param cleanup - undoes what the command has begun; must not throw for what is already gone.
 * @returns the function to call once the work is done or undone otherwise.
 */
export function onInterrupt(cleanup: () => void): () => void {
  if (cleanups.size === 0) for (const signal of SIGNALS) process.on(signal, interrupted);
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
    if (cleanups.size === 0) for (const signal of SIGNALS) process.off(signal, interrupted);
  };
}

function interrupted(signal: NodeJS.Signals): void {
  for (const s of SIGNALS) process.off(s, interrupted);
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // (The process is ending: the other cleanups still run.)
    }
  }
  cleanups.clear();
  // With no listener left, the signal's default action ends the process (exit status 128 + n).
  process.kill(process.pid, signal);
}
