// The Barnes–Hut tree behind quadkit/force: a point quadtree rebuilt every tick into typed arrays
// allocated once, its nodes charged bottom-up, then walked once per body without recursion.
//
// - Barnes & Hut, "A hierarchical O(N log N) force-calculation algorithm", Nature 324 (1986): a
//   far cell acts as one body at its centre of charge. The opening rule, the centre of charge
//   (children weighted by the absolute value of their charge), distanceMin/distanceMax and the
//   jiggle of coincident bodies follow d3-force's forceManyBody (M. Bostock), so that the force
//   means the same: a cell of width w is far from a body at squared distance l when
//   w * w / theta² < l.
// - The root cell is d3-quadtree's: its corner the floor of the smallest coordinates, its width
//   the smallest power of two that covers the bodies; cells split at their midpoints, children
//   in d3's order (x low, y low first; bit 0 for x >= midpoint, bit 1 for y >= midpoint). So the
//   cells are d3's, except that a cell with one non-empty quadrant is not kept (its only child
//   stands for it: same charge, same centre, so the same answers) and that a leaf holds up to
//   LEAF bodies (its bodies are summed exactly when it is near, where d3 would open smaller
//   cells and might approximate some).
// - Nodes are stored in pre-order with, for each, the position after its subtree (`skip`): the
//   walk is a loop `k = far ? skip[k] : k + 1`, with neither stack nor recursion.
// - Bodies are partitioned in place (two Hoare partitions per split: by y, then each half by x),
//   and each leaf's bodies sorted in the order d3's walk would meet them: bodies at exactly the
//   same point end up adjacent, and such a group acts as d3's coincident leaf (one jiggle per
//   group and axis, its total charge at one point), the jiggles drawn in d3's order.

/** Bodies a leaf holds before it splits. */
const LEAF = 8;

/** Preallocated arrays of a charge tree; their identity never changes between builds of the
 * same or fewer bodies. */
export class ChargeTree {
  /** Body capacity. */
  capacity = 0;
  /** Bodies in the last build. */
  n = 0;
  /** Nodes in the last build. */
  nodes = 0;
  // Bodies in input order: position and charge (filled by the caller).
  bx = new Float64Array(0);
  by = new Float64Array(0);
  bs = new Float64Array(0);
  // Bodies in tree order: position, charge, input index.
  sx = new Float64Array(0);
  sy = new Float64Array(0);
  ss = new Float64Array(0);
  sid = new Int32Array(0);
  // At the first body of each group of bodies at one point in a leaf: the group's end and charge.
  groupEnd = new Int32Array(0);
  groupCharge = new Float64Array(0);
  // Nodes in pre-order: body range [lo, hi), position after the subtree, parent, cell (x0, y0,
  // width), charge, centre of charge, and the squared width over theta² (the opening test).
  lo = new Int32Array(0);
  hi = new Int32Array(0);
  skip = new Int32Array(0);
  parent = new Int32Array(0);
  cellX = new Float64Array(0);
  cellY = new Float64Array(0);
  cellW = new Float64Array(0);
  charge = new Float64Array(0);
  cx = new Float64Array(0);
  cy = new Float64Array(0);
  crit = new Float64Array(0);
  /** Sum of |charge| of the children, while charging. */
  private weight = new Float64Array(0);
  // The build's stack of cells: body range, parent, corner and width.
  private stackI = new Int32Array(0);
  private stackF = new Float64Array(0);

  /** Makes room for n bodies (a no-op when there is room: the arrays are kept). */
  reserve(n: number): void {
    if (n <= this.capacity) return;
    const c = n;
    const m = 2 * c + 1;
    this.capacity = c;
    this.bx = new Float64Array(c);
    this.by = new Float64Array(c);
    this.bs = new Float64Array(c);
    this.sx = new Float64Array(c);
    this.sy = new Float64Array(c);
    this.ss = new Float64Array(c);
    this.sid = new Int32Array(c);
    this.groupEnd = new Int32Array(c);
    this.groupCharge = new Float64Array(c);
    this.lo = new Int32Array(m);
    this.hi = new Int32Array(m);
    this.skip = new Int32Array(m);
    this.parent = new Int32Array(m);
    this.cellX = new Float64Array(m);
    this.cellY = new Float64Array(m);
    this.cellW = new Float64Array(m);
    this.charge = new Float64Array(m);
    this.cx = new Float64Array(m);
    this.cy = new Float64Array(m);
    this.crit = new Float64Array(m);
    this.weight = new Float64Array(m);
    this.stackI = new Int32Array(3 * m);
    this.stackF = new Float64Array(3 * m);
  }

