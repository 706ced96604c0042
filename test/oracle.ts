/**
 * A brute-force reference model for spatial indexes, and seeded random helpers.
 *
 * Index-agnostic: every function works on arrays of boxes `{ item, minX, minY, maxX, maxY }` (or on
 * items plus a `toRect`), with closed intervals everywhere (touching counts). The predicates are
 * written so that they are exact on small integer and half-integer coordinates, which is what the
 * property tests draw, and robust (no overflow or underflow to a wrong answer) on huge and tiny
 * coordinates.
 */

/** An item with its bounds as min/max corners. */
export interface Box<T> {
  item: T;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** `{ x, y, width, height }`, the query rectangle of the public API. */
export interface QueryRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What items' bounds are read from (missing size = 0). */
export interface RectLikeInput {
  readonly x: number;
  readonly y: number;
  readonly width?: number | undefined;
  readonly height?: number | undefined;
}

// ---------------------------------------------------------------------------------------------
// Boxes
// ---------------------------------------------------------------------------------------------

/** A test item: an id and its bounds. */
export interface IdItem {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Items over raw boxes (minX, minY, maxX, maxY per item), each `id` its position. */
export function itemsOfBoxes(raw: ArrayLike<number>): IdItem[] {
  const items: IdItem[] = [];
  for (let i = 0; i < raw.length / 4; i++) {
    const x = raw[4 * i]!;
    const y = raw[4 * i + 1]!;
    items.push({ id: i, x, y, width: raw[4 * i + 2]! - x, height: raw[4 * i + 3]! - y });
  }
  return items;
}

/** The box of `item` whose bounds are `r` (the default reading: `width ?? 0`, `height ?? 0`). */
export function boxOf<T>(item: T, r: RectLikeInput): Box<T> {
  return {
    item,
    minX: r.x,
    minY: r.y,
    maxX: r.x + (r.width ?? 0),
    maxY: r.y + (r.height ?? 0),
  };
}

/** The default `toRect`: the item is its own rectangle. */
export function defaultToRect<T>(item: T): RectLikeInput {
  return item as unknown as RectLikeInput;
}

/** Boxes of `items`, their bounds read with `toRect` (default: the item itself). */
export function boxesOf<T>(
  items: readonly T[],
  toRect: (item: T) => RectLikeInput = defaultToRect,
): Box<T>[] {
  return items.map((item) => boxOf(item, toRect(item)));
}

/** Whether a box overlaps a query rectangle (closed intervals). */
export function overlapsRect<T>(b: Box<T>, r: QueryRect): boolean {
  return b.minX <= r.x + r.width && b.maxX >= r.x && b.minY <= r.y + r.height && b.maxY >= r.y;
}

/** Whether two boxes overlap (closed intervals). */
export function overlapsBox<T, U>(a: Box<T>, b: Box<U>): boolean {
  return a.minX <= b.maxX && a.maxX >= b.minX && a.minY <= b.maxY && a.maxY >= b.minY;
}

/** Whether box `inner` lies inside the closed rectangle `[minX, maxX] x [minY, maxY]`. */
export function boxInside<T>(
  inner: Box<T>,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): boolean {
  return inner.minX >= minX && inner.maxX <= maxX && inner.minY >= minY && inner.maxY <= maxY;
}

/** Whether a box contains a point (edges count). */
export function containsPoint<T>(b: Box<T>, x: number, y: number): boolean {
  return b.minX <= x && x <= b.maxX && b.minY <= y && y <= b.maxY;
}

/**
 * Euclidean distance from a point to a box (0 inside). Exact (correctly rounded) whenever the
 * squared distance is a normal finite double; falls back to `Math.hypot` on overflow or underflow.
 */
export function distanceToBox<T>(b: Box<T>, x: number, y: number): number {
  const dx = x < b.minX ? b.minX - x : x > b.maxX ? x - b.maxX : 0;
  const dy = y < b.minY ? b.minY - y : y > b.maxY ? y - b.maxY : 0;
  if (dx === 0 && dy === 0) return 0;
  const d2 = dx * dx + dy * dy;
  if (Number.isFinite(d2) && d2 >= 2.2250738585072014e-308) return Math.sqrt(d2);
  return Math.hypot(dx, dy);
}

/**
 * Whether a box intersects the closed disc of centre (x, y) and radius r, decided exactly: in
 * floating point far from tangency, else in BigInt (squared distances of the exact doubles).
 */
export function intersectsCircle<T>(b: Box<T>, x: number, y: number, r: number): boolean {
  if (r === Number.POSITIVE_INFINITY) return true;
  const d = distanceToBox(b, x, y);
  if (d < r * (1 - 1e-9) && d > 1e-200) return true;
  if (d > r * (1 + 1e-9) && r > 1e-200 && d < 1e200) return false;
  const gap = (lo: number, hi: number, v: number): bigint =>
    v < lo ? exactScaled(lo) - exactScaled(v) : v > hi ? exactScaled(v) - exactScaled(hi) : 0n;
  const dx = gap(b.minX, b.maxX, x);
  const dy = gap(b.minY, b.maxY, y);
  const big = exactScaled(r);
  return dx * dx + dy * dy <= big * big;
}

/**
 * The distance a nearest query reports for an item within maxDistance: its rounded distance,
 * or maxDistance where that rounded past it (the item is within, decided exactly).
 */
export function reportedDistance<T>(b: Box<T>, x: number, y: number, maxDistance: number): number {
  return Math.min(distanceToBox(b, x, y), maxDistance);
}

const f64 = new DataView(new ArrayBuffer(8));

/** The exact value of a finite double times 2^1074, as a BigInt (every double is a multiple of 2^-1074). */
export function exactScaled(x: number): bigint {
  f64.setFloat64(0, x);
  const hi = f64.getUint32(0);
  const lo = f64.getUint32(4);
  const exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exp !== 0) mant = (mant | (1n << 52n)) << BigInt(exp - 1);
  return hi >>> 31 ? -mant : mant;
}

/** Whether a number is a multiple of 1/2 below 2^20 in magnitude (then float orientation is exact). */
const onSmallGrid = (v: number): boolean => Number.isInteger(2 * v) && Math.abs(v) < 1048576;

/**
 * Sign of the orientation of (cx, cy) relative to the line (x1, y1) -> (x2, y2), computed exactly:
 * in floating point when every coordinate is on a small half-integer grid, else in BigInt.
 */
export function orientSign(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  cx: number,
  cy: number,
): number {
  if (
    onSmallGrid(x1) &&
    onSmallGrid(y1) &&
    onSmallGrid(x2) &&
    onSmallGrid(y2) &&
    onSmallGrid(cx) &&
    onSmallGrid(cy)
  ) {
    return Math.sign((x2 - x1) * (cy - y1) - (y2 - y1) * (cx - x1));
  }
  // A float filter with a generous error bound (Shewchuk's is about 3.3e-16 of the sum of the
  // products' magnitudes), falling back to BigInt when the sign is in doubt.
  const left = (x2 - x1) * (cy - y1);
  const right = (y2 - y1) * (cx - x1);
  const det = left - right;
  if (
    Number.isFinite(det) &&
    Math.abs(det) > 1e-14 * (Math.abs(left) + Math.abs(right)) &&
    Math.abs(det) > 1e-290
  ) {
    return Math.sign(det);
  }
  const X1 = exactScaled(x1);
  const Y1 = exactScaled(y1);
  const o =
    (exactScaled(x2) - X1) * (exactScaled(cy) - Y1) -
    (exactScaled(y2) - Y1) * (exactScaled(cx) - X1);
  return o > 0n ? 1 : o < 0n ? -1 : 0;
}

/**
 * Whether a box intersects the closed segment (x1, y1)-(x2, y2), by the separating axis theorem:
 * the x axis, the y axis and the segment's normal (all four corners strictly on one side). Exact
 * for any finite coordinates. A zero-length segment is a point.
 */
export function intersectsSegment<T>(
  b: Box<T>,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): boolean {
  if (Math.max(x1, x2) < b.minX || Math.min(x1, x2) > b.maxX) return false;
  if (Math.max(y1, y2) < b.minY || Math.min(y1, y2) > b.maxY) return false;
  let pos = 0;
  let neg = 0;
  for (const cx of [b.minX, b.maxX]) {
    for (const cy of [b.minY, b.maxY]) {
      const o = orientSign(x1, y1, x2, y2, cx, cy);
      if (o > 0) pos++;
      else if (o < 0) neg++;
    }
  }
  return !(pos === 4 || neg === 4);
}

// ---------------------------------------------------------------------------------------------
// Brute-force queries
// ---------------------------------------------------------------------------------------------

export function bruteSearch<T>(boxes: readonly Box<T>[], r: QueryRect): T[] {
  return boxes.filter((b) => overlapsRect(b, r)).map((b) => b.item);
}

export function bruteSearchPoint<T>(boxes: readonly Box<T>[], x: number, y: number): T[] {
  return boxes.filter((b) => containsPoint(b, x, y)).map((b) => b.item);
}

export function bruteSearchCircle<T>(
  boxes: readonly Box<T>[],
  x: number,
  y: number,
  r: number,
): T[] {
  return boxes.filter((b) => intersectsCircle(b, x, y, r)).map((b) => b.item);
}

export function bruteSearchSegment<T>(
  boxes: readonly Box<T>[],
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): T[] {
  return boxes.filter((b) => intersectsSegment(b, x1, y1, x2, y2)).map((b) => b.item);
}

export function bruteCollides<T>(boxes: readonly Box<T>[], r: QueryRect): boolean {
  return boxes.some((b) => overlapsRect(b, r));
}

/**
 * Every item within maxDistance of (x, y) (decided exactly) with the distance a nearest query
 * reports for it (`reportedDistance`), nearest first.
 */
export function bruteByDistance<T>(
  boxes: readonly Box<T>[],
  x: number,
  y: number,
  maxDistance = Number.POSITIVE_INFINITY,
): { item: T; distance: number }[] {
  return boxes
    .filter((b) => intersectsCircle(b, x, y, maxDistance))
    .map((b) => ({ item: b.item, distance: reportedDistance(b, x, y, maxDistance) }))
    .sort((a, b) => a.distance - b.distance);
}

/** The k nearest (one valid answer among possibly many when distances tie). */
export function bruteNearest<T>(
  boxes: readonly Box<T>[],
  x: number,
  y: number,
  k = 1,
  maxDistance = Number.POSITIVE_INFINITY,
): T[] {
  return bruteByDistance(boxes, x, y, maxDistance)
    .slice(0, k)
    .map((e) => e.item);
}

/** Every unordered pair of distinct boxes that overlap, as [a, b] with a before b in `boxes`. */
export function brutePairs<T>(boxes: readonly Box<T>[]): [T, T][] {
  const out: [T, T][] = [];
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i]!;
    for (let j = i + 1; j < boxes.length; j++) {
      const b = boxes[j]!;
      if (overlapsBox(a, b)) out.push([a.item, b.item]);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A brute-force dynamic index: the model that index implementations are compared against
// ---------------------------------------------------------------------------------------------

/**
 * Items identified by reference, each with the bounds it had when last inserted or updated (like a
 * real index, it does not re-read an item's fields until told to).
 */
export class BruteIndex<T> {
  private readonly map = new Map<T, Box<T>>();
  private readonly read: (item: T) => RectLikeInput;

  constructor(toRect: (item: T) => RectLikeInput = defaultToRect) {
    this.read = toRect;
  }

  get size(): number {
    return this.map.size;
  }

  has(item: T): boolean {
    return this.map.has(item);
  }

  /** Inserts (or re-reads) an item's bounds. */
  set(item: T): void {
    this.map.set(item, boxOf(item, this.read(item)));
  }

  delete(item: T): boolean {
    return this.map.delete(item);
  }

  clear(): void {
    this.map.clear();
  }

  /** The stored box of an item, if present. */
  box(item: T): Box<T> | undefined {
    return this.map.get(item);
  }

  boxes(): Box<T>[] {
    return [...this.map.values()];
  }

  items(): T[] {
    return [...this.map.keys()];
  }

  search(r: QueryRect): T[] {
    return bruteSearch(this.boxes(), r);
  }

  searchPoint(x: number, y: number): T[] {
    return bruteSearchPoint(this.boxes(), x, y);
  }

  searchCircle(x: number, y: number, r: number): T[] {
    return bruteSearchCircle(this.boxes(), x, y, r);
  }

  searchSegment(x1: number, y1: number, x2: number, y2: number): T[] {
    return bruteSearchSegment(this.boxes(), x1, y1, x2, y2);
  }

  collides(r: QueryRect): boolean {
    return bruteCollides(this.boxes(), r);
  }

  pairs(): [T, T][] {
    return brutePairs(this.boxes());
  }
}

// ---------------------------------------------------------------------------------------------
// Comparisons (return a description of the mismatch, or null)
// ---------------------------------------------------------------------------------------------

/** How an item is named in mismatch messages. */
export type Label<T> = (item: T) => string;

const defaultLabel = (item: unknown): string => {
  if (item !== null && typeof item === 'object' && 'id' in item) return `#${String(item.id)}`;
  try {
    return JSON.stringify(item) ?? String(item);
  } catch {
    return String(item);
  }
};

function countByIdentity<T>(items: readonly T[]): Map<T, number> {
  const m = new Map<T, number>();
  for (const it of items) m.set(it, (m.get(it) ?? 0) + 1);
  return m;
}

/**
 * Whether `actual` holds exactly the items of `expected` (by reference, as multisets, any order).
 * Returns null when equal, else a short description.
 */
export function sameItems<T>(
  actual: readonly T[],
  expected: readonly T[],
  label: Label<T> = defaultLabel,
): string | null {
  const a = countByIdentity(actual);
  const e = countByIdentity(expected);
  const problems: string[] = [];
  for (const [item, n] of a) {
    const m = e.get(item) ?? 0;
    if (n > m) problems.push(`${m === 0 ? 'unexpected' : 'duplicated'} ${label(item)} x${n - m}`);
  }
  for (const [item, m] of e) {
    const n = a.get(item) ?? 0;
    if (n < m) problems.push(`missing ${label(item)}`);
  }
  if (problems.length === 0) return null;
  const shown = problems.slice(0, 12).join(', ');
  return `got ${actual.length}, expected ${expected.length}: ${shown}${problems.length > 12 ? ', ...' : ''}`;
}

/** Whether `actual` has no duplicates and includes every item of `required` and only `allowed`. */
export function supersetWithoutDuplicates<T>(
  actual: readonly T[],
  required: readonly T[],
  allowed: (item: T) => boolean,
  label: Label<T> = defaultLabel,
): string | null {
  const seen = new Set<T>();
  for (const it of actual) {
    if (seen.has(it)) return `duplicate ${label(it)}`;
    if (!allowed(it)) return `not an indexed item: ${label(it)}`;
    seen.add(it);
  }
  for (const it of required) if (!seen.has(it)) return `missing ${label(it)}`;
  return null;
}

/** Whether a list of pairs is the same set of unordered pairs as `expected`, each exactly once. */
export function samePairs<T>(
  actual: readonly (readonly [T, T])[],
  expected: readonly (readonly [T, T])[],
  label: Label<T> = defaultLabel,
): string | null {
  const ids = new Map<T, number>();
  const id = (t: T): number => {
    let v = ids.get(t);
    if (v === undefined) {
      v = ids.size;
      ids.set(t, v);
    }
    return v;
  };
  const key = (a: T, b: T): string => {
    const i = id(a);
    const j = id(b);
    return i < j ? `${i},${j}` : `${j},${i}`;
  };
  const want = new Set<string>();
  for (const [a, b] of expected) want.add(key(a, b));
  const got = new Set<string>();
  for (const [a, b] of actual) {
    if (a === b) return `self pair ${label(a)}`;
    const k = key(a, b);
    if (got.has(k)) return `pair ${label(a)}-${label(b)} reported twice`;
    if (!want.has(k)) return `unexpected pair ${label(a)}-${label(b)}`;
    got.add(k);
  }
  if (got.size !== want.size) {
    for (const [a, b] of expected) {
      if (!got.has(key(a, b))) {
        return `missing pair ${label(a)}-${label(b)} (got ${got.size}, expected ${want.size})`;
      }
    }
  }
  return null;
}

/**
 * Checks a k-nearest answer against the boxes: no duplicates, only indexed items, sorted by
 * distance, all within maxDistance, the right length, and the same multiset of distances as the
 * brute-force answer (so every item strictly closer than the k-th distance is included; which of
 * several items tied at the k-th distance are returned is free).
 */
export function checkNearest<T>(
  actual: readonly T[],
  boxes: readonly Box<T>[],
  x: number,
  y: number,
  k: number,
  maxDistance: number,
  label: Label<T> = defaultLabel,
): string | null {
  // The boxes of the answer's items only (a map of every box costs more than the scan).
  const answered = new Set(actual);
  const byItem = new Map<T, Box<T>>();
  for (const b of boxes) if (answered.has(b.item)) byItem.set(b.item, b);
  const expected = bruteByDistance(boxes, x, y, maxDistance).slice(0, k);
  if (actual.length !== expected.length) {
    return `got ${actual.length} items, expected ${expected.length}`;
  }
  const seen = new Set<T>();
  let prev = -1;
  for (let i = 0; i < actual.length; i++) {
    const it = actual[i]!;
    if (seen.has(it)) return `duplicate ${label(it)}`;
    seen.add(it);
    const b = byItem.get(it);
    if (b === undefined) return `not an indexed item: ${label(it)}`;
    if (!intersectsCircle(b, x, y, maxDistance)) {
      return `${label(it)} at distance ${distanceToBox(b, x, y)} > maxDistance ${maxDistance}`;
    }
    const d = reportedDistance(b, x, y, maxDistance);
    if (d < prev) return `not sorted: ${label(it)} at ${d} after distance ${prev} (index ${i})`;
    const want = expected[i]!.distance;
    if (d !== want) {
      return `item ${i} (${label(it)}) at distance ${d}, expected distance ${want}`;
    }
    prev = d;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The `*Into` forms
// ---------------------------------------------------------------------------------------------

/** A value that no index holds, to prefill output arrays with. */
export const JUNK: unknown = Object.freeze({ junk: true });

/**
 * Calls an `*Into` form with an output array prefilled with `prefill` junk entries and checks that
 * it returns n, writes the answer to out[0..n), and leaves out[n..] untouched. Returns
 * `{ items, error }` where items is out[0..n) (for further checks).
 */
export function callInto<T>(
  call: (out: T[]) => number,
  prefill: number,
): { items: T[]; error: string | null } {
  const out = new Array<T>(prefill).fill(JUNK as T);
  const n = call(out);
  if (!Number.isInteger(n) || n < 0) return { items: [], error: `returned ${String(n)}` };
  if (out.length !== Math.max(prefill, n)) {
    return {
      items: out.slice(0, n),
      error: `out.length is ${out.length}, expected max(${prefill}, ${n})`,
    };
  }
  for (let i = n; i < prefill; i++) {
    if (out[i] !== JUNK)
      return { items: out.slice(0, n), error: `out[${i}] (past n=${n}) changed` };
  }
  for (let i = 0; i < n; i++) {
    if (out[i] === JUNK)
      return { items: out.slice(0, n), error: `out[${i}] (< n=${n}) not written` };
  }
  return { items: out.slice(0, n), error: null };
}

// ---------------------------------------------------------------------------------------------
// Trees reported by `visit(callback(node))`
// ---------------------------------------------------------------------------------------------

/** The fields `visit` reports for a node. */
export interface VisitFields {
  x: number;
  y: number;
  width: number;
  height: number;
  depth: number;
  count: number;
}

/** A copy of one visited node, with its place in the reconstructed tree. */
export interface VisitRecord extends VisitFields {
  /** Index of the parent record, -1 for the root. */
  parent: number;
  /** Indices of the child records. */
  children: number[];
  /** Items stored in this node and its descendants. */
  subtree: number;
}

/** Anything with a `visit` in the quadtree-family shape. */
export interface Visitable {
  visit(callback: (node: VisitFields) => boolean | undefined | void): void;
}

/**
 * Records a DFS (parents first) `visit` walk as a tree: copies each reused node object, finds each
 * node's parent from the depths, and sums the subtree counts. `skip(node)` is returned from the
 * callback (true = skip the node's children).
 */
export function recordVisit(
  index: Visitable,
  skip: (node: VisitFields) => boolean = () => false,
): VisitRecord[] {
  const out: VisitRecord[] = [];
  const path: number[] = [];
  index.visit((node) => {
    const { x, y, width, height, depth, count } = node;
    while (path.length > 0 && out[path[path.length - 1]!]!.depth >= depth) path.pop();
    const parent = path.length > 0 ? path[path.length - 1]! : -1;
    const i = out.length;
    out.push({ x, y, width, height, depth, count, parent, children: [], subtree: 0 });
    if (parent >= 0) out[parent]!.children.push(i);
    path.push(i);
    return skip(node);
  });
  for (let i = out.length - 1; i >= 0; i--) {
    const r = out[i]!;
    r.subtree += r.count;
    if (r.parent >= 0) out[r.parent]!.subtree += r.subtree;
  }
  return out;
}

/**
 * Structural checks every quadtree's `visit` must pass: one root at depth 0 whose cell covers
 * `bounds`, parents before children, each child cell one quarter of its parent's cell, siblings
 * distinct, depth <= maxLevels, counts non-negative integers summing to `size`.
 */
export function checkVisitTree(
  records: readonly VisitRecord[],
  opts: { bounds: QueryRect; maxLevels: number; size: number },
): string | null {
  if (records.length === 0) return 'visit reported no node';
  const root = records[0]!;
  if (root.depth !== 0) return `first node has depth ${root.depth}`;
  const b = opts.bounds;
  if (
    !(root.x <= b.x && root.y <= b.y) ||
    !(root.x + root.width >= b.x + b.width && root.y + root.height >= b.y + b.height)
  ) {
    return `root cell ${JSON.stringify(root)} does not cover bounds ${JSON.stringify(b)}`;
  }
  let total = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (!Number.isInteger(r.count) || r.count < 0) return `node ${i} has count ${r.count}`;
    total += r.count;
    if (r.depth > opts.maxLevels) return `node ${i} at depth ${r.depth} > maxLevels`;
    if (i === 0) continue;
    if (r.depth < 1) return `node ${i} is a second root (depth ${r.depth})`;
    if (r.depth > records[i - 1]!.depth + 1) return `node ${i} skips a level (not parents first)`;
    const p = records[r.parent]!;
    if (r.depth !== p.depth + 1) return `node ${i} depth ${r.depth} under depth ${p.depth}`;
    const hw = p.width / 2;
    const hh = p.height / 2;
    if (r.width !== hw || r.height !== hh) return `node ${i} is not a quarter of its parent`;
    if ((r.x !== p.x && r.x !== p.x + hw) || (r.y !== p.y && r.y !== p.y + hh)) {
      return `node ${i} cell is not a quadrant of its parent`;
    }
  }
  for (const r of records) {
    const cells = new Set(r.children.map((c) => `${records[c]!.x},${records[c]!.y}`));
    if (cells.size !== r.children.length) return 'two siblings share a quadrant';
  }
  if (total !== opts.size) return `node counts sum to ${total}, size is ${opts.size}`;
  return null;
}

/**
 * Placement check for a (loose) quadtree: the items in the subtree of a non-root node lie inside
 * that node's loose bounds (its cell scaled by `looseness` about its centre), except items that
 * are not inside the root cell, which an index may keep anywhere. So a subtree can never hold more
 * items than there are boxes inside its loose bounds plus boxes outside the root.
 */
export function checkPlacement<T>(
  records: readonly VisitRecord[],
  boxes: readonly Box<T>[],
  looseness: number,
): string | null {
  const root = records[0];
  if (root === undefined) return 'no root';
  const outside = boxes.filter(
    (b) => !boxInside(b, root.x, root.y, root.x + root.width, root.y + root.height),
  ).length;
  for (let i = 1; i < records.length; i++) {
    const r = records[i]!;
    if (r.subtree === 0) continue;
    const cx = r.x + r.width / 2;
    const cy = r.y + r.height / 2;
    const hw = (r.width * looseness) / 2;
    const hh = (r.height * looseness) / 2;
    const inside = boxes.filter((b) => boxInside(b, cx - hw, cy - hh, cx + hw, cy + hh)).length;
    if (r.subtree > inside + outside) {
      return (
        `node ${i} (${r.x},${r.y} ${r.width}x${r.height}, depth ${r.depth}) holds ${r.subtree} ` +
        `items in its subtree, but only ${inside} lie inside its loose bounds (+${outside} outside the root)`
      );
    }
  }
  return null;
}

/**
 * Items that straddle a split line of the root cell (extend strictly on both sides of a midline):
 * in a classic (looseness 1) quadtree they cannot descend into any child, so they are counted in
 * the root's own `count`.
 */
export function rootStraddlers<T>(root: VisitFields, boxes: readonly Box<T>[]): Box<T>[] {
  const mx = root.x + root.width / 2;
  const my = root.y + root.height / 2;
  return boxes.filter((b) => (b.minX < mx && mx < b.maxX) || (b.minY < my && my < b.maxY));
}

// ---------------------------------------------------------------------------------------------
// Seeded PRNG
// ---------------------------------------------------------------------------------------------

/** A random source: returns a float in [0, 1). */
export type Rng = () => number;

/** mulberry32: a small, fast, seeded 32-bit PRNG. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [lo, hi] (inclusive). */
export function randInt(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

/** A float in [lo, hi). */
export function randFloat(rng: Rng, lo: number, hi: number): number {
  return lo + rng() * (hi - lo);
}

/** One element of a non-empty array. */
export function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[Math.floor(rng() * xs.length)]!;
}

/** A shuffled copy (Fisher-Yates). */
export function shuffled<T>(rng: Rng, xs: readonly T[]): T[] {
  const a = xs.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  }
  return a;
}

/** A random query rectangle with its min corner in [lo, hi) and size in [0, maxSize). */
export function randRect(rng: Rng, lo: number, hi: number, maxSize: number): QueryRect {
  return {
    x: randFloat(rng, lo, hi),
    y: randFloat(rng, lo, hi),
    width: randFloat(rng, 0, maxSize),
    height: randFloat(rng, 0, maxSize),
  };
}
