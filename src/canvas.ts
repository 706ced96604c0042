// quadkit/canvas: draws any index's nodes (through visit) and items on a 2D canvas context. It
// needs nothing from the DOM but the methods of CanvasRenderingContext2D it calls, so it also
// runs (and is tested) in Node with a fake context.

import type { PointLike, Rect, RectLike, VisitCallback } from './types.js';
import { checkOptions } from './validate.js';

// The keys each options object takes; any other throws an UnknownOptionError listing these.
const FIT_OPTIONS = ['padding', 'flipY'] as const;
const INDEX_STYLE = [
  'colors',
  'lineWidth',
  'alpha',
  'maxDepth',
  'minSize',
] as const satisfies readonly (keyof IndexStyle)[];
const ITEM_STYLE = [
  'fill',
  'stroke',
  'lineWidth',
  'alpha',
  'pointSize',
] as const satisfies readonly (keyof CanvasStyle)[];

/**
 * The part of `CanvasRenderingContext2D` the renderer uses. A real context satisfies it; so does
 * any object with these members (a recorder in tests, an SVG or PDF writer).
 */
export interface Canvas2D {
  /** Set to a CSS colour before filling. */
  fillStyle: unknown;
  /** Set to a CSS colour before stroking. */
  strokeStyle: unknown;
  /** Stroke width in canvas pixels. */
  lineWidth: number;
  /** Opacity from 0 to 1. */
  globalAlpha: number;
  /** Saves the drawing state (styles). */
  save(): void;
  /** Restores the state saved by the matching `save`. */
  restore(): void;
  /** Starts a new path. */
  beginPath(): void;
  /** Adds a rectangle to the path. */
  rect(x: number, y: number, width: number, height: number): void;
  /** Starts a sub-path at a point. */
  moveTo(x: number, y: number): void;
  /** Adds a straight line to the path. */
  lineTo(x: number, y: number): void;
  /** Closes the current sub-path. */
  closePath(): void;
  /** Fills the path. */
  fill(): void;
  /** Strokes the path. */
  stroke(): void;
}

/**
 * Where the world appears on the canvas: a world point (x, y) is drawn at
 * (x * scaleX + offsetX, y * scaleY + offsetY). A negative `scaleY` puts north up on a map.
 */
export interface View {
  /** Canvas pixels per world unit along x. */
  scaleX: number;
  /** Canvas pixels per world unit along y (negative for north up). */
  scaleY: number;
  /** The canvas x at which world x = 0 is drawn. */
  offsetX: number;
  /** The canvas y at which world y = 0 is drawn. */
  offsetY: number;
}

/** How items are drawn. Missing fields draw nothing of that kind (no fill, no stroke). */
export interface CanvasStyle {
  /** Fill colour (CSS). */
  fill?: string | undefined;
  /** Outline colour (CSS). */
  stroke?: string | undefined;
  /** Outline width in canvas pixels (default 1). */
  lineWidth?: number | undefined;
  /** Opacity from 0 to 1 (default 1). */
  alpha?: number | undefined;
  /** Side in canvas pixels of the square drawn for a point (default 3). */
  pointSize?: number | undefined;
}

/** How the nodes of an index are drawn. */
export interface IndexStyle {
  /** Outline colours by depth: a node of depth d gets `colors[d % colors.length]`. */
  colors?: readonly string[] | undefined;
  /** Outline width in canvas pixels (default 1). */
  lineWidth?: number | undefined;
  /** Opacity from 0 to 1 (default 1). */
  alpha?: number | undefined;
  /** Nodes deeper than this are not drawn, nor walked (default: all). */
  maxDepth?: number | undefined;
  /**
   * Nodes narrower and shorter than this many canvas pixels are not drawn, nor their children
   * walked (default 0: all), so that a tree with more cells than pixels does not paint a solid
   * mesh.
   */
  minSize?: number | undefined;
}

/** Anything with quadkit's `visit`: every index of the library. */
export interface Visitable {
  /** Calls back for each node, parents first; `true` skips the children. */
  visit(callback: VisitCallback): void;
}

/** The view that draws world coordinates as canvas pixels. */
export const IDENTITY_VIEW: Readonly<View> = { scaleX: 1, scaleY: 1, offsetX: 0, offsetY: 0 };

