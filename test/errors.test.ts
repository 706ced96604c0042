// One error class per kind of mistake: each mistake below throws its class, which is also the
// built-in class that kind of mistake raised before (RangeError, TypeError, Error), with its code,
// and leaves the index unchanged.
import { describe, expect, it } from 'vitest';
import { Clusterer } from '../src/cluster/index.js';
import { forceManyBody } from '../src/force.js';
import { GeoIndex } from '../src/geo/index.js';
import {
  ContactTracker,
  CorruptBufferError,
  DuplicateItemError,
  GridLooseQuadtree,
  InvalidTypeError,
  InvalidValueError,
  PointQuadtree,
  Quadtree,
  rect,
  StaticQuadtree,
  TriangleIndex,
  UnknownOptionError,
  WalkInProgressError,
} from '../src/index.js';

const bounds = { x: 0, y: 0, width: 10, height: 10 };
type Class = abstract new (...args: never[]) => Error;

interface Mistake {
  what: string;
  /** Makes the mistake on a tree holding two items; returns nothing. */
  make(tree: Quadtree<{ x: number; y: number; width?: number }>): void;
}

/** The trees the mutating mistakes are made on: each holds a and b. */
function twoItemTree() {
  const a = { x: 1, y: 1, width: 2 };
  const b = { x: 2, y: 1, width: 2 };
  return {
    tree: new Quadtree<{ x: number; y: number; width?: number }>({ bounds }).load([a, b]),
    a,
    b,
  };
}

