// Refining index results by exact shapes: an index answers from bounding boxes, so its results
// are candidates; the items' real shapes decide which of them really meet the query.

import { contains, intersects } from './narrow.js';
import type { Shape } from './shapes.js';

/** Reads the exact shape of an item (for example `(item) => item.shape`). */
export type ToShape<T> = (item: T) => Shape;

/**
 * How an item's shape must relate to the query: `'intersects'` (they touch or overlap),
 * `'within'` (the item lies entirely inside the query) or `'contains'` (the item covers the
 * whole query).
 */
export type Relation = 'intersects' | 'within' | 'contains';

/**
 * Keeps, among the first `count` entries of `items`, those whose exact shape relates to the
 * query shape as asked, moved to the front in their order; returns how many there are. Nothing is
 * allocated and the entries past the new count are left as they were: the partner of the
 * indexes' `…Into(…, out)` queries.
 *
 * @param items - the candidates, e.g. the `out` array of `searchCircleInto`.
 * @param count - how many entries of `items` are candidates.
 * @param query - the shape the candidates were searched with (or any shape).
 * @param toShape - reads an item's exact shape.
 * @param relation - `'intersects'` by default; see {@link Relation}.
 */
export function refineInto<T>(
  items: T[],
  count: number,
  query: Shape,
  toShape: ToShape<T>,
  relation: Relation = 'intersects',
): number {
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const item = items[i]!;
    const shape = toShape(item);
    const keep =
      relation === 'intersects'
        ? intersects(shape, query)
        : relation === 'within'
          ? contains(query, shape)
          : contains(shape, query);
    if (keep) items[kept++] = item;
  }
  return kept;
}

/**
 * Filters `items` in place to those whose exact shape relates to the query shape as asked, and
 * returns the same array. With an index of shapes whose bounds come from `shapeBounds`,
 * `refine(index.searchCircle(x, y, r), circle(x, y, r), toShape)` is exactly the items whose
 * shapes touch the disc.
 *
 * @param items - the candidates, e.g. the result of `search`, `searchCircle` or `searchSegment`.
 * @param query - the shape the candidates were searched with (or any shape).
 * @param toShape - reads an item's exact shape.
 * @param relation - `'intersects'` by default; see {@link Relation}.
 */
export function refine<T>(
  items: T[],
  query: Shape,
  toShape: ToShape<T>,
  relation: Relation = 'intersects',
): T[] {
  items.length = refineInto(items, items.length, query, toShape, relation);
  return items;
}
