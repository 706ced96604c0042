// The markdown tables of `npm run bench`: one per workload, and the targets table.

import { TARGETS } from './targets.js';

// --- Tables ---

/**
 * A cell value is a number (ms), `{ ms, note }` (an estimate, shown with ≈ and the note),
 * `{ ms, tag }` (a measurement with an annotation), `{ na }` (not applicable, with the reason) or
 * `{ text }` (plain text, e.g. a check result).
 */
const msOf = (v) => (typeof v === 'number' ? v : v && typeof v.ms === 'number' ? v.ms : null);

function bestPeer(rows, key) {
  let best = null;
  for (const r of rows) {
    const ms = msOf(r.values[key]);
    if (r.quadkit || ms === null || r.noBest?.includes(key)) continue;
    if (!best || ms < best.ms) best = { ms, name: r.name };
  }
  return best;
}

function fmtMs(ms) {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

function fmtNs(ns) {
  return ns >= 1e6
    ? `${(ns / 1e6).toFixed(2)} ms`
    : ns >= 1e3
      ? `${(ns / 1e3).toFixed(1)} µs`
      : `${ns.toFixed(0)} ns`;
}

function cell(v, metric) {
  if (v === undefined || v === null) return '—';
  if (v.na) return v.na;
  if (v.text) return v.text; // plain text (a check result)
  const ms = msOf(v);
  const unit = metric.unit ?? 'ms';
  let s =
    unit === 'ms'
      ? fmtMs(ms)
      : Number.isInteger(ms) && metric.digits === undefined
        ? String(ms)
        : ms.toFixed(metric.digits ?? 1);
  if (metric.ops && unit === 'ms') s += ` (${fmtNs((ms * 1e6) / metric.ops)}/op)`;
  if (v.note) s = `≈ ${s} *(${v.note})*`; // an estimate
  if (v.tag) s = `${s} *(${v.tag})*`; // a plain annotation
  return s;
}

function ratioCell(row, metric, best) {
  const ms = msOf(row.values[metric.key]);
  if (ms === null || !best) return '';
  const r = ms / best.ms;
  if (!row.quadkit) return r === 1 ? '1.00 (best peer)' : r.toFixed(2);
  const speedup = best.ms / ms;
  return speedup >= 1
    ? `${r.toFixed(2)} (**${speedup.toFixed(1)}× faster**)`
    : `${r.toFixed(2)} (${(1 / speedup).toFixed(1)}× slower)`;
}

// --- Cold and warm tables (bench/workloads/cold.js) ---

/** Quadkit's speed-up over the peer in one column of a cold row (peer ms / quadkit ms), or null. */
export function coldSpeedup(row, col) {
  const q = row.values[`qk${col}`];
  const p = row.values[`peer${col}`];
  return typeof q === 'number' && typeof p === 'number' && q > 0 ? p / q : null;
}

/** The verdict of a cold row's goal in one column: '✅', '❌', or '—' when not measured. */
export function coldVerdict(row, col) {
  const x = coldSpeedup(row, col);
  if (x === null) return '—';
  return x >= row.goal.factor ? '✅' : '❌';
}

/** A cold row's goal cell: `≥ 1.2×: cold ✅, warm ❌`. */
export function coldGoalCell(row) {
  return `≥ ${row.goal.factor}×: cold ${coldVerdict(row, 'Cold')}, warm ${coldVerdict(row, 'Warm')}`;
}

/** The peer cell of a cold row: the fastest peer, or the cold and warm ones when they differ. */
export function coldPeerCell(row) {
  const { cold, warm } = row.peer;
  if (cold === null && warm === null) return row.candidates.join(' / ');
  return cold === warm || warm === null ? cold : `${cold} (cold), ${warm} (warm)`;
}

const speedupCell = (x) => (x === null ? '—' : `${x.toFixed(2)}×`);

function renderCold(w) {
  const head = [
    'Door',
    'Fastest peer',
    'quadkit cold (ms)',
    'peer cold (ms)',
    'cold speed-up',
    'quadkit warm (ms)',
    'peer warm (ms)',
    'warm speed-up',
    'Goal',
  ];
  const ms = (v) => (typeof v === 'number' ? fmtMs(v) : '—');
  const lines = [
    `## ${w.title}`,
    '',
    w.setup,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i < 2 ? ' --- ' : i === 8 ? ' --- ' : ' ---: ')).join('|')}|`,
  ];
  for (const row of w.rows) {
    const v = row.values;
    const cells = [
      row.name,
      coldPeerCell(row),
      ms(v.qkCold),
      ms(v.peerCold),
      speedupCell(coldSpeedup(row, 'Cold')),
      ms(v.qkWarm),
      ms(v.peerWarm),
      speedupCell(coldSpeedup(row, 'Warm')),
      coldGoalCell(row),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  for (const warning of w.warnings ?? []) lines.push(`| ⚠️ **WARNING**: ${warning} |`);
  lines.push('');
  for (const note of w.notes ?? []) lines.push(`- ${note}`);
  if (w.notes?.length) lines.push('');
  return lines.join('\n');
}

export function renderWorkload(w) {
  if (w.layout === 'cold') return renderCold(w);
  const head = ['Library'];
  for (const m of w.metrics) {
    head.push(m.label + (m.unit && m.unit !== 'ms' ? '' : ' (ms)'));
    if (m.compare) head.push('vs fastest peer');
  }
  const bests = Object.fromEntries(w.metrics.map((m) => [m.key, bestPeer(w.rows, m.key)]));
  const lines = [
    `## ${w.title}`,
    '',
    w.setup,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
  ];
  for (const row of w.rows) {
    const cells = [row.quadkit ? `**${row.name}**` : row.name];
    for (const m of w.metrics) {
      cells.push(cell(row.values[m.key], m));
      if (m.compare) cells.push(ratioCell(row, m, bests[m.key]));
    }
    lines.push(`| ${cells.join(' | ')} |`);
  }
  for (const warning of w.warnings ?? []) lines.push(`| ⚠️ **WARNING**: ${warning} |`);
  lines.push('');
  const best = w.metrics
    .filter((m) => m.compare && bests[m.key])
    .map((m) => `${m.label}: ${bests[m.key].name}`);
  if (best.length) lines.push(`Fastest peer per column: ${best.join('; ')}.`, '');
  for (const note of w.notes ?? []) lines.push(`- ${note}`);
  if (w.notes?.length) lines.push('');
  return lines.join('\n');
}

