// The answers of a batch, gathered from every thread into the caller's order: per query, its
// item indices, in flat typed arrays with offsets (compressed sparse rows).

import { InvalidValueError } from '../errors.js';

/** A thread's share of a batch: ids, and per chunk its number, start and end in them. */
export interface Share {
  ids: Int32Array;
  chunks: Int32Array;
  numChunks: number;
}

/**
 * Puts the shares in query order: `offsets` from the per-query `counts`, then each chunk's ids
 * copied to its place (`width` ids per answer: 1, or 2 for pairs).
 */
export function gather(
  counts: Int32Array,
  n: number,
  chunk: number,
  width: number,
  shares: readonly Share[],
): { offsets: Int32Array; ids: Int32Array } {
  // Offsets: a prefix sum of the counts.
  const offsets = new Int32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += counts[i]!;
    offsets[i + 1] = total;
  }
  if (total * width > 2 ** 31 - 1) {
    throw new InvalidValueError(
      `quadkit: the batch found ${total} answers, more than one Int32Array holds; split the queries`,
    );
  }
  // Each chunk's ids, copied to where its first query's answers start.
  const ids = new Int32Array(total * width);
  for (const { ids: from, chunks, numChunks } of shares) {
    for (let c = 0; c < 3 * numChunks; c += 3) {
      ids.set(from.subarray(chunks[c + 1]!, chunks[c + 2]!), width * offsets[chunks[c]! * chunk]!);
    }
  }
  return { offsets, ids };
}

/** How a batch was shared out: queries answered by the calling thread and by each worker. */
export interface BatchStats {
  /** Queries answered on the calling thread (for `pairs`: leaves of the tree). */
  readonly mainThreadQueries: number;
  /** Queries answered by each worker, in pool order. */
  readonly workerQueries: readonly number[];
}

/**
 * The answers of a batch of queries, in the order of the queries: the item indices of query i are
 * `indices[offsets[i]]` up to `indices[offsets[i + 1]]` (exclusive), in the order the
 * single-thread method returns them.
 *
 * @typeParam T - the item type of the tree the pool was made from.
 */
export class BatchResult<T = number> implements BatchStats {
  /** `length + 1` offsets into `indices`. */
  readonly offsets: Int32Array;
  /** Item indices (positions in the items the tree was built from), query after query. */
  readonly indices: Int32Array;
  readonly mainThreadQueries: number;
  readonly workerQueries: readonly number[];
  private readonly source: () => readonly T[] | null;

  /** @internal */
  constructor(
    offsets: Int32Array,
    indices: Int32Array,
    stats: BatchStats,
    source: () => readonly T[] | null,
  ) {
    this.offsets = offsets;
    this.indices = indices;
    this.mainThreadQueries = stats.mainThreadQueries;
    this.workerQueries = stats.workerQueries;
    this.source = source;
  }

  /** Number of queries. */
  get length(): number {
    return this.offsets.length - 1;
  }

  /**
   * The item indices of one query: a view into `indices`, no copy.
   * @param i - the query's position in the batch.
   */
  indicesOf(i: number): Int32Array {
    return this.indices.subarray(this.offsets[i], this.offsets[i + 1]);
  }

  /**
   * The items of one query, as the single-thread method returns them (item indices for a tree
   * built from raw coordinates or opened from a buffer).
   * @param i - the query's position in the batch.
   */
  items(i: number): T[] {
    const ids = this.indicesOf(i);
    const items = this.source();
    const out = new Array<T>(ids.length);
    for (let j = 0; j < ids.length; j++) out[j] = items === null ? (ids[j]! as T) : items[ids[j]!]!;
    return out;
  }
}

/**
 * Every pair of items whose bounds overlap, two item indices per pair, in the order of the
 * single-thread `pairs()` callback.
 *
 * @typeParam T - the item type of the tree the pool was made from.
 */
export class PairsResult<T = number> implements BatchStats {
  /** Item indices, a, b, a, b, ... */
  readonly pairs: Int32Array;
  readonly mainThreadQueries: number;
  readonly workerQueries: readonly number[];
  private readonly source: () => readonly T[] | null;

  /** @internal */
  constructor(pairs: Int32Array, stats: BatchStats, source: () => readonly T[] | null) {
    this.pairs = pairs;
    this.mainThreadQueries = stats.mainThreadQueries;
    this.workerQueries = stats.workerQueries;
    this.source = source;
  }

  /** Number of pairs. */
  get length(): number {
    return this.pairs.length / 2;
  }

  /** The pairs as items, `[a, b]` each. */
  itemPairs(): [T, T][] {
    const { pairs } = this;
    const items = this.source();
    const out = new Array<[T, T]>(pairs.length / 2);
    for (let j = 0; j < pairs.length; j += 2) {
      const a = pairs[j]!;
      const b = pairs[j + 1]!;
      out[j / 2] = items === null ? [a as T, b as T] : [items[a]!, items[b]!];
    }
    return out;
  }
}
