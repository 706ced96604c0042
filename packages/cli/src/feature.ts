// What the readers give: a GeoJSON feature, the place in its file it came from, and the checks
// every feature read passes (a feature or a bare geometry, positions on the globe).
import { CliError } from './errors.js';

/** A GeoJSON feature as read from a file (validated later, by the index that takes it). */
export interface Feature {
  type: 'Feature';
  geometry: { type: string; coordinates?: unknown; geometries?: unknown } | null;
  properties: Record<string, unknown> | null;
  [key: string]: unknown;
}

/**
 * Where a feature came from, for messages: the text (`cities.ndjson:13`), or a record that makes
 * it when asked (a CSV row's, so that a million rows make no million strings).
 */
export type Place = string | { readonly where: string };

/** The text of a place. */
export function placeText(place: Place | undefined): string {
  return place === undefined ? '' : typeof place === 'string' ? place : place.where;
}

/** A feature and where it came from: `features[12]`, `line 13`. */
export interface Sourced {
  readonly feature: Feature;
  readonly where: string;
}

/**
 * A feature read from a file and its place there, line `at` (`path` null: NDJSON, CSV) or
 * element `at` of the array at `path` (GeoJSON), made into text only when asked, for a message
 * (a text per feature cost a million-row CSV file about as much as the rest of its reading).
 */
export class Row implements Sourced {
  feature!: Feature;
  constructor(
    private readonly file: string,
    private readonly path: string | null,
    private readonly at: number,
  ) {}

  get where(): string {
    return this.path === null
      ? `${this.file}:${this.at}`
      : `${this.file}: ${this.path}[${this.at}]`;
  }
}

// Throws naming the place when a position of the geometry lies off the globe: a longitude
// outside [-180, 180] or a latitude outside [-90, 90] (the commands measure great circles and
// tiles in degrees; a latitude of 91 would be read as 89). Anything not a position array is left
// to the library's checks.
function checkLonLat(geometry: unknown, place: Place): void {
  if (geometry === null || typeof geometry !== 'object') return;
  const g = geometry as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  if (Array.isArray(g.geometries)) for (const part of g.geometries) checkLonLat(part, place);
  const depth = depthOf(g.type);
  if (depth < 0) checkPositions(g.coordinates, place);
  else checkAt(g.coordinates, depth, place);
}

// How deep a type's positions lie in its coordinates (0: the coordinates are one; -1: not a type
// with coordinates).
function depthOf(type: unknown): number {
  switch (type) {
    case 'Point':
      return 0;
    case 'MultiPoint':
    case 'LineString':
      return 1;
    case 'MultiLineString':
    case 'Polygon':
      return 2;
    case 'MultiPolygon':
      return 3;
    default:
      return -1;
  }
}

// The positions `depth` arrays down, each list of them walked in one loop that reads two numbers
// a position (a fifth of the time of reading 51 MB of polygons went to the first walk of their
// positions by checkPositions' recursion, which looks at each element for what it is: 524 -> 424
// ms a pass); whatever is not nested as the type says is looked at by checkPositions.
function checkAt(c: unknown, depth: number, place: Place): void {
  if (!Array.isArray(c)) return;
  if (depth === 0 || typeof c[0] === 'number') checkPositions(c, place);
  else if (depth > 1) for (let i = 0; i < c.length; i++) checkAt(c[i], depth - 1, place);
  else
    for (let i = 0; i < c.length; i++) {
      const p: unknown = c[i];
      if (!Array.isArray(p) || typeof p[0] !== 'number') checkPositions(p, place);
      else if (!(Math.abs(p[0]) <= 180 && Math.abs(p[1] as number) <= 90)) checkPosition(p, place);
    }
}

// The positions in nested arrays of any depth: each array whose first element is a number.
function checkPositions(c: unknown, place: Place): void {
  if (!Array.isArray(c)) return;
  if (typeof c[0] === 'number') checkPosition(c, place);
  else for (let i = 0; i < c.length; i++) checkPositions(c[i], place);
}

function checkPosition(c: unknown[], place: Place): void {
  const [x, y] = c as number[];
  if (!(Math.abs(x!) <= 180 && Math.abs(y!) <= 90) && Number.isFinite(x) && Number.isFinite(y))
    throw new CliError(
      `${placeText(place)}: position [${x}, ${y}] is off the globe (longitude in [-180, 180], latitude in [-90, 90])`,
    );
}

/**
 * A feature, or a bare geometry wrapped in one, its positions checked to lie on the globe;
 * anything else is an error naming the place.
 * @param value - a parsed JSON value.
 * @param place - where it was read, for messages.
 */
export function asFeature(value: unknown, place: Place): Feature {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new CliError(
      `${placeText(place)}: expected a GeoJSON feature or geometry, got ${kind(value)}`,
    );
  const type = (value as { type?: unknown }).type;
  if (type === 'Feature') {
    const f = value as Feature;
    if (f.properties === undefined) f.properties = null;
    checkLonLat((f as { geometry?: unknown }).geometry, place);
    return f;
  }
  if (typeof type === 'string' && type !== 'FeatureCollection') {
    checkLonLat(value, place);
    return { type: 'Feature', geometry: value as Feature['geometry'], properties: null };
  }
  throw new CliError(
    `${placeText(place)}: expected a GeoJSON feature or geometry, got type ${JSON.stringify(type)}`,
  );
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? JSON.stringify(value) : typeof value;
}
