// The shapes of the narrow phase: plain objects tagged by `type`, built and validated by small
// constructors. Every shape is closed: its boundary belongs to it.

import { badField as fail, InvalidValueError } from '../errors.js';
import type { Rect } from '../types.js';
import { orient2d } from './orient.js';

/** A point. */
export interface PointShape {
  /** Tells the shape apart from the others: `'point'`. */
  readonly type: 'point';
  /** The point's x. */
  x: number;
  /** The point's y. */
  y: number;
}

/**
 * An axis-aligned rectangle: `x`, `y` the minimum corner, `width`, `height` >= 0. It covers
 * [x, x + width] × [y, y + height] with the sums rounded as the indexes round them.
 */
export interface RectShape {
  /** Tells the shape apart from the others: `'rect'`. */
  readonly type: 'rect';
  /** The minimum x (left edge). */
  x: number;
  /** The minimum y. */
  y: number;
  /** The size along x, >= 0. */
  width: number;
  /** The size along y, >= 0. */
  height: number;
}

/** A disc of centre (`x`, `y`) and `radius` >= 0. */
export interface CircleShape {
  /** Tells the shape apart from the others: `'circle'`. */
  readonly type: 'circle';
  /** The centre's x. */
  x: number;
  /** The centre's y. */
  y: number;
  /** The radius, >= 0. */
  radius: number;
}

/** The segment from (`x1`, `y1`) to (`x2`, `y2`); a zero-length segment is a point. */
export interface SegmentShape {
  /** Tells the shape apart from the others: `'segment'`. */
  readonly type: 'segment';
  /** The start's x. */
  x1: number;
  /** The start's y. */
  y1: number;
  /** The end's x. */
  x2: number;
  /** The end's y. */
  y2: number;
}

/** The triangle with vertices a, b, c in either winding; a zero-area triangle is its hull. */
export interface TriangleShape {
  /** Tells the shape apart from the others: `'triangle'`. */
  readonly type: 'triangle';
  /** Vertex a's x. */
  ax: number;
  /** Vertex a's y. */
  ay: number;
  /** Vertex b's x. */
  bx: number;
  /** Vertex b's y. */
  by: number;
  /** Vertex c's x. */
  cx: number;
  /** Vertex c's y. */
  cy: number;
}

/**
 * A convex polygon of non-zero area: its vertices as `[x0, y0, x1, y1, ...]`, counter-clockwise
 * with the y axis up (orient2d of consecutive vertices >= 0). Build it with {@link polygon}, which
 * checks convexity and puts the vertices in that order.
 */
export interface PolygonShape {
  /** Tells the shape apart from the others: `'polygon'`. */
  readonly type: 'polygon';
  /** The vertices as `[x0, y0, x1, y1, ...]`, counter-clockwise with the y axis up. */
  readonly points: Float64Array;
}

/** Any shape of the narrow phase, told apart by its `type`. */
export type Shape =
  | PointShape
  | RectShape
  | CircleShape
  | SegmentShape
  | TriangleShape
  | PolygonShape;

/** An InvalidValueError for a value that has the right type but the wrong shape. */
function invalid(what: string, got: string, rule: string): never {
  throw new InvalidValueError(`quadkit: ${what} must be ${rule}, got ${got}`);
}

function finite(what: string, v: unknown): number {
  if (typeof v !== 'number' || v - v !== 0) fail(what, v, 'a finite number');
  return v;
}

function size(what: string, v: unknown): number {
  if (typeof v !== 'number' || !(v >= 0) || v - v !== 0) fail(what, v, 'a finite number >= 0');
  return v;
}

/**
 * A point shape. Throws a RangeError or TypeError naming the coordinate when it is not finite.
 *
 * @param x - the point's x; `y` its y.
 */
export function point(x: number, y: number): PointShape {
  return { type: 'point', x: finite('point x', x), y: finite('point y', y) };
}

/**
 * A rectangle shape `{ x, y, width, height }` (x, y the minimum corner). Throws when a coordinate
 * is not finite, a size is negative, or `x + width` or `y + height` overflows.
 *
 * @param x - the left edge; `y` the bottom (minimum) edge.
 * @param width - the size along x (>= 0); `height` along y.
 */
