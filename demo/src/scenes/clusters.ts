// Scene 6, clustering: the 135k cities in a Clusterer (quadkit/cluster, supercluster's greedy
// clustering per Web Mercator zoom), drawn as the clusters of the zoom the map is at and
// re-clustered as it zooms (the wheel, a pinch, or the + and − buttons) or pans:
// getClusters(bbox, zoom). The zoom is in screen pixels, as on any web map; on a narrow screen
// the clustering radius is wider, so that the discs and their counts have room.

import type { View } from '../../../src/canvas.js';
import { Clusterer, type ClusterFeature, type PointFeature } from '../../../src/cluster/index.js';
import { type Cities, loadCities, loadLand } from '../cities-data.js';
import { drawLand, mapScene, WORLD } from '../map-view.js';
import { cssScale, dot, formatMs, type Scene, say } from '../scene.js';

// The clusterer's options: supercluster's defaults (40 px radius on 512-unit tiles of 256 px),
// 60 px on a canvas narrower than NARROW screen pixels.
const RADIUS = 40;
const NARROW_RADIUS = 60;
const NARROW = 560;
const EXTENT = 512;
const MAX_ZOOM = 16;
const COLORS = {
  sea: '#dfe8f1',
  land: '#fbfaf6',
  coast: '#a9b8c8',
  cluster: '#0f766e',
  point: '#1e293b',
  text: '#ffffff',
  mouse: '#e11d48',
};
// The labels' font size in screen pixels.
const FONT = 11;

// A clusterer per radius, built once for the page (loading 135k cities at every zoom takes a
// moment), and the time it took.
const built = new Map<number, { clusterer: Clusterer<null>; ms: number }>();
function clustererFor(cities: Cities, radius: number): { clusterer: Clusterer<null>; ms: number } {
  let entry = built.get(radius);
  if (entry === undefined) {
    const points: PointFeature<null>[] = Array.from({ length: cities.x.length }, (_, i) => ({
      type: 'Feature',
      properties: null,
      geometry: { type: 'Point', coordinates: [cities.x[i]!, cities.y[i]!] },
    }));
    const t0 = performance.now();
    // #region excerpt
    const clusterer = new Clusterer<null>({ radius, extent: EXTENT, maxZoom: MAX_ZOOM });
    clusterer.load(points);
    // #endregion
    entry = { clusterer, ms: performance.now() - t0 };
    built.set(radius, entry);
  }
  return entry;
}

