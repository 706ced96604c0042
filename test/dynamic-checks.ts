// Checks shared by the model-based suites of the dynamic indexes (Quadtree, GridLooseQuadtree):
// one probe of every query, each against the brute-force model.

import { expect } from 'vitest';
import type { DynamicIndex } from '../src/index.js';
import {
  type BruteIndex,
  callInto,
  checkNearest,
  type QueryRect,
  sameItems,
  supersetWithoutDuplicates,
} from './oracle.js';

/** Items the suites make carry an id, for messages. */
export interface Labelled {
  id: number;
}

/** How items are named in mismatch messages (anything else, e.g. undefined, as itself). */
export const label = (it: Labelled): string =>
  typeof it === 'object' && it !== null ? `#${it.id}` : String(it);

/** One of each query: a window, a point, a disc, a segment and a nearest query. */
export interface Probe {
  rect: QueryRect;
  px: number;
  py: number;
  cx: number;
  cy: number;
  r: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  nx: number;
  ny: number;
  k: number;
  maxD: number;
  /** Stale entries put in the output array of the Into forms first. */
  prefill: number;
}

/** Every query answer of a dynamic index for one probe (and every Into form), against the model. */
export function checkQueries<I extends Labelled>(
  tree: DynamicIndex<I>,
  model: BruteIndex<I>,
  p: Probe,
): void {
  const boxes = model.boxes();
  const isIndexed = (it: I): boolean => model.has(it);

  // search / searchInto / collides
  const wantSearch = model.search(p.rect);
  expect(sameItems(tree.search(p.rect), wantSearch, label), 'search').toBeNull();
  let into = callInto<I>((out) => tree.searchInto(p.rect, out), p.prefill);
  expect(into.error, 'searchInto').toBeNull();
  expect(sameItems(into.items, wantSearch, label), 'searchInto items').toBeNull();
  expect(tree.collides(p.rect), 'collides').toBe(wantSearch.length > 0);

  // retrieve / retrieveInto: candidates, a superset of search, no duplicates
  expect(
    supersetWithoutDuplicates(tree.retrieve(p.rect), wantSearch, isIndexed, label),
    'retrieve',
  ).toBeNull();
  into = callInto<I>((out) => tree.retrieveInto(p.rect, out), p.prefill);
  expect(into.error, 'retrieveInto').toBeNull();
  expect(
    supersetWithoutDuplicates(into.items, wantSearch, isIndexed, label),
    'retrieveInto items',
  ).toBeNull();

  // searchPoint
  const wantPoint = model.searchPoint(p.px, p.py);
  expect(sameItems(tree.searchPoint(p.px, p.py), wantPoint, label), 'searchPoint').toBeNull();
  into = callInto<I>((out) => tree.searchPointInto(p.px, p.py, out), p.prefill);
  expect(into.error, 'searchPointInto').toBeNull();
  expect(sameItems(into.items, wantPoint, label), 'searchPointInto items').toBeNull();

  // searchCircle
  const wantCircle = model.searchCircle(p.cx, p.cy, p.r);
  expect(
    sameItems(tree.searchCircle(p.cx, p.cy, p.r), wantCircle, label),
    'searchCircle',
  ).toBeNull();
  into = callInto<I>((out) => tree.searchCircleInto(p.cx, p.cy, p.r, out), p.prefill);
  expect(into.error, 'searchCircleInto').toBeNull();
  expect(sameItems(into.items, wantCircle, label), 'searchCircleInto items').toBeNull();

  // searchSegment
  const wantSeg = model.searchSegment(p.x1, p.y1, p.x2, p.y2);
  expect(
    sameItems(tree.searchSegment(p.x1, p.y1, p.x2, p.y2), wantSeg, label),
    'searchSegment',
  ).toBeNull();
  into = callInto<I>((out) => tree.searchSegmentInto(p.x1, p.y1, p.x2, p.y2, out), p.prefill);
  expect(into.error, 'searchSegmentInto').toBeNull();
  expect(sameItems(into.items, wantSeg, label), 'searchSegmentInto items').toBeNull();

  // nearest / nearestInto
  expect(
    checkNearest(tree.nearest(p.nx, p.ny, p.k, p.maxD), boxes, p.nx, p.ny, p.k, p.maxD, label),
    'nearest',
  ).toBeNull();
  expect(
    checkNearest(tree.nearest(p.nx, p.ny), boxes, p.nx, p.ny, 1, Infinity, label),
    'nearest default k',
  ).toBeNull();
  into = callInto<I>((out) => tree.nearestInto(p.nx, p.ny, p.k, p.maxD, out), p.prefill);
  expect(into.error, 'nearestInto').toBeNull();
  expect(
    checkNearest(into.items, boxes, p.nx, p.ny, p.k, p.maxD, label),
    'nearestInto items',
  ).toBeNull();
}

