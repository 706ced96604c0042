// The buffer of inserts not yet placed, which the region tree and the loose grid share: each
// insert appends its slot and box, and the next read places the whole burst (see tree.ts and
// grid-layout.ts).

import { grown } from './grown.js';

/** Buffered inserts below this many are placed one by one. */
export const BULK_MIN = 256;

/** An engine's buffered inserts: their slots and boxes (4 doubles each), `pending` in use. */
export interface PendingInserts {
  pendSlot: Int32Array<ArrayBuffer>;
  pendBox: Float64Array<ArrayBuffer>;
}

/**
 * Appends slot s with the box src[i..i+3] as buffered insert p (the arrays doubled when full).
 * @param owner - the engine holding the buffer.
 * @param p - the number of buffered inserts before this one.
 * @param s - the item's slot.
 * @param src - the array holding the box.
 * @param i - where the box starts in `src`.
 */
export function appendPending(
  owner: PendingInserts,
  p: number,
  s: number,
  src: Float64Array,
  i: number,
): void {
  if (p === owner.pendSlot.length) {
    owner.pendSlot = grown(owner.pendSlot, 2 * p);
    owner.pendBox = grown(owner.pendBox, 8 * p);
  }
  owner.pendSlot[p] = s;
  const box = owner.pendBox;
  box[4 * p] = src[i]!;
  box[4 * p + 1] = src[i + 1]!;
  box[4 * p + 2] = src[i + 2]!;
  box[4 * p + 3] = src[i + 3]!;
}

/**
 * Gives the engine a small new buffer: always (`keepSmall` false, when its arrays were handed
 * on), or when the one it has is large (a burst's, placed or dropped).
 * @param owner - the engine holding the buffer.
 * @param keepSmall - keep a buffer of at most 4 * BULK_MIN entries.
 */
export function dropPending(owner: PendingInserts, keepSmall = true): void {
  if (keepSmall && owner.pendSlot.length <= 4 * BULK_MIN) return;
  owner.pendSlot = new Int32Array(64);
  owner.pendBox = new Float64Array(4 * 64);
}
