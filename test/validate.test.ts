// Every options door refuses an unknown option with an UnknownOptionError that names the option,
// the class or function, and lists the known options; known options pass, in any combination.
import { describe, expect, it } from 'vitest';
import {
  type Canvas2D,
  drawIndex,
  drawPoints,
  drawRects,
  drawTriangles,
  fitView,
} from '../src/canvas.js';
import {
  GridLooseQuadtree,
  PointQuadtree,
  Quadtree,
  StaticQuadtree,
  TriangleIndex,
  UnknownOptionError,
} from '../src/index.js';

const bounds = { x: 0, y: 0, width: 10, height: 10 };
const noop = (): void => {};
const ctx: Canvas2D = {
  fillStyle: '',
  strokeStyle: '',
  lineWidth: 1,
  globalAlpha: 1,
  save: noop,
  restore: noop,
  beginPath: noop,
  rect: noop,
  moveTo: noop,
  lineTo: noop,
  closePath: noop,
  fill: noop,
  stroke: noop,
};

interface Door {
  /** Who the message names. */
  owner: string;
  /** The known options, in the order the message lists them. */
  known: string[];
  /** Calls the door with `extra` added to a valid options object. */
  call(extra: Record<string, unknown>): unknown;
}

const tree = new Quadtree({ bounds });
const DOORS: Door[] = [
  {
    owner: 'Quadtree',
    known: ['bounds', 'maxObjects', 'maxLevels', 'looseness', 'toRect'],
    call: (extra) => new Quadtree({ bounds, ...extra }),
  },
  {
    owner: 'Quadtree',
    known: ['bounds', 'maxObjects', 'maxLevels', 'looseness', 'toRect'],
    call: (extra) => Quadtree.from([{ x: 1, y: 1 }], { bounds, ...extra }),
  },
  {
    owner: 'GridLooseQuadtree',
    known: ['bounds', 'depth', 'toRect'],
    call: (extra) => new GridLooseQuadtree({ bounds, ...extra }),
  },
  {
    owner: 'GridLooseQuadtree',
    known: ['bounds', 'depth', 'toRect'],
    call: (extra) => GridLooseQuadtree.from([{ x: 1, y: 1 }], { bounds, ...extra }),
  },
  {
    owner: 'PointQuadtree',
    known: ['bounds', 'bucketSize', 'maxLevels', 'toPoint'],
    call: (extra) => new PointQuadtree({ bounds, ...extra }),
  },
  {
    owner: 'PointQuadtree',
    known: ['bounds', 'bucketSize', 'maxLevels', 'toPoint'],
    call: (extra) => PointQuadtree.from([{ x: 1, y: 1 }], { bounds, ...extra }),
  },
  {
    owner: 'StaticQuadtree.from',
    known: ['nodeSize', 'bounds', 'shared', 'toRect'],
    call: (extra) => StaticQuadtree.from([{ x: 1, y: 1 }], { ...extra }),
  },
  {
    owner: 'StaticQuadtree.fromBoxes',
    known: ['nodeSize', 'bounds', 'shared'],
    call: (extra) => StaticQuadtree.fromBoxes([0, 0, 1, 1], { ...extra }),
  },
  {
    owner: 'StaticQuadtree.fromPoints',
    known: ['nodeSize', 'bounds', 'shared'],
    call: (extra) => StaticQuadtree.fromPoints([0, 0], { ...extra }),
  },
  {
    owner: 'TriangleIndex',
    known: ['skipDegenerate'],
    call: (extra) => new TriangleIndex([0, 0, 1, 0, 0, 1], [0, 1, 2], { ...extra }),
  },
  {
    owner: 'fitView',
    known: ['padding', 'flipY'],
    call: (extra) => fitView(bounds, 100, 100, { ...extra }),
  },
  {
    owner: 'drawIndex style',
    known: ['colors', 'lineWidth', 'alpha', 'maxDepth', 'minSize'],
    call: (extra) => drawIndex(ctx, tree, { ...extra }),
  },
  {
    owner: 'canvas style',
    known: ['fill', 'stroke', 'lineWidth', 'alpha', 'pointSize'],
    call: (extra) => drawRects(ctx, [bounds], undefined, { fill: 'red', ...extra }),
  },
  {
    owner: 'canvas style',
    known: ['fill', 'stroke', 'lineWidth', 'alpha', 'pointSize'],
    call: (extra) => drawPoints(ctx, [bounds], undefined, { ...extra }),
  },
  {
    owner: 'canvas style',
    known: ['fill', 'stroke', 'lineWidth', 'alpha', 'pointSize'],
    call: (extra) => drawTriangles(ctx, [0, 0, 1, 0, 0, 1], [0, 1, 2], null, { ...extra }),
  },
];

