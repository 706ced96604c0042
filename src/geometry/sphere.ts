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
 * A lower bound on the haversine of the central angle from the point (lon, lat) to any point of
 * the lon/lat box [minX, maxX] × [minY, maxY] (latitudes clamped to [-90, 90]; a box 360° wide or
 * more, or unbounded, spans every meridian; otherwise longitudes wrap).
 *
 * The nearest point of the box (the idea of geokdbush's `boxDist`, Vladimir Agafonkin, 2017):
 * - if the point's meridian crosses the box, it is on that meridian, |Δφ| away, since the
 *   central angle is at least the difference of latitudes;
 * - otherwise it is on the edge meridian with the smaller |Δλ| (along a parallel the distance
 *   grows with |Δλ| while |Δλ| ≤ 180°, so no parallel edge beats its end; and at any one
 *   latitude the nearer meridian is nearer). Along that meridian, cos d = sin φ sin φ0 +
 *   cos φ cos φ0 cos Δλ = C cos(φ − θ) with θ = atan2(sin φ0, cos φ0 cos Δλ): the closest point
 *   is at φ = θ when θ is within the box's latitudes; otherwise at one of its ends, since over
 *   latitudes not containing θ (an interval under 180° wide) cos(φ − θ) peaks at an end.
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
  const width = maxX - minX;
  let h: number;
  // How far east of the west edge the point's meridian is, in [0, 360) (or NaN, or beyond it
  // when rounding lost the angle: then the point's meridian counts as crossing, a lower bound).
  const east = lon - minX - 360 * Math.floor((lon - minX) / 360);
  if (!(width < 360) || !(east >= 0 && east < 360) || east <= width) {
    // The point's meridian crosses the box: the latitude gap alone.
    const gap = lat < s ? s - lat : lat > n ? lat - n : 0;
    const a = Math.sin(gap * HALF_RAD);
    h = a * a;
  } else {
    // The nearer edge meridian, |Δλ| in (0, 180].
    const dLon = Math.min(east - width, 360 - east);
    const b = Math.sin(dLon * HALF_RAD);
    const havLon = b * b;
    const theta = Math.atan2(Math.sin(lat * RAD), cosLat * (1 - 2 * havLon)) / RAD;
    if (theta >= s && theta <= n) h = onMeridian(lat, cosLat, havLon, theta);
    else h = Math.min(onMeridian(lat, cosLat, havLon, s), onMeridian(lat, cosLat, havLon, n));
  }
  const low = h * BOUND_SHRINK - BOUND_SLACK;
  return low > 0 ? low : 0;
}

// The haversine of the central angle from (·, lat) to the point at latitude phi on a meridian
// whose hav(Δλ) is havLon.
function onMeridian(lat: number, cosLat: number, havLon: number, phi: number): number {
  const a = Math.sin((phi - lat) * HALF_RAD);
  return a * a + cosLat * Math.cos(phi * RAD) * havLon;
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