/** A rectangle drawn by the generators; `omit` drops zero sizes from default-shape items. */
export interface GenRect {
  x: number;
  y: number;
  w: number;
  h: number;
  omit: boolean;
}

/** What the scenario runner needs of a suite's item shape. */
export interface ScenarioShape<I extends Labelled> {
  make(id: number): I;
  /** Sets the item's fields to the rectangle. */
  place(item: I, r: GenRect): void;
  /** Makes one field bad (which: 0..3, kind: 0..4); returns a function that restores it. */
  spoil(item: I, which: number, kind: number): () => void;
}

/** The steps every dynamic index's suite draws. */
export type CommonOp =
  | { t: 'insert'; slot: number; r: GenRect }
  | { t: 'remove'; slot: number }
  | { t: 'update'; slot: number; r: GenRect }
  | { t: 'move'; slot: number; r: GenRect }
  | { t: 'updateAll'; moves: { slot: number; r: GenRect }[] }
  | { t: 'load'; entries: { slot: number; r: GenRect }[] }
  | { t: 'clear' }
  | { t: 'cleanup' }
  | { t: 'insertBad'; which: number; kind: number }
  | { t: 'updateBad'; slot: number; which: number; kind: number }
  | {
      t: 'loadBad';
      entries: { slot: number; r: GenRect }[];
      at: number;
      which: number;
      kind: number;
    };

const COMMON = new Set<string>([
  'insert',
  'remove',
  'update',
  'move',
  'updateAll',
  'load',
  'clear',
  'cleanup',
  'insertBad',
  'updateBad',
  'loadBad',
]);

type ErrorClass = new (...args: never[]) => Error;

/** The errors bad bounds may throw. */
export const BAD_BOUNDS: readonly ErrorClass[] = [RangeError, TypeError];

/** Runs fn, expects it to throw one of `classes`, and returns the error. */
export function expectThrow(fn: () => unknown, classes: readonly ErrorClass[]): Error {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, 'expected a throw').toBeInstanceOf(Error);
  const err = caught as Error;
  expect(
    classes.some((c) => err instanceof c),
    `expected ${classes.map((c) => c.name).join(' or ')}, got ${err.name}: ${err.message}`,
  ).toBe(true);
  return err;
}

/** What a suite adds to `runModelSteps`: its own steps, and its structure checks. */
export interface ScenarioHooks<I extends Labelled, O> {
  /** Carries out a step that is not a CommonOp. */
  extra?(op: O, model: BruteIndex<I>, pool: readonly I[]): void;
  /** Checks the index's structure against the model after each step (of kind `t`). */
  check(model: BruteIndex<I>, pool: readonly I[], t: string): void;
}

/**
 * The model-based run of a dynamic index: items from a pool of `poolSize` (the first ones placed
 * at `initial` and inserted), then each step carried out on the index and on the model, the
 * failure cases checked to change nothing, and after each step the suite's structure checks and
 * every query of the step's probe compared with the model.
 */
