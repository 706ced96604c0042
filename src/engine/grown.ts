// How the growable typed arrays of the engines (and of the add-ons over them) grow: into a new
// array of the same kind, the old one's first elements copied over. Growth is amortised (the
// callers at least double), so this is never on a hot path.

/**
 * A new array of `size` elements, of the kind of `a`, holding the first `keep` elements of `a`
 * (default: all of them; `size` must be at least `keep`).
 * @param a - the array to grow (an Int32Array or a Float64Array).
 * @param size - the new array's length.
 * @param keep - how many elements of `a` to copy, from the first.
 */
export function grown<A extends Int32Array | Float64Array>(a: A, size: number, keep = a.length): A {
  const b = new (a.constructor as new (length: number) => A)(size);
  b.set(a.subarray(0, keep));
  return b;
}

/**
 * Room for answers at first in an engine's answer array; a query that finds more grows it (see
 * `room`). Small, so that an index nobody queries keeps little, and never the index's size.
 */
export const FIRST_RESULTS = 16;

/**
 * An engine's answer array (`results`) with room for `count` more answers after its first n: as
 * it is, or replaced there by a copy at least twice as long, so that it grows with the answers,
 * amortised, and never needs the index's size. The scans write without bounds checks: a walk
 * calls this before each scan.
 * @param owner - the engine.
 * @param n - the answers written so far (kept).
 * @param count - how many more the next scan may write.
 */
export function room(owner: { results: Int32Array }, n: number, count: number): Int32Array {
  const out = owner.results;
  if (n + count <= out.length) return out;
  owner.results = grown(out, Math.max(n + count, 2 * out.length), n);
  return owner.results;
}
