// BatchPool: every batch kind against the single-thread methods of the same tree (same items,
// same queries, same order), on seeded random data and degenerate trees; bad input; a worker
// that throws or crashes (the batch rejects with its error and no worker is left running); close.
//
// The pool's workers run dist-like JavaScript: test/transpile.ts transpiles src/ into a
// temporary directory (no build step), and the tests import the pool from there, so that its
// default worker URL (worker.js beside pool.js) resolves. Trees and single-thread answers come
// from src/ as usual; the pool takes any StaticQuadtree (or its buffer).
import { createHook } from 'node:async_hooks';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError, StaticQuadtree } from '../../src/index.js';
import {
  type IdItem as Item,
  itemsOfBoxes as itemsOf,
  mulberry32,
  type Rng,
  randInt,
} from '../oracle.js';
import { type TranspiledLibrary, transpileLibrary } from '../transpile.js';

type Batch = typeof import('../../src/batch/index.js');
type PoolOptions = Parameters<Batch['BatchPool']['create']>[1];
type Pool<T> = import('../../src/batch/index.js').BatchPool<T>;
type Result<T> = import('../../src/batch/index.js').BatchResult<T>;

let lib: TranspiledLibrary | null = null;
let batch: Batch;

// Worker scripts that fail, beside the transpiled worker.js: one throws from its answer to a
// batch (the error travels back), one crashes instead of answering (an uncaught error).
const FAULTY = `import { answer } from './answer.js';
import { serve } from './runtime.js';
await serve((m) => {
  if (m.type === 'run') throw new RangeError('injected fault in a batch worker');
  return answer(m);
});
`;
const CRASHING = `import { parentPort } from 'node:worker_threads';
import { answer } from './answer.js';
parentPort.on('message', (m) => {
  if (m.type === 'run') setTimeout(() => { throw new TypeError('injected crash'); });
  else parentPort.postMessage(answer(m).message);
});
`;

beforeAll(async () => {
  lib = transpileLibrary('quadkit-batch-');
  writeFileSync(join(lib.dir, 'batch', 'faulty-worker.js'), FAULTY);
  writeFileSync(join(lib.dir, 'batch', 'crashing-worker.js'), CRASHING);
  batch = (await import(pathToFileURL(join(lib.dir, 'batch', 'index.js')).href)) as Batch;
}, 30_000);

afterAll(() => {
  lib?.remove();
});

// Worker threads alive in this process (async_hooks WORKER resources): a terminated worker's
// resource is destroyed soon after it exits.
const liveWorkers = new Set<number>();
createHook({
  init(id, type) {
    if (type === 'WORKER') liveWorkers.add(id);
  },
  destroy(id) {
    liveWorkers.delete(id);
  },
}).enable();

/** Waits (up to 2 s) for every worker started since `before` to be gone; returns those left. */
async function workersLeft(before: ReadonlySet<number>): Promise<number> {
  const started = () => [...liveWorkers].filter((id) => !before.has(id)).length;
  for (let i = 0; i < 200 && started() > 0; i++) await new Promise((r) => setTimeout(r, 10));
  return started();
}

// ---------------------------------------------------------------------------------------------
// Data: coordinates on a 1/8 grid, so that a box's x + width is exactly its maxX
// ---------------------------------------------------------------------------------------------

const coord = (rng: Rng, lo: number, hi: number): number => randInt(rng, 8 * lo, 8 * hi) / 8;

/** n boxes (minX, minY, maxX, maxY), some of them points, in [0, world]. */
function randomBoxes(rng: Rng, n: number, world: number): Float64Array {
  const out = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    const x = coord(rng, 0, world);
    const y = coord(rng, 0, world);
    const point = rng() < 0.3;
    out.set([x, y, x + (point ? 0 : coord(rng, 0, 6)), y + (point ? 0 : coord(rng, 0, 6))], 4 * i);
  }
  return out;
}