/** How close to its target a verdict may be and still move across it in the next run. */
const MARGIN = 0.03;

// A note for a measured value within MARGIN of its target (ratio: measured / target), whose
// verdict the run-to-run spread of this machine can turn either way.
function margin(ratio) {
  return Math.abs(ratio - 1) < MARGIN
    ? ` (within ${MARGIN * 100}% of the target: may read the other way in the next run)`
    : '';
}

// The targets table's lines of the cold and warm tables: one per row, judged cold and warm.
function coldTargetLines(results) {
  const lines = [];
  for (const w of results) {
    if (w.layout !== 'cold') continue;
    const table = w.title.replace(/^Cold and warm: /, '');
    for (const row of w.rows) {
      const cold = coldSpeedup(row, 'Cold');
      const warm = coldSpeedup(row, 'Warm');
      if (cold === null || warm === null) {
        lines.push(
          `| cold and warm, ${table}: ${row.name}: ${row.goal.text} | — | — | not measured |`,
        );
        continue;
      }
      const met = cold >= row.goal.factor && warm >= row.goal.factor;
      const status = met
        ? '✅ met'
        : `❌ not met (${[cold < row.goal.factor ? 'cold' : '', warm < row.goal.factor ? 'warm' : ''].filter(Boolean).join(', ')})`;
      lines.push(
        `| cold and warm, ${table}: ${row.name}: ${row.goal.text} | quadkit | cold ${cold.toFixed(2)}×, warm ${warm.toFixed(2)}× vs ${coldPeerCell(row)} | ${status}${margin(Math.min(cold, warm) / row.goal.factor)} |`,
      );
    }
  }
  return lines;
}

