// Great-circle distances on a sphere, by the haversine formula (R. W. Sinnott, "Virtues of the
// Haversine", Sky and Telescope 68(2), 1984): the haversine of the central angle between two
// points is hav(Δφ) + cos φ1 cos φ2 hav(Δλ), with hav(θ) = sin²(θ / 2). Best-first search ranks
// by that haversine (monotone in the distance, and cheaper: no asin or sqrt per item); the
// front doors turn it into kilometres.

const RAD = Math.PI / 180;
const HALF_RAD = Math.PI / 360;

/**
 * Relative and absolute slack taken off a box's bound, so that rounding never puts it above the
 * computed haversine of a point inside the box: the terms below carry a few ulps of relative
 * error, and cos φ near a pole an absolute error near 2e-16 (its argument is rounded).
 */
const BOUND_SHRINK = 1 - 1e-12;
const BOUND_SLACK = 1e-15;

/** A latitude clamped to [-90, 90]. */
function clampLat(lat: number): number {
  return lat > 90 ? 90 : lat < -90 ? -90 : lat;
}

/**
 * The haversine of the central angle between the point (lon, lat), whose cos(lat) is `cosLat`,
 * and the point (px, py) (latitude clamped to [-90, 90]); longitudes wrap.
 *
 * @param lon - the first point's longitude in degrees; `lat` its latitude (in [-90, 90]).
 * @param cosLat - `Math.cos(lat * Math.PI / 180)`.
 * @param px - the second point's longitude in degrees; `py` its latitude.
 */
export function havPoints(
  lon: number,
  lat: number,
  cosLat: number,
  px: number,
  py: number,
): number {
  const y = clampLat(py);
  const a = Math.sin((y - lat) * HALF_RAD);
  const b = Math.sin((px - lon) * HALF_RAD);
  return a * a + cosLat * Math.cos(y * RAD) * b * b;
}

/**
 * The angle in degrees, in (0, 180], from the meridian `lon` to the nearer edge meridian of the
 * longitudes [minX, maxX] going round the circle, or 0 when the meridian crosses them (a range
 * 360° wide or more, or unbounded, crosses every meridian; so does one where rounding lost the
 * angle, which keeps any bound built on it a lower bound).
 */
function lonGap(lon: number, minX: number, maxX: number): number {
  const width = maxX - minX;
  // How far east of the west edge the meridian is, in [0, 360).
  const east = lon - minX - 360 * Math.floor((lon - minX) / 360);
  if (!(width < 360 && east >= 0 && east < 360 && east > width)) return 0;
  return Math.min(east - width, 360 - east);
}

/**
 * A lower bound on the haversine of the central angle from the point (lon, lat) to any point of
 * the lon/lat box [minX, maxX] × [minY, maxY] (latitudes clamped to [-90, 90]; a box 360° wide or
 * more, or unbounded, spans every meridian; otherwise longitudes wrap).
 *
 * The bound (after geokdbush's `boxDist`, Vladimir Agafonkin, 2017, which finds the box's
 * nearest point exactly; this one trades a little tightness for fewer transcendental calls):
 * - if the point's meridian crosses the box, hav(gap), where gap is the latitude gap from the
 *   point to [minY, maxY]: the central angle is at least the difference of latitudes;
 * - otherwise hav(gap) + min(cos minY, cos maxY) cos φ0 hav(Δλ), where Δλ is the angle to the
 *   nearer edge meridian: in hav(d) = hav(Δφ) + cos φ cos φ0 hav(Δλ) every factor is at least
 *   its bound, |Δφ| >= gap, the box's |Δλ| >= that of its nearer edge (going round the circle),
 *   and cos φ over [minY, maxY] is smallest at the end farthest from the equator.
 *
 * The result is shrunk by a relative and an absolute slack for rounding (see BOUND_SHRINK).
 *
 * @param lon - the point's longitude in degrees; `lat` its latitude (in [-90, 90]).
 * @param cosLat - `Math.cos(lat * Math.PI / 180)`.
 * @param minX - the box's west edge; `minY` south, `maxX` east, `maxY` north.
 */
