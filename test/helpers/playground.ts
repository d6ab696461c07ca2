import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { memoryLogger } from './app-harness.js';
import { testRedisUrl } from './provided-context.js';

/** `regdesk start` with no Slack settings, as `npm start` runs it: the playground on, a prefix of its own. */
export function startPlaygroundProcess(): Promise<Running> {
  const env = {
    PORT: '0',
    REDIS_URL: testRedisUrl(),
    REDIS_ALLOW_EPHEMERAL: '1',
    REDIS_KEY_PREFIX: `t${randomBytes(5).toString('hex')}`,
  };
  return runRegdesk({
    role: 'start',
    config: loadConfig(env),
    logger: memoryLogger('warn').logger,
    env,
    say: () => undefined,
  });
}
