// Workload: the depth sweep. GridLooseQuadtree chooses its depth from the items; this runs it,
// the classic Quadtree and flatbush over a sweep of moving-box scenes (world aspect, box sizes
// from tiny to 5% of the world, uniform and clustered, slow and fast movers, 1k to 200k boxes,
// and the demo's moving scene: a 1500×1000 world, boxes sized for 25% coverage, 40–160 units/s
// at 60 frames/s) and prints, per scene, the frame time of each and the worst ratios over the
// sweep. A frame moves every box (inside the frame for everyone), brings the index up to date
// and counts every overlapping pair once.

import Flatbush from 'flatbush';
import { mulberry32 } from '../data.js';
import { gc, now } from '../measure.js';

export const id = 'depth';

// Frames: at least WARM warm-up frames and WARM_MS of them (small scenes need many frames for
// V8 to optimise every row's code), then at least FRAMES measured frames and MEASURE_MS.
const WARM = 5;
const WARM_MS = 300;
const FRAMES = 10;
const MEASURE_MS = 200;

// Sizes and speeds as fractions of the world's larger side (speeds per frame).
function scenes(quick) {
  const k = quick ? 0.1 : 1;
  const demo = (n) => {
    const s = Math.sqrt((0.25 * 1500 * 1000) / n) / 1500;
    return {
      name: `demo moving scene, ${n / 1000}k (1500×1000, 25% coverage, 40–160 u/s)`,
      width: 1500,
      height: 1000,
      n: Math.round(n * k),
      minSize: 0.5 * s,
      maxSize: 1.5 * s,
      speed: [40 / 60 / 1500, 160 / 60 / 1500],
      // The boxes keep their coverage at the smaller count.
      cover: true,
    };
  };
  return [
    demo(50_000),
    demo(100_000),
    {
      name: '1k boxes up to 5% of the world',
      width: 1000,
      height: 1000,
      n: 1000,
      minSize: 0.01,
      maxSize: 0.05,
      speed: [0, 0.005],
    },
    {
      name: '10k small, fast',
      width: 1000,
      height: 1000,
      n: 10_000,
      minSize: 0.002,
      maxSize: 0.006,
      speed: [0.005, 0.02],
    },
    {
      name: '50k boxes 2–20 in 2000² (the dynamic scene)',
      width: 2000,
      height: 2000,
      n: 50_000,
      minSize: 0.001,
      maxSize: 0.01,
      speed: [0, 0.001],
    },
    {
      name: '50k clustered',
      width: 2000,
      height: 2000,
      n: 50_000,
      minSize: 0.0005,
      maxSize: 0.003,
      clustered: true,
      speed: [0, 0.0005],
    },
    {
      name: '20k in a 16:1 world',
      width: 4000,
      height: 250,
      n: 20_000,
      minSize: 0.00025,
      maxSize: 0.001,
      speed: [0, 0.0005],
    },
    {
      name: '30k mixed sizes (0.03%–5%)',
      width: 2000,
      height: 2000,
      n: 30_000,
      minSize: 0.00025,
      maxSize: 0.05,
      speed: [0, 0.001],
    },
    {
      name: '200k tiny',
      width: 1000,
      height: 1000,
      n: 200_000,
      minSize: 0.00005,
      maxSize: 0.0005,
      speed: [0, 0.0005],
    },
  ].map((s) => (s.cover ? s : { ...s, n: Math.max(500, Math.round(s.n * k)) }));
}

// The boxes of a scene: positions, sizes and velocities (the same for every library).
function makeScene(spec) {
  const rnd = mulberry32(7);
  const { n, width: W, height: H } = spec;
  const side = Math.max(W, H);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const w = new Float64Array(n);
  const h = new Float64Array(n);
  const vx = new Float64Array(n);
  const vy = new Float64Array(n);
  const centres = Array.from({ length: 20 }, () => [rnd() * W, rnd() * H]);
  for (let i = 0; i < n; i++) {
    w[i] = (spec.minSize + rnd() * (spec.maxSize - spec.minSize)) * side;
    h[i] = (spec.minSize + rnd() * (spec.maxSize - spec.minSize)) * side;
    if (spec.clustered) {
      const [cx, cy] = centres[i % 20];
      const g = () => (rnd() + rnd() + rnd() - 1.5) * 0.1;
      x[i] = Math.min(Math.max(cx + g() * W, 0), W - w[i]);
      y[i] = Math.min(Math.max(cy + g() * H, 0), H - h[i]);
    } else {
      x[i] = rnd() * (W - w[i]);
      y[i] = rnd() * (H - h[i]);
    }
    const a = rnd() * 2 * Math.PI;
    const v = (spec.speed[0] + rnd() * (spec.speed[1] - spec.speed[0])) * side;
    vx[i] = Math.cos(a) * v;
    vy[i] = Math.sin(a) * v;
  }
  const step = () => {
    for (let i = 0; i < n; i++) {
      let nx = x[i] + vx[i];
      let ny = y[i] + vy[i];
      if (nx < 0 || nx + w[i] > W) {
        vx[i] = -vx[i];
        nx = Math.min(Math.max(nx, 0), W - w[i]);
      }
      if (ny < 0 || ny + h[i] > H) {
        vy[i] = -vy[i];
        ny = Math.min(Math.max(ny, 0), H - h[i]);
      }
      x[i] = nx;
      y[i] = ny;
    }
  };
  return { n, x, y, w, h, step, bounds: { x: 0, y: 0, width: W, height: H } };
}

