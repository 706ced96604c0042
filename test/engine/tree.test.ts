import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RegionTree } from '../../src/engine/tree.js';

// Structural invariants of the region tree that answer-checking tests cannot see: counts, nested
// bounds, every item inside its node, and items as deep as placement allows (so that a tree
// under constant motion keeps its shape instead of piling items into inner nodes).
function checkInvariants<T>(t: RegionTree<T>): void {
  const { child, parent, head, count, sub, nbox, depth, cx, cy, store } = t;
  const { box, next, node } = store;
  let items = 0;
  const stack = [0];
  while (stack.length > 0) {
    const n = stack.pop()!;
    let listed = 0;
    for (let s = head[n]!; s >= 0; s = next[s]!) {
      listed++;
      expect(node[s]).toBe(n);
      const i = 8 * s;
      // Inside its node's bounds, and its fit box is those bounds.
      expect(box[i]! >= nbox[4 * n]! && box[i + 2]! <= nbox[4 * n + 2]!).toBe(true);
      expect(box[i + 1]! >= nbox[4 * n + 1]! && box[i + 3]! <= nbox[4 * n + 3]!).toBe(true);
      for (let j = 0; j < 4; j++) expect(box[i + 4 + j]).toBe(nbox[4 * n + j]);
      const c = child[n]!;
      if (c >= 0) {
        // In an inner node: no child can take it (else it should have sunk).
        const ex = box[i]! + (box[i + 2]! - box[i]!) * 0.5;
        const ey = box[i + 1]! + (box[i + 3]! - box[i + 1]!) * 0.5;
        const k = c + ((ex >= cx[n]! ? 1 : 0) | (ey >= cy[n]! ? 2 : 0));
        const fits =
          box[i]! >= nbox[4 * k]! &&
          box[i + 1]! >= nbox[4 * k + 1]! &&
          box[i + 2]! <= nbox[4 * k + 2]! &&
          box[i + 3]! <= nbox[4 * k + 3]!;
        expect(fits).toBe(false);
      }
    }
    expect(listed).toBe(count[n]);
    items += listed;
    let below = count[n]!;
    const c = child[n]!;
    if (c >= 0) {
      for (let k = c; k < c + 4; k++) {
        expect(parent[k]).toBe(n);
        expect(depth[k]).toBe(depth[n]! + 1);
        // Children's bounds nest in the parent's.
        expect(nbox[4 * k]! >= nbox[4 * n]! && nbox[4 * k + 2]! <= nbox[4 * n + 2]!).toBe(true);
        expect(nbox[4 * k + 1]! >= nbox[4 * n + 1]! && nbox[4 * k + 3]! <= nbox[4 * n + 3]!).toBe(
          true,
        );
        below += sub[k]!;
        stack.push(k);
      }
    } else {
      // A leaf overflows only at the depth limit.
      expect(count[n]! <= t.maxObjects || depth[n] === t.maxLevels).toBe(true);
    }
    expect(sub[n]).toBe(below);
  }
  expect(items).toBe(t.size);
}

const coord = fc.integer({ min: -8, max: 72 });
const size = fc.integer({ min: 0, max: 12 });
const op = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), x: coord, y: coord, w: size, h: size }),
  fc.record({
    kind: fc.constant('move' as const),
    pick: fc.nat(),
    dx: fc.integer({ min: -6, max: 6 }),
    dy: fc.integer({ min: -6, max: 6 }),
  }),
  fc.record({ kind: fc.constant('resize' as const), pick: fc.nat(), w: size, h: size }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('cleanup' as const) }),
);

describe('RegionTree', () => {
  for (const looseness of [1, 1.5, 2]) {
    it(`keeps counts, nested bounds and placement invariants under random edits (looseness ${looseness})`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: 0, max: 6 }),
          fc.array(op, { maxLength: 120 }),
          (maxObjects, maxLevels, ops) => {
            const t = new RegionTree<number>(0, 0, 64, 64, maxObjects, maxLevels, looseness);
            const live: { id: number; s: number; x: number; y: number; w: number; h: number }[] =
              [];
            let id = 0;
            for (const o of ops) {
              if (o.kind === 'insert') {
                const s = t.insert(id, o.x, o.y, o.x + o.w, o.y + o.h);
                live.push({ id: id++, s, x: o.x, y: o.y, w: o.w, h: o.h });
              } else if (o.kind === 'cleanup') {
                t.cleanup();
              } else if (live.length > 0) {
                const k = o.pick % live.length;
                const e = live[k]!;
                if (o.kind === 'remove') {
                  t.remove(e.s);
                  live.splice(k, 1);
                } else {
                  if (o.kind === 'move') {
                    e.x += o.dx;
                    e.y += o.dy;
                  } else {
                    e.w = o.w;
                    e.h = o.h;
                  }
                  t.move(e.s, e.x, e.y, e.x + e.w, e.y + e.h);
                }
              }
              checkInvariants(t);
            }
          },
        ),
        { numRuns: 150 },
      );
    });
  }

  it('keeps a moving scene as deep as a fresh build over many frames', () => {
    // 2,000 boxes bouncing for 200 frames: the depth profile must not drift up.
    let seed = 3;
    const rnd = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (const looseness of [1, 2]) {
      const t = new RegionTree<number>(0, 0, 1000, 1000, 8, 10, looseness);
      const b = Array.from({ length: 2000 }, (_, i) => {
        const w = 2 + rnd() * 10;
        const e = {
          x: rnd() * (1000 - w),
          y: rnd() * (1000 - w),
          w,
          vx: rnd() * 4 - 2,
          vy: rnd() * 4 - 2,
          s: 0,
        };
        e.s = t.insert(i, e.x, e.y, e.x + w, e.y + w);
        return e;
      });
      const rootShare = () => t.count[0]! / t.size;
      const before = rootShare();
      for (let f = 0; f < 200; f++) {
        for (const e of b) {
          e.x += e.vx;
          e.y += e.vy;
          if (e.x < 0 || e.x + e.w > 1000) e.vx = -e.vx;
          if (e.y < 0 || e.y + e.w > 1000) e.vy = -e.vy;
          t.move(e.s, e.x, e.y, e.x + e.w, e.y + e.w);
        }
      }
      checkInvariants(t);
      expect(rootShare()).toBeLessThanOrEqual(before + 0.01);
    }
  });
});
