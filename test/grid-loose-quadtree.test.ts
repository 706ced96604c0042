// GridLooseQuadtree: model-based property tests (random sequences of every mutation, each step
// followed by every query, compared with the brute-force model of test/oracle.ts, with items
// crossing cells, levels and the outer bounds between steps), placement (level from size, cell
// from centre), fixtures, degenerate data, callbacks that mutate, and bad input.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_GRID_DEPTH, GridLooseQuadtree, type Rect, type RectLike } from '../src/index.js';
import {
  BAD_BOUNDS,
  type CommonOp,
  checkQueries,
  expectThrow,
  type GenRect,
  type Labelled,
  label,
  type Probe,
  runModelSteps,
} from './dynamic-checks.js';
import {
  type Box,
  BruteIndex,
  boxOf,
  brutePairs,
  callInto,
  checkNearest,
  checkPlacement,
  checkVisitTree,
  JUNK,
  mulberry32,
  type QueryRect,
  type RectLikeInput,
  type Rng,
  randFloat,
  randInt,
  recordVisit,
  sameItems,
  samePairs,
  supersetWithoutDuplicates,
  type VisitRecord,
} from './oracle.js';

// ---------------------------------------------------------------------------------------------
// Items, labels, errors
// ---------------------------------------------------------------------------------------------

interface Item extends Labelled {
  x: number;
  y: number;
  width?: number;
  height?: number;
}

interface MinMaxItem extends Labelled {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

let nextId = 0;
/** A fresh item; `w`/`h` omitted = a point with no width/height fields. */
function item(x: number, y: number, w?: number, h?: number): Item {
  const it: Item = { id: nextId++, x, y };
  if (w !== undefined) it.width = w;
  if (h !== undefined) it.height = h;
  return it;
}

function modelOf<T>(items: Iterable<T>, toRect?: (item: T) => RectLikeInput): BruteIndex<T> {
  const m = new BruteIndex<T>(toRect);
  for (const it of items) m.set(it);
  return m;
}

function pairsOf<T>(tree: GridLooseQuadtree<T>): [T, T][] {
  const out: [T, T][] = [];
  tree.pairs((a, b) => {
    out.push([a, b]);
  });
  return out;
}

type ErrorClass = new (...args: never[]) => Error;

/** The error thrown by fn (fails the test when fn does not throw). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    return e as Error;
  }
  expect.fail('expected a throw');
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Expects fn to throw one of `classes` with a message naming `field` and `value`. */
function expectBadInput(
  fn: () => unknown,
  classes: readonly ErrorClass[],
  field: string,
  value: string,
): void {
  const err = thrown(fn);
  expect(
    classes.some((c) => err instanceof c),
    `${err.name} is not ${classes.map((c) => c.name).join('/')}`,
  ).toBe(true);
  expect(err.message).toMatch(new RegExp(`(^|[^\\w])${escapeRe(field)}\\b`));
  expect(err.message).toMatch(new RegExp(escapeRe(value)));
}

// ---------------------------------------------------------------------------------------------
// The grid as the README describes it: placement and structure checks
// ---------------------------------------------------------------------------------------------

/** The square the grid covers: side max(width, height) from the bounds' minimum corner. */
function worldOf(bounds: QueryRect): { x: number; y: number; side: number } {
  return { x: bounds.x, y: bounds.y, side: Math.max(bounds.width, bounds.height) };
}

/** The loose box of a cell of side s at column i, row j: the cell grown by s/2 on every side. */
function looseOf(
  world: { x: number; y: number },
  s: number,
  i: number,
  j: number,
): [number, number, number, number] {
  return [
    world.x + (i - 0.5) * s,
    world.y + (j - 0.5) * s,
    world.x + (i + 1.5) * s,
    world.y + (j + 1.5) * s,
  ];
}

/** Whether a box lies in a loose box, strictly inside on the far (max) side. */
function fitsLoose<T>(b: Box<T>, lb: readonly [number, number, number, number]): boolean {
  return b.minX >= lb[0] && b.minY >= lb[1] && b.maxX < lb[2] && b.maxY < lb[3];
}

/**
 * Where an item placed with the box `b` in `cell` may move without being placed again: the
 * cell's loose box, narrowed on each side where the cell has a neighbour to keep the item's
 * centre in the cell (computed for b's size; a side that b itself passes keeps the loose bound).
 */
function fitOf<T>(
  b: Box<T>,
  world: { x: number; y: number; side: number },
  cell: { depth: number; i: number; j: number },
): [number, number, number, number] {
  const s = world.side / 2 ** cell.depth;
  const last = 2 ** cell.depth - 1;
  const fit = looseOf(world, s, cell.i, cell.j);
  const sides = [
    [cell.i, b.minX, b.maxX, world.x + cell.i * s],
    [cell.j, b.minY, b.maxY, world.y + cell.j * s],
  ] as const;
  sides.forEach(([k, lo, hi, start], axis) => {
    const half = (hi - lo) / 2;
    if (k > 0 && lo >= start - half) fit[axis] = start - half;
    if (k < last && hi < start + s + half) fit[axis + 2] = start + s + half;
  });
  return fit;
}

/** Where the README's placement rule puts a fresh item, or 'outside'. */
type Cell = { depth: number; i: number; j: number } | 'outside';

/**
 * The cell of a freshly inserted item: its level follows from its size (the deepest level, at
 * most `depth`, whose cells are at least as large as the item), its cell from its centre (clamped
 * to the grid); when the item does not lie in that cell's loose box (strictly on the far side:
 * the world's edge, rounding) it goes one level up; items that fit no cell are 'outside'.
 * Exact for power-of-two worlds and dyadic coordinates.
 */
function expectedCell<T>(b: Box<T>, world: { x: number; y: number; side: number }, depth: number) {
  const size = Math.max(b.maxX - b.minX, b.maxY - b.minY);
  let level = 0;
  while (level < depth && world.side / 2 ** (level + 1) >= size) level++;
  const cx = b.minX + (b.maxX - b.minX) / 2;
  const cy = b.minY + (b.maxY - b.minY) / 2;
  for (let L = level; L >= 0; L--) {
    const s = world.side / 2 ** L;
    const n = 2 ** L - 1;
    const i = Math.min(n, Math.max(0, Math.floor((cx - world.x) / s)));
    const j = Math.min(n, Math.max(0, Math.floor((cy - world.y) / s)));
    if (fitsLoose(b, looseOf(world, s, i, j))) return { depth: L, i, j } as Cell;
  }
  return 'outside' as Cell;
}

/** Items per cell as visit reports them, keyed `depth:i,j` (the root's count includes outside). */
function countsByCell(nodes: readonly VisitRecord[], world: { x: number; y: number }) {
  const m = new Map<string, number>();
  for (const n of nodes) {
    if (n.count === 0) continue;
    const i = Math.round((n.x - world.x) / n.width);
    const j = Math.round((n.y - world.y) / n.height);
    m.set(`${n.depth}:${i},${j}`, n.count);
  }
  return m;
}

/** The per-cell counts a fresh load of `boxes` must give, by `expectedCell`. */
function expectedCounts<T>(
  boxes: readonly Box<T>[],
  world: { x: number; y: number; side: number },
  depth: number,
) {
  const m = new Map<string, number>();
  for (const b of boxes) {
    const c = expectedCell(b, world, depth);
    const key = c === 'outside' ? '0:0,0' : `${c.depth}:${c.i},${c.j}`;
    m.set(key, (m.get(key) ?? 0) + 1);
  }
  return m;
}

/**
 * What visit must show of a grid-loose quadtree holding `boxes`: a tree of quarter cells whose
 * root is the world square, no deeper than `depth`, reporting only cells with non-empty subtrees,
 * counts summing to the size; every item of a cell inside that cell's loose box (so the root's
 * own count covers every item outside the root's loose box).
 */
function checkGridVisit<T>(
  tree: GridLooseQuadtree<T>,
  boxes: readonly Box<T>[],
  bounds: QueryRect,
  depth: number,
): string | null {
  const nodes = recordVisit(tree);
  const problem = checkVisitTree(nodes, { bounds, maxLevels: depth, size: boxes.length });
  if (problem !== null) return problem;
  const world = worldOf(bounds);
  const root = nodes[0]!;
  if (
    root.x !== world.x ||
    root.y !== world.y ||
    root.width !== world.side ||
    root.height !== world.side
  ) {
    return `root cell ${JSON.stringify([root.x, root.y, root.width, root.height])} is not the world square ${JSON.stringify(world)}`;
  }
  for (let k = 1; k < nodes.length; k++) {
    const n = nodes[k]!;
    if (n.subtree === 0) return `node ${k} (depth ${n.depth}) has an empty subtree but was visited`;
    const i = Math.round((n.x - world.x) / n.width);
    const j = Math.round((n.y - world.y) / n.height);
    const lb = looseOf(world, n.width, i, j);
    const fit = boxes.filter((b) => fitsLoose(b, lb)).length;
    if (n.count > fit) {
      return `cell depth ${n.depth} (${i},${j}) holds ${n.count} items, only ${fit} fit its loose box`;
    }
  }
  const rootLoose = looseOf(world, world.side, 0, 0);
  const outside = boxes.filter((b) => !fitsLoose(b, rootLoose)).length;
  if (root.count < outside) {
    return `root count ${root.count} < ${outside} items outside the root's loose box`;
  }
  return checkPlacement(nodes, boxes, 2);
}

// ---------------------------------------------------------------------------------------------
// Item shapes of the property tests: `{ x, y, width?, height? }` and min/max with toRect
// ---------------------------------------------------------------------------------------------

/** A rectangle drawn by the generators; `omit` drops zero sizes from default-shape items. */
interface Shape<I extends Labelled> {
  readonly name: string;
  make(id: number): I;
  place(item: I, r: GenRect): void;
  /** The item's current rectangle. */
  rect(item: I): GenRect;
  /** Makes one field bad (which: 0..3, kind: 0..4); returns a function that restores it. */
  spoil(item: I, which: number, kind: number): () => void;
  readonly toRect: ((item: I) => RectLikeInput) | undefined;
}

function setField(target: object, field: string, value: unknown): () => void {
  const rec = target as Record<string, unknown>;
  const had = Object.hasOwn(rec, field);
  const old = rec[field];
  rec[field] = value;
  return () => {
    if (had) rec[field] = old;
    else delete rec[field];
  };
}

const plainShape: Shape<Item> = {
  name: '{ x, y, width?, height? } items',
  make: (id) => ({ id, x: 0, y: 0 }),
  place(it, r) {
    it.x = r.x;
    it.y = r.y;
    if (r.omit && r.w === 0) delete it.width;
    else it.width = r.w;
    if (r.omit && r.h === 0) delete it.height;
    else it.height = r.h;
  },
  rect: (it) => ({ x: it.x, y: it.y, w: it.width ?? 0, h: it.height ?? 0, omit: true }),
  spoil(it, which, kind) {
    const field = (['x', 'y', 'width', 'height'] as const)[which]!;
    const values =
      which < 2 ? [NaN, Infinity, -Infinity, '1', undefined] : [NaN, Infinity, -Infinity, -1, '1'];
    return setField(it, field, values[kind]);
  },
  toRect: undefined,
};

const minMaxShape: Shape<MinMaxItem> = {
  name: '{ minX, minY, maxX, maxY } items with toRect',
  make: (id) => ({ id, minX: 0, minY: 0, maxX: 0, maxY: 0 }),
  place(it, r) {
    it.minX = r.x;
    it.minY = r.y;
    it.maxX = r.x + r.w;
    it.maxY = r.y + r.h;
  },
  rect: (it) => ({
    x: it.minX,
    y: it.minY,
    w: it.maxX - it.minX,
    h: it.maxY - it.minY,
    omit: false,
  }),
  spoil(it, which, kind) {
    const field = (['minX', 'minY', 'maxX', 'maxY'] as const)[which]!;
    let value: number;
    if (kind === 3) {
      // a negative size: min above max
      if (field === 'minX') value = it.maxX + 1;
      else if (field === 'minY') value = it.maxY + 1;
      else if (field === 'maxX') value = it.minX - 1;
      else value = it.minY - 1;
    } else {
      value = [NaN, Infinity, -Infinity, 0, NaN][kind]!;
    }
    return setField(it, field, value);
  },
  toRect: (b) => ({ x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY }),
};

// ---------------------------------------------------------------------------------------------
// Generators: a 16 x 16 world, cells down to 1/2 (depth 5), so that items on a small integer,
// half- and quarter-integer grid touch, sit on cell edges and loose-box edges, and change cell
// and level as they move; sizes from 0 to larger than the world; many items outside the bounds
// ---------------------------------------------------------------------------------------------

const coord = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -6, max: 22 }) },
  { weight: 2, arbitrary: fc.integer({ min: -12, max: 44 }).map((v) => v / 2) },
  { weight: 1, arbitrary: fc.integer({ min: -8, max: 72 }).map((v) => v / 4) },
  { weight: 1, arbitrary: fc.constantFrom(-40, -17, 33, 48) },
);
const size = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 5 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 16 }).map((v) => v / 4) },
  { weight: 1, arbitrary: fc.integer({ min: 6, max: 40 }) },
);
const genRect: fc.Arbitrary<GenRect> = fc.record({
  x: coord,
  y: coord,
  w: size,
  h: size,
  omit: fc.boolean(),
});

