import { defineConfig } from 'vitest/config';

// Test files that measure what the process allocates or keeps (garbage collections, the size of
// scratch arrays that live as long as the module): each runs in a fresh module graph and heap.
const ISOLATED = ['test/grid-loose-quadtree.frame.test.ts', 'test/queries.answer-size.test.ts'];
// End-to-end tests that build and drive the demo page or a browser, or pack and install the
// package: `npm run test:all` (what CI runs) adds them to `npm test`.
const END_TO_END = ['test/demo/**/*.test.ts', 'test/batch/browser.test.ts', 'test/package.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // Files run in parallel on every core (Vitest's default leaves one idle).
    maxWorkers: '100%',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          exclude: [...ISOLATED, ...END_TO_END],
          // These files share each worker's modules (src/, the data packages), loaded once:
          // they keep no state between files that an answer depends on.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      { extends: true, test: { name: 'end-to-end', include: END_TO_END } },
    ],
  },
});
