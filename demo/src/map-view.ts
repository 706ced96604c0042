// Maps on the shared canvas. `panZoom` makes any view of a canvas a map: a drag (a mouse, one
// finger) pans, a pinch (two fingers) or the wheel zooms about where it happens, the + and −
// buttons over the canvas zoom about its centre; hovering with a mouse, or a press (a tap),
// queries the point. `worldMap` is one for the scenes in longitude and latitude.

import { fitView, toWorld, type View } from '../../src/canvas.js';
import type { Land } from './cities-data.js';
import { canvasPoint, density } from './scene.js';

/** The world in degrees: longitude -180..180, latitude -90..90. */
export const WORLD = { x: -180, y: -90, width: 360, height: 180 };

/** A map's view and the means to change it. */
export interface MapView {
  /** The current view (world to canvas pixels). */
  readonly view: View;
  /** How far the view is zoomed in from the first one (1 = the whole map). */
  readonly zoom: number;
  /**
   * Zooms by `factor` about the canvas pixel (x, y) (default the centre).
   * @param factor - > 1 zooms in.
   */
  zoomBy(factor: number, x?: number, y?: number): void;
}

/** What a map scene hears from its map. */
export interface MapHandlers {
  /** The mouse moved to, or a press landed on, the world point (x, y). */
  query(x: number, y: number): void;
  /** The view changed (pan, zoom) or the canvas was resized on the page: redraw. */
  redraw(): void;
}

/** Where a map's + and − buttons go, and how deep it zooms. */
export interface PanZoomOptions {
  /** The deepest zoom, in multiples of the first view (default 2000). */
  maxZoom?: number;
  /** A layer over the canvas for the + and − buttons (none: no buttons). */
  overlay?: HTMLElement;
}

/**
 * Makes a map of the canvas from a first view: drag or one finger pans, the wheel, a pinch or
 * the + and − buttons zoom (1x to `maxZoom`x), hovering and a press query.
 * @param canvas - the scene's canvas.
 * @param signal - ends the listeners (and removes the buttons) with the scene.
 * @param base - the first view, also the widest.
 * @param handlers - what to do on a query and on a change of view.
 * @param options - the buttons' layer and the deepest zoom.
 */
