import { type Config, ConfigError } from '../config.js';
import { parseTrustAnchors, type TrustAnchor } from '../dns/validator.js';
import type { PlaygroundSlack } from '../playground/index.js';
import type { Sandbox } from '../sandbox/index.js';
import type { Redis } from '../shared/redis.js';
import type { StartContext } from './context.js';

/**
 * The playground replaces Slack for this process (docs/playground.md): Regdesk runs in HTTP mode
 * against the playground's Slack stand-in, unaware of it. Only `start` runs both halves in one process.
 * Returns the config to run with (data of its own, the stand-in's Slack settings).
 */
export async function startPlaygroundMode(
  ctx: StartContext,
  config: Config,
  requestRedis: Redis,
  sandbox: Pick<Sandbox, 'state'> | undefined,
): Promise<{ config: Config; playgroundSlack?: PlaygroundSlack }> {
  if (!config.playground || ctx.role !== 'start') return { config };
  const { logger } = ctx;
  ctx.step('playground');
  // First: a build without the playground (the production image) stops here, touching nothing.
  const { startPlaygroundSlack, startPlaygroundDns, completeDemoZones } = await loadPlayground();
  // docs/requirements.md R42: data and queues of its own, emptied now; its workers take only its jobs.
  const { isolatePlayground } = await import('../playground/isolation.js');
  const isolated = await isolatePlayground(config, requestRedis);
  const own = isolated.config;
  logger.info(
    { keyPrefix: own.redis.keyPrefix, removed: isolated.removed },
    'playground data emptied at start',
  );
  if (own.playground === 'no-slack') {
    // A start that lost its Slack secrets must not pass for the bot.
    logger.warn(
      { keyPrefix: own.redis.keyPrefix },
      'no Slack settings: serving the local playground with data of its own',
    );
    ctx.say(
      "No Slack settings (SLACK_SIGNING_SECRET, SLACK_BOT_TOKEN, …) are set: serving the local playground with data of its own; the bot's data is untouched.",
    );
  }
  const started = await startPlaygroundSlack();
  ctx.closers.push('playground-slack', () => started.stop());
  // The sandbox's zones exist only here: DNS checks ask the playground's DNS, unless DNS_RESOLVERS says otherwise.
  const dns =
    sandbox === undefined || own.dnsResolvers !== undefined
      ? undefined
      : await startPlaygroundDns(sandbox, logger);
  if (dns !== undefined && sandbox !== undefined) {
    ctx.closers.push('playground-dns', () => dns.close());
    completeDemoZones(sandbox.state);
  }
  return {
    config: {
      ...own,
      slack: started.slack,
      ...(dns === undefined
        ? {}
        : {
            dnsResolvers: dns.resolvers,
            dnsNameserverPort: dns.nameserverPort,
            liveCheckAllow: [...(own.liveCheckAllow ?? []), ...dns.allowed],
            // The playground's root signs its own zones: DNSSEC is validated from its anchor.
            dnssecTrustAnchors: playgroundAnchors(dns.trustAnchor),
          }),
    },
    playgroundSlack: started,
  };
}

/**
 * The playground ships with a checkout (`npm start`), not in the production image, which leaves it out
 * (Dockerfile): there a start without Slack settings stops with what to set, instead of serving a
 * playground nobody asked for.
 */
export async function loadPlayground(): Promise<typeof import('../playground/index.js')> {
  try {
    return await import('../playground/index.js');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new ConfigError([
      'REGDESK_PLAYGROUND: this build has no playground (the production image leaves it out). Set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (or the OAuth settings), or run `npm start` from a checkout to try the playground.',
    ]);
  }
}

function playgroundAnchors(trustAnchor: string): TrustAnchor[] {
  const parsed = parseTrustAnchors(trustAnchor);
  if ('problem' in parsed)
    throw new Error(`The playground's DNS made a trust anchor it cannot read: ${parsed.problem}`);
  return parsed.anchors;
}
