// The garbage collector for tests that check what is kept or allocated: V8's gc, exposed at
// runtime, and a wait for pending callbacks.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A function that runs a full garbage collection (V8's gc, exposed at runtime). */
export function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Lets pending callbacks (such as PerformanceObserver deliveries) run, and ends the current job. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
  await new Promise<void>((r) => setTimeout(r, 20));
}