/** Query arrays of every kind, some queries outside the world and some of zero size. */
function randomQueries(rng: Rng, n: number, world: number) {
  const boxes = new Float64Array(4 * n);
  const points = new Float64Array(2 * n);
  const circles = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const x = coord(rng, -10, world + 10);
    const y = coord(rng, -10, world + 10);
    const size = rng() < 0.1 ? 0 : coord(rng, 0, world / 5);
    boxes.set([x, y, x + size, y + coord(rng, 0, world / 5)], 4 * i);
    points.set([x, y], 2 * i);
    circles.set([x, y, size / 2], 3 * i);
  }
  return { boxes, points, circles };
}

// ---------------------------------------------------------------------------------------------
// The single-thread answers
// ---------------------------------------------------------------------------------------------

type Kind = 'search' | 'searchPoint' | 'searchCircle' | 'nearest';

/** Every query of a kind, through the single-thread method, as item ids. */
function singleThread<T>(
  tree: StaticQuadtree<T>,
  id: (item: T) => number,
  kind: Kind,
  q: Float64Array,
  k = 1,
  maxDistance = Number.POSITIVE_INFINITY,
): number[][] {
  const out: number[][] = [];
  if (kind === 'search') {
    for (let i = 0; i < q.length; i += 4) {
      const rect = {
        x: q[i]!,
        y: q[i + 1]!,
        width: q[i + 2]! - q[i]!,
        height: q[i + 3]! - q[i + 1]!,
      };
      out.push(tree.search(rect).map(id));
    }
  } else if (kind === 'searchCircle') {
    for (let i = 0; i < q.length; i += 3)
      out.push(tree.searchCircle(q[i]!, q[i + 1]!, q[i + 2]!).map(id));
  } else {
    for (let i = 0; i < q.length; i += 2) {
      const answer =
        kind === 'nearest'
          ? tree.nearest(q[i]!, q[i + 1]!, k, maxDistance)
          : tree.searchPoint(q[i]!, q[i + 1]!);
      out.push(answer.map(id));
    }
  }
  return out;
}

function singleThreadPairs<T>(tree: StaticQuadtree<T>, id: (item: T) => number): number[] {
  const out: number[] = [];
  tree.pairs((a, b) => {
    out.push(id(a), id(b));
  });
  return out;
}

/** A batch result as one list of item indices per query, checking its offsets on the way. */
function perQuery<T>(result: Result<T>): number[][] {
  expect(result.offsets[0]).toBe(0);
  expect(result.offsets[result.length]).toBe(result.indices.length);
  return Array.from({ length: result.length }, (_, i) => Array.from(result.indicesOf(i)));
}

/** Checks that the work of a batch of n queries adds up over the threads. */
function expectShared<T>(result: Result<T>, n: number, workers: number, mainThread = true): void {
  expect(result.workerQueries).toHaveLength(workers);
  const total = result.workerQueries.reduce((a, b) => a + b, 0) + result.mainThreadQueries;
  expect(total).toBe(n);
  if (!mainThread) expect(result.mainThreadQueries).toBe(0);
  if (workers === 0) expect(result.mainThreadQueries).toBe(n);
}

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

const repeated = (n: number, x: number, y: number): Float64Array => {
  const out = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) out.set([x, y, x, y], 4 * i);
  return out;
};

// Trees to batch over: random boxes, with duplicate points, one repeated point, 1 and 0 items.
const DATASETS: { name: string; boxes: () => Float64Array; nodeSize: number }[] = [
  { name: '3000 random boxes', boxes: () => randomBoxes(mulberry32(1), 3000, 200), nodeSize: 16 },
  {
    name: '800 boxes, half of them duplicated',
    boxes: () => {
      const b = randomBoxes(mulberry32(2), 400, 60);
      const out = new Float64Array(2 * b.length);
      out.set(b);
      out.set(b, b.length);
      return out;
    },
    nodeSize: 4,
  },
  { name: 'one point repeated 300 times', boxes: () => repeated(300, 12.5, -3), nodeSize: 8 },
  { name: '1 item', boxes: () => Float64Array.of(1, 2, 3, 4), nodeSize: 16 },
  { name: '0 items', boxes: () => new Float64Array(0), nodeSize: 16 },
];

