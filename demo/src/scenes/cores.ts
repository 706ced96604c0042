// Scene 8, both cores: the 135k cities in a StaticQuadtree built on a SharedArrayBuffer, and a
// batch of 100,000 10-nearest queries answered twice: by a BatchPool (quadkit/batch) of module
// Web Workers sharing the tree's buffer, the page's own thread left free, then by nearestInto
// on the page's thread. The page needs cross-origin isolation (COOP/COEP headers) for the shared
// buffer; without it the scene says so. The scene may close at any moment of a run: the run
// stops, and the pool, closed with the scene, is no error.

import { BatchPool, type BatchResult } from '../../../src/batch/index.js';
import workerUrl from '../../../src/batch/worker.ts?worker&url';
import { drawPoints } from '../../../src/canvas.js';
import { StaticQuadtree } from '../../../src/index.js';
import { type Cities, cityPoints, loadCities, loadLand } from '../cities-data.js';
import { drawLand, mapScene } from '../map-view.js';
import { button, cssScale, random, type Scene } from '../scene.js';

const QUERIES = 100_000;
const K = 10;
// Queries per slice of the single-thread run (the page stays responsive between slices).
const SLICE = 5000;
// Queries drawn on the map, each joined to its nearest cities.
const DRAWN = 300;
const COLORS = {
  sea: '#dfe8f1',
  land: '#fbfaf6',
  coast: '#a9b8c8',
  city: '#1e293b',
  query: '#e11d48',
  line: '#be123c',
};

/** What one run measured. */
interface Run {
  singleMs: number;
  poolMs: number;
  workers: number;
  mainThreadQueries: number;
  workerQueries: number[];
  same: boolean;
}

// The tree and the queries, made on the first visit and kept for the next ones.
let built: { tree: StaticQuadtree; queries: Float64Array; isolated: boolean } | null = null;
function build(cities: Cities, isolated: boolean) {
  const n = cities.x.length;
  const coords = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    coords[2 * i] = cities.x[i]!;
    coords[2 * i + 1] = cities.y[i]!;
  }
  // #region excerpt
  const tree = StaticQuadtree.fromPoints(coords, { shared: isolated });
  // #endregion
  // Query points near cities (a city and a small offset), seeded.
  const rand = random(11);
  const queries = new Float64Array(2 * QUERIES);
  for (let q = 0; q < QUERIES; q++) {
    const c = Math.floor(rand() * n);
    queries[2 * q] = cities.x[c]! + (rand() - 0.5) * 4;
    queries[2 * q + 1] = cities.y[c]! + (rand() - 0.5) * 4;
  }
  return { tree, queries, isolated };
}