const qcoord = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -8, max: 24 }) },
  { weight: 1, arbitrary: fc.integer({ min: -16, max: 48 }).map((v) => v / 2) },
  { weight: 1, arbitrary: fc.integer({ min: -8, max: 72 }).map((v) => v / 4) },
);
const qsize = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 8 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 60 }) },
);

const probeArb: fc.Arbitrary<Probe> = fc
  .record({
    rect: fc.record({ x: qcoord, y: qcoord, width: qsize, height: qsize }),
    px: qcoord,
    py: qcoord,
    cx: qcoord,
    cy: qcoord,
    r: fc.constantFrom(0, 0.25, 0.5, 1, 2, 2.5, 3, 5, 8, 40),
    x1: qcoord,
    y1: qcoord,
    x2: qcoord,
    y2: qcoord,
    zeroSegment: fc.constantFrom(false, false, false, true),
    nx: qcoord,
    ny: qcoord,
    k: fc.integer({ min: 0, max: 7 }),
    maxD: fc.constantFrom(Infinity, Infinity, 0, 0.5, 1, 2.5, 4, 10),
    prefill: fc.integer({ min: 0, max: 6 }),
  })
  .map(({ zeroSegment, ...p }) => (zeroSegment ? { ...p, x2: p.x1, y2: p.y1 } : p));

/** How every item moves in a `drift` step: a shift, and sometimes a resize. */
interface Drift {
  dx: number;
  dy: number;
  /** 0: keep the size, 1: double it, 2: halve it, 3: make it a point, 4: size 3 x 3. */
  resize: number;
  /** Tell the index by updateAll() (else by update(item) for each item). */
  all: boolean;
}

const shift = fc.oneof(
  fc.integer({ min: -4, max: 4 }),
  fc.integer({ min: -8, max: 8 }).map((v) => v / 2),
  fc.integer({ min: -8, max: 8 }).map((v) => v / 4),
  fc.constantFrom(-16, 16, 30),
);

/** The steps of this suite only: every item drifting, and updateAll with one bad item. */
type GridOp =
  | { t: 'drift'; drift: Drift; every: number }
  | { t: 'updateAllBad'; slot: number; which: number; kind: number; moves: GenRect[] };

type Op = CommonOp | GridOp;

function opArb(poolSize: number): fc.Arbitrary<Op> {
  const slot = fc.integer({ min: 0, max: poolSize - 1 });
  const entry = fc.record({ slot, r: genRect });
  const which = fc.integer({ min: 0, max: 3 });
  const kind = fc.integer({ min: 0, max: 4 });
  const drift: fc.Arbitrary<Drift> = fc.record({
    dx: shift,
    dy: shift,
    resize: fc.constantFrom(0, 0, 0, 1, 2, 3, 4),
    all: fc.boolean(),
  });
  return fc.oneof(
    { weight: 10, arbitrary: fc.record({ t: fc.constant('insert' as const), slot, r: genRect }) },
    { weight: 4, arbitrary: fc.record({ t: fc.constant('remove' as const), slot }) },
    { weight: 6, arbitrary: fc.record({ t: fc.constant('update' as const), slot, r: genRect }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('move' as const), slot, r: genRect }) },
    {
      weight: 2,
      arbitrary: fc.record({
        t: fc.constant('updateAll' as const),
        moves: fc.array(entry, { maxLength: 6 }),
      }),
    },
    {
      weight: 5,
      arbitrary: fc.record({
        t: fc.constant('drift' as const),
        drift,
        every: fc.constantFrom(1, 1, 2, 3),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        t: fc.constant('load' as const),
        entries: fc.array(entry, { maxLength: 10 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('clear' as const) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('cleanup' as const) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('insertBad' as const), which, kind }) },
    {
      weight: 1,
      arbitrary: fc.record({ t: fc.constant('updateBad' as const), slot, which, kind }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant('updateAllBad' as const),
        slot,
        which,
        kind,
        moves: fc.array(genRect, { maxLength: 4 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant('loadBad' as const),
        entries: fc.array(entry, { maxLength: 6 }),
        at: fc.nat(),
        which,
        kind,
      }),
    },
  );
}

interface GridConfig {
  bounds: QueryRect;
  depth: number;
}

const BOUNDS_CHOICES: readonly QueryRect[] = [
  { x: 0, y: 0, width: 16, height: 16 },
  { x: 0, y: 0, width: 16, height: 16 },
  { x: 0, y: 0, width: 16, height: 16 },
  { x: -8, y: -8, width: 32, height: 32 },
  { x: 0, y: 0, width: 16, height: 8 },
  { x: 0, y: 4, width: 6, height: 12 },
  { x: 2, y: 2, width: 12, height: 12 },
  { x: 0.5, y: -1, width: 15, height: 10 },
];

const configArb: fc.Arbitrary<GridConfig> = fc.record({
  bounds: fc.constantFrom(...BOUNDS_CHOICES),
  depth: fc.integer({ min: 0, max: 5 }),
});

// ---------------------------------------------------------------------------------------------
// Checking one state
// ---------------------------------------------------------------------------------------------

const pairKey = (ps: readonly [Labelled, Labelled][]): string =>
  ps.map(([a, b]) => `${a.id}-${b.id}`).join(' ');

/** size, has, all, pairs (and its order on a second call) and visit, compared with the model. */
function checkStructure<I extends Labelled>(
  tree: GridLooseQuadtree<I>,
  model: BruteIndex<I>,
  pool: readonly I[],
  cfg: GridConfig,
): void {
  expect(tree.size, 'size').toBe(model.size);
  for (const it of pool) expect(tree.has(it), `has(${label(it)})`).toBe(model.has(it));
  expect(sameItems(tree.all(), model.items(), label), 'all()').toBeNull();

  const got = pairsOf(tree);
  expect(samePairs(got, model.pairs(), label), 'pairs').toBeNull();
  expect(pairKey(pairsOf(tree)), 'pairs order on a second call').toBe(pairKey(got));

  expect(checkGridVisit(tree, model.boxes(), cfg.bounds, cfg.depth), 'visit').toBeNull();
  // return true skips the children
  const nodes = recordVisit(tree);
  const shallow = recordVisit(tree, (n) => n.depth >= 1);
  expect(shallow.map((n) => [n.x, n.y, n.depth, n.count])).toEqual(
    nodes.filter((n) => n.depth <= 1).map((n) => [n.x, n.y, n.depth, n.count]),
  );
}

/** Shifts a coordinate, wrapping it into [-24, 40) so that drifting items stay around. */
const wrap = (v: number): number => ((((v + 24) % 64) + 64) % 64) - 24;

function drifted(r: GenRect, d: Drift): GenRect {
  let { w, h } = r;
  if (d.resize === 1) {
    w *= 2;
    h *= 2;
  } else if (d.resize === 2) {
    w /= 2;
    h /= 2;
  } else if (d.resize === 3) {
    w = 0;
    h = 0;
  } else if (d.resize === 4) {
    w = 3;
    h = 3;
  }
  return {
    x: wrap(r.x + d.dx),
    y: wrap(r.y + d.dy),
    w: Math.min(w, 80),
    h: Math.min(h, 80),
    omit: r.omit,
  };
}

interface Scenario {
  cfg: GridConfig;
  initial: GenRect[];
  steps: { op: Op; probe: Probe }[];
}

function runScenario<I extends Labelled>(
  shape: Shape<I>,
  poolSize: number,
  { cfg, initial, steps }: Scenario,
): void {
  const options = { bounds: cfg.bounds, depth: cfg.depth };
  const tree =
    shape.toRect === undefined
      ? // The plain shape's items are rectangles, which the generic I cannot say.
        (new GridLooseQuadtree<RectLike>(options) as unknown as GridLooseQuadtree<I>)
      : new GridLooseQuadtree<I>({ ...options, toRect: shape.toRect });
  const model = new BruteIndex<I>(shape.toRect);
  runModelSteps<I, GridOp>(tree, model, shape, poolSize, initial, steps, {
    extra(op, model, pool) {
      if (op.t === 'drift') {
        // every item moves (and maybe resizes): across cells, levels and the outer bounds
        pool.forEach((it, i) => {
          if (i % op.every === 0) shape.place(it, drifted(shape.rect(it), op.drift));
        });
        if (op.drift.all) {
          expect(tree.updateAll()).toBe(tree);
          for (const it of model.items()) model.set(it);
        } else {
          for (const it of pool) {
            expect(tree.update(it)).toBe(model.has(it));
            if (model.has(it)) model.set(it);
          }
        }
        return;
      }
      // updateAllBad: some items move, one present item gets bad bounds: updateAll throws and
      // moves none
      const victim = pool[op.slot]!;
      if (!model.has(victim)) return;
      op.moves.forEach((r, i) => {
        const it = pool[(op.slot + 1 + i) % poolSize]!;
        if (it !== victim) shape.place(it, r);
      });
      const restore = shape.spoil(victim, op.which, op.kind);
      expectThrow(() => tree.updateAll(), BAD_BOUNDS);
      restore();
      // the model keeps every old box: the checks show that nothing moved
    },
    check: (m, pool) => checkStructure(tree, m, pool, cfg),
  });
}

function scenarioArb(poolSize: number, maxSteps: number): fc.Arbitrary<Scenario> {
  return fc.record({
    cfg: configArb,
    initial: fc.array(genRect, { maxLength: poolSize, size: 'max' }),
    steps: fc.array(fc.record({ op: opArb(poolSize), probe: probeArb }), {
      minLength: 1,
      maxLength: maxSteps,
      size: 'max',
    }),
  });
}

// ---------------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------------

/**
 * Stops a property after this long (a failure found by then is still reported, with the
 * counterexample shrunk so far): shrinking a 40-step scenario can otherwise take minutes.
 */
const SHRINK_LIMIT_MS = 30_000;

describe('GridLooseQuadtree against the brute-force model', () => {
  it('answers every query like the model after every insert, remove, update, updateAll, load, clear and cleanup, with items crossing cells, levels and the bounds', () => {
    fc.assert(
      fc.property(scenarioArb(16, 40), (scenario) => {
        runScenario(plainShape, 16, scenario);
      }),
      { numRuns: 200, interruptAfterTimeLimit: SHRINK_LIMIT_MS },
    );
  });

  it('stays exact with many items crowded into a small world and drifting every step', () => {
    fc.assert(
      fc.property(scenarioArb(64, 40), (scenario) => {
        runScenario(plainShape, 64, scenario);
      }),
      { numRuns: 40, interruptAfterTimeLimit: SHRINK_LIMIT_MS },
    );
  });

  it('answers every query like the model for { minX, minY, maxX, maxY } items read through toRect', () => {
    fc.assert(
      fc.property(scenarioArb(16, 40), (scenario) => {
        runScenario(minMaxShape, 16, scenario);
      }),
      { numRuns: 120, interruptAfterTimeLimit: SHRINK_LIMIT_MS },
    );
  });

  it('every query on a loaded set of up to 150 items equals brute force', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(genRect, { maxLength: 150, size: 'max' }),
        fc.array(probeArb, { minLength: 1, maxLength: 30, size: 'max' }),
        (cfg, rects, probes) => {
          const items = rects.map((r, i) => {
            const it = plainShape.make(i);
            plainShape.place(it, r);
            return it;
          });
          const tree = new GridLooseQuadtree<Item>(cfg).load(items);
          const model = modelOf(items);
          checkStructure(tree, model, items, cfg);
          for (const p of probes) checkQueries(tree, model, p);
        },
      ),
      { numRuns: 120, interruptAfterTimeLimit: SHRINK_LIMIT_MS },
    );
  });
});

