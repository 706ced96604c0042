// TriangleIndex: point location, nearest triangle, rectangle and segment queries and ray casts
// over a fixed triangle mesh (a navigation mesh, a triangulated map). The navigation-mesh
// quadtree of "四叉树(QuadTree)图例、应用、实现" keeps each triangle in the smallest node containing
// it; here the triangles go into a uniform grid of cells listing, in ascending order, the
// triangles that really meet each cell, so a lookup reads one short list and the first triangle
// that contains the point is the answer with the lowest index. Every decision is exact (orient2d); distances are rounded.

import type { BinGrid } from './engine/bins.js';
import { KBest, searchK } from './engine/queue.js';
import { POINT, RAY } from './engine/scan.js';
import { buildTriangleMesh } from './engine/triangle-mesh.js';
import {
  closestPointOnTriangle,
  segmentTriangleEntry,
  triangleContainsPoint,
  triangleIntersectsBox,
  triangleIntersectsSegment,
} from './geometry/triangle.js';
import type { IndexSummary, RayHit, Rect, VisitCallback } from './types.js';
import {
  checkFinite,
  checkFlag,
  checkFunction,
  checkInteger,
  checkOptions,
  readQueryRect,
} from './validate.js';

/** Options of {@link TriangleIndex}. */
export interface TriangleIndexOptions {
  /**
   * Leave zero-area triangles out (listed in `skipped`) instead of throwing (default false).
   * They have no area to locate a point in.
   */
  skipDegenerate?: boolean | undefined;
}

/** The settings in a TriangleIndex's `toJSON()`. */
export interface TriangleIndexSettings {
  /** Whether zero-area triangles were left out rather than refused. */
  skipDegenerate: boolean;
  /** How many zero-area triangles were left out. */
  skipped: number;
}

const OPTIONS = ['skipDegenerate'] as const satisfies readonly (keyof TriangleIndexOptions)[];

/** The triangle nearest to a point, and the point of it nearest to the query. */
export interface NearestTriangle {
  /** The triangle's index: its corners are `triangles[3 * triangle]` to `[3 * triangle + 2]`. */
  triangle: number;
  /** The x of the triangle's point nearest to the query. */
  x: number;
  /** The y of the triangle's point nearest to the query. */
  y: number;
  /** From the query to (`x`, `y`); 0 when the query is on the triangle. */
  distance: number;
}

const INF = Number.POSITIVE_INFINITY;
// The tests of `scanCell`.
const MEETS_BOX = 0;
const MEETS_SEGMENT = 1;
const ENTRY = 2;
const CLOSEST = 3;

/**
 * A spatial index over the triangles of a mesh given as flat arrays, the format delaunator and
 * earcut produce: `coords` = [x0, y0, x1, y1, …], `triangles` = 3 vertex indices per triangle.
 * Queries return triangle indices (the position of the triangle in `triangles` divided by 3).
 */
export class TriangleIndex {
  /** Number of triangles (skipped ones included). */
  readonly size: number;
  /** Indices of the zero-area triangles left out (with `skipDegenerate`), ascending. */
  readonly skipped: Int32Array;
  // Per triangle: its corners (6 numbers) and its box (4 numbers; empty for skipped ones).
  private readonly corners: Float64Array;
  private readonly boxes: Float64Array;
  private readonly grid: BinGrid;
  private readonly results: Int32Array;
  private readonly marks: Int32Array;
  private mark = 0;
  private readonly best = new KBest();
  private readonly q = new Float64Array(4);
  private readonly range = new Int32Array(4);
  private readonly point = new Float64Array(2);
  // The best so far of a nearestTriangle query.
  private readonly nearest = new Float64Array(2);
  private nearestTri = -1;
  private nearestDistance = INF;
  private readonly view = { x: 0, y: 0, width: 0, height: 0, depth: 0, count: 0 };
  private readonly skipDegenerate: boolean;

  /**
   * Indexes a mesh.
   * @param coords - vertex coordinates, x and y of each vertex in turn (finite numbers).
   * @param triangles - three vertex indices per triangle (integers into `coords`).
   * @param options - `{ skipDegenerate = false }`; an unknown option throws an
   * UnknownOptionError.
   */
  constructor(
    coords: ArrayLike<number>,
    triangles: ArrayLike<number>,
    options: TriangleIndexOptions = {},
  ) {
    checkOptions(options, 'TriangleIndex', OPTIONS, true);
    checkFlag('options.skipDegenerate', options.skipDegenerate);
    const skipDegenerate = options.skipDegenerate === true;
    this.skipDegenerate = skipDegenerate;
    const mesh = buildTriangleMesh(coords, triangles, skipDegenerate);
    const size = mesh.size;
    this.size = size;
    this.corners = mesh.corners;
    this.boxes = mesh.boxes;
    this.skipped = mesh.skipped;
    this.grid = mesh.grid;
    this.results = new Int32Array(size);
    this.marks = new Int32Array(size);
  }

