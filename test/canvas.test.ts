import { describe, expect, it } from 'vitest';
import {
  type Canvas2D,
  DEPTH_COLORS,
  drawIndex,
  drawPoints,
  drawRects,
  drawTriangles,
  fitView,
  toWorld,
} from '../src/canvas.js';
import { GridLooseQuadtree, PointQuadtree, Quadtree, StaticQuadtree } from '../src/index.js';
import { mulberry32, randInt } from './oracle.js';

interface Call {
  op: string;
  args: number[];
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  globalAlpha: number;
}

// A fake context that records every call with the style in force when it was made.
class Recorder implements Canvas2D {
  fillStyle: unknown = '#000';
  strokeStyle: unknown = '#000';
  lineWidth = 1;
  globalAlpha = 1;
  calls: Call[] = [];
  private saved: [unknown, unknown, number, number][] = [];
  private log(op: string, args: number[]): void {
    const { fillStyle, strokeStyle, lineWidth, globalAlpha } = this;
    this.calls.push({ op, args, fillStyle, strokeStyle, lineWidth, globalAlpha });
  }
  save(): void {
    this.saved.push([this.fillStyle, this.strokeStyle, this.lineWidth, this.globalAlpha]);
  }
  restore(): void {
    [this.fillStyle, this.strokeStyle, this.lineWidth, this.globalAlpha] = this.saved.pop()!;
  }
  beginPath(): void {
    this.log('beginPath', []);
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.log('rect', [x, y, w, h]);
  }
  moveTo(x: number, y: number): void {
    this.log('moveTo', [x, y]);
  }
  lineTo(x: number, y: number): void {
    this.log('lineTo', [x, y]);
  }
  closePath(): void {
    this.log('closePath', []);
  }
  fill(): void {
    this.log('fill', []);
  }
  stroke(): void {
    this.log('stroke', []);
  }
  ops(op: string): Call[] {
    return this.calls.filter((c) => c.op === op);
  }
  // The rectangles of each path, keyed by the colour it was stroked with.
  strokedRects(): Map<unknown, number[][]> {
    const out = new Map<unknown, number[][]>();
    let path: number[][] = [];
    for (const c of this.calls) {
      if (c.op === 'beginPath') path = [];
      else if (c.op === 'rect') path.push(c.args);
      else if (c.op === 'stroke')
        out.set(c.strokeStyle, [...(out.get(c.strokeStyle) ?? []), ...path]);
    }
    return out;
  }
}

interface Node {
  x: number;
  y: number;
  width: number;
  height: number;
  depth: number;
}

function nodesOf(index: { visit(cb: (n: Node) => undefined): void }): Node[] {
  const nodes: Node[] = [];
  index.visit(({ x, y, width, height, depth }) => {
    nodes.push({ x, y, width, height, depth });
    return undefined;
  });
  return nodes;
}

const key = (r: readonly number[]) => r.map((v) => v.toFixed(6)).join(',');

function randomBoxes(seed: number, n: number) {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, () => ({
    x: randInt(rng, 0, 990),
    y: randInt(rng, 0, 990),
    width: randInt(rng, 0, 10),
    height: randInt(rng, 0, 10),
  }));
}

