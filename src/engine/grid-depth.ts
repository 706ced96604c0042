// How GridLooseQuadtree chooses its depth when the user does not pin it: from a sample of the
// items, the finest cells are sized so that each holds about ITEMS_PER_CELL items of the area the
// items cover, and made at most one level finer than the median item (and at most about 4n
// finest cells). A grid that is too fine
// pays for cells (walks, row sweeps) that hold one item or none; one that is too coarse sweeps
// long rows of items that cannot overlap. The sweep of scenes in bench/workloads/depth.js
// (world aspects, box sizes, densities, clustering, speeds, 1k to 200k boxes) measured the best
// fixed depth of each scene within one level of this choice.

/** Items per finest cell the chosen depth aims at. */
const ITEMS_PER_CELL = 32;
/** The deepest grid. */
export const DEPTH_LIMIT = 10;
/** Boxes sampled to choose a depth. */
export const SAMPLE = 256;

/** A depth choice from a sample of boxes, and when to make it again. */
export class DepthChooser {
  /** The sample: 4 numbers per box. */
  readonly boxes = new Float64Array(4 * SAMPLE);
  /** Scratch for the median size (unused entries stay at Infinity). */
  private readonly sizes = new Float64Array(SAMPLE);
  /** Choose again when the item count reaches `grow` or falls below `shrink`... */
  grow = 0;
  shrink = 0;
  /** ...and, when moves change the items, after `countdown` more moves. */
  countdown = 0;

  /**
   * The ideal depth (not rounded) for n items of which the first m boxes of `boxes` are a
   * sample, in a world of side `side`.
   */
  ideal(n: number, side: number, m: number): number {
    if (n === 0 || m === 0) return 0;
    const { boxes, sizes } = this;
    let x0 = Number.POSITIVE_INFINITY;
    let y0 = Number.POSITIVE_INFINITY;
    let x1 = Number.NEGATIVE_INFINITY;
    let y1 = Number.NEGATIVE_INFINITY;
    sizes.fill(Number.POSITIVE_INFINITY);
    for (let k = 0; k < m; k++) {
      const a = boxes[4 * k]!;
      const b = boxes[4 * k + 1]!;
      const c = boxes[4 * k + 2]!;
      const d = boxes[4 * k + 3]!;
      if (a < x0) x0 = a;
      if (b < y0) y0 = b;
      if (c > x1) x1 = c;
      if (d > y1) y1 = d;
      sizes[k] = Math.max(c - a, d - b);
    }
    sizes.sort();
    const median = sizes[m >> 1]!;
    // The area the items cover (at least a median item, or a 1/1024 of the world, per side).
    const floor = Math.max(median, side / 1024);
    const w = Math.max(x1 - x0, floor);
    const h = Math.max(y1 - y0, floor);
    const cell = Math.sqrt((w * h * ITEMS_PER_CELL) / n);
    let depth = Math.log2(side / cell);
    if (median > 0) depth = Math.min(depth, Math.log2(side / median) + 1);
    // At most about 4n finest cells, whatever the density (one item, coincident points).
    depth = Math.min(depth, 1 + Math.log2(n) / 2);
    return Math.max(0, Math.min(DEPTH_LIMIT, depth));
  }

  /**
   * Sets when to choose again, after a choice for n > 0 items: when the count doubles or falls
   * below a quarter.
   */
  chosen(n: number): void {
    this.grow = 2 * n;
    this.shrink = n >> 2;
    this.countdown = Math.max(n, 1024);
  }

  /** Forgets the last choice, as when the index is empty: the next item or load chooses. */
  reset(): void {
    this.grow = 0;
    this.shrink = 0;
    this.countdown = 0;
  }

  /** Samples up to SAMPLE of `count` boxes (4 numbers each in `src`); returns how many. */
  sampleArray(src: Float64Array, count: number): number {
    const m = Math.min(count, SAMPLE);
    const { boxes } = this;
    for (let k = 0; k < m; k++) {
      const i = 4 * samplePosition(k, count);
      boxes[4 * k] = src[i]!;
      boxes[4 * k + 1] = src[i + 1]!;
      boxes[4 * k + 2] = src[i + 2]!;
      boxes[4 * k + 3] = src[i + 3]!;
    }
    return m;
  }
}

/**
 * The k-th position of a sample of [0, count): the golden-ratio sequence, spread evenly without
 * a period that items laid out in a repeating pattern (every 20th in one cluster) could alias.
 */
export function samplePosition(k: number, count: number): number {
  const f = (k + 0.5) * 0.6180339887498949;
  return Math.floor((f - Math.floor(f)) * count);
}

/** The depth to use for an ideal depth `ideal`, with the grid now at `depth`: kept within one level. */
export function nextDepth(ideal: number, depth: number): number {
  return Math.abs(ideal - depth) < 1 ? depth : Math.round(ideal);
}