describe('placement: level from size, cell from centre', () => {
  const POW2_BOUNDS: readonly QueryRect[] = [
    { x: 0, y: 0, width: 16, height: 16 },
    { x: -8, y: -8, width: 16, height: 16 },
    { x: 0, y: 0, width: 16, height: 4 },
    { x: 4, y: -4, width: 2, height: 8 },
  ];

  it('load(items) puts each item in the cell its size and centre pick (visit counts per cell agree)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...POW2_BOUNDS),
        fc.integer({ min: 0, max: 6 }),
        fc.array(genRect, { maxLength: 80 }),
        (bounds, depth, rects) => {
          const items = rects.map((r, i) => {
            const it = plainShape.make(i);
            plainShape.place(it, r);
            return it;
          });
          const tree = new GridLooseQuadtree<Item>({ bounds, depth }).load(items);
          const world = worldOf(bounds);
          const want = expectedCounts(modelOf(items).boxes(), world, depth);
          const got = countsByCell(recordVisit(tree), world);
          expect(Object.fromEntries([...got].sort())).toEqual(Object.fromEntries([...want].sort()));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('update(item) keeps an item in its cell while its centre stays in the cell and its box in the loose box, else places it as insert would', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...POW2_BOUNDS),
        fc.integer({ min: 0, max: 6 }),
        genRect,
        genRect,
        (bounds, depth, from, to) => {
          const world = worldOf(bounds);
          const it = plainShape.make(0);
          plainShape.place(it, from);
          const it0 = { ...it };
          const tree = new GridLooseQuadtree<Item>({ bounds, depth }).insert(it);
          const before = expectedCell(boxOf(it, it), world, depth);
          plainShape.place(it, to);
          expect(tree.update(it)).toBe(true);
          const b = boxOf(it, it);
          const stays = before !== 'outside' && fitsLoose(b, fitOf(boxOf(it0, it0), world, before));
          const cell = stays ? before : expectedCell(b, world, depth);
          const key = cell === 'outside' ? '0:0,0' : `${cell.depth}:${cell.i},${cell.j}`;
          expect([...countsByCell(recordVisit(tree), world)]).toEqual([[key, 1]]);
          expect(tree.searchPoint(b.minX, b.minY)).toEqual([it]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const B16: QueryRect = { x: 0, y: 0, width: 16, height: 16 };

/** The (depth, x, y, count) of every visited cell that holds items itself. */
function occupied<T>(tree: GridLooseQuadtree<T>): [number, number, number, number][] {
  return recordVisit(tree)
    .filter((n) => n.count > 0)
    .map((n) => [n.depth, n.x, n.y, n.count]);
}

/**
 * Compares every query with the model on `n` random probes inside `region`, half of them anchored
 * on item corners so that touching is common.
 */
function expectQueriesMatch<T extends Labelled>(
  tree: GridLooseQuadtree<T>,
  model: BruteIndex<T>,
  region: QueryRect,
  rng: Rng,
  n: number,
): void {
  const boxes = model.boxes();
  const isIndexed = (it: T): boolean => model.has(it);
  const px = () => randFloat(rng, region.x, region.x + region.width);
  const py = () => randFloat(rng, region.y, region.y + region.height);
  const corner = (): [number, number] => {
    if (boxes.length === 0 || rng() < 0.5) return [px(), py()];
    const b = boxes[randInt(rng, 0, boxes.length - 1)]!;
    return [rng() < 0.5 ? b.minX : b.maxX, rng() < 0.5 ? b.minY : b.maxY];
  };
  const scale = Math.max(region.width, region.height);
  for (let i = 0; i < n; i++) {
    const [ax, ay] = corner();
    const [bx, by] = corner();
    const rect = {
      x: Math.min(ax, bx),
      y: Math.min(ay, by),
      width: Math.abs(ax - bx),
      height: Math.abs(ay - by),
    };
    const k = randInt(rng, 0, 5);
    const maxD = rng() < 0.5 ? Infinity : randFloat(rng, 0, scale / 3);
    expect(
      checkNearest(tree.nearest(ax, ay, k, maxD), boxes, ax, ay, k, maxD, label),
      `nearest(${ax}, ${ay}, ${k}, ${maxD})`,
    ).toBeNull();
    const want = model.search(rect);
    expect(sameItems(tree.search(rect), want, label), 'search').toBeNull();
    expect(tree.collides(rect), 'collides').toBe(want.length > 0);
    expect(
      supersetWithoutDuplicates(tree.retrieve(rect), want, isIndexed, label),
      'retrieve',
    ).toBeNull();
    expect(
      sameItems(tree.searchPoint(ax, ay), model.searchPoint(ax, ay), label),
      'searchPoint',
    ).toBeNull();
    const r = rng() < 0.2 ? 0 : randFloat(rng, 0, scale / 4);
    expect(
      sameItems(tree.searchCircle(ax, ay, r), model.searchCircle(ax, ay, r), label),
      'searchCircle',
    ).toBeNull();
    const [cx, cy] = rng() < 0.3 ? [ax, by] : [bx, by];
    expect(
      sameItems(tree.searchSegment(ax, ay, cx, cy), model.searchSegment(ax, ay, cx, cy), label),
      'searchSegment',
    ).toBeNull();
  }
}

describe('new GridLooseQuadtree(options)', () => {
  it('starts at depth DEFAULT_GRID_DEPTH (6) when empty and exposes bounds and depth', () => {
    expect(DEFAULT_GRID_DEPTH).toBe(6);
    expect(new GridLooseQuadtree({ bounds: B16 }).depth).toBe(6);
    const tree = new GridLooseQuadtree({ bounds: B16, depth: 6 });
    expect(tree.depth).toBe(6);
    expect(tree.bounds).toEqual(B16);
    expect(tree.size).toBe(0);
    // a point goes to the finest level: cells of side 16 / 2^6 = 0.25
    tree.insert(item(5.1, 5.3));
    expect(occupied(tree)).toEqual([[6, 5, 5.25, 1]]);
  });

  it('copies bounds: changing the options object afterwards changes nothing', () => {
    const bounds = { x: 0, y: 0, width: 16, height: 16 };
    const tree = new GridLooseQuadtree<Item>({ bounds, depth: 2 });
    bounds.width = 1000;
    bounds.x = -500;
    expect(tree.bounds).toEqual(B16);
    tree.insert(item(1, 1, 1, 1));
    expect(recordVisit(tree)[0]).toMatchObject({ x: 0, y: 0, width: 16, height: 16 });
  });

  it('covers a square of side max(width, height) from the bounds minimum corner', () => {
    for (const bounds of [
      { x: 0, y: 0, width: 16, height: 4 },
      { x: -3, y: 5, width: 2, height: 10 },
    ]) {
      const tree = new GridLooseQuadtree<Item>({ bounds, depth: 3 });
      const side = Math.max(bounds.width, bounds.height);
      expect(recordVisit(tree)).toEqual([
        expect.objectContaining({ x: bounds.x, y: bounds.y, width: side, height: side, depth: 0 }),
      ]);
      // an item in the square but outside the bounds sits in a cell like any other
      const far = item(bounds.x + side - 1, bounds.y + side - 1, 0.5, 0.5);
      tree.insert(far);
      // the last cell of level 3, of side side / 8
      expect(occupied(tree)).toEqual([
        [3, bounds.x + (7 * side) / 8, bounds.y + (7 * side) / 8, 1],
      ]);
      expect(tree.searchPoint(far.x, far.y)).toEqual([far]);
    }
  });

  it('depth 0 is a single cell that holds everything, and every query stays exact', () => {
    const rng = mulberry32(3);
    const items = Array.from({ length: 60 }, () =>
      item(randInt(rng, -10, 26), randInt(rng, -10, 26), randInt(rng, 0, 6), randInt(rng, 0, 6)),
    );
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 0 }).load(items);
    const nodes = recordVisit(tree);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]!.count).toBe(60);
    const model = modelOf(items);
    expect(samePairs(pairsOf(tree), model.pairs(), label)).toBeNull();
    expectQueriesMatch(tree, model, { x: -12, y: -12, width: 40, height: 40 }, rng, 60);
  });

  it('depth 10 (the limit) works: a million finest cells, items at every level', () => {
    const rng = mulberry32(4);
    const bounds = { x: 0, y: 0, width: 1024, height: 1024 };
    const items = Array.from({ length: 400 }, () => {
      const s = 2 ** randInt(rng, -2, 10) * rng();
      return item(randFloat(rng, -20, 1040), randFloat(rng, -20, 1040), s, s * rng());
    });
    const tree = new GridLooseQuadtree<Item>({ bounds, depth: 10 }).load(items);
    const model = modelOf(items);
    expect(checkGridVisit(tree, model.boxes(), bounds, 10)).toBeNull();
    expect(Math.max(...recordVisit(tree).map((n) => n.depth))).toBe(10);
    expect(samePairs(pairsOf(tree), model.pairs(), label)).toBeNull();
    expectQueriesMatch(tree, model, { x: -30, y: -30, width: 1100, height: 1100 }, rng, 60);
  });
});

describe('placement and update(item)', () => {
  it('puts an item at the level its size dictates, in the cell of its centre (loose cells twice the cell)', () => {
    // world 16, depth 4: cell sides 16, 8, 4, 2, 1
    // [depth, x, y] of the cell
    const cases: [Item, [number, number, number]][] = [
      [item(5, 5, 3, 3), [2, 4, 4]], // size 3 -> level 2 (cells of 4), centre (6.5, 6.5)
      [item(3.5, 3.5, 1, 1), [4, 4, 4]], // size 1 -> level 4, centre (4, 4) on a cell corner
      [item(0, 0, 16, 16), [0, 0, 0]], // the whole world -> the root
      [item(6, 6, 4, 0), [2, 8, 4]], // size 4 = a level-2 cell, centre (8, 6)
      [item(9, 1), [4, 9, 1]], // a point -> the finest level
      [item(15.5, 15.5, 0.5, 0.5), [4, 15, 15]], // the last cell, loose box up to 16.5
      [item(1.75, 2.5, 1.5, 0.5), [3, 2, 2]], // size 1.5 -> level 3 (cells of 2), centre (2.5, 2.75)
    ];
    for (const [it, [depth, x, y]] of cases) {
      const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 4 }).insert(it);
      expect(occupied(tree), `item ${JSON.stringify(it)}`).toEqual([[depth, x, y, 1]]);
      const cx = it.x + (it.width ?? 0) / 2;
      const cy = it.y + (it.height ?? 0) / 2;
      expect(tree.searchPoint(cx, cy)).toEqual([it]);
    }
  });

  it('an item that does not fit its cell at the edge of the world goes up a level', () => {
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 4 });
    // size 1 -> level 4 (cells of 1); its centre is beyond the world, so the clamped cell's
    // loose box [14.5, 16.5) does not hold it; a level up, [13, 17) does
    const it = item(16.25, 8, 0.5, 0.5);
    tree.insert(it);
    expect(occupied(tree)).toEqual([[3, 14, 8, 1]]);
    expect(tree.search({ x: 16.5, y: 8, width: 0, height: 0 })).toEqual([it]);
  });

  it('items larger than the root cell, and items outside the bounds, are indexed, counted in the root and found', () => {
    const huge = item(-10, -10, 40, 40);
    const wide = item(-100, 7, 300, 1);
    const farAway = item(1000, -1000, 2, 2);
    const justOutside = item(-9, 3, 1, 1);
    const inside = item(3, 3, 1, 1);
    const items = [huge, wide, farAway, justOutside, inside];
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 3 }).load(items);
    const nodes = recordVisit(tree);
    expect(nodes[0]!.count, 'the root counts the outside list').toBe(4);
    expect(nodes.reduce((s, n) => s + n.count, 0)).toBe(5);
    expect(
      sameItems(tree.search({ x: 1000, y: -1000, width: 0, height: 0 }), [farAway], label),
    ).toBeNull();
    expect(sameItems(tree.searchPoint(3.5, 3.5), [huge, inside], label)).toBeNull();
    expect(sameItems(tree.searchPoint(150, 7.5), [wide], label)).toBeNull();
    expect(tree.nearest(1000, -990)).toEqual([farAway]);
    expect(sameItems(tree.searchSegment(-9.5, 3.5, -8, 4), [justOutside, huge], label)).toBeNull();
    expect(sameItems(tree.searchCircle(-50, 7.5, 1), [wide], label)).toBeNull();
    expect(tree.collides({ x: 1001, y: -999, width: 0, height: 0 })).toBe(true);
    expect(tree.collides({ x: 999, y: -999, width: 0, height: 0 })).toBe(false);
    expect(samePairs(pairsOf(tree), modelOf(items).pairs(), label)).toBeNull();
    expect(tree.remove(farAway)).toBe(true);
    expect(recordVisit(tree)[0]!.count).toBe(3);
    expect(tree.search({ x: 1000, y: -1000, width: 2, height: 2 })).toEqual([]);
  });

  it('update(item) leaves an item in its cell (O(1)) while its centre stays in the cell, else moves it to its new cell', () => {
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 4 });
    const it = item(4.25, 4.25, 0.5, 0.5); // level 4, cell (4, 4), loose box [3.5, 5.5)
    const other = item(10, 10, 0.5, 0.5);
    tree.load([it, other]);
    expect(occupied(tree)).toContainEqual([4, 4, 4, 1]);
    // moves with its centre in the cell [4, 5) (its box past the cell's edges): the same cell
    for (const [x, y] of [
      [3.75, 3.75],
      [4.7, 4.7],
      [3.8, 4.74],
    ] as const) {
      it.x = x;
      it.y = y;
      expect(tree.update(it)).toBe(true);
      expect(occupied(tree)).toContainEqual([4, 4, 4, 1]);
      expect(tree.searchPoint(x + 0.25, y + 0.25)).toEqual([it]);
    }
    // its centre leaves the cell, the box still in the loose box: it moves to its centre's cell.
    // Across the lower edge (centre 3.95), back across that cell's upper edge (centre 4.05, the
    // box in its loose box [2.5, 4.5)), then two cells on.
    it.y = 4.25;
    for (const [x, i] of [
      [3.7, 3],
      [3.8, 4],
      [5, 5],
    ] as const) {
      it.x = x;
      tree.update(it);
      expect(occupied(tree)).toContainEqual([4, i, 4, 1]);
    }
    // on the world's edge, the centre may leave the grid while the box stays in the loose box
    const edge = item(0.25, 8.25, 0.5, 0.5); // cell (0, 8), loose box [-0.5, 1.5)
    tree.insert(edge);
    edge.x = -0.4; // centre -0.15
    tree.update(edge);
    expect(occupied(tree)).toContainEqual([4, 0, 8, 1]);
    tree.remove(edge);
    // grows: changes level
    it.width = 3;
    it.height = 3;
    tree.update(it);
    expect(occupied(tree)).toContainEqual([2, 4, 4, 1]);
    // leaves the bounds and comes back
    it.x = 40;
    tree.update(it);
    expect(recordVisit(tree)[0]!.count).toBe(1);
    expect(tree.searchPoint(41, 5)).toEqual([it]);
    it.x = 1;
    it.width = 0.5;
    it.height = 0.5;
    tree.update(it);
    expect(occupied(tree)).toEqual(
      expect.arrayContaining([
        [4, 1, 4, 1],
        [4, 10, 10, 1],
      ]),
    );
    expect(tree.searchPoint(41, 5)).toEqual([]);
    expect(tree.size).toBe(2);
  });

  it('updateAll() with an item whose new bounds are bad throws, naming the field, and moves no item', () => {
    const a = item(1, 1, 1, 1);
    const b = item(5, 5, 1, 1);
    const c = item(9, 9);
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 3 }).load([a, b, c]);
    a.x = 12;
    c.x = 40;
    b.height = -2;
    expectBadInput(() => tree.updateAll(), [RangeError], 'height', '-2');
    expect(tree.searchPoint(1.5, 1.5)).toEqual([a]);
    expect(tree.searchPoint(9, 9)).toEqual([c]);
    expect(tree.searchPoint(12.5, 1.5)).toEqual([]);
    b.height = 1;
    expect(tree.updateAll()).toBe(tree);
    expect(tree.searchPoint(12.5, 1.5)).toEqual([a]);
    expect(tree.searchPoint(40, 9)).toEqual([c]);
  });

  it('update(item) returns false for an item that is not indexed, and insert of an indexed item throws', () => {
    const a = item(1, 1);
    const tree = new GridLooseQuadtree<Item>({ bounds: B16 });
    expect(tree.update(a)).toBe(false);
    expect(tree.remove(a)).toBe(false);
    expect(tree.size).toBe(0);
    tree.insert(a);
    const err = thrown(() => tree.insert(a));
    expect(err.message).toMatch(/already/);
    expect(tree.size).toBe(1);
    expect(tree.remove(a)).toBe(true);
    expect(tree.remove(a)).toBe(false);
  });

  it('queries use the bounds read at the last insert or update, not the current fields', () => {
    const a = item(1, 1, 1, 1);
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 4 }).insert(a);
    a.x = 10;
    expect(tree.searchPoint(1.5, 1.5)).toEqual([a]);
    expect(tree.searchPoint(10.5, 1.5)).toEqual([]);
    tree.update(a);
    expect(tree.searchPoint(1.5, 1.5)).toEqual([]);
    expect(tree.searchPoint(10.5, 1.5)).toEqual([a]);
  });
});

