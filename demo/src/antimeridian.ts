// Polygons that cross the antimeridian, cut there, so that they read right on a flat map in
// longitude and latitude. world-atlas's countries are drawn for spherical renderers (d3-geo): a
// ring of Russia or Fiji steps from 179.x to -180, which on the plane is an edge across the
// whole world, and its polygon a band around it. Each such ring is unwrapped (longitudes made
// continuous) and clipped into the part west of the line and the part east of it (Sutherland
// and Hodgman, "Reentrant polygon clipping", 1974), the far part moved back by 360 degrees.
// No DOM here: the browser test cuts the same way for its brute-force answers.

/** A ring: closed, [lon, lat] positions. */
export type Ring = number[][];

/** A Polygon's or MultiPolygon's GeoJSON geometry. */
export type Areal =
  | { type: 'Polygon'; coordinates: Ring[] }
  | { type: 'MultiPolygon'; coordinates: Ring[][] };

/**
 * The geometry with every polygon that crosses the antimeridian split in two (a MultiPolygon);
 * others come back as they are.
 * @param geometry - a Polygon or MultiPolygon in degrees.
 */
export function cutAtAntimeridian(geometry: Areal): Areal {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  if (!polygons.some((rings) => rings.some(crosses))) return geometry;
  const out: Ring[][] = [];
  for (const rings of polygons) {
    if (!rings.some(crosses)) {
      out.push(rings);
      continue;
    }
    const unwrapped = rings.map(unwrap);
    // The line the rings cross: +180 or -180.
    const line = unwrapped.some((r) => r.some(([x]) => x! > 180)) ? 180 : -180;
    for (const side of [-1, 1]) {
      // side -1: the part with x <= line; side 1: x >= line. The part beyond moves back.
      const shift = side * line > 0 ? -2 * line : 0;
      const part = unwrapped
        .map((r) => clip(r, line, side))
        .filter((r) => r.length >= 4)
        .map((r) => r.map(([x, y]) => [x! + shift, y!]));
      if (part.length > 0) out.push(part);
    }
  }
  return { type: 'MultiPolygon', coordinates: out };
}

// Whether a ring steps across the antimeridian (an edge longer than 180 degrees of longitude).
function crosses(ring: Ring): boolean {
  for (let i = 1; i < ring.length; i++) {
    if (Math.abs(ring[i]![0]! - ring[i - 1]![0]!) > 180) return true;
  }
  return false;
}

// The ring with each longitude moved by a multiple of 360 to within 180 of the one before.
function unwrap(ring: Ring): Ring {
  let last = ring[0]![0]!;
  return ring.map(([x, y]) => {
    const u = x! + 360 * Math.round((last - x!) / 360);
    last = u;
    return [u, y!];
  });
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
