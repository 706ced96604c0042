// Web Mercator tiles and quadkeys: the XYZ tile scheme of OpenStreetMap and Google ("Slippy map
// tilenames", OpenStreetMap wiki), which PostGIS's ST_TileEnvelope(z, x, y) also uses, and the
// quadkeys of the Bing Maps Tile System (Joe Schwartz, "Bing Maps Tile System", Microsoft, 2018):
// one base-4 digit per zoom level, (x bit) + 2 × (y bit), most significant level first.
//
// Tile edges are computed by one function each (tileWest, tileNorth), and a point's tile is
// corrected against them, so the tile of a point always holds it: tiles are half-open,
// [west, east) × (south, north], a point on an edge going to the east or south tile; latitudes
// beyond the Mercator limit and longitudes beyond ±180 go to the edge tiles.

import { InvalidTypeError } from '../errors.js';
import type { QueryIndex } from '../queries.js';
import { checkFinite, checkInteger, checkRange } from '../validate.js';

/** The latitude limit of the Web Mercator square, atan(sinh(π)) in degrees. */
export const MAX_MERCATOR_LATITUDE = (Math.atan(Math.sinh(Math.PI)) * 180) / Math.PI;

/** The deepest zoom level: tile numbers stay within 2^30. */
export const MAX_ZOOM = 30;

/** A Web Mercator tile: column x (from the west), row y (from the north), zoom z. */
export interface Tile {
  /** Column, 0 (west) to 2^z − 1. */
  x: number;
  /** Row, 0 (north) to 2^z − 1. */
  y: number;
  /** Zoom level, 0 to 30. */
  z: number;
}

/** A lon/lat box in degrees. */
export interface LonLatBox {
  /** West edge, longitude in degrees. */
  west: number;
  /** South edge, latitude in degrees. */
  south: number;
  /** East edge, longitude in degrees. */
  east: number;
  /** North edge, latitude in degrees. */
  north: number;
}

/** The tiles from column minX to maxX and row minY to maxY at zoom z (minX > maxX: it wraps). */
export interface TileRange {
  /** First column (the west edge's); greater than maxX when the range wraps. */
  minX: number;
  /** First row (the north edge's). */
  minY: number;
  /** Last column (the east edge's). */
  maxX: number;
  /** Last row (the south edge's). */
  maxY: number;
  /** Zoom level, 0 to 30. */
  z: number;
}

// The west edge of column x at zoom z (x may be 2^z: the east edge of the last column).
function tileWest(x: number, z: number): number {
  return (x / 2 ** z) * 360 - 180;
}

// The north edge of row y at zoom z (y may be 2^z: the south edge of the last row).
function tileNorth(y: number, z: number): number {
  return (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;
}

// The column of a longitude at zoom z: by the formula, then checked against the edges.
function column(lon: number, z: number): number {
  const n = 2 ** z;
  let x = Math.floor(((lon + 180) / 360) * n);
  x = x < 0 ? 0 : x > n - 1 ? n - 1 : x;
  while (x < n - 1 && lon >= tileWest(x + 1, z)) x++;
  while (x > 0 && lon < tileWest(x, z)) x--;
  return x;
}

// The row of a latitude at zoom z: by the formula, then checked against the edges.
function row(lat: number, z: number): number {
  const n = 2 ** z;
  const clamped = Math.max(-MAX_MERCATOR_LATITUDE, Math.min(MAX_MERCATOR_LATITUDE, lat));
  const s = Math.sin((clamped * Math.PI) / 180);
  let y = Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n);
  y = y < 0 ? 0 : y > n - 1 ? n - 1 : y;
  while (y < n - 1 && lat <= tileNorth(y + 1, z)) y++;
  while (y > 0 && lat > tileNorth(y, z)) y--;
  return y;
}

function checkZoom(z: number): void {
  checkInteger('z', z, 0, MAX_ZOOM);
}

