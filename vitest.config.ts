import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Integration tests talk to real Redis and real HTTP servers; 2-core CI machines need headroom.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most integration tests wait on timers, Redis and HTTP rather than the CPU, so three files run
    // side by side even on a 2-core machine (the whole suite then fits CI's time budget).
    maxWorkers: 3,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
