// A progress bar on stderr for long work, shown only when stderr is a terminal (and not with
// --quiet): piped or redirected runs stay quiet (and do not load the bar's module).
import type { Io } from './io.js';
import { onInterrupt } from './signals.js';

/** Reports progress through some total (bytes of a file, or items). */
export interface Progress {
  /** Sets how far the work has come. */
  update(done: number): void;
  /** Removes the bar. */
  stop(): void;
}

const SILENT: Progress = { update() {}, stop() {} };

/**
 * A progress bar for `total` units of work labelled `label`, or a silent one when stderr is not
 * a terminal or `quiet` is set.
 * @param label - what is being done (`indexing cities.csv`).
 * @param total - the amount of work, in the units `update` receives.
 * @param quiet - no bar whatever the terminal.
 * @param stream - where the bar is drawn (standard error).
 */
export async function progress(
  label: string,
  total: number,
  quiet = false,
  stream: Io['stderr'] = process.stderr,
): Promise<Progress> {
  if (quiet || !stream.isTTY || !(total > 0)) return SILENT;
  const { SingleBar } = await import('cli-progress');
  const bar = new SingleBar({
    format: `${label} [{bar}] {percentage}% | {eta_formatted} left`,
    stream: stream as NodeJS.WritableStream,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 50,
  });
  bar.start(total, 0);
  // (The bar hides the cursor: an interrupt must give it back to the terminal.)
  const release = onInterrupt(() => bar.stop());
  let last = 0;
  return {
    update(done) {
      // Redraws are throttled to whole-percent steps: a bar must not slow the work it reports.
      if (done - last < total / 100 && done < total) return;
      last = done;
      bar.update(done);
    },
    stop() {
      bar.stop();
      release();
    },
  };
}
