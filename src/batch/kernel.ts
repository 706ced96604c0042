// The work of a batch, the same on the main thread and in every worker: claim the next chunk of
// queries from a shared counter (Atomics.add), answer each query with the static tree's own
// walks (so every answer is the single-thread answer, in the same order), write its count to the
// shared `counts` and its item indices to this participant's output. Chunks are claimed, not
// dealt out in advance, so that a thread slowed by other processes simply takes fewer of them.

import { grown } from '../engine/grown.js';
import type { PackedTree } from '../engine/packed.js';
import { CIRCLE, POINT } from '../engine/scan.js';

/** Kinds of batch: the query each runs, and how many numbers each query takes (`STRIDE`). */
export const BOX = 0;
export const AT_POINT = 1;
export const CIRCLE_AT = 2;
export const KNN = 3;
export const PAIRS = 4;
export const STRIDE = [4, 2, 3, 2, 0] as const;

/** control[NEXT]: the next chunk to claim; control[ABORT]: 1 when the batch has failed. */
const NEXT = 0;
const ABORT = 1;
const INF = Number.POSITIVE_INFINITY;

/** One batch, as the main thread and the workers read it (all arrays shared). */
export interface Job {
  kind: number;
  /** STRIDE[kind] numbers per query (unused by PAIRS, whose queries are the tree's leaves). */
  queries: Float64Array;
  /** Number of queries (PAIRS: of leaves). */
  n: number;
  /** Queries per chunk. */
  chunk: number;
  k: number;
  maxDistance: number;
  /** Per query: the number of answers (PAIRS: of pairs found by that leaf). */
  counts: Int32Array;
  /** NEXT, ABORT. */
  control: Int32Array;
}

/** A new control array for a job. */
export function newControl(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(8));
}

/** Stops every participant of a job at its next chunk. */
export function abort(control: Int32Array): void {
  Atomics.store(control, ABORT, 1);
}

/**
 * What one participant answered: item indices (PAIRS: item pairs) of the chunks it took, and per
 * chunk its number, its start and its end in `ids`.
 */
export class Output {
  ids: Int32Array;
  length = 0;
  chunks = new Int32Array(48);
  numChunks = 0;
  /** Queries answered. */
  queries = 0;

  constructor(capacity: number) {
    this.ids = new Int32Array(Math.max(capacity, 64));
  }

  /** Makes room for `extra` more ids. */
  reserve(extra: number): Int32Array {
    if (this.length + extra > this.ids.length) {
      this.ids = grown(this.ids, Math.max(2 * this.ids.length, this.length + extra), this.length);
    }
    return this.ids;
  }

  /** Records chunk `c`, whose ids were written from `start`. */
  endChunk(c: number, start: number, queries: number): void {
    if (3 * this.numChunks + 3 > this.chunks.length) {
      this.chunks = grown(this.chunks, 2 * this.chunks.length);
    }
    const at = 3 * this.numChunks++;
    this.chunks[at] = c;
    this.chunks[at + 1] = start;
    this.chunks[at + 2] = this.length;
    this.queries += queries;
  }
}

/** Claims and answers chunks of `job` on `tree` until none is left (or the job is aborted). */
export function work(tree: PackedTree, job: Job, out: Output): void {
  const { control, chunk, n } = job;
  const scratch = new Float64Array(4);
  for (;;) {
    if (Atomics.load(control, ABORT) !== 0) return;
    const c = Atomics.add(control, NEXT, 1);
    const from = c * chunk;
    if (from >= n) return;
    const to = Math.min(from + chunk, n);
    const start = out.length;
    if (job.kind === PAIRS) pairChunk(tree, from, to, job.counts, out);
    else queryChunk(tree, job, from, to, scratch, out);
    out.endChunk(c, start, to - from);
  }
}

// Answers queries [from, to) of a query job.
function queryChunk(
  tree: PackedTree,
  job: Job,
  from: number,
  to: number,
  scratch: Float64Array,
  out: Output,
): void {
  const { kind, queries: q, counts } = job;
  const k = job.k;
  for (let i = from; i < to; i++) {
    // The query, through the same tree walk as the single-thread method.
    let count: number;
    if (kind === BOX) {
      count = tree.queryRect(q, 4 * i, 0, INF);
    } else if (kind === AT_POINT) {
      scratch[0] = scratch[2] = q[2 * i]!;
      scratch[1] = scratch[3] = q[2 * i + 1]!;
      count = tree.queryRect(scratch, 0, 0, INF);
    } else if (kind === CIRCLE_AT) {
      scratch[0] = q[3 * i]!;
      scratch[1] = q[3 * i + 1]!;
      scratch[2] = q[3 * i + 2]!;
      scratch[3] = 0;
      count = tree.searchShape(CIRCLE, scratch, 0);
    } else {
      scratch[0] = q[2 * i]!;
      scratch[1] = q[2 * i + 1]!;
      scratch[2] = job.maxDistance;
      count = tree.nearest(POINT, scratch, 0, k);
    }
    // Its answers, appended.
    counts[i] = count;
    const ids = out.reserve(count);
    const results = tree.results;
    let at = out.length;
    for (let j = 0; j < count; j++) ids[at++] = results[j]!;
    out.length = at;
  }
}

// Finds the pairs of leaves [from, to): each leaf with the leaves after it that overlap it (the
// walk of the tree's own `pairs`).
function pairChunk(
  tree: PackedTree,
  from: number,
  to: number,
  counts: Int32Array,
  out: Output,
): void {
  const { boxes, emit } = tree;
  for (let p = from; p < to; p++) {
    const count = tree.searchRect(boxes, 4 * p, 0, INF, tree.results, 0, p);
    const results = tree.results;
    counts[p] = count;
    const ids = out.reserve(2 * count);
    const a = emit[p]!;
    let at = out.length;
    for (let j = 0; j < count; j++) {
      ids[at++] = a;
      ids[at++] = results[j]!;
    }
    out.length = at;
  }
}
