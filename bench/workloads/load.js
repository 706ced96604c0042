// Workload: bulk load of the dynamic indexes, through both doors: `load(objects)` (the user's
// own { x, y, width, height } or { x, y } objects) and the typed-array door (`fromBoxes` /
// `fromPoints` over a Float64Array), beside rbush's bulk load and d3-quadtree's addAll. Each run
// builds a fresh index and ends with one small query, so that an index that places its items at
// the first read (quadkit's Quadtree and PointQuadtree) pays for placing them here.

import { quadtree as d3quadtree } from 'd3-quadtree';
import RBush from 'rbush';
import { randomBoxes, toMinMax, toXYWH } from '../data.js';
import { median, now, settle, sink } from '../measure.js';
import { loadRow } from '../names.js';

export const id = 'load';

const WORLD = 1000;

export function run({ quick, quadkit }) {
  const n = quick ? 20_000 : 200_000;
  const runs = quick ? 3 : 7;
  const raw = randomBoxes(n, { world: WORLD, minSize: 0, maxSize: 2, seed: 1 });
  const bounds = { x: 0, y: 0, width: WORLD, height: WORLD };
  // The same boxes as objects and as min/max numbers; the points are their min corners.
  const objects = toXYWH(raw);
  const minMax = new Float64Array(4 * n);
  const xy = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const o = objects[i];
    minMax.set([o.x, o.y, o.x + o.width, o.y + o.height], 4 * i);
    xy[2 * i] = o.x;
    xy[2 * i + 1] = o.y;
  }
  const points = objects.map((o) => ({ x: o.x, y: o.y }));
  const rbushItems = toMinMax(raw);
  const pairs = Array.from(points, (p) => [p.x, p.y]);

  // Each build returns the size of its answer to a point query at the centre.
  const centre = WORLD / 2;
  const builds = [];
  if (quadkit) {
    const { Quadtree, GridLooseQuadtree, PointQuadtree } = quadkit;
    const ask = (t) => t.searchPoint(centre, centre).length;
    builds.push(
      [loadRow('Quadtree', false), () => ask(new Quadtree({ bounds }).load(objects))],
      [loadRow('Quadtree', true), () => ask(Quadtree.fromBoxes(minMax, { bounds }))],
      [
        loadRow('GridLooseQuadtree', false),
        () => ask(new GridLooseQuadtree({ bounds }).load(objects)),
      ],
      [
        loadRow('GridLooseQuadtree', true),
        () => ask(GridLooseQuadtree.fromBoxes(minMax, { bounds })),
      ],
      [loadRow('PointQuadtree', false), () => ask(new PointQuadtree({ bounds }).load(points))],
      [loadRow('PointQuadtree', true), () => ask(PointQuadtree.fromPoints(xy, { bounds }))],
    );
  }
  builds.push(
    ['rbush load(objects)', () => new RBush().load(rbushItems).search(pointBox(centre)).length],
    [
      'd3-quadtree addAll (points)',
      () => {
        let found = 0;
        d3quadtree()
          .addAll(pairs)
          .visit((node, x0, y0, x1, y1) => {
            if (!node.length && node.data[0] === centre && node.data[1] === centre) found++;
            return x0 > centre || y0 > centre || x1 < centre || y1 < centre;
          });
        return found;
      },
    ],
  );

  // Runs interleaved (one of each build per round) after a warm-up round, a fresh index each.
  const times = builds.map(() => []);
  for (let r = 0; r < runs + 1; r++) {
    builds.forEach(([, build], k) => {
      settle();
      const t0 = now();
      sink.value += build();
      const ms = now() - t0;
      if (r > 0) times[k].push(ms);
    });
  }
  const rows = builds.map(([name], k) => ({
    name,
    quadkit: name.startsWith('quadkit'),
    values: { load: median(times[k]) },
  }));

  return {
    id,
    title: `Bulk load of ${n / 1000}k items into the dynamic indexes: objects and typed arrays`,
    setup:
      `${n / 1000}k boxes of width and height uniform in 0–2 units, uniform in a ` +
      `${WORLD}×${WORLD} world (seeded), as { x, y, width, height } objects and as a ` +
      'Float64Array of min/max boxes; the point rows take their min corners ({ x, y } objects, ' +
      'x/y numbers, [x, y] arrays for d3-quadtree). Each build is a fresh index and ends with a ' +
      `point query at the centre. Median of ${runs} runs after a warm-up, the builds interleaved, each after a full collection and a 100 ms pause.`,
    metrics: [{ key: 'load', label: `load ${n / 1000}k`, ops: n, compare: true }],
    rows,
    warnings: [],
    notes: [
      'quadkit load(objects) reads each object once, checking it, into a Float64Array before ' +
        'placing any; fromBoxes and fromPoints read the caller’s array directly (and keep it).',
    ],
  };
}

function pointBox(v) {
  return { minX: v, minY: v, maxX: v, maxY: v };
}
