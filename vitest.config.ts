import { defineConfig } from 'vitest/config';

/**
 * Three projects, all run by `npm test`:
 * - `unit`: plain functions (`*.unit.test.ts`): no Redis, no browser, no other process; `npm run test:unit`.
 * - `app`: the whole app in-process over real HTTP against real Redis, the Slack fake and the sandbox.
 * - `e2e`: several processes, browsers and Redis topologies (`test/scale`, `test/cli`, `test/durability`,
 *   the playground in Chromium).
 */
const UNIT = 'test/**/*.unit.test.ts';
const E2E = [
  'test/scale/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/durability/**/*.test.ts',
  // A real Prometheus scraping a built `regdesk web` and `regdesk worker`.
  'test/deploy/prometheus.test.ts',
  'test/playground/browser*.test.ts',
  // Runs the built DNS client in a network namespace of its own.
  'test/dns/unreachable.test.ts',
  // Kills a built `regdesk start` between an acknowledgement and its question's record.
  'test/assistant/ack-crash.test.ts',
];

const shared = {
  pool: 'forks' as const,
  // Integration tests talk to real Redis and real HTTP servers; 2-core CI machines need headroom.
  testTimeout: 60_000,
  hookTimeout: 30_000,
};

export default defineConfig({
  test: {
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // Most integration tests wait on timers, Redis and HTTP rather than the CPU, so three files run
    // side by side even on a 2-core machine (the whole suite then fits CI's time budget).
    maxWorkers: 3,
    projects: [
      { test: { ...shared, name: 'unit', include: [UNIT] } },
      {
        test: {
          ...shared,
          name: 'app',
          include: ['test/**/*.test.ts'],
          exclude: [UNIT, ...E2E],
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
      {
        test: {
          ...shared,
          name: 'e2e',
          include: E2E,
          exclude: [UNIT],
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
    ],
  },
});