describe('retrieve(rect)', () => {
  it('returns the items of the cells whose loose bounds the rect touches: not far-away small items, but cell-mates that do not overlap', () => {
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 4 });
    const near = item(12.1, 12.1, 0.2, 0.2); // level 4, cell (12, 12)
    const mate = item(12.7, 12.7, 0.2, 0.2); // the same cell
    const far = item(1, 1, 0.5, 0.5);
    tree.load([near, mate, far]);
    const q = { x: 12, y: 12, width: 0.3, height: 0.3 };
    expect(tree.search(q)).toEqual([near]);
    const got = tree.retrieve(q);
    expect(sameItems(got, [near, mate], label)).toBeNull();
    expect(got).not.toContain(far);
    const out = [JUNK as Item, JUNK as Item, JUNK as Item];
    expect(tree.retrieveInto(q, out)).toBe(2);
    expect(out[2]).toBe(JUNK);
  });
});

// ---------------------------------------------------------------------------------------------

describe('pairs(cb)', () => {
  it('reports items that touch at an edge or a corner, points on points and points on edges, and never an item with itself', () => {
    const a = item(0, 0, 2, 2);
    const b = item(2, 0, 2, 2); // shares an edge with a
    const c = item(4, 2, 1, 1); // shares a corner with b
    const p = item(1, 2); // a point on a's top edge
    const q = item(1, 2); // the same point
    const lone = item(10, 10, 1, 1);
    const items = [a, b, c, p, q, lone];
    for (const depth of [0, 2, 4, 6]) {
      const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth }).load(items);
      const got = pairsOf(tree);
      expect(got.some(([x, y]) => x === y)).toBe(false);
      expect(samePairs(got, modelOf(items).pairs(), label)).toBeNull();
      expect(got).toHaveLength(5); // a-b, b-c, a-p, a-q, p-q
    }
  });

  it('reports n(n-1)/2 pairs for n coincident items, in a cell, on a cell corner, and outside the bounds', () => {
    const n = 120;
    for (const [x, y, w, h] of [
      [3, 5, 0.5, 0.5],
      [8, 8, 0, 0],
      [7, 7, 2, 2],
      [-30, 40, 1, 1],
    ] as const) {
      const items = Array.from({ length: n }, () => item(x, y, w, h));
      const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 5 }).load(items);
      const ps = pairsOf(tree);
      expect(ps).toHaveLength((n * (n - 1)) / 2);
      expect(samePairs(ps, brutePairs(modelOf(items).boxes()), label)).toBeNull();
    }
  });

  it('pairs(cb) of another GridLooseQuadtree inside a pairs callback does not disturb the outer walk', () => {
    const rng = mulberry32(5);
    const scene = () =>
      Array.from({ length: 120 }, () =>
        item(randInt(rng, -2, 18), randInt(rng, -2, 18), randInt(rng, 0, 4), randInt(rng, 0, 4)),
      );
    const outerItems = scene();
    const innerItems = scene();
    const outer = new GridLooseQuadtree<Item>({ bounds: B16, depth: 4 }).load(outerItems);
    const inner = new GridLooseQuadtree<Item>({ bounds: B16, depth: 4 }).load(innerItems);
    const innerPairs = modelOf(innerItems).pairs().length;
    const got: [Item, Item][] = [];
    let calls = 0;
    outer.pairs((a, b) => {
      got.push([a, b]);
      if (calls++ % 7 === 0) {
        let n = 0;
        inner.pairs(() => {
          n++;
        });
        expect(n).toBe(innerPairs);
      }
    });
    expect(samePairs(got, modelOf(outerItems).pairs(), label)).toBeNull();
  });

  it('stays exact when the pairs outnumber its pair buffer: nested walks of another index, and a callback that throws', () => {
    // Thousands of pairs per row (the walk reports them in batches of 4096): each batch must be
    // reported whole, even when the callback walks another index's pairs meanwhile.
    const rng = mulberry32(11);
    const crowd = (n: number) =>
      Array.from({ length: n }, () =>
        item(rng() * 15, rng() * 15, 1 + rng() * 3, randInt(rng, 0, 3) === 0 ? 0 : 1 + rng() * 3),
      );
    const outerItems = crowd(700);
    const innerItems = crowd(500);
    const expected = modelOf(outerItems).pairs();
    expect(expected.length).toBeGreaterThan(3 * 4096);
    for (const depth of [0, 2, 3]) {
      const outer = new GridLooseQuadtree<Item>({ bounds: B16, depth }).load(outerItems);
      const inner = new GridLooseQuadtree<Item>({ bounds: B16, depth }).load(innerItems);
      const innerPairs = modelOf(innerItems).pairs().length;
      const got: [Item, Item][] = [];
      let calls = 0;
      outer.pairs((a, b) => {
        got.push([a, b]);
        if (calls++ % 1000 === 0) {
          let n = 0;
          inner.pairs(() => {
            n++;
          });
          expect(n).toBe(innerPairs);
        }
        // A nested walk that throws part-way disturbs nothing either.
        if (calls % 1500 === 0) {
          let m = 0;
          expect(() =>
            inner.pairs(() => {
              if (++m === 4500) throw new Error('inner stop');
            }),
          ).toThrow('inner stop');
        }
      });
      expect(samePairs(got, expected, label)).toBeNull();
      // A callback that throws part-way leaves nothing behind for the next walk.
      let seen = 0;
      expect(() =>
        outer.pairs(() => {
          if (++seen === 5000) throw new Error('stop');
        }),
      ).toThrow('stop');
      expect(samePairs(pairsOf(outer), expected, label)).toBeNull();
    }
  });

  it('throws naming the callback when it is not a function', () => {
    const tree = new GridLooseQuadtree<Item>({ bounds: B16 }).load([item(1, 1), item(1, 1)]);
    expectBadInput(() => tree.pairs(null as never), BAD_BOUNDS, 'callback', 'null');
    expectBadInput(() => tree.visit(42 as never), BAD_BOUNDS, 'callback', '42');
  });
});

