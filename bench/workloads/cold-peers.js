// The peers of the cold and warm tables, each fed the way its README shows (see cold-feeders.js):
// flatbush and kdbush add() from the numbers or the objects and answer item indices, which the
// object door maps back to the objects; geokdbush's around() over kdbush; rbush, quadtree-ts and
// d3-quadtree fed one item at a time in their own item formats. Each imports only its library.

import { itemObjects, toMinMax } from '../data.js';

/**
 * Whether the closed segment (x1, y1)–(x2, y2) meets the closed box [minX, maxX] × [minY, maxY],
 * what a flatbush user writes as the filter of a search over the segment's box: the boxes
 * overlap, and the box's corners are not all strictly on one side of the segment's line (the
 * separating-axis test of a segment and a box; no division, so touching counts as meeting).
 */
export function segmentMeetsBox(x1, y1, x2, y2, minX, minY, maxX, maxY) {
  // The segment's box against the box.
  if (Math.max(x1, x2) < minX || Math.min(x1, x2) > maxX) return false;
  if (Math.max(y1, y2) < minY || Math.min(y1, y2) > maxY) return false;
  // The side of the segment's line each corner lies on.
  const dx = x2 - x1;
  const dy = y2 - y1;
  const a = dx * (minY - y1) - dy * (minX - x1);
  const b = dx * (minY - y1) - dy * (maxX - x1);
  const c = dx * (maxY - y1) - dy * (minX - x1);
  const d = dx * (maxY - y1) - dy * (maxX - x1);
  return !((a > 0 && b > 0 && c > 0 && d > 0) || (a < 0 && b < 0 && c < 0 && d < 0));
}

// The answers of an index of ids as the objects, as its users get them.
function mapper(objects) {
  return (ids) => {
    if (objects === null) return ids;
    const out = new Array(ids.length);
    for (let i = 0; i < ids.length; i++) out[i] = objects[ids[i]];
    return out;
  };
}

// flatbush: add() of each box (a point: add(x, y)), finish(); search, neighbors.
async function flatbush({ door, data, q, pass, windowPass }) {
  const { default: Flatbush } = await import('flatbush');
  const { n, mm, xy, points } = data;
  const objects = door === 'objects' ? itemObjects(mm, n, points) : null;
  const map = mapper(objects);
  const build = () => {
    const t = new Flatbush(n);
    if (objects && points) for (const o of objects) t.add(o.x, o.y);
    else if (objects) for (const o of objects) t.add(o.x, o.y, o.x + o.width, o.y + o.height);
    else if (points) for (let i = 0; i < n; i++) t.add(xy[2 * i], xy[2 * i + 1]);
    else for (let i = 0; i < n; i++) t.add(mm[4 * i], mm[4 * i + 1], mm[4 * i + 2], mm[4 * i + 3]);
    t.finish();
    return t;
  };
  const win = (w) => windowPass(w, (t, x, y, wd, h) => map(t.search(x, y, x + wd, y + h)).length);
  const { at, hits, segments: s, radius } = q;
  const knn = (k) => pass((t, i) => map(t.neighbors(at[2 * i], at[2 * i + 1], k)).length);
  return {
    build,
    check: (t) => t.numItems,
    queries: {
      q0: win(q.windows.q0),
      q1: win(q.windows.q1),
      deg1: win(q.windows.deg1),
      point: pass((t, i) => {
        const [x, y] = [hits[2 * i], hits[2 * i + 1]];
        return map(t.search(x, y, x, y)).length;
      }),
      // No radius query: neighbors with a distance limit and no count limit.
      circle: pass(
        (t, i) =>
          map(t.neighbors(at[2 * i], at[2 * i + 1], Number.POSITIVE_INFINITY, radius)).length,
      ),
      // No segment query: search the segment's box, the exact test as the filter.
      segment: pass((t, i) => {
        const [x1, y1, x2, y2] = [s[4 * i], s[4 * i + 1], s[4 * i + 2], s[4 * i + 3]];
        const ids = t.search(
          Math.min(x1, x2),
          Math.min(y1, y2),
          Math.max(x1, x2),
          Math.max(y1, y2),
          (_, a, b, c, d) => segmentMeetsBox(x1, y1, x2, y2, a, b, c, d),
        );
        return map(ids).length;
      }),
      knn1: knn(1),
      knn10: knn(10),
    },
  };
}

