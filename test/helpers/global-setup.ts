import type { TestProject } from 'vitest/node';
import { ensureLocalRedis } from '../../src/shared/local-redis.js';
import './provided-context.js';

/**
 * Tests always run against real Redis (docs/architecture.md): the one in REDIS_URL, the one on 127.0.0.1:6379,
 * or a private redis-server started here and stopped after the run.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const redis = await ensureLocalRedis(process.env, (line) => console.log(`[test] ${line}`));
  project.provide('redisUrl', redis.url);
  return () => {
    redis.child?.kill('SIGTERM');
  };
}