  /**
   * Builds the tree over bodies [0, n) of bx, by, bs (finite positions, checked by the caller)
   * and charges it; theta2 is theta², read by the opening test.
   */
  build(n: number, theta2: number): void {
    this.n = n;
    this.nodes = 0;
    if (n === 0) return;
    // Bodies into tree order; the root cell as d3-quadtree's cover() makes it.
    const { bx, by, bs, sx, sy, ss, sid } = this;
    let minX = bx[0]!;
    let minY = by[0]!;
    let maxX = minX;
    let maxY = minY;
    for (let i = 0; i < n; i++) {
      const x = bx[i]!;
      const y = by[i]!;
      sx[i] = x;
      sy[i] = y;
      ss[i] = bs[i]!;
      sid[i] = i;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    const x0 = Math.floor(minX);
    const y0 = Math.floor(minY);
    let w = 1;
    while (x0 + w <= maxX || y0 + w <= maxY) w *= 2;
    this.split(x0, y0, w);
    this.charges(theta2);
  }

  // Top-down: cells popped from the stack become nodes in pre-order; a cell with more than LEAF
  // bodies, not all at one point, is partitioned into its quadrants, shrunk while only one of
  // them holds bodies.
  private split(rootX: number, rootY: number, rootW: number): void {
    const { stackI, stackF, lo, hi, parent, cellX, cellY, cellW, sx, sy } = this;
    let sp = 0;
    stackI[0] = 0;
    stackI[1] = this.n;
    stackI[2] = -1;
    stackF[0] = rootX;
    stackF[1] = rootY;
    stackF[2] = rootW;
    sp = 1;
    let k = 0;
    while (sp > 0) {
      sp--;
      const a = stackI[3 * sp]!;
      const b = stackI[3 * sp + 1]!;
      let x0 = stackF[3 * sp]!;
      let y0 = stackF[3 * sp + 1]!;
      let w = stackF[3 * sp + 2]!;
      lo[k] = a;
      hi[k] = b;
      parent[k] = stackI[3 * sp + 2]!;
      // Split (or shrink) until two quadrants hold bodies, or this is a leaf.
      let leaf = b - a <= LEAF;
      let alike = false;
      let m1 = 0;
      let m0 = 0;
      let m2 = 0;
      while (!leaf) {
        const xm = (x0 + (x0 + w)) / 2;
        const ym = (y0 + (y0 + w)) / 2;
        if (!(xm > x0 && xm < x0 + w && ym > y0 && ym < y0 + w)) {
          leaf = true;
          break;
        }
        m1 = partition(this, sy, a, b, ym);
        m0 = partition(this, sx, a, m1, xm);
        m2 = partition(this, sx, m1, b, xm);
        const filled = +(m0 > a) + +(m1 > m0) + +(m2 > m1) + +(b > m2);
        if (filled > 1) break;
        if (coincident(sx, sy, a, b)) {
          leaf = true;
          alike = true;
          break;
        }
        // One quadrant holds them all: it stands for this cell.
        w /= 2;
        if (m1 === b) {
          if (m0 === a) x0 = xm;
        } else {
          y0 = ym;
          if (m2 === m1) x0 = xm;
        }
      }
      cellX[k] = x0;
      cellY[k] = y0;
      cellW[k] = w;
      if (leaf) {
        if (!alike && b - a > 1) sortLeaf(this, a, b, x0, y0, w);
      } else {
        // Children pushed last first, so that they come out (and are numbered) in d3's order.
        const xm = (x0 + (x0 + w)) / 2;
        const ym = (y0 + (y0 + w)) / 2;
        const h = w / 2;
        sp = push(stackI, stackF, sp, m2, b, k, xm, ym, h);
        sp = push(stackI, stackF, sp, m1, m2, k, x0, ym, h);
        sp = push(stackI, stackF, sp, m0, m1, k, xm, y0, h);
        sp = push(stackI, stackF, sp, a, m0, k, x0, y0, h);
      }
      k++;
    }
    this.nodes = k;
  }

  // Bottom-up (reverse pre-order visits children before parents): each node's charge, centre of
  // charge and subtree end; a leaf's centre weighs its groups of coincident bodies, an inner
  // node's its children, each by the absolute value of its charge (as d3-force's accumulate).
  private charges(theta2: number): void {
    const { lo, hi, skip, parent, cellW, charge, cx, cy, crit, weight, sx, sy, ss } = this;
    const { groupEnd, groupCharge } = this;
    const count = this.nodes;
    for (let k = 0; k < count; k++) {
      skip[k] = 1;
      charge[k] = 0;
      weight[k] = 0;
      cx[k] = 0;
      cy[k] = 0;
    }
    for (let k = count - 1; k >= 0; k--) {
      const size = skip[k]!;
      if (size === 1) {
        // A leaf: its groups of bodies at one point.
        const b = hi[k]!;
        let q = 0;
        let c = 0;
        let x = 0;
        let y = 0;
        for (let j = lo[k]!; j < b; ) {
          const gx = sx[j]!;
          const gy = sy[j]!;
          let v = ss[j]!;
          let e = j + 1;
          while (e < b && sx[e] === gx && sy[e] === gy) v += ss[e++]!;
          groupEnd[j] = e;
          groupCharge[j] = v;
          const a = Math.abs(v);
          q += v;
          c += a;
          x += a * gx;
          y += a * gy;
          j = e;
        }
        charge[k] = q;
        cx[k] = c > 0 ? x / c : sx[lo[k]!]!;
        cy[k] = c > 0 ? y / c : sy[lo[k]!]!;
      } else {
        const c = weight[k]!;
        cx[k] = cx[k]! / c;
        cy[k] = cy[k]! / c;
      }
      const w = cellW[k]!;
      crit[k] = (w * w) / theta2;
      const p = parent[k]!;
      skip[k] = k + size;
      if (p < 0) continue;
      skip[p] += size;
      const q = charge[k]!;
      const a = Math.abs(q);
      if (a === 0) continue;
      charge[p] += q;
      weight[p] += a;
      cx[p] += a * cx[k]!;
      cy[p] += a * cy[k]!;
    }
  }
}

/**
 * Writes into out[0], out[1] the force on body i (input order) of every other body, as d3-force's
 * forceManyBody applies it with alpha = 1: far cells as one body, near leaves body by body, a
 * squared distance below dmin2 raised to sqrt(dmin2 * l), bodies at dmax2 or beyond ignored, and
 * an axis distance of exactly 0 replaced by a jiggle drawn from `random`.
 */
export function forceOn(
  t: ChargeTree,
  i: number,
  dmin2: number,
  dmax2: number,
  random: () => number,
  out: Float64Array,
): void {
  const { skip, charge, cx, cy, crit, lo, hi, sx, sy, ss, sid, groupEnd, groupCharge } = t;
  const x = t.bx[i]!;
  const y = t.by[i]!;
  const count = t.nodes;
  let fx = 0;
  let fy = 0;
  let k = 0;
  while (k < count) {
    const q = charge[k]!;
    const next = skip[k]!;
    // A cell of no charge is skipped whole (as d3 does).
    if (q === 0) {
      k = next;
      continue;
    }
    let dx = cx[k]! - x;
    let dy = cy[k]! - y;
    let l = dx * dx + dy * dy;
    if (crit[k]! < l) {
      // Far: the cell as one body at its centre of charge.
      if (l < dmax2) {
        closeRule(dx, dy, l, dmin2, random, pair);
        fx += (pair[0]! * q) / pair[2]!;
        fy += (pair[1]! * q) / pair[2]!;
      }
      k = next;
      continue;
    }
    if (next !== k + 1) {
      // Near inner node: open it (its first child is next in pre-order).
      k++;
      continue;
    }
    // Near leaf: each group of bodies at one point.
    const b = hi[k]!;
    for (let j = lo[k]!; j < b; ) {
      const e = groupEnd[j]!;
      const v = groupCharge[j]!;
      dx = sx[j]! - x;
      dy = sy[j]! - y;
      l = dx * dx + dy * dy;
      if (v !== 0 && l < dmax2) {
        // Bodies at this body's own point, or level with it, get a jiggled direction.
        if (e - j > 1 || sid[j] !== i) {
          closeRule(dx, dy, l, dmin2, random, pair);
          dx = pair[0]!;
          dy = pair[1]!;
          l = pair[2]!;
        }
        for (let m = j; m < e; m++) {
          if (sid[m] === i) continue;
          const s = ss[m]! / l;
          fx += dx * s;
          fy += dy * s;
        }
      }
      j = e;
    }
    k = next;
  }
  out[0] = fx;
  out[1] = fy;
}

/** Scratch of closeRule: dx, dy, l. */
const pair = new Float64Array(3);

// d3-force's rule for a body at (dx, dy), squared distance l: an axis distance of exactly 0 is
// replaced by a jiggle (and l grown by its square), then l below dmin2 raised to sqrt(dmin2 l).
// Writes dx, dy, l into out.
function closeRule(
  dx: number,
  dy: number,
  l: number,
  dmin2: number,
  random: () => number,
  out: Float64Array,
): void {
  if (dx === 0) {
    dx = jiggle(random);
    l += dx * dx;
  }
  if (dy === 0) {
    dy = jiggle(random);
    l += dy * dy;
  }
  out[0] = dx;
  out[1] = dy;
  out[2] = l < dmin2 ? Math.sqrt(dmin2 * l) : l;
}

/** d3-force's jiggle: a tiny random offset, (random() - 0.5) * 1e-6. */
export function jiggle(random: () => number): number {
  return (random() - 0.5) * 1e-6;
}

// Moves the bodies of [a, b) whose `key` is below `m` before those at or above it (Hoare);
// returns where the second part starts.
function partition(t: ChargeTree, key: Float64Array, a: number, b: number, m: number): number {
  let i = a;
  let j = b - 1;
  for (;;) {
    while (i <= j && key[i]! < m) i++;
    while (i <= j && key[j]! >= m) j--;
    if (i >= j) return i;
    swap(t, i, j);
    i++;
    j--;
  }
}

function swap(t: ChargeTree, i: number, j: number): void {
  const { sx, sy, ss, sid } = t;
  const x = sx[i]!;
  sx[i] = sx[j]!;
  sx[j] = x;
  const y = sy[i]!;
  sy[i] = sy[j]!;
  sy[j] = y;
  const s = ss[i]!;
  ss[i] = ss[j]!;
  ss[j] = s;
  const d = sid[i]!;
  sid[i] = sid[j]!;
  sid[j] = d;
}

// Whether every body of [a, b) is at one point.
function coincident(sx: Float64Array, sy: Float64Array, a: number, b: number): boolean {
  const x = sx[a]!;
  const y = sy[a]!;
  for (let i = a + 1; i < b; i++) if (sx[i] !== x || sy[i] !== y) return false;
  return true;
}

// Sorts the bodies of the leaf [a, b) with cell (x0, y0, w) in the order d3 would visit them:
// the order of the quadrants they fall in when the cell is split at its midpoints, again and
// again until they part (insertion sort, stable: bodies at one point end up adjacent, in input
// order). A leaf holds at most LEAF bodies unless its cell can no longer be split.
function sortLeaf(t: ChargeTree, a: number, b: number, x0: number, y0: number, w: number): void {
  const { sx, sy } = t;
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && before(sx[j]!, sy[j]!, sx[j - 1]!, sy[j - 1]!, x0, y0, w); j--) {
      swap(t, j, j - 1);
    }
  }
}