// ---------------------------------------------------------------------------------------------

describe('callbacks of pairs and visit', () => {
  const build = () => {
    const items = [
      item(1, 1, 3, 3),
      item(2, 2, 3, 3),
      item(3, 3),
      item(9, 9, 2, 2),
      item(10, 10, 4, 4),
      item(-2, 7, 30, 0),
      item(40, 40, 1, 1),
      item(40.5, 40.5),
    ];
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 4 }).load(items);
    return { items, tree, model: modelOf(items) };
  };
  const probes = [
    { x: -50, y: -50, width: 100, height: 100 },
    { x: 2, y: 2, width: 1, height: 1 },
    { x: 10, y: 10, width: 0, height: 0 },
  ];
  const snapshot = (tree: GridLooseQuadtree<Item>) => ({
    size: tree.size,
    all: tree.all(),
    searches: probes.map((r) => tree.search(r)),
    cells: occupied(tree),
  });
  const expectUnchanged = (
    tree: GridLooseQuadtree<Item>,
    before: ReturnType<typeof snapshot>,
  ): void => {
    expect(tree.size).toBe(before.size);
    expect(sameItems(tree.all(), before.all, label)).toBeNull();
    probes.forEach((r, i) => {
      expect(sameItems(tree.search(r), before.searches[i]!, label)).toBeNull();
    });
    expect(occupied(tree)).toEqual(before.cells);
  };

  const mutations: [string, (tree: GridLooseQuadtree<Item>, items: Item[]) => unknown][] = [
    ['insert', (t) => t.insert(item(5, 5))],
    ['remove', (t, its) => t.remove(its[0]!)],
    [
      'update',
      (t, its) => {
        const a = its[3]!;
        const old = a.x;
        a.x = 0;
        try {
          return t.update(a);
        } finally {
          a.x = old;
        }
      },
    ],
    ['updateAll', (t) => t.updateAll()],
    ['clear', (t) => t.clear()],
    ['load', (t) => t.load([item(6, 6)])],
    ['cleanup', (t) => t.cleanup()],
    ['pairs', (t) => t.pairs(() => {})],
    ['visit', (t) => t.visit(() => {})],
  ];

  it.each(mutations)(
    '%s inside a pairs callback throws an Error that says why, and the index stays unchanged',
    (_, mutate) => {
      const { items, tree, model } = build();
      const before = snapshot(tree);
      const errors: unknown[] = [];
      const got: [Item, Item][] = [];
      tree.pairs((a, b) => {
        got.push([a, b]);
        try {
          mutate(tree, items);
          errors.push(null);
        } catch (e) {
          errors.push(e);
        }
      });
      expect(errors.length).toBeGreaterThan(0);
      for (const e of errors) {
        expect(e).toBeInstanceOf(Error);
        // it names the walk it was called from
        expect((e as Error).message).toMatch(/inside a pairs\(\).*callback/);
      }
      expect(samePairs(got, model.pairs(), label)).toBeNull();
      expectUnchanged(tree, before);
      // and mutation works again after the walk
      expect(tree.remove(items[0]!)).toBe(true);
      expect(tree.size).toBe(items.length - 1);
    },
  );

  it.each(mutations)(
    '%s inside a visit callback throws an Error and the index stays unchanged',
    (_, mutate) => {
      const { items, tree } = build();
      const before = snapshot(tree);
      const shape = recordVisit(tree);
      const errors: unknown[] = [];
      let visited = 0;
      tree.visit(() => {
        visited++;
        try {
          mutate(tree, items);
          errors.push(null);
        } catch (e) {
          errors.push(e);
        }
      });
      expect(visited).toBe(shape.length);
      expect(errors).toHaveLength(visited);
      for (const e of errors) expect(e).toBeInstanceOf(Error);
      expectUnchanged(tree, before);
      expect(tree.remove(items[0]!)).toBe(true);
    },
  );

  it('nearest and all inside a pairs callback give correct answers and the walk goes on', () => {
    const { tree, model } = build();
    const boxes = model.boxes();
    const got: [Item, Item][] = [];
    tree.pairs((a, b) => {
      got.push([a, b]);
      expect(
        checkNearest(tree.nearest(a.x, b.y, 3), boxes, a.x, b.y, 3, Infinity, label),
      ).toBeNull();
      expect(tree.all()).toHaveLength(boxes.length);
    });
    expect(samePairs(got, model.pairs(), label)).toBeNull();
  });

  it('an exception thrown by a pairs or visit callback propagates, and the index can be mutated afterwards', () => {
    const { items, tree } = build();
    const boom = new Error('boom');
    expect(() =>
      tree.pairs(() => {
        throw boom;
      }),
    ).toThrow(boom);
    expect(tree.remove(items[0]!)).toBe(true);
    expect(() =>
      tree.visit(() => {
        throw boom;
      }),
    ).toThrow(boom);
    const extra = item(7, 7);
    expect(tree.insert(extra)).toBe(tree);
    expect(tree.searchPoint(7, 7)).toContain(extra);
    expect(tree.size).toBe(items.length);
  });
});

// ---------------------------------------------------------------------------------------------

