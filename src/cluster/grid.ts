// A grid over fixed-point points (see mercator.ts), built once per zoom level by a counting sort.
// Cells fold onto an R x R table of buckets (R a power of two, R * R >= n): cell (gx, gy) lands
// in bucket (gy mod R, gx mod R), so a level of any extent and cell size needs O(n) memory, and
// the cells of one row of a query, being neighbours, are neighbouring buckets whose points lie
// next to each other in memory: a radius query reads one run of points per row of cells.
// Cells that share a bucket are told apart by the exact distance or box test; a query that spans
// fewer than R cells per axis reads each bucket at most once. Spatial hashing for neighbour
// queries: Teschner et al., "Optimized Spatial Hashing for Collision Detection of Deformable
// Objects" (VMV 2003); folding (modulo) rather than scrambling keeps the rows contiguous.

import { HALF } from './mercator.js';

/** A grid of points: bucket b holds the points order[starts[b]] .. order[starts[b+1]-1]. */
export interface CellGrid {
  /** Cell side in fixed-point units, and its inverse. */
  readonly cell: number;
  readonly inv: number;
  /** log2(R), and R - 1. */
  readonly bits: number;
  readonly mask: number;
  readonly starts: Int32Array;
  /** Point indices in bucket order, and their coordinates (x, y interleaved) in the same order. */
  readonly order: Int32Array;
  readonly xy: Int32Array;
}

/**
 * Buckets points `0..n-1` of `x`, `y` by cells of side `cell` (fixed-point units, >= 1).
 * @param x - fixed-point x per point.
 * @param y - fixed-point y per point.
 * @param n - the number of points.
 * @param cell - the cell side.
 * @param work - scratch with room for n entries (it receives each point's bucket).
 */
export function buildGrid(
  x: Int32Array,
  y: Int32Array,
  n: number,
  cell: number,
  work: Int32Array,
): CellGrid {
  // Phase 1: R >= 8 with R * R >= n, each point's bucket, and the bucket sizes.
  let bits = 3;
  while (1 << (2 * bits) < n && bits < 15) bits++;
  const mask = (1 << bits) - 1;
  const size = 1 << (2 * bits);
  const inv = 1 / cell;
  const starts = new Int32Array(size + 1);
  for (let i = 0; i < n; i++) {
    const gx = Math.floor((x[i]! + HALF) * inv) & mask;
    const gy = Math.floor((y[i]! + HALF) * inv) & mask;
    const b = (gy << bits) | gx;
    work[i] = b;
    starts[b]!++;
  }
  // Phase 2: each bucket's start, then scatter the points (and their coordinates) to their
  // buckets, which leaves starts[b] at bucket b's end: shifted by one, that is b + 1's start.
  let sum = 0;
  for (let b = 0; b < size; b++) {
    const count = starts[b]!;
    starts[b] = sum;
    sum += count;
  }
  const order = new Int32Array(n);
  const xy = new Int32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const k = starts[work[i]!]!++;
    order[k] = i;
    xy[2 * k] = x[i]!;
    xy[2 * k + 1] = y[i]!;
  }
  starts.copyWithin(1, 0, size);
  starts[0] = 0;
  return { cell, inv, bits, mask, starts, order, xy };
}

// Scratch of rowRuns: up to two [from, to) runs of points.
const RUNS = new Int32Array(4);

// The points of the cells x0..x1 (folded columns) of row gy: one run, or two when the row folds
// over the table's edge; writes them to RUNS and returns how many.
function rowRuns(g: CellGrid, gy: number, x0: number, x1: number): number {
  const { starts, mask } = g;
  const row = (gy & mask) << g.bits;
  RUNS[0] = starts[row + x0]!;
  if (x0 <= x1) {
    RUNS[1] = starts[row + x1 + 1]!;
    return 1;
  }
  RUNS[1] = starts[row + mask + 1]!;
  RUNS[2] = starts[row]!;
  RUNS[3] = starts[row + x1 + 1]!;
  return 2;
}

/**
 * Writes into `out` the indices of the points within distance `r` of (qx, qy) (squared distance
 * <= r * r, exactly), each once; returns how many. Needs r <= 3 * cell (at most 7 cells a side).
 * @param g - the grid.
 * @param qx - the centre's fixed-point x.
 * @param qy - the centre's fixed-point y.
 * @param r - the radius in fixed-point units.
 * @param out - receives point indices (room for every point).
 */
export function withinInto(
  g: CellGrid,
  qx: number,
  qy: number,
  r: number,
  out: Int32Array,
): number {
  const { inv, mask, order, xy } = g;
  const r2 = r * r;
  const x0 = Math.floor((qx - r + HALF) * inv) & mask;
  const x1 = Math.floor((qx + r + HALF) * inv) & mask;
  const gy0 = Math.floor((qy - r + HALF) * inv);
  const gy1 = Math.floor((qy + r + HALF) * inv);
  let count = 0;
  for (let gy = gy0; gy <= gy1; gy++) {
    const runs = 2 * rowRuns(g, gy, x0, x1);
    for (let t = 0; t < runs; t += 2) {
      const to = RUNS[t + 1]!;
      for (let k = RUNS[t]!; k < to; k++) {
        const dx = xy[2 * k]! - qx;
        const dy = xy[2 * k + 1]! - qy;
        if (dx * dx + dy * dy <= r2) out[count++] = order[k]!;
      }
    }
  }
  return count;
}

/**
 * Writes into `out` the indices of the points with minX <= x <= maxX and minY <= y <= maxY
 * (fixed-point), each once, and returns how many: through the cells of the box, or by one pass
 * over all points when the box spans R cells or more on an axis, or more cells than points.
 * @param g - the grid.
 * @param minX - the box's fixed-point minimum x.
 * @param minY - the box's minimum y.
 * @param maxX - the box's maximum x.
 * @param maxY - the box's maximum y.
 * @param out - receives point indices (room for every point).
 */
export function rangeInto(
  g: CellGrid,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  out: Int32Array,
): number {
  const { inv, mask, order, xy } = g;
  const n = order.length;
  let count = 0;
  if (!(minX <= maxX && minY <= maxY) || n === 0) return count;
  const gx0 = Math.floor((minX + HALF) * inv);
  const gx1 = Math.floor((maxX + HALF) * inv);
  const gy0 = Math.floor((minY + HALF) * inv);
  const gy1 = Math.floor((maxY + HALF) * inv);
  const wide = gx1 - gx0 > mask || gy1 - gy0 > mask || (gx1 - gx0 + 1) * (gy1 - gy0 + 1) > n;
  // Row by row through the cells (runs as in withinInto), or one pass over every point.
  for (let gy = wide ? 0 : gy0; gy <= (wide ? 0 : gy1); gy++) {
    let runs = 2;
    if (wide) {
      RUNS[0] = 0;
      RUNS[1] = n;
    } else runs = 2 * rowRuns(g, gy, gx0 & mask, gx1 & mask);
    for (let t = 0; t < runs; t += 2) {
      const to = RUNS[t + 1]!;
      for (let k = RUNS[t]!; k < to; k++) {
        const x = xy[2 * k]!;
        const y = xy[2 * k + 1]!;
        if (x >= minX && x <= maxX && y >= minY && y <= maxY) out[count++] = order[k]!;
      }
    }
  }
  return count;
}
