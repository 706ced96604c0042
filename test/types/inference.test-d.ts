/// <reference lib="esnext.disposable" />
// Type tests of the item-type rules, checked by `tsc -p tsconfig.json` (the typecheck step of
// `npm test`): each `@ts-expect-error` line must fail to compile, or tsc reports the directive as
// unused; each `expectTypeOf` must hold, or tsc reports the mismatch.
import { expectTypeOf } from 'vitest';
import { BatchPool } from '../../src/batch/index.js';
import { type Canvas2D, drawIndex, drawPoints, drawRects } from '../../src/canvas.js';
import { Clusterer } from '../../src/cluster/index.js';
import { type FeatureFilter, type FeatureHit, GeoIndex, geoNearest } from '../../src/geo/index.js';
import {
  ContactTracker,
  GridLooseQuadtree,
  type IndexSummary,
  type InvalidTypeError,
  type InvalidValueError,
  type Neighbour,
  type PointLike,
  PointQuadtree,
  type QuadkitErrorCode,
  Quadtree,
  type QuadtreeSettings,
  type Rect,
  type RectLike,
  StaticQuadtree,
  type UnknownOptionError,
} from '../../src/index.js';

declare const canvas: Canvas2D;

interface Player {
  x: number;
  y: number;
  width: number;
  height: number;
  name: string;
}
interface Sprite {
  box: Rect;
  name: string;
}
interface Unit {
  pos: PointLike;
  id: string;
}

const bounds = { x: 0, y: 0, width: 100, height: 100 };
declare const players: Player[];
declare const sprites: Sprite[];
declare const units: Unit[];

// Quadtree: the item type is the parameter of toRect.
const bySprite = new Quadtree({ bounds, toRect: (s: Sprite) => s.box });
expectTypeOf(bySprite).toEqualTypeOf<Quadtree<Sprite>>();
expectTypeOf(bySprite.search(bounds)[0]!.name).toEqualTypeOf<string>();

// ... or that of the items of from(items), whose toRect is then typed by them.
expectTypeOf(Quadtree.from(players, { bounds })).toEqualTypeOf<Quadtree<Player>>();
expectTypeOf(Quadtree.from(sprites, { bounds, toRect: (s) => s.box })).toEqualTypeOf<
  Quadtree<Sprite>
>();

// ... or the declared type, in a variable or a field.
const declared: Quadtree<Player> = new Quadtree({ bounds });
expectTypeOf(declared.nearest(0, 0)[0]!.name).toEqualTypeOf<string>();
class World {
  readonly tree: Quadtree<Player> = new Quadtree({ bounds, looseness: 2 });
}
expectTypeOf(new World().tree.all()).toEqualTypeOf<Player[]>();

// ... or the one written; with none of these, RectLike.
expectTypeOf(new Quadtree<Player>({ bounds })).toEqualTypeOf<Quadtree<Player>>();
expectTypeOf(new Quadtree({ bounds })).toEqualTypeOf<Quadtree<RectLike>>();

// Items that are not rectangles need toRect.
// @ts-expect-error toRect is required for items without x and y
new Quadtree<{ id: string }>({ bounds });
// @ts-expect-error toRect is required for items without x and y
Quadtree.from(sprites, { bounds });
// @ts-expect-error an item that is not a rectangle cannot go into a tree of rectangles
new Quadtree({ bounds }).insert({ id: 'a' });
// @ts-expect-error toRect must return a rectangle
new Quadtree({ bounds, toRect: (s: Sprite) => s.name });
// @ts-expect-error unknown options do not compile either
new Quadtree({ bounds, maxDepth: 3 });

// GridLooseQuadtree follows the same rules.
expectTypeOf(new GridLooseQuadtree({ bounds, toRect: (s: Sprite) => s.box })).toEqualTypeOf<
  GridLooseQuadtree<Sprite>
