// The window, shape and pair walks of the packed static tree (see packed.ts for the layout):
// depth-first over an explicit stack of (node, level) pairs, children computed from the level
// bounds. A node inside the query gives its whole leaf range, which is contiguous in this
// layout, untested. Each walk makes room in its answer array before a scan (the scans write
// without bounds checks).

import { boxGapSq, boxIntersectsCircle } from '../geometry/rect.js';
import { FIRST_RESULTS } from './grown.js';
import type { PackedTree } from './packed.js';
import { CIRCLE, POSITIONS, scanAll, scanRect, scanShape, shapeBound, shapeHits } from './scan.js';
import { itemPairs } from './scan-pairs.js';
import { scanCirclePoints } from './scan-points.js';

/**
 * Writes into `out` from `n` the answers (`tree.emit`) for the leaves whose boxes overlap
 * q[qi..qi+3] (every leaf of every node it meets when `all`), only leaves after position
 * `after`; returns the new count. `out` must be `tree.results` or `tree.pairOut`, and is read
 * back from the tree after the call: a walk that needs more room replaces it there.
 * With `runs` (`tree.runs`, with `after` < 0 and no `limit`), the leaves of a node inside the
 * query are written as one run, ~first and then the count, instead of one by one: see
 * `runLength`.
 */
export function searchRect(
  tree: PackedTree,
  q: Float64Array,
  qi: number,
  all: number,
  limit: number,
  out: Int32Array,
  n: number,
  after: number,
  runs: number,
): number {
  const { boxes, emit, levelEnd, leafSpan, stack, nodeSize } = tree;
  if (tree.numItems === 0) return n;
  const minX = q[qi]!;
  const minY = q[qi + 1]!;
  const maxX = q[qi + 2]!;
  const maxY = q[qi + 3]!;
  const top = levelEnd.length - 1;
  const leaves = levelEnd[0]!;
  // Every operation of this walk runs in the first queries of a process, whatever their windows,
  // so that V8 has type feedback for all of them when it first optimises the walk: an operation
  // first run later (in a branch taken only once some node is inside a small window) made it
  // drop the optimised walk and compile it again. Hence one comparison for "inside" below, the
  // leaf range of every inner node computed whether or not it is taken, and one scan site.
  const whole = after < 0;
  let sp = 0;
  // Stack entries: node position, then level (negated, minus one, when inside the query).
  stack[sp++] = levelEnd[top]! - 1;
  stack[sp++] = top;
  while (sp > 0) {
    let l = stack[--sp]!;
    const pos = stack[--sp]!;
    const inside = l < 0;
    if (inside) l = -l - 1;
    if (l === 0) continue; // leaves are handled with their parent
    const first = tree.childRange(pos, l);
    const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
    // The leaves to test or take: a leaf group's own (after `after`), or all the leaves under an
    // inner node (contiguous: children j..jEnd of a level hold the leaves from j * span to
    // jEnd * span, span = nodeSize^level), taken when the node is inside the query.
    let from = first > after ? first : after + 1;
    let to = end;
    if (l > 1) {
      const start = levelEnd[l - 2]!;
      const span = leafSpan[l - 1]!;
      from = (first - start) * span;
      to = Math.min((end - start) * span, leaves);
    }
    if (l === 1 || (inside && whole)) {
      if (from < to) {
        out = tree.room(out, n, to - from + runs);
        n =
          inside || all
            ? takeAll(runs, emit, from, to, out, n)
            : scanRect(boxes, emit, from, to, minX, minY, maxX, maxY, out, n);
      }
    } else {
      for (let c = first; c < end; c++) {
        const j = 4 * c;
        const a = boxes[j]!;
        const b = boxes[j + 1]!;
        const d = boxes[j + 2]!;
        const e = boxes[j + 3]!;
        if (!inside && (a > maxX || b > maxY || d < minX || e < minY)) continue;
        // Inside the window: every margin >= 0 (x - y >= 0 exactly when x >= y, for the finite
        // boxes here; a NaN margin, from an infinite edge, reads as not inside). One comparison
        // made for every child met, so that it has type feedback from the first queries: four
        // with a short cut made the last first when a child was first inside the window (rare
        // for small windows), which dropped the optimised walk, compiled again, early in a
        // process.
        const margin = Math.min(a - minX, b - minY, maxX - d, maxY - e);
        stack[sp++] = c;
        stack[sp++] = inside || margin >= 0 ? -(l - 1) - 1 : l - 1;
      }
    }
    if (n >= limit) break;
  }
  return n;
}

