// BatchPool: many queries on one StaticQuadtree, spread over worker threads that share its
// buffer (a SharedArrayBuffer: the tree is never copied per worker, nor per batch). The calling
// thread takes chunks too; answers come back in the order of the queries.

import { PackedTree } from '../engine/packed.js';
import { describe, InvalidTypeError } from '../errors.js';
import type { StaticQuadtree } from '../static-quadtree.js';
import { checkCount, checkInteger, checkOptions, maxDistanceOf } from '../validate.js';
import type { Done } from './answer.js';
import { checkShared, readQueries } from './input.js';
import {
  AT_POINT,
  abort,
  BOX,
  CIRCLE_AT,
  type Job,
  KNN,
  newControl,
  Output,
  PAIRS,
  work,
} from './kernel.js';
import { BatchResult, type BatchStats, gather, PairsResult, type Share } from './result.js';
import { cores, spawn, type UrlLike, type WorkerPort } from './runtime.js';

const POOL_OPTIONS = ['workers', 'mainThread', 'chunkSize', 'workerUrl'];

// URL is a global wherever this runs, but not in the build's lib (ES2022 without DOM or Node).
// The worker's URL is written `new URL('./worker.js', import.meta.url)` for bundlers to find.
declare const URL: new (url: string, base: string) => UrlLike;
declare global {
  interface ImportMeta {
    url: string;
  }
}

/** Options of {@link BatchPool.create}. */
export interface BatchPoolOptions {
  /** Worker threads (default: the logical cores minus one, at least 1; 0 is allowed). */
  workers?: number | undefined;
  /**
   * Whether the calling thread answers a share of each batch (default true). It is blocked
   * meanwhile: in a browser page, set false to keep the page responsive.
   */
  mainThread?: boolean | undefined;
  /** Queries a thread claims at a time (default: a 16th of a thread's share, at most 4096). */
  chunkSize?: number | undefined;
  /**
   * The worker script: by default `worker.js` beside this module (dist/batch/worker.js); set it
   * when a bundler moves that file.
   */
  workerUrl?: UrlLike | undefined;
}

/** What a pool can be made from: a tree, or its buffer from `toBuffer()`. */
export type BatchSource<T> = StaticQuadtree<T> | SharedArrayBuffer | ArrayBuffer;

// A request to a worker awaiting its reply of type `reply`.
interface Waiter {
  reply: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** The state of a pool: `open`; `closed` by `close()`; `failed` when a batch failed. */
export type BatchPoolState = 'open' | 'closed' | 'failed';

const MAX_CHUNK = 2 ** 30;
const EMPTY = new Int32Array(0);

/**
 * What `BatchPool.create` adds to the pool's type for `await using`: `[Symbol.asyncDispose]()`,
 * which closes the pool, where TypeScript's lib declares the symbol (the `esnext.disposable` lib
 * that `await using` needs, or Node's types); nothing where it does not, so the declarations
 * compile without that lib too.
 */
export type AsyncDisposal = SymbolConstructor extends {
  readonly asyncDispose: infer S extends symbol;
}
  ? Readonly<Record<S, () => Promise<void>>>
  : unknown;

/**
 * A pool of worker threads answering batches of queries on one static tree: window (`search`),
 * point (`searchPoint`), radius (`searchCircle`) and k-nearest (`nearest`) queries given as typed
 * arrays, and every overlapping pair (`pairs`). Each answer is the single-thread method's
 * answer, in the same order. Workers are started once, by `create`, and reused; `close()` stops
 * them. A failure in any thread rejects the batch with its error and stops every worker.
 * Threads claim chunks of queries from a shared counter (the work-sharing loop of OpenMP's
 * `schedule(dynamic)`), so a thread slowed by other processes takes fewer.
 *
 * @typeParam T - the item type of the tree (`number`, item indices, for a buffer).
 */
export class BatchPool<T = number> {
  /** Number of worker threads. */
  readonly workers: number;
  /** Whether the calling thread answers a share of each batch. */
  readonly mainThread: boolean;
  private readonly tree: PackedTree;
  private readonly source: () => readonly T[] | null;
  private readonly ports: WorkerPort[];
  private readonly chunkSize: number;
  private readonly waiters: (Waiter | null)[];
  private status: BatchPoolState = 'open';
  private failure: unknown = undefined;
  private stopped: Promise<void> = Promise.resolve();
  private running: Int32Array | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    tree: PackedTree,
    source: () => readonly T[] | null,
    ports: WorkerPort[],
    mainThread: boolean,
    chunkSize: number,
  ) {
    this.tree = tree;
    this.source = source;
    this.ports = ports;
    this.workers = ports.length;
    this.mainThread = mainThread;
    this.chunkSize = chunkSize;
    this.waiters = ports.map(() => null);
    ports.forEach((port, i) => {
      port.listen(
        (data) => this.onMessage(i, data),
        (error) => this.fail(error),
      );
    });
  }