>();
expectTypeOf(GridLooseQuadtree.from(players, { bounds, depth: 4 })).toEqualTypeOf<
  GridLooseQuadtree<Player>
>();
expectTypeOf(new GridLooseQuadtree({ bounds })).toEqualTypeOf<GridLooseQuadtree<RectLike>>();
// @ts-expect-error toRect is required for items without x and y
new GridLooseQuadtree<Sprite>({ bounds });

// PointQuadtree: toPoint, and PointLike by default; rectangles are points too (x, y).
expectTypeOf(new PointQuadtree({ bounds, toPoint: (u: Unit) => u.pos })).toEqualTypeOf<
  PointQuadtree<Unit>
>();
expectTypeOf(PointQuadtree.from(units, { bounds, toPoint: (u) => u.pos })).toEqualTypeOf<
  PointQuadtree<Unit>
>();
expectTypeOf(PointQuadtree.from(players, { bounds })).toEqualTypeOf<PointQuadtree<Player>>();
expectTypeOf(new PointQuadtree({ bounds })).toEqualTypeOf<PointQuadtree<PointLike>>();
// @ts-expect-error toPoint is required for items without x and y
new PointQuadtree<Unit>({ bounds });
// @ts-expect-error toPoint is required for items without x and y
PointQuadtree.from(units, { bounds });

// StaticQuadtree: from(items) takes the items' type; raw coordinates give item indices.
expectTypeOf(StaticQuadtree.from(players)).toEqualTypeOf<StaticQuadtree<Player>>();
expectTypeOf(StaticQuadtree.from(sprites, { toRect: (s) => s.box })).toEqualTypeOf<
  StaticQuadtree<Sprite>
>();
expectTypeOf(StaticQuadtree.fromBoxes([0, 0, 1, 1])).toEqualTypeOf<StaticQuadtree<number>>();
// @ts-expect-error toRect is required for items without x and y
StaticQuadtree.from(sprites);
// @ts-expect-error toRect is required for items without x and y
StaticQuadtree.from(sprites, { nodeSize: 8 });
// @ts-expect-error raw boxes have no toRect
StaticQuadtree.fromBoxes([0, 0, 1, 1], { toRect: (b: number) => ({ x: b, y: b }) });

// The dynamic indexes' typed-array doors index item numbers, and take no reader.
const area = { x: 0, y: 0, width: 10, height: 10 };
expectTypeOf(Quadtree.fromBoxes(new Float64Array(4), { bounds: area })).toEqualTypeOf<
  Quadtree<number>
>();
expectTypeOf(GridLooseQuadtree.fromBoxes([0, 0, 1, 1], { bounds: area })).toEqualTypeOf<
  GridLooseQuadtree<number>
>();
expectTypeOf(PointQuadtree.fromPoints([0, 0], { bounds: area })).toEqualTypeOf<
  PointQuadtree<number>
>();
expectTypeOf(GridLooseQuadtree.fromBoxes([], { bounds: area }).search(area)).toEqualTypeOf<
  number[]
>();
expectTypeOf(new ContactTracker(Quadtree.fromBoxes([], { bounds: area }))).toEqualTypeOf<
  ContactTracker<number>
>();
// @ts-expect-error the typed-array door reads the boxes itself: no toRect
Quadtree.fromBoxes([0, 0, 1, 1], { bounds: area, toRect: (i: number) => ({ x: i, y: i }) });
// @ts-expect-error the typed-array door reads the points itself: no toPoint
PointQuadtree.fromPoints([0, 0], { bounds: area, toPoint: (i: number) => ({ x: i, y: i }) });
// @ts-expect-error bounds are required, as for the constructor
GridLooseQuadtree.fromBoxes([0, 0, 1, 1], {});

// Queries give the item type back, with distances where asked.
expectTypeOf(bySprite.nearestWithDistances(0, 0, Number.POSITIVE_INFINITY, 5)).toEqualTypeOf<
  Neighbour<Sprite>[]
