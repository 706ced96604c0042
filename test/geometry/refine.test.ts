import { describe, expect, it } from 'vitest';
import {
  circle,
  contains,
  intersects,
  point,
  polygon,
  Quadtree,
  rect,
  refine,
  refineInto,
  type Shape,
  StaticQuadtree,
  segment,
  shapeBounds,
  triangle,
} from '../../src/index.js';
import { mulberry32, type Rng, randFloat, randInt } from '../oracle.js';
import { intersectsSlow } from './shapes-reference.js';

interface Item {
  id: number;
  shape: Shape;
}

const toShape = (item: Item): Shape => item.shape;
const BOUNDS = { x: 0, y: 0, width: 0, height: 0 };
const toRect = (item: Item) => shapeBounds(item.shape, BOUNDS);

/** A coordinate in [0, 100): snapped to quarters (so that shapes touch exactly) or not. */
function coord(rng: Rng, snap: boolean): number {
  const v = randFloat(rng, 0, 100);
  return snap ? Math.round(v * 4) / 4 : v;
}

/** A convex polygon: the hull of a few points around a centre, in a random winding. */
function randomPolygon(rng: Rng, snap: boolean): Shape {
  const cx = coord(rng, snap);
  const cy = coord(rng, snap);
  const n = randInt(rng, 3, 9);
  const pts: [number, number][] = [];
  for (let i = 0; i < n; i++) pts.push([cx + coord(rng, snap) / 10, cy + coord(rng, snap) / 10]);
  pts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: number[], a: number[], b: number[]) =>
    (a[0]! - o[0]!) * (b[1]! - o[1]!) - (a[1]! - o[1]!) * (b[0]! - o[0]!);
  const half = (list: [number, number][]) => {
    const h: [number, number][] = [];
    for (const q of list) {
      while (h.length >= 2 && cross(h[h.length - 2]!, h[h.length - 1]!, q) <= 0) h.pop();
      h.push(q);
    }
    h.pop();
    return h;
  };
  const hull = [...half(pts), ...half(pts.reverse())];
  if (hull.length < 3) return triangle(cx, cy, cx + 1, cy, cx, cy + 1);
  if (rng() < 0.5) hull.reverse();
  return polygon(hull.flat());
}

/** A scene of circles, triangles and polygons (plus a few boxes, segments and points). */
function scene(rng: Rng, count: number, snap: boolean): Item[] {
  const items: Item[] = [];
  for (let id = 0; id < count; id++) {
    const kind = rng();
    const x = coord(rng, snap);
    const y = coord(rng, snap);
    const s = (v: number) => (snap ? Math.round(v * 4) / 4 : v);
    let shape: Shape;
    if (kind < 0.35) shape = circle(x, y, s(randFloat(rng, 0, 6)));
    else if (kind < 0.6) {
      shape = triangle(
        x,
        y,
        x + s(randFloat(rng, -8, 8)),
        y + s(randFloat(rng, -8, 8)),
        x + s(randFloat(rng, -8, 8)),
        y + s(randFloat(rng, -8, 8)),
      );
    } else if (kind < 0.85) shape = randomPolygon(rng, snap);
    else if (kind < 0.92) shape = rect(x, y, s(randFloat(rng, 0, 8)), s(randFloat(rng, 0, 8)));
    else if (kind < 0.97) {
      shape = segment(x, y, x + s(randFloat(rng, -8, 8)), y + s(randFloat(rng, -8, 8)));
    } else shape = point(x, y);
    items.push({ id, shape });
  }
  return items;
}

const ids = (items: Item[]) => items.map((i) => i.id).sort((a, b) => a - b);

