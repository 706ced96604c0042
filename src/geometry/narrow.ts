// The narrow phase over shape objects: intersects, contains and distance for every pair of
// shapes. Common pairs go to their direct kernels; the rest see each polygonal shape as a convex
// vertex list (a box, a triangle, a segment and a point are convex polygons too).

import {
  circleContainsCircle,
  circleContainsPoint,
  circleIntersectsSegment,
  circlesIntersect,
} from './circle.js';
import {
  circleContainsConvex,
  convexContainsCircle,
  convexContainsConvex,
  convexContainsPoint,
  convexDistance,
  convexIntersects,
  convexIntersectsCircle,
  convexPointDistance,
} from './convex.js';
import { norm } from './metric.js';
import { orient2d } from './orient.js';
import {
  boxContainsBox,
  boxContainsPoint,
  boxesOverlap,
  boxIntersectsCircle,
  boxIntersectsSegment,
} from './rect.js';
import { segmentContainsPoint, segmentsIntersect } from './segment.js';
import type { CircleShape, Shape } from './shapes.js';
import {
  triangleContainsPoint,
  triangleIntersectsBox,
  triangleIntersectsSegment,
} from './triangle.js';

/** Every shape but the circle: the ones that are convex polygons. */
type Polygonal = Exclude<Shape, CircleShape>;

// Order of the shapes for symmetric pairs: the lower-ranked one goes first.
const RANK = { point: 0, rect: 1, segment: 2, triangle: 3, polygon: 4, circle: 5 } as const;

const SCRATCH_A = new Float64Array(8);
const SCRATCH_B = new Float64Array(8);
let loaded: Float64Array = SCRATCH_A;

/**
 * Sets `loaded` to the shape's vertices as a convex polygon (counter-clockwise, degenerate
 * shapes reduced to a segment or a point) and returns their count.
 */
function load(shape: Polygonal, scratch: Float64Array): number {
  switch (shape.type) {
    case 'point':
      loaded = scratch;
      return vertex(scratch, 0, shape.x, shape.y);
    case 'rect': {
      const { x, y } = shape;
      const maxX = x + shape.width;
      const maxY = y + shape.height;
      loaded = scratch;
      vertex(scratch, 0, x, y);
      if (maxX === x && maxY === y) return 1;
      if (maxX === x || maxY === y) return vertex(scratch, 1, maxX, maxY);
      vertex(scratch, 1, maxX, y);
      vertex(scratch, 2, maxX, maxY);
      return vertex(scratch, 3, x, maxY);
    }
    case 'segment': {
      const { x1, y1, x2, y2 } = shape;
      loaded = scratch;
      vertex(scratch, 0, x1, y1);
      return x1 === x2 && y1 === y2 ? 1 : vertex(scratch, 1, x2, y2);
    }
    case 'triangle':
      loaded = scratch;
      return loadTriangle(shape.ax, shape.ay, shape.bx, shape.by, shape.cx, shape.cy, scratch);
    case 'polygon':
      loaded = shape.points;
      return shape.points.length >> 1;
  }
}

/** Writes vertex i and returns the count so far (i + 1). */
function vertex(out: Float64Array, i: number, x: number, y: number): number {
  out[2 * i] = x;
  out[2 * i + 1] = y;
  return i + 1;
}

function loadTriangle(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  out: Float64Array,
): number {
  const s = orient2d(ax, ay, bx, by, cx, cy);
  if (s > 0) {
    vertex(out, 0, ax, ay);
    vertex(out, 1, bx, by);
    return vertex(out, 2, cx, cy);
  }
  if (s < 0) {
    vertex(out, 0, ax, ay);
    vertex(out, 1, cx, cy);
    return vertex(out, 2, bx, by);
  }
  // Zero area: the hull runs between the lexicographically smallest and largest vertices.
  let lx = ax;
  let ly = ay;
  let hx = ax;
  let hy = ay;
  if (bx < lx || (bx === lx && by < ly)) {
    lx = bx;
    ly = by;
  }
  if (cx < lx || (cx === lx && cy < ly)) {
    lx = cx;
    ly = cy;
  }
  if (bx > hx || (bx === hx && by > hy)) {
    hx = bx;
    hy = by;
  }
  if (cx > hx || (cx === hx && cy > hy)) {
    hx = cx;
    hy = cy;
  }
  vertex(out, 0, lx, ly);
  return lx === hx && ly === hy ? 1 : vertex(out, 1, hx, hy);
}

/**
 * Whether two closed shapes intersect (touching counts), decided exactly for every pair: orient2d
 * for polygonal pairs (separating axes for convex polygons), exact squared distances for circles.
 *
 * @param a - a shape, built with {@link point}, {@link rect}, {@link circle}, {@link segment},
 *   {@link triangle} or {@link polygon} (or an equivalent plain object; polygons must come from
 *   `polygon()`).
 * @param b - another shape.
 * @returns the same answer for (a, b) and (b, a).
 */