>();
expectTypeOf(declared.toJSON()).toEqualTypeOf<IndexSummary<QuadtreeSettings>>();

// ContactTracker needs a dynamic index.
expectTypeOf(new ContactTracker(declared)).toEqualTypeOf<ContactTracker<Player>>();
// @ts-expect-error a StaticQuadtree never changes: no contacts to track
new ContactTracker(StaticQuadtree.from(players));

// The error classes keep the built-in classes, with a literal code.
expectTypeOf<InvalidValueError>().toExtend<RangeError>();
expectTypeOf<InvalidTypeError>().toExtend<TypeError>();
expectTypeOf<UnknownOptionError>().toExtend<TypeError>();
expectTypeOf<InvalidValueError['code']>().toEqualTypeOf<'QUADKIT_INVALID_VALUE'>();
expectTypeOf<InvalidValueError['code']>().toExtend<QuadkitErrorCode>();

// Both trees with aggregates declare visitAfter.
StaticQuadtree.from(players).visitAfter((node) => expectTypeOf(node.value).toBeNumber(), {
  weight: (p) => p.width,
});

// An optional option given as undefined means its default (exactOptionalPropertyTypes).
const configured: { maxObjects?: number | undefined; nodeSize?: number | undefined } = {};
new Quadtree({ bounds: area, maxObjects: configured.maxObjects, toRect: undefined });
StaticQuadtree.from(players, { nodeSize: configured.nodeSize, bounds: undefined });
new Clusterer({ radius: undefined, map: undefined, reduce: undefined });
drawIndex(canvas, declared, { maxDepth: undefined, colors: undefined });

// GeoJSON as @types/geojson declares it: optional members that may hold undefined.
interface TypedFeature {
  type: 'Feature';
  id?: string | number | undefined;
  bbox?: [number, number, number, number] | undefined;
  properties: { name: string };
  geometry: { type: 'Point'; coordinates: number[] };
}
declare const typedFeatures: TypedFeature[];
GeoIndex.from({ type: 'FeatureCollection', features: typedFeatures });
new Clusterer<{ name: string }>().load(typedFeatures);

// The canvas helpers read items as rectangles or points only when they are.
drawRects(canvas, players, undefined, {});
drawRects(canvas, [0, 1], (i) => players[i]!, {});
// @ts-expect-error numbers are not rectangles: a reader is needed
drawRects(canvas, [0, 1], undefined, {});
// @ts-expect-error numbers are not points: a reader is needed
drawPoints(canvas, [0, 1], undefined, {});

// `await using` closes a pool.
export async function pooled(tree: StaticQuadtree<number>): Promise<number> {
  await using pool = await BatchPool.create(tree);
  return pool.workers;
}

// A nearest filter sees the item type.
bySprite.nearest(0, 0, 3, Number.POSITIVE_INFINITY, (s) => {
  expectTypeOf(s).toEqualTypeOf<Sprite>();
  return s.name !== '';
});
expectTypeOf(
  StaticQuadtree.fromPoints([0, 0]).nearestWithDistances(0, 0, 1, 5, (i) => i > 0),
).toEqualTypeOf<Neighbour<number>[]>();

// The argument after maxDistance may be typed as a filter or a radius, either one.
declare const filterOrRadius: ((s: Sprite) => boolean) | number;
expectTypeOf(
  geoNearest(bySprite, 2, 48, 3, Number.POSITIVE_INFINITY, filterOrRadius),
).toEqualTypeOf<Sprite[]>();
declare const geo: GeoIndex<{ name: string }>;
declare const featureFilterOrRadius: FeatureFilter<{ name: string }> | number;
expectTypeOf(
  geo.geoNearest(2, 48, 3, Number.POSITIVE_INFINITY, featureFilterOrRadius),
).toEqualTypeOf<FeatureHit<{ name: string }>[]>();
