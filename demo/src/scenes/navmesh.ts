// Scene 4, navigation mesh: South Africa (Lesotho a hole), triangulated at build time (delaunator),
// in a TriangleIndex. The triangle under the mouse or a tap is highlighted (or, outside the
// mesh, the nearest one and the point of it the query would snap to); a ray from a ship off the
// coast to that point marks where it first meets the land, and the triangles it crosses. The
// map pans and zooms as the world maps do (../map-view.ts).

import { drawIndex, drawTriangles, fitView, type View } from '../../../src/canvas.js';
import { type NearestTriangle, type RayHit, TriangleIndex } from '../../../src/index.js';
import { panZoom } from '../map-view.js';
import { checkbox, cssScale, density, dot, formatMs, type Scene, say } from '../scene.js';

// The ship: in the Indian Ocean, south-east of the coast.
const ORIGIN = { x: 31.5, y: -33.2 };
const COLORS = {
  sea: '#dbe9f6',
  land: '#f3efe6',
  edge: '#c8bfae',
  located: '#2a9d8f',
  nearest: '#f4a261',
  crossed: '#a8dadc',
  ray: '#e63946',
  cell: '#6c7a89',
  ship: '#1d3557',
};

/** Scene 4: the triangle under the query point, and a ray cast from a fixed point to it. */
export const navmeshScene: Scene = {
  id: 'navmesh',
  title: 'Navigation mesh',
  blurb:
    'South Africa (Lesotho is a hole) as a Delaunay mesh (delaunator), in a TriangleIndex. The ' +
    `triangle ${say('under the mouse', 'you tap')} is green (locate); outside the mesh, the ` +
    'nearest triangle is orange and the dot is where the point would snap to ' +
    `(nearestTriangle). The red ray from the ship to ${say('the mouse', 'the point')} stops ` +
    'where it first meets the land (raycast); the triangles it crosses are blue ' +
    `(searchSegment). ${say('Scroll or + and − to zoom', 'Pinch or + and − to zoom')}, drag to pan.`,
  legend: [
    { color: COLORS.edge, label: 'mesh triangle', mark: 'outline' },
    { color: COLORS.located, label: `${say('under the mouse', 'tapped')}: locate()`, mark: 'fill' },
    { color: COLORS.nearest, label: 'nearest, outside: nearestTriangle()', mark: 'fill' },
    { color: COLORS.crossed, label: 'crossed by the ray: searchSegment()', mark: 'fill' },
    { color: COLORS.ray, label: 'ray to its first hit: raycast()', mark: 'line' },
    { color: COLORS.cell, label: 'index cell', mark: 'outline' },
  ],
  async mount({ canvas, ctx, controls, stats, overlay, signal }) {
    const { mesh } = await import('virtual:navmesh');
    const { coords, triangles } = mesh;
    // #region excerpt
    const index = new TriangleIndex(coords, triangles);
    // #endregion
    const { width, height } = canvas;
    // The view: the mesh's extent and the ship.
    let minX = ORIGIN.x;
    let minY = ORIGIN.y;
    let maxX = ORIGIN.x;
    let maxY = ORIGIN.y;
    for (let i = 0; i < coords.length; i += 2) {
      minX = Math.min(minX, coords[i]!);
      maxX = Math.max(maxX, coords[i]!);
      minY = Math.min(minY, coords[i + 1]!);
      maxY = Math.max(maxY, coords[i + 1]!);
    }
    const world = { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
    const base = fitView(world, width, height, {
      padding: 24 * density(canvas),
      flipY: true,
    });
    let view: View = base;
    const px = (x: number, y: number): [number, number] => [
      x * view.scaleX + view.offsetX,
      y * view.scaleY + view.offsetY,
    ];

    const mouse = { x: 25, y: -29 };
    let located = -1;
    let nearest: NearestTriangle | null = null;
    let hit: RayHit<number> | null = null;
    let crossed: number[] = [];
    let showIndex = true;
    let dirty = true;

    checkbox(controls, 'show the index cells', true, (on) => {
      showIndex = on;
      dirty = true;
    });
    // The mouse, a press or a tap moves the query; a drag pans, the wheel or a pinch zooms.
    const map = panZoom(
      canvas,
      signal,
      base,
      {
        query(x, y) {
          mouse.x = x;
          mouse.y = y;
          dirty = true;
        },
        redraw() {
          dirty = true;
        },
      },
      { maxZoom: 64, overlay },
    );

    return {
      frame() {
        if (!dirty) return;
        dirty = false;
        view = map.view;
        const { x, y } = mouse;
        const t0 = performance.now();
        // #region excerpt
        located = index.locate(x, y);
        nearest = located < 0 ? index.nearestTriangle(x, y) : null;
        hit = index.raycast(ORIGIN.x, ORIGIN.y, x, y);
        crossed = index.searchSegment(ORIGIN.x, ORIGIN.y, x, y);
        // #endregion
        const ms = performance.now() - t0;

        // Lines and dots keep their size on the screen, whatever the canvas's scale.
        const s = cssScale(canvas);
        ctx.fillStyle = COLORS.sea;
        ctx.fillRect(0, 0, width, height);
        drawTriangles(
          ctx,
          coords,
          triangles,
          null,
          { fill: COLORS.land, stroke: COLORS.edge, lineWidth: s },
          view,
        );
        if (showIndex) {
          drawIndex(
            ctx,
            index,
            { colors: [COLORS.cell, '#8895a7'], alpha: 0.35, lineWidth: s },
            view,
          );
        }
        drawTriangles(ctx, coords, triangles, crossed, { fill: COLORS.crossed, alpha: 0.8 }, view);
        if (located >= 0) {
          drawTriangles(
            ctx,
            coords,
            triangles,
            [located],
            { fill: COLORS.located, stroke: '#1d6f65' },
            view,
          );
        }
        ctx.save();
        if (nearest !== null) {
          drawTriangles(ctx, coords, triangles, [nearest.triangle], { fill: COLORS.nearest }, view);
          ctx.strokeStyle = COLORS.nearest;
          ctx.lineWidth = s;
          ctx.setLineDash([4 * s, 3 * s]);
          ctx.beginPath();
          ctx.moveTo(...px(mouse.x, mouse.y));
          ctx.lineTo(...px(nearest.x, nearest.y));
          ctx.stroke();
          ctx.setLineDash([]);
          dot(ctx, ...px(nearest.x, nearest.y), '#b5651d', s);
        }
        // The ray, solid up to its first hit, faint beyond.
        const length = Math.hypot(mouse.x - ORIGIN.x, mouse.y - ORIGIN.y);
        const f = hit === null || length === 0 ? 1 : hit.distance / length;
        const stop = {
          x: ORIGIN.x + (mouse.x - ORIGIN.x) * f,
          y: ORIGIN.y + (mouse.y - ORIGIN.y) * f,
        };
        ctx.lineWidth = 2 * s;
        ctx.strokeStyle = COLORS.ray;
        ctx.beginPath();
        ctx.moveTo(...px(ORIGIN.x, ORIGIN.y));
        ctx.lineTo(...px(stop.x, stop.y));
        ctx.stroke();
        ctx.globalAlpha = 0.35;
        ctx.beginPath();
        ctx.moveTo(...px(stop.x, stop.y));
        ctx.lineTo(...px(mouse.x, mouse.y));
        ctx.stroke();
        ctx.restore();
        dot(ctx, ...px(ORIGIN.x, ORIGIN.y), COLORS.ship, s);
        if (hit !== null) dot(ctx, ...px(stop.x, stop.y), COLORS.ray, s);

        stats.set('triangles', index.size);
        stats.set('vertices', coords.length / 2);
        stats.set('located', located >= 0 ? `triangle ${located}` : 'outside');
        stats.set(
          'nearest',
          nearest === null ? '–' : `triangle ${nearest.triangle}, ${nearest.distance.toFixed(3)}°`,
        );
        stats.set(
          'ray hits',
          hit === null ? 'nothing' : `triangle ${hit.item} at ${hit.distance.toFixed(3)}°`,
        );
        stats.set('triangles crossed', crossed.length);
        stats.set('queries ms', formatMs(ms));
      },
      state() {
        return {
          coords,
          triangles,
          origin: { ...ORIGIN },
          mouse: { ...mouse },
          located,
          nearest,
          hit,
          crossed: [...crossed].sort((a, b) => a - b),
          view: { ...map.view },
        };
      },
    };
  },
};
