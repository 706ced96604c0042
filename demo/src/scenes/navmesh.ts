// Scene 4, navigation mesh: South Africa (Lesotho a hole), triangulated at build time (delaunator),
// in a TriangleIndex. The triangle under the mouse is highlighted (or, outside the mesh, the
// nearest one and the point of it the mouse would snap to); a ray from a ship off the coast to
// the mouse marks where it first meets the land, and the triangles it crosses.

import { drawIndex, drawTriangles, fitView, toWorld } from '../../../src/canvas.js';
import { type NearestTriangle, type RayHit, TriangleIndex } from '../../../src/index.js';
import { canvasPoint, checkbox, cssScale, density, dot, formatMs, type Scene } from '../scene.js';

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

/** Scene 4: the triangle under the mouse, and a ray cast from a fixed point to the mouse. */
export const navmeshScene: Scene = {
  id: 'navmesh',
  title: 'Navigation mesh',
  blurb:
    'South Africa (Lesotho is a hole) as a Delaunay mesh (delaunator), in a TriangleIndex. The ' +
    'triangle under the mouse is green (locate); outside the mesh, the nearest triangle is ' +
    'orange and the dot is where the mouse would snap to (nearestTriangle). The red ray from ' +
    'the ship to the mouse stops where it first meets the land (raycast); the triangles it ' +
    'crosses are blue (searchSegment).',
  legend: [
    { color: COLORS.edge, label: 'mesh triangle', mark: 'outline' },
    { color: COLORS.located, label: 'under the mouse: locate()', mark: 'fill' },
    { color: COLORS.nearest, label: 'nearest, outside: nearestTriangle()', mark: 'fill' },
    { color: COLORS.crossed, label: 'crossed by the ray: searchSegment()', mark: 'fill' },
    { color: COLORS.ray, label: 'ray to its first hit: raycast()', mark: 'line' },
    { color: COLORS.cell, label: 'index cell', mark: 'outline' },
  ],
  async mount({ canvas, ctx, controls, stats, signal }) {
    const { mesh } = await import('virtual:navmesh');
    const { coords, triangles } = mesh;
    const index = new TriangleIndex(coords, triangles);
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
    const view = fitView(world, width, height, {
      padding: 24 * density(canvas),
      flipY: true,
    });
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
    canvas.addEventListener(
      'pointermove',
      (e) => {
        const p = canvasPoint(canvas, e);
        const w = toWorld(view, p.x, p.y);
        mouse.x = w.x;
        mouse.y = w.y;
        dirty = true;
      },
      { signal },
    );

    return {
      frame() {
        if (!dirty) return;
        dirty = false;
        const t0 = performance.now();
        located = index.locate(mouse.x, mouse.y);
        nearest = located < 0 ? index.nearestTriangle(mouse.x, mouse.y) : null;
        hit = index.raycast(ORIGIN.x, ORIGIN.y, mouse.x, mouse.y);
        crossed = index.searchSegment(ORIGIN.x, ORIGIN.y, mouse.x, mouse.y);
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
        stats.set('under the mouse', located >= 0 ? `triangle ${located}` : 'outside');
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
          view: { ...view },
        };
      },
    };
  },
};