export function runModelSteps<I extends Labelled, O extends { t: string }>(
  tree: DynamicIndex<I>,
  model: BruteIndex<I>,
  shape: ScenarioShape<I>,
  poolSize: number,
  initial: readonly GenRect[],
  steps: readonly { op: CommonOp | O; probe: Probe }[],
  hooks: ScenarioHooks<I, O>,
): void {
  const pool = Array.from({ length: poolSize }, (_, i) => shape.make(i));
  const fresh = { id: -1 };
  initial.forEach((r, i) => {
    const it = pool[i]!;
    shape.place(it, r);
    expect(tree.insert(it)).toBe(tree);
    model.set(it);
  });
  for (const { op, probe } of steps) {
    if (COMMON.has(op.t)) applyCommon(tree, model, shape, pool, op as CommonOp, fresh);
    else hooks.extra?.(op as O, model, pool);
    hooks.check(model, pool, op.t);
    checkQueries(tree, model, probe);
  }
}

// Carries out one CommonOp on the index and the model (see runModelSteps).
function applyCommon<I extends Labelled>(
  tree: DynamicIndex<I>,
  model: BruteIndex<I>,
  shape: ScenarioShape<I>,
  pool: readonly I[],
  op: CommonOp,
  fresh: { id: number },
): void {
  switch (op.t) {
    case 'insert': {
      const it = pool[op.slot]!;
      if (model.has(it)) {
        expectThrow(() => tree.insert(it), [Error]);
      } else {
        shape.place(it, op.r);
        expect(tree.insert(it)).toBe(tree);
        model.set(it);
      }
      break;
    }
    case 'remove': {
      const it = pool[op.slot]!;
      expect(tree.remove(it), `remove(${label(it)})`).toBe(model.delete(it));
      break;
    }
    case 'update': {
      const it = pool[op.slot]!;
      shape.place(it, op.r);
      expect(tree.update(it), `update(${label(it)})`).toBe(model.has(it));
      if (model.has(it)) model.set(it);
      break;
    }
    case 'move': {
      // the item moves without telling the index: the index keeps its old bounds
      shape.place(pool[op.slot]!, op.r);
      break;
    }
    case 'updateAll': {
      for (const m of op.moves) shape.place(pool[m.slot]!, m.r);
      expect(tree.updateAll()).toBe(tree);
      for (const it of model.items()) model.set(it);
      break;
    }
    case 'load': {
      const items = op.entries.map((e) => pool[e.slot]!);
      const ok = new Set(items).size === items.length && items.every((it) => !model.has(it));
      for (const e of op.entries) {
        const it = pool[e.slot]!;
        if (!model.has(it)) shape.place(it, e.r);
      }
      if (ok) {
        expect(tree.load(items)).toBe(tree);
        for (const it of items) model.set(it);
      } else {
        expectThrow(() => tree.load(items), [Error]);
      }
      break;
    }
    case 'clear':
      tree.clear();
      model.clear();
      break;
    case 'cleanup':
      expect(tree.cleanup()).toBe(tree);
      break;
    case 'insertBad': {
      const it = shape.make(fresh.id--);
      shape.place(it, { x: 3, y: 3, w: 1, h: 1, omit: false });
      shape.spoil(it, op.which, op.kind);
      expectThrow(() => tree.insert(it), BAD_BOUNDS);
      expect(tree.has(it)).toBe(false);
      break;
    }
    case 'updateBad': {
      const it = pool[op.slot]!;
      if (!model.has(it)) break;
      const restore = shape.spoil(it, op.which, op.kind);
      expectThrow(() => tree.update(it), BAD_BOUNDS);
      expect(tree.has(it)).toBe(true);
      const b = model.box(it)!;
      const at = { x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY };
      expect(tree.search(at), 'the item keeps its old bounds').toContain(it);
      restore();
      break;
    }
    case 'loadBad': {
      const items: I[] = [];
      for (const e of op.entries) {
        const it = pool[e.slot]!;
        if (model.has(it) || items.includes(it)) continue;
        shape.place(it, e.r);
        items.push(it);
      }
      const bad = shape.make(fresh.id--);
      shape.place(bad, { x: 5, y: 5, w: 0, h: 0, omit: false });
      shape.spoil(bad, op.which, op.kind);
      items.splice(op.at % (items.length + 1), 0, bad);
      expectThrow(() => tree.load(items), BAD_BOUNDS);
      for (const it of items) expect(tree.has(it), 'load inserted nothing').toBe(false);
      break;
    }
  }
}
