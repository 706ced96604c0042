// A uniform grid of closed cells over a fixed set of shapes, in compressed-row form: each cell
// lists the shapes that meet it, in ascending order. Cell edges are stored, not recomputed:
// neighbouring cells share the very same edge value, and a point is looked up by an estimate
// that is then corrected against the stored edges, so a point always lands in a cell that
// really contains it, whatever the rounding.
//
// Walks other than a point lookup are best-first floods from a start cell: cells leave a queue in
// order of their key (`boxKey`: distance from a point, or where a segment enters), and each one
// pushes its four neighbours. The cells within any key form a 4-connected region around the start
// (for a segment: the cells it crosses, in order), so the flood meets them all, nearest first.

import { NodeQueue } from './queue.js';
import { boxKey, POINT } from './scan.js';

const INF = Number.POSITIVE_INFINITY;
// Cells' keys are shaded by a few ulps, so that rounding never ranks a cell behind a shape in it.
const CELL_SHADE = 1 - 2 ** -50;

/** The lowest i in [0, n) with edges[i] <= v <= edges[i + 1], from a first estimate. */
function lookup(edges: Float64Array, n: number, v: number, estimate: number): number {
  let i = estimate < 0 ? 0 : estimate >= n ? n - 1 : estimate | 0;
  while (i > 0 && v <= edges[i]!) i--;
  while (i < n - 1 && v > edges[i + 1]!) i++;
  return i;
}

/** The edges of n equal cells from lo to hi: lo + i·(hi − lo)/n, the last exactly hi. */
function edgesOf(lo: number, hi: number, n: number): Float64Array {
  const edges = new Float64Array(n + 1);
  const w = (hi - lo) / n;
  for (let i = 0; i < n; i++) edges[i] = lo + i * w;
  edges[n] = hi;
  return edges;
}

/** A grid of nx × ny closed cells listing the shapes that meet each, for lookups and floods. */
export class BinGrid {
  readonly nx: number;
  readonly ny: number;
  /** Cell edges: x of columns, y of rows. */
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  /** The shapes of cell c are ids[start[c] .. start[c + 1]), ascending. */
  readonly start: Int32Array;
  readonly ids: Int32Array;
  private readonly sx: number;
  private readonly sy: number;
  private readonly queue = new NodeQueue();
  private readonly seen: Int32Array;
  private stamp = 0;
  /** Scratch for a cell's box. */
  readonly cell = new Float64Array(4);

  /**
   * Lays a grid over `bounds` (minX, minY, maxX, maxY) with about `cells` cells and lists in each
   * the shapes (boxes in `boxes`, 4 numbers each) for which `meets(id, cellBox)` holds.
   */
  constructor(
    bounds: Float64Array,
    boxes: Float64Array,
    count: number,
    cells: number,
    meets: (id: number, cell: Float64Array) => boolean,
  ) {
    const [minX, minY, maxX, maxY] = bounds as unknown as [number, number, number, number];
    const w = maxX - minX;
    const h = maxY - minY;
    // Square cells where the bounds allow, about `cells` of them.
    const side = Math.sqrt((w * h) / Math.max(cells, 1));
    const nx = side > 0 ? Math.min(Math.max(Math.round(w / side), 1), 4096) : 1;
    const ny = side > 0 ? Math.min(Math.max(Math.round(h / side), 1), 4096) : 1;
    this.nx = nx;
    this.ny = ny;
    this.xs = edgesOf(minX, maxX, nx);
    this.ys = edgesOf(minY, maxY, ny);
    this.sx = w > 0 ? nx / w : 0;
    this.sy = h > 0 ? ny / h : 0;
    this.seen = new Int32Array(nx * ny);

    // Count the shapes of each cell among the cells their boxes span, then fill in id order.
    const start = new Int32Array(nx * ny + 1);
    const hits: number[] = [];
    for (let id = 0; id < count; id++) {
      const i = 4 * id;
      if (!(boxes[i]! <= boxes[i + 2]!)) continue; // a skipped shape has an empty box
      const i0 = this.column(boxes[i]!);
      const i1 = this.lastColumn(boxes[i + 2]!);
      const j0 = this.row(boxes[i + 1]!);
      const j1 = this.lastRow(boxes[i + 3]!);
      for (let r = j0; r <= j1; r++) {
        for (let c = i0; c <= i1; c++) {
          if (meets(id, this.cellBox(r * nx + c))) {
            start[r * nx + c + 1]!++;
            hits.push(id, r * nx + c);
          }
        }
      }
    }
    for (let c = 0; c < nx * ny; c++) start[c + 1]! += start[c]!;
    const ids = new Int32Array(start[nx * ny]!);
    const fill = start.slice(0, nx * ny);
    for (let k = 0; k < hits.length; k += 2) ids[fill[hits[k + 1]!]!++] = hits[k]!;
    this.start = start;
    this.ids = ids;
  }

  /** The lowest column whose closed x-range contains x (clamped to the grid). */
  column(x: number): number {
    return lookup(this.xs, this.nx, x, Math.floor((x - this.xs[0]!) * this.sx));
  }

