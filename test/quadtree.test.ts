// Model-based property tests of Quadtree: random sequences of mutations, each followed by every
// query, compared with the brute-force model of test/oracle.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Quadtree, type RectLike } from '../src/index.js';
import {
  type CommonOp,
  checkQueries,
  type GenRect,
  type Labelled,
  label,
  type Probe,
  runModelSteps,
} from './dynamic-checks.js';
import {
  BruteIndex,
  checkPlacement,
  checkVisitTree,
  type QueryRect,
  type RectLikeInput,
  recordVisit,
  rootStraddlers,
  sameItems,
  samePairs,
} from './oracle.js';

// ---------------------------------------------------------------------------------------------
// Item shapes: the default `{ x, y, width?, height? }` and `{ minX, minY, maxX, maxY }` + toRect
// ---------------------------------------------------------------------------------------------

interface Shape<I extends Labelled> {
  readonly name: string;
  make(id: number): I;
  /** Sets the item's fields to the rectangle. */
  place(item: I, r: GenRect): void;
  /** Makes one field bad (which: 0..3, kind: 0..4); returns a function that restores it. */
  spoil(item: I, which: number, kind: number): () => void;
  readonly toRect: ((item: I) => RectLikeInput) | undefined;
}

interface PlainItem extends Labelled {
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

function setField(item: object, field: string, value: unknown): () => void {
  const rec = item as Record<string, unknown>;
  const had = Object.hasOwn(rec, field);
  const old = rec[field];
  rec[field] = value;
  return () => {
    if (had) rec[field] = old;
    else delete rec[field];
  };
}

const plainShape: Shape<PlainItem> = {
  name: '{ x, y, width?, height? } items',
  make: (id) => ({ id, x: 0, y: 0 }),
  place(item, r) {
    item.x = r.x;
    item.y = r.y;
    if (r.omit && r.w === 0) delete item.width;
    else item.width = r.w;
    if (r.omit && r.h === 0) delete item.height;
    else item.height = r.h;
  },
  spoil(item, which, kind) {
    const field = (['x', 'y', 'width', 'height'] as const)[which]!;
    const values =
      which < 2 ? [NaN, Infinity, -Infinity, '1', undefined] : [NaN, Infinity, -Infinity, -1, '1'];
    return setField(item, field, values[kind]);
  },
  toRect: undefined,
};

const minMaxShape: Shape<MinMaxItem> = {
  name: '{ minX, minY, maxX, maxY } items with toRect',
  make: (id) => ({ id, minX: 0, minY: 0, maxX: 0, maxY: 0 }),
  place(item, r) {
    item.minX = r.x;
    item.minY = r.y;
    item.maxX = r.x + r.w;
    item.maxY = r.y + r.h;
  },
  spoil(item, which, kind) {
    const field = (['minX', 'minY', 'maxX', 'maxY'] as const)[which]!;
    let value: number;
    if (kind === 3) {
      // a negative size: min above max
      if (field === 'minX') value = item.maxX + 1;
      else if (field === 'minY') value = item.maxY + 1;
      else if (field === 'maxX') value = item.minX - 1;
      else value = item.minY - 1;
    } else {
      value = [NaN, Infinity, -Infinity, 0, NaN][kind]!;
    }
    return setField(item, field, value);
  },
  toRect: (b) => ({ x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY }),
};

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/** Mostly integers on a small grid around bounds 0..16, some half-integers. */
const coord = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: -4, max: 20 }) },
  { weight: 1, arbitrary: fc.integer({ min: -8, max: 40 }).map((v) => v / 2) },
);
/** Sizes: many zeros (points and segments), small sizes, some halves, a few huge. */
const size = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 12 }).map((v) => v / 2) },
  { weight: 1, arbitrary: fc.integer({ min: 7, max: 26 }) },
);
const genRect: fc.Arbitrary<GenRect> = fc.record({
  x: coord,
  y: coord,
  w: size,
  h: size,
  omit: fc.boolean(),
});