  /**
   * Starts a pool on a tree: its SharedArrayBuffer when it was built with `shared: true`, else a
   * shared copy of its buffer; every worker opens it once. Resolves when every worker is ready.
   * @param source - a StaticQuadtree, or a buffer from its `toBuffer()`.
   * @param options - `{ workers, mainThread = true, chunkSize, workerUrl }`.
   */
  static async create<T = number>(
    source: BatchSource<T>,
    options: BatchPoolOptions = {},
  ): Promise<BatchPool<T> & AsyncDisposal> {
    checkShared();
    checkOptions(options, 'BatchPool.create', POOL_OPTIONS, true);
    // The tree's buffer, shared, opened (and checked) here before any worker starts.
    let buffer: ArrayBuffer | SharedArrayBuffer;
    let items: () => readonly T[] | null = () => null;
    if (source instanceof SharedArrayBuffer || source instanceof ArrayBuffer) buffer = source;
    else if (
      source !== null &&
      typeof source === 'object' &&
      typeof source.toBuffer === 'function'
    ) {
      buffer = source.toBuffer();
      let all: readonly T[] | null = null;
      items = () => (all ??= source.all());
    } else {
      throw new InvalidTypeError(
        `quadkit: BatchPool.create(source) needs a StaticQuadtree or a buffer from its toBuffer(), got ${describe(source)}`,
      );
    }
    if (!(buffer instanceof SharedArrayBuffer)) {
      const copy = new SharedArrayBuffer(buffer.byteLength);
      new Uint8Array(copy).set(new Uint8Array(buffer));
      buffer = copy;
    }
    const tree = PackedTree.open(buffer);
    // Options.
    const {
      mainThread = true,
      chunkSize = 0,
      workerUrl = new URL('./worker.js', import.meta.url),
    } = options;
    const workers = options.workers ?? Math.max(1, (await cores()) - 1);
    checkInteger('options.workers', workers, mainThread === false ? 1 : 0, 1024);
    if (typeof mainThread !== 'boolean')
      throw new InvalidTypeError(
        `quadkit: options.mainThread must be true or false, got ${describe(mainThread)}`,
      );
    if (chunkSize !== 0) checkInteger('options.chunkSize', chunkSize, 1, MAX_CHUNK);
    // The workers: started, then each opens the tree.
    const ports: WorkerPort[] = [];
    try {
      for (let i = 0; i < workers; i++) ports.push(await spawn(workerUrl));
    } catch (e) {
      await Promise.all(ports.map((p) => p.terminate()));
      throw e;
    }
    const pool = new BatchPool<T>(tree, items, ports, mainThread, chunkSize);
    try {
      await Promise.all(ports.map((_, i) => pool.request(i, { type: 'open', buffer })));
    } catch (e) {
      await pool.close();
      throw e;
    }
    pool.idle();
    // (The prototype has [Symbol.asyncDispose] where the runtime has the symbol: see below.)
    return pool as BatchPool<T> & AsyncDisposal;
  }

  /** `open`, `closed` (by `close()`) or `failed` (a batch failed; every worker is stopped). */
  get state(): BatchPoolState {
    return this.status;
  }

  /** Number of items in the tree. */
  get size(): number {
    return this.tree.size;
  }

  /**
   * Window queries: per query, the items whose bounds overlap the box, as `search` returns them.
   * @param boxes - 4 numbers per query: minX, minY, maxX, maxY.
   */
  async search(boxes: ArrayLike<number>): Promise<BatchResult<T>> {
    return this.queries(BOX, readQueries(BOX, boxes), 0, 0);
  }

  /**
   * Point queries: per query, the items whose bounds contain the point, as `searchPoint` returns.
   * @param points - 2 numbers per query: x, y.
   */
  async searchPoint(points: ArrayLike<number>): Promise<BatchResult<T>> {
    return this.queries(AT_POINT, readQueries(AT_POINT, points), 0, 0);
  }

  /**
   * Radius queries: per query, the items whose bounds meet the closed disc, as `searchCircle`.
   * @param circles - 3 numbers per query: x, y, r.
   */
  async searchCircle(circles: ArrayLike<number>): Promise<BatchResult<T>> {
    return this.queries(CIRCLE_AT, readQueries(CIRCLE_AT, circles), 0, 0);
  }

  /**
   * k-nearest queries: per query, the k items nearest to the point, nearest first, as `nearest`.
   * @param points - 2 numbers per query: x, y.
   * @param k - how many per query (default 1): an integer >= 0, or Infinity for every item within
   * `maxDistance`.
   * @param maxDistance - farthest distance included (default Infinity; null or undefined is
   * Infinity too).
   */
  async nearest(
    points: ArrayLike<number>,
    k = 1,
    maxDistance: number | null = Number.POSITIVE_INFINITY,
  ): Promise<BatchResult<T>> {
    checkCount('k', k);
    const limit = maxDistanceOf(maxDistance);
    return this.queries(KNN, readQueries(KNN, points), k, limit);
  }

  /** Every pair of items whose bounds overlap, in the order of the single-thread `pairs()`. */
  async pairs(): Promise<PairsResult<T>> {
    const { ids, stats } = await this.run(PAIRS, EMPTY_QUERIES, this.tree.size, 0, 0);
    return new PairsResult(ids, stats, this.source);
  }