describe('drawIndex(ctx, index, style, view)', () => {
  const bounds = { x: 0, y: 0, width: 1000, height: 1000 };
  const boxes = randomBoxes(7, 600);
  const indexes = [
    ['Quadtree', new Quadtree({ bounds, maxObjects: 4 }).load(boxes)],
    ['Quadtree (loose)', new Quadtree({ bounds, maxObjects: 4, looseness: 2 }).load(boxes)],
    ['GridLooseQuadtree', new GridLooseQuadtree({ bounds, depth: 5 }).load(boxes)],
    ['PointQuadtree', new PointQuadtree({ bounds, bucketSize: 4 }).load(boxes)],
    ['StaticQuadtree', StaticQuadtree.from(boxes, { nodeSize: 4 })],
  ] as const;

  for (const [name, index] of indexes) {
    it(`strokes exactly the nodes visit reports, each in its depth's colour (${name})`, () => {
      const ctx = new Recorder();
      const view = { scaleX: 0.5, scaleY: -2, offsetX: 10, offsetY: 2000 };
      const drawn = drawIndex(ctx, index, {}, view);
      const nodes = nodesOf(index);
      expect(nodes.length).toBeGreaterThan(1);
      expect(drawn).toBe(nodes.length);
      const byColor = ctx.strokedRects();
      for (const [color, rects] of byColor) {
        const expected = nodes
          .filter((n) => DEPTH_COLORS[n.depth % DEPTH_COLORS.length] === color)
          .map((n) => [n.x * 0.5 + 10, n.y * -2 + 2000, n.width * 0.5, n.height * -2]);
        expect(rects.map(key).sort()).toEqual(expected.map(key).sort());
      }
      const total = [...byColor.values()].reduce((s, r) => s + r.length, 0);
      expect(total).toBe(nodes.length);
    });
  }

  it('applies the style (colours, line width, alpha) and restores the context', () => {
    const ctx = new Recorder();
    const tree = new Quadtree({ bounds, maxObjects: 4 }).load(boxes);
    const colors = ['red', 'green', 'blue'];
    drawIndex(ctx, tree, { colors, lineWidth: 3, alpha: 0.5 });
    const strokes = ctx.ops('stroke');
    expect(strokes.length).toBe(3);
    expect(strokes.map((s) => s.strokeStyle).sort()).toEqual(['blue', 'green', 'red']);
    for (const s of strokes) {
      expect(s.lineWidth).toBe(3);
      expect(s.globalAlpha).toBe(0.5);
    }
    expect([ctx.strokeStyle, ctx.lineWidth, ctx.globalAlpha]).toEqual(['#000', 1, 1]);
  });

  it('stops at maxDepth: no deeper node is drawn', () => {
    const ctx = new Recorder();
    const tree = new Quadtree({ bounds, maxObjects: 4 }).load(boxes);
    const nodes = nodesOf(tree);
    const shallow = nodes.filter((n) => n.depth <= 2).length;
    expect(shallow).toBeLessThan(nodes.length);
    expect(drawIndex(ctx, tree, { maxDepth: 2 })).toBe(shallow);
    expect(ctx.ops('rect').length).toBe(shallow);
  });

  it('skips nodes smaller than minSize pixels on the canvas (in both directions), and their children', () => {
    const tree = new Quadtree({ bounds, maxObjects: 4 }).load(boxes);
    const nodes = nodesOf(tree);
    for (const [scale, minSize] of [
      [1, 100],
      [0.5, 100],
      [2, 150],
      [-1, 60],
    ] as const) {
      const ctx = new Recorder();
      const view = { scaleX: scale, scaleY: -scale, offsetX: 0, offsetY: 0 };
      // Brute force: a node is drawn when it and all its ancestors are at least minSize wide
      // or high; the ancestors are larger, so the node alone decides.
      const big = nodes.filter(
        (n) => Math.max(n.width, n.height) * Math.abs(scale) >= minSize,
      ).length;
      expect(big).toBeGreaterThan(0);
      expect(big).toBeLessThan(nodes.length);
      expect(drawIndex(ctx, tree, { minSize }, view)).toBe(big);
      expect(ctx.ops('rect').length).toBe(big);
      for (const r of ctx.ops('rect')) {
        expect(Math.max(Math.abs(r.args[2]!), Math.abs(r.args[3]!))).toBeGreaterThanOrEqual(
          minSize,
        );
      }
    }
    expect(drawIndex(new Recorder(), tree, { minSize: 0 })).toBe(nodes.length);
  });
});