export function rect(x: number, y: number, width: number, height: number): RectShape {
  finite('rect x', x);
  finite('rect y', y);
  size('rect width', width);
  size('rect height', height);
  finite('rect x + width', x + width);
  finite('rect y + height', y + height);
  return { type: 'rect', x, y, width, height };
}

/**
 * A circle (closed disc) shape. Throws when the centre is not finite or the radius is negative
 * or not finite.
 *
 * @param x - the centre's x; `y` its y.
 * @param radius - the radius (>= 0; 0 is a point).
 */
export function circle(x: number, y: number, radius: number): CircleShape {
  return {
    type: 'circle',
    x: finite('circle x', x),
    y: finite('circle y', y),
    radius: size('circle radius', radius),
  };
}

/**
 * A segment shape. Throws when a coordinate is not finite.
 *
 * @param x1 - x of the start; `y1`, `x2`, `y2` likewise.
 */
export function segment(x1: number, y1: number, x2: number, y2: number): SegmentShape {
  return {
    type: 'segment',
    x1: finite('segment x1', x1),
    y1: finite('segment y1', y1),
    x2: finite('segment x2', x2),
    y2: finite('segment y2', y2),
  };
}

/**
 * A triangle shape, in either winding (a zero-area triangle is its hull segment or point).
 * Throws when a coordinate is not finite.
 *
 * @param ax - x of the first vertex; `ay`, `bx`, `by`, `cx`, `cy` likewise.
 */
export function triangle(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): TriangleShape {
  return {
    type: 'triangle',
    ax: finite('triangle ax', ax),
    ay: finite('triangle ay', ay),
    bx: finite('triangle bx', bx),
    by: finite('triangle by', by),
    cx: finite('triangle cx', cx),
    cy: finite('triangle cy', cy),
  };
}

/**
 * A convex polygon shape from its vertices `[x0, y0, x1, y1, ...]` in either winding (copied, and
 * stored counter-clockwise). Collinear vertices along an edge are allowed. Throws a RangeError or
 * TypeError that says what to change when there are fewer than 3 vertices, a coordinate is not
 * finite, a vertex repeats the one before it, all vertices are collinear, or the polygon is not
 * convex (a turn against the others, or edges that wind around more than once).
 *
 * @param coords - the vertices as a flat array of x, y pairs.
 */
export function polygon(coords: ArrayLike<number>): PolygonShape {
  // The array: x, y pairs of finite numbers, at least three of them.
  if (coords === null || typeof coords !== 'object' || typeof coords.length !== 'number') {
    fail('polygon coords', coords, 'a flat array [x0, y0, x1, y1, ...] of vertex coordinates');
  }
  const len = coords.length;
  if (len % 2 !== 0) fail('polygon coords.length', len, 'even (an x and a y for each vertex)');
  const n = len / 2;
  if (n < 3) fail('polygon vertex count', n, 'at least 3 (use point() or segment() for fewer)');
  for (let i = 0; i < len; i++) finite(`polygon coords[${i}]`, coords[i]);
  const at = (i: number): string => `vertex ${i} (${coords[2 * i]}, ${coords[2 * i + 1]})`;
  // Every turn in one direction; collinear vertices only where the boundary goes straight on.
  let sign = 0;
  let fold = -1;
  for (let i = 0; i < n; i++) {
    const h = i === 0 ? n - 1 : i - 1;
    const j = i === n - 1 ? 0 : i + 1;
    const x0 = coords[2 * h]!;
    const y0 = coords[2 * h + 1]!;
    const x1 = coords[2 * i]!;
    const y1 = coords[2 * i + 1]!;
    const x2 = coords[2 * j]!;
    const y2 = coords[2 * j + 1]!;
    if (x1 === x2 && y1 === y2) {
      invalid(
        `polygon ${at(j)}`,
        'a repeat of the vertex before it',
        'distinct (remove the repeat)',
      );
    }
    const o = orient2d(x0, y0, x1, y1, x2, y2);
    if (o === 0) {
      if (Math.sign(x1 - x0) !== Math.sign(x2 - x1) || Math.sign(y1 - y0) !== Math.sign(y2 - y1)) {
        if (fold < 0) fold = i;
      }
    } else if (sign === 0) {
      sign = o > 0 ? 1 : -1;
    } else if ((o > 0 ? 1 : -1) !== sign) {
      invalid(
        `polygon ${at(i)}`,
        'a turn against the others',
        'a convex corner (split the polygon into convex parts, or use its convex hull)',
      );
    }
  }
  if (sign === 0) invalid('polygon', 'collinear vertices', 'of non-zero area (use segment())');
  if (fold >= 0) {
    invalid(`polygon ${at(fold)}`, 'a fold back along the edge before it', 'a convex corner');
  }
  // Winding once: with every turn one way, the edges' x directions change sign exactly twice.
  let changes = 0;
  let last = 0;
  let first = 0;
  for (let i = 0; i < n; i++) {
    const j = i === n - 1 ? 0 : i + 1;
    const dx = Math.sign(coords[2 * j]! - coords[2 * i]!);
    if (dx === 0) continue;
    if (first === 0) first = dx;
    else if (dx !== last) changes++;
    last = dx;
  }
  if (last !== first) changes++;
  if (changes > 2) {
    invalid('polygon', 'edges that wind around more than once', 'simple and convex');
  }
  // Stored counter-clockwise.
  const points = new Float64Array(len);
  for (let i = 0; i < n; i++) {
    const k = sign > 0 ? i : n - 1 - i;
    points[2 * i] = coords[2 * k]!;
    points[2 * i + 1] = coords[2 * k + 1]!;
  }
  return { type: 'polygon', points };
}