describe('refine', () => {
  for (const snap of [true, false]) {
    it(`refine(index.searchCircle(x, y, r), circle(x, y, r), toShape) is exactly the shapes that touch the disc (${snap ? 'snapped' : 'random'} scenes)`, () => {
      const rng = mulberry32(snap ? 0x5eed : 0xbeef);
      for (let round = 0; round < 4; round++) {
        const items = scene(rng, 400, snap);
        const tree = new Quadtree<Item>({
          bounds: { x: 0, y: 0, width: 100, height: 100 },
          maxObjects: 8,
          toRect,
        });
        for (const item of items) tree.insert(item);
        const packed = StaticQuadtree.from(items, { toRect });
        let dropped = 0;
        let kept = 0;
        for (let q = 0; q < 60; q++) {
          const query = circle(coord(rng, snap), coord(rng, snap), coord(rng, snap) / 8);
          const want = ids(items.filter((it) => intersects(it.shape, query)));
          for (const index of [tree, packed]) {
            const candidates = index.searchCircle(query.x, query.y, query.radius);
            const n = candidates.length;
            const got = refine(candidates, query, toShape);
            expect(ids(got)).toEqual(want);
            dropped += n - got.length;
          }
          kept += want.length;
        }
        // The scenes exercise both sides: boxes that touch the disc while the shape does not.
        expect(dropped).toBeGreaterThan(0);
        expect(kept).toBeGreaterThan(0);
      }
    });
  }

  it('refine after search, searchSegment and searchPoint keeps exactly the touching shapes, as a slow exact reference says', () => {
    const rng = mulberry32(42);
    const items = scene(rng, 150, true);
    const tree = new Quadtree<Item>({ bounds: { x: 0, y: 0, width: 100, height: 100 }, toRect });
    for (const item of items) tree.insert(item);
    const packed = StaticQuadtree.from(items, { toRect });
    for (let q = 0; q < 15; q++) {
      const x = coord(rng, true);
      const y = coord(rng, true);
      const box = rect(x, y, coord(rng, true) / 5, coord(rng, true) / 5);
      const seg = segment(x, y, coord(rng, true), coord(rng, true));
      const pt = point(x, y);
      for (const index of [tree, packed]) {
        for (const [query, candidates] of [
          [box, index.search(box)],
          [seg, index.searchSegment(seg.x1, seg.y1, seg.x2, seg.y2)],
          [pt, index.searchPoint(x, y)],
        ] as const) {
          const want = ids(items.filter((it) => intersectsSlow(it.shape, query)));
          expect(ids(refine(candidates, query, toShape))).toEqual(want);
        }
      }
    }
  });

  it("refine with 'within' and 'contains' selects shapes inside the query and shapes covering it", () => {
    const rng = mulberry32(7);
    const items = scene(rng, 400, true);
    const tree = new Quadtree<Item>({ bounds: { x: 0, y: 0, width: 100, height: 100 }, toRect });
    for (const item of items) tree.insert(item);
    let found = 0;
    for (let q = 0; q < 60; q++) {
      const lasso = circle(coord(rng, true), coord(rng, true), coord(rng, true) / 4);
      const within = ids(items.filter((it) => contains(lasso, it.shape)));
      expect(
        ids(refine(tree.searchCircle(lasso.x, lasso.y, lasso.radius), lasso, toShape, 'within')),
      ).toEqual(within);
      const pick = point(coord(rng, true), coord(rng, true));
      const covering = ids(items.filter((it) => contains(it.shape, pick)));
      expect(ids(refine(tree.searchPoint(pick.x, pick.y), pick, toShape, 'contains'))).toEqual(
        covering,
      );
      found += within.length + covering.length;
    }
    expect(found).toBeGreaterThan(0);
  });

  it('refineInto filters the first count entries of an out array in place, allocation-free', () => {
    const rng = mulberry32(99);
    const items = scene(rng, 300, true);
    const tree = new Quadtree<Item>({ bounds: { x: 0, y: 0, width: 100, height: 100 }, toRect });
    for (const item of items) tree.insert(item);
    const out: Item[] = [];
    for (let q = 0; q < 40; q++) {
      const query = circle(coord(rng, true), coord(rng, true), coord(rng, true) / 8);
      const n = tree.searchCircleInto(query.x, query.y, query.radius, out);
      const sentinel = { id: -1, shape: point(0, 0) };
      out[n] = sentinel; // past the count: must be left alone
      const k = refineInto(out, n, query, toShape);
      expect(ids(out.slice(0, k))).toEqual(ids(items.filter((it) => intersects(it.shape, query))));
      expect(out[n]).toBe(sentinel);
    }
  });
});