// Runs `frame()` on a fresh scene (warm-up, then measured frames); returns ms per measured frame
// and the pair count of the first frame.
function measure(spec, setup) {
  const scene = makeScene(spec);
  const frame = setup(scene);
  const w0 = now();
  // The pair count of the first frame: the same frame of the scene for every library.
  const pairs = frame();
  for (let f = 1; f < WARM || now() - w0 < WARM_MS; f++) frame();
  gc();
  let frames = 0;
  const t0 = now();
  for (; frames < FRAMES || now() - t0 < MEASURE_MS; frames++) frame();
  return { ms: (now() - t0) / frames, pairs };
}

// quadkit: items are objects that the frame updates, then updateAll() + pairs().
function quadkitFrame(make) {
  return (scene) => {
    const { n, x, y, w, h, step } = scene;
    const items = Array.from({ length: n }, (_, i) => ({
      x: x[i],
      y: y[i],
      width: w[i],
      height: h[i],
    }));
    const t = make(scene.bounds).load(items);
    let count = 0;
    const onPair = () => {
      count++;
    };
    const frame = () => {
      step();
      for (let i = 0; i < n; i++) {
        items[i].x = x[i];
        items[i].y = y[i];
      }
      t.updateAll();
      count = 0;
      t.pairs(onPair);
      return count;
    };
    frame.index = t;
    return frame;
  };
}

// flatbush: rebuilt every frame, then one search per box, partners with a larger index.
function flatbushFrame(scene) {
  const { n, x, y, w, h, step } = scene;
  return () => {
    step();
    const t = new Flatbush(n);
    for (let i = 0; i < n; i++) t.add(x[i], y[i], x[i] + w[i], y[i] + h[i]);
    t.finish();
    let count = 0;
    for (let i = 0; i < n; i++) {
      const found = t.search(x[i], y[i], x[i] + w[i], y[i] + h[i]);
      for (let k = 0; k < found.length; k++) if (found[k] > i) count++;
    }
    return count;
  };
}

export function run({ quick, quadkit }) {
  const rows = [];
  const warnings = [];
  let worstClassic = 0;
  let worstFlatbush = 0;
  for (const spec of scenes(quick)) {
    const values = {};
    let depth = null;
    const flat = measure(spec, flatbushFrame);
    values.flatbush = flat.ms;
    if (quadkit) {
      const grid = measure(spec, (scene) => {
        const frame = quadkitFrame((bounds) => new quadkit.GridLooseQuadtree({ bounds }))(scene);
        depth = () => frame.index.depth;
        return frame;
      });
      const classic = measure(
        spec,
        quadkitFrame((bounds) => new quadkit.Quadtree({ bounds })),
      );
      values.grid = grid.ms;
      values.depth = depth();
      values.classic = classic.ms;
      const rc = grid.ms / classic.ms;
      const rf = grid.ms / flat.ms;
      worstClassic = Math.max(worstClassic, rc);
      worstFlatbush = Math.max(worstFlatbush, rf);
      values.vsClassic = { text: rc.toFixed(2) };
      values.vsFlatbush = { text: rf.toFixed(2) };
      if (grid.pairs !== flat.pairs || classic.pairs !== flat.pairs) {
        warnings.push(
          `${spec.name}: pair totals differ (grid ${grid.pairs}, classic ${classic.pairs}, flatbush ${flat.pairs})`,
        );
      }
    }
    rows.push({
      name: `${spec.name}, ${spec.n.toLocaleString('en-US')} boxes`,
      quadkit: false,
      values,
    });
  }
  return {
    id,
    title: 'Depth sweep: GridLooseQuadtree (depth chosen from the items) vs Quadtree and flatbush',
    setup:
      `Moving-box scenes; a frame moves every box, updates the index (quadkit: updateAll(); ` +
      `flatbush: rebuilt) and counts every overlapping pair once. Mean ms per frame over at least ` +
      `${FRAMES} frames and ${MEASURE_MS} ms, after at least ${WARM} frames and ${WARM_MS} ms; a ratio below 1 means GridLooseQuadtree is faster. Worst over the ` +
      `sweep: GridLooseQuadtree / Quadtree ${worstClassic.toFixed(2)}, GridLooseQuadtree / ` +
      `flatbush ${worstFlatbush.toFixed(2)}.`,
    metrics: [
      { key: 'grid', label: 'GridLooseQuadtree' },
      { key: 'depth', label: 'chosen depth', unit: 'count' },
      { key: 'classic', label: 'Quadtree (classic)' },
      { key: 'flatbush', label: 'flatbush rebuild+search' },
      { key: 'vsClassic', label: 'grid / classic', unit: 'ratio' },
      { key: 'vsFlatbush', label: 'grid / flatbush', unit: 'ratio' },
    ],
    rows,
    warnings,
    worst: { classic: worstClassic, flatbush: worstFlatbush },
    notes: [
      'Every library sees the same boxes and frames (seeded). The classic Quadtree and ' +
        'GridLooseQuadtree use their defaults; flatbush its default nodeSize 16.',
    ],
  };
}
