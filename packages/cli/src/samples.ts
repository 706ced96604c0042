// The sample files shipped in the package's data/ folder, which `quadkit sample` writes out and
// the help's examples read.

/** Each sample file, with what it holds and where it comes from. */
export const SAMPLES = [
  {
    name: 'cities.csv',
    what: "the world's cities of 100,000 people or more (name,country,lon,lat,population; GeoNames, CC BY 4.0)",
  },
  {
    name: 'countries.geojson',
    what: "the world's countries, with their names (Natural Earth 1:110m, public domain)",
  },
] as const;

/** The package's data folder (one level above src/ and dist/). */
export const DATA = new URL('../data/', import.meta.url);

/**
 * Whether a path names a sample file (`cities.csv`, `./data/countries.geojson`).
 * @param path - a file's path.
 */
export function isSampleName(path: string): boolean {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return SAMPLES.some((s) => s.name === name);
}
