// The batch worker script (dist/batch/worker.js): answers the pool's messages with `answer`.
// Runs as a Node worker thread or as a module Web Worker.

import { answer } from './answer.js';
import { serve } from './runtime.js';

await serve(answer);
