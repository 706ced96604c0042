// TriangleIndex against brute force: locate, nearestTriangle, search, searchSegment and raycast
// on real meshes (the Delaunay triangulation of the world's cities, earcut triangulations of the
// world-atlas land polygons with holes), on synthetic lattices whose shared edges and vertices
// are hit exactly, and on random triangle soups (fast-check); plus degenerate and bad input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TriangleIndex } from '../src/index.js';
import { citiesMesh, landMesh, latticeMesh, type Mesh } from './meshes.js';
import { mulberry32, orientSign, type Rng, randFloat, randInt } from './oracle.js';

// ---------------------------------------------------------------------------------------------
// The brute-force mesh oracle: every triangle, exact orientation signs (BigInt when needed).
// ---------------------------------------------------------------------------------------------

type Tri = [number, number, number, number, number, number];

function trianglesOf(mesh: Mesh): Tri[] {
  const { coords: c, triangles: t } = mesh;
  const out: Tri[] = [];
  for (let i = 0; i < t.length; i += 3) {
    const [a, b, d] = [2 * t[i]!, 2 * t[i + 1]!, 2 * t[i + 2]!];
    out.push([c[a]!, c[a + 1]!, c[b]!, c[b + 1]!, c[d]!, c[d + 1]!]);
  }
  return out;
}

/** Whether the closed triangle contains the point: no two edges see it on opposite sides. */
function contains(t: Tri, x: number, y: number): boolean {
  const [ax, ay, bx, by, cx, cy] = t;
  if (x < Math.min(ax, bx, cx) || x > Math.max(ax, bx, cx)) return false;
  if (y < Math.min(ay, by, cy) || y > Math.max(ay, by, cy)) return false;
  const s1 = orientSign(ax, ay, bx, by, x, y);
  const s2 = orientSign(bx, by, cx, cy, x, y);
  const s3 = orientSign(cx, cy, ax, ay, x, y);
  return !((s1 < 0 || s2 < 0 || s3 < 0) && (s1 > 0 || s2 > 0 || s3 > 0));
}

function bruteLocate(tris: readonly Tri[], x: number, y: number): number {
  return tris.findIndex((t) => contains(t, x, y));
}

/** Whether closed segments pq and rs meet (exact). */
function segmentsMeet(
  px: number,
  py: number,
  qx: number,
  qy: number,
  rx: number,
  ry: number,
  sx: number,
  sy: number,
): boolean {
  const d1 = orientSign(px, py, qx, qy, rx, ry);
  const d2 = orientSign(px, py, qx, qy, sx, sy);
  const d3 = orientSign(rx, ry, sx, sy, px, py);
  const d4 = orientSign(rx, ry, sx, sy, qx, qy);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  const within = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) =>
    Math.min(ax, bx) <= cx &&
    cx <= Math.max(ax, bx) &&
    Math.min(ay, by) <= cy &&
    cy <= Math.max(ay, by);
  return (
    (d1 === 0 && within(px, py, qx, qy, rx, ry)) ||
    (d2 === 0 && within(px, py, qx, qy, sx, sy)) ||
    (d3 === 0 && within(rx, ry, sx, sy, px, py)) ||
    (d4 === 0 && within(rx, ry, sx, sy, qx, qy))
  );
}

function edges(t: Tri): [number, number, number, number][] {
  const [ax, ay, bx, by, cx, cy] = t;
  return [
    [ax, ay, bx, by],
    [bx, by, cx, cy],
    [cx, cy, ax, ay],
  ];
}

/** Whether the triangle's box meets the box (a prefilter: the exact tests follow). */
function boxesMeet(t: Tri, minX: number, minY: number, maxX: number, maxY: number): boolean {
  const [ax, ay, bx, by, cx, cy] = t;
  return (
    Math.min(ax, bx, cx) <= maxX &&
    Math.max(ax, bx, cx) >= minX &&
    Math.min(ay, by, cy) <= maxY &&
    Math.max(ay, by, cy) >= minY
  );
}