// kdbush: add() of each point, finish(); range, within; geokdbush's around() over it.
async function kdbush({ lib, door, data, q, pass, windowPass, within }) {
  const { default: KDBush } = await import('kdbush');
  const geokdbush = lib === 'geokdbush' ? await import('geokdbush') : null;
  const { n, mm, xy } = data;
  const objects = door === 'objects' ? itemObjects(mm, n, true) : null;
  const map = mapper(objects);
  const build = () => {
    const t = new KDBush(n);
    if (objects) for (const o of objects) t.add(o.x, o.y);
    else for (let i = 0; i < n; i++) t.add(xy[2 * i], xy[2 * i + 1]);
    t.finish();
    return t;
  };
  const win = (w) => windowPass(w, (t, x, y, wd, h) => map(t.range(x, y, x + wd, y + h)).length);
  const { at, radius } = q;
  const [km] = within;
  return {
    build,
    check: (t) => t.numItems,
    queries: {
      q0: win(q.windows.q0),
      q1: win(q.windows.q1),
      deg1: win(q.windows.deg1),
      circle: pass((t, i) => map(t.within(at[2 * i], at[2 * i + 1], radius)).length),
      'geo-knn10': pass((t, i) => map(geokdbush.around(t, at[2 * i], at[2 * i + 1], 10)).length),
      'geo-within': pass(
        (t, i) =>
          map(geokdbush.around(t, at[2 * i], at[2 * i + 1], Number.POSITIVE_INFINITY, km)).length,
      ),
    },
  };
}

// The dynamic peers, one item at a time in their own formats; each build ends with one query.
async function dynamicPeer({ lib, data, q, pass, windowPass }) {
  const c = 500;
  const { n, mm, xy } = data;
  if (lib === 'rbush') {
    const { default: RBush } = await import('rbush');
    const boxes = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      boxes.set(
        [mm[4 * i], mm[4 * i + 1], mm[4 * i + 2] - mm[4 * i], mm[4 * i + 3] - mm[4 * i + 1]],
        4 * i,
      );
    }
    const items = toMinMax(boxes);
    const bbox = { minX: c, minY: c, maxX: c, maxY: c };
    return {
      build: () => {
        const t = new RBush();
        for (const item of items) t.insert(item);
        t.search(bbox);
        return t;
      },
      check: () => n,
      queries: {
        q0: windowPass(q.windows.q0, (t, x, y, w, h) => {
          bbox.minX = x;
          bbox.minY = y;
          bbox.maxX = x + w;
          bbox.maxY = y + h;
          return t.search(bbox).length;
        }),
      },
    };
  }
  if (lib === 'quadtree-ts') {
    const { Quadtree, Rectangle } = await import('@timohausmann/quadtree-ts');
    const items = [];
    for (let i = 0; i < n; i++) {
      const [x, y] = [mm[4 * i], mm[4 * i + 1]];
      items.push(new Rectangle({ x, y, width: mm[4 * i + 2] - x, height: mm[4 * i + 3] - y }));
    }
    const centre = new Rectangle({ x: c, y: c, width: 0, height: 0 });
    return {
      // Its README's way: the world's size, the defaults (maxObjects 10, maxLevels 4).
      build: () => {
        const t = new Quadtree({ width: 1000, height: 1000 });
        for (const item of items) t.insert(item);
        t.retrieve(centre);
        return t;
      },
      check: () => n,
      queries: {},
    };
  }
  // d3-quadtree: [x, y] data, add() each; find() is its nearest query (k = 1).
  const { quadtree } = await import('d3-quadtree');
  const pairs = [];
  for (let i = 0; i < n; i++) pairs.push([xy[2 * i], xy[2 * i + 1]]);
  const { at } = q;
  return {
    build: () => {
      const t = quadtree();
      for (const p of pairs) t.add(p);
      t.find(c, c);
      return t;
    },
    check: () => n,
    queries: { knn1: pass((t, i) => (t.find(at[2 * i], at[2 * i + 1]) === undefined ? 0 : 1)) },
  };
}

/**
 * The feeder of a peer's measurement (see `feeder` in cold-feeders.js).
 * @param o - `{ lib, door, job, data, q, pass, windowPass, within }`: the data and queries of the
 *   job, the pass makers, and the geoWithin distance and Earth radius.
 */
export async function peerFeeder(o) {
  if (o.lib === 'flatbush') return flatbush(o);
  if (o.lib === 'kdbush' || o.lib === 'geokdbush') return kdbush(o);
  if (o.job === 'dynamic') return dynamicPeer(o);
  throw new Error(`bench/workloads/cold-peers.js: no feeder for ${o.lib} in the ${o.job} job`);
}
