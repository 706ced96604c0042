// The scene registry: the demo's tabs, in order (the first opens by default).
//
// To add a scene: write demo/src/scenes/<name>.ts exporting a `Scene` (see ../scene.ts: an id
// for the URL hash, a title, a blurb, a legend, and `mount`, which draws on the shared canvas
// and returns `frame` and `state`), then add it to this list. The shell builds the tab, the
// legend and the stats panel; the browser test (test/demo/demo.e2e.test.ts) opens every scene
// listed here at three widths and checks its canvas is drawn.

import type { Scene } from '../scene.js';
import { citiesScene } from './cities.js';
import { clustersScene } from './clusters.js';
import { coresScene } from './cores.js';
import { countriesScene } from './countries.js';
import { forceScene } from './force.js';
import { insertScene } from './insert.js';
import { movingScene } from './moving.js';
import { navmeshScene } from './navmesh.js';

/** Every scene of the demo, in tab order. */
export const scenes: readonly Scene[] = [
  insertScene,
  movingScene,
  citiesScene,
  navmeshScene,
  countriesScene,
  clustersScene,
  forceScene,
  coresScene,
];