/** Whether the segment meets the closed triangle: an end inside, or it crosses an edge. */
function meetsSegment(t: Tri, x1: number, y1: number, x2: number, y2: number): boolean {
  if (!boxesMeet(t, Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2))) {
    return false;
  }
  if (contains(t, x1, y1) || contains(t, x2, y2)) return true;
  return edges(t).some(([ex, ey, fx, fy]) => segmentsMeet(x1, y1, x2, y2, ex, ey, fx, fy));
}

/** Whether the closed triangle meets the closed box: a corner of one in the other, or crossing. */
function meetsBox(t: Tri, minX: number, minY: number, maxX: number, maxY: number): boolean {
  if (!boxesMeet(t, minX, minY, maxX, maxY)) return false;
  const [ax, ay, bx, by, cx, cy] = t;
  for (const [x, y] of [
    [ax, ay],
    [bx, by],
    [cx, cy],
  ] as const) {
    if (x >= minX && x <= maxX && y >= minY && y <= maxY) return true;
  }
  for (const [x, y] of [
    [minX, minY],
    [maxX, minY],
    [maxX, maxY],
    [minX, maxY],
  ] as const) {
    if (contains(t, x, y)) return true;
  }
  const sides: [number, number, number, number][] = [
    [minX, minY, maxX, minY],
    [maxX, minY, maxX, maxY],
    [maxX, maxY, minX, maxY],
    [minX, maxY, minX, minY],
  ];
  return edges(t).some(([ex, ey, fx, fy]) =>
    sides.some(([gx, gy, hx, hy]) => segmentsMeet(ex, ey, fx, fy, gx, gy, hx, hy)),
  );
}

function pointSegmentDistance(
  x: number,
  y: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let u = len2 === 0 ? 0 : ((x - ax) * dx + (y - ay) * dy) / len2;
  u = Math.max(0, Math.min(1, u));
  return Math.hypot(x - (ax + u * dx), y - (ay + u * dy));
}

function distanceTo(t: Tri, x: number, y: number): number {
  if (contains(t, x, y)) return 0;
  return Math.min(
    ...edges(t).map(([ax, ay, bx, by]) => pointSegmentDistance(x, y, ax, ay, bx, by)),
  );
}

/** The parameter at which segment (x1,y1)-(x2,y2) first meets the triangle (float), or -1. */
function entry(t: Tri, x1: number, y1: number, x2: number, y2: number): number {
  if (!meetsSegment(t, x1, y1, x2, y2)) return -1;
  if (contains(t, x1, y1)) return 0;
  let best = 1;
  const dx = x2 - x1;
  const dy = y2 - y1;
  for (const [ex, ey, fx, fy] of edges(t)) {
    if (!segmentsMeet(x1, y1, x2, y2, ex, ey, fx, fy)) continue;
    const gx = fx - ex;
    const gy = fy - ey;
    const den = dx * gy - dy * gx;
    if (den !== 0) {
      best = Math.min(best, ((ex - x1) * gy - (ey - y1) * gx) / den);
    } else {
      // Collinear overlap: the nearer edge end along the segment.
      const len2 = dx * dx + dy * dy;
      for (const [px, py] of [
        [ex, ey],
        [fx, fy],
      ] as const) {
        const u = ((px - x1) * dx + (py - y1) * dy) / len2;
        if (u >= 0 && u <= 1) best = Math.min(best, u);
      }
    }
  }
  return Math.max(0, Math.min(1, best));
}

const near = (a: number, b: number, scale: number) => Math.abs(a - b) <= 1e-9 * (1 + scale);

// ---------------------------------------------------------------------------------------------
// Checks of one query against the oracle
// ---------------------------------------------------------------------------------------------

