import { badField, InvalidTypeError } from '../errors.js';
import { cutPolygon } from './antimeridian.js';
import { type Bands, buildBands } from './bands.js';

// Reading GeoJSON (RFC 7946) into parts: every geometry becomes points, lines and polygons
// (with their holes), their coordinates packed in typed arrays. Input is checked in full before
// anything is built; a fault is reported with its path in the input and what is wrong.

/** A GeoJSON position: longitude, latitude (and optionally more numbers, ignored). */
export type Position = number[];

/** A GeoJSON geometry. */
export type Geometry =
  | {
      /** The geometry's kind. */
      type: 'Point';
      /** The point's position. */
      coordinates: Position;
    }
  | {
      /** The geometry's kind. */
      type: 'MultiPoint';
      /** The positions of the points. */
      coordinates: Position[];
    }
  | {
      /** The geometry's kind. */
      type: 'LineString';
      /** The line's positions, two or more. */
      coordinates: Position[];
    }
  | {
      /** The geometry's kind. */
      type: 'MultiLineString';
      /** The lines, each an array of positions. */
      coordinates: Position[][];
    }
  | {
      /** The geometry's kind. */
      type: 'Polygon';
      /** The rings: the outer ring first, then the holes; each closed (last position = first). */
      coordinates: Position[][];
    }
  | {
      /** The geometry's kind. */
      type: 'MultiPolygon';
      /** The polygons, each an array of rings as in a Polygon. */
      coordinates: Position[][][];
    }
  | {
      /** The geometry's kind. */
      type: 'GeometryCollection';
      /** The geometries in the collection. */
      geometries: Geometry[];
    };

/** A GeoJSON feature: a geometry (or null) and its properties. */
export interface Feature<P = Record<string, unknown> | null> {
  /** Always `'Feature'`. */
  type: 'Feature';
  /** The feature's geometry, or null for a feature without one. */
  geometry: Geometry | null;
  /** The feature's properties, returned as given. */
  properties: P;
  /** The feature's identifier, if it has one. */
  id?: string | number | undefined;
  /** The bounding box the input carries, if any (not used: bounds come from the geometry). */
  bbox?: number[] | undefined;
}

/** A GeoJSON FeatureCollection. */
export interface FeatureCollection<P = Record<string, unknown> | null> {
  /** Always `'FeatureCollection'`. */
  type: 'FeatureCollection';
  /** The collection's features. */
  features: Feature<P>[];
}

/** Kinds of part. */
export const POINT_PART = 0;
export const LINE_PART = 1;
export const POLYGON_PART = 2;

/**
 * The parts of the features, packed: part p is of kind `kind[p]`, belongs to feature
 * `feature[p]` and has the rings [partRing[p], partRing[p + 1]); ring r has the vertices
 * [ringStart[r], ringStart[r + 1]) of `xy` (x, y per vertex). A point part has one ring of one
 * vertex, a line part one ring of its vertices, a polygon part its outer ring then its holes,
 * each closed (last vertex = first). `box` holds each part's bounds (minX, minY, maxX, maxY).
 */
export interface Parts {
  readonly count: number;
  /** Bands over the edges of large polygons (see bands.ts). */
  readonly bands: Bands;
  readonly kind: Uint8Array;
  readonly feature: Int32Array;
  readonly partRing: Int32Array;
  readonly ringStart: Int32Array;
  readonly xy: Float64Array;
  readonly box: Float64Array;
}

// Growable buffers the reader fills, then packs.
class Builder {
  kind: number[] = [];
  feature: number[] = [];
  partRing: number[] = [];
  ringStart: number[] = [];
  xy: number[] = [];

  part(kind: number, f: number): void {
    this.kind.push(kind);
    this.feature.push(f);
    this.partRing.push(this.ringStart.length);
  }

  ring(): void {
    this.ringStart.push(this.xy.length / 2);
  }