describe.each(DATASETS)('BatchPool on $name (main thread + 2 workers)', ({ boxes, nodeSize }) => {
  let tree: StaticQuadtree<Item>;
  let pool: Pool<Item>;
  const id = (item: Item): number => item.id;
  const queries = randomQueries(mulberry32(7), 500, 200);

  beforeAll(async () => {
    tree = StaticQuadtree.from(itemsOf(boxes()), { nodeSize, shared: true });
    // Small chunks: every thread takes many, interleaved.
    pool = await batch.BatchPool.create(tree, { workers: 2, chunkSize: 7 });
  }, 30_000);

  afterAll(async () => {
    await pool.close();
  });

  it('search(boxes) returns, per query, the items search(rect) returns, in query order', async () => {
    const result = await pool.search(queries.boxes);
    expect(perQuery(result)).toEqual(singleThread(tree, id, 'search', queries.boxes));
    expectShared(result, 500, 2);
  });

  it('searchPoint(points) returns, per query, the items searchPoint(x, y) returns', async () => {
    const result = await pool.searchPoint(queries.points);
    expect(perQuery(result)).toEqual(singleThread(tree, id, 'searchPoint', queries.points));
    expectShared(result, 500, 2);
  });

  it('searchCircle(circles) returns, per query, the items searchCircle(x, y, r) returns', async () => {
    const result = await pool.searchCircle(queries.circles);
    expect(perQuery(result)).toEqual(singleThread(tree, id, 'searchCircle', queries.circles));
    expectShared(result, 500, 2);
  });

  it.each([
    [1, Number.POSITIVE_INFINITY],
    [10, Number.POSITIVE_INFINITY],
    [5, 7.5],
    [0, Number.POSITIVE_INFINITY],
    [100_000, 3],
  ])(
    'nearest(points, %d, %d) returns the items nearest(x, y, k, maxDistance) returns, in the same order',
    async (k, maxDistance) => {
      const result = await pool.nearest(queries.points, k, maxDistance);
      expect(perQuery(result)).toEqual(
        singleThread(tree, id, 'nearest', queries.points, k, maxDistance),
      );
      expectShared(result, 500, 2);
    },
  );

  it('items(i) returns the same items (the same objects) as the single-thread method', async () => {
    const result = await pool.nearest(queries.points, 3);
    for (let i = 0; i < 500; i += 37) {
      expect(result.items(i)).toEqual(
        tree.nearest(queries.points[2 * i]!, queries.points[2 * i + 1]!, 3),
      );
      for (const item of result.items(i)) expect(tree.all()).toContain(item);
    }
  });

  it('pairs() returns the pairs pairs(callback) calls back with, in the same order', async () => {
    const result = await pool.pairs();
    expect(Array.from(result.pairs)).toEqual(singleThreadPairs(tree, id));
    expect(result.length).toBe(singleThreadPairs(tree, id).length / 2);
    const objects: [Item, Item][] = [];
    tree.pairs((a, b) => {
      objects.push([a, b]);
    });
    expect(result.itemPairs()).toEqual(objects);
    expect(result.mainThreadQueries + result.workerQueries.reduce((a, b) => a + b, 0)).toBe(
      tree.size,
    );
  });

  it('a batch of 1 query answers it; an empty batch resolves to empty results', async () => {
    const one = await pool.nearest(queries.points.subarray(0, 2), 4);
    expect(perQuery(one)).toEqual(
      singleThread(tree, id, 'nearest', queries.points.subarray(0, 2), 4),
    );
    expectShared(one, 1, 2);
    const empty = await pool.search(new Float64Array(0));
    expect(empty.length).toBe(0);
    expect(Array.from(empty.offsets)).toEqual([0]);
    expect(empty.indices).toHaveLength(0);
    expect(empty.mainThreadQueries).toBe(0);
    expect(empty.workerQueries).toEqual([0, 0]);
  });
});