function checkNearest(index: TriangleIndex, tris: readonly Tri[], x: number, y: number): void {
  const got = index.nearestTriangle(x, y)!;
  const distances = tris.map((t) => distanceTo(t, x, y));
  const min = Math.min(...distances);
  const scale = Math.abs(x) + Math.abs(y) + min;
  expect(near(got.distance, min, scale)).toBe(true);
  // The returned triangle is one at that distance, and the point is on it, at that distance.
  expect(near(distances[got.triangle]!, min, scale)).toBe(true);
  expect(near(Math.hypot(got.x - x, got.y - y), got.distance, scale)).toBe(true);
  expect(distanceTo(tris[got.triangle]!, got.x, got.y)).toBeLessThanOrEqual(1e-9 * (1 + scale));
  if (min === 0) expect(got.triangle).toBe(bruteLocate(tris, x, y));
}

function checkRay(
  index: TriangleIndex,
  tris: readonly Tri[],
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): void {
  const len = Math.hypot(x2 - x1, y2 - y1);
  const expected = new Map<number, number>();
  tris.forEach((t, i) => {
    const e = entry(t, x1, y1, x2, y2);
    if (e >= 0) expected.set(i, e * len);
  });
  const scale = len + Math.abs(x1) + Math.abs(y1);
  // searchSegment: the exact hit set, ascending.
  expect(index.searchSegment(x1, y1, x2, y2)).toEqual([...expected.keys()]);
  const all = index.raycastAll(x1, y1, x2, y2);
  expect(all.map((h) => h.item).sort((a, b) => a - b)).toEqual([...expected.keys()]);
  for (let i = 0; i < all.length; i++) {
    expect(near(all[i]!.distance, expected.get(all[i]!.item)!, scale)).toBe(true);
    if (i > 0) expect(all[i]!.distance).toBeGreaterThanOrEqual(all[i - 1]!.distance);
  }
  const first = index.raycast(x1, y1, x2, y2);
  if (expected.size === 0) expect(first).toBeNull();
  else expect(first).toEqual(all[0]);
}

function checkSearch(
  index: TriangleIndex,
  tris: readonly Tri[],
  x: number,
  y: number,
  w: number,
  h: number,
): void {
  const expected: number[] = [];
  tris.forEach((t, i) => {
    if (meetsBox(t, x, y, x + w, y + h)) expected.push(i);
  });
  expect(index.search({ x, y, width: w, height: h })).toEqual(expected);
}

// ---------------------------------------------------------------------------------------------
// Real meshes
// ---------------------------------------------------------------------------------------------

/** Random points over the mesh's extent and beyond it, and some of its vertices exactly. */
function probePoints(rng: Rng, mesh: Mesh, n: number): [number, number][] {
  const c = mesh.coords;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < c.length; i += 2) {
    minX = Math.min(minX, c[i]!);
    maxX = Math.max(maxX, c[i]!);
    minY = Math.min(minY, c[i + 1]!);
    maxY = Math.max(maxY, c[i + 1]!);
  }
  const padX = (maxX - minX) * 0.05;
  const padY = (maxY - minY) * 0.05;
  const points: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    if (i % 10 === 0) {
      const v = 2 * randInt(rng, 0, c.length / 2 - 1);
      points.push([c[v]!, c[v + 1]!]);
    } else {
      points.push([
        randFloat(rng, minX - padX, maxX + padX),
        randFloat(rng, minY - padY, maxY + padY),
      ]);
    }
  }
  return points;
}