/**
 * `searchRect` for the window queries that want every answer (`search`, `searchPoint`, their
 * `*Into` forms): writes to `tree.results` the answers for the leaves whose boxes overlap
 * q[qi..qi+3] and returns how many (the leaves of a node inside the window as one run when
 * `runs`). A walk of its own, without `all`, `limit` and `after`, and its tests in two small
 * kernels (`windowChildren`, `scanRect`): V8 optimises small functions soonest, and until it
 * does, every number read from a Float64Array is a new heap object, so the first queries of a
 * process run their tests in optimised code while this walk is still being compiled.
 */
export function searchWindow(tree: PackedTree, q: Float64Array, qi: number, runs: number): number {
  const { boxes, emit, levelEnd, leafSpan, stack, nodeSize } = tree;
  let out = tree.results;
  let n = 0;
  if (tree.numItems === 0) return 0;
  const minX = q[qi]!;
  const minY = q[qi + 1]!;
  const maxX = q[qi + 2]!;
  const maxY = q[qi + 3]!;
  const top = levelEnd.length - 1;
  const leaves = levelEnd[0]!;
  let sp = 0;
  // Stack entries: node position, then level (~level when the node is inside the window).
  stack[sp++] = levelEnd[top]! - 1;
  stack[sp++] = top;
  while (sp > 0) {
    const l = stack[--sp]!;
    const pos = stack[--sp]!;
    // A node inside the window (of level >= 1): its leaves, untested (contiguous: span =
    // nodeSize^level of them from (pos - start) * span, start the level's first position).
    if (l < 0) {
      const level = ~l;
      const span = leafSpan[level]!;
      const lo = (pos - levelEnd[level - 1]!) * span;
      const hi = Math.min(lo + span, leaves);
      out = tree.room(out, n, hi - lo + runs);
      n = takeAll(runs, emit, lo, hi, out, n);
      continue;
    }
    const start = l === 1 ? 0 : levelEnd[l - 2]!;
    const first = start + (pos - levelEnd[l - 1]!) * nodeSize;
    const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
    // A leaf group: test its leaves.
    if (l === 1) {
      out = tree.room(out, n, nodeSize);
      n = scanRect(boxes, emit, first, end, minX, minY, maxX, maxY, out, n);
      continue;
    }
    // An inner node: its children that meet the window.
    sp = windowChildren(boxes, first, end, l - 1, minX, minY, maxX, maxY, stack, sp);
  }
  return n;
}

// Pushes onto the stack the children [first, end) (of level `level`) whose boxes meet the window
// (minX, minY, maxX, maxY), each as its position and then its level, or ~level when it lies
// inside the window; returns the new stack size. A box's far edges are read only when its near
// ones do not rule it out.
function windowChildren(
  boxes: Float64Array,
  first: number,
  end: number,
  level: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  stack: Int32Array,
  sp: number,
): number {
  for (let c = first; c < end; c++) {
    const j = 4 * c;
    if (boxes[j]! > maxX || boxes[j + 1]! > maxY || boxes[j + 2]! < minX || boxes[j + 3]! < minY)
      continue;
    stack[sp++] = c;
    // Inside: every margin >= 0 (one comparison with feedback from the first queries; a NaN
    // margin, from an infinite edge, reads as not inside).
    const margin = Math.min(
      boxes[j]! - minX,
      boxes[j + 1]! - minY,
      maxX - boxes[j + 2]!,
      maxY - boxes[j + 3]!,
    );
    stack[sp++] = margin >= 0 ? ~level : level;
  }
  return sp;
}

// Writes the answers for the leaves [lo, hi), untested, to `out` from n: one run (~lo, then the
// count) when `runs`, else each one (`emit`); returns the new count. (Callers make room for
// hi - lo + runs entries: a run of one leaf takes two.)
function takeAll(
  runs: number,
  emit: Int32Array,
  lo: number,
  hi: number,
  out: Int32Array,
  n: number,
): number {
  if (runs === 0) return scanAll(emit, lo, hi, out, n);
  out[n] = ~lo;
  out[n + 1] = hi - lo;
  return n + 2;
}

/**
 * The number of leaf positions that the entries [0, n) of a walk with `runs` stand for: an
 * entry >= 0 is one position, an entry < 0 (~first) and the count after it are a run.
 */