/** A double at least one ulp above v: a safe outward step. */
function up(v: number): number {
  return v + (Math.abs(v) * 2 ** -52 + 2 ** -1074);
}

/** A width w with lo + w >= hi once rounded, as the indexes compute a rectangle's far edge. */
function reach(lo: number, hi: number): number {
  let w = hi - lo;
  while (lo + w < hi) w = up(w);
  return w;
}

/**
 * The bounding rectangle of a shape, rounded outward so that the rectangle the indexes read from
 * it (`x`, `y`, `x + width`, `y + height`, rounded) covers the shape exactly: use it as the
 * `toRect` of an index of shapes, and no shape that touches a query can be pruned.
 *
 * @param shape - any shape.
 * @param out - the object to write, reused to avoid allocation (a new one by default).
 */
export function shapeBounds(shape: Shape, out: Rect = { x: 0, y: 0, width: 0, height: 0 }): Rect {
  let minX: number;
  let minY: number;
  let maxX: number;
  let maxY: number;
  switch (shape.type) {
    case 'point':
      minX = maxX = shape.x;
      minY = maxY = shape.y;
      break;
    case 'rect':
      out.x = shape.x;
      out.y = shape.y;
      out.width = shape.width;
      out.height = shape.height;
      return out;
    case 'circle': {
      // x - r and x + r rounded outward.
      const { x, y, radius: r } = shape;
      minX = -up(r - x);
      maxX = up(x + r);
      minY = -up(r - y);
      maxY = up(y + r);
      if (r === 0) {
        minX = maxX = x;
        minY = maxY = y;
      }
      break;
    }
    case 'segment':
      minX = Math.min(shape.x1, shape.x2);
      maxX = Math.max(shape.x1, shape.x2);
      minY = Math.min(shape.y1, shape.y2);
      maxY = Math.max(shape.y1, shape.y2);
      break;
    case 'triangle':
      minX = Math.min(shape.ax, shape.bx, shape.cx);
      maxX = Math.max(shape.ax, shape.bx, shape.cx);
      minY = Math.min(shape.ay, shape.by, shape.cy);
      maxY = Math.max(shape.ay, shape.by, shape.cy);
      break;
    case 'polygon': {
      const p = shape.points;
      minX = maxX = p[0]!;
      minY = maxY = p[1]!;
      for (let i = 2; i < p.length; i += 2) {
        const x = p[i]!;
        const y = p[i + 1]!;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
      break;
    }
  }
  out.x = minX;
  out.y = minY;
  out.width = reach(minX, maxX);
  out.height = reach(minY, maxY);
  return out;
}
