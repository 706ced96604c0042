// Workload: ray casts (first hit) into a scene of boxes. 10k boxes of 2–20 units in a 2000×2000
// world (the dynamic scene's boxes, standing still), 1,000 rays from points outside every box to
// random targets up to 1000 units away. quadkit's raycast on Quadtree (loose), GridLooseQuadtree
// and StaticQuadtree, beside detect-collisions' System.raycast (line vs polygons over its BVH)
// and a linear scan (slab test on every box).

import { Box, System } from 'detect-collisions';
import { mulberry32, randomBoxes } from '../data.js';
import { repeat } from '../measure.js';

export const id = 'raycast';

const WORLD = 2000;

// The entry parameter of segment (x1,y1)+t(dx,dy) into the box, or -1 (slab method).
function slab(minX, minY, maxX, maxY, x1, y1, dx, dy) {
  let lo = 0;
  let hi = 1;
  if (dx === 0) {
    if (x1 < minX || x1 > maxX) return -1;
  } else {
    let a = (minX - x1) / dx;
    let b = (maxX - x1) / dx;
    if (a > b) [a, b] = [b, a];
    if (a > lo) lo = a;
    if (b < hi) hi = b;
  }
  if (dy === 0) {
    if (y1 < minY || y1 > maxY) return -1;
  } else {
    let a = (minY - y1) / dy;
    let b = (maxY - y1) / dy;
    if (a > b) [a, b] = [b, a];
    if (a > lo) lo = a;
    if (b < hi) hi = b;
  }
  return lo <= hi ? lo : -1;
}

export function run({ quick, quadkit }) {
  const n = quick ? 2000 : 10_000;
  const nRays = quick ? 200 : 1000;
  const runs = quick ? 3 : 7;
  // [x, y, w, h] per box.
  const boxes = randomBoxes(n, { world: WORLD, minSize: 2, maxSize: 20, seed: 31 });
  const inside = (x, y) => {
    for (let i = 0; i < n; i++) {
      const b = 4 * i;
      if (
        x >= boxes[b] &&
        x <= boxes[b] + boxes[b + 2] &&
        y >= boxes[b + 1] &&
        y <= boxes[b + 1] + boxes[b + 3]
      )
        return true;
    }
    return false;
  };
  // Ray starts outside every box (detect-collisions reports where a ray crosses an edge, so a ray
  // starting inside a box would not count it), targets up to 1000 units away.
  const rnd = mulberry32(17);
  const rays = new Float64Array(4 * nRays);
  for (let r = 0; r < nRays; r++) {
    let x;
    let y;
    do {
      x = rnd() * WORLD;
      y = rnd() * WORLD;
    } while (inside(x, y));
    const a = rnd() * 2 * Math.PI;
    const len = rnd() * 1000;
    rays.set([x, y, x + len * Math.cos(a), y + len * Math.sin(a)], 4 * r);
  }
  const rows = [];
  const distances = {};
  const measure = (name, isQuadkit, cast) => {
    const out = new Float64Array(nRays);
    const m = repeat({
      runs,
      warmup: 2,
      gcEach: false,
      run: () => {
        let hits = 0;
        for (let r = 0; r < nRays; r++) {
          const d = cast(rays[4 * r], rays[4 * r + 1], rays[4 * r + 2], rays[4 * r + 3]);
          out[r] = d;
          if (d >= 0) hits++;
        }
        return hits;
      },
    });
    distances[name] = out;
    rows.push({ name, quadkit: isQuadkit, values: { cast: m.median, hits: m.result } });
  };

  if (quadkit) {
    const items = [];
    for (let i = 0; i < n; i++) {
      items.push({
        x: boxes[4 * i],
        y: boxes[4 * i + 1],
        width: boxes[4 * i + 2],
        height: boxes[4 * i + 3],
      });
    }
    const bounds = { x: 0, y: 0, width: WORLD, height: WORLD };
    const hitItems = [];
    const hitDistances = new Float64Array(1);
    const first = (index) => (x1, y1, x2, y2) =>
      index.raycastInto(x1, y1, x2, y2, 1, hitItems, hitDistances) === 1 ? hitDistances[0] : -1;
    const loose = new quadkit.Quadtree({ bounds, looseness: 2 });
    const grid = new quadkit.GridLooseQuadtree({ bounds });
    for (const it of items) {
      loose.insert(it);
      grid.insert(it);
    }
    const packed = quadkit.StaticQuadtree.from(items);
    measure('quadkit StaticQuadtree', true, first(packed));
    measure('quadkit Quadtree (loose)', true, first(loose));
    measure('quadkit GridLooseQuadtree', true, first(grid));
  }
  {
    const sys = new System();
    for (let i = 0; i < n; i++) {
      sys.insert(
        new Box({ x: boxes[4 * i], y: boxes[4 * i + 1] }, boxes[4 * i + 2], boxes[4 * i + 3]),
      );
    }
    const start = { x: 0, y: 0 };
    const end = { x: 0, y: 0 };
    measure('detect-collisions raycast', false, (x1, y1, x2, y2) => {
      start.x = x1;
      start.y = y1;
      end.x = x2;
      end.y = y2;
      const hit = sys.raycast(start, end);
      return hit ? Math.hypot(hit.point.x - x1, hit.point.y - y1) : -1;
    });
  }
  measure('linear scan', false, (x1, y1, x2, y2) => {
    const dx = x2 - x1;
    const dy = y2 - y1;
    let best = 2;
    for (let i = 0; i < n; i++) {
      const b = 4 * i;
      const t = slab(
        boxes[b],
        boxes[b + 1],
        boxes[b] + boxes[b + 2],
        boxes[b + 1] + boxes[b + 3],
        x1,
        y1,
        dx,
        dy,
      );
      if (t >= 0 && t < best) best = t;
    }
    return best <= 1 ? best * Math.hypot(dx, dy) : -1;
  });

  // Every library must find the same first-hit distances (to rounding).
  const warnings = [];
  const ref = distances['linear scan'];
  for (const [name, d] of Object.entries(distances)) {
    let bad = 0;
    for (let r = 0; r < nRays; r++) {
      if (d[r] < 0 !== ref[r] < 0 || Math.abs(d[r] - ref[r]) > 1e-6 * (1 + ref[r])) bad++;
    }
    if (bad) warnings.push(`${name}: ${bad} of ${nRays} first hits differ from the linear scan`);
  }
  return {
    id,
    title: `${nRays.toLocaleString('en-US')} ray casts (first hit) into ${n.toLocaleString('en-US')} boxes`,
    setup:
      `${n} boxes of 2–20 units uniform in a ${WORLD}×${WORLD} world (seeded); ${nRays} rays from ` +
      'points outside every box towards random targets up to 1000 units away. Total ms for all ' +
      `rays, median of ${runs} passes after 2 warm-up passes. quadkit: raycastInto (k = 1, no ` +
      'allocation); detect-collisions: System.raycast (the nearest edge crossing); linear scan: ' +
      'slab test on every box.',
    metrics: [
      { key: 'cast', label: 'ray casts', ops: nRays, compare: true },
      { key: 'hits', label: 'rays that hit', unit: 'count' },
    ],
    rows,
    warnings,
  };
}
