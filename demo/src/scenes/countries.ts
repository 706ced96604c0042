// Scene 5, point in polygon: the world's countries (world-atlas's countries-110m, Natural Earth)
// in a GeoIndex from quadkit/geo; the country under the mouse (or a tap) is found with
// containing(lon, lat), highlighted and named. Russia and Fiji are cut at the antimeridian
// (../antimeridian.ts), as the index is planar in degrees. The TopoJSON file (108 kB, about 30 kB gzipped)
// is a hashed asset fetched when the tab opens and decoded by topojson-client (loaded with it).

import countriesUrl from 'world-atlas/countries-110m.json?url';
import type { View } from '../../../src/canvas.js';
import {
  type Areal,
  cutAtAntimeridian,
  type Feature,
  GeoIndex,
  type Geometry,
  type Position,
} from '../../../src/geo/index.js';
import { once } from '../cities-data.js';
import { mapScene } from '../map-view.js';
import { cssScale, dot, formatMs, type Scene, say } from '../scene.js';

type Country = Feature<{ name: string }>;

const COLORS = {
  sea: '#dfe8f1',
  lands: ['#f4f1e8', '#ece6d6', '#f7f3ea', '#e8e2d0', '#efeadc'],
  border: '#a9b8c8',
  hit: '#e11d48',
  text: '#0f172a',
};

// The countries and their index, made on the first visit and kept for the next ones.
async function build() {
  const [response, { feature }] = await Promise.all([
    fetch(countriesUrl),
    import('topojson-client'),
  ]);
  if (!response.ok) throw new Error(`${countriesUrl}: HTTP ${response.status}`);
  const topology = await response.json();
  const { features } = feature(topology, topology.objects.countries) as unknown as {
    features: Country[];
  };
  for (const f of features) f.geometry = cutAtAntimeridian(f.geometry as Areal);
  const t0 = performance.now();
  // #region excerpt
  const index = GeoIndex.from(features);
  // #endregion
  return { features, index, ms: performance.now() - t0 };
}

/** Scene 5: the country under the mouse or a tap, by point-in-polygon over a GeoIndex. */
export const countriesScene: Scene = {
  id: 'countries',
  title: 'Countries',
  blurb:
    "The world's countries (world-atlas, Natural Earth 1:110m) in a GeoIndex: a StaticQuadtree " +
    "over their polygons' boxes, then an exact point-in-polygon test (holes count: Lesotho is " +
    `not South Africa). The country ${say('under the mouse', 'you tap')} is containing(lon, lat). ` +
    say('Scroll or + and − to zoom, drag to pan.', 'Pinch or + and − to zoom, drag to pan.'),
  legend: [
    { color: COLORS.lands[1]!, label: 'country (world-atlas)', mark: 'fill' },
    {
      color: COLORS.hit,
      label: `${say('under the mouse', 'tapped')}: containing(lon, lat)`,
      mark: 'fill',
    },
    { color: COLORS.border, label: 'border', mark: 'line' },
  ],
  legendCorner: 'bottom-left',
  async mount({ canvas, ctx, list, stats, overlay, signal }) {
    const { features, index, ms: indexMs } = await once('countries', build, signal);
    let t0 = 0;
    stats.set('countries', index.size);
    stats.set('index ms', indexMs.toFixed(1));

    const { width, height } = canvas;
    const found: number[] = [];
    let hits: number[] = [];

    // The map: sea, then every country filled in one of a few tints, its border stroked.
    const renderBackground = (bg: CanvasRenderingContext2D, view: View): void => {
      const px = cssScale(canvas);
      bg.fillStyle = COLORS.sea;
      bg.fillRect(0, 0, width, height);
      bg.lineWidth = 0.75 * px;
      bg.strokeStyle = COLORS.border;
      for (const [i, f] of features.entries()) {
        if (f.geometry === null) continue;
        const path = geometryPath(f.geometry, view);
        bg.fillStyle = COLORS.lands[i % COLORS.lands.length]!;
        bg.fill(path, 'evenodd');
        bg.stroke(path);
      }
    };

    // The answer: the countries under the mouse filled, their names by the mouse.
    const renderHits = (lon: number, lat: number, view: View): void => {
      const px = cssScale(canvas);
      ctx.save();
      ctx.globalAlpha = 0.55;
      ctx.fillStyle = COLORS.hit;
      for (const i of hits) ctx.fill(geometryPath(features[i]!.geometry!, view), 'evenodd');
      ctx.globalAlpha = 1;
      ctx.strokeStyle = COLORS.hit;
      ctx.lineWidth = 1.5 * px;
      for (const i of hits) ctx.stroke(geometryPath(features[i]!.geometry!, view));
      const qx = lon * view.scaleX + view.offsetX;
      const qy = lat * view.scaleY + view.offsetY;
      dot(ctx, qx, qy, COLORS.text, px, 4, 2);
      ctx.fillStyle = COLORS.text;
      ctx.strokeStyle = '#ffffff';
      const label = hits.map((i) => features[i]!.properties.name).join(', ');
      if (label !== '') {
        ctx.font = `600 ${14 * px}px system-ui, sans-serif`;
        ctx.textBaseline = 'bottom';
        const w = ctx.measureText(label).width;
        // Right of the mouse, or left of it near the right edge.
        const x = qx + 10 * px + w > width ? qx - 10 * px - w : qx + 10 * px;
        ctx.lineWidth = 4 * px;
        ctx.lineJoin = 'round';
        ctx.strokeText(label, x, qy - 6 * px);
        ctx.fillText(label, x, qy - 6 * px);
      }
      ctx.restore();
    };

    // Until the mouse moves: Paris. Hover or press to query, drag to pan, wheel or pinch to zoom.
    const scene = mapScene(
      { canvas, ctx, overlay, signal },
      {
        background: renderBackground,
        answer(lon, lat, view) {
          t0 = performance.now();
          // #region excerpt
          // The countries whose polygons hold (lon, lat), holes excluded.
          const n = index.containingInto(lon, lat, found);
          // #endregion
          const ms = performance.now() - t0;
          hits = found.slice(0, n);
          renderHits(lon, lat, view);
          const names = hits.map((i) => features[i]!.properties.name);
          list.replaceChildren(
            ...names.map((name) => {
              const li = document.createElement('li');
              const span = document.createElement('span');
              span.className = 'name';
              span.textContent = name;
              li.append(span);
              return li;
            }),
          );
          stats.set('country', names.length === 0 ? 'none (sea)' : names.join(', '));
          stats.set('query at', `${lon.toFixed(3)}, ${lat.toFixed(3)}`);
          stats.set('containing ms', formatMs(ms));
        },
      },
      { x: 2.35, y: 48.85 },
    );
    const { map, query } = scene;

    return {
      frame: scene.frame,
      state() {
        return { query: { ...query }, hits: [...hits], view: map.view };
      },
    };
  },
};

// A Polygon's or MultiPolygon's rings as one path on the map (fill it even-odd: holes stay out).
function geometryPath(geometry: Geometry, view: View): Path2D {
  const path = new Path2D();
  const polygons: Position[][][] =
    geometry.type === 'Polygon'
      ? [geometry.coordinates]
      : geometry.type === 'MultiPolygon'
        ? geometry.coordinates
        : [];
  for (const rings of polygons) {
    for (const ring of rings) {
      for (const [v, [x, y]] of ring.entries()) {
        const cx = x! * view.scaleX + view.offsetX;
        const cy = y! * view.scaleY + view.offsetY;
        if (v === 0) path.moveTo(cx, cy);
        else path.lineTo(cx, cy);
      }
      path.closePath();
    }
  }
  return path;
}