function checkTile(x: number, y: number, z: number): void {
  checkZoom(z);
  checkInteger('x', x, 0, 2 ** z - 1);
  checkInteger('y', y, 0, 2 ** z - 1);
}

/**
 * The Web Mercator tile holding the lon/lat point at zoom z (edges: see the module note).
 *
 * @param lon - longitude in degrees; `lat` latitude in degrees.
 * @param z - zoom level, 0 to 30.
 */
export function lonLatToTile(lon: number, lat: number, z: number): Tile {
  checkFinite('lon', lon);
  checkFinite('lat', lat);
  checkZoom(z);
  return { x: column(lon, z), y: row(lat, z), z };
}

/**
 * The lon/lat bounds of a tile: west and east longitudes, south and north latitudes (rows 0 and
 * 2^z − 1 end at the Mercator limit, ±85.0511°).
 *
 * @param x - the tile's column; `y` its row, `z` its zoom.
 */
export function tileBounds(x: number, y: number, z: number): LonLatBox {
  checkTile(x, y, z);
  return {
    west: tileWest(x, z),
    south: tileNorth(y + 1, z),
    east: tileWest(x + 1, z),
    north: tileNorth(y, z),
  };
}

/**
 * The range of tiles at zoom z that a lon/lat box meets. A box with west > east crosses the
 * antimeridian: its range has minX > maxX and wraps from minX east to the last column, then from
 * column 0 to maxX.
 *
 * @param west - the box's west longitude; `south`, `east`, `north` likewise (south <= north).
 * @param z - zoom level, 0 to 30.
 */
export function tileRange(
  west: number,
  south: number,
  east: number,
  north: number,
  z: number,
): TileRange {
  checkFinite('west', west);
  checkFinite('east', east);
  checkFinite('south', south);
  checkRange('north', north, south, Number.MAX_VALUE);
  checkZoom(z);
  return {
    minX: column(west, z),
    minY: row(north, z),
    maxX: column(east, z),
    maxY: row(south, z),
    z,
  };
}

/**
 * The quadkey of a tile (Bing Maps Tile System): z digits 0-3, one per level from the top; the
 * empty string at zoom 0.
 *
 * @param x - the tile's column; `y` its row, `z` its zoom.
 */
export function tileToQuadkey(x: number, y: number, z: number): string {
  checkTile(x, y, z);
  return quadkey(x, y, z);
}

// The quadkey of a checked tile.
function quadkey(x: number, y: number, z: number): string {
  let key = '';
  for (let i = z; i > 0; i--) {
    const mask = 1 << (i - 1);
    key += String((x & mask ? 1 : 0) + (y & mask ? 2 : 0));
  }
  return key;
}

/**
 * The tile of a quadkey.
 *
 * @param key - a string of 0 to 30 digits 0-3.
 */
export function quadkeyToTile(key: string): Tile {
  if (typeof key !== 'string' || key.length > MAX_ZOOM || !/^[0-3]*$/.test(key)) {
    throw new InvalidTypeError(
      `quadkit: key must be a quadkey (up to ${MAX_ZOOM} digits 0-3), got ${JSON.stringify(key)}`,
    );
  }
  let x = 0;
  let y = 0;
  for (let i = 0; i < key.length; i++) {
    const d = key.charCodeAt(i) - 48;
    x = 2 * x + (d & 1);
    y = 2 * y + (d >> 1);
  }
  return { x, y, z: key.length };
}

/**
 * The quadkey of the tile holding the lon/lat point at zoom z.
 *
 * @param lon - longitude in degrees; `lat` latitude in degrees.
 * @param z - zoom level, 0 to 30.
 */
export function lonLatToQuadkey(lon: number, lat: number, z: number): string {
  const t = lonLatToTile(lon, lat, z);
  return quadkey(t.x, t.y, z);
}

const FAR = Number.POSITIVE_INFINITY;

