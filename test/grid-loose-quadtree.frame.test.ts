// GridLooseQuadtree in a game loop: pairs(cb) on random moving scenes (large items, items outside
// the bounds, many coincident items) against brute force, and the steady-state frame loop
// (move everything, updateAll(), pairs(cb)) that must allocate nothing.
import { PerformanceObserver } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { GridLooseQuadtree } from '../src/index.js';
import { exposeGc, settle } from './gc.js';
import {
  BruteIndex,
  mulberry32,
  pick,
  type QueryRect,
  type Rng,
  randInt,
  samePairs,
} from './oracle.js';
import { type MovingBox, makeScene, type SceneOptions, stepScene } from './scenes.js';

const label = (b: { id: number }): string => `#${b.id}`;

function pairsOf<T>(tree: GridLooseQuadtree<T>): [T, T][] {
  const out: [T, T][] = [];
  tree.pairs((a, b) => {
    out.push([a, b]);
  });
  return out;
}

function modelOf<T>(items: Iterable<T>): BruteIndex<T> {
  const m = new BruteIndex<T>();
  for (const it of items) m.set(it);
  return m;
}

/** The pair sequence as ids, to compare orders. */
const idSequence = (ps: readonly [MovingBox, MovingBox][]): string =>
  ps.map(([a, b]) => `${a.id}-${b.id}`).join(' ');

// ---------------------------------------------------------------------------------------------
// pairs(cb) on random moving scenes
// ---------------------------------------------------------------------------------------------

interface PairScene {
  name: string;
  bounds: QueryRect;
  /** Where the boxes move: wider than bounds, so they cross the outer bounds. */
  arena: QueryRect;
  scene: Omit<SceneOptions, 'arena'>;
}

const B64 = { x: 0, y: 0, width: 64, height: 64 };
const PAIR_SCENES: PairScene[] = [
  {
    name: 'small boxes on a half-integer grid, touching often',
    bounds: B64,
    arena: { x: -8, y: -8, width: 80, height: 80 },
    scene: { count: 400, minSize: 0, maxSize: 4, maxSpeed: 2, snap: 0.5, pointFraction: 0.1 },
  },
  {
    name: 'large boxes, many larger than the root cell',
    bounds: B64,
    arena: { x: -40, y: -40, width: 144, height: 144 },
    scene: {
      count: 300,
      minSize: 0,
      maxSize: 6,
      maxSpeed: 3,
      snap: 1,
      largeFraction: 0.15,
      largeSize: 160,
      pulseFraction: 0.2,
      pulseFactor: 8,
    },
  },
  {
    name: 'most boxes outside the bounds',
    bounds: { x: 16, y: 16, width: 32, height: 32 },
    arena: { x: -100, y: -100, width: 264, height: 264 },
    scene: { count: 400, minSize: 0, maxSize: 10, maxSpeed: 6, snap: 1, largeFraction: 0.05 },
  },
  {
    name: 'many coincident boxes in clusters, and points',
    bounds: B64,
    arena: { x: 0, y: 0, width: 64, height: 64 },
    scene: {
      count: 400,
      minSize: 0,
      maxSize: 8,
      maxSpeed: 1,
      snap: 2,
      coincidentFraction: 0.6,
      clusterSize: 25,
      pointFraction: 0.2,
    },
  },
  {
    name: 'non-square bounds, pulsing boxes that change level every few frames',
    bounds: { x: -32, y: 0, width: 64, height: 16 },
    arena: { x: -40, y: -8, width: 80, height: 48 },
    scene: {
      count: 350,
      minSize: 0.25,
      maxSize: 3,
      maxSpeed: 1.5,
      snap: 0.25,
      pulseFraction: 0.5,
      pulseFactor: 16,
      largeFraction: 0.05,
      largeSize: 90,
    },
  },
];

/**
 * Runs a scene for `steps` frames. Each frame moves the boxes, tells the index (updateAll, or
 * update(box) one by one, alternating), sometimes removes and re-inserts a few boxes (so slots
 * are reused), and compares pairs(cb) with brute force, and its order with a second call.
 */
function runPairScene(s: PairScene, depth: number, rng: Rng, steps: number): void {
  const boxes = makeScene(rng, { ...s.scene, arena: s.arena });
  const tree = new GridLooseQuadtree<MovingBox>({ bounds: s.bounds, depth }).load(boxes);
  const present = new Set(boxes);
  for (let f = 0; f < steps; f++) {
    stepScene(boxes, s.arena, f);
    if (f % 2 === 0) tree.updateAll();
    else for (const b of present) expect(tree.update(b)).toBe(true);
    for (let k = 0; k < 5; k++) {
      const b = pick(rng, boxes);
      if (present.has(b)) {
        expect(tree.remove(b)).toBe(true);
        present.delete(b);
      } else {
        tree.insert(b);
        present.add(b);
      }
    }
    const model = modelOf(present);
    const got = pairsOf(tree);
    expect(samePairs(got, model.pairs(), label), `${s.name}, depth ${depth}, frame ${f}`).toBe(
      null,
    );
    if (f % 5 === 0) {
      expect(idSequence(pairsOf(tree)), 'second pairs() call, same state').toBe(idSequence(got));
    }
  }
}

