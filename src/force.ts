// quadkit: a many-body force for d3-force simulations, a drop-in for d3.forceManyBody()
// (M. Bostock's d3-force) with the same options and meaning, computed by Barnes & Hut's
// approximation ("A hierarchical O(N log N) force-calculation algorithm", Nature 324, 1986) over
// a point quadtree rebuilt each tick into typed arrays that are kept between ticks (see
// engine/charges.ts).

import { ChargeTree, forceOn } from './engine/charges.js';
import { badField, InvalidTypeError, InvalidValueError } from './errors.js';

/** What the force reads and writes on a node: d3-force's simulation nodes have these. */
export interface ForceNode {
  /** Position x, read each tick. */
  x?: number | undefined;
  /** Position y, read each tick. */
  y?: number | undefined;
  /** Velocity x, to which the force adds. */
  vx?: number | undefined;
  /** Velocity y, to which the force adds. */
  vy?: number | undefined;
}

/** A per-node accessor, as d3-force calls it: `(node, i, nodes)`. */
export type NodeAccessor<N> = (node: N, i: number, nodes: N[]) => number;

/** A cell of the last tick's tree, as `visit` shows it; one object, reused. */
export interface ChargeCell {
  /** Minimum x of the cell's square. */
  x: number;
  /** Minimum y of the cell's square. */
  y: number;
  /** Width of the cell's square. */
  width: number;
  /** Height of the cell's square (equal to its width). */
  height: number;
  /** Nodes in the cell. */
  count: number;
  /** Total strength of the nodes in the cell. */
  charge: number;
  /** Centre of charge, x (the nodes weighted by the absolute value of their strength). */
  cx: number;
  /** Centre of charge, y (the nodes weighted by the absolute value of their strength). */
  cy: number;
}

/** The force returned by {@link forceManyBody}; a d3-force `Force`. */
export interface ManyBodyForce<N extends ForceNode> {
  /** Adds to each node's velocity the force of all others times `alpha`. */
  (alpha: number): void;
  /**
   * Takes the nodes (and the simulation's random source, for the jiggle); called by the
   * simulation.
   * @param nodes - the nodes.
   * @param random - numbers in [0, 1); Math.random when not given.
   */
  initialize(nodes: N[], random?: () => number): void;
  /** The strength accessor. */
  strength(): NodeAccessor<N>;
  /**
   * Sets the strength (default -30): negative repels, positive attracts; a number or a function
   * of `(node, i, nodes)`, evaluated now and when the nodes change, not each tick.
   * @param strength - a finite number or an accessor returning one.
   */
  strength(strength: number | NodeAccessor<N>): this;
  /** The Barnes–Hut accuracy parameter. */
  theta(): number;
  /**
   * Sets theta (default 0.9): a cell of width w whose centre of charge is at distance d acts
   * as one body when w / d < theta; 0 sums every pair exactly.
   * @param theta - a finite number ≥ 0.
   */
  theta(theta: number): this;
  /** The minimum distance. */
  distanceMin(): number;
  /**
   * Sets the distance below which forces are computed as at this distance (default 1).
   * @param distance - a finite number ≥ 0.
   */
  distanceMin(distance: number): this;
  /** The maximum distance. */
  distanceMax(): number;
  /**
   * Sets the distance from which nodes exert no force (default Infinity).
   * @param distance - a number ≥ 0 (Infinity allowed).
   */
  distanceMax(distance: number): this;
  /**
   * Calls back for each cell of the last tick's tree, parents first (a `true` return skips its
   * children): to draw the tree under a graph.
   * @param callback - receives one reused {@link ChargeCell}.
   */
  visit(callback: (cell: ChargeCell) => unknown): void;
  /** @internal The tree and its arrays (kept between ticks). */
  readonly tree: ChargeTree;
}

function checkNumber(name: string, value: unknown, min: number, infinite: boolean): number {
  if (
    typeof value !== 'number' ||
    !(value >= min) ||
    (!infinite && value === Number.POSITIVE_INFINITY)
  ) {
    badField(name, value, `a ${infinite ? '' : 'finite '}number >= ${min}`);
  }
  return value;
}

/**
 * Creates a many-body force for a d3-force simulation, used as d3's:
 * `simulation.force('charge', forceManyBody().strength(-30))`. Same options, defaults and
 * meaning as `d3.forceManyBody()`, including the jiggle of coincident nodes from the
 * simulation's random source; each tick reuses the arrays of the last.
 *
 * @typeParam N - the node type.
 */
