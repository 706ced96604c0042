// Scene 1, insert and retrieve: a classic quadtree of boxes. A click (a tap) adds a box and
// the tree splits; the rectangle under the mouse (or where the finger is) shows quadtree-js's
// collision candidates (retrieve: every item of every node the rectangle touches) beside the
// exact hits (search: the items that overlap it).

import { drawIndex, drawRects, fitView, toWorld } from '../../../src/canvas.js';
import { Quadtree, type Rect } from '../../../src/index.js';
import {
  BASE_HEIGHT,
  BASE_WIDTH,
  button,
  canvasPoint,
  cssScale,
  formatMs,
  radios,
  random,
  type Scene,
  say,
  slider,
} from '../scene.js';

interface Box extends Rect {
  id: number;
}

// Node capacity and depth: small, to see splits early, or quadtree-js's defaults.
const SHAPES = {
  small: { maxObjects: 4, maxLevels: 6 },
  'quadtree-js': { maxObjects: 10, maxLevels: 4 },
} as const;
const COLORS = {
  background: '#f7f8fa',
  item: '#adb5bd',
  node: '#2b4c7e',
  candidate: '#f4a261',
  hit: '#2a9d8f',
  query: '#e63946',
};

/** Scene 1: click or tap to add boxes; the query rectangle's candidates versus exact hits. */
export const insertScene: Scene = {
  id: 'insert',
  title: 'Insert and retrieve',
  blurb:
    `A classic quadtree. ${say('Click', 'Tap')} to add a box: a node splits when it holds more ` +
    'than maxObjects, and boxes that straddle a split line stay in the parent. In the ' +
    `rectangle ${say('around the mouse', 'you move with a finger')}: retrieve() candidates in ` +
    `orange, exact search() hits in green. ${say('Scroll or the slider', 'The slider')} resizes it.`,
  legend: [
    { color: COLORS.item, label: 'box', mark: 'outline' },
    { color: COLORS.candidate, label: 'retrieve(): candidate', mark: 'fill' },
    { color: COLORS.hit, label: 'search(): exact hit', mark: 'fill' },
    { color: COLORS.query, label: 'query rectangle', mark: 'outline' },
    { color: COLORS.node, label: 'quadtree node', mark: 'outline' },
  ],
  mount({ canvas, ctx, controls, stats, signal }) {
    // The world is the canvas at density 1: the same items and query on every screen.
    const width = BASE_WIDTH;
    const height = BASE_HEIGHT;
    const bounds = { x: 0, y: 0, width, height };
    const view = fitView(bounds, canvas.width, canvas.height);
    const rng = random(1);
    let shape: keyof typeof SHAPES = 'small';
    // #region excerpt
    const makeTree = () => new Quadtree<Box>({ bounds, ...SHAPES[shape] });
    // #endregion
    let tree = makeTree();
    let items: Box[] = [];
    const query = { x: width / 2 - 80, y: height / 2 - 60, width: 160, height: 120 };
    let candidates: Box[] = [];
    let hits: Box[] = [];
    let dirty = true;

    const add = (cx: number, cy: number): void => {
      const w = 8 + Math.floor(rng() * 40);
      const h = 8 + Math.floor(rng() * 40);
      const box = {
        id: items.length,
        x: Math.round(cx - w / 2),
        y: Math.round(cy - h / 2),
        width: w,
        height: h,
      };
      items.push(box);
      // #region excerpt
      tree.insert(box);
      // #endregion
      dirty = true;
    };
    const addRandom = (n: number): void => {
      for (let i = 0; i < n; i++) add(rng() * width, rng() * height);
    };
    addRandom(70);

    button(controls, 'Add 20 random', () => addRandom(20));
    button(controls, 'Clear', () => {
      tree = makeTree();
      items = [];
      dirty = true;
    });
    radios(
      controls,
      'shape',
      [
        ['small', '4 per node, 6 levels'],
        ['quadtree-js', '10 per node, 4 levels (quadtree-js)'],
      ],
      (value) => {
        shape = value as keyof typeof SHAPES;
        tree = makeTree().load(items);
        dirty = true;
      },
    );

    const moveQuery = (event: MouseEvent): void => {
      const p = toWorld(view, ...xy(canvasPoint(canvas, event)));
      query.x = p.x - query.width / 2;
      query.y = p.y - query.height / 2;
      dirty = true;
    };
    // The rectangle follows the mouse, or a finger from where it lands.
    canvas.addEventListener('pointermove', moveQuery, { signal });
    canvas.addEventListener('pointerdown', moveQuery, { signal });
    const resize = (f: number): void => {
      const cx = query.x + query.width / 2;
      const cy = query.y + query.height / 2;
      query.width = Math.max(10, Math.min(width, query.width * f));
      query.height = Math.max(10, Math.min(height, query.height * f));
      query.x = cx - query.width / 2;
      query.y = cy - query.height / 2;
      dirty = true;
    };
    // The slider gives the rectangle's width (its height is 3/4 of it).
    const size = slider(
      controls,
      'query width',
      { id: 'size', min: 20, max: 600, step: 10, value: query.width },
      (w) => resize(w / query.width),
    );
    canvas.addEventListener(
      'click',
      (event) => {
        const p = toWorld(view, ...xy(canvasPoint(canvas, event)));
        add(p.x, p.y);
      },
      { signal },
    );
    canvas.addEventListener(
      'wheel',
      (event) => {
        event.preventDefault();
        resize(event.deltaY < 0 ? 1.1 : 1 / 1.1);
        size.value = String(query.width);
        size.previousElementSibling!.textContent = Math.round(query.width).toLocaleString('en');
      },
      { signal, passive: false },
    );

    return {
      frame() {
        if (!dirty) return;
        dirty = false;
        const t0 = performance.now();
        // #region excerpt
        candidates = tree.retrieve(query); // quadtree-js's candidates
        hits = tree.search(query); // the boxes that overlap it
        // #endregion
        const ms = performance.now() - t0;

        ctx.fillStyle = COLORS.background;
        ctx.fillRect(0, 0, canvas.width, canvas.height);
        let deepest = 0;
        tree.visit((n) => {
          deepest = Math.max(deepest, n.depth);
        });
        // Lines keep their width on the screen, whatever the canvas's scale.
        const px = cssScale(canvas);
        const nodes = drawIndex(ctx, tree, { lineWidth: px }, view);
        const line = { lineWidth: px };
        drawRects(ctx, items, undefined, { fill: '#e9ecef', stroke: COLORS.item, ...line }, view);
        drawRects(ctx, candidates, undefined, { fill: COLORS.candidate, alpha: 0.75 }, view);
        drawRects(ctx, hits, undefined, { fill: COLORS.hit, stroke: '#1d6f65', ...line }, view);
        drawRects(ctx, [query], undefined, { stroke: COLORS.query, lineWidth: 2 * px }, view);

        stats.set('items', tree.size);
        stats.set('nodes', nodes);
        stats.set('deepest level', deepest);
        stats.set('candidates (retrieve)', candidates.length);
        stats.set('hits (search)', hits.length);
        stats.set('query ms', formatMs(ms));
      },
      state() {
        const ids = (list: readonly Box[]) => list.map((b) => b.id).sort((a, b) => a - b);
        return {
          items: items.map(({ x, y, width: w, height: h }) => ({ x, y, width: w, height: h })),
          query: { ...query },
          candidates: ids(candidates),
          hits: ids(hits),
        };
      },
    };
  },
};

const xy = (p: { x: number; y: number }): [number, number] => [p.x, p.y];