  /** The three vertex coordinates of triangle t: [ax, ay, bx, by, cx, cy]. */
  cornersOf(t: number): [number, number, number, number, number, number] {
    checkInteger('t', t, 0, this.size - 1);
    const o = 6 * t;
    const c = this.corners;
    return [c[o]!, c[o + 1]!, c[o + 2]!, c[o + 3]!, c[o + 4]!, c[o + 5]!];
  }

  /**
   * The triangle containing (x, y), or -1 when no triangle does. Closed: a point on an edge or a
   * vertex is inside; when several triangles contain it, the lowest index wins.
   */
  locate(x: number, y: number): number {
    checkFinite('x', x);
    checkFinite('y', y);
    const { grid, corners, boxes } = this;
    if (!grid.covers(x, y)) return -1;
    const c = grid.cellAt(x, y);
    const { ids, start } = grid;
    for (let k = start[c]!, end = start[c + 1]!; k < end; k++) {
      const t = ids[k]!;
      // The box first: the cheapest rejection.
      const b = 4 * t;
      if (x < boxes[b]! || x > boxes[b + 2]! || y < boxes[b + 1]! || y > boxes[b + 3]!) continue;
      const o = 6 * t;
      if (
        triangleContainsPoint(
          corners[o]!,
          corners[o + 1]!,
          corners[o + 2]!,
          corners[o + 3]!,
          corners[o + 4]!,
          corners[o + 5]!,
          x,
          y,
        )
      ) {
        return t;
      }
    }
    return -1;
  }

  /**
   * The triangle nearest to (x, y) and the point of it nearest to (x, y), for snapping a point
   * outside the mesh onto it (inside, the containing triangle of `locate` at distance 0); null
   * for an empty mesh. Among triangles at equal distance the lowest index wins.
   */
  nearestTriangle(x: number, y: number): NearestTriangle | null {
    const p = this.point;
    const t = this.nearestTriangleInto(x, y, p);
    if (t < 0) return null;
    return { triangle: t, x: p[0]!, y: p[1]!, distance: this.nearestDistance };
  }

  /**
   * Allocation-free `nearestTriangle`: writes the nearest point to out[0], out[1] and returns the
   * triangle, or -1 for an empty mesh.
   */
  nearestTriangleInto(x: number, y: number, out: Float64Array | number[]): number {
    checkFinite('x', x);
    checkFinite('y', y);
    const { grid, q } = this;
    if (this.skipped.length === this.size) return -1;
    // Inside the mesh: the triangle of `locate`, decided exactly (a closest point computed for
    // another triangle can round to the point itself).
    const inside = this.locate(x, y);
    if (inside >= 0) {
      out[0] = x;
      out[1] = y;
      this.nearestTri = inside;
      this.nearestDistance = 0;
      return inside;
    }
    q[0] = x;
    q[1] = y;
    this.nextMark();
    this.nearestTri = -1;
    this.nearestDistance = INF;
    // Best-first over cells by their distance; a triangle's nearest point lies in a cell that
    // lists it, so once the next cell is farther than the best triangle, that one is the answer.
    grid.floodStart(POINT, q, 0);
    for (let c = grid.floodNext(POINT, q, 0, INF); c >= 0; ) {
      this.scanCell(c, CLOSEST, 0);
      c = grid.floodNext(POINT, q, 0, this.nearestDistance);
    }
    const near = this.nearest;
    out[0] = near[0]!;
    out[1] = near[1]!;
    return this.nearestTri;
  }

  /** Triangles whose exact shape meets the rectangle (closed), in ascending order. */
  search(rect: Rect): number[] {
    return Array.from(this.results.subarray(0, this.rectQuery(rect)));
  }

  /** Allocation-free `search`: writes the triangles to `out` and returns their count. */
  searchInto(rect: Rect, out: number[] | Int32Array): number {
    return this.copy(this.rectQuery(rect), out);
  }

  /** Triangles whose exact shape meets the segment (x1, y1)-(x2, y2), in ascending order. */
  searchSegment(x1: number, y1: number, x2: number, y2: number): number[] {
    return Array.from(this.results.subarray(0, this.segmentQuery(x1, y1, x2, y2)));
  }

  /** Allocation-free `searchSegment`: writes the triangles to `out` and returns their count. */
  searchSegmentInto(
    x1: number,
    y1: number,
    x2: number,
    y2: number,
    out: number[] | Int32Array,
  ): number {
    return this.copy(this.segmentQuery(x1, y1, x2, y2), out);
  }