// Whether d3's walk of the cell (x0, y0, w) reaches point 1 before point 2 (false when they
// coincide or the cell cannot split them).
function before(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  x0: number,
  y0: number,
  w: number,
): boolean {
  for (;;) {
    const xm = (x0 + (x0 + w)) / 2;
    const ym = (y0 + (y0 + w)) / 2;
    if (!(xm > x0 && xm < x0 + w && ym > y0 && ym < y0 + w)) return false;
    const q1 = +(x1 >= xm) | (+(y1 >= ym) << 1);
    const q2 = +(x2 >= xm) | (+(y2 >= ym) << 1);
    if (q1 !== q2) return q1 < q2;
    if (x1 === x2 && y1 === y2) return false;
    w /= 2;
    if (q1 & 1) x0 = xm;
    if (q1 & 2) y0 = ym;
  }
}

function push(
  si: Int32Array,
  sf: Float64Array,
  sp: number,
  a: number,
  b: number,
  p: number,
  x0: number,
  y0: number,
  w: number,
): number {
  if (a === b) return sp;
  si[3 * sp] = a;
  si[3 * sp + 1] = b;
  si[3 * sp + 2] = p;
  sf[3 * sp] = x0;
  sf[3 * sp + 1] = y0;
  sf[3 * sp + 2] = w;
  return sp + 1;
}
