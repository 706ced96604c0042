// Scene 7, forces: a force-directed graph (a random tree of thousands of nodes) laid out by a
// d3-force simulation whose many-body force is quadkit/force's forceManyBody, or d3's own (a
// switch). The chosen one runs every tick and sets the pace; the other is timed on the same
// nodes one tick in SAMPLE (with alpha 0, which does all its work and moves nothing), so that
// the ratio of their times stays on show. The graph is fitted to the canvas every frame, and
// quadkit's tree of the last tick is drawn under it while quadkit drives.

import {
  forceManyBody as d3ManyBody,
  forceLink,
  forceSimulation,
  forceX,
  forceY,
  type SimulationLinkDatum,
  type SimulationNodeDatum,
} from 'd3-force';
import { drawIndex, fitView, type View } from '../../../src/canvas.js';
import { forceManyBody } from '../../../src/force.js';
import type { VisitNode } from '../../../src/index.js';
import { cssScale, density, formatMs, radios, random, type Scene, slider } from '../scene.js';

const COLORS = {
  background: '#f8fafc',
  cell: '#6d87a6',
  link: '#94a3b8',
  node: '#0f766e',
  root: '#e11d48',
};
// Timings averaged in the stats, per force.
const WINDOW = 30;
// The force that does not drive is timed one tick in SAMPLE.
const SAMPLE = 10;

type Node = SimulationNodeDatum & { index: number };