describe('toRect option', () => {
  interface Body {
    id: number;
    box: { left: number; top: number; w: number; h: number };
  }
  const toRect = (b: Body) => ({ x: b.box.left, y: b.box.top, width: b.box.w, height: b.box.h });
  const body = (left: number, top: number, w: number, h: number): Body => ({
    id: nextId++,
    box: { left, top, w, h },
  });

  it('reads bounds through toRect for insert, update, updateAll and every query', () => {
    const rng = mulberry32(8);
    const bodies = Array.from({ length: 80 }, () =>
      body(randInt(rng, -4, 20), randInt(rng, -4, 20), randInt(rng, 0, 5), randInt(rng, 0, 5)),
    );
    const tree = new GridLooseQuadtree<Body>({ bounds: B16, depth: 3, toRect }).load(bodies);
    for (const b of bodies) b.box.left += randInt(rng, -3, 3);
    tree.updateAll();
    bodies[0]!.box.top = 50;
    tree.update(bodies[0]!);
    const model = modelOf(bodies, toRect);
    expect(checkGridVisit(tree, model.boxes(), B16, 3)).toBeNull();
    expect(samePairs(pairsOf(tree), model.pairs(), label)).toBeNull();
    expectQueriesMatch(tree, model, { x: -8, y: -8, width: 64, height: 64 }, rng, 80);
  });

  it('toRect returning bad bounds throws RangeError naming toRect(item) and the field', () => {
    const tree = new GridLooseQuadtree<Body>({ bounds: B16, toRect });
    expectBadInput(() => tree.insert(body(NaN, 0, 1, 1)), [RangeError], 'toRect(item).x', 'NaN');
    expectBadInput(() => tree.insert(body(0, 0, -1, 1)), [RangeError], 'toRect(item).width', '-1');
    expect(tree.size).toBe(0);
  });

  it('works when toRect returns the same scratch object every time', () => {
    const scratch = { x: 0, y: 0, width: 0, height: 0 };
    const shared = (b: Body) => {
      scratch.x = b.box.left;
      scratch.y = b.box.top;
      scratch.width = b.box.w;
      scratch.height = b.box.h;
      return scratch;
    };
    const bodies = [body(1, 1, 1, 1), body(1.5, 1.5, 1, 1), body(10, 10, 0, 0)];
    const tree = new GridLooseQuadtree<Body>({ bounds: B16, toRect: shared }).load(bodies);
    expect(sameItems(tree.searchPoint(2, 2), bodies.slice(0, 2), label)).toBeNull();
    expect(tree.searchPoint(10, 10)).toEqual([bodies[2]]);
    expect(pairsOf(tree)).toHaveLength(1);
  });

  it('a toRect that queries the index during insert, load and updateAll gets correct answers', () => {
    let tree: GridLooseQuadtree<Body> | undefined;
    let model = new BruteIndex<Body>(toRect);
    let wrong = 0;
    let asked = 0;
    const querying = (b: Body) => {
      if (tree !== undefined) {
        asked++;
        const r = { x: b.box.left - 1, y: b.box.top - 1, width: 3, height: 3 };
        if (sameItems(tree.search(r), model.search(r), label) !== null) wrong++;
        if (tree.size !== model.size) wrong++;
      }
      return toRect(b);
    };
    const rng = mulberry32(12);
    const bodies = Array.from({ length: 40 }, () =>
      body(randInt(rng, -2, 18), randInt(rng, -2, 18), randInt(rng, 0, 3), randInt(rng, 0, 3)),
    );
    tree = new GridLooseQuadtree<Body>({ bounds: B16, depth: 3, toRect: querying });
    for (const b of bodies.slice(0, 20)) {
      tree.insert(b);
      model.set(b);
    }
    tree.load(bodies.slice(20));
    model = modelOf(bodies, toRect);
    for (const b of bodies) b.box.left += randInt(rng, -2, 2);
    tree.updateAll();
    model = modelOf(bodies, toRect);
    expect(asked).toBe(80);
    expect(wrong).toBe(0);
    expect(samePairs(pairsOf(tree), model.pairs(), label)).toBeNull();
    expect(
      sameItems(tree.search({ x: -10, y: -10, width: 40, height: 40 }), bodies, label),
    ).toBeNull();
  });

  it('a toRect that clears the index during updateAll() does not leave it corrupt', () => {
    let hook: (() => void) | null = null;
    const hooked = (b: Body) => {
      const h = hook;
      hook = null;
      h?.();
      return toRect(b);
    };
    const bodies = Array.from({ length: 6 }, (_, i) => body(2 * i, 2 * i, 1, 1));
    const tree = new GridLooseQuadtree<Body>({ bounds: B16, depth: 3, toRect: hooked }).load(
      bodies,
    );
    for (const b of bodies) b.box.left = 15 - b.box.left;
    hook = () => tree.clear();
    try {
      tree.updateAll();
    } catch (e) {
      // refusing is fine
      expect(e).toBeInstanceOf(Error);
    }
    // whatever happened, what the index reports must agree with itself
    const all = tree.all();
    expect(all).toHaveLength(tree.size);
    expect(recordVisit(tree).reduce((s, n) => s + n.count, 0)).toBe(tree.size);
    const extra = body(1, 1, 1, 1);
    tree.insert(extra);
    const model = modelOf(tree.all(), toRect);
    expect(
      sameItems(tree.search({ x: -50, y: -50, width: 100, height: 100 }), model.items(), label),
    ).toBeNull();
    expect(tree.searchPoint(1.5, 1.5)).toContain(extra);
  });

  it('a toRect that removes the item during update(item) does not leave the index corrupt', () => {
    let hook: (() => void) | null = null;
    const hooked = (b: Body) => {
      const h = hook;
      hook = null;
      h?.();
      return toRect(b);
    };
    const bodies = Array.from({ length: 6 }, (_, i) => body(2 * i, 2 * i, 1, 1));
    const tree = new GridLooseQuadtree<Body>({ bounds: B16, depth: 3, toRect: hooked }).load(
      bodies,
    );
    const victim = bodies[2]!;
    victim.box.left = 12;
    hook = () => tree.remove(victim);
    try {
      tree.update(victim);
    } catch (e) {
      expect(e).toBeInstanceOf(Error);
    }
    const model = modelOf(tree.all(), toRect);
    expect(tree.size).toBe(model.size);
    expect(recordVisit(tree).reduce((s, n) => s + n.count, 0)).toBe(tree.size);
    expect(
      sameItems(tree.search({ x: -50, y: -50, width: 100, height: 100 }), model.items(), label),
    ).toBeNull();
    expect(samePairs(pairsOf(tree), model.pairs(), label)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------

describe('degenerate data', () => {
  it('an empty index answers every query with nothing', () => {
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 3 });
    const r = { x: -100, y: -100, width: 300, height: 300 };
    expect(tree.size).toBe(0);
    expect(tree.all()).toEqual([]);
    expect(tree.search(r)).toEqual([]);
    expect(tree.searchPoint(8, 8)).toEqual([]);
    expect(tree.searchCircle(8, 8, 100)).toEqual([]);
    expect(tree.searchSegment(-100, -100, 100, 100)).toEqual([]);
    expect(tree.collides(r)).toBe(false);
    expect(tree.nearest(8, 8, 10)).toEqual([]);
    expect(tree.nearest(8, 8)).toEqual([]);
    expect(tree.retrieve(r)).toEqual([]);
    const out = [JUNK as Item, JUNK as Item];
    expect(tree.searchInto(r, out)).toBe(0);
    expect(tree.nearestInto(1, 1, 3, Infinity, out)).toBe(0);
    expect(out).toEqual([JUNK, JUNK]);
    expect(pairsOf(tree)).toEqual([]);
    expect(tree.cleanup()).toBe(tree);
    expect(checkGridVisit(tree, [], B16, 3)).toBeNull();
  });

  it('an index with one item answers every query exactly, wherever the item is', () => {
    for (const it of [item(3, 4, 2, 1), item(8, 8), item(-5, 20, 0, 3), item(-40, -40, 100, 100)]) {
      const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 4 }).insert(it);
      const model = modelOf([it]);
      expect(tree.all()).toEqual([it]);
      expect(tree.nearest(100, 100)).toEqual([it]);
      expect(pairsOf(tree)).toEqual([]);
      expectQueriesMatch(
        tree,
        model,
        { x: -10, y: -10, width: 36, height: 36 },
        mulberry32(14),
        80,
      );
    }
  });

  it('clear() removes every item, and items can be inserted again', () => {
    const items = [item(1, 1), item(20, 20, 1, 1), item(0, 0, 16, 16)];
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 3 }).load(items);
    tree.clear();
    expect(tree.size).toBe(0);
    expect(tree.all()).toEqual([]);
    expect(recordVisit(tree)).toHaveLength(1);
    for (const it of items) expect(tree.has(it)).toBe(false);
    tree.load(items);
    expect(tree.size).toBe(3);
    expect(samePairs(pairsOf(tree), modelOf(items).pairs(), label)).toBeNull();
  });

  it('100000 items at one point: no stack overflow, searchPoint returns all, remove removes one', () => {
    const n = 100_000;
    const items = Array.from({ length: n }, () => item(5.5, 5.5));
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 6 });
    for (const it of items) tree.insert(it);
    expect(tree.size).toBe(n);
    expect(occupied(tree)).toEqual([[6, 5.5, 5.5, n]]);
    const found = tree.searchPoint(5.5, 5.5);
    expect(found).toHaveLength(n);
    expect(new Set(found).size).toBe(n);
    expect(tree.searchPoint(5.75, 5.5)).toEqual([]);
    expect(tree.nearest(6, 6, 3)).toHaveLength(3);
    const victim = items[n >> 1]!;
    expect(tree.remove(victim)).toBe(true);
    expect(tree.has(victim)).toBe(false);
    expect(tree.searchPoint(5.5, 5.5)).toHaveLength(n - 1);
    // and they all move together, across cells
    for (const it of items) it.x = 12.25;
    tree.updateAll();
    expect(tree.searchPoint(12.25, 5.5)).toHaveLength(n - 1);
    expect(tree.searchPoint(5.5, 5.5)).toEqual([]);
  });

  it('huge coordinates (bounds of size 1e300, items near 1e300 and near 1e-300): every query and pairs are exact', () => {
    const bounds = { x: 0, y: 0, width: 1e300, height: 1e300 };
    const rng = mulberry32(15);
    const items: Item[] = [];
    for (let i = 0; i < 150; i++) {
      items.push(
        item(
          randFloat(rng, 0.5, 1) * 1e300,
          randFloat(rng, 0.5, 1) * 1e300,
          randFloat(rng, 0, 1) * 1e298,
          randFloat(rng, 0, 1) * 1e298,
        ),
      );
      items.push(item(randFloat(rng, 0, 1) * 1e-300, randFloat(rng, 0, 1) * 1e-300, 1e-301, 0));
      items.push(item(randFloat(rng, 0, 1) * 1e300, randFloat(rng, 0, 1) * 1e300));
    }
    items.push(item(0, 0), item(1e300, 1e300), item(-1e300, 5e299, 3e300, 0));
    const tree = new GridLooseQuadtree<Item>({ bounds, depth: 8 }).load(items);
    const model = modelOf(items);
    expect(sameItems(tree.search(bounds), model.search(bounds), label)).toBeNull();
    for (const it of items) expect(tree.searchPoint(it.x, it.y)).toContain(it);
    expectQueriesMatch(tree, model, bounds, rng, 100);
    expectQueriesMatch(tree, model, { x: 0, y: 0, width: 1e-300, height: 1e-300 }, rng, 100);
    expect(samePairs(pairsOf(tree), model.pairs(), label)).toBeNull();
  });

  it('tiny coordinates (bounds of size 1e-300): every query and pairs are exact', () => {
    const bounds = { x: 0, y: 0, width: 1e-300, height: 1e-300 };
    const rng = mulberry32(16);
    const items = Array.from({ length: 300 }, () =>
      item(
        randFloat(rng, -0.1, 1.1) * 1e-300,
        randFloat(rng, -0.1, 1.1) * 1e-300,
        randFloat(rng, 0, 0.05) * 1e-300,
        randFloat(rng, 0, 0.05) * 1e-300,
      ),
    );
    const tree = new GridLooseQuadtree<Item>({ bounds, depth: 6 }).load(items);
    const model = modelOf(items);
    for (const it of items) expect(tree.searchPoint(it.x, it.y)).toContain(it);
    expectQueriesMatch(tree, model, bounds, rng, 150);
    expect(samePairs(pairsOf(tree), model.pairs(), label)).toBeNull();
  });

  it('items far outside the bounds are found, and pair with each other and with items inside', () => {
    const rng = mulberry32(17);
    const items = Array.from({ length: 200 }, () =>
      item(
        randFloat(rng, -1e9, 1e9),
        randFloat(rng, -1e9, 1e9),
        randFloat(rng, 0, 1e8),
        randFloat(rng, 0, 1e8),
      ),
    );
    items.push(...Array.from({ length: 80 }, () => item(randInt(rng, 0, 16), randInt(rng, 0, 16))));
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 5 }).load(items);
    const model = modelOf(items);
    expect(
      sameItems(tree.search({ x: -2e9, y: -2e9, width: 4e9, height: 4e9 }), items, label),
    ).toBeNull();
    expectQueriesMatch(tree, model, { x: -1e9, y: -1e9, width: 2e9, height: 2e9 }, rng, 100);
    expectQueriesMatch(tree, model, B16, rng, 100);
    expect(samePairs(pairsOf(tree), model.pairs(), label)).toBeNull();
  });

  it('items on the far edges of the world and of the bounds are placed and found', () => {
    const bounds = { x: 0, y: 0, width: 16, height: 8 };
    const items = [
      item(16, 8),
      item(16, 16),
      item(15.5, 7.5, 0.5, 0.5),
      item(0, 0),
      item(8, 8, 8, 8),
      item(16, 0, 0, 16),
      item(0, 16, 16, 0),
    ];
    for (const depth of [0, 1, 3, 5]) {
      const tree = new GridLooseQuadtree<Item>({ bounds, depth }).load(items);
      const model = modelOf(items);
      expect(checkGridVisit(tree, model.boxes(), bounds, depth)).toBeNull();
      for (const it of items) expect(tree.searchPoint(it.x, it.y)).toContain(it);
      expect(samePairs(pairsOf(tree), model.pairs(), label)).toBeNull();
      expectQueriesMatch(
        tree,
        model,
        { x: -1, y: -1, width: 18, height: 18 },
        mulberry32(depth),
        40,
      );
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Extreme bounds, run in a worker thread so that a hang fails the test instead of the run
// ---------------------------------------------------------------------------------------------

/** The compiled directory, made once (the concurrent tests below share it). */
let compiled: Promise<string> | undefined;
const compiledSrc = (): Promise<string> => {
  compiled ??= compileSrc();
  return compiled;
};

/**
 * src/grid-loose-quadtree.ts and everything it imports, compiled to plain ES modules in a
 * temporary directory (with TypeScript's transpiler, file by file).
 */
async function compileSrc(): Promise<string> {
  const ts = (await import('typescript')).default;
  const src = fileURLToPath(new URL('../src/', import.meta.url));
  const out = mkdtempSync(join(tmpdir(), 'quadkit-grid-test-'));
  const todo = ['grid-loose-quadtree.ts'];
  const done = new Set<string>();
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (done.has(file)) continue;
    done.add(file);
    const text = readFileSync(join(src, file), 'utf8');
    for (const m of text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
      todo.push(join(dirname(file), `${m[1]}.ts`));
    }
    const js = ts.transpileModule(text, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const dest = join(out, file.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, js);
  }
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }');
  return out;
}

afterAll(async () => {
  if (compiled !== undefined) rmSync(await compiled, { recursive: true, force: true });
});

/**
 * Runs `body` (JavaScript with `GridLooseQuadtree` and the structured-cloned `data` in scope,
 * returning a JSON-able value) in a worker thread; resolves with the value, or with
 * `{ timedOut: true }` after `ms`.
 */
async function inWorker(body: string, ms: number, data: unknown = null): Promise<unknown> {
  const dir = await compiledSrc();
  const file = join(dir, `probe-${nextId++}.mjs`);
  writeFileSync(
    file,
    `import { parentPort, workerData as data } from 'node:worker_threads';
import { GridLooseQuadtree } from './grid-loose-quadtree.js';
parentPort.postMessage((() => { ${body} })());
`,
  );
  const worker = new Worker(pathToFileURL(file), { workerData: data });
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve({ timedOut: true }), ms);
      worker.on('message', (v) => {
        clearTimeout(timer);
        resolve(v);
      });
      worker.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
  } finally {
    await worker.terminate();
  }
}