const qcoord = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -6, max: 22 }) },
  { weight: 1, arbitrary: fc.integer({ min: -12, max: 44 }).map((v) => v / 2) },
);
const qsize = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 8 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 30 }) },
);

const probeArb: fc.Arbitrary<Probe> = fc
  .record({
    rect: fc.record({ x: qcoord, y: qcoord, width: qsize, height: qsize }),
    px: qcoord,
    py: qcoord,
    cx: qcoord,
    cy: qcoord,
    r: fc.constantFrom(0, 0.5, 1, 2, 2.5, 3, 5, 8, 30),
    x1: qcoord,
    y1: qcoord,
    x2: qcoord,
    y2: qcoord,
    zeroSegment: fc.constantFrom(false, false, false, true),
    nx: qcoord,
    ny: qcoord,
    k: fc.integer({ min: 0, max: 6 }),
    maxD: fc.constantFrom(Infinity, Infinity, 0, 1, 2.5, 4, 10),
    prefill: fc.integer({ min: 0, max: 6 }),
  })
  .map(({ zeroSegment, ...p }) => (zeroSegment ? { ...p, x2: p.x1, y2: p.y1 } : p));

type Op = CommonOp;

function opArb(poolSize: number): fc.Arbitrary<Op> {
  const slot = fc.integer({ min: 0, max: poolSize - 1 });
  const entry = fc.record({ slot, r: genRect });
  const which = fc.integer({ min: 0, max: 3 });
  const kind = fc.integer({ min: 0, max: 4 });
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
      weight: 2,
      arbitrary: fc.record({
        t: fc.constant('load' as const),
        entries: fc.array(entry, { maxLength: 10 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('clear' as const) }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('cleanup' as const) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('insertBad' as const), which, kind }) },
    {
      weight: 1,
      arbitrary: fc.record({ t: fc.constant('updateBad' as const), slot, which, kind }),
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

interface TreeConfig {
  bounds: QueryRect;
  maxObjects: number;
  maxLevels: number;
}

const configArb: fc.Arbitrary<TreeConfig> = fc.record({
  bounds: fc.constantFrom(
    { x: 0, y: 0, width: 16, height: 16 },
    { x: 0, y: 0, width: 16, height: 16 },
    { x: 0, y: 0, width: 16, height: 16 },
    { x: -8, y: -8, width: 32, height: 32 },
    { x: 0, y: 0, width: 16, height: 8 },
    { x: 2, y: 2, width: 12, height: 12 },
  ),
  maxObjects: fc.integer({ min: 1, max: 4 }),
  maxLevels: fc.constantFrom(0, 1, 2, 3, 4, 6, 10),
});

// ---------------------------------------------------------------------------------------------
// Running a scenario
// ---------------------------------------------------------------------------------------------

/** Runs fn, expects it to throw one of the classes, returns the error. */

/** size, has, all, pairs and the tree reported by visit, compared with the model. */
function checkStructure<I extends Labelled>(
  tree: Quadtree<I>,
  model: BruteIndex<I>,
  pool: readonly I[],
  cfg: TreeConfig,
  looseness: number,
  justCleanedUp: boolean,
): void {
  const boxes = model.boxes();
  expect(tree.size, 'size').toBe(model.size);
  for (const it of pool) expect(tree.has(it), `has(${label(it)})`).toBe(model.has(it));
  expect(sameItems(tree.all(), model.items(), label), 'all()').toBeNull();

  // pairs: every overlapping pair exactly once
  const got: [I, I][] = [];
  tree.pairs((a, b) => {
    got.push([a, b]);
  });
  expect(samePairs(got, model.pairs(), label), 'pairs').toBeNull();

  // visit: the tree's shape and where the items are
  const nodes = recordVisit(tree);
  expect(
    checkVisitTree(nodes, { bounds: cfg.bounds, maxLevels: cfg.maxLevels, size: model.size }),
    'visit tree',
  ).toBeNull();
  expect(checkPlacement(nodes, boxes, looseness), 'visit placement').toBeNull();
  if (looseness === 1) {
    const straddlers = rootStraddlers(nodes[0]!, boxes).length;
    expect(nodes[0]!.count, 'root count >= straddlers of its split lines').toBeGreaterThanOrEqual(
      straddlers,
    );
  }
  // return true skips the children
  const shallow = recordVisit(tree, (n) => n.depth >= 1);
  expect(shallow.map((n) => [n.x, n.y, n.depth, n.count])).toEqual(
    nodes.filter((n) => n.depth <= 1).map((n) => [n.x, n.y, n.depth, n.count]),
  );
  if (justCleanedUp) {
    const bad = nodes.findIndex((n) => n.subtree === 0 && n.children.length > 0);
    expect(bad, 'cleanup() left an empty subtree with children').toBe(-1);
  }
}

interface Scenario {
  cfg: TreeConfig;
  /** Rectangles of the items inserted one by one before the steps (slots 0, 1, ...). */
  initial: GenRect[];
  steps: { op: Op; probe: Probe }[];
}

function runScenario<I extends Labelled>(
  shape: Shape<I>,
  looseness: number,
  poolSize: number,
  { cfg, initial, steps }: Scenario,
): void {
  const base = { bounds: cfg.bounds, maxObjects: cfg.maxObjects, maxLevels: cfg.maxLevels };
  const tree =
    shape.toRect === undefined
      ? // The plain shape's items are rectangles, which the generic I cannot say.
        (new Quadtree<RectLike>({ ...base, looseness }) as unknown as Quadtree<I>)
      : new Quadtree<I>({ ...base, looseness, toRect: shape.toRect });
  const model = new BruteIndex<I>(shape.toRect);
  runModelSteps<I, never>(tree, model, shape, poolSize, initial, steps, {
    check: (m, pool, t) => checkStructure(tree, m, pool, cfg, looseness, t === 'cleanup'),
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

describe.each([1, 1.5, 2])('Quadtree with looseness %s', (looseness) => {
  it('answers every query like the brute-force model after every insert, remove, update, updateAll, load, clear and cleanup', () => {
    fc.assert(
      fc.property(scenarioArb(16, 40), (scenario) => {
        runScenario(plainShape, looseness, 16, scenario);
      }),
      { numRuns: 250 },
    );
  });

  it('stays exact with many items crowded into a small grid (constant splitting and merging)', () => {
    fc.assert(
      fc.property(scenarioArb(64, 80), (scenario) => {
        runScenario(plainShape, looseness, 64, scenario);
      }),
      { numRuns: 50 },
    );
  });
});

describe('Quadtree with toRect', () => {
  it('answers every query like the brute-force model for { minX, minY, maxX, maxY } items', () => {
    fc.assert(
      fc.property(fc.constantFrom(1, 1.25, 2), scenarioArb(16, 40), (looseness, scenario) => {
        runScenario(minMaxShape, looseness, 16, scenario);
      }),
      { numRuns: 200 },
    );
  });
});

describe('Quadtree queries on random static data', () => {
  it('every query on a loaded set of up to 120 items equals brute force', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 1.5, 2),
        configArb,
        fc.array(genRect, { maxLength: 120, size: 'max' }),
        fc.array(probeArb, { minLength: 1, maxLength: 30, size: 'max' }),
        (looseness, cfg, rects, probes) => {
          const items = rects.map((r, i) => {
            const it = plainShape.make(i);
            plainShape.place(it, r);
            return it;
          });
          const tree = new Quadtree<PlainItem>({ ...cfg, looseness }).load(items);
          const model = new BruteIndex<PlainItem>();
          for (const it of items) model.set(it);
          checkStructure(tree, model, items, cfg, looseness, false);
          for (const p of probes) checkQueries(tree, model, p);
        },
      ),
      { numRuns: 150 },
    );
  });
});
