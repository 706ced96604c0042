// A world map on the shared canvas, for the scenes in longitude and latitude: drag pans, the
// wheel (or `zoom`) zooms about a point, the mouse and a press (a tap) query where they are.

import { fitView, toWorld, type View } from '../../src/canvas.js';
import type { Land } from './cities-data.js';
import { canvasPoint, density } from './scene.js';

/** The world in degrees: longitude -180..180, latitude -90..90. */
export const WORLD = { x: -180, y: -90, width: 360, height: 180 };

/** A map's view and the means to change it. */
export interface MapView {
  /** The current view (degrees to canvas pixels, y up). */
  readonly view: View;
  /** How far the view is zoomed in from the whole world (1 = the whole world). */
  readonly zoom: number;
  /**
   * Zooms by `factor` about the canvas pixel (x, y) (default the centre).
   * @param factor - > 1 zooms in.
   */
  zoomBy(factor: number, x?: number, y?: number): void;
}

/** What a map scene hears from its map. */
export interface MapHandlers {
  /** The mouse moved to, or a press landed on, (lon, lat) (latitude clamped to ±90). */
  query(lon: number, lat: number): void;
  /** The view changed (pan, zoom) or the canvas was resized on the page: redraw. */
  redraw(): void;
}

/**
 * Makes a world map of the canvas: the whole world fitted, drag to pan, wheel to zoom (1x to
 * `maxZoom`x), queries on hover and press.
 * @param canvas - the scene's canvas.
 * @param signal - ends the listeners with the scene.
 * @param handlers - what to do on a query and on a change of view.
 * @param maxZoom - the deepest zoom (default 2000).
 */
export function worldMap(
  canvas: HTMLCanvasElement,
  signal: AbortSignal,
  handlers: MapHandlers,
  maxZoom = 2000,
): MapView {
  const { width, height } = canvas;
  const base = fitView(WORLD, width, height, {
    padding: 10 * density(canvas),
    flipY: true,
  });
  let view: View = base;
  let drag: { x: number; y: number } | null = null;
  const queryAt = (p: { x: number; y: number }): void => {
    const w = toWorld(view, p.x, p.y);
    handlers.query(w.x, Math.min(90, Math.max(-90, w.y)));
  };
  const zoomBy = (factor: number, x = width / 2, y = height / 2): void => {
    const scale = Math.min(maxZoom, Math.max(1, (view.scaleX / base.scaleX) * factor));
    const f = (scale * base.scaleX) / view.scaleX;
    view = {
      scaleX: view.scaleX * f,
      scaleY: view.scaleY * f,
      offsetX: x - (x - view.offsetX) * f,
      offsetY: y - (y - view.offsetY) * f,
    };
    handlers.redraw();
  };
  // Line widths follow the canvas's size on the screen.
  window.addEventListener('resize', () => handlers.redraw(), { signal });
  // A press (a tap, on a touch screen) queries where it lands and starts a drag.
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
        handlers.redraw();
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
      zoomBy(e.deltaY < 0 ? 1.25 : 1 / 1.25, p.x, p.y);
    },
    { signal, passive: false },
  );
  return {
    get view() {
      return view;
    },
    get zoom() {
      return view.scaleX / base.scaleX;
    },
    zoomBy,
  };
}

/** What a map scene draws: the layers that follow the view, then the query's answer. */
export interface MapLayers {
  /** Draws what changes only with the view (cached until the view changes). */
  background(bg: CanvasRenderingContext2D, view: View): void;
  /** Answers the query at (lon, lat) and draws it over the background on `ctx`. */
  answer(lon: number, lat: number, view: View): void;
}

/** A world map that redraws itself: the map, the query point, and `frame` for the loop. */
export interface MapScene {
  readonly map: MapView;
  /** The query point in degrees (the mouse, a press). */
  readonly query: { x: number; y: number };
  /**
   * Asks for a redraw on the next frame.
   * @param background - also redraw the cached background (default false).
   */
  invalidate(background?: boolean): void;
  /** Redraws what changed: call on every animation frame. */
  frame(): void;
}

/**
 * A world map scene on the canvas: a cached background redrawn when the view changes, the
 * query's answer when the query moves or `invalidate` is called.
 * @param context - the scene's canvas, its 2D context and its signal.
 * @param layers - what to draw.
 * @param start - the first query point, until the mouse moves.
 */
export function mapScene(
  context: { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D; signal: AbortSignal },
  layers: MapLayers,
  start: { x: number; y: number },
): MapScene {
  const { canvas, ctx, signal } = context;
  const query = { ...start };
  let dirty = true;
  let backgroundDirty = true;
  const background = document.createElement('canvas');
  background.width = canvas.width;
  background.height = canvas.height;
  const bg = background.getContext('2d')!;
  const map = worldMap(canvas, signal, {
    query(lon, lat) {
      query.x = lon;
      query.y = lat;
      dirty = true;
    },
    redraw() {
      backgroundDirty = true;
    },
  });
  return {
    map,
    query,
    invalidate(all = false) {
      dirty = true;
      backgroundDirty ||= all;
    },
    frame() {
      if (backgroundDirty) {
        layers.background(bg, map.view);
        backgroundDirty = false;
        dirty = true;
      }
      if (!dirty) return;
      dirty = false;
      ctx.drawImage(background, 0, 0);
      layers.answer(query.x, query.y, map.view);
    },
  };
}

/**
 * Draws the land: every ring as one path, filled, its coast stroked.
 * @param ctx - where to draw.
 * @param land - the rings (see cities-data.ts).
 * @param view - degrees to canvas pixels.
 * @param px - canvas pixels per screen pixel: the coast is 1 screen pixel wide.
 * @param colors - `land` (the fill) and `coast` (the stroke).
 */
export function drawLand(
  ctx: CanvasRenderingContext2D,
  land: Land,
  view: View,
  px: number,
  colors: { land: string; coast: string },
): void {
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
  ctx.fillStyle = colors.land;
  ctx.fill('evenodd');
  ctx.strokeStyle = colors.coast;
  ctx.lineWidth = px;
  ctx.stroke();
  ctx.restore();
}
