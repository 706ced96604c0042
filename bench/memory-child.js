// One build, alone in this process, for bench/workloads/memory.js: `node --expose-gc
// memory-child.js <builder> <n>` prints the memory it took as JSON.

import { readFileSync, writeFileSync } from 'node:fs';
import { resourceUsage } from 'node:process';
import { quadtree as d3quadtree } from 'd3-quadtree';
import Flatbush from 'flatbush';
import KDBush from 'kdbush';
import RBush from 'rbush';
import * as quadkit from '../dist/index.js';
import { randomBoxes } from './data.js';

const [builder, count] = process.argv.slice(2);
const n = Number(count);
const world = { x: 0, y: 0, width: 1000, height: 1000 };
const points = /points|kdbush|d3/.test(builder);

// The inputs of every builder for m items (made before the build, not counted).
function inputs(m) {
  const raw = randomBoxes(m, { world: 1000, minSize: 0, maxSize: 2, seed: 3 });
  const mm = new Float64Array(4 * m);
  const xy = new Float64Array(2 * m);
  const objects = new Array(m);
  for (let i = 0; i < m; i++) {
    const [x, y] = [raw[4 * i], raw[4 * i + 1]];
    const [w, h] = points ? [0, 0] : [raw[4 * i + 2], raw[4 * i + 3]];
    mm.set([x, y, x + w, y + h], 4 * i);
    xy.set([x, y], 2 * i);
    objects[i] = points ? { x, y } : { x, y, width: w, height: h };
  }
  const minMax =
    builder === 'rbush'
      ? objects.map((o) => ({
          minX: o.x,
          minY: o.y,
          maxX: o.x + (o.width ?? 0),
          maxY: o.y + (o.height ?? 0),
        }))
      : null;
  const pairs = builder === 'd3' ? objects.map((o) => [o.x, o.y]) : null;
  return { m, mm, xy, objects, minMax, pairs };
}

const BUILDERS = {
  'static-boxes': ({ mm }) => quadkit.StaticQuadtree.fromBoxes(mm),
  'static-objects': ({ objects }) => quadkit.StaticQuadtree.from(objects),
  'static-points': ({ xy }) => quadkit.StaticQuadtree.fromPoints(xy),
  flatbush: ({ m, mm }) => {
    const t = new Flatbush(m);
    for (let i = 0; i < m; i++) t.add(mm[4 * i], mm[4 * i + 1], mm[4 * i + 2], mm[4 * i + 3]);
    t.finish();
    return t;
  },
  // flatbush fed the objects, with what it needs to give them back: its answers are indices
  // into the caller's array of the items, which the caller keeps (here a copy of it, the same 8
  // bytes per item).
  'flatbush-objects': ({ m, objects }) => {
    const t = new Flatbush(m);
    for (let i = 0; i < m; i++) {
      const o = objects[i];
      t.add(o.x, o.y, o.x + o.width, o.y + o.height);
    }
    t.finish();
    return { index: t, items: objects.slice() };
  },
  kdbush: ({ m, xy }) => {
    const t = new KDBush(m);
    for (let i = 0; i < m; i++) t.add(xy[2 * i], xy[2 * i + 1]);
    t.finish();
    return t;
  },
  rbush: ({ minMax }) => new RBush().load(minMax),
  quadtree: ({ objects }) => new quadkit.Quadtree({ bounds: world }).load(objects),
  grid: ({ objects }) => new quadkit.GridLooseQuadtree({ bounds: world }).load(objects),
  points: ({ objects }) => new quadkit.PointQuadtree({ bounds: world }).load(objects),
  d3: ({ pairs }) => d3quadtree().addAll(pairs),
};

// The peak RSS of the build alone: Linux resets the process's high-water mark on request
// (writing 5 to /proc/self/clear_refs), so earlier work (making the input, the warm-up builds) is
// not counted; elsewhere, the process's peak since it started.
function resetPeak() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function peakSince(reset) {
  const m = reset ? /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8')) : null;
  return m === null ? resourceUsage().maxRSS * 1024 : Number(m[1]) * 1024;
}

const build = BUILDERS[builder];
// Three builds of a tenth of the items first, so that the code V8 optimizes during a build, and
// the memory its optimizing compiler takes and keeps, are not counted as the items' memory (after
// one build of 1,000 items, the 1M-item static builds were still being optimized while measured,
// and kept 2-10 bytes per item more RSS from one process to the next; flatbush, one loop, less).
const warm = Math.max(1000, Math.floor(n / 10));
for (let w = 0; w < 3; w++) build(inputs(warm));
const input = inputs(n);
gc();
gc();
const reset = resetPeak();
const before = process.memoryUsage();
let index = build(input);
const peak = peakSince(reset);
// The static indexes' own buffer, exactly (quadkit's toBuffer() makes a copy, collected below).
const buffer = builder.startsWith('static-')
  ? index.toBuffer().byteLength
  : builder === 'flatbush' || builder === 'kdbush'
    ? index.data.byteLength
    : builder === 'flatbush-objects'
      ? index.index.data.byteLength
      : null;
gc();
gc();
const after = process.memoryUsage();
const kept = (key) => after[key] - before[key];
// Heap and array buffers kept: what releasing the index frees, after the current job (a WeakRef
// made during it keeps its target alive until then). The difference from before the build would
// also hold what the build's first run changed in the process, a few hundred KB either way from
// one process to the next: code, feedback, caches.
index = null;
await new Promise((resolve) => setTimeout(resolve, 0));
gc();
gc();
const released = process.memoryUsage();
const heapBytes = after.heapUsed + after.arrayBuffers - (released.heapUsed + released.arrayBuffers);
process.stdout.write(
  JSON.stringify({
    peakMB: Math.round((Math.max(peak, after.rss) - before.rss) / 1e5) / 10,
    rssPerItem: Math.round((kept('rss') / n) * 10) / 10,
    heapPerItem: Math.round((heapBytes / n) * 10) / 10,
    heapBytes,
    bufferPerItem: buffer === null ? null : Math.round((buffer / n) * 100) / 100,
  }),
);