describe('drawRects, drawPoints, drawTriangles', () => {
  it('drawRects puts every item in one path, fills then strokes it in the given style', () => {
    const ctx = new Recorder();
    const items = [
      { minX: 1, minY: 2, maxX: 4, maxY: 6 },
      { minX: 0, minY: 0, maxX: 0, maxY: 0 },
    ];
    const toRect = (b: (typeof items)[number]) => ({
      x: b.minX,
      y: b.minY,
      width: b.maxX - b.minX,
      height: b.maxY - b.minY,
    });
    drawRects(
      ctx,
      items,
      toRect,
      { fill: 'gold', stroke: 'navy', lineWidth: 2, alpha: 0.25 },
      {
        scaleX: 10,
        scaleY: 10,
        offsetX: 5,
        offsetY: 0,
      },
    );
    expect(ctx.calls.map((c) => c.op)).toEqual(['beginPath', 'rect', 'rect', 'fill', 'stroke']);
    expect(ctx.ops('rect').map((c) => c.args)).toEqual([
      [15, 20, 30, 40],
      [5, 0, 0, 0],
    ]);
    const [fill] = ctx.ops('fill');
    const [stroke] = ctx.ops('stroke');
    expect([fill!.fillStyle, fill!.globalAlpha]).toEqual(['gold', 0.25]);
    expect([stroke!.strokeStyle, stroke!.lineWidth]).toEqual(['navy', 2]);
    expect([ctx.fillStyle, ctx.strokeStyle, ctx.globalAlpha]).toEqual(['#000', '#000', 1]);
  });

  it('drawRects without a stroke colour only fills; reads { x, y, width?, height? } by default', () => {
    const ctx = new Recorder();
    drawRects(ctx, [{ x: 3, y: 4 }], undefined, { fill: 'red' });
    expect(ctx.calls.map((c) => c.op)).toEqual(['beginPath', 'rect', 'fill']);
    expect(ctx.ops('rect')[0]!.args).toEqual([3, 4, 0, 0]);
  });

  it('drawPoints centres a square of pointSize pixels on each point, after the view', () => {
    const ctx = new Recorder();
    const ids = new Int32Array([0, 2]);
    const xy = [1, 1, 5, 5, 2, 3];
    drawPoints(
      ctx,
      ids,
      (i) => ({ x: xy[2 * i]!, y: xy[2 * i + 1]! }),
      { fill: 'red', pointSize: 4 },
      {
        scaleX: 2,
        scaleY: -2,
        offsetX: 0,
        offsetY: 100,
      },
    );
    expect(ctx.ops('rect').map((c) => c.args)).toEqual([
      [0, 96, 4, 4],
      [2, 92, 4, 4],
    ]);
  });

  it('drawTriangles outlines the chosen triangles of a flat mesh', () => {
    const ctx = new Recorder();
    const coords = [0, 0, 10, 0, 0, 10, 10, 10];
    const triangles = [0, 1, 2, 1, 3, 2];
    drawTriangles(ctx, coords, triangles, [1], { stroke: 'black' });
    expect(ctx.calls.map((c) => `${c.op}${c.args.join(',')}`)).toEqual([
      'beginPath',
      'moveTo10,0',
      'lineTo10,10',
      'lineTo0,10',
      'closePath',
      'stroke',
    ]);
    const all = new Recorder();
    drawTriangles(all, coords, triangles, null, { fill: 'grey' });
    expect(all.ops('closePath').length).toBe(2);
  });
});

describe('fitView and toWorld', () => {
  it('fits the world in the canvas, centred, aspect kept, and toWorld inverts it', () => {
    const world = { x: -180, y: -90, width: 360, height: 180 };
    const view = fitView(world, 800, 600, { padding: 20, flipY: true });
    expect(view.scaleX).toBeCloseTo(760 / 360);
    expect(view.scaleY).toBeCloseTo(-760 / 360);
    // The world's corners land inside the canvas, centred vertically, north up.
    const left = -180 * view.scaleX + view.offsetX;
    const top = 90 * view.scaleY + view.offsetY;
    const bottom = -90 * view.scaleY + view.offsetY;
    expect(left).toBeCloseTo(20);
    expect(top).toBeCloseTo(300 - 380 / 2);
    expect(bottom).toBeCloseTo(300 + 380 / 2);
    const p = toWorld(view, 400, 300);
    expect(p.x).toBeCloseTo(0);
    expect(p.y).toBeCloseTo(0);
    const q = toWorld(view, left, top);
    expect(q.x).toBeCloseTo(-180);
    expect(q.y).toBeCloseTo(90);
  });

  it('without flipY, larger y is lower on the canvas', () => {
    const view = fitView({ x: 0, y: 0, width: 100, height: 100 }, 200, 400);
    expect(view).toEqual({ scaleX: 2, scaleY: 2, offsetX: 0, offsetY: 100 });
  });
});