/** The default node colours by depth: from dark blue at the root to light teal at depth 7. */
export const DEPTH_COLORS: readonly string[] = [
  '#1d3557',
  '#2b4c7e',
  '#35618f',
  '#3f7ea6',
  '#4a98b5',
  '#57b0bf',
  '#6cc4c4',
  '#8fd6c8',
];

/**
 * The view that shows the rectangle `world` as large as it fits in a canvas of `width` by
 * `height` pixels, centred, with its aspect ratio kept.
 * @param world - the area to show.
 * @param width - canvas width in pixels.
 * @param height - canvas height in pixels.
 * @param options - `padding` (pixels left free on each side, default 0); `flipY` (draw larger y
 * higher up, as on a map of latitudes; default false). Another key throws an UnknownOptionError.
 */
export function fitView(
  world: Rect,
  width: number,
  height: number,
  options: { padding?: number; flipY?: boolean } = {},
): View {
  const { padding = 0, flipY = false } = checkOptions(options, 'fitView', FIT_OPTIONS, true);
  const scale = Math.min(
    (width - 2 * padding) / (world.width || 1),
    (height - 2 * padding) / (world.height || 1),
  );
  const offsetX = (width - world.width * scale) / 2 - world.x * scale;
  if (flipY) {
    return {
      scaleX: scale,
      scaleY: -scale,
      offsetX,
      offsetY: (height + world.height * scale) / 2 + world.y * scale,
    };
  }
  return {
    scaleX: scale,
    scaleY: scale,
    offsetX,
    offsetY: (height - world.height * scale) / 2 - world.y * scale,
  };
}

/**
 * The world point drawn at canvas pixel (cx, cy): the inverse of `view` (for the mouse).
 * @param view - the view the canvas is drawn with.
 * @param cx - canvas x in pixels.
 * @param cy - canvas y in pixels.
 */
export function toWorld(
  view: View,
  cx: number,
  cy: number,
): {
  /** The world x. */
  x: number;
  /** The world y. */
  y: number;
} {
  return { x: (cx - view.offsetX) / view.scaleX, y: (cy - view.offsetY) / view.scaleY };
}

// Node rectangles of one drawIndex call, grouped by depth (reused between calls).
let byDepth: number[][] = [];

/**
 * Draws the nodes of an index as rectangle outlines, coloured by depth, through its `visit`.
 * @param ctx - the canvas context.
 * @param index - any quadkit index (anything with `visit`).
 * @param style - colours by depth, line width, opacity, deepest level and smallest node drawn.
 * @param view - world to canvas transform (default: identity).
 * @returns the number of nodes drawn.
 */
export function drawIndex(
  ctx: Canvas2D,
  index: Visitable,
  style: IndexStyle = {},
  view: View = IDENTITY_VIEW,
): number {
  const {
    colors = DEPTH_COLORS,
    lineWidth = 1,
    alpha = 1,
    maxDepth = Infinity,
    minSize = 0,
  } = checkOptions(style, 'drawIndex style', INDEX_STYLE, true);
  const { scaleX, scaleY, offsetX, offsetY } = view;
  const sizeX = Math.abs(scaleX);
  const sizeY = Math.abs(scaleY);
  // One pass over the tree: each node's canvas rectangle goes to the list of its colour.
  const groups = Math.max(1, colors.length);
  if (byDepth.length !== groups) byDepth = Array.from({ length: groups }, () => []);
  let count = 0;
  index.visit((node) => {
    if (node.depth > maxDepth) return true;
    // A node smaller than minSize: its children are smaller still.
    if (node.width * sizeX < minSize && node.height * sizeY < minSize) return true;
    const list = byDepth[node.depth % groups]!;
    list.push(
      node.x * scaleX + offsetX,
      node.y * scaleY + offsetY,
      node.width * scaleX,
      node.height * scaleY,
    );
    count++;
    return node.depth === maxDepth;
  });
  // Then one path per colour.
  ctx.save();
  ctx.lineWidth = lineWidth;
  ctx.globalAlpha = alpha;
  for (let g = 0; g < groups; g++) {
    const list = byDepth[g]!;
    if (list.length === 0) continue;
    ctx.strokeStyle = colors[g] ?? DEPTH_COLORS[0];
    ctx.beginPath();
    for (let i = 0; i < list.length; i += 4)
      ctx.rect(list[i]!, list[i + 1]!, list[i + 2]!, list[i + 3]!);
    ctx.stroke();
    list.length = 0;
  }
  ctx.restore();
  return count;
}