/** Scene 6: the cities clustered for the map's zoom. */
export const clustersScene: Scene = {
  id: 'clusters',
  title: 'Clusters',
  blurb:
    'The 135k cities in a Clusterer (quadkit/cluster), which groups points as supercluster ' +
    'does: greedily, within 40 px at each Web Mercator zoom (60 px on a narrow screen). The ' +
    'map shows getClusters(bbox, zoom) for its own view and zoom, and re-clusters as you ' +
    `${say('zoom (wheel, or + and −)', 'zoom (pinch, or + and −)')} or pan.`,
  legend: [
    { color: COLORS.cluster, label: 'cluster (its size: point_count)', mark: 'dot' },
    { color: COLORS.point, label: 'city on its own', mark: 'dot' },
    { color: COLORS.coast, label: 'coastline (world-atlas)', mark: 'line' },
  ],
  async mount({ canvas, ctx, stats, overlay, signal }) {
    const [cities, land] = await Promise.all([loadCities(signal), loadLand(signal)]);
    const n = cities.x.length;
    const radius = canvas.clientWidth > 0 && canvas.clientWidth < NARROW ? NARROW_RADIUS : RADIUS;
    const { clusterer, ms: loadMs } = clustererFor(cities, radius);
    stats.set('cities', n);
    stats.set('radius px', radius);
    stats.set('load ms (all zooms)', loadMs.toFixed(0));

    const { width, height } = canvas;
    let zoom = 0;
    let bbox: [number, number, number, number] = [-180, -90, 180, 90];
    let shown: Array<PointFeature<null> | ClusterFeature<Record<string, never>>> = [];
    // What the last drawing showed, in screen pixels from the canvas's top left: each disc
    // [x, y, r, labelled], each label's box [left, top, right, bottom].
    let discs: [number, number, number, number][] = [];
    let labels: [number, number, number, number][] = [];

    // The map's Web Mercator zoom: its scale in screen pixels per degree of longitude, against
    // a 256-pixel world tile at zoom 0.
    const mercatorZoom = (view: View) => {
      const scale = view.scaleX / cssScale(canvas);
      return Math.max(0, Math.min(MAX_ZOOM + 1, Math.floor(Math.log2((scale * 360) / 256))));
    };

    // The clusters of the view's box at its zoom: discs sized by their count, no wider than the
    // clustering leaves room for, and counts where they fit.
    const renderBackground = (bg: CanvasRenderingContext2D, view: View): void => {
      const px = cssScale(canvas);
      bg.fillStyle = COLORS.sea;
      bg.fillRect(0, 0, width, height);
      drawLand(bg, land, view, px, COLORS);
      const west = Math.max(WORLD.x, -view.offsetX / view.scaleX);
      const east = Math.min(WORLD.x + WORLD.width, (width - view.offsetX) / view.scaleX);
      const north = Math.min(90, -view.offsetY / view.scaleY);
      const south = Math.max(-90, (height - view.offsetY) / view.scaleY);
      bbox = [west, south, east, north];
      zoom = mercatorZoom(view);
      const t0 = performance.now();
      // #region excerpt
      shown = west < east && south < north ? clusterer.getClusters(bbox, zoom) : [];
      // #endregion
      const ms = performance.now() - t0;
      // Screen pixels between clusters at this zoom (at least): the radius on the map's scale.
      const spacing = ((radius / EXTENT) * (view.scaleX / px) * 360) / 2 ** zoom;
      const maxR = Math.max(6, 0.45 * spacing);
      // The biggest first, so that a small cluster beside a big one stays in sight.
      const order = shown
        .map((f) => ({ f, count: f.properties === null ? 1 : f.properties.point_count }))
        .sort((a, b) => b.count - a.count);
      bg.font = `600 ${FONT * px}px system-ui, sans-serif`;
      bg.textAlign = 'center';
      bg.textBaseline = 'middle';
      discs = [];
      labels = [];
      const texts: [string, number, number][] = [];
      let clusters = 0;
      for (const { f, count } of order) {
        const [lon, lat] = f.geometry.coordinates as [number, number];
        const x = lon * view.scaleX + view.offsetX;
        const y = lat * view.scaleY + view.offsetY;
        if (f.properties === null) {
          dot(bg, x, y, COLORS.point, px, 2.5, 1);
          continue;
        }
        clusters++;
        const r = Math.min(maxR, 5 + 1.5 * Math.log2(count));
        bg.globalAlpha = 0.9;
        dot(bg, x, y, COLORS.cluster, px, r, 1.5);
        bg.globalAlpha = 1;
        // The count, if it fits in the disc and clears the counts already placed.
        const text = String(f.properties.point_count_abbreviated);
        const w = bg.measureText(text).width / px;
        const box: [number, number, number, number] = [
          x / px - w / 2,
          y / px - FONT / 2,
          x / px + w / 2,
          y / px + FONT / 2,
        ];
        const fits =
          w + 4 <= 2 * r &&
          labels.every(([l, t, rr, b]) => box[2] < l || rr < box[0] || box[3] < t || b < box[1]);
        if (fits) {
          labels.push(box);
          texts.push([text, x, y]);
        }
        discs.push([x / px, y / px, r, fits ? 1 : 0]);
      }
      bg.fillStyle = COLORS.text;
      for (const [text, x, y] of texts) bg.fillText(text, x, y);
      stats.set('zoom', zoom);
      stats.set('clusters', clusters);
      stats.set('single cities', shown.length - clusters);
      stats.set('getClusters ms', formatMs(ms));
    };

    const scene = mapScene(
      { canvas, ctx, overlay, signal },
      {
        background: renderBackground,
        answer(lon, lat, view) {
          dot(
            ctx,
            lon * view.scaleX + view.offsetX,
            lat * view.scaleY + view.offsetY,
            COLORS.mouse,
            cssScale(canvas),
            3,
            1.5,
          );
        },
      },
      { x: 0, y: 0 },
    );
    const { map } = scene;

    return {
      frame: scene.frame,
      state() {
        return {
          radius,
          zoom,
          bbox: [...bbox],
          clusters: shown.map((f) => [
            ...(f.geometry.coordinates as [number, number]),
            f.properties === null ? 1 : f.properties.point_count,
          ]),
          view: map.view,
          discs,
          labels,
        };
      },
    };
  },
};
