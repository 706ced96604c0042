// The object doors of the static workload: the same boxes or points held as the user's own
// objects ({ x, y, width, height } or { x, y }, made outside the timed regions), built with
// StaticQuadtree.from(objects) and queried with the forms that return items (search,
// searchCircle, nearest), beside the peers fed the same objects their own way: flatbush add()
// from the objects + finish(), rbush load() of the objects (through toBBox), kdbush add() from
// the objects. Peers that return indices map them to the objects, as their users do.

import Flatbush from 'flatbush';
import KDBush from 'kdbush';
import RBush from 'rbush';
import { OBJECT_DOOR } from '../names.js';

// rbush over { x, y, width, height } objects: its documented way for another item format.
class ObjectRBush extends RBush {
  toBBox(o) {
    return { minX: o.x, minY: o.y, maxX: o.x + (o.width ?? 0), maxY: o.y + (o.height ?? 0) };
  }
  compareMinX(a, b) {
    return a.x - b.x;
  }
  compareMinY(a, b) {
    return a.y - b.y;
  }
}

/** A window query for quadkit: `call(t, rect)` with the window (minX, minY, maxX, maxY) as a rect. */
export function rectQuery(call) {
  const rect = { x: 0, y: 0, width: 0, height: 0 };
  return (t, a, b, c, d) => {
    rect.x = a;
    rect.y = b;
    rect.width = c - a;
    rect.height = d - b;
    return call(t, rect);
  };
}

/**
 * Adds the object rows to a static suite: `measure(name, isQuadkit, build, queries, note)` as in
 * static.js, `windowQuery(k, search)` and `pointQuery(fn)` its query drivers, `rbushQueries` the
 * rbush rows' queries (rbush queries its objects the same way whatever their format).
 */
export function objectRows({
  quadkit,
  objects,
  points,
  radius,
  measure,
  rbushQueries,
  windowQuery,
  pointQuery,
}) {
  const n = objects.length;
  const map = (ids) => {
    // What a user of an index of ids does to get the objects.
    const out = new Array(ids.length);
    for (let i = 0; i < ids.length; i++) out[i] = objects[ids[i]];
    return out;
  };
  if (quadkit) {
    const search = rectQuery((t, rect) => t.search(rect).length);
    measure(
      `quadkit StaticQuadtree ${OBJECT_DOOR}`,
      true,
      () => quadkit.StaticQuadtree.from(objects),
      {
        q0: windowQuery(0, search),
        q1: windowQuery(1, search),
        radius: pointQuery((t, x, y) => t.searchCircle(x, y, radius).length),
        knn1: pointQuery((t, x, y) => t.nearest(x, y, 1).length),
        knn10: pointQuery((t, x, y) => t.nearest(x, y, 10).length),
      },
      'from, search, searchCircle, nearest',
    );
  }
  measure(
    `flatbush ${OBJECT_DOOR}`,
    false,
    () => {
      const t = new Flatbush(n);
      for (let i = 0; i < n; i++) {
        const o = objects[i];
        const w = o.width ?? 0;
        const h = o.height ?? 0;
        t.add(o.x, o.y, o.x + w, o.y + h);
      }
      t.finish();
      return t;
    },
    {
      q0: windowQuery(0, (t, a, b, c, d) => map(t.search(a, b, c, d)).length),
      q1: windowQuery(1, (t, a, b, c, d) => map(t.search(a, b, c, d)).length),
      radius: pointQuery(
        (t, x, y) => map(t.neighbors(x, y, Number.POSITIVE_INFINITY, radius)).length,
      ),
      knn1: pointQuery((t, x, y) => map(t.neighbors(x, y, 1)).length),
      knn10: pointQuery((t, x, y) => map(t.neighbors(x, y, 10)).length),
    },
    'add() from the objects',
  );
  measure(
    `rbush ${OBJECT_DOOR}`,
    false,
    () => new ObjectRBush().load(objects),
    rbushQueries,
    'load() of the objects, toBBox',
  );
  if (quadkit && !points) {
    // The toRect door: the same boxes as rbush-style { minX, minY, maxX, maxY } objects, read
    // through a toRect that returns a new rect per item (called about twice per item: the build
    // reads the items in two passes). Its tree, and so every query, is the object door's: only
    // the build is measured.
    const minMax = objects.map((o) => ({
      minX: o.x,
      minY: o.y,
      maxX: o.x + o.width,
      maxY: o.y + o.height,
    }));
    const toRect = (o) => ({
      x: o.minX,
      y: o.minY,
      width: o.maxX - o.minX,
      height: o.maxY - o.minY,
    });
    measure(
      `quadkit StaticQuadtree ${OBJECT_DOOR}, toRect`,
      true,
      () => quadkit.StaticQuadtree.from(minMax, { toRect }),
      { q0: null, q1: null, radius: null, knn1: null, knn10: null },
      'from(objects, { toRect }); its queries are those of from(objects)',
    );
  }
  if (points) {
    measure(
      `kdbush ${OBJECT_DOOR}`,
      false,
      () => {
        const t = new KDBush(n);
        for (let i = 0; i < n; i++) t.add(objects[i].x, objects[i].y);
        t.finish();
        return t;
      },
      {
        q0: windowQuery(0, (t, a, b, c, d) => map(t.range(a, b, c, d)).length),
        q1: windowQuery(1, (t, a, b, c, d) => map(t.range(a, b, c, d)).length),
        radius: pointQuery((t, x, y) => map(t.within(x, y, radius)).length),
        knn1: null,
        knn10: null,
      },
      'add() from the objects',
    );
  }
}