  pack(): Parts {
    const count = this.kind.length;
    const partRing = Int32Array.from([...this.partRing, this.ringStart.length]);
    const ringStart = Int32Array.from([...this.ringStart, this.xy.length / 2]);
    const xy = Float64Array.from(this.xy);
    const box = new Float64Array(4 * count);
    for (let p = 0; p < count; p++) {
      let minX = Number.POSITIVE_INFINITY;
      let minY = minX;
      let maxX = -minX;
      let maxY = -minX;
      for (let v = ringStart[partRing[p]!]!; v < ringStart[partRing[p + 1]!]!; v++) {
        const x = xy[2 * v]!;
        const y = xy[2 * v + 1]!;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
      box.set([minX, minY, maxX, maxY], 4 * p);
    }
    const kind = Uint8Array.from(this.kind);
    const isPolygon = (p: number) => kind[p] === POLYGON_PART;
    return {
      count,
      bands: buildBands(count, isPolygon, partRing, ringStart, xy, box),
      kind,
      feature: Int32Array.from(this.feature),
      partRing,
      ringStart,
      xy,
      box,
    };
  }
}

function array(path: string, value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) badField(path, value, what);
  return value;
}

function position(b: Builder, path: string, value: unknown): void {
  const p = array(path, value, 'a position [longitude, latitude]');
  if (p.length < 2) badField(path, p, 'a position [longitude, latitude]');
  for (let i = 0; i < 2; i++) {
    const v = p[i];
    if (typeof v !== 'number' || v - v !== 0) badField(`${path}[${i}]`, v, 'a finite number');
  }
  b.xy.push(p[0] as number, p[1] as number);
}

function positions(b: Builder, path: string, value: unknown, min: number, what: string): unknown[] {
  const list = array(path, value, what);
  if (list.length < min) badField(path, list, what);
  for (let i = 0; i < list.length; i++) position(b, `${path}[${i}]`, list[i]);
  return list;
}

function line(b: Builder, f: number, path: string, value: unknown): void {
  b.part(LINE_PART, f);
  b.ring();
  positions(b, path, value, 2, 'a line: an array of 2 or more positions');
}

function polygon(b: Builder, f: number, path: string, value: unknown): void {
  const rings = array(path, value, 'a polygon: an array of linear rings');
  if (rings.length === 0) return;
  const firstRing = b.ringStart.length;
  const firstXY = b.xy.length;
  b.part(POLYGON_PART, f);
  for (let r = 0; r < rings.length; r++) {
    const rp = `${path}[${r}]`;
    b.ring();
    const ring = positions(b, rp, rings[r], 4, 'a linear ring: an array of 4 or more positions');
    const { xy } = b;
    const n = ring.length;
    const first = xy.length - 2 * n;
    if (xy[first] !== xy[xy.length - 2] || xy[first + 1] !== xy[xy.length - 1]) {
      throw new InvalidTypeError(
        `quadkit: ${rp} must be a closed linear ring (its last position equal to its first), got first [${xy[first]}, ${xy[first + 1]}] and last [${xy[xy.length - 2]}, ${xy[xy.length - 1]}]`,
      );
    }
  }
  // A polygon with an edge longer than 180 degrees of longitude crosses the antimeridian: it is
  // read as the flat map reads it (antimeridian.ts), in parts of the same feature.
  const { xy, ringStart } = b;
  let crosses = false;
  for (let v = firstXY + 2; v < xy.length && !crosses; v += 2) {
    crosses = Math.abs(xy[v]! - xy[v - 2]!) > 180;
  }
  if (!crosses) return;
  const read: number[][][] = [];
  for (let r = firstRing; r < ringStart.length; r++) {
    const end = r + 1 < ringStart.length ? 2 * ringStart[r + 1]! : xy.length;
    const ring: number[][] = [];
    for (let v = 2 * ringStart[r]!; v < end; v += 2) ring.push([xy[v]!, xy[v + 1]!]);
    read.push(ring);
  }
  b.kind.pop();
  b.feature.pop();
  b.partRing.pop();
  ringStart.length = firstRing;
  xy.length = firstXY;
  for (const piece of cutPolygon(read)) {
    b.part(POLYGON_PART, f);
    for (const ring of piece) {
      b.ring();
      for (const [x, y] of ring) xy.push(x!, y!);
    }
  }
}