/** Whether the door builds a dynamic index (whose bounds are required). */
function isDynamic(door: Door): boolean {
  return ['Quadtree', 'GridLooseQuadtree', 'PointQuadtree'].includes(door.owner);
}

function hasSummary(v: unknown): v is { toJSON(): unknown } {
  return (
    typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function'
  );
}

// A valid value for each known option, to show that every known key passes.
const VALID: Record<string, unknown> = {
  bounds,
  maxObjects: 4,
  maxLevels: 5,
  looseness: 2,
  toRect: (r: typeof bounds) => r,
  depth: 3,
  bucketSize: 4,
  toPoint: (r: typeof bounds) => r,
  nodeSize: 4,
  shared: false,
  skipDegenerate: true,
  padding: 2,
  flipY: true,
  colors: ['red'],
  lineWidth: 2,
  alpha: 0.5,
  maxDepth: 3,
  fill: 'red',
  stroke: 'blue',
  pointSize: 4,
};

describe('options', () => {
  it.each(DOORS.map((d, i) => [`${d.owner} (door ${i})`, d] as const))(
    '%s refuses an unknown option with an UnknownOptionError listing the known ones',
    (_, door) => {
      for (const key of ['maxDepth', 'bound', 'tORect', 'onInsert']) {
        if (door.known.includes(key)) continue;
        let err: unknown;
        try {
          door.call({ [key]: 3 });
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(UnknownOptionError);
        expect(err).toBeInstanceOf(TypeError);
        expect((err as UnknownOptionError).code).toBe('QUADKIT_UNKNOWN_OPTION');
        expect((err as Error).message).toBe(
          `quadkit: unknown option "${key}" for ${door.owner}; known options: ${door.known.join(', ')}`,
        );
      }
    },
  );

  it.each(DOORS.map((d, i) => [`${d.owner} (door ${i})`, d] as const))(
    '%s takes every known option',
    (_, door) => {
      const all = Object.fromEntries(door.known.map((k) => [k, VALID[k]]));
      expect(() => door.call(all)).not.toThrow();
      for (const key of door.known) expect(() => door.call({ [key]: VALID[key] })).not.toThrow();
    },
  );

  it.each(DOORS.map((d, i) => [`${d.owner} (door ${i})`, d] as const))(
    '%s takes undefined for an optional option as the option left out',
    (_, door) => {
      // (bounds is required by the dynamic indexes.)
      const optional = door.known.filter((k) => !(k === 'bounds' && isDynamic(door)));
      const given = door.call(Object.fromEntries(optional.map((k) => [k, undefined])));
      const plain = door.call({});
      if (hasSummary(given) && hasSummary(plain)) expect(given.toJSON()).toEqual(plain.toJSON());
      else expect(given).toEqual(plain);
    },
  );

  it('new Quadtree({ bounds, maxDepth: 3 }) gives the message of the reference', () => {
    expect(() => new Quadtree({ bounds, maxDepth: 3 } as never)).toThrow(
      'quadkit: unknown option "maxDepth" for Quadtree; known options: bounds, maxObjects, maxLevels, looseness, toRect',
    );
  });

  it('only own keys count: an options object made from a prototype with other keys is taken', () => {
    const options = Object.assign(Object.create({ inherited: 1 }), { bounds, maxObjects: 3 });
    expect(new Quadtree(options).maxObjects).toBe(3);
  });

  it('flags that are not booleans are refused, naming the option', () => {
    expect(() => StaticQuadtree.fromPoints([0, 0], { shared: 'yes' as never })).toThrow(
      /options\.shared must be true or false, got "yes"/,
    );
    expect(
      () => new TriangleIndex([0, 0, 1, 0, 0, 1], [0, 1, 2], { skipDegenerate: 1 as never }),
    ).toThrow(TypeError);
  });
});
