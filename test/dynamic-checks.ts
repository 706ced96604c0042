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