/** Scene 7: a graph laid out with quadkit's many-body force, timed beside d3's. */
export const forceScene: Scene = {
  id: 'force',
  title: 'Force layout',
  blurb:
    'A random tree laid out by a d3-force simulation. Its many-body force is forceManyBody ' +
    "from quadkit/force (Barnes–Hut over a quadtree rebuilt each tick), or d3's own: the one " +
    'chosen runs every tick (and sets the frame rate), the other is timed on the same nodes ' +
    'one tick in 10, so both times are shown side by side. The lines under the graph are the ' +
    "cells of quadkit's tree at the last tick.",
  legend: [
    { color: COLORS.node, label: 'node', mark: 'dot' },
    { color: COLORS.link, label: 'link (forceLink)', mark: 'line' },
    { color: COLORS.cell, label: 'quadtree cell (≥ 8 px)', mark: 'outline' },
  ],
  mount({ canvas, ctx, controls, stats }) {
    const { width, height } = canvas;
    // #region excerpt
    const quadkit = forceManyBody<Node>(); // from quadkit/force
    // #endregion
    const d3 = d3ManyBody<Node>();
    let driver: 'quadkit' | 'd3' = 'quadkit';
    let nodes: Node[] = [];
    let links: SimulationLinkDatum<Node>[] = [];
    const times = { quadkit: [] as number[], d3: [] as number[] };
    // Ticks each force ran, since the graph was built.
    const ran = { quadkit: 0, d3: 0 };
    let tick = 0;
    let view: View = fitView({ x: -1, y: -1, width: 2, height: 2 }, width, height);
    // The view jumps to the nodes' extent on the first frame of a graph, then zooms in gently.
    let snap = true;

    // The charge: the driver with the simulation's alpha, the other with 0 one tick in SAMPLE.
    const timed = (name: 'quadkit' | 'd3', force: (alpha: number) => void, alpha: number) => {
      const t0 = performance.now();
      force(alpha);
      const list = times[name];
      list.push(performance.now() - t0);
      if (list.length > WINDOW) list.shift();
      ran[name]++;
    };
    const charge = Object.assign(
      (alpha: number) => {
        const other = driver === 'quadkit' ? 'd3' : 'quadkit';
        timed(driver, driver === 'quadkit' ? quadkit : d3, alpha);
        if (tick++ % SAMPLE === 0) timed(other, other === 'quadkit' ? quadkit : d3, 0);
      },
      {
        initialize(ns: Node[], rand: () => number) {
          quadkit.initialize(ns, rand);
          d3.initialize(ns, rand);
        },
      },
    );
    const simulation = forceSimulation<Node>().stop();
    // quadkit's tree of the last tick, for drawIndex: its cells as nodes (one reused object).
    const cellNode: VisitNode = { x: 0, y: 0, width: 0, height: 0, depth: 0, count: 0 };
    const tree = {
      visit(callback: (node: VisitNode) => unknown) {
        quadkit.visit((cell) => {
          cellNode.x = cell.x;
          cellNode.y = cell.y;
          cellNode.width = cell.width;
          cellNode.height = cell.height;
          cellNode.count = cell.count;
          return callback(cellNode);
        });
      },
    };

    // A random tree of n nodes (each joins an earlier one), from a seeded generator.
    const build = (n: number): void => {
      const rand = random(n);
      nodes = Array.from({ length: n }, (_, index) => ({ index }));
      links = nodes.slice(1).map((node) => ({
        source: nodes[Math.floor(rand() * node.index)]!,
        target: node,
      }));
      // #region excerpt
      simulation
        .nodes(nodes)
        .randomSource(random(7))
        .force('charge', charge) // quadkit's forceManyBody (or d3's), timed
        // #endregion
        .force('link', forceLink(links).distance(12).iterations(1))
        .force('x', forceX().strength(0.02))
        .force('y', forceY().strength(0.02))
        .alpha(1)
        .alphaTarget(0.02);
      snap = true;
      times.quadkit.length = 0;
      times.d3.length = 0;
      ran.quadkit = 0;
      ran.d3 = 0;
      tick = 0;
      stats.set('nodes', n);
    };
    build(4000);
    slider(
      controls,
      'nodes',
      { id: 'nodes', min: 500, max: 20_000, step: 500, value: 4000 },
      build,
    );
    radios(
      controls,
      'driver',
      [
        ['quadkit', 'quadkit force'],
        ['d3', "d3's force"],
      ],
      (value) => {
        driver = value as 'quadkit' | 'd3';
      },
    );

    const mean = (list: number[]) => list.reduce((s, t) => s + t, 0) / Math.max(1, list.length);

    return {
      frame() {
        simulation.tick();
        // The view: the nodes' extent, eased towards.
        let minX = Infinity;
        let minY = Infinity;
        let maxX = -Infinity;
        let maxY = -Infinity;
        for (const node of nodes) {
          minX = Math.min(minX, node.x!);
          minY = Math.min(minY, node.y!);
          maxX = Math.max(maxX, node.x!);
          maxY = Math.max(maxY, node.y!);
        }
        // The scale that fits them: taken at once when the graph grew, eased towards when it
        // shrank; centred on them, so that the whole graph is always on the canvas.
        const box = { x: minX, y: minY, width: maxX - minX || 1, height: maxY - minY || 1 };
        const target = fitView(box, width, height, { padding: 16 * density(canvas) });
        const scale =
          snap || target.scaleX < view.scaleX
            ? target.scaleX
            : view.scaleX + 0.2 * (target.scaleX - view.scaleX);
        snap = false;
        view = {
          scaleX: scale,
          scaleY: scale,
          offsetX: width / 2 - (box.x + box.width / 2) * scale,
          offsetY: height / 2 - (box.y + box.height / 2) * scale,
        };
        const { scaleX, scaleY, offsetX, offsetY } = view;
        const px = cssScale(canvas);
        ctx.fillStyle = COLORS.background;
        ctx.fillRect(0, 0, width, height);
        // The tree's cells (those at least 8 screen pixels wide), then links, then nodes.
        const drawn =
          driver === 'quadkit'
            ? drawIndex(
                ctx,
                tree,
                { colors: [COLORS.cell], alpha: 0.35, lineWidth: 0.75 * px, minSize: 8 * px },
                view,
              )
            : 0;
        ctx.save();
        ctx.globalAlpha = 0.6;
        const lines = new Path2D();
        for (const link of links) {
          const s = link.source as Node;
          const t = link.target as Node;
          lines.moveTo(s.x! * scaleX + offsetX, s.y! * scaleY + offsetY);
          lines.lineTo(t.x! * scaleX + offsetX, t.y! * scaleY + offsetY);
        }
        ctx.strokeStyle = COLORS.link;
        ctx.lineWidth = px;
        ctx.stroke(lines);
        ctx.globalAlpha = 1;
        const r = 2 * px;
        const dots = new Path2D();
        for (const node of nodes) {
          const x = node.x! * scaleX + offsetX;
          const y = node.y! * scaleY + offsetY;
          dots.rect(x - r, y - r, 2 * r, 2 * r);
        }
        ctx.fillStyle = COLORS.node;
        ctx.fill(dots);
        ctx.restore();
        const q = mean(times.quadkit);
        const d = mean(times.d3);
        stats.set('driving', driver === 'quadkit' ? 'quadkit' : 'd3');
        stats.set('quadkit tick ms', formatMs(q));
        stats.set('d3 tick ms', formatMs(d));
        stats.set('d3 / quadkit', q > 0 ? `${(d / q).toFixed(1)}×` : '–');
        stats.set('cells drawn', drawn);
      },
      state() {
        // The nodes' positions, and quadkit's force on each (alpha 1, from rest) at them.
        const copy = nodes.map((n) => ({ x: n.x!, y: n.y!, vx: 0, vy: 0 }));
        const probe = forceManyBody();
        probe.initialize(copy, random(1));
        probe(1);
        return {
          n: nodes.length,
          driver,
          positions: copy.map((n) => [n.x, n.y]),
          forces: copy.map((n) => [n.vx, n.vy]),
          times: { quadkit: mean(times.quadkit), d3: mean(times.d3) },
          ran: { ...ran },
          ticks: tick,
          view: { ...view },
          canvas: { width, height },
        };
      },
    };
  },
};
