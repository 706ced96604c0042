import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 60_000,
    // Files run in parallel on every core (Vitest's default leaves one idle).
    maxWorkers: '100%',
  },
});