export function forceManyBody<N extends ForceNode = ForceNode>(): ManyBodyForce<N> {
  const tree = new ChargeTree();
  const out = new Float64Array(2);
  const cell: ChargeCell = { x: 0, y: 0, width: 0, height: 0, count: 0, charge: 0, cx: 0, cy: 0 };
  let nodes: N[] = [];
  let random: () => number = Math.random;
  let strength: NodeAccessor<N> = () => -30;
  let theta2 = 0.81;
  let distanceMin2 = 1;
  let distanceMax2 = Number.POSITIVE_INFINITY;

  // Each node's strength, in node order, into the tree's body charges.
  function initialize(): void {
    const n = nodes.length;
    tree.reserve(n);
    const bs = tree.bs;
    for (let i = 0; i < n; i++) {
      const s = +strength(nodes[i]!, i, nodes);
      if (!Number.isFinite(s)) {
        throw new InvalidValueError(
          `quadkit: strength(nodes[${i}]) must be a finite number, got ${s}; return one from the strength accessor`,
        );
      }
      bs[i] = s;
    }
  }

  const force = ((alpha: number): void => {
    const n = nodes.length;
    if (n > tree.capacity) {
      throw new Error(
        `quadkit: ${n} nodes but ${tree.capacity} initialized; call initialize(nodes) (simulation.nodes(nodes) does) after adding nodes`,
      );
    }
    // Positions in, checked: a NaN would poison every other node's force.
    const { bx, by } = tree;
    for (let i = 0; i < n; i++) {
      const node = nodes[i]!;
      const x = node.x as number;
      const y = node.y as number;
      if (typeof x !== 'number' || x - x !== 0 || typeof y !== 'number' || y - y !== 0) {
        throw new InvalidValueError(
          `quadkit: nodes[${i}] must have a finite x and y, got (${x}, ${y}); give it a position (d3's simulation places nodes without one)`,
        );
      }
      bx[i] = x;
      by[i] = y;
    }
    tree.build(n, theta2);
    // One walk per node, in node order (so the jiggles draw from `random` in d3's order).
    for (let i = 0; i < n; i++) {
      forceOn(tree, i, distanceMin2, distanceMax2, random, out);
      const node = nodes[i]!;
      node.vx = (node.vx as number) + out[0]! * alpha;
      node.vy = (node.vy as number) + out[1]! * alpha;
    }
  }) as ManyBodyForce<N>;

  force.initialize = (ns: N[], r?: () => number): void => {
    if (!Array.isArray(ns)) {
      throw new InvalidTypeError('quadkit: initialize(nodes) needs an array of nodes');
    }
    if (r !== undefined && typeof r !== 'function') {
      throw new InvalidTypeError(
        'quadkit: initialize(nodes, random) needs random to be a function',
      );
    }
    nodes = ns;
    random = r ?? Math.random;
    initialize();
  };

  force.strength = ((s?: number | NodeAccessor<N>) => {
    if (s === undefined) return strength;
    if (typeof s === 'function') {
      strength = s;
    } else {
      const c = checkNumber('strength', s, Number.NEGATIVE_INFINITY, false);
      strength = () => c;
    }
    initialize();
    return force;
  }) as ManyBodyForce<N>['strength'];

  force.theta = ((t?: number) => {
    if (t === undefined) return Math.sqrt(theta2);
    theta2 = checkNumber('theta', t, 0, false) ** 2;
    return force;
  }) as ManyBodyForce<N>['theta'];

  force.distanceMin = ((d?: number) => {
    if (d === undefined) return Math.sqrt(distanceMin2);
    distanceMin2 = checkNumber('distanceMin', d, 0, false) ** 2;
    return force;
  }) as ManyBodyForce<N>['distanceMin'];

  force.distanceMax = ((d?: number) => {
    if (d === undefined) return Math.sqrt(distanceMax2);
    distanceMax2 = checkNumber('distanceMax', d, 0, true) ** 2;
    return force;
  }) as ManyBodyForce<N>['distanceMax'];

  force.visit = (callback: (cell: ChargeCell) => unknown): void => {
    const { skip, lo, hi, cellX, cellY, cellW, charge, cx, cy } = tree;
    const count = tree.nodes;
    for (let k = 0; k < count; ) {
      cell.x = cellX[k]!;
      cell.y = cellY[k]!;
      cell.width = cellW[k]!;
      cell.height = cellW[k]!;
      cell.count = hi[k]! - lo[k]!;
      cell.charge = charge[k]!;
      cell.cx = cx[k]!;
      cell.cy = cy[k]!;
      k = callback(cell) === true ? skip[k]! : k + 1;
    }
  };

  Object.defineProperty(force, 'tree', { value: tree });
  return force;
}