export function intersects(a: Shape, b: Shape): boolean {
  if (RANK[a.type] > RANK[b.type]) {
    const t = a;
    a = b;
    b = t;
  }
  // The common pairs: direct kernels.
  switch (a.type) {
    case 'point': {
      const { x, y } = a;
      switch (b.type) {
        case 'point':
          return x === b.x && y === b.y;
        case 'rect':
          return boxContainsPoint(b.x, b.y, b.x + b.width, b.y + b.height, x, y);
        case 'segment':
          return segmentContainsPoint(b.x1, b.y1, b.x2, b.y2, x, y);
        case 'triangle':
          return triangleContainsPoint(b.ax, b.ay, b.bx, b.by, b.cx, b.cy, x, y);
        case 'polygon':
          return convexContainsPoint(b.points, b.points.length >> 1, x, y);
        case 'circle':
          return circleContainsPoint(b.x, b.y, b.radius, x, y);
      }
      break;
    }
    case 'rect': {
      const minX = a.x;
      const minY = a.y;
      const maxX = minX + a.width;
      const maxY = minY + a.height;
      switch (b.type) {
        case 'rect':
          return boxesOverlap(minX, minY, maxX, maxY, b.x, b.y, b.x + b.width, b.y + b.height);
        case 'segment':
          return boxIntersectsSegment(minX, minY, maxX, maxY, b.x1, b.y1, b.x2, b.y2);
        case 'triangle':
          return triangleIntersectsBox(b.ax, b.ay, b.bx, b.by, b.cx, b.cy, minX, minY, maxX, maxY);
        case 'circle':
          return boxIntersectsCircle(minX, minY, maxX, maxY, b.x, b.y, b.radius);
      }
      break;
    }
    case 'segment':
      switch (b.type) {
        case 'segment':
          return segmentsIntersect(a.x1, a.y1, a.x2, a.y2, b.x1, b.y1, b.x2, b.y2);
        case 'triangle':
          return triangleIntersectsSegment(
            b.ax,
            b.ay,
            b.bx,
            b.by,
            b.cx,
            b.cy,
            a.x1,
            a.y1,
            a.x2,
            a.y2,
          );
        case 'circle':
          return circleIntersectsSegment(b.x, b.y, b.radius, a.x1, a.y1, a.x2, a.y2);
      }
      break;
    case 'circle':
      // b is a circle too (circles rank last).
      return circlesIntersect(
        a.x,
        a.y,
        a.radius,
        (b as CircleShape).x,
        (b as CircleShape).y,
        (b as CircleShape).radius,
      );
  }
  // The rest: convex polygons, against each other or against a disc.
  const na = load(a, SCRATCH_A);
  const va = loaded;
  if (b.type === 'circle') return convexIntersectsCircle(va, na, b.x, b.y, b.radius);
  const nb = load(b, SCRATCH_B);
  return convexIntersects(va, na, loaded, nb);
}

/**
 * Whether the closed shape a contains the closed shape b entirely (its boundary may touch a's),
 * decided exactly. Every shape contains itself.
 *
 * @param a - the outer shape.
 * @param b - the inner shape.
 */
export function contains(a: Shape, b: Shape): boolean {
  if (a.type === 'circle') {
    if (b.type === 'circle') return circleContainsCircle(a.x, a.y, a.radius, b.x, b.y, b.radius);
    if (b.type === 'point') return circleContainsPoint(a.x, a.y, a.radius, b.x, b.y);
    const nb = load(b, SCRATCH_B);
    return circleContainsConvex(a.x, a.y, a.radius, loaded, nb);
  }
  // Common pairs with a box or a triangle outside: direct kernels.
  if (a.type === 'rect') {
    const maxX = a.x + a.width;
    const maxY = a.y + a.height;
    if (b.type === 'rect') {
      return boxContainsBox(a.x, a.y, maxX, maxY, b.x, b.y, b.x + b.width, b.y + b.height);
    }
    if (b.type === 'point') return boxContainsPoint(a.x, a.y, maxX, maxY, b.x, b.y);
  } else if (a.type === 'triangle' && b.type === 'point') {
    return triangleContainsPoint(a.ax, a.ay, a.bx, a.by, a.cx, a.cy, b.x, b.y);
  }
  const na = load(a, SCRATCH_A);
  const va = loaded;
  if (b.type === 'circle') return convexContainsCircle(va, na, b.x, b.y, b.radius);
  const nb = load(b, SCRATCH_B);
  return convexContainsConvex(va, na, loaded, nb);
}

/**
 * The Euclidean distance between two closed shapes: 0 exactly when they intersect (as
 * {@link intersects} decides), else the length of the shortest segment between them, rounded
 * (and never rounded down to 0).
 *
 * @param a - a shape.
 * @param b - another shape.
 */
export function distance(a: Shape, b: Shape): number {
  if (intersects(a, b)) return 0;
  if (RANK[a.type] > RANK[b.type]) {
    const t = a;
    a = b;
    b = t;
  }
  let d: number;
  if (a.type === 'circle') {
    const c = b as CircleShape;
    d = norm(a.x - c.x, a.y - c.y) - a.radius - c.radius;
  } else {
    const na = load(a, SCRATCH_A);
    const va = loaded;
    if (b.type === 'circle') {
      d = convexPointDistance(va, na, b.x, b.y) - b.radius;
    } else {
      const nb = load(b, SCRATCH_B);
      d = convexDistance(va, na, loaded, nb);
    }
  }
  // Disjoint shapes are at a positive distance, however small.
  return d > 0 ? d : Number.MIN_VALUE;
}
