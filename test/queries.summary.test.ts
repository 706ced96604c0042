// toJSON on every index (and the ContactTracker): a small summary of kind, size, shape and
// settings, checked against the index's own visit and fields; JSON.stringify stays small however
// many items the index holds.
import { describe, expect, it } from 'vitest';
import { Clusterer } from '../src/cluster/index.js';
import { GeoIndex } from '../src/geo/index.js';
import {
  ContactTracker,
  GridLooseQuadtree,
  PointQuadtree,
  Quadtree,
  StaticQuadtree,
  TriangleIndex,
  WalkInProgressError,
} from '../src/index.js';
import { mulberry32 } from './oracle.js';

const bounds = { x: 0, y: 0, width: 100, height: 100 };

function randomBoxes(n: number, seed: number) {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, (_, id) => ({
    id,
    x: rng() * 100,
    y: rng() * 100,
    width: rng() * 3,
    height: rng() * 3,
  }));
}

/** What visit reports: how many nodes, and the deepest depth. */
function shapeOf(index: { visit(cb: (n: { depth: number }) => undefined): void }) {
  let nodes = 0;
  let depth = 0;
  index.visit((n) => {
    nodes++;
    depth = Math.max(depth, n.depth);
    return undefined;
  });
  return { nodes, depth };
}

const SIZES = [0, 1, 5_000];

describe('toJSON', () => {
  it.each(SIZES)('Quadtree of %i items: kind, size, nodes and depth of visit, settings', (n) => {
    const tree = Quadtree.from(randomBoxes(n, n + 1), { bounds, maxObjects: 8, looseness: 1.5 });
    expect(tree.toJSON()).toEqual({
      kind: 'Quadtree',
      size: n,
      ...shapeOf(tree),
      options: { bounds, maxObjects: 8, maxLevels: 12, looseness: 1.5 },
    });
  });

  it.each(SIZES)('GridLooseQuadtree of %i items: kind, size, cells and depth, settings', (n) => {
    const grid = GridLooseQuadtree.from(randomBoxes(n, n + 2), { bounds, depth: 5 });
    expect(grid.toJSON()).toEqual({
      kind: 'GridLooseQuadtree',
      size: n,
      ...shapeOf(grid),
      options: { bounds, depth: 5 },
    });
  });

  it.each(SIZES)('PointQuadtree of %i items: kind, size, nodes and depth, settings', (n) => {
    const tree = PointQuadtree.from(randomBoxes(n, n + 3), { bounds, bucketSize: 4 });
    expect(tree.toJSON()).toEqual({
      kind: 'PointQuadtree',
      size: n,
      ...shapeOf(tree),
      options: { bounds, bucketSize: 4, maxLevels: 16 },
    });
  });

  it.each(SIZES)('StaticQuadtree of %i items, built and reopened from its buffer', (n) => {
    const tree = StaticQuadtree.from(randomBoxes(n, n + 4), { nodeSize: 8 });
    const expected = {
      kind: 'StaticQuadtree',
      size: n,
      ...shapeOf(tree),
      options: { nodeSize: 8, shared: false },
    };
    expect(tree.toJSON()).toEqual(expected);
    expect(StaticQuadtree.fromBuffer(tree.toBuffer()).toJSON()).toEqual(expected);
    expect(StaticQuadtree.fromPoints([1, 2], { shared: true }).toJSON().options).toEqual({
      nodeSize: 16,
      shared: true,
    });
  });

  it('TriangleIndex: kind, triangles, cells, and how many were skipped', () => {
    const mesh = new TriangleIndex([0, 0, 4, 0, 0, 4, 4, 4, 8, 8], [0, 1, 2, 1, 3, 2, 0, 3, 4], {
      skipDegenerate: true,
    });
    expect(mesh.toJSON()).toEqual({
      kind: 'TriangleIndex',
      size: 3,
      ...shapeOf(mesh),
      options: { skipDegenerate: true, skipped: 1 },
    });
  });

  it('ContactTracker: kind, the pairs at the last update, and the summary of its index', () => {
    const tree = Quadtree.from(
      [
        { x: 0, y: 0, width: 2, height: 2 },
        { x: 1, y: 1, width: 2, height: 2 },
        { x: 50, y: 50 },
      ],
      { bounds },
    );
    const contacts = new ContactTracker(tree).update();
    expect(contacts.toJSON()).toEqual({ kind: 'ContactTracker', size: 1, index: tree.toJSON() });
  });

  it('GeoIndex and Clusterer: kind, size and settings, under 300 characters, no feature', () => {
    const features = randomBoxes(2000, 10).map((b, i) => ({
      type: 'Feature' as const,
      properties: { name: `point ${i}` },
      geometry: { type: 'Point' as const, coordinates: [b.x - 180, b.y / 2 - 45] },
    }));
    const geo = GeoIndex.from([
      ...features,
      {
        type: 'Feature',
        properties: null,
        geometry: {
          type: 'MultiPoint',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        },
      },
    ]);
    expect(geo.toJSON()).toEqual({
      kind: 'GeoIndex',
      size: 2001,
      parts: 2002,
      options: { nodeSize: 16 },
    });
    const clusters = new Clusterer<{ name: string }, { n: number }>({
      radius: 60,
      map: (p) => ({ n: p.name.length }),
    }).load(features);
    const summary = clusters.toJSON();
    expect(summary).toEqual({ kind: 'Clusterer', size: 2000, options: { ...summary.options } });
    expect(summary.options).toMatchObject({ radius: 60, extent: 512, minZoom: 0, maxZoom: 16 });
    expect(summary.options).not.toHaveProperty('map');
    for (const text of [JSON.stringify(geo), JSON.stringify(clusters)]) {
      expect(text.length).toBeLessThan(300);
      expect(text).not.toMatch(/point \d/);
    }
  });

  it('JSON.stringify of an index of 20,000 items is under 300 characters and holds no item', () => {
    const items = randomBoxes(20_000, 9);
    const indexes = [
      Quadtree.from(items, { bounds }),
      GridLooseQuadtree.from(items, { bounds }),
      PointQuadtree.from(items, { bounds }),
      StaticQuadtree.from(items),
    ];
    for (const index of indexes) {
      const text = JSON.stringify(index);
      expect(text.length).toBeLessThan(300);
      expect(JSON.parse(text)).toEqual(index.toJSON());
      expect(text).not.toMatch(/"id"/);
    }
    expect(
      JSON.stringify(new ContactTracker(indexes[0] as Quadtree<(typeof items)[0]>)).length,
    ).toBeLessThan(400);
  });

  it('toJSON from inside a visit callback throws a WalkInProgressError, as visit does', () => {
    const tree = Quadtree.from(randomBoxes(10, 1), { bounds });
    let err: unknown;
    tree.visit(() => {
      try {
        tree.toJSON();
      } catch (e) {
        err = e;
      }
      return true;
    });
    expect(err).toBeInstanceOf(WalkInProgressError);
  });
});
