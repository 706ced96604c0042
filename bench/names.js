// The row names that bench/targets.js looks for, shared with the workloads that make the rows
// (so that the targets load without the peers).

/** The name suffix of quadkit's object door in the static tables (TARGETS compares it with the typed row). */
export const OBJECT_DOOR = 'from(objects)';

/** The name suffix of quadkit's typed-array row in the moving scene (TARGETS tells it from the object rows). */
export const TYPED_DOOR = 'fromBoxes (typed)';

/** The flatbush row of the moving scene fed the same objects as the other rows (TARGETS names it). */
export const FLATBUSH_OBJECTS = 'flatbush rebuild+search, from the objects';

/**
 * The memory row of flatbush fed the objects, with the array of the items its answers index into
 * (what a flatbush user keeps to give the objects back; TARGETS compares from(objects) with it).
 */
export const FLATBUSH_OBJECTS_MEMORY =
  'flatbush, objects (with the array of items its indices map to)';

/** The name of a load row: the dynamic index and its door (TARGETS pairs them). */
export function loadRow(index, typed) {
  const door = index === 'PointQuadtree' ? 'fromPoints' : 'fromBoxes';
  return `quadkit ${index} ${typed ? `${door} (typed)` : 'load(objects)'}`;
}