/** Scene 8: a batch of kNN queries on one thread, then on Web Workers. */
export const coresScene: Scene = {
  id: 'cores',
  title: 'Both cores',
  blurb:
    'The 135k cities in a StaticQuadtree on a SharedArrayBuffer. A batch of 100,000 queries ' +
    'for the 10 nearest cities runs on a BatchPool of Web Workers that share the tree ' +
    "(quadkit/batch), which answers in order, then on the page's thread (nearestInto, one by " +
    'one); the answers must agree. The map shows the first 300 queries and their nearest cities.',
  legend: [
    { color: COLORS.city, label: 'city (135k)', mark: 'dot' },
    { color: COLORS.query, label: 'query point (300 of 100,000)', mark: 'dot' },
    { color: COLORS.line, label: 'to its 10 nearest', mark: 'line' },
  ],
  legendCorner: 'bottom-left',
  async mount({ canvas, ctx, controls, list, stats, overlay, signal }) {
    const [cities, land] = await Promise.all([loadCities(signal), loadLand(signal)]);
    const n = cities.x.length;
    const isolated = typeof SharedArrayBuffer !== 'undefined' && crossOriginIsolated;
    if (built?.isolated !== isolated) built = build(cities, isolated);
    const { tree, queries } = built;
    stats.set('cities', n);
    const workers = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
    // The workers, started by the first run once the map is drawn (a visit left at once starts
    // none); they end with the scene (also when it closes while they start).
    let starting: Promise<BatchPool | null> | null = null;
    const start = (): Promise<BatchPool | null> => {
      if (starting === null) {
        // #region excerpt
        starting = isolated
          ? BatchPool.create(tree, { workers, mainThread: false, workerUrl })
          : Promise.resolve(null);
        // #endregion
        starting.then(
          (pool) => {
            if (signal.aborted) void pool?.close();
            else signal.addEventListener('abort', () => void pool?.close());
          },
          // A pool that failed to start: the run reports it.
          () => undefined,
        );
      }
      return starting;
    };
    if (!isolated) stats.set('workers', 'none: this page is not cross-origin isolated');

    let answer: BatchResult | null = null;
    let last: Run | null = null;
    let running = false;
    const { ids, toPoint } = cityPoints(cities);

    // The batch: the pool, then one thread; the answers must agree query by query. Returns
    // early when the scene closes.
    const batch = async (): Promise<void> => {
      // The workers first (the page's thread stays free), then the page's thread.
      let result: BatchResult | null = null;
      let poolMs = 0;
      stats.set('status', isolated ? 'starting the workers…' : 'one thread only');
      await new Promise((resolve) => requestAnimationFrame(resolve));
      if (signal.aborted) return;
      const pool = await start();
      if (signal.aborted) return;
      if (pool !== null) {
        stats.set('status', `running on ${workers} workers…`);
        const t0 = performance.now();
        // #region excerpt
        result = await pool.nearest(queries, K);
        // #endregion
        poolMs = performance.now() - t0;
      }
      const out: number[] = new Array(K);
      const single = new Int32Array(QUERIES * K);
      let singleMs = 0;
      for (let start = 0; start < QUERIES; start += SLICE) {
        // Between slices the page paints, and the scene may close.
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (signal.aborted) return;
        stats.set('status', `one thread: ${start.toLocaleString('en')} of 100,000…`);
        const t0 = performance.now();
        for (let q = start; q < Math.min(QUERIES, start + SLICE); q++) {
          const x = queries[2 * q]!;
          const y = queries[2 * q + 1]!;
          // #region excerpt
          const m = tree.nearestInto(x, y, K, Infinity, out);
          // #endregion
          for (let j = 0; j < m; j++) single[q * K + j] = out[j]!;
        }
        singleMs += performance.now() - t0;
      }
      if (result === null) {
        stats.set('status', 'one thread only');
        stats.set('1 thread, queries/s', Math.round((QUERIES / singleMs) * 1000));
        return;
      }
      let same = result.indices.length === single.length;
      for (let i = 0; same && i < single.length; i++) same = result.indices[i] === single[i];
      answer = result;
      last = {
        singleMs,
        poolMs,
        workers,
        mainThreadQueries: result.mainThreadQueries,
        workerQueries: [...result.workerQueries],
        same,
      };
      const rate = (ms: number) => Math.round((QUERIES / ms) * 1000);
      stats.set('status', same ? 'done: same answers' : 'done: ANSWERS DIFFER');
      stats.set('1 thread, queries/s', rate(singleMs));
      stats.set(`${workers} workers, queries/s`, rate(poolMs));
      stats.set('speed-up', `${(singleMs / poolMs).toFixed(2)}×`);
      list.replaceChildren(
        ...result.workerQueries.map((count, w) => {
          const li = document.createElement('li');
          const name = document.createElement('span');
          name.className = 'name';
          name.textContent = `worker ${w + 1}`;
          const value = document.createElement('span');
          value.className = 'value';
          value.textContent = `${count.toLocaleString('en')} queries`;
          li.append(name, value);
          return li;
        }),
      );
      scene.invalidate();
    };
    const run = async (): Promise<void> => {
      if (running) return;
      running = true;
      try {
        await batch();
      } catch (error) {
        // The pool closed with the scene while it answered: no error. Anything else is one.
        if (!signal.aborted) throw error;
      } finally {
        running = false;
      }
    };

    const scene = mapScene(
      { canvas, ctx, overlay, signal },
      {
        background(bg, view) {
          const px = cssScale(canvas);
          bg.fillStyle = COLORS.sea;
          bg.fillRect(0, 0, canvas.width, canvas.height);
          drawLand(bg, land, view, px, COLORS);
          drawPoints(
            bg,
            ids,
            toPoint,
            { fill: COLORS.city, pointSize: 1.2 * px, alpha: 0.5 },
            view,
          );
        },
        answer(_lon, _lat, view) {
          if (answer === null) return;
          const px = cssScale(canvas);
          const { scaleX, scaleY, offsetX, offsetY } = view;
          const lines = new Path2D();
          const dots = new Path2D();
          for (let q = 0; q < DRAWN; q++) {
            const qx = queries[2 * q]! * scaleX + offsetX;
            const qy = queries[2 * q + 1]! * scaleY + offsetY;
            for (const i of answer.indicesOf(q)) {
              lines.moveTo(qx, qy);
              lines.lineTo(cities.x[i]! * scaleX + offsetX, cities.y[i]! * scaleY + offsetY);
            }
            dots.moveTo(qx + 2.5 * px, qy);
            dots.arc(qx, qy, 2.5 * px, 0, 2 * Math.PI);
          }
          ctx.save();
          ctx.globalAlpha = 0.6;
          ctx.strokeStyle = COLORS.line;
          ctx.lineWidth = px;
          ctx.stroke(lines);
          ctx.globalAlpha = 1;
          ctx.fillStyle = COLORS.query;
          ctx.fill(dots);
          ctx.restore();
        },
      },
      { x: 0, y: 0 },
    );
    button(controls, 'run the batch again', () => void run());
    void run();

    return {
      frame: scene.frame,
      state() {
        return {
          isolated,
          view: scene.map.view,
          queries: QUERIES,
          k: K,
          run: last,
          // The first DRAWN queries and the pool's answers to them.
          sample:
            answer === null
              ? null
              : Array.from({ length: DRAWN }, (_, q) => ({
                  x: queries[2 * q]!,
                  y: queries[2 * q + 1]!,
                  hits: Array.from(answer!.indicesOf(q)),
                })),
        };
      },
    };
  },
};
