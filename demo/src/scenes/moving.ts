// Scene 2, moving objects: N boxes bouncing in a box, re-indexed every frame by updateAll() and
// paired by pairs() (the broad phase), with the time of those two calls shown beside the FPS.
// Positions live in typed arrays; the items are box ids. Up to 5000 boxes each is drawn with
// its outline; more, as pixels; when they are under 3 screen pixels wide (tens of thousands),
// as a heat map of 16-pixel cells: how crowded each is, and whether more or fewer of its boxes
// are in a pair than on the whole canvas, which a field of single-pixel boxes cannot show.

import { drawIndex, drawRects, fitView, type View } from '../../../src/canvas.js';
import {
  type DynamicIndex,
  GridLooseQuadtree,
  Quadtree,
  type RectLike,
} from '../../../src/index.js';
import { Heat, pixel, Raster } from '../raster.js';
import { checkbox, cssScale, density, radios, random, type Scene, slider } from '../scene.js';

const WORLD = { x: 0, y: 0, width: 1500, height: 1000 };
// Fraction of the world the boxes cover together, whatever their number.
const COVERAGE = 0.25;
// Up to this many boxes, each is drawn as a path with an outline; above, as pixels.
const OUTLINE_LIMIT = 5000;
// Boxes narrower than this many screen pixels (on average) are drawn as a heat map of cells
// HEAT_CELL screen pixels wide.
const HEAT_BELOW = 3;
const HEAT_CELL = 16;
// The heat map's hues: fewer pairs than the mean, the mean, more.
const HEAT = { cool: '#3b6ea8', mid: '#64748b', warm: '#f4a261' };
const COLORS = { background: '#0b132b', free: '#8d99ae', hit: '#ef233c', outline: '#edf2f4' };
// Tree nodes by depth, fading from the root down; cells under this many screen pixels are
// not drawn.
const TREE_COLORS = [
  '#8ff5e4',
  '#6fd9cb',
  '#58b8b0',
  '#4a9a97',
  '#3f7f80',
  '#376a6f',
  '#325a62',
  '#2e4f58',
  '#2b4652',
  '#293f4c',
];
const TREE_MIN_PIXELS = 8;
const KINDS = [
  ['classic', 'Quadtree (classic)'],
  ['loose', 'Quadtree (loose)'],
  ['grid', 'GridLooseQuadtree'],
] as const;
type Kind = (typeof KINDS)[number][0];

/** The boxes: positions, sizes and velocities by id. */
class Boxes {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly w: Float64Array;
  readonly h: Float64Array;
  readonly vx: Float64Array;
  readonly vy: Float64Array;
  /** Mean side. */
  readonly side: number;

  constructor(readonly n: number) {
    const rng = random(2);
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    this.w = new Float64Array(n);
    this.h = new Float64Array(n);
    this.vx = new Float64Array(n);
    this.vy = new Float64Array(n);
    this.side = Math.sqrt((COVERAGE * WORLD.width * WORLD.height) / n);
    for (let i = 0; i < n; i++) {
      this.w[i] = this.side * (0.5 + rng());
      this.h[i] = this.side * (0.5 + rng());
      this.x[i] = rng() * (WORLD.width - this.w[i]!);
      this.y[i] = rng() * (WORLD.height - this.h[i]!);
      const angle = rng() * 2 * Math.PI;
      const speed = 40 + rng() * 120;
      this.vx[i] = Math.cos(angle) * speed;
      this.vy[i] = Math.sin(angle) * speed;
    }
  }

  /** Moves every box by dt seconds, bouncing off the walls. */
  step(dt: number): void {
    const { x, y, w, h, vx, vy, n } = this;
    for (let i = 0; i < n; i++) {
      let nx = x[i]! + vx[i]! * dt;
      let ny = y[i]! + vy[i]! * dt;
      if (nx < 0 || nx + w[i]! > WORLD.width) {
        vx[i] = -vx[i]!;
        nx = Math.min(Math.max(nx, 0), WORLD.width - w[i]!);
      }
      if (ny < 0 || ny + h[i]! > WORLD.height) {
        vy[i] = -vy[i]!;
        ny = Math.min(Math.max(ny, 0), WORLD.height - h[i]!);
      }
      x[i] = nx;
      y[i] = ny;
    }
  }
}

// A grid depth whose finest cells are about three times the mean box.
function gridDepth(side: number): number {
  const depth = Math.round(Math.log2(Math.max(WORLD.width, WORLD.height) / (3 * side)));
  return Math.min(10, Math.max(2, depth));
}