export function havBoxBound(
  lon: number,
  lat: number,
  cosLat: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): number {
  const s = clampLat(minY);
  const n = clampLat(maxY);
  // The latitude gap from the point to [s, n].
  const gap = lat < s ? s - lat : lat > n ? lat - n : 0;
  const a = Math.sin(gap * HALF_RAD);
  let h = a * a;
  const dLon = lonGap(lon, minX, maxX);
  if (dLon > 0) {
    // The meridian misses the box: add the term of the nearer edge meridian.
    const b = Math.sin(dLon * HALF_RAD);
    // cos φ over [s, n] is smallest at the latitude farthest from the equator.
    const far = Math.max(Math.abs(s), Math.abs(n));
    h += Math.cos(far * RAD) * cosLat * b * b;
  }
  const low = h * BOUND_SHRINK - BOUND_SLACK;
  return low > 0 ? low : 0;
}

/**
 * The central angle's haversine for a distance on a sphere: sin²(d / 2R), or Infinity when the
 * distance reaches half the circumference (every point is within it).
 *
 * @param distance - the distance (>= 0), in the radius's unit; `radius` the sphere's radius.
 */
export function havOfDistance(distance: number, radius: number): number {
  const angle = distance / radius;
  if (!(angle < Math.PI)) return Number.POSITIVE_INFINITY;
  const a = Math.sin(angle / 2);
  return a * a;
}

/**
 * The distance on a sphere of radius `radius` for a central angle whose haversine is `hav`:
 * 2R asin(√hav).
 *
 * @param hav - the haversine of the central angle, in [0, 1]; `radius` the sphere's radius.
 */
export function distanceOfHav(hav: number, radius: number): number {
  return 2 * radius * Math.asin(Math.sqrt(hav < 1 ? hav : 1));
}

/**
 * The haversine of the central angle from the point (lon, lat) to the nearest point of the lon/lat
 * box [minX, maxX] × [minY, maxY] (clamped and wrapped as in `havBoxBound`), for box items: the
 * nearest point of geokdbush's `boxDist` (Vladimir Agafonkin, 2017). If the point's meridian
 * crosses the box, it is on that meridian at the nearer latitude. Otherwise it is on the edge
 * meridian with the smaller |Δλ| (along a parallel the distance grows with |Δλ| up to 180°, and
 * at each latitude the nearer meridian is nearer); along it cos d = sin φ sin φ0 +
 * cos φ cos φ0 cos Δλ = C cos(φ − θ) with θ = atan2(sin φ0, cos φ0 cos Δλ), so the nearest point
 * is at φ = θ when θ is within the box's latitudes, else at one of their ends (over an interval
 * of latitudes not containing θ, cos(φ − θ) peaks at an end).
 *
 * @param lon - the point's longitude in degrees; `lat` its latitude (in [-90, 90]).
 * @param cosLat - `Math.cos(lat * Math.PI / 180)`.
 * @param minX - the box's west edge; `minY` south, `maxX` east, `maxY` north.
 */
export function havBoxNearest(
  lon: number,
  lat: number,
  cosLat: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): number {
  const s = clampLat(minY);
  const n = clampLat(maxY);
  const dLon = lonGap(lon, minX, maxX);
  if (dLon === 0) {
    // The point's meridian crosses the box: straight north or south to it.
    return onMeridian(lat, cosLat, 0, lat < s ? s : lat > n ? n : lat);
  }
  const b = Math.sin(dLon * HALF_RAD);
  const havLon = b * b;
  const theta = Math.atan2(Math.sin(lat * RAD), cosLat * (1 - 2 * havLon)) / RAD;
  if (theta >= s && theta <= n) return onMeridian(lat, cosLat, havLon, theta);
  return Math.min(onMeridian(lat, cosLat, havLon, s), onMeridian(lat, cosLat, havLon, n));
}

// The haversine of the central angle from (·, lat) to the point at latitude phi on a meridian
// whose hav(Δλ) is havLon.
function onMeridian(lat: number, cosLat: number, havLon: number, phi: number): number {
  const a = Math.sin((phi - lat) * HALF_RAD);
  return a * a + cosLat * Math.cos(phi * RAD) * havLon;
}
