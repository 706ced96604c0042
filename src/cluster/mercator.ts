// Web Mercator in the unit square, and the fixed-point grid the clusterer stores coordinates on.
// x = 0 at longitude -180 and 1 at 180; y = 0 at the north edge (latitude ≈ 85.0511) and 1 at the
// south edge; latitudes beyond the square's edges are clamped to them, as map tiles do.
// Coordinates are kept as integers on a 2^30 grid centred on the square, (c - 0.5) * 2^30 in
// Int32 (truncated toward zero): the same fixed point supercluster 9 uses, so distances and
// cluster centres round the same way and the two give the same clusters.

/** Units of the fixed-point grid per unit of the Mercator square. */
export const SCALE = 0x40000000;
const INV_SCALE = 1 / SCALE;
/** Offset that moves fixed-point coordinates to [0, 2^30]. */
export const HALF = 0x20000000;

/** Longitude in degrees to Mercator x in [0, 1]. */
export function lngX(lng: number): number {
  return lng / 360 + 0.5;
}

/** Latitude in degrees to Mercator y in [0, 1] (clamped at the square's edges). */
export function latY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
}

/** Mercator x to longitude in degrees. */
export function xLng(x: number): number {
  return (x - 0.5) * 360;
}

/** Mercator y to latitude in degrees. */
export function yLat(y: number): number {
  const y2 = ((180 - y * 360) * Math.PI) / 180;
  return (360 * Math.atan(Math.exp(y2))) / Math.PI - 90;
}

/** A Mercator coordinate in [0, 1] to the fixed-point grid (store it in an Int32Array). */
export function encode(c: number): number {
  return (c - 0.5) * SCALE;
}

/** A fixed-point coordinate back to [0, 1]. */
export function decode(v: number): number {
  return v * INV_SCALE + 0.5;
}
