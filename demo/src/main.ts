// The shell: tabs, the canvas and its legend, the code excerpt, the stats panel and the
// animation loop. Each tab mounts a scene of the registry (./scenes/index.ts); the open scene
// is chosen by the URL hash (#insert, #moving, #cities, ...). The tabs follow the ARIA tablist
// pattern: one of them in the Tab order, the arrow keys, Home and End move between them.

import { excerpts } from 'virtual:excerpts';
import {
  BASE_HEIGHT,
  BASE_WIDTH,
  backingWidth,
  type DemoHandle,
  type LegendEntry,
  type Scene,
  type SceneInstance,
  type Stats,
} from './scene.js';
import { scenes } from './scenes/index.js';

const canvas = document.querySelector<HTMLCanvasElement>('#view')!;
const ctx = canvas.getContext('2d')!;
const tabs = document.querySelector<HTMLElement>('#tabs')!;
const title = document.querySelector<HTMLElement>('#title')!;
const blurb = document.querySelector<HTMLElement>('#blurb')!;
const legend = document.querySelector<HTMLElement>('#legend')!;
const overlay = document.querySelector<HTMLElement>('#overlay')!;
const code = document.querySelector<HTMLElement>('#code code')!;
const controls = document.querySelector<HTMLElement>('#controls')!;
const statsList = document.querySelector<HTMLElement>('#stats')!;
const list = document.querySelector<HTMLOListElement>('#list')!;

const handle: DemoHandle = { scene: '', ready: false, frames: 0, state: () => null };
window.__quadkit = handle;

// The stats panel: a <dt>/<dd> pair per name, the <dd> tagged data-stat for tests.
function makeStats(): Stats {
  const lines = new Map<string, HTMLElement>();
  return {
    set(name, value) {
      let dd = lines.get(name);
      if (dd === undefined) {
        const row = document.createElement('div');
        const dt = document.createElement('dt');
        dt.textContent = name;
        dd = document.createElement('dd');
        dd.dataset.stat = name;
        row.append(dt, dd);
        statsList.append(row);
        lines.set(name, dd);
      }
      const text = typeof value === 'number' ? value.toLocaleString('en') : value;
      if (dd.textContent !== text) dd.textContent = text;
    },
  };
}

// The legend over the canvas: a swatch drawn as the scene draws that colour, and its meaning.
function showLegend(entries: readonly LegendEntry[]): void {
  legend.replaceChildren(
    ...entries.map(({ color, label, mark }) => {
      const li = document.createElement('li');
      const swatch = document.createElement('i');
      swatch.className = `mark-${mark}`;
      swatch.style.setProperty('--c', color);
      if (mark === 'ramp') swatch.style.background = `linear-gradient(to right, ${color})`;
      li.append(swatch, label);
      return li;
    }),
  );
}

let current: { instance: SceneInstance; stats: Stats } | null = null;
let active: AbortController | null = null;
let opening = 0;

async function open(scene: Scene): Promise<void> {
  const ticket = ++opening;
  // Close the previous scene, or stop it loading: its listeners and downloads end.
  active?.abort();
  const abort = new AbortController();
  active = abort;
  current = null;
  handle.scene = scene.id;
  document.querySelector('#scene')!.setAttribute('aria-labelledby', `tab-${scene.id}`);
  handle.ready = false;
  handle.frames = 0;
  handle.state = () => null;
  for (const tab of tabs.children) {
    const selected = (tab as HTMLElement).dataset.scene === scene.id;
    tab.setAttribute('aria-selected', String(selected));
    tab.setAttribute('tabindex', selected ? '0' : '-1');
  }
  title.textContent = scene.title;
  canvas.setAttribute('aria-label', `${scene.title}: ${scene.blurb}`);
  blurb.textContent = scene.blurb;
  showLegend(scene.legend);
  code.textContent = excerpts[scene.id] ?? '';
  overlay.replaceChildren();
  legend.dataset.corner = scene.legendCorner ?? 'top-left';
  controls.replaceChildren();
  statsList.replaceChildren();
  list.replaceChildren();
  // The backing store: a pixel per device pixel of the canvas as laid out now (see
  // backingWidth), chosen as the scene opens; later the page scales it if the layout changes.
  const width = backingWidth(canvas.clientWidth, window.devicePixelRatio);
  if (canvas.width !== width) {
    canvas.width = width;
    canvas.height = Math.round((width * BASE_HEIGHT) / BASE_WIDTH);
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const stats = makeStats();
  let instance: SceneInstance;
  try {
    instance = await scene.mount({
      canvas,
      ctx,
      controls,
      list,
      stats,
      overlay,
      signal: abort.signal,
    });
  } catch (error) {
    // A scene closed while it loaded (its downloads aborted) is no error.
    if (ticket !== opening) return;
    throw error;
  }
  if (ticket !== opening) return;
  current = { instance, stats };
  handle.state = () => instance.state();
}

for (const [i, scene] of scenes.entries()) {
  const tab = document.createElement('button');
  tab.type = 'button';
  tab.id = `tab-${scene.id}`;
  tab.setAttribute('role', 'tab');
  tab.setAttribute('aria-controls', 'scene');
  tab.dataset.scene = scene.id;
  const number = document.createElement('span');
  number.textContent = String(i + 1);
  tab.append(number, scene.title);
  tab.addEventListener('click', () => {
    if (location.hash !== `#${scene.id}`) location.hash = scene.id;
  });
  tabs.append(tab);
}

// The arrow keys move to the previous or next tab (round the ends), Home and End to the first
// and last; the tab moved to opens.
tabs.addEventListener('keydown', (e) => {
  const all = [...tabs.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const at = all.indexOf(document.activeElement as HTMLButtonElement);
  if (at < 0) return;
  const to =
    e.key === 'ArrowRight'
      ? (at + 1) % all.length
      : e.key === 'ArrowLeft'
        ? (at - 1 + all.length) % all.length
        : e.key === 'Home'
          ? 0
          : e.key === 'End'
            ? all.length - 1
            : -1;
  if (to < 0) return;
  e.preventDefault();
  all[to]!.focus();
  all[to]!.click();
});

function fromHash(): Scene {
  return scenes.find((s) => `#${s.id}` === location.hash) ?? scenes[0]!;
}

window.addEventListener('hashchange', () => void open(fromHash()));

// The loop: the open scene's frame, then FPS over the last second.
let last = performance.now();
let fpsFrames = 0;
let fpsStart = last;
function loop(now: number): void {
  const dt = Math.min(0.05, Math.max(0, (now - last) / 1000));
  last = now;
  if (current !== null) {
    current.instance.frame(dt);
    handle.frames++;
    handle.ready = true;
    fpsFrames++;
    if (now - fpsStart >= 500) {
      current.stats.set('FPS', ((fpsFrames * 1000) / (now - fpsStart)).toFixed(0));
      fpsFrames = 0;
      fpsStart = now;
    }
  }
  requestAnimationFrame(loop);
}

void open(fromHash());
requestAnimationFrame(loop);
