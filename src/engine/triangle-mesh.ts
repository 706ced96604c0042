// The build of a TriangleIndex: validates a mesh given as flat arrays, lays out each triangle's
// corners and box, and bins the triangles into a grid whose cells list those that meet them.

import { InvalidValueError, wrongType } from '../errors.js';
import { orient2d } from '../geometry/orient.js';
import { triangleIntersectsBox } from '../geometry/triangle.js';
import { checkFinite } from '../validate.js';
import { BinGrid } from './bins.js';

// Cells per triangle of the grid (chosen by `npm run bench`).
const CELLS_PER_TRIANGLE = 2;
const INF = Number.POSITIVE_INFINITY;

/** The tables of a TriangleIndex, as `buildTriangleMesh` lays them out. */
export interface TriangleMesh {
  /** Number of triangles (skipped ones included). */
  size: number;
  /** Per triangle: its corners (6 numbers). */
  corners: Float64Array;
  /** Per triangle: its box (4 numbers; empty for skipped ones). */
  boxes: Float64Array;
  /** Indices of the zero-area triangles left out, ascending. */
  skipped: Int32Array;
  /** The grid: each cell lists the triangles that meet it, in ascending order. */
  grid: BinGrid;
}

/**
 * Validates a mesh and builds its tables: corners and boxes per triangle, and the grid.
 * @param coords - vertex coordinates, x and y of each vertex in turn (finite numbers).
 * @param triangles - three vertex indices per triangle (integers into `coords`).
 * @param skipDegenerate - leave zero-area triangles out (listed in `skipped`) instead of
 * throwing an InvalidValueError.
 */
export function buildTriangleMesh(
  coords: ArrayLike<number>,
  triangles: ArrayLike<number>,
  skipDegenerate: boolean,
): TriangleMesh {
  const vertices = checkCoords(coords);
  const size = checkTriangles(triangles, vertices);
  const corners = new Float64Array(6 * size);
  const boxes = new Float64Array(4 * size);
  const skipped: number[] = [];
  // Corners and boxes; zero-area triangles are refused or skipped.
  const bounds = new Float64Array([INF, INF, -INF, -INF]);
  for (let t = 0; t < size; t++) {
    const a = 2 * triangles[3 * t]!;
    const b = 2 * triangles[3 * t + 1]!;
    const c = 2 * triangles[3 * t + 2]!;
    const ax = coords[a]!;
    const ay = coords[a + 1]!;
    const bx = coords[b]!;
    const by = coords[b + 1]!;
    const cx = coords[c]!;
    const cy = coords[c + 1]!;
    corners.set([ax, ay, bx, by, cx, cy], 6 * t);
    if (orient2d(ax, ay, bx, by, cx, cy) === 0) {
      if (!skipDegenerate) {
        throw new InvalidValueError(
          `quadkit: triangle ${t} (vertices ${a / 2}, ${b / 2}, ${c / 2}) has zero area; ` +
            'remove it, or pass { skipDegenerate: true } to leave such triangles out',
        );
      }
      skipped.push(t);
      boxes.set([INF, INF, -INF, -INF], 4 * t);
      continue;
    }
    const box = [
      Math.min(ax, bx, cx),
      Math.min(ay, by, cy),
      Math.max(ax, bx, cx),
      Math.max(ay, by, cy),
    ] as const;
    boxes.set(box, 4 * t);
    bounds[0] = Math.min(bounds[0]!, box[0]);
    bounds[1] = Math.min(bounds[1]!, box[1]);
    bounds[2] = Math.max(bounds[2]!, box[2]);
    bounds[3] = Math.max(bounds[3]!, box[3]);
  }
  if (skipped.length === size) bounds.set([0, 0, 0, 0]);
  // The grid: each cell lists the triangles that meet it, in ascending order.
  const grid = new BinGrid(bounds, boxes, size, CELLS_PER_TRIANGLE * size, (t, cell) => {
    const o = 6 * t;
    return triangleIntersectsBox(
      corners[o]!,
      corners[o + 1]!,
      corners[o + 2]!,
      corners[o + 3]!,
      corners[o + 4]!,
      corners[o + 5]!,
      cell[0]!,
      cell[1]!,
      cell[2]!,
      cell[3]!,
    );
  });
  return { size, corners, boxes, skipped: Int32Array.from(skipped), grid };
}

// Validates vertex coordinates; returns the number of vertices.
function checkCoords(coords: ArrayLike<number>): number {
  if (coords === null || typeof coords !== 'object' || typeof coords.length !== 'number') {
    wrongType('TriangleIndex coords', coords, 'an array of numbers [x0, y0, x1, y1, …]');
  }
  if (coords.length % 2 !== 0) {
    throw new InvalidValueError(
      `quadkit: TriangleIndex coords has odd length ${coords.length}; it holds x, y pairs`,
    );
  }
  for (let i = 0; i < coords.length; i++) checkFinite(`coords[${i}]`, coords[i]!);
  return coords.length / 2;
}

// Validates vertex indices; returns the number of triangles.
function checkTriangles(triangles: ArrayLike<number>, vertices: number): number {
  if (triangles === null || typeof triangles !== 'object' || typeof triangles.length !== 'number') {
    wrongType('TriangleIndex triangles', triangles, 'an array of vertex indices');
  }
  if (triangles.length % 3 !== 0) {
    throw new InvalidValueError(
      `quadkit: TriangleIndex triangles has length ${triangles.length}, not a multiple of 3; ` +
        'it holds 3 vertex indices per triangle',
    );
  }
  for (let i = 0; i < triangles.length; i++) {
    const v = triangles[i]!;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= vertices) {
      throw new InvalidValueError(
        `quadkit: TriangleIndex triangles[${i}] (triangle ${Math.floor(i / 3)}) is ${v}; ` +
          `expected a vertex index from 0 to ${vertices - 1}`,
      );
    }
  }
  return triangles.length / 3;
}