export function renderTargets(results) {
  const lines = [];
  for (const t of TARGETS) {
    const w = results.find((r) => r.id === t.workload && (t.n === undefined || r.n === t.n));
    if (!w) {
      const others = results.filter((r) => r.id === t.workload).map((r) => r.n);
      if (others.length) {
        lines.push(`| ${t.text} | — | — | not measured (this run: N = ${others.join(', ')}) |`);
      }
      continue;
    }
    if (t.worst) {
      const r = w.worst?.[t.worst];
      if (r === undefined) lines.push(`| ${t.text} | — | — | not measured |`);
      else {
        const status = r < 1 ? '✅ met' : '❌ not met';
        lines.push(`| ${t.text} | GridLooseQuadtree | worst ${r.toFixed(2)} | ${status} |`);
      }
      continue;
    }
    const qk = w.rows.filter(
      (r) =>
        r.quadkit &&
        msOf(r.values[t.metric]) !== null &&
        (!t.variant || (t.exact ? r.name === t.variant : r.name.includes(t.variant))) &&
        (!t.without || !r.name.includes(t.without)),
    );
    if (t.maxRatio !== undefined) {
      if (!qk.length) lines.push(`| ${t.text} | — | — | not measured |`);
      for (const r of qk) {
        const v = msOf(r.values[t.metric]);
        const status = (v <= t.maxRatio ? '✅ met' : '❌ not met') + margin(v / t.maxRatio);
        lines.push(`| ${t.text} | ${r.name} | ${v.toFixed(2)}× | ${status} |`);
      }
      continue;
    }
    if (t.zero) {
      if (!qk.length) lines.push(`| ${t.text} | — | — | not measured |`);
      for (const r of qk) {
        const v = msOf(r.values[t.metric]);
        const frames = r.frames ? ` in ${r.frames} frames` : '';
        const alloc = t.maxAllocKB === undefined ? null : msOf(r.values.alloc);
        const allocText = alloc === null ? '' : `, ${alloc} KB/frame allocated`;
        const status =
          v !== 0
            ? '❌ not met'
            : alloc !== null && alloc > t.maxAllocKB
              ? `⚠️ no GC in these frames, but the loop allocates (> ${t.maxAllocKB} KB/frame): it will collect in a longer run`
              : '✅ met';
        lines.push(`| ${t.text} | ${r.name} | ${v} GC${frames}${allocText} | ${status} |`);
      }
      continue;
    }
    const peer =
      t.peer === 'fastest peer'
        ? bestPeer(w.rows, t.metric)
        : w.rows
            .filter((r) => r.name === t.peer)
            .map((r) => ({ ms: msOf(r.values[t.metric]), name: r.name }))[0];
    if (!qk.length || !peer?.ms) {
      lines.push(`| ${t.text} | — | — | not measured |`);
      continue;
    }
    for (const r of qk) {
      const speedup = peer.ms / msOf(r.values[t.metric]);
      const ok = speedup >= t.factor;
      const status = (ok ? '✅ met' : '❌ not met') + (t.steady ? '' : margin(speedup / t.factor));
      // A target of the form "within x× of" (factor < 1) reads as a ratio of times.
      const measured =
        t.factor < 1
          ? `${(1 / speedup).toFixed(2)}× the time of ${peer.name}`
          : `${speedup.toFixed(2)}× vs ${peer.name}`;
      lines.push(`| ${t.text} | ${r.name} | ${measured} | ${status} |`);
    }
  }
  lines.push(...coldTargetLines(results));
  if (!lines.length) return '';
  return [
    '## Speed-up targets',
    '',
    '| Target | quadkit variant | Measured | Status |',
    '| --- | --- | ---: | --- |',
    ...lines,
    '',
  ].join('\n');
}