  /**
   * The first triangle the segment from (x1, y1) to (x2, y2) meets and the distance to where it
   * enters it (0 when it starts inside), or null. Cells are visited along the segment, nearest
   * first, and the walk stops once the best hit is nearer than the next cell.
   */
  raycast(x1: number, y1: number, x2: number, y2: number): RayHit<number> | null {
    if (this.rayQuery(x1, y1, x2, y2, 1) === 0) return null;
    return { item: this.results[0]!, distance: this.rayDistance(0) };
  }

  /** Every triangle the segment meets, in order of distance (ties: ascending index). */
  raycastAll(x1: number, y1: number, x2: number, y2: number): RayHit<number>[] {
    const n = this.rayQuery(x1, y1, x2, y2, this.size);
    const hits = new Array<RayHit<number>>(n);
    for (let i = 0; i < n; i++) hits[i] = { item: this.results[i]!, distance: this.rayDistance(i) };
    return hits;
  }

  /**
   * Allocation-free ray cast: writes the first `k` hits, triangles to `items` and distances to
   * `distances`, and returns how many.
   */
  raycastInto(
    x1: number,
    y1: number,
    x2: number,
    y2: number,
    k: number,
    items: number[] | Int32Array,
    distances: number[] | Float64Array,
  ): number {
    const n = this.rayQuery(x1, y1, x2, y2, k);
    for (let i = 0; i < n; i++) {
      items[i] = this.results[i]!;
      distances[i] = this.rayDistance(i);
    }
    return n;
  }

  /**
   * Calls `callback(node)` for the grid's bounds (depth 0, count 0) and then for each non-empty
   * cell (depth 1, count = triangles meeting it); one object reused for every call.
   */
  visit(callback: VisitCallback): void {
    checkFunction('callback', callback);
    const { grid, view } = this;
    const { xs, ys, nx, ny, start } = grid;
    view.x = xs[0]!;
    view.y = ys[0]!;
    view.width = xs[nx]! - xs[0]!;
    view.height = ys[ny]! - ys[0]!;
    view.depth = 0;
    view.count = 0;
    if (callback(view) === true || this.skipped.length === this.size) return;
    for (let c = 0; c < nx * ny; c++) {
      const count = start[c + 1]! - start[c]!;
      if (count === 0) continue;
      const box = grid.cellBox(c);
      view.x = box[0]!;
      view.y = box[1]!;
      view.width = box[2]! - box[0]!;
      view.height = box[3]! - box[1]!;
      view.depth = 1;
      view.count = count;
      callback(view);
    }
  }

  /**
   * A small summary for `JSON.stringify` and logs: `{ kind: 'TriangleIndex', size, nodes, depth,
   * options: { skipDegenerate, skipped } }` (`nodes`: what `visit` reports), never the mesh.
   */
  toJSON(): IndexSummary<TriangleIndexSettings> {
    let nodes = 0;
    let depth = 0;
    this.visit((node) => {
      nodes++;
      depth = Math.max(depth, node.depth);
    });
    const options = { skipDegenerate: this.skipDegenerate, skipped: this.skipped.length };
    return { kind: 'TriangleIndex', size: this.size, nodes, depth, options };
  }

  // Triangles meeting the query rectangle, ascending, into `results`.
  private rectQuery(rect: Rect): number {
    const { grid, range, q } = this;
    readQueryRect(rect, q);
    if (!grid.span(q, 0, range)) return 0;
    this.nextMark();
    const nx = grid.nx;
    let n = 0;
    for (let r = range[1]!; r <= range[3]!; r++) {
      for (let c = r * nx + range[0]!, last = r * nx + range[2]!; c <= last; c++) {
        n = this.scanCell(c, MEETS_BOX, n);
      }
    }
    sortAscending(this.results, n);
    return n;
  }

  // Triangles meeting the segment, ascending, into `results`: a flood over the cells it crosses.
  private segmentQuery(x1: number, y1: number, x2: number, y2: number): number {
    const { grid, q } = this;
    this.stageSegment(x1, y1, x2, y2);
    this.nextMark();
    let n = 0;
    grid.floodStart(RAY, q, 0);
    for (let c = grid.floodNext(RAY, q, 0, 1); c >= 0; c = grid.floodNext(RAY, q, 0, 1)) {
      n = this.scanCell(c, MEETS_SEGMENT, n);
    }
    sortAscending(this.results, n);
    return n;
  }

