// Polygons that cross the antimeridian, read as they are meant on a flat map in longitude and
// latitude. RFC 7946 asks for such polygons to be cut at ±180, but data drawn for spherical
// renderers is not: world-atlas's rings of Russia and Fiji step from 179.x to -180, which on the
// plane is an edge across the whole world, and the polygon a band of latitude around it; its
// Antarctica steps once from 180 to -180, closing round the South Pole. An edge longer than 180
// degrees of longitude is taken to cross the antimeridian (the short way round): a ring that
// crosses it an even number of times is unwrapped (longitudes made continuous) and clipped into
// the part west of the line and the part east of it (Sutherland and Hodgman, "Reentrant polygon
// clipping", 1974), the far part moved back by 360 degrees; a ring that crosses it once encloses
// a pole, and is closed along the map's edge round the pole on the side of the crossing.

/** A ring: closed, [lon, lat] positions. */
export type Ring = number[][];

/** A Polygon's or MultiPolygon's GeoJSON geometry. */
export type Areal =
  | {
      /** The geometry's kind. */
      type: 'Polygon';
      /** The rings: the outer ring first, then the holes. */
      coordinates: Ring[];
    }
  | {
      /** The geometry's kind. */
      type: 'MultiPolygon';
      /** The polygons, each an array of rings as in a Polygon. */
      coordinates: Ring[][];
    };

/**
 * The geometry as a flat map in longitude and latitude reads it: every polygon that crosses the
 * antimeridian (has an edge longer than 180 degrees of longitude) split into its parts either
 * side of it (a MultiPolygon), and a ring round a pole closed along the map's edge; other
 * geometries come back as they are. `GeoIndex` and the `quadkit` command read polygons this way.
 * @param geometry - a Polygon or MultiPolygon in degrees.
 */
export function cutAtAntimeridian(geometry: Areal): Areal {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  if (!polygons.some((rings) => rings.some((r) => jumps(r) > 0))) return geometry;
  return { type: 'MultiPolygon', coordinates: polygons.flatMap(cutPolygon) };
}

/**
 * One polygon (its rings) as one or more polygons that do not cross the antimeridian (see
 * `cutAtAntimeridian`); the polygon itself, in an array, when it does not cross it.
 * @internal
 */
export function cutPolygon(rings: Ring[]): Ring[][] {
  const counts = rings.map(jumps);
  if (counts.every((c) => c === 0)) return [rings];
  // An outer ring round a pole (closed along the edge of the map) or one that does not cross:
  // the polygon stays one, each other ring that crosses split in place into its parts either
  // side (rings combine even-odd, so the parts of a hole stay holes).
  if (counts[0]! % 2 === 1 || counts[0] === 0) {
    return [
      rings.flatMap((r, i) =>
        counts[i] === 0 ? [r] : counts[i]! % 2 === 1 ? [aroundPole(r)] : splitRing(r),
      ),
    ];
  }
  // Every ring unwrapped near the outer ring's first longitude (a hole beyond the line moves
  // with the part it lies in), then each side's part of the polygon, its outer ring first.
  const start = rings[0]![0]![0]!;
  const unwrapped = rings.map((r) => unwrap(r, start));
  const line = lineOf(unwrapped);
  const out: Ring[][] = [];
  for (const side of [-1, 1]) {
    const part = unwrapped.map((r) => sideOf(r, line, side));
    // (A part whose outer ring lies wholly on the other side has nothing left here.)
    if (part[0]!.length >= 4) out.push(part.filter((r) => r.length >= 4));
  }
  return out;
}

// The meridian that unwrapped rings cross: +180 when some longitude runs past it, else -180.
function lineOf(unwrapped: Ring[]): number {
  return unwrapped.some((r) => r.some(([x]) => x! > 180)) ? 180 : -180;
}

// The part of an unwrapped ring on one side of `line` (side -1: x <= line; 1: x >= line), the
// part beyond the antimeridian moved back by 360 degrees; fewer than 4 positions when none.
function sideOf(ring: Ring, line: number, side: number): Ring {
  const shift = side * line > 0 ? -2 * line : 0;
  return clip(ring, line, side).map(([x, y]) => [x! + shift, y!]);
}

// A ring that crosses the antimeridian an even number of times, as its parts either side of it
// (unwrapped, clipped, the far part moved back by 360 degrees).
function splitRing(ring: Ring): Ring[] {
  const unwrapped = unwrap(ring, ring[0]![0]!);
  const line = lineOf([unwrapped]);
  return [-1, 1].map((side) => sideOf(unwrapped, line, side)).filter((r) => r.length >= 4);
}

// How many edges of the ring are longer than 180 degrees of longitude.
function jumps(ring: Ring): number {
  let n = 0;
  for (let i = 1; i < ring.length; i++) {
    if (Math.abs(ring[i]![0]! - ring[i - 1]![0]!) > 180) n++;
  }
  return n;
}

// The ring with each longitude moved by a multiple of 360 to within 180 of the one before (the
// first, of `from`).
function unwrap(ring: Ring, from: number): Ring {
  let last = from;
  return ring.map(([x, y]) => {
    const u = x! + 360 * Math.round((last - x!) / 360);
    last = u;
    return [u, y!];
  });
}

// A ring that crosses the antimeridian once, closed along the map's edge: at its crossing it
// runs along the meridian it reaches to the pole on that side (south for a crossing south of
// the equator), along the pole's edge of the map to the other meridian, and back.
function aroundPole(ring: Ring): Ring {
  const out: Ring = [];
  for (let i = 0; i < ring.length; i++) {
    const q = ring[i]!;
    const p = ring[i - 1];
    if (p !== undefined && Math.abs(q[0]! - p[0]!) > 180) {
      const from = p[0]! >= 0 ? 180 : -180;
      // The crossing's latitude: where the edge, taken the short way, meets the meridian.
      const qx = q[0]! + (from > 0 ? 360 : -360);
      const t = p[0]! === qx ? 0 : (from - p[0]!) / (qx - p[0]!);
      const y = p[1]! + t * (q[1]! - p[1]!);
      const pole = y < 0 ? -90 : 90;
      out.push([from, y], [from, pole], [-from, pole], [-from, y]);
    }
    out.push([q[0]!, q[1]!]);
  }
  return out;
}

// The part of a closed ring on one side of the meridian x = line (side -1: x <= line, 1:
// x >= line), closed.
function clip(ring: Ring, line: number, side: number): Ring {
  const inside = (p: number[]) => side * (p[0]! - line) >= 0;
  const out: Ring = [];
  for (let i = 0; i + 1 < ring.length; i++) {
    const p = ring[i]!;
    const q = ring[i + 1]!;
    if (inside(p) !== inside(q)) {
      const t = (line - p[0]!) / (q[0]! - p[0]!);
      out.push([line, p[1]! + t * (q[1]! - p[1]!)]);
    }
    if (inside(q)) out.push(q);
  }
  if (out.length > 0) out.push(out[0]!);
  return out;
}