/** Generous: each of these walks takes milliseconds. */
const WORKER_MS = 3000;

/** Unordered pair keys `minId-maxId`, sorted, for comparisons across threads. */
const pairKeys = (ps: readonly (readonly [Labelled, Labelled])[]): string[] =>
  ps.map(([a, b]) => (a.id < b.id ? `${a.id}-${b.id}` : `${b.id}-${a.id}`)).sort();

/** A scene of small integer boxes around B16, as plain data (it crosses to a worker). */
function plainScene(seed: number, n: number): Required<Item>[] {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, (_, id) => ({
    id,
    x: randInt(rng, -2, 18),
    y: randInt(rng, -2, 18),
    width: randInt(rng, 0, 4),
    height: randInt(rng, 0, 4),
  }));
}

// These run in a worker thread, where a walk that never ends fails the test after WORKER_MS
// instead of hanging the run.
describe.concurrent('walks that must end (each run in a worker thread)', () => {
  it('queries inside a pairs callback give correct answers and the walk goes on', async ({
    expect,
  }) => {
    const items = plainScene(20, 120);
    const want = pairKeys(brutePairs(modelOf(items).boxes()));
    const result = await inWorker(
      `const over = (i, r) => i.x <= r.x + r.width && i.x + i.width >= r.x &&
         i.y <= r.y + r.height && i.y + i.height >= r.y;
       const t = new GridLooseQuadtree({ bounds: { x: 0, y: 0, width: 16, height: 16 }, depth: 4 });
       t.load(data);
       const pairs = [];
       let wrong = 0;
       t.pairs((a, b) => {
         pairs.push(a.id < b.id ? a.id + '-' + b.id : b.id + '-' + a.id);
         const r = { x: a.x, y: a.y, width: 2, height: 2 };
         if (t.search(r).length !== data.filter((i) => over(i, r)).length) wrong++;
         if (!t.collides(r)) wrong++;
         t.searchPoint(b.x, b.y);
         t.searchCircle(a.x, b.y, 1);
         t.searchSegment(a.x, a.y, b.x, b.y);
         t.retrieve(r);
       });
       return { pairs: pairs.sort(), wrong };`,
      WORKER_MS,
      items,
    );
    expect(result).toEqual({ pairs: want, wrong: 0 });
  });

  it('queries inside a visit callback give correct answers and the walk goes on', async ({
    expect,
  }) => {
    const items = plainScene(21, 120);
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 4 }).load(items);
    const want = recordVisit(tree).map((n) => [n.depth, n.x, n.y, n.count]);
    const result = await inWorker(
      `const t = new GridLooseQuadtree({ bounds: { x: 0, y: 0, width: 16, height: 16 }, depth: 4 });
       t.load(data);
       const nodes = [];
       t.visit((n) => {
         nodes.push([n.depth, n.x, n.y, n.count]);
         t.search({ x: n.x, y: n.y, width: n.width, height: n.height });
       });
       return { nodes };`,
      WORKER_MS,
      items,
    );
    expect(result).toEqual({ nodes: want });
  });

  it('pairs(cb) returns when the world spans nearly the whole double range (bounds -1e308 .. 0.7e308)', async ({
    expect,
  }) => {
    // an item of level 3 just past the far edge, and one of level 0 that overlaps it
    const result = await inWorker(
      `const t = new GridLooseQuadtree({
         bounds: { x: -1e308, y: -1e308, width: 1.7e308, height: 1.7e308 }, depth: 4 });
       t.insert({ id: 'a', x: 0.8e308, y: 0, width: 1.5e307, height: 1.5e307 });
       t.insert({ id: 'big', x: 0, y: -1e308, width: 0.9e308, height: 1e308 });
       const pairs = [];
       t.pairs((a, b) => { pairs.push([a.id, b.id].sort().join('-')); });
       return { pairs };`,
      WORKER_MS,
    );
    expect(result).toEqual({ pairs: ['a-big'] });
  });

  it('pairs(cb) returns with subnormal bounds (side 1e-320), where cell arithmetic overflows', async ({
    expect,
  }) => {
    const result = await inWorker(
      `const W = 1e-320;
       const t = new GridLooseQuadtree({ bounds: { x: 0, y: 0, width: W, height: W }, depth: 2 });
       t.load([
         { id: 'all', x: 0, y: 0, width: W, height: W },
         { id: 'small', x: W / 8, y: W / 8, width: W / 8, height: W / 8 },
         { id: 'point', x: (3 * W) / 4, y: W / 2 },
       ]);
       const pairs = [];
       t.pairs((a, b) => { pairs.push([a.id, b.id].sort().join('-')); });
       return { pairs: pairs.sort(), found: t.search({ x: 0, y: 0, width: W, height: W }).length };`,
      WORKER_MS,
    );
    expect(result).toEqual({ pairs: ['all-point', 'all-small'], found: 3 });
  });

  it('with ordinary bounds and no queries in callbacks, the worker reports the walks (the harness can pass)', async ({
    expect,
  }) => {
    const items = plainScene(20, 120);
    const want = pairKeys(brutePairs(modelOf(items).boxes()));
    const result = await inWorker(
      `const t = new GridLooseQuadtree({ bounds: { x: 0, y: 0, width: 16, height: 16 }, depth: 4 });
       t.load(data);
       const pairs = [];
       t.pairs((a, b) => { pairs.push(a.id < b.id ? a.id + '-' + b.id : b.id + '-' + a.id); });
       return { pairs: pairs.sort() };`,
      WORKER_MS,
      items,
    );
    expect(result).toEqual({ pairs: want });
  });
});

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

describe('bad options', () => {
  const cases: [string, () => unknown, readonly ErrorClass[], string, string][] = [
    ['no options', () => new GridLooseQuadtree(undefined as never), [TypeError], 'options', ''],
    ['null options', () => new GridLooseQuadtree(null as never), [TypeError], 'options', ''],
    [
      'no bounds',
      () => new GridLooseQuadtree({} as never),
      [TypeError],
      'options.bounds',
      'undefined',
    ],
    [
      'bounds.width 0',
      () => new GridLooseQuadtree({ bounds: { x: 0, y: 0, width: 0, height: 1 } }),
      [RangeError],
      'options.bounds.width',
      '0',
    ],
    [
      'bounds.height -1',
      () => new GridLooseQuadtree({ bounds: { x: 0, y: 0, width: 1, height: -1 } }),
      [RangeError],
      'options.bounds.height',
      '-1',
    ],
    [
      'bounds.width Infinity',
      () => new GridLooseQuadtree({ bounds: { x: 0, y: 0, width: Infinity, height: 1 } }),
      [RangeError],
      'options.bounds.width',
      'Infinity',
    ],
    [
      'bounds.x NaN',
      () => new GridLooseQuadtree({ bounds: { x: NaN, y: 0, width: 1, height: 1 } }),
      [RangeError],
      'options.bounds.x',
      'NaN',
    ],
    [
      'bounds.x + width overflowing',
      () => new GridLooseQuadtree({ bounds: { x: 1.5e308, y: 0, width: 1e308, height: 1 } }),
      [RangeError],
      'options.bounds.x + width',
      'Infinity',
    ],
    [
      'depth -1',
      () => new GridLooseQuadtree({ bounds: B16, depth: -1 }),
      [RangeError],
      'options.depth',
      '-1',
    ],
    [
      'depth 11',
      () => new GridLooseQuadtree({ bounds: B16, depth: 11 }),
      [RangeError],
      'options.depth',
      '11',
    ],
    [
      'depth 2.5',
      () => new GridLooseQuadtree({ bounds: B16, depth: 2.5 }),
      [RangeError],
      'options.depth',
      '2.5',
    ],
    [
      'depth NaN',
      () => new GridLooseQuadtree({ bounds: B16, depth: NaN }),
      [RangeError],
      'options.depth',
      'NaN',
    ],
    [
      "depth '3'",
      () => new GridLooseQuadtree({ bounds: B16, depth: '3' as never }),
      [TypeError],
      'options.depth',
      '"3"',
    ],
    [
      'toRect not a function',
      () => new GridLooseQuadtree({ bounds: B16, toRect: 5 as never }),
      BAD_BOUNDS,
      'options.toRect',
      '5',
    ],
  ];
  it.each(cases)(
    'new GridLooseQuadtree with %s throws, naming the option and the value',
    (_, make, classes, field, value) => {
      expectBadInput(make, classes, field, value);
    },
  );
});