export function runLength(entries: Int32Array, n: number): number {
  let total = 0;
  for (let k = 0; k < n; k++) {
    if (entries[k]! >= 0) total++;
    else total += entries[++k]!;
  }
  return total;
}

/**
 * Writes to `tree.results` the answers for the leaves whose boxes meet a circle (centre
 * q[qi], q[qi+1], radius q[qi+2]) or a segment (q[qi..qi+3]), decided exactly; returns how many.
 */
export function searchShape(tree: PackedTree, shape: number, q: Float64Array, qi: number): number {
  const { boxes, emit, levelEnd, stack, nodeSize, runs } = tree;
  let results = tree.results;
  if (tree.numItems === 0) return 0;
  const a = q[qi]!;
  const b = q[qi + 1]!;
  const c = q[qi + 2]!;
  const d = q[qi + 3]!;
  // A circle swallows a node whose farthest corner is clearly within it (by a margin far above
  // rounding, in the range where floating point is relative): its leaves are taken untested.
  const r2 = shape === CIRCLE ? c * c * (1 - 2 ** -40) : -1;
  const rim = c * c * (1 + 2 ** -40);
  const swallow = r2 > 1e-280 && r2 < 1e280;
  if (swallow && tree.allPoints()) return searchCirclePoints(tree, a, b, c);
  // The shape's box: nodes outside it are dropped before the exact test.
  const x0 = shapeBound(shape, a, b, c, d, 0);
  const y0 = shapeBound(shape, a, b, c, d, 1);
  const x1 = shapeBound(shape, a, b, c, d, 2);
  const y1 = shapeBound(shape, a, b, c, d, 3);
  const top = levelEnd.length - 1;
  let n = 0;
  let sp = 0;
  // Stack entries: node position, then level (negated, minus one, when inside the circle).
  stack[sp++] = levelEnd[top]! - 1;
  stack[sp++] = top;
  while (sp > 0) {
    let l = stack[--sp]!;
    const pos = stack[--sp]!;
    const inside = l < 0;
    if (inside) l = -l - 1;
    if (l === 0) continue;
    const first = tree.childRange(pos, l);
    const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
    if (inside) {
      const lo = tree.leafStart(first, l);
      const hi = tree.leafEnd(end, l);
      results = tree.room(results, n, hi - lo + runs);
      n = takeAll(runs, emit, lo, hi, results, n);
      continue;
    }
    if (l === 1) {
      results = tree.room(results, n, end - first);
      if (!swallow) {
        n = scanShape(boxes, emit, first, end, shape, q, qi, results, n);
        continue;
      }
      // The leaves of a circle, written here rather than called: when V8 happened to inline a
      // scan function here it compiled this walk about 1.7x slower (7.5 -> 13 ms per 1,000
      // radius queries on 1M boxes in about half of the processes); written out, every process
      // ran at the fast speed. An entry clearly inside or outside by a 2^-40 relative margin
      // (far above the squared distance's rounding) is decided by one comparison, without a
      // branch; one on the rim (or a NaN, which boxGapSq gives when a side overflows) by the
      // exact test.
      for (let e = first; e < end; e++) {
        const i = 4 * e;
        const d2 = boxGapSq(boxes[i]!, boxes[i + 1]!, boxes[i + 2]!, boxes[i + 3]!, a, b);
        results[n] = emit === POSITIONS ? e : emit[e]!;
        n += +(d2 < r2);
        if (
          (+(d2 < r2) | +(d2 > rim)) === 0 &&
          boxIntersectsCircle(boxes[i]!, boxes[i + 1]!, boxes[i + 2]!, boxes[i + 3]!, a, b, c)
        )
          n++;
      }
      continue;
    }
    for (let k = first; k < end; k++) {
      const j = 4 * k;
      const minX = boxes[j]!;
      const minY = boxes[j + 1]!;
      const maxX = boxes[j + 2]!;
      const maxY = boxes[j + 3]!;
      if (minX > x1 || minY > y1 || maxX < x0 || maxY < y0) continue;
      if (!shapeHits(shape, minX, minY, maxX, maxY, a, b, c, d)) continue;
      stack[sp++] = k;
      if (swallow) {
        const fx = Math.max(a - minX, maxX - a);
        const fy = Math.max(b - minY, maxY - b);
        stack[sp++] = fx * fx + fy * fy < r2 ? -(l - 1) - 1 : l - 1;
      } else stack[sp++] = l - 1;
    }
  }
  return n;
}