function makeIndex(kind: Kind, boxes: Boxes): DynamicIndex<number> {
  // One scratch rectangle: the index copies the bounds as soon as it reads them.
  const r = { x: 0, y: 0, width: 0, height: 0 };
  const toRect = (i: number): RectLike => {
    r.x = boxes.x[i]!;
    r.y = boxes.y[i]!;
    r.width = boxes.w[i]!;
    r.height = boxes.h[i]!;
    return r;
  };
  // #region excerpt
  const index =
    kind === 'grid'
      ? new GridLooseQuadtree<number>({ bounds: WORLD, depth: gridDepth(boxes.side), toRect })
      : new Quadtree<number>({ bounds: WORLD, looseness: kind === 'loose' ? 2 : 1, toRect });
  // #endregion
  index.load(Array.from({ length: boxes.n }, (_, i) => i));
  return index;
}

function countNodes(index: DynamicIndex<number>): number {
  let n = 0;
  index.visit(() => {
    n++;
  });
  return n;
}

/** Scene 2: N bouncing boxes, three indexes, colliding pairs coloured, index time per frame. */
export const movingScene: Scene = {
  id: 'moving',
  title: 'Moving objects',
  blurb:
    'Boxes bounce around; every frame the index re-reads them all (updateAll) and reports every ' +
    'overlapping pair once (pairs). Boxes in a pair are red; tens of thousands are drawn as a ' +
    'heat map: orange where more of them are in a pair than on average, blue where fewer. ' +
    '"index ms" is the time of those two calls, averaged over the last 30 frames. Tree cells ' +
    'under 8 screen pixels are not drawn.',
  legend: [
    { color: COLORS.free, label: 'box', mark: 'fill' },
    { color: COLORS.hit, label: 'box in an overlapping pair', mark: 'fill' },
    {
      color: `${HEAT.cool}, ${HEAT.mid}, ${HEAT.warm}`,
      label: 'dense: fewer / more in pairs than the mean',
      mark: 'ramp',
    },
    { color: TREE_COLORS[1]!, label: 'tree node (≥ 8 px; deeper, dimmer)', mark: 'outline' },
  ],
  mount({ canvas, ctx, controls, stats, signal }) {
    const view: View = fitView(WORLD, canvas.width, canvas.height, {
      padding: 8 * density(canvas),
    });
    let kind: Kind = 'classic';
    let boxes = new Boxes(2000);
    let index = makeIndex(kind, boxes);
    let colliding = new Uint8Array(boxes.n);
    let free = new Int32Array(boxes.n);
    let hit = new Int32Array(boxes.n);
    let showTree = true;
    let paused = false;
    let pairCount = 0;
    let nodesDrawn = 0;
    const times: number[] = [];
    const drawTimes: number[] = [];
    const raster = new Raster(canvas.width, canvas.height);
    let heat: Heat | null = null;
    const rasterColors = {
      background: pixel(COLORS.background),
      free: pixel(COLORS.free),
      hit: pixel(COLORS.hit),
    };
    const rebuild = (n: number): void => {
      if (n !== boxes.n) {
        boxes = new Boxes(n);
        colliding = new Uint8Array(n);
        free = new Int32Array(n);
        hit = new Int32Array(n);
      }
      index = makeIndex(kind, boxes);
      times.length = 0;
      changed = true;
    };
    const mark = (a: number, b: number): void => {
      colliding[a] = 1;
      colliding[b] = 1;
      pairCount++;
    };
    // The drawing reads each box once, right away: one scratch rectangle is enough.
    const scratch = { x: 0, y: 0, width: 0, height: 0 };
    const toRect = (i: number): RectLike => {
      scratch.x = boxes.x[i]!;
      scratch.y = boxes.y[i]!;
      scratch.width = boxes.w[i]!;
      scratch.height = boxes.h[i]!;
      return scratch;
    };

    slider(
      controls,
      'boxes',
      { id: 'count', min: 1000, max: 100000, step: 1000, value: 2000 },
      (n) => rebuild(n),
    );
    radios(controls, 'index', KINDS, (value) => {
      kind = value as Kind;
      rebuild(boxes.n);
    });
    checkbox(controls, 'show the tree', true, (on) => {
      showTree = on;
      changed = true;
    });
    checkbox(controls, 'pause', false, (on) => {
      paused = on;
    });
    // Paused, a frame is drawn again only when something changed (the boxes, the index, what
    // is shown, the canvas's size on the page).
    let changed = true;
    window.addEventListener('resize', () => (changed = true), { signal });
    // Few boxes: free ones filled and outlined, then colliding ones on top. Returns how many collide.
    const drawPaths = (): number => {
      let nFree = 0;
      let nHit = 0;
      for (let i = 0; i < boxes.n; i++) {
        if (colliding[i] === 1) hit[nHit++] = i;
        else free[nFree++] = i;
      }
      ctx.fillStyle = COLORS.background;
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      const freeIds = free.subarray(0, nFree);
      drawRects(
        ctx,
        freeIds,
        toRect,
        { fill: COLORS.free, stroke: COLORS.outline, alpha: 0.7 },
        view,
      );
      drawRects(ctx, hit.subarray(0, nHit), toRect, { fill: COLORS.hit }, view);
      return nHit;
    };
    // Many boxes: the pixels each covers, colliding ones last.
    const drawPixels = (): number => {
      const { scaleX, scaleY, offsetX, offsetY } = view;
      const { x, y, w, h } = boxes;
      raster.clear(rasterColors.background);
      let nHit = 0;
      for (let pass = 0; pass < 2; pass++) {
        const color = pass === 0 ? rasterColors.free : rasterColors.hit;
        for (let i = 0; i < boxes.n; i++) {
          if (colliding[i] !== pass) continue;
          nHit += pass;
          raster.fill(
            x[i]! * scaleX + offsetX,
            y[i]! * scaleY + offsetY,
            w[i]! * scaleX,
            h[i]! * scaleY,
            color,
          );
        }
      }
      raster.put(ctx);
      return nHit;
    };
    // Tens of thousands: the heat map (cells of HEAT_CELL screen pixels).
    const drawHeat = (): number => {
      const cell = Math.max(2, Math.round(HEAT_CELL * cssScale(canvas)));
      if (heat === null || heat.cell !== cell) heat = new Heat(canvas.width, canvas.height, cell);
      const { scaleX, scaleY, offsetX, offsetY } = view;
      const { x, y, w, h } = boxes;
      heat.clear();
      let nHit = 0;
      for (let i = 0; i < boxes.n; i++) {
        nHit += colliding[i]!;
        heat.add(
          (x[i]! + w[i]! / 2) * scaleX + offsetX,
          (y[i]! + h[i]! / 2) * scaleY + offsetY,
          colliding[i] === 1,
        );
      }
      ctx.fillStyle = COLORS.background;
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      // Full brightness at a quarter more boxes than a cell holds on average.
      const cells = (WORLD.width * WORLD.height * (scaleX * scaleX)) / (cell * cell);
      heat.draw(ctx, { background: COLORS.background, ...HEAT }, (1.25 * boxes.n) / cells);
      return nHit;
    };
    let mode: 'paths' | 'pixels' | 'heat' = 'paths';
    // The index time first, so that the FPS line comes right after it.
    stats.set('index ms', '…');
    stats.set('FPS', '…');

    return {
      frame(dt) {
        if (paused && !changed) return;
        changed = false;
        if (!paused) boxes.step(dt);
        // The index step: re-read every box, then every overlapping pair.
        const t0 = performance.now();
        colliding.fill(0);
        pairCount = 0;
        // #region excerpt
        index.updateAll(); // re-read every box's bounds
        index.pairs(mark); // mark(a, b) once per overlapping pair
        // #endregion
        times.push(performance.now() - t0);
        if (times.length > 30) times.shift();

        const t1 = performance.now();
        mode =
          boxes.n <= OUTLINE_LIMIT
            ? 'paths'
            : (boxes.side * view.scaleX) / cssScale(canvas) >= HEAT_BELOW
              ? 'pixels'
              : 'heat';
        const nHit = mode === 'paths' ? drawPaths() : mode === 'pixels' ? drawPixels() : drawHeat();
        nodesDrawn = showTree
          ? drawIndex(
              ctx,
              index,
              { colors: TREE_COLORS, alpha: 0.8, minSize: TREE_MIN_PIXELS * cssScale(canvas) },
              view,
            )
          : 0;
        drawTimes.push(performance.now() - t1);
        if (drawTimes.length > 30) drawTimes.shift();

        const mean = times.reduce((s, t) => s + t, 0) / times.length;
        stats.set('index ms', mean.toFixed(2));
        stats.set('draw ms', (drawTimes.reduce((t, d) => t + d, 0) / drawTimes.length).toFixed(1));
        stats.set('boxes', boxes.n);
        stats.set('index', KINDS.find(([k]) => k === kind)![1]);
        stats.set('overlapping pairs', pairCount);
        stats.set('boxes in a pair', nHit);
        stats.set('nodes drawn', nodesDrawn);
      },
      state() {
        const small = boxes.n <= 5000;
        return {
          n: boxes.n,
          kind,
          mode,
          pairs: pairCount,
          indexMs: times.length > 0 ? times.reduce((s, t) => s + t, 0) / times.length : null,
          // Nodes in the index, and how many the last frame drew (the others are too small).
          nodes: countNodes(index),
          nodesDrawn,
          // Positions and flags only for small scenes (the test checks them by brute force).
          boxes: small
            ? Array.from({ length: boxes.n }, (_, i) => [
                boxes.x[i],
                boxes.y[i],
                boxes.w[i],
                boxes.h[i],
              ])
            : null,
          colliding: small ? Array.from(colliding) : null,
        };
      },
    };
  },
};
