import type { TestProject } from 'vitest/node';
import { ensureChromium } from './browser.js';
import { ensureDnsServers } from './dns-lab/index.js';
import { ensurePromtool } from './promtool.js';
import './provided-context.js';
import { testSuiteRedis } from './test-redis.js';

/**
 * Tests always run against real Redis (docs/architecture.md): the one in REDIS_URL, the one on 127.0.0.1:6379,
 * or a throwaway redis-server started here and stopped after the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const say = (line: string) => console.log(`[test] ${line}`);
  const redis = await testSuiteRedis(process.env, say);
  // Installing Debian's chromium takes minutes on a fresh machine: here, before any test's hook timeout
  // runs. Where it cannot be installed, the browser tests themselves say how to get it.
  try {
    ensureChromium(say);
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
  }
  // Likewise Debian's knot and unbound for the DNS lab (test/helpers/dns-lab/); where they cannot be
  // installed, starting a lab says how to get them.
  try {
    ensureDnsServers(say);
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
  }
  // And promtool (Debian's prometheus package) for the alert rules and metrics checks.
  try {
    ensurePromtool(say);
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
  }
  project.provide('redisUrl', redis.url);
  return () => redis.stop();
}