  /** The lowest row whose closed y-range contains y (clamped to the grid). */
  row(y: number): number {
    return lookup(this.ys, this.ny, y, Math.floor((y - this.ys[0]!) * this.sy));
  }

  // The highest column or row containing the value: the next one too when it lies on their edge.
  private lastColumn(x: number): number {
    const i = this.column(x);
    return i < this.nx - 1 && x === this.xs[i + 1] ? i + 1 : i;
  }

  private lastRow(y: number): number {
    const j = this.row(y);
    return j < this.ny - 1 && y === this.ys[j + 1] ? j + 1 : j;
  }

  /** Whether (x, y) lies in the grid's closed bounds. */
  covers(x: number, y: number): boolean {
    const { xs, ys, nx, ny } = this;
    return x >= xs[0]! && x <= xs[nx]! && y >= ys[0]! && y <= ys[ny]!;
  }

  /** The cell containing (x, y), which must lie in the grid. */
  cellAt(x: number, y: number): number {
    return this.row(y) * this.nx + this.column(x);
  }

  /** Writes the closed box of cell c into `cell` (minX, minY, maxX, maxY) and returns it. */
  cellBox(c: number): Float64Array {
    const { xs, ys, nx, cell } = this;
    const i = c % nx;
    const j = (c - i) / nx;
    cell[0] = xs[i]!;
    cell[1] = ys[j]!;
    cell[2] = xs[i + 1]!;
    cell[3] = ys[j + 1]!;
    return cell;
  }

  /**
   * Writes into [lo, hi] of `range` the columns and rows of the cells that the box
   * (minX, minY, maxX, maxY) = q[qi..qi+3] meets: range = [c0, r0, c1, r1]; returns false when it
   * misses the grid.
   */
  span(q: Float64Array, qi: number, range: Int32Array): boolean {
    const { xs, ys, nx, ny } = this;
    if (q[qi]! > xs[nx]! || q[qi + 2]! < xs[0]! || q[qi + 1]! > ys[ny]! || q[qi + 3]! < ys[0]!) {
      return false;
    }
    range[0] = this.column(q[qi]!);
    range[1] = this.row(q[qi + 1]!);
    range[2] = this.lastColumn(q[qi + 2]!);
    range[3] = this.lastRow(q[qi + 3]!);
    return true;
  }

  /**
   * Starts a flood under `metric` for the query q[qi..qi+3] (see `boxKey`): from the cell nearest
   * the point, or, for a segment, from the cells around where it enters the grid.
   */
  floodStart(metric: number, q: Float64Array, qi: number): void {
    const { queue, nx, ny, xs, ys } = this;
    queue.clear();
    if (++this.stamp === 0x7fffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    const a = q[qi]!;
    const b = q[qi + 1]!;
    if (metric === POINT) {
      this.offer(metric, this.cellAt(a, b), q, qi);
      return;
    }
    const c = q[qi + 2]!;
    const d = q[qi + 3]!;
    const t = boxKey(metric, xs[0]!, ys[0]!, xs[nx]!, ys[ny]!, a, b, c, d);
    if (t === INF) return;
    // The entry point, rounded; the cells around it, of which the segment meets at least one
    // unless rounding was extreme, and then every cell it meets.
    const col = this.column(a + t * (c - a));
    const row = this.row(b + t * (d - b));
    for (let j = Math.max(row - 1, 0); j <= Math.min(row + 1, ny - 1); j++) {
      for (let i = Math.max(col - 1, 0); i <= Math.min(col + 1, nx - 1); i++) {
        this.offer(metric, j * nx + i, q, qi);
      }
    }
    if (queue.length === 0) for (let k = 0; k < nx * ny; k++) this.offer(metric, k, q, qi);
  }

  /**
   * The next cell of the flood with a key at most `bound`, its neighbours queued, or -1 when there
   * is none.
   */
  floodNext(metric: number, q: Float64Array, qi: number, bound: number): number {
    const { queue, nx, ny } = this;
    if (queue.length === 0 || queue.peekKey() > bound) return -1;
    const c = queue.pop();
    const i = c % nx;
    if (i > 0) this.offer(metric, c - 1, q, qi);
    if (i < nx - 1) this.offer(metric, c + 1, q, qi);
    if (c >= nx) this.offer(metric, c - nx, q, qi);
    if (c < nx * (ny - 1)) this.offer(metric, c + nx, q, qi);
    return c;
  }

  // Queues cell c with its key, once per flood, unless the query misses it.
  private offer(metric: number, c: number, q: Float64Array, qi: number): void {
    if (this.seen[c] === this.stamp) return;
    this.seen[c] = this.stamp;
    const box = this.cellBox(c);
    const key = boxKey(
      metric,
      box[0]!,
      box[1]!,
      box[2]!,
      box[3]!,
      q[qi]!,
      q[qi + 1]!,
      q[qi + 2]!,
      q[qi + 3]!,
    );
    if (key !== INF) this.queue.push(c, key * CELL_SHADE);
  }
}