/**
 * `searchShape(CIRCLE)` for a tree of points, centre (x, y), radius r (its square well inside
 * the normal range): a child is dropped when its squared distance is clearly beyond r², a
 * node clearly inside gives its leaves untested, and a leaf is decided by one squared distance
 * (the same value the box test computes for a point) unless it is on the rim, where the exact
 * test decides, so the answers are those of the general walk.
 */
function searchCirclePoints(tree: PackedTree, x: number, y: number, r: number): number {
  const { boxes, emit, levelEnd, stack, nodeSize, runs } = tree;
  let results = tree.results;
  const lo = r * r * (1 - 2 ** -40);
  // The circle's box, widened by more than the rounding of x - r and x + r: a first, cheaper
  // test that never drops a node the circle meets.
  const x0 = x - r - Math.abs(x - r) * 2 ** -50;
  const x1 = x + r + Math.abs(x + r) * 2 ** -50;
  const y0 = y - r - Math.abs(y - r) * 2 ** -50;
  const y1 = y + r + Math.abs(y + r) * 2 ** -50;
  const hi = r * r * (1 + 2 ** -40);
  const top = levelEnd.length - 1;
  const leaves = levelEnd[0]!;
  let n = 0;
  let sp = 0;
  stack[sp++] = levelEnd[top]! - 1;
  stack[sp++] = top;
  while (sp > 0) {
    const l = stack[--sp]!;
    const pos = stack[--sp]!;
    const first = tree.childRange(pos, l);
    const end = Math.min(first + nodeSize, levelEnd[l - 1]!);
    if (l === 1) {
      results = tree.room(results, n, end - first);
      n = scanCirclePoints(boxes, emit, first, end, x, y, r, results, n);
      continue;
    }
    // Inner nodes: drop the far ones, take the swallowed ones whole, descend into the rest.
    for (let k = first; k < end; k++) {
      const j = 4 * k;
      const minX = boxes[j]!;
      const minY = boxes[j + 1]!;
      const maxX = boxes[j + 2]!;
      const maxY = boxes[j + 3]!;
      if ((+(minX > x1) | +(maxX < x0) | +(minY > y1) | +(maxY < y0)) !== 0) continue;
      if (boxGapSq(minX, minY, maxX, maxY, x, y) > hi) continue;
      const fx = x - minX > maxX - x ? x - minX : maxX - x;
      const fy = y - minY > maxY - y ? y - minY : maxY - y;
      if (l === 2) {
        // A leaf group: its leaves at once, not through the stack.
        const from = (k - leaves) * nodeSize;
        const to = Math.min(from + nodeSize, leaves);
        results = tree.room(results, n, to - from + runs);
        n =
          fx * fx + fy * fy < lo
            ? takeAll(runs, emit, from, to, results, n)
            : scanCirclePoints(boxes, emit, from, to, x, y, r, results, n);
        continue;
      }
      if (fx * fx + fy * fy < lo) {
        const a = tree.leafStart(k, l);
        const b = tree.leafEnd(k + 1, l);
        results = tree.room(results, n, b - a + runs);
        n = takeAll(runs, emit, a, b, results, n);
        continue;
      }
      stack[sp++] = k;
      stack[sp++] = l - 1;
    }
  }
  return n;
}

/**
 * Calls `callback(a, b)` once for every pair of items whose boxes overlap (with items[a] and
 * items[b] when `items` is given): each leaf queries the tree for the leaves after it that
 * overlap its box.
 */
export function pairs(
  tree: PackedTree,
  callback: (a: number, b: number) => void,
  items: readonly unknown[] | null,
): void {
  const { boxes, emit, numItems } = tree;
  // Its own answer array: the callback may run queries, which write `results`.
  tree.pairOut ??= new Int32Array(Math.min(Math.max(numItems, 1), FIRST_RESULTS));
  for (let p = 0; p < numItems; p++) {
    const n = searchRect(tree, boxes, 4 * p, 0, Number.POSITIVE_INFINITY, tree.pairOut, 0, p, 0);
    const out = tree.pairOut;
    const a = emit === POSITIONS ? p : emit[p]!;
    if (items === null) {
      for (let i = 0; i < n; i++) callback(a, out[i]!);
      continue;
    }
    const mapped = itemPairs(callback);
    for (let i = 0; i < n; i++) mapped(items[a], items[out[i]!]);
  }
}
