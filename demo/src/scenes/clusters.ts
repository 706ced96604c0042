// Scene 6, clustering: the 135k cities in a Clusterer (quadkit/cluster, supercluster's greedy
// clustering per Web Mercator zoom), drawn as the clusters of the zoom the map is at and
// re-clustered as it zooms (the wheel or the + and − buttons) or pans: getClusters(bbox, zoom).

import type { View } from '../../../src/canvas.js';
import { Clusterer, type ClusterFeature, type PointFeature } from '../../../src/cluster/index.js';
import { loadCities, loadLand } from '../cities-data.js';
import { drawLand, mapScene, WORLD } from '../map-view.js';
import { button, cssScale, density, dot, formatMs, type Scene } from '../scene.js';

// The clusterer's options: supercluster's defaults (40 px radius on 512-unit tiles of 256 px).
const RADIUS = 40;
const EXTENT = 512;
const MAX_ZOOM = 16;
const COLORS = {
  sea: '#dfe8f1',
  land: '#fbfaf6',
  coast: '#a9b8c8',
  cluster: '#2a9d8f',
  point: '#1e293b',
  text: '#ffffff',
  mouse: '#e11d48',
};

/** Scene 6: the cities clustered for the map's zoom. */
export const clustersScene: Scene = {
  id: 'clusters',
  title: 'Clusters',
  blurb:
    'The 135k cities in a Clusterer (quadkit/cluster), which groups points as supercluster ' +
    'does: greedily, within 40 px at each Web Mercator zoom. The map shows getClusters(bbox, ' +
    'zoom) for its own view and zoom, and re-clusters as you zoom (wheel, or + and −) or pan.',
  legend: [
    { color: COLORS.cluster, label: 'cluster (its size: point_count)', mark: 'dot' },
    { color: COLORS.point, label: 'city on its own', mark: 'dot' },
    { color: COLORS.coast, label: 'coastline (world-atlas)', mark: 'line' },
  ],
  async mount({ canvas, ctx, controls, stats, signal }) {
    const [cities, land] = await Promise.all([loadCities(signal), loadLand(signal)]);
    const n = cities.x.length;
    const points: PointFeature<null>[] = Array.from({ length: n }, (_, i) => ({
      type: 'Feature',
      properties: null,
      geometry: { type: 'Point', coordinates: [cities.x[i]!, cities.y[i]!] },
    }));
    let t0 = performance.now();
    const clusterer = new Clusterer<null>({ radius: RADIUS, extent: EXTENT, maxZoom: MAX_ZOOM });
    clusterer.load(points);
    stats.set('cities', n);
    stats.set('load ms (all zooms)', (performance.now() - t0).toFixed(0));

    const { width, height } = canvas;
    let zoom = 0;
    let bbox: [number, number, number, number] = [-180, -90, 180, 90];
    let shown: Array<PointFeature<null> | ClusterFeature<Record<string, never>>> = [];

    // The map's Web Mercator zoom: its scale in canvas pixels per degree of longitude (at
    // density 1, so that a 2x screen shows the same clusters), against a 256-pixel world tile
    // at zoom 0.
    const mercatorZoom = (view: View) => {
      const scale = view.scaleX / density(canvas);
      return Math.max(0, Math.min(MAX_ZOOM + 1, Math.floor(Math.log2((scale * 360) / 256))));
    };

    // The clusters of the view's box at its zoom, each a disc sized by its count.
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
      t0 = performance.now();
      shown = west < east && south < north ? clusterer.getClusters(bbox, zoom) : [];
      const ms = performance.now() - t0;
      bg.textAlign = 'center';
      bg.textBaseline = 'middle';
      bg.font = `600 ${10 * px}px system-ui, sans-serif`;
      let clusters = 0;
      for (const f of shown) {
        const [lon, lat] = f.geometry.coordinates as [number, number];
        const x = lon * view.scaleX + view.offsetX;
        const y = lat * view.scaleY + view.offsetY;
        const { properties } = f;
        if (properties === null) {
          dot(bg, x, y, COLORS.point, px, 2.5, 1);
          continue;
        }
        clusters++;
        // Smaller than the 20-pixel spacing the clustering keeps, save for the biggest.
        const r = Math.min(16, 5 + 1.5 * Math.log2(properties.point_count));
        bg.globalAlpha = 0.85;
        dot(bg, x, y, COLORS.cluster, px, r, 1.5);
        bg.globalAlpha = 1;
        bg.fillStyle = COLORS.text;
        bg.fillText(String(properties.point_count_abbreviated), x, y);
      }
      stats.set('zoom', zoom);
      stats.set('clusters', clusters);
      stats.set('single cities', shown.length - clusters);
      stats.set('getClusters ms', formatMs(ms));
    };

    const scene = mapScene(
      { canvas, ctx, signal },
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
    button(controls, '+ zoom in', () => map.zoomBy(2));
    button(controls, '− zoom out', () => map.zoomBy(0.5));

    return {
      frame: scene.frame,
      state() {
        return {
          zoom,
          bbox: [...bbox],
          clusters: shown.map((f) => [
            ...(f.geometry.coordinates as [number, number]),
            f.properties === null ? 1 : f.properties.point_count,
          ]),
          view: map.view,
        };
      },
    };
  },
};
