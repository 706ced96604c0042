// The demo page: `npm start` builds it into demo/dist and serves it; `npm run demo:dev` serves
// it with live reload. The library comes straight from ../src.

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { citiesPlugin } from './plugins/cities.js';
import { navmeshPlugin } from './plugins/navmesh.js';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [citiesPlugin(), navmeshPlugin()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true },
  server: { host: '127.0.0.1' },
});
