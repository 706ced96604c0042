// BatchPool in a browser: the same modules (src/ transpiled by test/transpile.ts) served to a
// headless Chromium, where the pool runs on module Web Workers. A cross-origin isolated page
// (COOP/COEP headers) answers batches like the single-thread methods; a page without those
// headers has no SharedArrayBuffer, and create() says what the page needs.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../demo/browser.js';
import { type TranspiledLibrary, transpileLibrary } from '../transpile.js';

const ISOLATED = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// The page's script (plain JavaScript, run as a module by the page): batches against the
// single-thread methods on seeded data; leaves its report in globalThis.report.
const PAGE_SCRIPT = `
import { StaticQuadtree } from './index.js';
import { BatchPool } from './batch/index.js';

async function check() {
  if (typeof SharedArrayBuffer === 'undefined') {
    try {
      await BatchPool.create(StaticQuadtree.fromPoints([1, 2, 3, 4]));
      return { error: 'created' };
    } catch (e) {
      return { error: e.name + ': ' + e.message };
    }
  }
  // Seeded boxes and queries (an LCG), on a 1/8 grid.
  let seed = 7;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const grid = (hi) => Math.floor(next() * 8 * hi) / 8;
  const boxes = new Float64Array(4 * 3000);
  for (let i = 0; i < 3000; i++) {
    const x = grid(300);
    const y = grid(300);
    boxes.set([x, y, x + grid(4), y + grid(4)], 4 * i);
  }
  const queries = new Float64Array(4 * 700);
  for (let i = 0; i < 700; i++) {
    const x = grid(310) - 5;
    const y = grid(310) - 5;
    queries.set([x, y, x + grid(30), y + grid(30)], 4 * i);
  }
  const points = queries.filter((_, j) => j % 4 < 2);
  const tree = StaticQuadtree.fromBoxes(boxes, { shared: true });
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const perQuery = (r) => Array.from({ length: r.length }, (_, i) => Array.from(r.indicesOf(i)));
  const shares = [];
  const pool = await BatchPool.create(tree, { workers: 2, chunkSize: 9 });
  const near = await pool.nearest(points, 10);
  shares.push([near.mainThreadQueries, ...near.workerQueries]);
  const nearestSame = same(
    perQuery(near),
    Array.from({ length: 700 }, (_, i) => tree.nearest(points[2 * i], points[2 * i + 1], 10)),
  );
  const found = await pool.search(queries);
  shares.push([found.mainThreadQueries, ...found.workerQueries]);
  const searchSame = same(
    perQuery(found),
    Array.from({ length: 700 }, (_, i) => {
      const [x0, y0, x1, y1] = queries.subarray(4 * i, 4 * i + 4);
      return tree.search({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
    }),
  );
  const pairs = await pool.pairs();
  const want = [];
  tree.pairs((a, b) => want.push(a, b));
  const pairsSame = same(Array.from(pairs.pairs), want) && want.length > 0;
  const workers = pool.workers;
  await pool.close();
  // Workers only: the page's own thread stays free.
  const free = await BatchPool.create(tree, { workers: 2, mainThread: false });
  const again = await free.nearest(points, 10);
  shares.push([again.mainThreadQueries, ...again.workerQueries]);
  await free.close();
  return {
    isolated: crossOriginIsolated,
    workers,
    nearestSame: nearestSame && same(perQuery(again), perQuery(near)),
    searchSame,
    pairsSame,
    shares,
    states: [pool.state, free.state],
  };
}

check().then(
  (report) => { globalThis.report = report; },
  (e) => { globalThis.report = { error: String(e && e.stack || e) }; },
);
`;

let lib: TranspiledLibrary | null = null;
let server: Server | undefined;
let browser: Browser | undefined;
let origin = '';

beforeAll(async () => {
  lib = transpileLibrary('quadkit-batch-browser-');
  const root = lib.dir;
  // /isolated/… and /plain/… serve the library and the page, with and without COOP/COEP.
  server = createServer((req, res) => {
    const [, mode, ...rest] = (req.url ?? '/').split('?')[0]!.split('/');
    const headers = mode === 'isolated' ? ISOLATED : {};
    const file = rest.join('/');
    if (file === '' || file === 'index.html') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>batch</title><script type="module" src="check.js"></script>');
      return;
    }
    if (file === 'check.js') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript' });
      res.end(PAGE_SCRIPT);
      return;
    }
    const path = normalize(join(root, file));
    if (!path.startsWith(root) || !existsSync(path)) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript' });
    res.end(readFileSync(path));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The Chromium the demo's test uses: QUADKIT_CHROMIUM, a system one, or the bundled one.
  ({ browser } = await launchChromium());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  lib?.remove();
});

interface PageReport {
  error?: string;
  isolated: boolean;
  workers: number;
  nearestSame: boolean;
  searchSame: boolean;
  pairsSame: boolean;
  shares: number[][];
  states: string[];
}

/** Opens the page and returns the report of its script, with any page errors. */
async function reportOf(
  mode: 'isolated' | 'plain',
): Promise<{ report: PageReport; errors: string[] }> {
  const page: Page = await browser!.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${origin}/${mode}/`);
    await page.waitForFunction('globalThis.report !== undefined', undefined, { timeout: 60_000 });
    const report = (await page.evaluate('globalThis.report')) as PageReport;
    return { report, errors };
  } finally {
    await page.close();
  }
}

describe('BatchPool in a browser (module Web Workers)', () => {
  it('a cross-origin isolated page answers batches like the single-thread methods', async () => {
    const { report, errors } = await reportOf('isolated');
    expect(report.error).toBeUndefined();
    expect(report.isolated).toBe(true);
    expect(report.workers).toBe(2);
    expect(report.nearestSame).toBe(true);
    expect(report.searchSame).toBe(true);
    expect(report.pairsSame).toBe(true);
    for (const share of report.shares) expect(share.reduce((a, b) => a + b, 0)).toBe(700);
    expect(report.shares[2]![0]).toBe(0); // mainThread: false
    expect(report.states).toEqual(['closed', 'closed']);
    expect(errors).toEqual([]);
  });

  it('a page that is not cross-origin isolated gets a TypeError saying what it needs', async () => {
    const { report } = await reportOf('plain');
    expect(report.error).toMatch(
      /^InvalidTypeError: quadkit: BatchPool needs SharedArrayBuffer.*Cross-Origin-Opener-Policy/,
    );
  });
});
