// What a scene is, and what the shell gives it: the canvas, a panel for its controls, the stats
// list, and a signal that ends its listeners when another tab is opened.

/** The stats panel: one named value per line. */
export interface Stats {
  /** Shows `value` on the line `name` (created on first use). */
  set(name: string, value: string | number): void;
}

/** What the shell hands a scene when its tab opens. */
export interface SceneContext {
  /**
   * The drawing surface: 3:2, its backing store 960 × 640 pixels, or more on a screen of higher
   * pixel density (up to 1920 × 1280; see `density`). Scenes fit their views to its size and
   * size lines and dots with `cssScale`.
   */
  canvas: HTMLCanvasElement;
  /** Its 2D context. */
  ctx: CanvasRenderingContext2D;
  /** An empty panel for the scene's buttons and sliders. */
  controls: HTMLElement;
  /** An empty list beside the canvas (the scene may fill it). */
  list: HTMLOListElement;
  /** The stats panel. */
  stats: Stats;
  /** An empty layer over the canvas's top right corner, for buttons on the drawing (zoom). */
  overlay: HTMLElement;
  /** Aborted when the scene closes: pass it to addEventListener. */
  signal: AbortSignal;
}

/** A running scene. */
export interface SceneInstance {
  /**
   * Called on every animation frame.
   * @param dt - seconds since the previous frame (at most 1/20).
   */
  frame(dt: number): void;
  /** What the scene shows, for tests: plain data (items, the query, the highlighted hits). */
  state(): unknown;
}

/**
 * How a legend entry shows its colour: a filled box, an outlined box, a line, a ring, a dot, or
 * a ramp (a gradient of the CSS colours in `color`, comma-separated).
 */
export type LegendMark = 'fill' | 'outline' | 'line' | 'dash' | 'ring' | 'dot' | 'ramp';

/** One line of a scene's legend, drawn over its canvas: what a colour means. */
export interface LegendEntry {
  /** The colour (CSS). */
  color: string;
  /** What it shows. */
  label: string;
  /** How it is drawn on the canvas. */
  mark: LegendMark;
}

/** A tab of the demo. */
export interface Scene {
  /** Short id, used in the URL hash. */
  id: string;
  /** Tab title. */
  title: string;
  /** One or two sentences beside the canvas. */
  blurb: string;
  /** What the colours on the canvas mean. */
  legend: readonly LegendEntry[];
  /** The corner of the canvas the legend covers (default: top left). */
  legendCorner?: 'top-left' | 'bottom-left';
  /** Opens the scene. */
  mount(context: SceneContext): SceneInstance | Promise<SceneInstance>;
}

/**
 * Whether the page is used by touch (a phone, a tablet): no hover, a coarse pointer. Texts that
 * name a gesture read `say(mouse, touch)`.
 */
export const TOUCH =
  typeof matchMedia === 'function' && matchMedia('(hover: none) and (pointer: coarse)').matches;

/**
 * The words for this device: `mouse` where there is a mouse, `touch` on a touch screen.
 * @param mouse - e.g. "Hover the map".
 * @param touch - e.g. "Tap the map".
 */
export function say(mouse: string, touch: string): string {
  return TOUCH ? touch : mouse;
}

/** The size of the canvas's backing store at a pixel density of 1 (3:2). */
export const BASE_WIDTH = 960;
export const BASE_HEIGHT = 640;
/** The most backing-store pixels per pixel of `BASE_WIDTH`. */
const MAX_DENSITY = 2;

/**
 * The backing store's width for a canvas laid out `cssWidth` pixels wide on a screen of
 * `devicePixelRatio`: one pixel per device pixel, at least `BASE_WIDTH` and at most twice it
 * (a 960-pixel store on a 2x screen is drawn blurred, two screen pixels per canvas pixel).
 * @param cssWidth - the canvas's width on the page, in CSS pixels.
 * @param devicePixelRatio - device pixels per CSS pixel.
 */
export function backingWidth(cssWidth: number, devicePixelRatio: number): number {
  const device = Math.round(cssWidth * (devicePixelRatio > 0 ? devicePixelRatio : 1));
  return Math.min(MAX_DENSITY * BASE_WIDTH, Math.max(BASE_WIDTH, device));
}

/**
 * Backing-store pixels per pixel of `BASE_WIDTH` (1 on most screens, 2 on a 2x one): for sizes
 * tied to the drawing rather than to the screen, such as a map's zoom level.
 * @param canvas - the canvas.
 */
export function density(canvas: HTMLCanvasElement): number {
  return canvas.width / BASE_WIDTH;
}

/**
 * The canvas pixel under a mouse event (the canvas may be scaled by CSS).
 * @param canvas - the canvas.
 * @param event - a mouse or pointer event.
 */
export function canvasPoint(
  canvas: HTMLCanvasElement,
  event: MouseEvent,
): { x: number; y: number } {
  const box = canvas.getBoundingClientRect();
  return {
    x: ((event.clientX - box.left) * canvas.width) / box.width,
    y: ((event.clientY - box.top) * canvas.height) / box.height,
  };
}

