// StaticQuadtree buffers: toBuffer/fromBuffer round trips, SharedArrayBuffer, worker threads, and
// fromBuffer on truncated, corrupted, foreign and other-version buffers (seeded fuzzing).
//
// Worker threads run test/fixtures/static-worker.mjs, which imports quadkit from a URL given in
// workerData: a copy of src/ transpiled by test/transpile.ts (no build step).
// Fuzz cases run in a worker too, so that a hang is caught by a timeout (worker.terminate())
// instead of blocking the test run.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CorruptBufferError, type Rect, StaticQuadtree } from '../src/index.js';
import {
  type IdItem as Item,
  itemsOfBoxes as itemsOf,
  mulberry32,
  pick,
  type Rng,
  randFloat,
  randInt,
} from './oracle.js';
import { type TranspiledLibrary, transpileLibrary } from './transpile.js';

// ---------------------------------------------------------------------------------------------
// The library for worker threads
// ---------------------------------------------------------------------------------------------

const WORKER = new URL('./fixtures/static-worker.mjs', import.meta.url);
let lib: TranspiledLibrary | null = null;
let libUrl = '';

beforeAll(() => {
  lib = transpileLibrary('quadkit-static-worker-');
  libUrl = pathToFileURL(join(lib.dir, 'index.js')).href;
}, 30_000);

afterAll(() => {
  lib?.remove();
});

/**
 * Starts a worker, posts one message, and resolves with its reply; rejects on an error reply, a
 * worker error, or after `timeoutMs` (then `onTimeout` says where it was). Always terminates it.
 */