describe('pairs(cb) on random moving scenes', () => {
  it.each(PAIR_SCENES.map((s) => [s.name, s] as const))(
    'pairs(cb) reports every overlapping pair exactly once, frame after frame: %s',
    (_, s) => {
      const rng = mulberry32(0x9a1 + s.name.length);
      for (const depth of [0, 1, 3, 5, 7]) runPairScene(s, depth, rng, 12);
    },
  );

  it('pairs(cb) reports the same sequence for the same state, and on a second index built by the same operations', () => {
    const arena = { x: -20, y: -20, width: 104, height: 104 };
    const make = () => {
      const boxes = makeScene(mulberry32(77), {
        arena,
        count: 300,
        minSize: 0,
        maxSize: 6,
        maxSpeed: 2,
        snap: 0.5,
        largeFraction: 0.05,
        largeSize: 100,
        coincidentFraction: 0.2,
      });
      const tree = new GridLooseQuadtree<MovingBox>({ bounds: B64, depth: 4 }).load(boxes);
      for (let f = 0; f < 10; f++) {
        stepScene(boxes, arena, f);
        tree.updateAll();
        tree.remove(boxes[f]!);
      }
      return tree;
    };
    const one = make();
    const two = make();
    const first = idSequence(pairsOf(one));
    expect(first.length).toBeGreaterThan(0);
    expect(idSequence(pairsOf(one))).toBe(first);
    expect(idSequence(pairsOf(two))).toBe(first);
    // queries in between do not change the state
    one.search({ x: 0, y: 0, width: 64, height: 64 });
    one.nearest(10, 10, 5);
    expect(idSequence(pairsOf(one))).toBe(first);
  });

  it('pairs(cb) on random scenes of every kind and depth equals brute force (many seeds)', () => {
    const rng = mulberry32(2024);
    for (let run = 0; run < 40; run++) {
      const s = pick(rng, PAIR_SCENES);
      const scene = { ...s.scene, count: randInt(rng, 1, 120) };
      runPairScene({ ...s, scene }, randInt(rng, 0, 8), rng, 4);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The steady-state frame loop allocates nothing
// ---------------------------------------------------------------------------------------------

interface Measure {
  /** GC events (of any kind) observed while `run` ran. */
  gcEvents: number;
  gcKinds: string;
  /** heapUsed after minus before, in bytes. */
  heapGrowth: number;
}

/**
 * Runs `warmUp` (then a full GC, then `warmUp` again, so that the code the GC threw away is
 * optimised again and the young generation is empty), then `run`, and reports the GCs that `run`
 * caused and how much the heap grew while it ran. `run` must be synchronous: nothing else runs
 * on this thread meanwhile, so whatever it observes is its own doing.
 */
async function measure(warmUp: () => void, run: () => void): Promise<Measure> {
  const gc = exposeGc();
  warmUp();
  gc();
  warmUp();
  const kinds: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      kinds.push((e as unknown as { detail?: { kind?: number } }).detail?.kind ?? -1);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  await settle();
  kinds.length = 0;
  const before = process.memoryUsage().heapUsed;
  run();
  const after = process.memoryUsage().heapUsed;
  await settle();
  observer.disconnect();
  return { gcEvents: kinds.length, gcKinds: kinds.join(','), heapGrowth: after - before };
}

describe('the steady-state frame loop', () => {
  // Retried: on a busy machine V8 may still be tiering up (code objects count as heap) during
  // the measured frames; an allocation per frame, item or pair fails every try.
  it('moving 3000 boxes, updateAll() and pairs(cb) allocate nothing over 300 frames (no GC, no heap growth)', {
    retry: 2,
  }, async () => {
    const bounds = { x: 0, y: 0, width: 1024, height: 1024 };
    const arena = { x: -64, y: -64, width: 1152, height: 1152 };
    const boxes = makeScene(mulberry32(31), {
      arena,
      count: 3000,
      minSize: 2,
      maxSize: 16,
      maxSpeed: 4,
      largeFraction: 0.01,
      largeSize: 1300,
      pointFraction: 0.05,
      coincidentFraction: 0.03,
      clusterSize: 10,
      pulseFraction: 0.05,
      pulseFactor: 8,
    });
    const tree = new GridLooseQuadtree<MovingBox>({ bounds }).load(boxes);

    let pairsInFrame = 0;
    const count = (): void => {
      pairsInFrame++;
    };
    let frame = 0;
    let totalPairs = 0;
    let minPairs = Number.POSITIVE_INFINITY;
    const step = (): void => {
      stepScene(boxes, arena, frame++);
      tree.updateAll();
      pairsInFrame = 0;
      tree.pairs(count);
      totalPairs += pairsInFrame;
      if (pairsInFrame < minPairs) minPairs = pairsInFrame;
    };

    // Warm up: buckets grow to their working sizes, the code gets optimised. V8 keeps tiering
    // up (and allocating for it) for a few hundred frames; 2 x 250 frames leave a quiet heap.
    const warmUp = (): void => {
      for (let f = 0; f < 250; f++) step();
      totalPairs = 0;
      minPairs = Number.POSITIVE_INFINITY;
    };
    const FRAMES = 300;
    const m = await measure(warmUp, () => {
      for (let f = 0; f < FRAMES; f++) step();
    });

    // The scene is busy enough that an allocation per pair (or per item) would show.
    expect(minPairs, 'pairs in the quietest frame').toBeGreaterThan(2000);
    expect(totalPairs).toBeGreaterThan(FRAMES * 2000);
    expect(m.gcEvents, `GC events during the frames (kinds ${m.gcKinds})`).toBe(0);
    expect(m.heapGrowth, 'heap growth in bytes').toBeLessThan(64 * 1024);

    // And the answers stayed exact.
    expect(samePairs(pairsOf(tree), modelOf(boxes).pairs(), label)).toBeNull();
  });
});