/**
 * The items of an index whose items are placed at x = longitude, y = latitude, grouped by the
 * tile at zoom z of their bounds' south-east corner (for a point item, the point's tile, as
 * `lonLatToQuadkey` gives it): a Map from quadkey to items, in quadkey order. The walk descends
 * the tile pyramid only into tiles that hold a corner, so the cost follows those tiles, however
 * many tiles a large box covers.
 *
 * @param index - any quadkit index of lon/lat items.
 * @param z - zoom level, 0 to 30.
 */
export function itemsByTile<T>(index: QueryIndex<T>, z: number): Map<string, T[]> {
  checkZoom(z);
  // A point meets at most four tiles of a level (where they share a corner): the walk may go
  // down every tile that meets an item. A box meets many, and only those with its corner count.
  const points = index.pointItems();
  const owner = new Map<T, number>();
  const tiles: number[] = [];
  const out = new Map<string, T[]>();
  const stack = [0, 0, 0];
  while (stack.length > 0) {
    const level = stack.pop()!;
    const ty = stack.pop()!;
    const tx = stack.pop()!;
    // The tile's closed box, edge tiles stretched out to take in everything beyond them.
    const n = 2 ** level;
    const west = tx === 0 ? -FAR : tileWest(tx, level);
    const east = tx === n - 1 ? FAR : tileWest(tx + 1, level);
    const north = ty === 0 ? FAR : tileNorth(ty, level);
    const south = ty === n - 1 ? -FAR : tileNorth(ty + 1, level);
    // Of the items that meet a tile, those that also meet its east or south edge have their
    // corner in a tile east or south of it (the half-open rule of lonLatToTile); the others have
    // it here. (Points need no such set: the owner map below settles the few on shared edges.)
    const beyond = points ? null : edgeItems(index, west, south, east, north);
    const passing = beyond === null ? 0 : beyond.size;
    if (level < z) {
      // A point or corner here when more items meet the tile than pass beyond it.
      if (index.searchEdges(west, south, east, north, passing + 1).length <= passing) continue;
      // Children pushed in reverse, so they pop in quadkey order.
      for (let d = 3; d >= 0; d--) stack.push(2 * tx + (d & 1), 2 * ty + (d >> 1), level + 1);
      continue;
    }
    if (beyond === null) {
      // A point on shared edges belongs to the tile with the largest column, then the largest
      // row: the half-open rule again.
      const t = tiles.length / 2;
      let found = false;
      for (const item of index.searchEdges(west, south, east, north, FAR)) {
        found = true;
        const prev = owner.get(item);
        if (prev === undefined) {
          owner.set(item, t);
          continue;
        }
        const px = tiles[2 * prev]!;
        if (tx > px || (tx === px && ty > tiles[2 * prev + 1]!)) owner.set(item, t);
      }
      if (found) tiles.push(tx, ty);
      continue;
    }
    const here = index.searchEdges(west, south, east, north, FAR).filter((i) => !beyond.has(i));
    if (here.length > 0) out.set(quadkey(tx, ty, z), here);
  }
  if (!points) return out;
  // The points grouped by their tile, in the walk's (quadkey) order.
  const groups: T[][] = tiles.filter((_, i) => i % 2 === 0).map(() => []);
  for (const [item, t] of owner) groups[t]!.push(item);
  for (let t = 0; t < groups.length; t++) {
    const g = groups[t]!;
    if (g.length > 0) out.set(quadkey(tiles[2 * t]!, tiles[2 * t + 1]!, z), g);
  }
  return out;
}

// The items that meet the east or the south edge of the tile's closed box.
function edgeItems<T>(
  index: QueryIndex<T>,
  west: number,
  south: number,
  east: number,
  north: number,
): Set<T> {
  const items = new Set(index.searchEdges(east, south, east, north, FAR));
  for (const item of index.searchEdges(west, south, east, south, FAR)) items.add(item);
  return items;
}
