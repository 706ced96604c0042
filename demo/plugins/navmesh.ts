// A Vite plugin that builds the navigation mesh of scene 4 at build time: South Africa from the
// installed world-atlas package (its outline, with Lesotho as a hole). The outline's vertices
// and a staggered grid of interior points are triangulated by delaunator, and the triangles
// whose centre lies in the country are kept: well-shaped triangles that follow the outline
// (a triangle may cut across a small bay, where two outline vertices see each other).
// `import { mesh } from 'virtual:navmesh'` gives flat arrays, the format of earcut and
// delaunator: `coords` [x0, y0, x1, y1, ...] in degrees, `triangles` three vertex indices each.

import { createRequire } from 'node:module';
import Delaunator from 'delaunator';
import type { Plugin } from 'vite';

type Ring = [number, number][];

interface Topology {
  objects: { countries: unknown };
}

interface Feature {
  properties: { name: string };
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: Ring[] | Ring[][] };
}

const ID = 'virtual:navmesh';
const RESOLVED = `\0${ID}`;
const COUNTRY = 'South Africa';
// Spacing of the interior points, and the least distance they keep from the outline's vertices.
const STEP = 0.6;
const CLEARANCE = 0.25;

// Whether (x, y) is inside the polygon (even-odd over all its rings).
function inside(rings: Ring[], x: number, y: number): boolean {
  let odd = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
    }
  }
  return odd;
}

// Interior points on a staggered grid, away from the outline.
function interiorPoints(rings: Ring[]): [number, number][] {
  const all = rings.flat();
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const points: [number, number][] = [];
  for (let row = 0, y = Math.min(...ys); y < Math.max(...ys); row++, y += STEP * 0.866) {
    for (let x = Math.min(...xs) + (row % 2) * (STEP / 2); x < Math.max(...xs); x += STEP) {
      if (!inside(rings, x, y)) continue;
      if (all.some(([px, py]) => Math.hypot(px - x, py - y) < CLEARANCE)) continue;
      points.push([x, y]);
    }
  }
  return points;
}

// The largest polygon of the country (its mainland): its outer ring, then its holes.
function mainland(feature: Feature): Ring[] {
  const { type, coordinates } = feature.geometry;
  const polygons = type === 'Polygon' ? [coordinates as Ring[]] : (coordinates as Ring[][]);
  return polygons.reduce((best, p) => (p[0]!.length > best[0]!.length ? p : best));
}

// The module's source: the mesh as two JSON arrays.
function source(rings: Ring[]): string {
  const coords: number[] = [];
  // GeoJSON rings repeat their first point at the end: leave it out.
  for (const ring of rings) for (const [x, y] of ring.slice(0, -1)) coords.push(x, y);
  const outline = coords.length / 2;
  for (const [x, y] of interiorPoints(rings)) coords.push(x, y);
  const all = new Delaunator(coords).triangles;
  const triangles: number[] = [];
  for (let t = 0; t < all.length; t += 3) {
    const [a, b, c] = [all[t]!, all[t + 1]!, all[t + 2]!];
    const x = (coords[2 * a]! + coords[2 * b]! + coords[2 * c]!) / 3;
    const y = (coords[2 * a + 1]! + coords[2 * b + 1]! + coords[2 * c + 1]!) / 3;
    if (inside(rings, x, y)) triangles.push(a, b, c);
  }
  const mesh = { name: COUNTRY, coords, triangles, outline, rings: rings.map((r) => r.length - 1) };
  return `export const mesh = ${JSON.stringify(mesh)};\n`;
}

/** The `virtual:navmesh` module, built from the installed world-atlas package. */
export function navmeshPlugin(): Plugin {
  return {
    name: 'quadkit-navmesh',
    resolveId(id) {
      return id === ID ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      const require = createRequire(import.meta.url);
      const topology = require('world-atlas/countries-50m.json') as Topology;
      const { feature } = require('topojson-client') as {
        feature(t: Topology, o: unknown): { features: Feature[] };
      };
      const country = feature(topology, topology.objects.countries).features.find(
        (f) => f.properties.name === COUNTRY,
      );
      if (country === undefined) throw new Error(`world-atlas has no country named ${COUNTRY}`);
      return source(mainland(country));
    },
  };
}
