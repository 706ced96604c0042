// The demo page: `npm start` builds it into demo/dist and serves it; `npm run demo:dev` serves
// it with live reload. The library comes straight from ../src. Both send the cross-origin
// isolation headers, so that the page has SharedArrayBuffer (the batch scene's workers share
// the tree's buffer); the batch worker is bundled as an ES module.

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { citiesPlugin } from './plugins/cities.js';
import { excerptsPlugin } from './plugins/excerpts.js';
import { navmeshPlugin } from './plugins/navmesh.js';

// Cross-origin isolation (COOP + COEP): SharedArrayBuffer in the page and its workers.
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [citiesPlugin(), navmeshPlugin(), excerptsPlugin()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  worker: { format: 'es' },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true, headers: ISOLATION },
  server: { host: '127.0.0.1', headers: ISOLATION },
});