async function askWorker<R>(
  message: unknown,
  transfer: ArrayBuffer[],
  timeoutMs: number,
  onTimeout: () => string = () => '',
): Promise<R> {
  const worker = new Worker(WORKER, { workerData: { lib: libUrl } });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await new Promise<R>((resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the worker did not answer in ${timeoutMs} ms ${onTimeout()}`)),
        timeoutMs,
      );
      worker.on('message', (reply: { type: string; message?: string }) => {
        if (reply.type === 'failed') reject(new Error(`worker: ${reply.message}`));
        else resolve(reply as R);
      });
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`the worker exited with code ${code}`)));
      worker.postMessage(message, transfer);
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}

// ---------------------------------------------------------------------------------------------
// Queries, run the same way on both sides
// ---------------------------------------------------------------------------------------------

type Query =
  | { method: 'search' | 'retrieve' | 'collides'; args: [Rect] }
  | { method: 'searchPoint'; args: [number, number] }
  | { method: 'searchCircle'; args: [number, number, number] }
  | { method: 'searchSegment' | 'nearest'; args: [number, number, number, number] }
  | { method: 'pairs' | 'visit' | 'all'; args: [] };

/** Runs a query on a tree, answering with item indices (`toIndex` maps items to them). */
function runQuery<T>(tree: StaticQuadtree<T>, q: Query, toIndex: (item: T) => number): unknown {
  switch (q.method) {
    case 'search':
      return tree.search(...q.args).map(toIndex);
    case 'retrieve':
      return tree.retrieve(...q.args).map(toIndex);
    case 'collides':
      return tree.collides(...q.args);
    case 'searchPoint':
      return tree.searchPoint(...q.args).map(toIndex);
    case 'searchCircle':
      return tree.searchCircle(...q.args).map(toIndex);
    case 'searchSegment':
      return tree.searchSegment(...q.args).map(toIndex);
    case 'nearest':
      return tree.nearest(...q.args).map(toIndex);
    case 'pairs': {
      const out: [number, number][] = [];
      tree.pairs((a, b) => {
        out.push([toIndex(a), toIndex(b)]);
      });
      return out;
    }
    case 'visit': {
      const out: number[][] = [];
      tree.visit((n) => {
        out.push([n.x, n.y, n.width, n.height, n.depth, n.count]);
      });
      return out;
    }
    case 'all':
      return tree.all().map(toIndex);
  }
}

const byNumber = (a: number, b: number): number => a - b;

/** Puts an answer in a canonical form: sets sorted, pairs as sorted [min, max] lists. */
function normalize(q: Query, answer: unknown): unknown {
  switch (q.method) {
    case 'search':
    case 'retrieve':
    case 'searchPoint':
    case 'searchCircle':
    case 'searchSegment':
      return (answer as number[]).slice().sort(byNumber);
    case 'pairs':
      return (answer as [number, number][])
        .map(([a, b]) => (a < b ? [a, b] : [b, a]))
        .sort((p, q2) => p[0]! - q2[0]! || p[1]! - q2[1]!);
    default:
      return answer;
  }
}

function answersOf<T>(
  tree: StaticQuadtree<T>,
  queries: readonly Query[],
  toIndex: (item: T) => number,
): unknown[] {
  return queries.map((q) => normalize(q, runQuery(tree, q, toIndex)));
}

const identity = (i: number): number => i;

/** Random queries over [lo, hi]^2, then pairs, visit and all. */
function randomQueries(rng: Rng, count: number, lo: number, hi: number, n: number): Query[] {
  const c = (): number => randInt(rng, 2 * lo, 2 * hi) / 2;
  const qs: Query[] = [];
  for (let i = 0; i < count; i++) {
    const rect = {
      x: c(),
      y: c(),
      width: randInt(rng, 0, 20) / 2,
      height: randInt(rng, 0, 20) / 2,
    };
    qs.push(
      { method: 'search', args: [rect] },
      { method: 'retrieve', args: [rect] },
      { method: 'collides', args: [rect] },
      { method: 'searchPoint', args: [c(), c()] },
      { method: 'searchCircle', args: [c(), c(), randFloat(rng, 0, 8)] },
      { method: 'searchSegment', args: [c(), c(), c(), c()] },
      {
        method: 'nearest',
        args: [
          c(),
          c(),
          randInt(rng, 0, n + 2),
          pick(rng, [Number.POSITIVE_INFINITY, randInt(rng, 0, 10)]),
        ],
      },
    );
  }
  qs.push(
    { method: 'pairs', args: [] },
    { method: 'visit', args: [] },
    { method: 'all', args: [] },
  );
  return qs;
}

/** Random raw boxes on the half-integer grid [0, spread]^2, a third of them points. */
function randomBoxes(rng: Rng, n: number, spread: number): number[] {
  const raw: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = randInt(rng, 0, 2 * spread) / 2;
    const y = randInt(rng, 0, 2 * spread) / 2;
    const point = rng() < 0.33;
    raw.push(x, y, point ? x : x + randInt(rng, 0, 8) / 2, point ? y : y + randInt(rng, 0, 8) / 2);
  }
  return raw;
}

const pointsOf = (raw: readonly number[]): number[] =>
  raw.filter((_, i) => i % 4 === 0 || i % 4 === 1);

/** A tree over random data, built one of three ways, with a map from its answers to indices. */
type Mode = 'from' | 'fromBoxes' | 'fromPoints';

function randomTree(
  mode: Mode,
  raw: readonly number[],
  nodeSize: number,
  shared = false,
): { tree: StaticQuadtree<unknown>; toIndex: (item: unknown) => number; items: unknown[] } {
  if (mode === 'from') {
    const items = itemsOf(raw);
    const tree = StaticQuadtree.from(items, { nodeSize, shared });
    return {
      tree: tree as StaticQuadtree<unknown>,
      toIndex: (it) => (it as Item).id,
      items,
    };
  }
  const tree =
    mode === 'fromBoxes'
      ? StaticQuadtree.fromBoxes(raw, { nodeSize, shared })
      : StaticQuadtree.fromPoints(pointsOf(raw), { nodeSize, shared });
  return {
    tree: tree as StaticQuadtree<unknown>,
    toIndex: (i) => i as number,
    items: Array.from({ length: tree.size }, (_, i) => i),
  };
}

// ---------------------------------------------------------------------------------------------
// The buffer layout, for crafted corruptions behind a valid checksum
// ---------------------------------------------------------------------------------------------

// From src/engine/packed.ts (format version 2): a 64-byte header (magic u32, version u16,
// kind u16, items u32, nodeSize u32, nodes u32, checksum u32, then reserved bytes, 0), the node
// boxes (4 float64 each), then the node indices (int32 each), padded to 8 bytes. The checksum is
// FNV-1a over items, nodeSize and nodes, then the 32-bit words after the header (format 1: only
// the words after the header).
const HEADER = 64;

function header(buf: ArrayBuffer) {
  const v = new DataView(buf);
  return {
    items: v.getUint32(8, true),
    nodeSize: v.getUint32(12, true),
    nodes: v.getUint32(16, true),
  };
}

/**
 * Recomputes the checksum for the buffer's format version, so that a corruption gets past it to
 * the structure checks.
 */
function reseal(buf: ArrayBuffer): void {
  const view = new DataView(buf);
  const words = new Uint32Array(buf, HEADER, (buf.byteLength - HEADER) / 4);
  let h = 0x811c9dc5;
  if (view.getUint16(4, true) > 1) {
    for (const at of [8, 12, 16]) h = Math.imul(h ^ view.getUint32(at, true), 16777619);
  }
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 16777619);
  view.setUint32(20, h >>> 0, true);
}

function withBytes(
  buf: ArrayBuffer,
  edit: (bytes: Uint8Array, view: DataView) => void,
): ArrayBuffer {
  const copy = buf.slice(0);
  edit(new Uint8Array(copy), new DataView(copy));
  return copy;
}

const REFUSED =
  /^quadkit: fromBuffer: .*; the buffer is not a StaticQuadtree written by toBuffer\(\)$/;

/** Expects fromBuffer to refuse the buffer with a CorruptBufferError whose message matches. */
function expectRefused(buf: ArrayBuffer | SharedArrayBuffer, why: RegExp): void {
  let err: unknown;
  try {
    StaticQuadtree.fromBuffer(buf);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(CorruptBufferError);
  expect((err as CorruptBufferError).code).toBe('QUADKIT_CORRUPT_BUFFER');
  expect((err as Error).message).toMatch(REFUSED);
  expect((err as Error).message).toMatch(why);
}

// ---------------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------------

describe('StaticQuadtree.toBuffer and fromBuffer', () => {
  it('fromBuffer(toBuffer()) answers every query like the tree that wrote it, with item indices', () => {
    const rng = mulberry32(11);
    for (const mode of ['from', 'fromBoxes', 'fromPoints'] as const) {
      for (const nodeSize of [2, 3, 5, 16, 32, 65536]) {
        for (const n of [0, 1, 2, 7, 100, 1500]) {
          if (n === 1500 && nodeSize !== 3 && nodeSize !== 32) continue;
          const spread = n > 200 ? 120 : 20;
          const { tree, toIndex, items } = randomTree(mode, randomBoxes(rng, n, spread), nodeSize);
          const queries = randomQueries(rng, 8, -4, spread + 6, n);
          const want = answersOf(tree, queries, toIndex);
          const reopened = StaticQuadtree.fromBuffer(tree.toBuffer());
          expect(reopened.size).toBe(n);
          expect(reopened.nodeSize).toBe(nodeSize);
          expect(reopened.all()).toEqual(items.map(toIndex));
          expect(
            answersOf(reopened, queries, identity),
            `${mode} n=${n} nodeSize=${nodeSize}`,
          ).toEqual(want);
          // And again from the reopened tree's own buffer.
          const twice = StaticQuadtree.fromBuffer(reopened.toBuffer());
          expect(answersOf(twice, queries, identity)).toEqual(want);
        }
      }
    }
  });

  it('toBuffer() returns a new ArrayBuffer each call: changing or transferring it leaves the tree intact', () => {
    const rng = mulberry32(12);
    const tree = StaticQuadtree.fromBoxes(randomBoxes(rng, 300, 30), { nodeSize: 4 });
    const queries = randomQueries(rng, 10, -2, 36, 300);
    const want = answersOf(tree, queries, identity);
    const a = tree.toBuffer();
    const b = tree.toBuffer() as ArrayBuffer;
    expect(a).toBeInstanceOf(ArrayBuffer);
    expect(a).not.toBeInstanceOf(SharedArrayBuffer);
    expect(a).not.toBe(b);
    expect(new Uint8Array(a)).toEqual(new Uint8Array(b));
    new Uint8Array(a).fill(0xa5);
    expect(answersOf(tree, queries, identity)).toEqual(want);
    expectRefused(a, /magic/);
    const moved = structuredClone(b, { transfer: [b] });
    expect(b.byteLength).toBe(0); // detached
    expect(answersOf(tree, queries, identity)).toEqual(want);
    expect(answersOf(StaticQuadtree.fromBuffer(moved), queries, identity)).toEqual(want);
    expectRefused(b, /0 bytes/);
  });

  it('a tree built with shared: true returns its own SharedArrayBuffer, which fromBuffer opens in place', () => {
    const rng = mulberry32(13);
    for (const mode of ['from', 'fromBoxes', 'fromPoints'] as const) {
      const { tree, toIndex } = randomTree(mode, randomBoxes(rng, 500, 40), 8, true);
      const sab = tree.toBuffer();
      expect(sab).toBeInstanceOf(SharedArrayBuffer);
      expect(tree.toBuffer()).toBe(sab);
      const reopened = StaticQuadtree.fromBuffer(sab);
      expect(reopened.toBuffer()).toBe(sab);
      const queries = randomQueries(rng, 10, -2, 46, 500);
      expect(answersOf(reopened, queries, identity)).toEqual(answersOf(tree, queries, toIndex));
      // A copy of the shared memory in a plain ArrayBuffer opens too.
      const plain = new ArrayBuffer(sab.byteLength);
      new Uint8Array(plain).set(new Uint8Array(sab));
      expect(answersOf(StaticQuadtree.fromBuffer(plain), queries, identity)).toEqual(
        answersOf(tree, queries, toIndex),
      );
    }
  });

  it('fromBuffer throws a TypeError for anything but an ArrayBuffer or SharedArrayBuffer', () => {
    const good = StaticQuadtree.fromPoints([1, 2, 3, 4]).toBuffer();
    const notBuffers: unknown[] = [
      undefined,
      null,
      0,
      'buffer',
      {},
      [],
      { byteLength: good.byteLength },
      new Uint8Array(good),
      new DataView(good),
      Buffer.from(new Uint8Array(good)),
    ];
    for (const bad of notBuffers) {
      let err: unknown;
      try {
        StaticQuadtree.fromBuffer(bad as ArrayBuffer);
      } catch (e) {
        err = e;
      }
      expect(err, String(bad)).toBeInstanceOf(TypeError);
      expect((err as Error).message).toMatch(
        /fromBuffer\(buffer\) needs an ArrayBuffer or SharedArrayBuffer/,
      );
    }
    expect(StaticQuadtree.fromBuffer(good).size).toBe(2);
  });

  it('fromBuffer says what is wrong with a truncated, padded, foreign, other-version or corrupted buffer', () => {
    const tree = StaticQuadtree.fromBoxes(randomBoxes(mulberry32(14), 50, 20), { nodeSize: 4 });
    const good = tree.toBuffer() as ArrayBuffer;
    const { nodes, items } = header(good);
    const indices = HEADER + 32 * nodes;
    expectRefused(good.slice(0, 10), /10 bytes, shorter than the 64-byte header/);
    expectRefused(good.slice(0, good.byteLength - 8), /truncated or padded/);
    const padded = new Uint8Array(good.byteLength + 8);
    padded.set(new Uint8Array(good));
    expectRefused(padded.buffer, /truncated or padded/);
    expectRefused(
      withBytes(good, (b) => b.set([0x51, 0x4b, 0x49, 0x55])),
      /magic number/,
    );
    for (const version of [0, 3, 255, 65535]) {
      expectRefused(
        withBytes(good, (_, v) => v.setUint16(4, version, true)),
        new RegExp(`format version ${version}, this quadkit reads versions 1 and 2`),
      );
    }
    expectRefused(
      withBytes(good, (_, v) => v.setUint16(6, 2, true)),
      /another kind of index/,
    );
    for (const nodeSize of [0, 1, 65537]) {
      expectRefused(
        withBytes(good, (_, v) => v.setUint32(12, nodeSize, true)),
        new RegExp(`node size ${nodeSize} is out of range`),
      );
    }
    expectRefused(
      withBytes(good, (_, v) => v.setUint32(8, 2 ** 31, true)),
      /item count .* out of range/,
    );
    expectRefused(
      withBytes(good, (_, v) => v.setUint32(8, items + 1, true)),
      /node count/,
    );
    expectRefused(
      withBytes(good, (_, v) => v.setUint32(16, nodes + 1, true)),
      /node count/,
    );
    expectRefused(
      withBytes(good, (b) => (b[HEADER + 5]! ^= 0x10)),
      /checksum/,
    );
    expectRefused(
      withBytes(good, (b) => (b[good.byteLength - 1]! ^= 1)),
      /checksum/,
    );
    expectRefused(
      withBytes(good, (_, v) => v.setUint32(20, v.getUint32(20, true) + 1, true)),
      /checksum/,
    );
    // Behind a valid checksum: a leaf naming an item out of range, an inner node naming the
    // wrong children.
    for (const bad of [-1, items, 2 ** 31 - 1]) {
      const buf = withBytes(good, (_, v) => v.setInt32(indices + 4 * 7, bad, true));
      reseal(buf);
      expectRefused(buf, new RegExp(`leaf 7 names item ${bad}`));
    }
    const inner = withBytes(good, (_, v) => v.setInt32(indices + 4 * items, 1, true));
    reseal(inner);
    expectRefused(inner, new RegExp(`node ${items} names the wrong children`));
    // A reserved header byte that is not 0.
    expectRefused(
      withBytes(good, (b) => (b[40] = 1)),
      /header byte 40, which is reserved, is not 0/,
    );
    // The untouched buffer still opens.
    expect(StaticQuadtree.fromBuffer(good).size).toBe(50);
  });

  it('fromBuffer refuses a node size changed where the node count stays the same (the header is in the checksum)', () => {
    // Every item in the root: node sizes 16 and 17 lay out the same nodes.
    const good = StaticQuadtree.fromBoxes(new Float64Array([0, 0, 1, 1, 2, 2, 3, 3])).toBuffer();
    expect(header(good as ArrayBuffer).nodeSize).toBe(16);
    expectRefused(
      withBytes(good as ArrayBuffer, (_, v) => v.setUint32(12, 17, true)),
      /checksum/,
    );
  });

  it('fromBuffer still opens a format 1 buffer, whose checksum leaves out the header', () => {
    const rng = mulberry32(15);
    const tree = StaticQuadtree.fromBoxes(randomBoxes(rng, 300, 40), { nodeSize: 8 });
    const v1 = withBytes(tree.toBuffer() as ArrayBuffer, (_, v) => v.setUint16(4, 1, true));
    expectRefused(v1, /checksum/); // a format 2 checksum under a format 1 header
    reseal(v1);
    const reopened = StaticQuadtree.fromBuffer(v1);
    const queries = randomQueries(rng, 20, -4, 46, 300);
    expect(answersOf(reopened, queries, (i) => i as number)).toEqual(
      answersOf(tree as StaticQuadtree<unknown>, queries, (i) => i as number),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Worker threads
// ---------------------------------------------------------------------------------------------

interface AnswerReply {
  type: 'answer';
  size: number;
  nodeSize: number;
  answers: unknown[];
}

describe('StaticQuadtree in a worker thread', () => {
  it('a worker opens the SharedArrayBuffer with fromBuffer and answers like the main thread', async () => {
    const rng = mulberry32(21);
    const tree = StaticQuadtree.fromBoxes(randomBoxes(rng, 2000, 150), {
      nodeSize: 8,
      shared: true,
    });
    const sab = tree.toBuffer();
    expect(sab).toBeInstanceOf(SharedArrayBuffer);
    const queries = randomQueries(rng, 40, -4, 160, 2000);
    const reply = await askWorker<AnswerReply>(
      { type: 'answer', buffer: sab, queries },
      [],
      20_000,
    );
    expect(reply.size).toBe(2000);
    expect(reply.nodeSize).toBe(8);
    expect(queries.map((q, i) => normalize(q, reply.answers[i]))).toEqual(
      answersOf(tree, queries, identity),
    );
    // Shared, not copied: the main thread still holds the same memory.
    expect(tree.toBuffer()).toBe(sab);
  });

  it('a transferred ArrayBuffer: the worker answers like the main thread, and the tree that made it still works', async () => {
    const rng = mulberry32(22);
    const raw = randomBoxes(rng, 1200, 100);
    const items = itemsOf(raw);
    const tree = StaticQuadtree.from(items, { nodeSize: 5 });
    const queries = randomQueries(rng, 40, -4, 110, 1200);
    const want = answersOf(tree, queries, (it) => it.id);
    const buf = tree.toBuffer() as ArrayBuffer;
    const reply = askWorker<AnswerReply>({ type: 'answer', buffer: buf, queries }, [buf], 20_000);
    expect(buf.byteLength).toBe(0); // transferred away
    const { answers, size } = await reply;
    expect(size).toBe(1200);
    expect(queries.map((q, i) => normalize(q, answers[i]))).toEqual(want);
    // The tree that made the buffer is intact: toBuffer() returned a copy.
    expect(answersOf(tree, queries, (it) => it.id)).toEqual(want);
    expect(tree.search({ x: -1e9, y: -1e9, width: 2e9, height: 2e9 })).toHaveLength(1200);
  });
});

// ---------------------------------------------------------------------------------------------
// Fuzzed buffers
// ---------------------------------------------------------------------------------------------

type FuzzResult =
  | { threw: true; isError: boolean; name: string; message: string }
  | { threw: false; size: number; nodeSize: number; answers: unknown[] }
  | { threw: false; queryError: { name: string; message: string } };

/** Runs fromBuffer and the queries on every buffer in a worker, with a timeout. */
async function fuzzInWorker(
  buffers: ArrayBuffer[],
  queries: Query[],
  timeoutMs = 30_000,
): Promise<FuzzResult[]> {
  const progress = new SharedArrayBuffer(4);
  const reply = await askWorker<{ results: FuzzResult[] }>(
    { type: 'fuzz', buffers, queries, progress },
    [],
    timeoutMs,
    () => `(stuck on fuzz case ${Atomics.load(new Int32Array(progress), 0) - 1})`,
  );
  expect(reply.results).toHaveLength(buffers.length);
  return reply.results;
}

/** Fixed probes over the fuzz trees' extent (random boxes on [0, 40]). */
const FUZZ_QUERIES: Query[] = [
  { method: 'search', args: [{ x: -10, y: -10, width: 60, height: 60 }] },
  { method: 'search', args: [{ x: 10, y: 12, width: 6, height: 4 }] },
  { method: 'retrieve', args: [{ x: 5, y: 5, width: 3, height: 3 }] },
  { method: 'collides', args: [{ x: 20, y: 20, width: 0, height: 0 }] },
  { method: 'searchPoint', args: [8, 8] },
  { method: 'searchCircle', args: [20, 20, 7.5] },
  { method: 'searchSegment', args: [0, 40, 40, 0] },
  { method: 'nearest', args: [15, 25, 5, Number.POSITIVE_INFINITY] },
  { method: 'nearest', args: [15, 25, 1000, 12] },
  { method: 'pairs', args: [] },
  { method: 'visit', args: [] },
  { method: 'all', args: [] },
];

/** Checks that fromBuffer refused with a CorruptBufferError. */
function refusal(r: FuzzResult): string | null {
  if (!r.threw) return 'fromBuffer opened it';
  if (!r.isError || r.name !== 'CorruptBufferError') return `threw ${r.name} (${r.message})`;
  return REFUSED.test(r.message) ? null : `unclear message: ${r.message}`;
}

/**
 * Checks that an opened tree answered every query without throwing, with item indices in range
 * (the answers of a tree whose data was corrupted behind the checksum may be wrong, but must be
 * well-formed).
 */
function wellFormed(r: FuzzResult): string | null {
  if (r.threw) return `refused: ${r.message}`;
  if ('queryError' in r) return `a query threw ${r.queryError.name}: ${r.queryError.message}`;
  const ok = (i: unknown): boolean =>
    Number.isInteger(i) && (i as number) >= 0 && (i as number) < r.size;
  for (let q = 0; q < FUZZ_QUERIES.length; q++) {
    const query = FUZZ_QUERIES[q]!;
    const a = r.answers[q];
    if (query.method === 'collides') {
      if (typeof a !== 'boolean') return 'collides did not answer a boolean';
    } else if (query.method === 'pairs') {
      for (const [x, y] of a as [number, number][])
        if (!ok(x) || !ok(y)) return 'pair out of range';
    } else if (query.method === 'visit') {
      const total = (a as number[][]).reduce((s, node) => s + node[5]!, 0);
      if (total !== r.size) return `visit counts sum to ${total}, size is ${r.size}`;
    } else if (!(a as unknown[]).every(ok)) {
      return `${query.method} answered an index out of range`;
    } else if (query.method === 'nearest' && (a as unknown[]).length > (query.args[2] as number)) {
      return 'nearest answered more than k';
    }
  }
  return null;
}

/** Checks that an opened tree answers exactly like the original. */
function sameAsOriginal(r: FuzzResult, want: unknown[]): string | null {
  const bad = wellFormed(r);
  if (bad !== null || r.threw || 'queryError' in r) return bad;
  const got = FUZZ_QUERIES.map((q, i) => normalize(q, r.answers[i]));
  return JSON.stringify(got) === JSON.stringify(want) ? null : 'answers differ from the original';
}

/** A random tree's buffer and its answers to FUZZ_QUERIES. */
function fuzzTree(rng: Rng, n: number, nodeSize: number) {
  const mode = pick(rng, ['from', 'fromBoxes', 'fromPoints'] as const);
  const { tree, toIndex } = randomTree(mode, randomBoxes(rng, n, 40), nodeSize);
  const buffer = tree.toBuffer() as ArrayBuffer;
  return { buffer, want: answersOf(tree, FUZZ_QUERIES, toIndex) };
}

describe('StaticQuadtree.fromBuffer on fuzzed buffers', () => {
  it('refuses a buffer truncated at every length, or padded, with an Error', async () => {
    const rng = mulberry32(31);
    const cases: ArrayBuffer[] = [];
    for (const [n, nodeSize] of [
      [0, 16],
      [1, 2],
      [13, 4],
      [70, 3],
    ] as const) {
      const { buffer } = fuzzTree(rng, n, nodeSize);
      for (let len = 0; len < buffer.byteLength; len++) cases.push(buffer.slice(0, len));
      for (const extra of [1, 4, 8, 64]) {
        const padded = new Uint8Array(buffer.byteLength + extra);
        padded.set(new Uint8Array(buffer));
        cases.push(padded.buffer);
      }
    }
    const results = await fuzzInWorker(cases, FUZZ_QUERIES);
    const wrong = results
      .map((r, i) => [i, cases[i]!.byteLength, refusal(r)] as const)
      .filter(([, , e]) => e !== null);
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(cases.length).toBeGreaterThan(2000);
  });

  it('every single-byte flip is refused with an Error, the header included', async () => {
    const rng = mulberry32(32);
    const cases: { buffer: ArrayBuffer; at: number; want: unknown[] }[] = [];
    for (const [n, nodeSize] of [
      [1, 16],
      [12, 4],
      [45, 16],
    ] as const) {
      const { buffer, want } = fuzzTree(rng, n, nodeSize);
      for (let at = 0; at < buffer.byteLength; at++) {
        const mask = randInt(rng, 1, 255);
        cases.push({ buffer: withBytes(buffer, (b) => (b[at]! ^= mask)), at, want });
      }
    }
    const results = await fuzzInWorker(
      cases.map((c) => c.buffer),
      FUZZ_QUERIES,
    );
    const wrong: string[] = [];
    results.forEach((r, i) => {
      const e = refusal(r);
      if (e !== null) wrong.push(`byte ${cases[i]!.at} of case ${i}: ${e}`);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('300 seeded random corruptions (flips, truncations, foreign bytes, versions) are refused', async () => {
    const cases: { buffer: ArrayBuffer; want: unknown[]; original: ArrayBuffer }[] = [];
    for (let seed = 1; seed <= 300; seed++) {
      const rng = mulberry32(seed * 7919);
      const { buffer: original, want } = fuzzTree(rng, randInt(rng, 0, 250), randInt(rng, 2, 32));
      let buf = original.slice(0);
      const ops = randInt(rng, 1, 4);
      for (let o = 0; o < ops; o++) {
        const kind = randInt(rng, 0, 6);
        const bytes = new Uint8Array(buf);
        if (kind === 0 && bytes.length > 0) {
          bytes[randInt(rng, 0, bytes.length - 1)]! ^= randInt(rng, 1, 255); // anywhere
        } else if (kind === 1 && bytes.length >= HEADER) {
          bytes[randInt(rng, 0, HEADER - 1)]! ^= 1 << randInt(rng, 0, 7); // one header bit
        } else if (kind === 2) {
          buf = buf.slice(0, randInt(rng, 0, Math.max(0, buf.byteLength - 1))); // truncate
        } else if (kind === 3) {
          const longer = new Uint8Array(buf.byteLength + randInt(rng, 1, 40)); // pad
          longer.set(bytes);
          buf = longer.buffer;
        } else if (kind === 4) {
          buf = new ArrayBuffer(pick(rng, [buf.byteLength, randInt(rng, 0, 4000)])); // foreign
          const fresh = new Uint8Array(buf);
          for (let i = 0; i < fresh.length; i++) fresh[i] = randInt(rng, 0, 255);
        } else if (kind === 5 && bytes.length >= HEADER) {
          new DataView(buf).setUint16(4, randInt(rng, 3, 65535), true); // another version
        } else if (bytes.length > HEADER + 16) {
          // Swap two 8-byte runs of the body.
          const a = randInt(rng, HEADER, bytes.length - 8);
          const b = randInt(rng, HEADER, bytes.length - 8);
          const t = bytes.slice(a, a + 8);
          bytes.copyWithin(a, b, b + 8);
          bytes.set(t, b);
        }
      }
      cases.push({ buffer: buf, want, original });
    }
    const results = await fuzzInWorker(
      cases.map((c) => c.buffer),
      FUZZ_QUERIES,
    );
    const wrong: string[] = [];
    let refused = 0;
    results.forEach((r, i) => {
      const { buffer, want, original } = cases[i]!;
      // A buffer that differs from the original anywhere is refused (the header is in the
      // checksum, the reserved bytes must be 0); one that does not answers as before.
      const a = new Uint8Array(buffer);
      const b = new Uint8Array(original);
      const changed: number[] = [];
      for (let j = 0; j < Math.max(a.length, b.length); j++) if (a[j] !== b[j]) changed.push(j);
      if (r.threw) refused++;
      const e = changed.length === 0 ? sameAsOriginal(r, want) : refusal(r);
      if (e !== null)
        wrong.push(`case ${i} (bytes ${changed.slice(0, 6).join(', ')} changed): ${e}`);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(refused).toBeGreaterThan(250);
  });

  it('corruptions behind a recomputed checksum: bad indices are refused, bad boxes open and every query terminates', async () => {
    const cases: { buffer: ArrayBuffer; expect: 'refuse' | 'open' }[] = [];
    for (let seed = 1; seed <= 200; seed++) {
      const rng = mulberry32(seed * 104729);
      const { buffer } = fuzzTree(rng, randInt(rng, 1, 200), randInt(rng, 2, 20));
      const { items, nodes } = header(buffer);
      const indices = HEADER + 32 * nodes;
      const buf = buffer.slice(0);
      const view = new DataView(buf);
      const kind = seed % 4;
      if (kind === 0) {
        // A leaf naming an item out of range.
        view.setInt32(
          indices + 4 * randInt(rng, 0, items - 1),
          pick(rng, [-1, items, 2 ** 31 - 1, items + randInt(rng, 1, 1000)]),
          true,
        );
        cases.push({ buffer: buf, expect: 'refuse' });
      } else if (kind === 1) {
        // An inner node naming other children.
        const p = randInt(rng, items, nodes - 1);
        view.setInt32(
          indices + 4 * p,
          view.getInt32(indices + 4 * p, true) + randInt(rng, 1, 50),
          true,
        );
        cases.push({ buffer: buf, expect: 'refuse' });
      } else if (kind === 2) {
        // Boxes of random nodes overwritten: NaN, infinities, huge, swapped min/max, random bits.
        for (let c = randInt(rng, 1, 20); c > 0; c--) {
          const at = HEADER + 8 * randInt(rng, 0, 4 * nodes - 1);
          const v = pick(rng, [
            Number.NaN,
            Number.POSITIVE_INFINITY,
            Number.NEGATIVE_INFINITY,
            1e308,
            -1e308,
            0,
            randFloat(rng, -50, 50),
          ]);
          if (rng() < 0.3)
            view.setUint32(at + randInt(rng, 0, 1) * 4, randInt(rng, 0, 2 ** 32 - 1), true);
          else view.setFloat64(at, v, true);
        }
        cases.push({ buffer: buf, expect: 'open' });
      } else {
        // Leaves naming other items in range (duplicates).
        for (let c = randInt(rng, 1, 10); c > 0; c--) {
          view.setInt32(indices + 4 * randInt(rng, 0, items - 1), randInt(rng, 0, items - 1), true);
        }
        cases.push({ buffer: buf, expect: 'open' });
      }
      reseal(buf);
    }
    const results = await fuzzInWorker(
      cases.map((c) => c.buffer),
      FUZZ_QUERIES,
    );
    const wrong: string[] = [];
    results.forEach((r, i) => {
      const e = cases[i]!.expect === 'refuse' ? refusal(r) : wellFormed(r);
      if (e !== null) wrong.push(`case ${i} (${cases[i]!.expect}): ${e}`);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
