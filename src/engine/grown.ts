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
