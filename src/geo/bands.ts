// Horizontal bands over a polygon's edges, so that a point-in-polygon test reads only the edges
// near the point's latitude instead of all of them: the "slab" decomposition of point location
// (Dobkin and Lipton, "Multidimensional searching problems", 1976), reduced to equal-height bands
// each listing the edges whose y-range meets it. An edge that meets the line y = q, or touches
// it, is in the band of q: the band of a value is floor((value − minY) × scale), monotone in the
// value under rounding, so band(edge's min y) <= band(q) <= band(edge's max y).

/** Edges per band, on average, that a part aims for; parts with fewer edges get no bands. */
const EDGES_PER_BAND = 4;
const MIN_EDGES = 16;

/**
 * The bands of every polygon part: part p has `count[p]` bands (0: none) from its min y
 * `minY[p]`, `scale[p]` bands per unit of y; band b of part p lists the edges (by their first
 * vertex v: the edge v → v + 1) `edges[offsets[first[p] + b] .. offsets[first[p] + b + 1])`.
 */
export interface Bands {
  readonly count: Int32Array;
  readonly first: Int32Array;
  readonly minY: Float64Array;
  readonly scale: Float64Array;
  readonly offsets: Int32Array;
  readonly edges: Int32Array;
}

/**
 * Builds the bands of the polygon parts (`isPolygon(p)`) whose rings are [partRing[p],
 * partRing[p + 1]) of ringStart, over the vertices xy, with part bounds `box`.
 */
export function buildBands(
  count: number,
  isPolygon: (p: number) => boolean,
  partRing: Int32Array,
  ringStart: Int32Array,
  xy: Float64Array,
  box: Float64Array,
): Bands {
  const bandCount = new Int32Array(count);
  const first = new Int32Array(count);
  const minY = new Float64Array(count);
  const scale = new Float64Array(count);
  // Phase 1: how many bands each part gets.
  let total = 0;
  for (let p = 0; p < count; p++) {
    first[p] = total;
    const edges =
      ringStart[partRing[p + 1]!]! - ringStart[partRing[p]!]! - (partRing[p + 1]! - partRing[p]!);
    const height = box[4 * p + 3]! - box[4 * p + 1]!;
    if (!isPolygon(p) || edges < MIN_EDGES || !(height > 0)) continue;
    const n = Math.ceil(edges / EDGES_PER_BAND);
    bandCount[p] = n;
    minY[p] = box[4 * p + 1]!;
    scale[p] = n / height;
    total += n;
  }
  // Phase 2: count the edges of each band, then place them (counting sort).
  const offsets = new Int32Array(total + 1);
  const each = (visit: (band: number, v: number) => void): void => {
    for (let p = 0; p < count; p++) {
      const n = bandCount[p]!;
      if (n === 0) continue;
      for (let r = partRing[p]!; r < partRing[p + 1]!; r++) {
        for (let v = ringStart[r]!; v < ringStart[r + 1]! - 1; v++) {
          const y1 = xy[2 * v + 1]!;
          const y2 = xy[2 * v + 3]!;
          const lo = bandOf(y1 < y2 ? y1 : y2, minY[p]!, scale[p]!, n);
          const hi = bandOf(y1 < y2 ? y2 : y1, minY[p]!, scale[p]!, n);
          for (let b = lo; b <= hi; b++) visit(first[p]! + b, v);
        }
      }
    }
  };
  each((band) => offsets[band + 1]!++);
  for (let b = 0; b < total; b++) offsets[b + 1]! += offsets[b]!;
  const edges = new Int32Array(offsets[total]!);
  const fill = offsets.slice(0, total);
  each((band, v) => {
    edges[fill[band]!++] = v;
  });
  return { count: bandCount, first, minY, scale, offsets, edges };
}

/** The band of y among n bands from minY at `scale` bands per unit (clamped to the bands). */
export function bandOf(y: number, minY: number, scale: number, n: number): number {
  const b = Math.floor((y - minY) * scale);
  return b < 0 ? 0 : b >= n ? n - 1 : b;
}