describe('bad items', () => {
  const probes = [B16, { x: 5, y: 5, width: 0, height: 0 }];
  const fresh = () => {
    const items = [item(1, 1, 2, 2), item(5, 5), item(9, 9, 1, 1), item(30, 3)];
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 3 }).load(items);
    return { items, tree, before: probes.map((r) => tree.search(r)) };
  };
  const expectSame = (tree: GridLooseQuadtree<Item>, before: Item[][], size: number): void => {
    expect(tree.size).toBe(size);
    probes.forEach((r, i) => {
      expect(sameItems(tree.search(r), before[i]!, label)).toBeNull();
    });
  };
  const bad: [string, () => unknown, readonly ErrorClass[], string, string][] = [
    ['x NaN', () => ({ id: -1, x: NaN, y: 0 }), [RangeError], 'item.x', 'NaN'],
    ['y Infinity', () => ({ id: -1, x: 0, y: Infinity }), [RangeError], 'item.y', 'Infinity'],
    ['x a string', () => ({ id: -1, x: '1', y: 0 }), [TypeError], 'item.x', '"1"'],
    ['width -1', () => ({ id: -1, x: 0, y: 0, width: -1 }), [RangeError], 'item.width', '-1'],
    ['height NaN', () => ({ id: -1, x: 0, y: 0, height: NaN }), [RangeError], 'item.height', 'NaN'],
    [
      'x + width overflowing',
      () => ({ id: -1, x: 1e308, y: 0, width: 1e308 }),
      [RangeError],
      'item.x + width',
      'Infinity',
    ],
    ['null', () => null, [TypeError], 'item', 'null'],
    ['undefined', () => undefined, [TypeError], 'item', 'undefined'],
  ];

  it.each(bad)(
    'insert(item) with %s throws, naming the field, and inserts nothing',
    (_, make, classes, field, value) => {
      const { tree, before } = fresh();
      const it = make() as Item;
      expectBadInput(() => tree.insert(it), classes, field, value);
      expectSame(tree, before, 4);
    },
  );

  it.each(bad.filter(([d]) => d !== 'null' && d !== 'undefined'))(
    'update(item) with %s throws, naming the field, and the item keeps its old bounds',
    (_, make, classes, field, value) => {
      const { items, tree, before } = fresh();
      const it = items[2]!;
      Object.assign(it, make());
      it.id = 999;
      expectBadInput(() => tree.update(it), classes, field, value);
      expect(tree.has(it)).toBe(true);
      expectSame(tree, before, 4);
      expect(tree.searchPoint(9.5, 9.5)).toEqual([it]);
    },
  );

  it.each(bad)(
    'load(items) with one item with %s throws, naming the field and the index, and loads nothing',
    (_, make, classes, field, value) => {
      const { tree, before } = fresh();
      const good = [item(2, 2), item(3, 3)];
      const err = thrown(() => tree.load([good[0]!, make() as Item, good[1]!]));
      expect(classes.some((c) => err instanceof c)).toBe(true);
      expect(err.message).toContain(field);
      expect(err.message).toContain(value);
      expect(err.message).toContain('items[1]');
      for (const g of good) expect(tree.has(g)).toBe(false);
      expectSame(tree, before, 4);
    },
  );

  it('load(items) with the same item twice, or an item already present, throws Error and loads nothing', () => {
    const { items, tree, before } = fresh();
    const a = item(2, 2);
    expect(thrown(() => tree.load([a, a])).message).toMatch(/items\[1\]/);
    expect(thrown(() => tree.load([a, items[0]!])).message).toMatch(/items\[1\]/);
    expect(tree.has(a)).toBe(false);
    expectSame(tree, before, 4);
    expect(tree.load([])).toBe(tree);
    expectSame(tree, before, 4);
  });
});

describe('bad query arguments', () => {
  const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 3 });
  const items = [item(1, 1, 2, 2), item(5, 5), item(9, 9, 1, 1), item(30, 3)];
  tree.load(items);
  const out: Item[] = [];

  const badRects: [string, Rect, string, string][] = [
    ['x NaN', { x: NaN, y: 0, width: 1, height: 1 }, 'rect.x', 'NaN'],
    ['y -Infinity', { x: 0, y: -Infinity, width: 1, height: 1 }, 'rect.y', '-Infinity'],
    ['width -1', { x: 0, y: 0, width: -1, height: 1 }, 'rect.width', '-1'],
    ['height Infinity', { x: 0, y: 0, width: 1, height: Infinity }, 'rect.height', 'Infinity'],
  ];
  const rectMethods: [string, (r: Rect) => unknown][] = [
    ['search', (r) => tree.search(r)],
    ['searchInto', (r) => tree.searchInto(r, out)],
    ['retrieve', (r) => tree.retrieve(r)],
    ['retrieveInto', (r) => tree.retrieveInto(r, out)],
    ['collides', (r) => tree.collides(r)],
  ];
  const rectCases = rectMethods.flatMap(([m, call]) =>
    badRects.map(([d, r, f, v]) => [m, d, call, r, f, v] as const),
  );
  it.each(rectCases)(
    '%s(rect) with %s throws RangeError naming the field and value',
    (_, __, call, r, f, v) => {
      expectBadInput(() => call(r), [RangeError], f, v);
      expect(tree.size).toBe(items.length);
    },
  );

  const calls: [string, () => unknown, string, string][] = [
    ['searchPoint(NaN, 1)', () => tree.searchPoint(NaN, 1), 'x', 'NaN'],
    [
      'searchPointInto(1, Infinity, out)',
      () => tree.searchPointInto(1, Infinity, out),
      'y',
      'Infinity',
    ],
    ['searchCircle(1, 1, -1)', () => tree.searchCircle(1, 1, -1), 'r', '-1'],
    ['searchCircle(1, 1, Infinity)', () => tree.searchCircle(1, 1, Infinity), 'r', 'Infinity'],
    ['searchCircleInto(NaN, 1, 1, out)', () => tree.searchCircleInto(NaN, 1, 1, out), 'x', 'NaN'],
    ['searchSegment(0, 0, NaN, 1)', () => tree.searchSegment(0, 0, NaN, 1), 'x2', 'NaN'],
    [
      'searchSegmentInto(0, 0, 1, NaN, out)',
      () => tree.searchSegmentInto(0, 0, 1, NaN, out),
      'y2',
      'NaN',
    ],
    ['nearest(NaN, 0)', () => tree.nearest(NaN, 0), 'x', 'NaN'],
    ['nearest(0, 0, -1)', () => tree.nearest(0, 0, -1), 'k', '-1'],
    ['nearest(0, 0, 1.5)', () => tree.nearest(0, 0, 1.5), 'k', '1.5'],
    ['nearest(0, 0, 1, -1)', () => tree.nearest(0, 0, 1, -1), 'maxDistance', '-1'],
    [
      'nearestInto(0, 0, 2, NaN, out)',
      () => tree.nearestInto(0, 0, 2, NaN, out),
      'maxDistance',
      'NaN',
    ],
  ];
  it.each(calls)('%s throws RangeError naming the argument and value', (_, call, f, v) => {
    const err = thrown(call);
    expect(err).toBeInstanceOf(RangeError);
    expect(err.message).toMatch(new RegExp(`\\b${f}\\b`));
    expect(err.message).toMatch(new RegExp(escapeRe(v)));
    expect(tree.size).toBe(items.length);
  });

  it('nearest(x, y, 0) returns [], and maxDistance Infinity and 0 are allowed', () => {
    expect(tree.nearest(5, 5, 0)).toEqual([]);
    const boxes = modelOf(items).boxes();
    expect(
      checkNearest(tree.nearest(5, 5, 10, Infinity), boxes, 5, 5, 10, Infinity, label),
    ).toBeNull();
    expect(checkNearest(tree.nearest(5, 5, 10, 0), boxes, 5, 5, 10, 0, label)).toBeNull();
    expect(tree.nearest(5, 5, 10)).toHaveLength(items.length);
  });
});

describe('the rest of the API', () => {
  it('all() and search(rect) return fresh arrays that the caller may modify', () => {
    const items = [item(1, 1), item(2, 2)];
    const tree = new GridLooseQuadtree<Item>({ bounds: B16 }).load(items);
    const a = tree.all();
    a.length = 0;
    expect(tree.all()).toHaveLength(2);
    const s = tree.search(B16);
    s.pop();
    expect(tree.search(B16)).toHaveLength(2);
  });

  it('nearest(x, y) defaults to k = 1 and maxDistance = Infinity, and returns nearest first', () => {
    const items = [item(10, 10), item(1, 1, 1, 1), item(-20, 5), item(4, 4, 0, 3)];
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 4 }).load(items);
    expect(tree.nearest(0, 0)).toEqual([items[1]]);
    expect(tree.nearest(0, 0, 4)).toEqual([items[1], items[3], items[0], items[2]]);
    expect(tree.nearest(0, 0, 4, 6)).toEqual([items[1], items[3]]);
    expect(tree.nearest(-100, 5, 1)).toEqual([items[2]]);
  });

  it('the *Into forms write n items to out[0..n), return n and leave out[n..] untouched', () => {
    const items = [item(1, 1, 2, 2), item(2, 2), item(40, 40)];
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 3 }).load(items);
    const r = { x: 0, y: 0, width: 3, height: 3 };
    const cases: [(o: Item[]) => number, Item[]][] = [
      [(o) => tree.searchInto(r, o), tree.search(r)],
      [(o) => tree.searchPointInto(2, 2, o), tree.searchPoint(2, 2)],
      [(o) => tree.searchCircleInto(40, 39, 1, o), tree.searchCircle(40, 39, 1)],
      [(o) => tree.searchSegmentInto(0, 0, 50, 50, o), tree.searchSegment(0, 0, 50, 50)],
      [(o) => tree.nearestInto(40, 40, 2, Infinity, o), tree.nearest(40, 40, 2)],
      [(o) => tree.retrieveInto(r, o), tree.retrieve(r)],
    ];
    const sizes = cases.map(([, want]) => want.length);
    // retrieve's candidates include the item outside the bounds (the outside list)
    expect(sizes).toEqual([2, 2, 1, 3, 2, 3]);
    for (const [call, want] of cases) {
      for (const prefill of [0, 1, 5]) {
        const { items: got, error } = callInto<Item>(call, prefill);
        expect(error).toBeNull();
        expect(got).toEqual(want);
      }
    }
  });

  it('searchSegment with a zero-length segment is searchPoint', () => {
    const rng = mulberry32(9);
    const items = Array.from({ length: 60 }, () =>
      item(randInt(rng, 0, 16), randInt(rng, 0, 16), randInt(rng, 0, 3), randInt(rng, 0, 3)),
    );
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 4 }).load(items);
    for (let i = 0; i < 50; i++) {
      const x = randInt(rng, -1, 17);
      const y = randInt(rng, -1, 17);
      expect(sameItems(tree.searchSegment(x, y, x, y), tree.searchPoint(x, y), label)).toBeNull();
    }
  });

  it('visit(callback) reports the cells with non-empty subtrees, parents first, and return true skips the children', () => {
    const items = [item(1, 1, 0.5, 0.5), item(14, 14), item(7, 7, 3, 3), item(50, 50)];
    const tree = new GridLooseQuadtree<Item>({ bounds: B16, depth: 3 }).load(items);
    const nodes = recordVisit(tree);
    expect(checkGridVisit(tree, modelOf(items).boxes(), B16, 3)).toBeNull();
    // the root, and the two level-1 quadrants with items, (0, 0) and (8, 8), Morton order
    expect(nodes.map((n) => [n.depth, n.x, n.y, n.count])).toEqual([
      [0, 0, 0, 1], // the root holds the outside item (50, 50)
      [1, 0, 0, 0],
      [2, 0, 0, 0],
      [3, 0, 0, 1], // (1, 1) 0.5 x 0.5 -> a finest cell (side 2)
      [1, 8, 8, 0],
      [2, 8, 8, 1], // (7, 7) 3 x 3 -> a level-2 cell (side 4) by its centre (8.5, 8.5)
      [2, 12, 12, 0],
      [3, 14, 14, 1], // the point (14, 14)
    ]);
    let calls = 0;
    tree.visit(() => {
      calls++;
      return true;
    });
    expect(calls).toBe(1);
  });

  it('insert, load, updateAll and cleanup return the index for chaining', () => {
    const tree = new GridLooseQuadtree<Item>({ bounds: B16 });
    expect(tree.insert(item(1, 1))).toBe(tree);
    expect(tree.load([item(2, 2)])).toBe(tree);
    expect(tree.updateAll()).toBe(tree);
    expect(tree.cleanup()).toBe(tree);
    expect(tree.size).toBe(2);
  });
});
