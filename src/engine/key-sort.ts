// The sort of an unbounded nearest-first search (k = Infinity: every item within a distance),
// whose answers are gathered unordered and sorted once at the end rather than kept in a heap:
// O(n log n) in all cases, and close to O(n) on the nearly sorted order a best-first walk
// offers them in (insertion sort on short runs, then merges that skip halves already in order).

/** Entries per run sorted by insertion before the merges. */
const RUN = 16;

/**
 * Sorts the entries [0, n) of the parallel arrays (keys, ids) by key, equal keys by id (by
 * `order[id]` when `order` is given), using (spareKeys, spareIds), at least n long, as scratch.
 * Returns 0 when the sorted entries are in (keys, ids), 1 when they are in the spare arrays.
 * @param keys - the keys.
 * @param ids - the ids, one per key (all different).
 * @param spareKeys - scratch for keys, at least n long.
 * @param spareIds - scratch for ids, at least n long.
 * @param n - the number of entries.
 * @param order - how ids tie, or null for by their values.
 */
export function sortByKey(
  keys: Float64Array,
  ids: Int32Array,
  spareKeys: Float64Array,
  spareIds: Int32Array,
  n: number,
  order: Int32Array | null,
): number {
  for (let lo = 0; lo < n; lo += RUN) insertionSort(keys, ids, lo, Math.min(lo + RUN, n), order);
  let fromKeys = keys;
  let fromIds = ids;
  let toKeys = spareKeys;
  let toIds = spareIds;
  let inSpare = 0;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      merge(fromKeys, fromIds, lo, mid, hi, toKeys, toIds, order);
    }
    const k = fromKeys;
    const i = fromIds;
    fromKeys = toKeys;
    fromIds = toIds;
    toKeys = k;
    toIds = i;
    inSpare ^= 1;
  }
  return inSpare;
}

// Whether (ka, ia) goes after (kb, ib): by key, then by id (through `order`). The ids are compared
// at every call, not only on a tie: a test first run on a tie (duplicate points) had no type
// feedback and dropped the optimised sort, mid-query (as KBest's, see queue.ts).
function later(ka: number, ia: number, kb: number, ib: number, order: Int32Array | null): boolean {
  const tie = order === null ? ia > ib : order[ia]! > order[ib]!;
  return ka > kb || (ka === kb && tie);
}

// Sorts the entries [lo, hi) in place by insertion.
function insertionSort(
  keys: Float64Array,
  ids: Int32Array,
  lo: number,
  hi: number,
  order: Int32Array | null,
): void {
  for (let i = lo + 1; i < hi; i++) {
    const key = keys[i]!;
    const id = ids[i]!;
    let j = i - 1;
    while (j >= lo && later(keys[j]!, ids[j]!, key, id, order)) {
      keys[j + 1] = keys[j]!;
      ids[j + 1] = ids[j]!;
      j--;
    }
    keys[j + 1] = key;
    ids[j + 1] = id;
  }
}

// Merges the sorted runs [lo, mid) and [mid, hi) of (keys, ids) into [lo, hi) of (toKeys, toIds);
// a copy when they are already in order.
function merge(
  keys: Float64Array,
  ids: Int32Array,
  lo: number,
  mid: number,
  hi: number,
  toKeys: Float64Array,
  toIds: Int32Array,
  order: Int32Array | null,
): void {
  let a = lo;
  let b = mid;
  let o = lo;
  if (mid < hi && later(keys[mid - 1]!, ids[mid - 1]!, keys[mid]!, ids[mid]!, order)) {
    while (a < mid && b < hi) {
      if (later(keys[a]!, ids[a]!, keys[b]!, ids[b]!, order)) {
        toKeys[o] = keys[b]!;
        toIds[o++] = ids[b++]!;
      } else {
        toKeys[o] = keys[a]!;
        toIds[o++] = ids[a++]!;
      }
    }
  }
  for (; a < mid; a++, o++) {
    toKeys[o] = keys[a]!;
    toIds[o] = ids[a]!;
  }
  for (; b < hi; b++, o++) {
    toKeys[o] = keys[b]!;
    toIds[o] = ids[b]!;
  }
}