  // The first k triangles along the segment into `results`, their entry parameters in best.keys.
  private rayQuery(x1: number, y1: number, x2: number, y2: number, k: number): number {
    const { grid, q, best } = this;
    this.stageSegment(x1, y1, x2, y2);
    checkInteger('k', k, 0, Number.MAX_SAFE_INTEGER);
    best.reset(searchK(k, this.size));
    if (best.k === 0) return 0;
    this.nextMark();
    grid.floodStart(RAY, q, 0);
    // Cells in order of where the segment enters them; stop once the k-th hit is nearer.
    for (;;) {
      const c = grid.floodNext(RAY, q, 0, best.full ? best.worst() : 1);
      if (c < 0) break;
      this.scanCell(c, ENTRY, 0);
    }
    return best.drain(this.results);
  }

  /**
   * Tests the triangles of cell c not yet seen in this query against the query in `q`:
   * MEETS_BOX (the box q[0..3]) and MEETS_SEGMENT (the segment q[0..3]) append the triangles met
   * to `results` from n and return the new count; ENTRY offers each triangle the segment meets to
   * `best`, keyed by where it enters; CLOSEST keeps the triangle nearest to (q[0], q[1]).
   */
  private scanCell(c: number, test: number, n: number): number {
    const { corners, boxes, marks, mark, results, q } = this;
    const { ids, start } = this.grid;
    const qa = q[0]!;
    const qb = q[1]!;
    const qc = q[2]!;
    const qd = q[3]!;
    for (let k = start[c]!, end = start[c + 1]!; k < end; k++) {
      const t = ids[k]!;
      if (marks[t] === mark) continue;
      marks[t] = mark;
      const o = 6 * t;
      const ax = corners[o]!;
      const ay = corners[o + 1]!;
      const bx = corners[o + 2]!;
      const by = corners[o + 3]!;
      const cx = corners[o + 4]!;
      const cy = corners[o + 5]!;
      if (test === MEETS_BOX) {
        // The box first: the cheapest rejection.
        const b = 4 * t;
        if (boxes[b]! > qc || boxes[b + 2]! < qa || boxes[b + 1]! > qd || boxes[b + 3]! < qb)
          continue;
        if (triangleIntersectsBox(ax, ay, bx, by, cx, cy, qa, qb, qc, qd)) results[n++] = t;
      } else if (test === MEETS_SEGMENT) {
        if (triangleIntersectsSegment(ax, ay, bx, by, cx, cy, qa, qb, qc, qd)) results[n++] = t;
      } else if (test === ENTRY) {
        const at = segmentTriangleEntry(ax, ay, bx, by, cx, cy, qa, qb, qc, qd);
        if (at >= 0) this.best.offer(t, at);
      } else {
        const point = this.point;
        const d = closestPointOnTriangle(ax, ay, bx, by, cx, cy, qa, qb, point);
        if (d < this.nearestDistance || (d === this.nearestDistance && t < this.nearestTri)) {
          this.nearestTri = t;
          this.nearestDistance = d;
          this.nearest[0] = point[0]!;
          this.nearest[1] = point[1]!;
        }
      }
    }
    return n;
  }

  // Validates a segment and puts it in the query array.
  private stageSegment(x1: number, y1: number, x2: number, y2: number): void {
    checkFinite('x1', x1);
    checkFinite('y1', y1);
    checkFinite('x2', x2);
    checkFinite('y2', y2);
    const q = this.q;
    q[0] = x1;
    q[1] = y1;
    q[2] = x2;
    q[3] = y2;
  }

  // The distance along the last ray of its i-th hit.
  private rayDistance(i: number): number {
    const t = this.best.keys[i]!;
    const q = this.q;
    return t === 0 ? 0 : t * Math.hypot(q[2]! - q[0]!, q[3]! - q[1]!);
  }

  // A fresh mark for "seen in this query" (triangles listed in several cells are tested once).
  private nextMark(): void {
    if (++this.mark === 0x7fffffff) {
      this.marks.fill(0);
      this.mark = 1;
    }
  }

  private copy(n: number, out: number[] | Int32Array): number {
    const results = this.results;
    for (let i = 0; i < n; i++) out[i] = results[i]!;
    return n;
  }
}

// Sorts a[0..n) ascending in place (Shell sort, Ciura's gaps: no allocation, fine for the short
// runs queries produce).
const GAPS = [701, 301, 132, 57, 23, 10, 4, 1];
function sortAscending(a: Int32Array, n: number): void {
  for (const gap of GAPS) {
    for (let i = gap; i < n; i++) {
      const v = a[i]!;
      let j = i;
      while (j >= gap && a[j - gap]! > v) {
        a[j] = a[j - gap]!;
        j -= gap;
      }
      a[j] = v;
    }
  }
}
