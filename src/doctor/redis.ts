import type { Config } from '../config.js';
import { runningPrivateRedisUrl } from '../runtime/local-redis.js';
import { describeRedis, redactUrl } from '../runtime/redis-connect.js';
import { checkPersistence, PersistenceRefusedError } from '../runtime/redis-persistence.js';
import {
  checkRedisServer,
  createRedis,
  mastersOf,
  type Redis,
  type RedisSettings,
  waitForReady,
} from '../shared/redis.js';
import { type DoctorWords, type Finding, fix, note, ok, reasonOf } from './report.js';

/** The Redis doctor looks at, and how it is shown; undefined when none is configured or running. */
function redisToCheck(config: Config): { settings: RedisSettings; shown: string } | undefined {
  if (config.redis.connection !== undefined)
    return { settings: config.redis.connection, shown: describeRedis(config.redis.connection) };
  const running = runningPrivateRedisUrl(config.dataDir);
  if (running === undefined) return undefined;
  return { settings: { target: { mode: 'single', url: running } }, shown: redactUrl(running) };
}

/**
 * Redis: reachable, new enough and never evicting (R21, as `regdesk start` checks), and persistent
 * (R38). With nothing configured and no `regdesk start` running, there is nothing to reach: start
 * brings its own. Returns the connection for the checks that read what Regdesk stores.
 */
export async function checkRedis(
  config: Config,
  words: DoctorWords,
): Promise<{ findings: Finding[]; redis?: Redis }> {
  const subject = words.subjectRedis;
  const target = redisToCheck(config);
  if (target === undefined) return { findings: [ok(subject, words.redisOwn)] };
  const redis = createRedis(target.settings, 'request', 'regdesk-doctor');
  // The connection's own error (refused, a wrong password) says more than "not ready in time".
  let lastError: unknown;
  redis.on('error', (error) => {
    lastError = error;
  });
  try {
    await waitForReady(redis, 5_000);
  } catch (error) {
    redis.disconnect();
    const reason = reasonOf(lastError ?? error);
    return { findings: [fix(subject, words.redisUnreachable({ where: target.shown, reason }))] };
  }
  try {
    const server = await checkRedisServer(redis);
    const warnings = await checkPersistence(redis, config.redis.allowEphemeral);
    const aof = await appendOnly(redis);
    const findings = [
      ok(
        subject,
        words.redisHealthy({
          version: server.version,
          where: target.shown,
          persistence: aof ? words.redisAppendOnly : words.redisSnapshots,
        }),
      ),
      ...warnings.map((warning) =>
        warning.startsWith('REDIS_ALLOW_EPHEMERAL=1')
          ? note(subject, words.redisEphemeralAllowed)
          : note(subject, words.redisPersistenceNote({ warning })),
      ),
    ];
    return { findings, redis };
  } catch (error) {
    // A refusal of start-up (too old, evicting, persisting nothing) is a thing to fix, said as start says it.
    const said = error instanceof PersistenceRefusedError ? error.message : reasonOf(error);
    return { findings: [fix(subject, words.redisRefused({ reason: said }))], redis };
  }
}

/** Whether every master keeps an append-only file (INFO persistence). */
async function appendOnly(redis: Redis): Promise<boolean> {
  const infos = await Promise.all(mastersOf(redis).map((node) => node.info('persistence')));
  return infos.every((info) => /^aof_enabled:1/m.test(info));
}