describe('BatchPool thread arrangements and sources', () => {
  const raw = randomBoxes(mulberry32(11), 5000, 300);
  const tree = StaticQuadtree.fromBoxes(raw, { nodeSize: 8 });
  const queries = randomQueries(mulberry32(12), 3000, 300);
  const id = (i: number): number => i;
  const want = singleThread(tree, id, 'nearest', queries.points, 10);

  it.each([
    { workers: 0, mainThread: true },
    { workers: 1, mainThread: true },
    { workers: 2, mainThread: false },
  ])(
    'with $workers workers (main thread: $mainThread) nearest answers like the single thread',
    async ({ workers, mainThread }) => {
      const pool = await batch.BatchPool.create(tree, { workers, mainThread });
      try {
        const result = await pool.nearest(queries.points, 10);
        expect(perQuery(result)).toEqual(want);
        expectShared(result, 3000, workers, mainThread);
      } finally {
        await pool.close();
      }
    },
  );

  it('a pool over a buffer from toBuffer() (shared or not) answers like the tree', async () => {
    const shared = StaticQuadtree.fromBoxes(raw, { nodeSize: 8, shared: true }).toBuffer();
    for (const buffer of [shared, tree.toBuffer()]) {
      const pool = await batch.BatchPool.create(buffer, { workers: 1 });
      try {
        expect(pool.size).toBe(5000);
        const result = await pool.search(queries.boxes);
        expect(perQuery(result)).toEqual(singleThread(tree, id, 'search', queries.boxes));
        expect(result.items(3)).toEqual(
          tree.search({
            x: queries.boxes[12]!,
            y: queries.boxes[13]!,
            width: queries.boxes[14]! - queries.boxes[12]!,
            height: queries.boxes[15]! - queries.boxes[13]!,
          }),
        );
      } finally {
        await pool.close();
      }
    }
  });

  it('a pool works in `node --input-type=module -e` (its workers do not inherit that flag)', async () => {
    const url = (file: string) => pathToFileURL(join(lib!.dir, file)).href;
    const script = `
      const { StaticQuadtree } = await import(${JSON.stringify(url('index.js'))});
      const { BatchPool } = await import(${JSON.stringify(url('batch/index.js'))});
      const pool = await BatchPool.create(StaticQuadtree.fromPoints([1, 2, 8, 9]), {
        workers: 1,
        mainThread: false,
      });
      const r = await pool.nearest([9, 9, 0, 0]);
      console.log(JSON.stringify([Array.from(r.indices), r.workerQueries]));
      await pool.close();`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(JSON.parse(stdout)).toEqual([[1, 0], [2]]);
  });

  it('batches sent together are answered one after the other, each in its own order', async () => {
    const pool = await batch.BatchPool.create(tree, { workers: 2, chunkSize: 5 });
    try {
      const [a, b, c] = await Promise.all([
        pool.nearest(queries.points, 10),
        pool.searchCircle(queries.circles),
        pool.nearest(queries.points.subarray(0, 20), 10),
      ]);
      expect(perQuery(a)).toEqual(want);
      expect(perQuery(b)).toEqual(singleThread(tree, id, 'searchCircle', queries.circles));
      expect(perQuery(c)).toEqual(want.slice(0, 10));
    } finally {
      await pool.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Bad input, failures, close
// ---------------------------------------------------------------------------------------------

describe('BatchPool bad input', () => {
  const tree = StaticQuadtree.fromBoxes(randomBoxes(mulberry32(21), 200, 50));
  let pool: Pool<number>;

  beforeAll(async () => {
    pool = await batch.BatchPool.create(tree, { workers: 1 });
  }, 30_000);

  afterAll(async () => {
    await pool.close();
  });

  it('bad query arrays reject with an InvalidValueError (a RangeError) or InvalidTypeError (a TypeError) naming the argument and the value', async () => {
    await expect(pool.nearest(new Float64Array(3))).rejects.toThrow(RangeError);
    await expect(pool.searchPoint(['1' as unknown as number, 2])).rejects.toThrow(TypeError);
    await expect(pool.nearest(new Float64Array(3))).rejects.toThrow(
      new InvalidValueError(
        'quadkit: points must hold 2 numbers per query (x, y); its length 3 is not a multiple of 2',
      ),
    );
    await expect(pool.nearest(Float64Array.of(1, 2, 3, Number.NaN))).rejects.toThrow(
      new InvalidValueError('quadkit: points[3] (y of query 1) must be a finite number, got NaN'),
    );
    await expect(pool.searchPoint([1, '2' as unknown as number])).rejects.toThrow(
      new InvalidTypeError('quadkit: points[1] (y of query 0) must be a finite number, got "2"'),
    );
    await expect(pool.search({ length: 4 } as ArrayLike<number>)).rejects.toThrow(TypeError);
    await expect(pool.search(null as unknown as ArrayLike<number>)).rejects.toThrow(
      /boxes must be a Float64Array .* got null/,
    );
    await expect(pool.search(Float64Array.of(0, 0, 1, 1, 5, 0, 4, 1))).rejects.toThrow(
      new InvalidValueError(
        'quadkit: boxes query 1 must have minX <= maxX and minY <= maxY, got [5, 0, 4, 1]',
      ),
    );
    await expect(pool.searchCircle(Float64Array.of(0, 0, -1))).rejects.toThrow(
      new InvalidValueError('quadkit: circles[2] (r of query 0) must be >= 0, got -1'),
    );
    await expect(
      pool.searchCircle(Float64Array.of(0, 0, Number.POSITIVE_INFINITY)),
    ).rejects.toThrow(/circles\[2\] \(r of query 0\) must be a finite number, got Infinity/);
    await expect(pool.nearest(Float64Array.of(0, 0), 1.5)).rejects.toThrow(/k must be an integer/);
    await expect(pool.nearest(Float64Array.of(0, 0), 1, -1)).rejects.toThrow(
      /maxDistance must be a number >= 0/,
    );
    await expect(pool.nearest(Float64Array.of(0, 0), 1, '1' as never)).rejects.toThrow(
      new InvalidTypeError(
        'quadkit: maxDistance must be a number >= 0 (Infinity allowed), got "1"',
      ),
    );
    // A null or undefined maxDistance is Infinity, as the single-thread nearest takes it.
    for (const d of [null, undefined]) {
      const far = await pool.nearest(Float64Array.of(1, 1), 3, d);
      expect(perQuery(far)).toEqual([tree.nearest(1, 1, 3)]);
    }
    // The pool is unharmed.
    expect(pool.state).toBe('open');
    const result = await pool.nearest(Float64Array.of(1, 1), 2);
    expect(perQuery(result)).toEqual([tree.nearest(1, 1, 2)]);
  });

  it('create() refuses a source that is not a tree or its buffer, bad options, a worker script that does not load and a corrupted buffer', async () => {
    const before = new Set(liveWorkers);
    await expect(batch.BatchPool.create({} as unknown as ArrayBuffer)).rejects.toThrow(TypeError);
    await expect(
      batch.BatchPool.create(tree, { worker: 1 } as unknown as PoolOptions),
    ).rejects.toThrow(
      /unknown option "worker" for BatchPool.create; known options: workers, mainThread, chunkSize, workerUrl/,
    );
    await expect(batch.BatchPool.create(tree, null as unknown as PoolOptions)).rejects.toThrow(
      TypeError,
    );
    await expect(batch.BatchPool.create(tree, { workers: -1 })).rejects.toThrow(
      /options.workers must be an integer from 0/,
    );
    await expect(batch.BatchPool.create(tree, { workers: 0, mainThread: false })).rejects.toThrow(
      /options.workers must be an integer from 1/,
    );
    await expect(batch.BatchPool.create(tree, { workers: 1, chunkSize: 0.5 })).rejects.toThrow(
      /options.chunkSize/,
    );
    const workerUrl = pathToFileURL(join(lib!.dir, 'batch', 'no-such-worker.js'));
    await expect(batch.BatchPool.create(tree, { workers: 2, workerUrl })).rejects.toThrow(
      /no-such-worker/,
    );
    const corrupted = tree.toBuffer() as ArrayBuffer;
    new Uint8Array(corrupted)[100]! ^= 1;
    await expect(batch.BatchPool.create(corrupted, { workers: 1 })).rejects.toThrow(/checksum/);
    expect(await workersLeft(before)).toBe(0);
  });
});

describe('BatchPool failures', () => {
  const tree = StaticQuadtree.fromBoxes(randomBoxes(mulberry32(31), 2000, 100), { shared: true });
  const points = randomQueries(mulberry32(32), 400, 100).points;

  it.each([
    [
      'throws from its answer',
      'faulty-worker.js',
      new RangeError('injected fault in a batch worker'),
    ],
    ['crashes with an uncaught error', 'crashing-worker.js', new TypeError('injected crash')],
  ])(
    'a worker that %s: the batch rejects with its error and no worker is left running',
    async (_, script, error) => {
      const before = new Set(liveWorkers);
      const workerUrl = pathToFileURL(join(lib!.dir, 'batch', script));
      const pool = await batch.BatchPool.create(tree, { workers: 2, workerUrl, chunkSize: 4 });
      expect(pool.state).toBe('open');
      await expect(pool.nearest(points, 5)).rejects.toThrow(error);
      expect(pool.state).toBe('failed');
      expect(await workersLeft(before)).toBe(0);
      // Later batches reject with the same error, without starting work.
      await expect(pool.searchPoint(points)).rejects.toThrow(error);
      await pool.close();
      expect(pool.state).toBe('failed');
    },
  );

  it('close() stops every worker; a batch after it rejects; an idle pool does not hold the process', async () => {
    const before = new Set(liveWorkers);
    const pool = await batch.BatchPool.create(tree, { workers: 2 });
    const result = await pool.nearest(points, 2);
    expect(perQuery(result)).toEqual(singleThread(tree, (i) => i, 'nearest', points, 2));
    await pool.close();
    expect(pool.state).toBe('closed');
    expect(await workersLeft(before)).toBe(0);
    await expect(pool.nearest(points, 2)).rejects.toThrow(/closed/);
    await pool.close(); // twice is fine
  });

  it('Symbol.asyncDispose closes the pool (for `await using`)', async () => {
    const before = new Set(liveWorkers);
    const pool = await batch.BatchPool.create(tree, { workers: 1 });
    const dispose = (pool as unknown as Record<symbol, () => Promise<void>>)[Symbol.asyncDispose];
    expect(typeof dispose).toBe('function');
    await dispose!.call(pool);
    expect(pool.state).toBe('closed');
    expect(await workersLeft(before)).toBe(0);
  });

  it('close() during a batch rejects it and stops every worker', async () => {
    const before = new Set(liveWorkers);
    const pool = await batch.BatchPool.create(tree, {
      workers: 2,
      mainThread: false,
      chunkSize: 1,
    });
    const many = randomQueries(mulberry32(33), 20_000, 100).points;
    const pending = expect(pool.nearest(many, 50)).rejects.toThrow(/closed/);
    // (One macrotask: the batch has been sent to the workers.)
    await new Promise((r) => setTimeout(r, 0));
    await pool.close();
    await pending;
    expect(await workersLeft(before)).toBe(0);
  });
});