  /**
   * Stops every worker; batches under way reject. Resolves once they have stopped. Also called
   * by `await using` (Symbol.asyncDispose) where the runtime has it.
   */
  close(): Promise<void> {
    if (this.status === 'open')
      this.shutdown('closed', new Error('quadkit: the BatchPool was closed'));
    return this.stopped;
  }

  private async queries(kind: number, q: Float64Array, k: number, maxDistance: number) {
    const n = q.length / (kind === BOX ? 4 : kind === CIRCLE_AT ? 3 : 2);
    const { offsets, ids, stats } = await this.run(kind, q, n, k, maxDistance);
    return new BatchResult(offsets, ids, stats, this.source);
  }

  // Runs one batch after the ones before it.
  private run(kind: number, queries: Float64Array, n: number, k: number, maxDistance: number) {
    const next = this.queue.then(() => this.execute(kind, queries, n, k, maxDistance));
    this.queue = next.catch(() => {});
    return next;
  }

  private async execute(
    kind: number,
    queries: Float64Array,
    n: number,
    k: number,
    maxDistance: number,
  ): Promise<{ offsets: Int32Array; ids: Int32Array; stats: BatchStats }> {
    if (this.status !== 'open') throw this.closedError();
    if (n === 0) {
      const stats = { mainThreadQueries: 0, workerQueries: this.ports.map(() => 0) };
      return { offsets: new Int32Array(1), ids: EMPTY, stats };
    }
    // The job, shared by every thread.
    const threads = this.workers + (this.mainThread ? 1 : 0);
    const chunk = this.chunkSize || Math.max(1, Math.min(4096, Math.ceil(n / (16 * threads))));
    const job: Job = {
      kind,
      queries,
      n,
      chunk,
      k,
      maxDistance,
      counts: new Int32Array(new SharedArrayBuffer(4 * n)),
      control: newControl(),
    };
    this.running = job.control;
    // The workers start; this thread takes chunks meanwhile.
    const replies = this.ports.map((port, i) => {
      port.hold(true);
      return this.request(i, { type: 'run', job });
    });
    const mine = new Output(this.mainThread ? 4 * chunk : 0);
    if (this.mainThread) {
      try {
        work(this.tree, job, mine);
      } catch (e) {
        this.fail(e);
      }
    }
    try {
      const done = (await Promise.all(replies)) as Done[];
      if (this.status !== 'open') throw this.closedError();
      // The answers, in query order.
      const shares: Share[] = [mine, ...done];
      const { offsets, ids } = gather(job.counts, n, chunk, kind === PAIRS ? 2 : 1, shares);
      const stats = { mainThreadQueries: mine.queries, workerQueries: done.map((d) => d.queries) };
      return { offsets, ids, stats };
    } catch (e) {
      await this.stopped;
      throw e;
    } finally {
      this.running = null;
      this.idle();
    }
  }

  // Sends a message to worker i; resolves with its reply.
  private request(
    i: number,
    message: { type: 'open'; buffer: SharedArrayBuffer } | { type: 'run'; job: Job },
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.waiters[i] = { reply: message.type === 'open' ? 'ready' : 'done', resolve, reject };
      this.ports[i]!.post(message);
    });
  }

  private onMessage(i: number, data: unknown): void {
    if (this.status !== 'open') return;
    const reply = data as { type: string; error?: unknown };
    if (reply.type === 'error') {
      this.fail(reply.error);
      return;
    }
    const waiter = this.waiters[i];
    if (waiter?.reply !== reply.type) {
      this.fail(
        new Error(`quadkit: a batch worker sent an unexpected ${String(reply.type)} message`),
      );
      return;
    }
    this.waiters[i] = null;
    waiter.resolve(data);
  }

  // Lets idle workers not keep a Node process alive.
  private idle(): void {
    if (this.status === 'open') for (const port of this.ports) port.hold(false);
  }

  // A thread failed: every worker stops, then the batch rejects with the error.
  private fail(error: unknown): void {
    if (this.status !== 'open') return;
    this.failure = error;
    this.shutdown('failed', error);
  }

  private shutdown(state: BatchPoolState, reason: unknown): void {
    this.status = state;
    if (this.running !== null) abort(this.running);
    const waiters = this.waiters.splice(0, this.waiters.length, ...this.ports.map(() => null));
    this.stopped = Promise.all(this.ports.map((p) => p.terminate().catch(() => {}))).then(() => {
      for (const w of waiters) w?.reject(reason);
    });
  }

  private closedError(): unknown {
    if (this.status === 'failed') return this.failure;
    return new Error('quadkit: the BatchPool is closed; create another');
  }
}

const EMPTY_QUERIES = new Float64Array(0);

// `await using pool = await BatchPool.create(tree)` closes the pool, where the runtime has it.
const asyncDispose = (Symbol as { asyncDispose?: symbol }).asyncDispose;
if (asyncDispose !== undefined) {
  Object.defineProperty(BatchPool.prototype, asyncDispose, {
    value(this: BatchPool<unknown>) {
      return this.close();
    },
  });
}