function caught(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

const KINDS: {
  cls: Class;
  base: Class;
  code: string;
  mistakes: Mistake[];
}[] = [
  {
    cls: InvalidValueError,
    base: RangeError,
    code: 'QUADKIT_INVALID_VALUE',
    mistakes: [
      { what: 'insert of an item with a NaN x', make: (t) => t.insert({ x: Number.NaN, y: 0 }) },
      { what: 'insert of a negative width', make: (t) => t.insert({ x: 0, y: 0, width: -1 }) },
      {
        what: 'load with one infinite item',
        make: (t) => t.load([{ x: 0, y: Number.POSITIVE_INFINITY }]),
      },
      { what: 'nearest with k = -1', make: (t) => t.nearest(0, 0, -1) },
      {
        what: 'a search rectangle of negative height',
        make: (t) => t.search({ ...bounds, height: -1 }),
      },
      { what: 'maxLevels 40', make: () => new Quadtree({ bounds, maxLevels: 40 }) },
      {
        what: 'bounds of width 0',
        make: () => new GridLooseQuadtree({ bounds: { ...bounds, width: 0 } }),
      },
      {
        what: 'a zero-area triangle',
        make: () => new TriangleIndex([0, 0, 1, 1, 2, 2], [0, 1, 2]),
      },
      { what: 'fromBoxes with min > max', make: () => StaticQuadtree.fromBoxes([1, 0, 0, 1]) },
      { what: 'fromPoints with NaN', make: () => StaticQuadtree.fromPoints([0, Number.NaN]) },
      { what: 'fromBoxes of length 3', make: () => StaticQuadtree.fromBoxes([0, 0, 1]) },
      { what: 'a narrow-phase rect of negative width', make: () => rect(0, 0, -1, 1) },
    ],
  },
  {
    cls: InvalidTypeError,
    base: TypeError,
    code: 'QUADKIT_INVALID_TYPE',
    mistakes: [
      { what: 'insert(5)', make: (t) => t.insert(5 as never) },
      { what: 'insert(null)', make: (t) => t.insert(null as never) },
      { what: 'insert(undefined)', make: (t) => t.insert(undefined as never) },
      { what: 'insert("box")', make: (t) => t.insert('box' as never) },
      { what: 'an item whose x is a string', make: (t) => t.insert({ x: '1' as never, y: 0 }) },
      { what: 'load of something not an array', make: (t) => t.load('ab' as never) },
      {
        what: 'a toRect that returns null',
        make: () => new Quadtree({ bounds, toRect: (_: object) => null as never }).insert({}),
      },
      {
        what: 'a toRect that is not a function',
        make: () => new Quadtree({ bounds, toRect: 5 as never }),
      },
      { what: 'options null', make: () => new Quadtree(null as never) },
      { what: 'pairs(5)', make: (t) => t.pairs(5 as never) },
      {
        what: 'GridLooseQuadtree insert(5)',
        make: () => new GridLooseQuadtree({ bounds }).insert(5 as never),
      },
      {
        what: 'PointQuadtree insert(null)',
        make: () => new PointQuadtree({ bounds }).insert(null as never),
      },
      { what: 'StaticQuadtree.from([5])', make: () => StaticQuadtree.from([5 as never]) },
      { what: 'fromBuffer(5)', make: () => StaticQuadtree.fromBuffer(5 as never) },
      { what: 'TriangleIndex coords null', make: () => new TriangleIndex(null as never, []) },
      {
        what: 'a ContactTracker on a StaticQuadtree',
        make: () => new ContactTracker(StaticQuadtree.from([bounds]) as never),
      },
      { what: 'a ContactTracker on an object', make: () => new ContactTracker({} as never) },
    ],
  },
  {
    cls: UnknownOptionError,
    base: TypeError,
    code: 'QUADKIT_UNKNOWN_OPTION',
    mistakes: [
      {
        what: 'maxDepth for a Quadtree',
        make: () => new Quadtree({ bounds, maxDepth: 3 } as never),
      },
      {
        what: 'toRect for fromBoxes',
        make: () => StaticQuadtree.fromBoxes([], { toRect: noop } as never),
      },
    ],
  },
  {
    cls: DuplicateItemError,
    base: Error,
    code: 'QUADKIT_DUPLICATE_ITEM',
    mistakes: [
      { what: 'inserting an item twice', make: (t) => t.insert(t.all()[0]!) },
      { what: 'loading an item already there', make: (t) => t.load([{ x: 0, y: 0 }, t.all()[1]!]) },
      {
        what: 'loading an item listed twice',
        make: (t) => {
          const c = { x: 5, y: 5 };
          t.load([c, c]);
        },
      },
    ],
  },
  {
    cls: WalkInProgressError,
    base: Error,
    code: 'QUADKIT_WALK_IN_PROGRESS',
    mistakes: [
      { what: 'insert inside pairs', make: (t) => t.pairs(() => t.insert({ x: 0, y: 0 })) },
      { what: 'remove inside visit', make: (t) => t.visit(() => void t.remove(t.all()[0]!)) },
      { what: 'visit inside visit', make: (t) => t.visit(() => t.visit(noop)) },
      {
        what: 'update inside toRect',
        make: () => {
          const tree: Quadtree<{ x: number; y: number }> = new Quadtree({
            bounds,
            toRect: (it) => {
              if (tree.size > 0) tree.clear();
              return it;
            },
          });
          tree.insert({ x: 1, y: 1 });
          tree.update(tree.all()[0]!);
        },
      },
    ],
  },
  {
    cls: CorruptBufferError,
    base: Error,
    code: 'QUADKIT_CORRUPT_BUFFER',
    mistakes: [
      {
        what: 'fromBuffer of 8 zero bytes',
        make: () => StaticQuadtree.fromBuffer(new ArrayBuffer(8)),
      },
      {
        what: 'fromBuffer of a truncated tree',
        make: () => {
          const buffer = StaticQuadtree.fromBoxes([0, 0, 1, 1, 2, 2, 3, 3]).toBuffer();
          StaticQuadtree.fromBuffer((buffer as ArrayBuffer).slice(0, buffer.byteLength - 8));
        },
      },
    ],
  },
];

function noop(): void {}

describe.each(KINDS)('$cls.name', ({ cls, base, code, mistakes }) => {
  it.each(mistakes.map((m) => [m.what, m] as const))(
    '%s throws it, a subclass of the built-in class, with its code and name, and changes nothing',
    (_, mistake) => {
      const { tree, a, b } = twoItemTree();
      const before = JSON.stringify(tree.search(bounds));
      const err = caught(() => mistake.make(tree));
      expect(err).toBeInstanceOf(cls);
      expect(err).toBeInstanceOf(base);
      expect((err as { code: string }).code).toBe(code);
      expect((err as Error).name).toBe(cls.name);
      expect((err as Error).stack).toMatch(new RegExp(`^${cls.name}: quadkit: `));
      expect((err as Error).message).toMatch(/^quadkit: /);
      expect(tree.size).toBe(2);
      expect(tree.has(a) && tree.has(b)).toBe(true);
      expect(JSON.stringify(tree.search(bounds))).toBe(before);
    },
  );
});

describe('error messages', () => {
  it('insert(5) and insert(null) are the same kind of mistake, named the same way', () => {
    const tree = new Quadtree({ bounds });
    for (const bad of [5, null, undefined, 'x', true]) {
      const err = caught(() => tree.insert(bad as never));
      expect(err).toBeInstanceOf(InvalidTypeError);
      expect((err as Error).message).toMatch(
        /^quadkit: item must be an object \{ x, y, width\?, height\? \}/,
      );
    }
  });

  it("items and rectangles shaped as the peers' say which option reads them, and the index is unchanged", () => {
    const box = { minX: 1, minY: 1, maxX: 2, maxY: 2 };
    const tree = new Quadtree({ bounds });
    const points = new PointQuadtree({ bounds });
    const cases: [() => unknown, RegExp][] = [
      [() => tree.insert(box as never), /item\.x .*give options\.toRect: \(b\) => \(\{ x: b\.minX/],
      [() => tree.load([bounds, box] as never), /give options\.toRect: .*\(items\[1\]; nothing/],
      [() => StaticQuadtree.from([box] as never), /give options\.toRect: \(b\) =>/],
      [() => points.insert([1, 2] as never), /for \[x, y\] items give options\.toPoint: \(p\) =>/],
      [
        () => tree.insert({ left: 1 } as never),
        /read as \{ x, y, width\?, height\? \}; give options\.toRect/,
      ],
      [() => points.insert({ lon: 1 } as never), /read as \{ x, y \}; give options\.toPoint/],
      [
        () => tree.search(box as never),
        /rect\.x .*a rectangle is \{ x, y, width, height \}, not \{ minX/,
      ],
      [
        () => new Quadtree(bounds as never),
        /unknown option "x" .*the bounds go in options\.bounds: new Quadtree\(\{ bounds: /,
      ],
      [
        () => Quadtree.fromBoxes([0, 0, 1, 1], bounds as never),
        /unknown option "x" .*the bounds go in options\.bounds: \{ bounds: /,
      ],
    ];
    for (const [make, message] of cases) {
      const err = caught(make);
      expect(err).toBeInstanceOf(TypeError);
      expect((err as Error).message).toMatch(message);
    }
    expect(tree.size + points.size).toBe(0);
    // A field that is there but not finite gets no hint.
    expect((caught(() => tree.insert({ x: Number.NaN, y: 1 })) as Error).message).toBe(
      'quadkit: item.x must be a finite number, got NaN',
    );
  });

  it('quadkit/geo, quadkit/cluster and quadkit/force throw the same classes, with their codes and the quadkit: prefix', () => {
    const cases: [() => unknown, new (...a: never[]) => Error, string][] = [
      [() => new Clusterer({ log: true } as never), UnknownOptionError, 'QUADKIT_UNKNOWN_OPTION'],
      [() => new Clusterer({ radius: -1 }), InvalidValueError, 'QUADKIT_INVALID_VALUE'],
      [() => new Clusterer().load(5 as never), InvalidTypeError, 'QUADKIT_INVALID_TYPE'],
      [
        () => GeoIndex.from([{ type: 'Point', coordinates: [Number.NaN, 0] }]),
        InvalidValueError,
        'QUADKIT_INVALID_VALUE',
      ],
      [() => forceManyBody().theta(Number.NaN), InvalidValueError, 'QUADKIT_INVALID_VALUE'],
      [() => forceManyBody().theta('1' as never), InvalidTypeError, 'QUADKIT_INVALID_TYPE'],
    ];
    for (const [make, type, code] of cases) {
      const err = caught(make) as Error & { code?: string };
      expect(err).toBeInstanceOf(type);
      expect(err.code).toBe(code);
      expect(err.message).toMatch(/^quadkit: /);
    }
  });

  it('new ContactTracker(StaticQuadtree) says at once that the tracker needs a dynamic index', () => {
    const err = caught(() => new ContactTracker(StaticQuadtree.from([bounds]) as never));
    expect((err as Error).message).toMatch(/needs a dynamic index/);
    expect((err as Error).message).toMatch(/StaticQuadtree, which never changes/);
    expect((err as Error).message).not.toMatch(/is not a function/);
  });
});