/**
 * Canvas pixels per CSS pixel of the canvas as laid out (the page scales the backing store to
 * its column): a length of `n` screen pixels is `n * cssScale(canvas)` on it.
 * @param canvas - the canvas.
 */
export function cssScale(canvas: HTMLCanvasElement): number {
  return canvas.clientWidth > 0 ? canvas.width / canvas.clientWidth : 1;
}

/**
 * Adds a labelled range slider to a panel.
 * @param parent - the panel.
 * @param label - text before the slider.
 * @param options - `min`, `max`, `step`, `value`, and `id` (for tests and styles).
 * @param onInput - called with the new value as the slider moves.
 */
export function slider(
  parent: HTMLElement,
  label: string,
  options: { id: string; min: number; max: number; step: number; value: number },
  onInput: (value: number) => void,
): HTMLInputElement {
  const wrap = document.createElement('label');
  wrap.className = 'slider';
  const name = document.createElement('span');
  name.textContent = label;
  const input = document.createElement('input');
  const output = document.createElement('output');
  input.type = 'range';
  input.id = options.id;
  input.min = String(options.min);
  input.max = String(options.max);
  input.step = String(options.step);
  input.value = String(options.value);
  output.textContent = Number(input.value).toLocaleString('en');
  input.addEventListener('input', () => {
    output.textContent = Number(input.value).toLocaleString('en');
    onInput(Number(input.value));
  });
  wrap.append(name, output, input);
  parent.append(wrap);
  return input;
}

/**
 * Adds a button to a panel.
 * @param parent - the panel.
 * @param text - its label.
 * @param onClick - called on click.
 */
export function button(parent: HTMLElement, text: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'btn';
  b.textContent = text;
  b.addEventListener('click', onClick);
  parent.append(b);
  return b;
}

/**
 * Adds a group of radio buttons to a panel, shown as a segmented control.
 * @param parent - the panel.
 * @param name - the group's name (also its caption).
 * @param choices - `[value, label]` pairs; the first is selected.
 * @param onChange - called with the chosen value.
 */
export function radios(
  parent: HTMLElement,
  name: string,
  choices: readonly (readonly [string, string])[],
  onChange: (value: string) => void,
): void {
  const group = document.createElement('fieldset');
  group.className = 'choices';
  const legend = document.createElement('legend');
  legend.textContent = name;
  group.append(legend);
  for (const [i, [value, text]] of choices.entries()) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = name;
    input.value = value;
    input.checked = i === 0;
    input.addEventListener('change', () => onChange(value));
    label.append(input, text);
    group.append(label);
  }
  parent.append(group);
}

/**
 * Adds a checkbox to a panel, shown as a switch.
 * @param parent - the panel.
 * @param text - its label.
 * @param checked - initial state.
 * @param onChange - called with the new state.
 */
export function checkbox(
  parent: HTMLElement,
  text: string,
  checked: boolean,
  onChange: (checked: boolean) => void,
): void {
  const label = document.createElement('label');
  label.className = 'switch';
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.checked = checked;
  input.addEventListener('change', () => onChange(input.checked));
  label.append(input, text);
  parent.append(label);
}

/** A small seeded PRNG (mulberry32), so every visit of a scene starts the same. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the page exposes as `window.__quadkit`, for the end-to-end test and the curious. */
export interface DemoHandle {
  /** Id of the open scene. */
  scene: string;
  /** True once the open scene has mounted and drawn its first frame. */
  ready: boolean;
  /** Animation frames drawn since the scene opened. */
  frames: number;
  /** The open scene's state (see each scene). */
  state(): unknown;
}

declare global {
  interface Window {
    __quadkit?: DemoHandle;
  }
}

/**
 * A duration for the stats panel. Browsers round `performance.now()` (to 0.1 ms in Chromium
 * without cross-origin isolation), so shorter times show as "< 0.1".
 * @param ms - milliseconds.
 * @param digits - decimals shown (default 2).
 */
export function formatMs(ms: number, digits = 2): string {
  return ms < 0.1 ? '< 0.1' : ms.toFixed(digits);
}

/**
 * Draws a round marker (the mouse, a point of interest) with a white outline.
 * @param ctx - the canvas context.
 * @param x - its centre on the canvas; `y` likewise.
 * @param color - its fill.
 * @param scale - canvas pixels per screen pixel (see cssScale).
 * @param radius - in screen pixels (default 4.5).
 * @param outline - the white outline's width in screen pixels (default 1.5).
 */
export function dot(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  color: string,
  scale: number,
  radius = 4.5,
  outline = 1.5,
): void {
  ctx.save();
  ctx.fillStyle = color;
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = outline * scale;
  ctx.beginPath();
  ctx.arc(x, y, radius * scale, 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
  ctx.restore();
}