describe('TriangleIndex on real meshes', () => {
  it('locate equals brute force on the Delaunay triangulation of the world cities (~270k triangles)', () => {
    const mesh = citiesMesh();
    const tris = trianglesOf(mesh);
    expect(tris.length).toBeGreaterThan(250_000);
    const index = new TriangleIndex(mesh.coords, mesh.triangles);
    const rng = mulberry32(7);
    let inside = 0;
    for (const [x, y] of probePoints(rng, mesh, 400)) {
      const expected = bruteLocate(tris, x, y);
      expect(index.locate(x, y)).toBe(expected);
      if (expected >= 0) inside++;
    }
    // The probes cover both the inside and the outside of the mesh.
    expect(inside).toBeGreaterThan(80);
    expect(inside).toBeLessThan(400);
  });

  it('locate, nearestTriangle, search and raycast equal brute force on earcut triangulations of the world-atlas land polygons', () => {
    const mesh = landMesh('110m');
    expect(mesh.polygons).toBeGreaterThan(100);
    // The Caspian Sea is a hole in Eurasia (polygons crossing the antimeridian overlap it in
    // longitude/latitude: the lowest index among overlapping triangles is what locate returns).
    expect(mesh.holes).toBeGreaterThan(0);
    const tris = trianglesOf(mesh);
    const index = new TriangleIndex(mesh.coords, mesh.triangles, { skipDegenerate: true });
    // Earcut may emit zero-area slivers: they are reported, and never answered.
    const degenerate = tris.flatMap((t, i) =>
      orientSign(t[0], t[1], t[2], t[3], t[4], t[5]) === 0 ? [i] : [],
    );
    expect([...index.skipped]).toEqual(degenerate);
    const dead = new Set(degenerate);
    const alive = (t: number) => !dead.has(t);
    const rng = mulberry32(11);
    let inside = 0;
    for (const [x, y] of probePoints(rng, mesh, 3000)) {
      const expected = tris.findIndex((t, i) => alive(i) && contains(t, x, y));
      expect(index.locate(x, y)).toBe(expected);
      if (expected >= 0) inside++;
    }
    expect(inside).toBeGreaterThan(300);
    const kept = tris.map((t, i) => (alive(i) ? t : ([1e9, 1e9, 1e9, 1e9, 1e9, 1e9] as Tri)));
    for (let i = 0; i < 150; i++) {
      const x = randFloat(rng, -200, 200);
      const y = randFloat(rng, -100, 100);
      checkNearest(index, kept, x, y);
      checkSearch(index, kept, x, y, randFloat(rng, 0, 20), randFloat(rng, 0, 20));
      checkRay(index, kept, x, y, randFloat(rng, -200, 200), randFloat(rng, -100, 100));
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Lattices: shared edges and vertices hit exactly, holes
// ---------------------------------------------------------------------------------------------

describe('TriangleIndex on a lattice mesh', () => {
  const holes = (i: number, j: number) => i >= 3 && i < 6 && j >= 3 && j < 6;
  const mesh = latticeMesh(10, holes);
  const tris = trianglesOf(mesh);
  const index = new TriangleIndex(mesh.coords, mesh.triangles);

  it('locate returns the lowest index among the triangles sharing an edge or a vertex', () => {
    let shared = 0;
    for (let y = -1; y <= 21; y++) {
      for (let x = -1; x <= 21; x++) {
        const expected = bruteLocate(tris, x, y);
        expect(index.locate(x, y)).toBe(expected);
        if (tris.filter((t) => contains(t, x, y)).length > 1) shared++;
      }
    }
    // Every lattice vertex and edge midpoint was probed; most are shared by several triangles.
    expect(shared).toBeGreaterThan(200);
  });

  it('locate returns -1 inside a hole and outside the mesh, and on the hole the edge counts', () => {
    expect(index.locate(9, 9)).toBe(-1);
    expect(index.locate(-0.5, 3)).toBe(-1);
    expect(index.locate(6, 9)).toBe(bruteLocate(tris, 6, 9));
    expect(index.locate(6, 9)).toBeGreaterThanOrEqual(0);
  });

  it('nearestTriangle snaps a point in a hole or outside onto the nearest triangle', () => {
    const hole = index.nearestTriangle(9, 8)!;
    expect(hole.distance).toBe(2);
    expect([hole.x, hole.y]).toEqual([9, 6]);
    const out = index.nearestTriangle(25, 25)!;
    expect(out.distance).toBeCloseTo(Math.hypot(5, 5), 12);
    expect([out.x, out.y]).toEqual([20, 20]);
    for (const [x, y] of [
      [-3, 7],
      [10, 10],
      [8.5, 9.25],
      [30, -4],
    ] as const) {
      checkNearest(index, tris, x, y);
    }
  });

  it('raycast stops at the first triangle; searchSegment lists every triangle met, ascending', () => {
    const rng = mulberry32(3);
    for (let i = 0; i < 200; i++) {
      const p = () => randInt(rng, -4, 24);
      checkRay(index, tris, p(), p(), p(), p());
    }
    // A ray from inside the hole reaches the hole's edge at distance 1.
    expect(index.raycast(9, 9, 9, 30)?.distance).toBe(3);
  });

  it('nearestTriangle of a point inside the mesh is the triangle of locate at distance 0, even where another triangle lies a rounding error away', () => {
    // (0.65, 0.6) is 2.4e-17 outside triangle 0, whose nearest point rounds to the point itself,
    // and inside triangle 1.
    const mesh = new TriangleIndex(
      [0.30000000000000004, 2.2, 0, 1, 1.3, 0.2, 2.3, 1, -2, -2],
      [0, 1, 2, 3, 1, 4],
    );
    expect(mesh.locate(0.65, 0.6)).toBe(1);
    expect(mesh.nearestTriangle(0.65, 0.6)).toEqual({ triangle: 1, x: 0.65, y: 0.6, distance: 0 });
    const out = new Float64Array(2);
    expect(mesh.nearestTriangleInto(0.65, 0.6, out)).toBe(1);
    expect([...out]).toEqual([0.65, 0.6]);
  });

  it('raycast measures the distance to a sliver whose edge passes a rounding error beside the start', () => {
    // Triangle 0 is met only at the ray's end (its vertex (2.3, -3)); triangle 1 halfway.
    const mesh = new TriangleIndex(
      [2.3, -3, 2, 1e6, 0.30000000000000004, 2, 1.5, -2.5, 2.2, -2.5, 1.8, -1],
      [0, 1, 2, 3, 4, 5],
    );
    const ray = [1.2999999999999998, -0.5, 2.3, -3] as const;
    const length = Math.hypot(1, 2.5);
    expect(mesh.locate(ray[0], ray[1])).toBe(-1);
    const first = mesh.raycast(...ray)!;
    expect(first.item).toBe(1);
    expect(first.distance).toBeCloseTo(0.4 * length, 12);
    const all = mesh.raycastAll(...ray);
    expect(all.map((h) => h.item)).toEqual([1, 0]);
    expect(all[1]!.distance).toBeCloseTo(length, 12);
  });

  it('search(rect) returns the triangles whose shape meets the rectangle, not only their boxes', () => {
    const rng = mulberry32(5);
    for (let i = 0; i < 200; i++) {
      checkSearch(
        index,
        tris,
        randInt(rng, -2, 20),
        randInt(rng, -2, 20),
        randInt(rng, 0, 6),
        randInt(rng, 0, 6),
      );
    }
    // The box of the triangle (0,0),(2,0),(2,2) meets the point (0.5, 1.5) but the triangle does not.
    const t = bruteLocate(tris, 1.5, 0.5);
    expect(index.search({ x: 0.25, y: 1.5, width: 0.25, height: 0.25 })).not.toContain(t);
  });

  it('visit reports the grid bounds, then the cells that list triangles', () => {
    const nodes: { depth: number; count: number; x: number; width: number }[] = [];
    index.visit((n) => {
      nodes.push({ depth: n.depth, count: n.count, x: n.x, width: n.width });
    });
    expect(nodes[0]).toMatchObject({ depth: 0, x: 0, width: 20 });
    expect(nodes.length).toBeGreaterThan(1);
    expect(nodes.slice(1).every((n) => n.depth === 1 && n.count > 0)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Random triangle soups (overlapping triangles, slivers, nearly collinear corners)
// ---------------------------------------------------------------------------------------------

describe('TriangleIndex on random triangle soups', () => {
  it('every query equals brute force on overlapping random triangles', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 120 }), (seed, count) => {
        const rng = mulberry32(seed);
        const coords: number[] = [];
        const triangles: number[] = [];
        for (let i = 0; i < count; i++) {
          const x = randInt(rng, 0, 100);
          const y = randInt(rng, 0, 100);
          const s = rng() < 0.8 ? 10 : 80;
          coords.push(x, y, x + randInt(rng, -s, s), y + randInt(rng, -s, s));
          // Nearly collinear third corners now and then.
          if (rng() < 0.2)
            coords.push(2 * coords[coords.length - 2]! - x, 2 * coords[coords.length - 1]! - y + 1);
          else coords.push(x + randInt(rng, -s, s), y + randInt(rng, -s, s));
          triangles.push(3 * i, 3 * i + 1, 3 * i + 2);
        }
        const mesh = { coords, triangles };
        const index = new TriangleIndex(coords, triangles, { skipDegenerate: true });
        const skipped = new Set(index.skipped);
        const tris = trianglesOf(mesh).map((t, i) =>
          skipped.has(i) ? ([1e9, 1e9, 1e9, 1e9, 1e9, 1e9] as Tri) : t,
        );
        for (let q = 0; q < 15; q++) {
          const x = randInt(rng, -20, 120);
          const y = randInt(rng, -20, 120);
          expect(index.locate(x, y)).toBe(bruteLocate(tris, x, y));
          if (skipped.size < count) checkNearest(index, tris, x + rng(), y + rng());
          checkSearch(index, tris, x, y, randInt(rng, 0, 30), randInt(rng, 0, 30));
          checkRay(index, tris, x, y, randInt(rng, -20, 120), randInt(rng, -20, 120));
        }
      }),
      { numRuns: 80 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Fixtures, degenerate and bad input
// ---------------------------------------------------------------------------------------------

describe('TriangleIndex fixtures and bad input', () => {
  it('locate(x, y) tests all three corners of a triangle (not corner A three times)', () => {
    // A point beyond edge BC but on the inner side of the edges at A.
    const index = new TriangleIndex([0, 0, 10, 0, 0, 10], [0, 1, 2]);
    expect(index.locate(2, 2)).toBe(0);
    expect(index.locate(6, 6)).toBe(-1);
    expect(index.locate(5, 5)).toBe(0);
  });

  it('locate accepts either winding and is exact for nearly collinear points', () => {
    const ccw = new TriangleIndex([0, 0, 1, 0, 0, 1], [0, 1, 2]);
    const cw = new TriangleIndex([0, 0, 1, 0, 0, 1], [0, 2, 1]);
    // Just outside the hypotenuse x + y = 1 by one ulp, and exactly on it.
    const x = 0.5;
    const y = 0.5 + 2 ** -53;
    expect(ccw.locate(x, y)).toBe(-1);
    expect(cw.locate(x, y)).toBe(-1);
    expect(ccw.locate(0.25, 0.75)).toBe(0);
    expect(cw.locate(0.25, 0.75)).toBe(0);
  });

  it('an empty mesh answers nothing', () => {
    const index = new TriangleIndex([], []);
    expect(index.size).toBe(0);
    expect(index.locate(0, 0)).toBe(-1);
    expect(index.nearestTriangle(0, 0)).toBeNull();
    expect(index.search({ x: -1, y: -1, width: 2, height: 2 })).toEqual([]);
    expect(index.raycast(0, 0, 1, 1)).toBeNull();
  });

  it('one triangle, and many copies of it: the lowest index wins everywhere', () => {
    const coords = [0, 0, 4, 0, 0, 4];
    const triangles = Array.from({ length: 30 }, () => [0, 1, 2]).flat();
    const index = new TriangleIndex(coords, triangles);
    expect(index.locate(1, 1)).toBe(0);
    expect(index.nearestTriangle(10, 10)?.triangle).toBe(0);
    expect(index.raycast(-1, 1, 10, 1)).toEqual({ item: 0, distance: 1 });
    expect(index.search({ x: 0, y: 0, width: 1, height: 1 })).toEqual(
      Array.from({ length: 30 }, (_, i) => i),
    );
  });

  it('zero-area triangles are refused, naming the triangle, or skipped and listed', () => {
    const coords = [0, 0, 1, 0, 0, 1, 2, 0];
    expect(() => new TriangleIndex(coords, [0, 1, 2, 0, 1, 3])).toThrow(
      /triangle 1 .*zero area.*skipDegenerate/,
    );
    const index = new TriangleIndex(coords, [0, 1, 2, 0, 1, 3], { skipDegenerate: true });
    expect([...index.skipped]).toEqual([1]);
    expect(index.locate(1.5, 0)).toBe(-1);
    expect(index.locate(0.5, 0)).toBe(0);
  });

  it('cornersOf(t) gives the corners of triangle t as the mesh lists them (a skipped one too), and refuses a t outside the mesh', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 6, maxLength: 40 }),
        fc.array(fc.nat(), { minLength: 3, maxLength: 60 }),
        (raw, picks) => {
          const coords = raw.length % 2 === 0 ? raw : raw.slice(1);
          const vertices = coords.length / 2;
          const triangles = picks
            .slice(0, picks.length - (picks.length % 3))
            .map((p) => p % vertices);
          const index = new TriangleIndex(coords, triangles, { skipDegenerate: true });
          for (let t = 0; t < triangles.length / 3; t++) {
            const want = [0, 1, 2].flatMap((k) => {
              const v = triangles[3 * t + k]!;
              return [coords[2 * v]!, coords[2 * v + 1]!];
            });
            expect(index.cornersOf(t)).toEqual(want);
          }
          const size = triangles.length / 3;
          for (const t of [-1, size, 0.5, Number.NaN]) {
            expect(() => index.cornersOf(t)).toThrow(RangeError);
            expect(() => index.cornersOf(t)).toThrow(/\bt must be an integer/);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('invalid indices and coordinates are refused with the field and value', () => {
    expect(() => new TriangleIndex([0, 0, 1, 0, 0, 1], [0, 1, 3])).toThrow(/triangles\[2\].*3/);
    expect(() => new TriangleIndex([0, 0, 1, 0, 0, 1], [0, 1, 1.5])).toThrow(RangeError);
    expect(() => new TriangleIndex([0, 0, 1, 0, 0, 1], [0, 1])).toThrow(/multiple of 3/);
    expect(() => new TriangleIndex([0, 0, 1, 0, 0], [0, 1, 2])).toThrow(/odd length/);
    expect(() => new TriangleIndex([0, 0, 1, Number.NaN, 0, 1], [0, 1, 2])).toThrow(
      /coords\[3\].*NaN/,
    );
    expect(() => new TriangleIndex(null as never, [])).toThrow(TypeError);
    const index = new TriangleIndex([0, 0, 1, 0, 0, 1], [0, 1, 2]);
    expect(() => index.locate(Number.NaN, 0)).toThrow(/x/);
    expect(() => index.raycast(0, 0, Number.POSITIVE_INFINITY, 0)).toThrow(/x2/);
    expect(() => index.search({ x: 0, y: 0, width: -1, height: 1 })).toThrow(RangeError);
  });

  it('the allocation-free forms write the same answers', () => {
    const mesh = latticeMesh(4);
    const index = new TriangleIndex(mesh.coords, mesh.triangles);
    const out: number[] = [];
    const n = index.searchInto({ x: 1, y: 1, width: 2, height: 2 }, out);
    expect(out.slice(0, n)).toEqual(index.search({ x: 1, y: 1, width: 2, height: 2 }));
    const m = index.searchSegmentInto(-1, -1, 9, 9, out);
    expect(out.slice(0, m)).toEqual(index.searchSegment(-1, -1, 9, 9));
    const items: number[] = [];
    const distances: number[] = [];
    const k = index.raycastInto(-1, 1, 9, 1, 2, items, distances);
    expect(k).toBe(2);
    expect(items.map((item, i) => ({ item, distance: distances[i] }))).toEqual(
      index.raycastAll(-1, 1, 9, 1).slice(0, 2),
    );
    const p = new Float64Array(2);
    const t = index.nearestTriangleInto(12, 4, p);
    expect({ triangle: t, x: p[0], y: p[1] }).toMatchObject({
      triangle: index.nearestTriangle(12, 4)!.triangle,
      x: 8,
      y: 4,
    });
  });
});
