// Draws bench/results/chart.svg from bench/results/latest.json: for each compared metric of each
// workload, how many times faster the best quadkit row is than the fastest peer (a log scale;
// bars left of 1× are slower). Run by `npm run bench` after a full run, or on its own:
// `node bench/chart.js`.

import { readFileSync, writeFileSync } from 'node:fs';

const here = new URL('./results/', import.meta.url);

// A metric value in ms, or null (n/a, or not measured).
function ms(v) {
  if (typeof v === 'number') return v;
  if (v && typeof v.ms === 'number') return v.ms;
  return null;
}

/** The chart's bars: [label, speed-up of the best quadkit row over the fastest peer]. */
export function bars(results) {
  const out = [];
  for (const w of results) {
    for (const m of w.metrics) {
      if (!m.compare) continue;
      const best = (rows) =>
        rows
          .map((r) => ms(r.values[m.key]))
          .filter((v) => v !== null && v > 0)
          .sort((a, b) => a - b)[0];
      const q = best(w.rows.filter((r) => r.quadkit));
      const p = best(
        w.rows.filter((r) => !r.quadkit && !/^baseline/.test(r.name) && !r.noBest?.includes(m.key)),
      );
      if (q === undefined || p === undefined) continue;
      out.push([`${w.title.replace(/:.*$/, '')} — ${m.label}`, p / q]);
    }
  }
  return out;
}

function xmlEscape(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The SVG of the bars. */
export function svg(list, subtitle) {
  const rowH = 22;
  const left = 430;
  const width = 900;
  const top = 48;
  const height = top + rowH * list.length + 30;
  const lo = Math.log10(0.25);
  const hi = Math.log10(Math.max(16, ...list.map(([, x]) => x * 1.2)));
  const xOf = (v) => left + ((Math.log10(v) - lo) / (hi - lo)) * (width - left - 20);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="20" font-size="15" font-weight="bold">quadkit: times faster than the fastest peer (log scale)</text>`,
    `<text x="10" y="38" fill="#555">${xmlEscape(subtitle)}</text>`,
  ];
  for (const v of [0.25, 0.5, 1, 2, 5, 10, 20, 50, 100]) {
    if (Math.log10(v) > hi) break;
    const x = xOf(v).toFixed(1);
    parts.push(
      `<line x1="${x}" y1="${top - 4}" x2="${x}" y2="${height - 26}" stroke="${v === 1 ? '#333' : '#ddd'}"/>`,
    );
    parts.push(`<text x="${x}" y="${height - 10}" text-anchor="middle" fill="#555">${v}×</text>`);
  }
  list.forEach(([label, v], i) => {
    const y = top + i * rowH;
    const x0 = xOf(1);
    const x1 = xOf(Math.max(v, 0.26));
    const color = v >= 1 ? '#2f7ed8' : '#d8572f';
    parts.push(`<text x="${left - 8}" y="${y + 14}" text-anchor="end">${xmlEscape(label)}</text>`);
    parts.push(
      `<rect x="${Math.min(x0, x1).toFixed(1)}" y="${y + 3}" width="${Math.abs(x1 - x0).toFixed(1)}" height="${rowH - 8}" fill="${color}"/>`,
    );
    parts.push(
      `<text x="${(Math.max(x0, x1) + 4).toFixed(1)}" y="${y + 14}">${v.toFixed(1)}×</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const latest = JSON.parse(readFileSync(new URL('latest.json', here), 'utf8'));
  const env = latest.environment ?? {};
  const subtitle = [env.cpu, env.node && `Node ${env.node}`].filter(Boolean).join(', ');
  writeFileSync(new URL('chart.svg', here), svg(bars(latest.results), subtitle));
  console.log('wrote bench/results/chart.svg');
}
