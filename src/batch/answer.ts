// The worker's side of the batch protocol, apart from the worker script so that it can be
// wrapped. Messages from the pool, one reply each:
//   { type: 'open', buffer }  -> { type: 'ready' }   (opens the shared tree once per worker)
//   { type: 'run', job }      -> { type: 'done', ids, length, chunks, numChunks, queries }
// A failure replies { type: 'error', error } (see `serve` in runtime.ts).

import { PackedTree } from '../engine/packed.js';
import { abort, type Job, Output, work } from './kernel.js';
import type { Reply } from './runtime.js';

/** A finished share of a batch, as a worker sends it back (`ids` and `chunks` transferred). */
export interface Done {
  type: 'done';
  ids: Int32Array;
  length: number;
  chunks: Int32Array;
  numChunks: number;
  queries: number;
}

let tree: PackedTree | null = null;

/** Answers one message from the pool; throws on a failure. */
export function answer(message: unknown): Reply {
  const m = message as { type: string; buffer?: SharedArrayBuffer; job?: Job };
  if (m.type === 'open') {
    tree = PackedTree.open(m.buffer!);
    return { message: { type: 'ready' }, transfer: [] };
  }
  if (m.type === 'run' && tree !== null) {
    const job = m.job!;
    const out = new Output(job.chunk * 4);
    try {
      work(tree, job, out);
    } catch (e) {
      // Stop the other threads at their next chunk: the batch has failed.
      abort(job.control);
      throw e;
    }
    const done: Done = {
      type: 'done',
      ids: out.ids,
      length: out.length,
      chunks: out.chunks,
      numChunks: out.numChunks,
      queries: out.queries,
    };
    return {
      message: done,
      transfer: [out.ids.buffer as ArrayBuffer, out.chunks.buffer as ArrayBuffer],
    };
  }
  throw new Error(`quadkit: a batch worker got an unknown message ${String(m.type)}`);
}
