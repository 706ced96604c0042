import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RegionTree } from '../../src/engine/tree.js';
import {
  EXACT,
  NODE_CHILD,
  NODE_CLASS,
  NODE_COUNT,
  NODE_CX,
  NODE_CY,
  NODE_DEPTH,
  NODE_NA,
  NODE_PARENT,
  NODE_START,
  NODE_SUB,
} from '../../src/engine/tree-nodes.js';

// The engine takes boxes in a Float64Array (src, offset).
const ARGS = new Float64Array(4);
function box(minX: number, minY: number, maxX: number, maxY: number): Float64Array {
  ARGS[0] = minX;
  ARGS[1] = minY;
  ARGS[2] = maxX;
  ARGS[3] = maxY;
  return ARGS;
}

// Structural invariants of the region tree that answer-checking tests cannot see: counts, nested
// bounds, every item inside its node, and items as deep as placement allows (so that a tree
// under constant motion keeps its shape instead of piling items into inner nodes).
function checkInvariants<T>(t: RegionTree<T>): void {
  t.flush();
  const { lk, geo, store, buckets } = t;
  const { box, slot } = buckets;
  let items = 0;
  const stack = [0];
  const inside = (k: number, e: number) =>
    box[4 * e]! >= geo[8 * k]! &&
    box[4 * e + 1]! >= geo[8 * k + 1]! &&
    box[4 * e + 2]! <= geo[8 * k + 2]! &&
    box[4 * e + 3]! <= geo[8 * k + 3]!;
  while (stack.length > 0) {
    const n = stack.pop()!;
    const l = 8 * n;
    const start = lk[l + NODE_START]!;
    const count = lk[l + NODE_COUNT]!;
    // A bucket holds its entries: 2^NODE_CLASS of them, or exactly as many as a rebuild gave it.
    if (count > 0 && lk[l + NODE_CLASS] !== EXACT) {
      expect(count).toBeLessThanOrEqual(1 << lk[l + NODE_CLASS]!);
    }
    const c = lk[l + NODE_CHILD]!;
    const na = lk[l + NODE_NA]!;
    if (c < 0) expect(na).toBe(0);
    for (let e = start; e < start + count; e++) {
      const s = slot[e]!;
      // Every entry lies within its region's band.
      if (e < start + na) {
        expect(box[4 * e]! >= t.band[4 * n]! && box[4 * e + 2]! <= t.band[4 * n + 1]!).toBe(true);
      } else {
        expect(box[4 * e + 1]! >= t.band[4 * n + 2]! && box[4 * e + 3]! <= t.band[4 * n + 3]!).toBe(
          true,
        );
      }
      // The slot knows where its entry is, and the entry is inside its node's bounds.
      expect(store.node[s]).toBe(n);
      expect(store.pos[s]).toBe(e - start);
      expect(inside(n, e)).toBe(true);
      if (c >= 0) {
        // In an inner node: the child its centre picks cannot take it (else it should have sunk).
        const ex = box[4 * e]! + (box[4 * e + 2]! - box[4 * e]!) * 0.5;
        const ey = box[4 * e + 1]! + (box[4 * e + 3]! - box[4 * e + 1]!) * 0.5;
        const k = c + ((ex >= geo[l + NODE_CX]! ? 1 : 0) | (ey >= geo[l + NODE_CY]! ? 2 : 0));
        expect(inside(k, e)).toBe(false);
      }
    }
    items += count;
    let below = count;
    if (c >= 0) {
      for (let k = c; k < c + 4; k++) {
        expect(lk[8 * k + NODE_PARENT]).toBe(n);
        expect(lk[8 * k + NODE_DEPTH]).toBe(lk[l + NODE_DEPTH]! + 1);
        // Children's bounds nest in the parent's.
        expect(geo[8 * k]! >= geo[l]! && geo[8 * k + 2]! <= geo[l + 2]!).toBe(true);
        expect(geo[8 * k + 1]! >= geo[l + 1]! && geo[8 * k + 3]! <= geo[l + 3]!).toBe(true);
        below += lk[8 * k + NODE_SUB]!;
        stack.push(k);
      }
    } else {
      // A leaf overflows only at the depth limit.
      expect(count <= t.maxObjects || lk[l + NODE_DEPTH] === t.maxLevels).toBe(true);
    }
    expect(lk[l + NODE_SUB]).toBe(below);
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

// The tree's shape, independent of node numbering: for each node (named by depth and cell centre)
// its subtree and own counts, regions and bands, and for each slot the node that holds it.
function shape<T>(t: RegionTree<T>): { nodes: Map<string, string>; slots: Map<number, string> } {
  t.flush();
  const { lk, geo, buckets } = t;
  const nodes = new Map<string, string>();
  const slots = new Map<number, string>();
  const stack = [0];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const l = 8 * n;
    const name = `${lk[l + NODE_DEPTH]}@${geo[l + NODE_CX]},${geo[l + NODE_CY]}`;
    const c = lk[l + NODE_CHILD]!;
    const bands = Array.from(t.band.subarray(4 * n, 4 * n + 4)).join(' ');
    const kind = c < 0 ? 'leaf' : 'inner';
    nodes.set(
      name,
      `sub ${lk[l + NODE_SUB]} count ${lk[l + NODE_COUNT]} A ${lk[l + NODE_NA]} ${kind} ${bands}`,
    );
    const start = lk[l + NODE_START]!;
    for (let e = start; e < start + lk[l + NODE_COUNT]!; e++) slots.set(buckets.slot[e]!, name);
    if (c >= 0) for (let k = c; k < c + 4; k++) stack.push(k);
  }
  return { nodes, slots };
}

// Boxes on a coarse grid (ties, duplicates, points, boxes on split lines and outside the bounds).
const burstBox = fc
  .tuple(
    fc.integer({ min: -4, max: 68 }),
    fc.integer({ min: -4, max: 68 }),
    fc.integer({ min: 0, max: 12 }),
    fc.integer({ min: 0, max: 12 }),
    fc.boolean(),
  )
  .map(([x, y, w, h, point]) => (point ? [x, y, x, y] : [x, y, x + w, y + h]));

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
                const s = t.insert(id, box(o.x, o.y, o.x + o.w, o.y + o.h), 0);
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
                  t.move(e.s, box(e.x, e.y, e.x + e.w, e.y + e.h), 0);
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

  it("clear() after a load that no read placed lets the load's buffer go and starts empty", () => {
    const t = new RegionTree<number>(0, 0, 100, 100, 4, 6, 1);
    const n = 5000;
    const src = new Float64Array(4 * n);
    for (let i = 0; i < n; i++)
      src.set([i % 100, (i * 7) % 100, (i % 100) + 1, ((i * 7) % 100) + 1], 4 * i);
    expect(t.loadAll(null, n, src)).toBe(-1);
    expect(t.pendBox).toBe(src);
    t.clear();
    expect(t.pendSlot.length).toBeLessThan(n);
    expect(t.pendBox.length).toBeLessThan(4 * n);
    expect(t.size).toBe(0);
    t.insert(1, box(10, 10, 11, 11), 0);
    checkInvariants(t);
    expect(t.size).toBe(1);
  });

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
        e.s = t.insert(i, box(e.x, e.y, e.x + w, e.y + w), 0);
        return e;
      });
      const rootShare = () => {
        t.flush();
        return t.lk[NODE_COUNT]! / t.size;
      };
      const before = rootShare();
      for (let f = 0; f < 200; f++) {
        for (const e of b) {
          e.x += e.vx;
          e.y += e.vy;
          if (e.x < 0 || e.x + e.w > 1000) e.vx = -e.vx;
          if (e.y < 0 || e.y + e.w > 1000) e.vy = -e.vy;
          t.move(e.s, box(e.x, e.y, e.x + e.w, e.y + e.w), 0);
        }
      }
      checkInvariants(t);
      expect(rootShare()).toBeLessThanOrEqual(before + 0.01);
    }
  });
  for (const looseness of [1, 1.5, 2]) {
    it(`a burst of inserts builds the tree that one-by-one inserts build (looseness ${looseness})`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 8 }),
          fc.integer({ min: 0, max: 8 }),
          fc.array(burstBox, { minLength: 256, maxLength: 700 }),
          (maxObjects, maxLevels, boxes) => {
            const one = new RegionTree<number>(0, 0, 64, 64, maxObjects, maxLevels, looseness);
            const burst = new RegionTree<number>(0, 0, 64, 64, maxObjects, maxLevels, looseness);
            boxes.forEach((b, i) => {
              one.insert(i, box(b[0]!, b[1]!, b[2]!, b[3]!), 0);
              one.flush(); // one at a time: placed by descending
              burst.insert(i, box(b[0]!, b[1]!, b[2]!, b[3]!), 0);
            });
            checkInvariants(burst); // placed by a rebuild
            expect(shape(burst)).toEqual(shape(one));
          },
        ),
        { numRuns: 60 },
      );
    });
  }

  it('bursts into a tree that has items, removals and moves keep every invariant', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 7 }),
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant('burst' as const),
              boxes: fc.array(burstBox, { minLength: 1, maxLength: 400 }),
            }),
            fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(), count: fc.nat(300) }),
            fc.record({
              kind: fc.constant('move' as const),
              pick: fc.nat(),
              count: fc.nat(50),
              to: burstBox,
            }),
            fc.record({ kind: fc.constant('cleanup' as const) }),
          ),
          { maxLength: 8 },
        ),
        (maxObjects, maxLevels, ops) => {
          const t = new RegionTree<number>(0, 0, 64, 64, maxObjects, maxLevels, 2);
          const live: number[] = [];
          let id = 0;
          for (const o of ops) {
            if (o.kind === 'burst') {
              for (const b of o.boxes) {
                live.push(t.insert(id++, box(b[0]!, b[1]!, b[2]!, b[3]!), 0));
              }
            } else if (o.kind === 'cleanup') {
              t.cleanup();
            } else {
              for (let j = 0; j < o.count && live.length > 0; j++) {
                const k = (o.pick + 7 * j) % live.length;
                if (o.kind === 'remove') {
                  t.remove(live[k]!);
                  live.splice(k, 1);
                } else {
                  const b = o.to;
                  t.move(live[k]!, box(b[0]! + j, b[1]!, b[2]! + j, b[3]!), 0);
                }
              }
            }
            checkInvariants(t);
            expect(t.size).toBe(live.length);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
