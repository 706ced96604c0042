// Workload: memory. Each index is built once in a fresh child process (its own heap: nothing
// left by other rows), over 1M boxes or points for the static indexes and 200k boxes or points
// for the dynamic ones, from the same seeded data as the other workloads. The child reports
// the process's resident set (RSS) and heap before and after the build: the peak RSS of the
// build (the process's maximum RSS, from getrusage, over the RSS before it) and what stays after
// a full collection, per item, in RSS and in heap plus array buffers.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FLATBUSH_OBJECTS_MEMORY } from '../names.js';

export const id = 'memory';

const CHILD = fileURLToPath(new URL('../memory-child.js', import.meta.url));

// [row name, quadkit?, builder id (see memory-child.js), kind of data]
const ROWS = [
  ['quadkit StaticQuadtree fromBoxes', true, 'static-boxes', 'static'],
  ['quadkit StaticQuadtree from(objects)', true, 'static-objects', 'static'],
  ['quadkit StaticQuadtree fromPoints', true, 'static-points', 'static'],
  ['flatbush', false, 'flatbush', 'static'],
  [FLATBUSH_OBJECTS_MEMORY, false, 'flatbush-objects', 'static'],
  ['kdbush (points)', false, 'kdbush', 'static'],
  ['rbush load', false, 'rbush', 'static'],
  ['quadkit Quadtree load', true, 'quadtree', 'dynamic'],
  ['quadkit GridLooseQuadtree load', true, 'grid', 'dynamic'],
  ['quadkit PointQuadtree load', true, 'points', 'dynamic'],
  ['rbush load (dynamic size)', false, 'rbush', 'dynamic'],
  ['d3-quadtree addAll (points)', false, 'd3', 'dynamic'],
];

export function run({ quick }) {
  const sizes = { static: quick ? 100_000 : 1_000_000, dynamic: quick ? 20_000 : 200_000 };
  const rows = [];
  const warnings = [];
  // The static rows' heap + buffers kept, in bytes.
  const exact = [];
  for (const [name, quadkit, builder, kind] of ROWS) {
    const n = sizes[kind];
    try {
      // The median of five fresh processes (RSS moves by several bytes per item from run to
      // run: allocator and collector timing).
      const runs = [0, 1, 2, 3, 4].map(() =>
        JSON.parse(
          execFileSync(process.execPath, ['--expose-gc', CHILD, builder, String(n)], {
            encoding: 'utf8',
          }),
        ),
      );
      const sorted = (key) => runs.map((r) => r[key]).sort((a, b) => a - b);
      const median = (key) => sorted(key)[2];
      // RSS moves from one process to the next (by up to 12 bytes per item for the same build,
      // byte for byte the same buffer): the lowest and highest of the five go beside the median.
      const spread = (key) => {
        const v = sorted(key);
        return { ms: v[2], tag: `${v[0]}–${v[4]}` };
      };
      if (kind === 'static') exact.push(`${name} ${median('heapBytes').toLocaleString('en-US')}`);
      rows.push({
        name,
        quadkit,
        values: {
          peak: spread('peakMB'),
          rss: spread('rssPerItem'),
          heap: median('heapPerItem'),
          ...(runs[0].bufferPerItem === null ? {} : { buffer: runs[0].bufferPerItem }),
        },
      });
    } catch (e) {
      warnings.push(`${name}: the child process failed (${String(e.message).split('\n')[0]})`);
    }
  }
  return {
    id,
    title: 'Memory: peak RSS of one build and bytes per item kept, each build in a fresh process',
    setup:
      `Static indexes over ${sizes.static.toLocaleString('en-US')} items, dynamic ones over ` +
      `${sizes.dynamic.toLocaleString('en-US')} (uniform boxes 0–2 units or points in a ` +
      '1000×1000 world, made before the build). Peak: the maximum RSS of the process during ' +
      'the build over its RSS just before (MB; on Linux the high-water mark is reset just ' +
      'before the build, elsewhere it is the maximum since the process started). RSS kept: ' +
      'after the build and a full collection, over what it was before, per item (bytes). ' +
      'Heap + buffers kept: what ' +
      'releasing the index frees (heap plus array buffers, after a full collection), per item ' +
      '(bytes). Each the median of five processes (for RSS, with the lowest and highest of the ' +
      'five in brackets), each after three builds of the same kind ' +
      "over a tenth of the items (so that optimized code, and the optimizing compiler's memory, " +
      "are not counted); what the build's input holds is not counted. " +
      "Buffer: the static index's own ArrayBuffer per item, exactly.",
    metrics: [
      { key: 'peak', label: 'build peak RSS (MB)', unit: 'count' },
      { key: 'rss', label: 'RSS kept (bytes/item)', unit: 'count' },
      { key: 'heap', label: 'heap + buffers kept (bytes/item)', unit: 'count' },
      { key: 'buffer', label: 'index buffer (bytes/item)', unit: 'count' },
    ],
    rows,
    warnings,
    inChildProcesses: true,
    notes: [
      `Heap + buffers kept by the static indexes, in bytes: ${exact.join('; ')}.`,
      'RSS counts pages the process touched, heap what V8 reports: a build that frees a large ' +
        'scratch array can keep more RSS than heap. RSS kept moves by up to 12 bytes per item ' +
        'from one process to the next for the same build (the same buffer, byte for byte), as ' +
        "the allocator and V8's background threads return freed pages to the system or not; the " +
        'peak moves by about 2 MB. The targets compare the exact figures (heap + buffers, buffer).',
      `"${FLATBUSH_OBJECTS_MEMORY}": flatbush built from the same objects as from(objects), ` +
        "and the array of the items that a caller keeps to turn flatbush's answers (indices) " +
        'back into objects, here a copy of it (8 bytes per item); from(objects) keeps its own ' +
        "copy, in curve order, and needs the caller's array no more. The heap + buffers target " +
        'compares from(objects) with this row and the typed-array builds with flatbush.',
    ],
  };
}