function geometry(b: Builder, f: number, path: string, g: unknown): void {
  if (g === null || typeof g !== 'object' || Array.isArray(g))
    badField(path, g, 'a GeoJSON geometry object');
  const { type } = g as { type?: unknown };
  const cp = `${path}.coordinates`;
  const c = (g as { coordinates?: unknown }).coordinates;
  switch (type) {
    case 'Point':
      b.part(POINT_PART, f);
      b.ring();
      position(b, cp, c);
      return;
    case 'MultiPoint': {
      const list = array(cp, c, 'an array of positions');
      for (let i = 0; i < list.length; i++) {
        b.part(POINT_PART, f);
        b.ring();
        position(b, `${cp}[${i}]`, list[i]);
      }
      return;
    }
    case 'LineString':
      line(b, f, cp, c);
      return;
    case 'MultiLineString': {
      const list = array(cp, c, 'an array of lines');
      for (let i = 0; i < list.length; i++) line(b, f, `${cp}[${i}]`, list[i]);
      return;
    }
    case 'Polygon':
      polygon(b, f, cp, c);
      return;
    case 'MultiPolygon': {
      const list = array(cp, c, 'an array of polygons');
      for (let i = 0; i < list.length; i++) polygon(b, f, `${cp}[${i}]`, list[i]);
      return;
    }
    case 'GeometryCollection': {
      const gp = `${path}.geometries`;
      const list = array(gp, (g as { geometries?: unknown }).geometries, 'an array of geometries');
      for (let i = 0; i < list.length; i++) geometry(b, f, `${gp}[${i}]`, list[i]);
      return;
    }
    default:
      badField(
        `${path}.type`,
        type,
        'one of "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection"',
      );
  }
}

/** What GeoIndex.from accepts. */
export type GeoInput<P> = FeatureCollection<P> | readonly Feature<P>[] | readonly Geometry[];

/**
 * Checks GeoJSON input in full and reads it into features (geometries given alone are wrapped as
 * features with `properties: null`) and packed parts. Throws a TypeError or RangeError naming
 * the first fault's path (`features[12].geometry.coordinates[0][3]`) and what is wrong.
 */
export function readGeoJson<P>(input: GeoInput<P>): { features: Feature<P>[]; parts: Parts } {
  let list: readonly unknown[];
  let name = 'features';
  if (Array.isArray(input)) {
    list = input;
    const first = list[0] as { type?: unknown } | undefined;
    if (first !== null && typeof first === 'object' && first.type !== 'Feature')
      name = 'geometries';
  } else if (
    input !== null &&
    typeof input === 'object' &&
    (input as { type?: unknown }).type === 'FeatureCollection'
  ) {
    list = array('features', (input as FeatureCollection<P>).features, 'an array of features');
  } else {
    badField('input', input, 'a FeatureCollection, an array of features or an array of geometries');
  }
  const b = new Builder();
  const features: Feature<P>[] = new Array(list.length);
  for (let f = 0; f < list.length; f++) {
    const path = `${name}[${f}]`;
    const item = list[f];
    if (name === 'geometries') {
      geometry(b, f, path, item);
      features[f] = { type: 'Feature', geometry: item as Geometry, properties: null as P };
      continue;
    }
    if (
      item === null ||
      typeof item !== 'object' ||
      (item as { type?: unknown }).type !== 'Feature'
    ) {
      badField(path, item, 'a GeoJSON Feature (type "Feature")');
    }
    const g = (item as Feature<P>).geometry;
    if (g === undefined) badField(`${path}.geometry`, g, 'a geometry object or null');
    if (g !== null) geometry(b, f, `${path}.geometry`, g);
    features[f] = item as Feature<P>;
  }
  return { features, parts: b.pack() };
}
