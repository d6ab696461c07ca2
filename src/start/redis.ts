import type { Config } from '../config.js';
import { type ResolvedRedis, resolveRedis } from '../runtime/redis-connect.js';
import { checkPersistence } from '../runtime/redis-persistence.js';
import { checkRedisServer, createRedis, type Redis, waitForReady } from '../shared/redis.js';
import { localVaultKey } from '../vault/local-key.js';
import { quit, type StartContext } from './context.js';

export interface ConnectedRedis {
  local: ResolvedRedis;
  /** The connection of the request path (and /healthz). */
  requestRedis: Redis;
  /** The config, with the private Redis's sealing key when one was started for the sandbox. */
  config: Config;
}

/** Finds (or starts) Redis, connects the request path to it, and checks the server. */
export async function connectRedis(ctx: StartContext, config: Config): Promise<ConnectedRedis> {
  const { logger, closers } = ctx;
  ctx.step('redis');
  const local = await resolveRedis(
    config.redis,
    { mayStartPrivate: ctx.role === 'start', dataDir: config.dataDir },
    ctx.say,
  );
  if (local.stop !== undefined) closers.push('private-redis', local.stop);
  const requestRedis = createRedis(local.settings, 'request');
  requestRedis.on('error', (error) => logger.warn({ err: error.message }, 'redis (request) error'));
  closers.push('redis-request', () => quit(requestRedis));
  await waitForReady(requestRedis, 5_000);
  ctx.step('redis-check');
  const server = await checkRedisServer(requestRedis);
  logger.info({ redisVersion: server.version, redis: local.shown }, 'redis ready');
  for (const warning of await checkPersistence(requestRedis, config.redis.allowEphemeral)) {
    logger.warn({ redis: local.shown }, warning);
  }
  if (local.child !== undefined && config.vault.masterKey === undefined && config.registrar.sandbox) {
    // The private Redis keeps the sealed registrar keys; its sealing key stays beside it (R38).
    return {
      local,
      requestRedis,
      config: { ...config, vault: { ...config.vault, masterKey: localVaultKey(config.dataDir) } },
    };
  }
  return { local, requestRedis, config };
}