/**
 * Draws items as rectangles, all in one path: filled, then outlined, as the style says.
 * @param ctx - the canvas context.
 * @param items - the items (an array, or any array-like such as a list of ids).
 * @param toRect - reads an item's bounds; `undefined` for items that are `{ x, y, width?, height? }`
 * themselves (`width`/`height` 0 if absent). Other items need it, or the call does not compile.
 * @param style - fill, stroke, line width, opacity.
 * @param view - world to canvas transform (default: identity).
 */
export function drawRects<T>(
  ctx: Canvas2D,
  items: ArrayLike<T>,
  toRect: T extends RectLike ? ((item: T) => RectLike) | undefined : (item: T) => RectLike,
  style: CanvasStyle,
  view: View = IDENTITY_VIEW,
): void {
  const { scaleX, scaleY, offsetX, offsetY } = view;
  ctx.beginPath();
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as T;
    const r = toRect === undefined ? (item as RectLike) : toRect(item);
    ctx.rect(
      r.x * scaleX + offsetX,
      r.y * scaleY + offsetY,
      (r.width ?? 0) * scaleX,
      (r.height ?? 0) * scaleY,
    );
  }
  paint(ctx, style);
}

/**
 * Draws items as points: a small square of `style.pointSize` pixels centred on each.
 * @param ctx - the canvas context.
 * @param items - the items (an array, or any array-like).
 * @param toPoint - reads an item's position; `undefined` for items that are `{ x, y }` themselves.
 * Other items need it, or the call does not compile.
 * @param style - fill, stroke, point size, opacity.
 * @param view - world to canvas transform (default: identity).
 */
export function drawPoints<T>(
  ctx: Canvas2D,
  items: ArrayLike<T>,
  toPoint: T extends PointLike ? ((item: T) => PointLike) | undefined : (item: T) => PointLike,
  style: CanvasStyle,
  view: View = IDENTITY_VIEW,
): void {
  const { scaleX, scaleY, offsetX, offsetY } = view;
  const size = style.pointSize ?? 3;
  const half = size / 2;
  ctx.beginPath();
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as T;
    const p = toPoint === undefined ? (item as PointLike) : toPoint(item);
    ctx.rect(p.x * scaleX + offsetX - half, p.y * scaleY + offsetY - half, size, size);
  }
  paint(ctx, style);
}

/**
 * Draws triangles of a mesh given as flat arrays (the format of delaunator and earcut).
 * @param ctx - the canvas context.
 * @param coords - vertex coordinates `[x0, y0, x1, y1, ...]`.
 * @param triangles - vertex indices, three per triangle.
 * @param which - the triangle indices to draw (default: all).
 * @param style - fill, stroke, line width, opacity.
 * @param view - world to canvas transform (default: identity).
 */
export function drawTriangles(
  ctx: Canvas2D,
  coords: ArrayLike<number>,
  triangles: ArrayLike<number>,
  which: ArrayLike<number> | null,
  style: CanvasStyle,
  view: View = IDENTITY_VIEW,
): void {
  const { scaleX, scaleY, offsetX, offsetY } = view;
  const n = which === null ? triangles.length / 3 : which.length;
  ctx.beginPath();
  for (let i = 0; i < n; i++) {
    const t = which === null ? i : which[i]!;
    for (let k = 0; k < 3; k++) {
      const v = triangles[3 * t + k]!;
      const x = coords[2 * v]! * scaleX + offsetX;
      const y = coords[2 * v + 1]! * scaleY + offsetY;
      if (k === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.closePath();
  }
  paint(ctx, style);
}

// Fills and strokes the current path as the style says, leaving the context's state unchanged.
function paint(ctx: Canvas2D, style: CanvasStyle): void {
  checkOptions(style, 'canvas style', ITEM_STYLE, false);
  ctx.save();
  ctx.globalAlpha = style.alpha ?? 1;
  if (style.fill !== undefined) {
    ctx.fillStyle = style.fill;
    ctx.fill();
  }
  if (style.stroke !== undefined) {
    ctx.strokeStyle = style.stroke;
    ctx.lineWidth = style.lineWidth ?? 1;
    ctx.stroke();
  }
  ctx.restore();
}