export function panZoom(
  canvas: HTMLCanvasElement,
  signal: AbortSignal,
  base: View,
  handlers: MapHandlers,
  options: PanZoomOptions = {},
): MapView {
  const { maxZoom = 2000, overlay } = options;
  let view: View = base;
  const queryAt = (p: { x: number; y: number }): void => {
    const w = toWorld(view, p.x, p.y);
    handlers.query(w.x, w.y);
  };
  // Zooms about (x, y) and pans by (dx, dy), in canvas pixels.
  const move = (factor: number, x: number, y: number, dx = 0, dy = 0): void => {
    const scale = Math.min(maxZoom, Math.max(1, (view.scaleX / base.scaleX) * factor));
    const f = (scale * base.scaleX) / view.scaleX;
    view = {
      scaleX: view.scaleX * f,
      scaleY: view.scaleY * f,
      offsetX: x - (x - view.offsetX) * f + dx,
      offsetY: y - (y - view.offsetY) * f + dy,
    };
    handlers.redraw();
  };
  const zoomBy = (factor: number, x = canvas.width / 2, y = canvas.height / 2): void =>
    move(factor, x, y);

  // The pointers pressed on the canvas (a mouse button, fingers), where they are.
  const down = new Map<number, { x: number; y: number }>();
  // Two fingers: their distance and midpoint.
  const pinch = () => {
    const [a, b] = [...down.values()];
    if (a === undefined || b === undefined) return null;
    return { d: Math.hypot(b.x - a.x, b.y - a.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  };
  let last: { d: number; x: number; y: number } | null = null;
  // Line widths follow the canvas's size on the screen.
  window.addEventListener('resize', () => handlers.redraw(), { signal });
  // A press (a tap, on a touch screen) queries where it lands and starts a drag or a pinch.
  canvas.addEventListener(
    'pointerdown',
    (e) => {
      if (e.pointerType === 'mouse' && e.button !== 0) return;
      const p = canvasPoint(canvas, e);
      down.set(e.pointerId, p);
      try {
        canvas.setPointerCapture(e.pointerId);
      } catch {
        // A pointer the browser does not know (a synthetic event): no capture needed.
      }
      if (down.size === 1) queryAt(p);
      last = pinch();
    },
    { signal },
  );
  const up = (e: PointerEvent): void => {
    down.delete(e.pointerId);
    last = pinch();
  };
  canvas.addEventListener('pointerup', up, { signal });
  canvas.addEventListener('pointercancel', up, { signal });
  window.addEventListener('pointerup', up, { signal });
  canvas.addEventListener(
    'pointermove',
    (e) => {
      const p = canvasPoint(canvas, e);
      const from = down.get(e.pointerId);
      if (from === undefined) {
        // A mouse hovering: the query follows it.
        if (e.pointerType !== 'touch') queryAt(p);
        return;
      }
      down.set(e.pointerId, p);
      if (down.size === 1) {
        // A drag: the map follows, the query stays on the point pressed.
        move(1, 0, 0, p.x - from.x, p.y - from.y);
        queryAt(p);
        return;
      }
      // A pinch: the point that was between the fingers stays between them, at the scale
      // their spread gives.
      const now = pinch();
      if (now !== null && last !== null && last.d > 0) {
        move(now.d / last.d, last.x, last.y, now.x - last.x, now.y - last.y);
      }
      last = now;
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
  if (overlay !== undefined) {
    const zoomButton = (text: string, label: string, factor: number): HTMLButtonElement => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'zoom-btn';
      b.textContent = text;
      b.setAttribute('aria-label', label);
      b.addEventListener('click', () => zoomBy(factor), { signal });
      return b;
    };
    const group = document.createElement('div');
    group.className = 'zoom';
    group.append(zoomButton('+', 'Zoom in', 2), zoomButton('−', 'Zoom out', 0.5));
    overlay.append(group);
    signal.addEventListener('abort', () => group.remove());
  }
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

/**
 * Makes a world map of the canvas (see panZoom): the whole world fitted, y up, the query's
 * latitude clamped to ±90.
 * @param canvas - the scene's canvas.
 * @param signal - ends the listeners with the scene.
 * @param handlers - what to do on a query (lon, lat) and on a change of view.
 * @param options - the buttons' layer and the deepest zoom.
 */
export function worldMap(
  canvas: HTMLCanvasElement,
  signal: AbortSignal,
  handlers: MapHandlers,
  options: PanZoomOptions = {},
): MapView {
  const base = fitView(WORLD, canvas.width, canvas.height, {
    padding: 10 * density(canvas),
    flipY: true,
  });
  return panZoom(
    canvas,
    signal,
    base,
    {
      query: (lon, lat) => handlers.query(lon, Math.min(90, Math.max(-90, lat))),
      redraw: handlers.redraw,
    },
    options,
  );
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
  /** The query point in degrees (the mouse, a press, a tap). */
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
  context: {
    canvas: HTMLCanvasElement;
    ctx: CanvasRenderingContext2D;
    overlay: HTMLElement;
    signal: AbortSignal;
  },
  layers: MapLayers,
  start: { x: number; y: number },
): MapScene {
  const { canvas, ctx, overlay, signal } = context;
  const query = { ...start };
  let dirty = true;
  let backgroundDirty = true;
  const background = document.createElement('canvas');
  background.width = canvas.width;
  background.height = canvas.height;
  const bg = background.getContext('2d')!;
  const map = worldMap(
    canvas,
    signal,
    {
      query(lon, lat) {
        query.x = lon;
        query.y = lat;
        dirty = true;
      },
      redraw() {
        backgroundDirty = true;
      },
    },
    { overlay },
  );
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
