import type { Config } from '../config.js';
import { FEATURES } from '../features/index.js';
import type { PlaygroundSlack } from '../playground/index.js';
import type { SlackStandIn } from '../playground/slack-standin.js';
import type { Sandbox } from '../sandbox/index.js';
import type { Services } from '../services.js';
import type { Metrics } from '../shared/metrics.js';
import type { KeySpace, Redis } from '../shared/redis.js';
import { createSlackApp, type Feature, type SlackApp } from '../slack/app.js';
import {
  type HealthReport,
  type HttpFront,
  type MetricsAccess,
  startHttpFront,
} from '../slack/http-front.js';
import type { StartContext } from './context.js';
import { LateRoutes, startMcp } from './mcp.js';
import { loadPlayground } from './playground.js';

export interface WebDeps {
  config: Config;
  metrics: Metrics;
  requestRedis: Redis;
  keys: KeySpace;
  services: Services;
  /** Extra features (tests); the built-in ones are always registered. */
  features: Feature[];
  health: () => Promise<HealthReport>;
  playgroundSlack?: PlaygroundSlack | undefined;
  sandbox?: Sandbox | undefined;
}

export interface Web {
  http: HttpFront;
  /** METRICS_PORT's listener, when set. */
  metricsHttp?: HttpFront;
  slack?: SlackApp;
  playground?: { url: string; slack: SlackStandIn };
}

/** The `web` half: the Slack app and the HTTP front (with the playground's page in playground mode). */
export async function startWeb(ctx: StartContext, deps: WebDeps): Promise<Web> {
  const { logger, closers } = ctx;
  const { config, metrics, services, playgroundSlack } = deps;
  ctx.step('http');
  const slackApp =
    config.slack.mode === 'unconfigured'
      ? undefined
      : createSlackApp({
          slack: config.slack,
          logger,
          metrics,
          redis: deps.requestRedis,
          keys: deps.keys,
          vault: services.vault,
          shareable: services.shareable,
          languages: services.languages,
          clients: services.slackClients.webClients,
          features: [...featureRegistrations(services), ...deps.features],
        });
  let front: HttpFront | undefined;
  const playground =
    playgroundSlack === undefined
      ? undefined
      : (await loadPlayground()).createPlayground({
          playgroundSlack,
          regdeskUrl: () => front?.url ?? '',
          followQueue: services.followQueue,
          forgetLanguage: (workspace, user) => services.languages.forget(workspace, user),
          logger,
          ...(deps.sandbox === undefined ? {} : { sandbox: deps.sandbox }),
        });
  // The playground's page, then (once the front listens: the playground's agents need its port) /mcp.
  const routes = new LateRoutes();
  if (playground !== undefined) routes.add(playground.handle);
  const http = await startHttpFront({
    port: config.port,
    logger,
    metrics,
    health: deps.health,
    metricsAccess: slackPortMetrics(config),
    ...(slackApp?.receiver === undefined ? {} : { slack: slackApp.receiver.requestListener }),
    unconfiguredHint: 'Set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (see README).',
    routes: routes.handle,
  });
  closers.push('http', () => http.stop());
  const mcp =
    slackApp === undefined ? undefined : await startMcp(ctx, config, services, http.port, playgroundSlack);
  if (mcp !== undefined) routes.add(mcp.handle);
  let metricsHttp: HttpFront | undefined;
  if (config.metricsPort !== undefined) {
    const metricsFront = await startHttpFront({
      port: config.metricsPort,
      logger,
      metrics,
      health: deps.health,
      metricsAccess: { kind: 'open' },
      unconfiguredHint: 'This is METRICS_PORT: Slack requests go to PORT.',
    });
    closers.push('metrics-http', () => metricsFront.stop());
    metricsHttp = metricsFront;
    logger.info({ port: metricsFront.port }, 'metrics listening');
  }
  front = http;
  const web: Web = { http, ...(metricsHttp === undefined ? {} : { metricsHttp }) };
  if (playground !== undefined) {
    // Closed before the HTTP front: its event streams would otherwise hold the server open.
    closers.push('playground', async () => playground.close());
  }
  if (playground !== undefined && playgroundSlack !== undefined) {
    // With this process's token: start-up prints it, the page trades it for a cookie (R42).
    web.playground = { url: playground.pageUrl(http.port), slack: playgroundSlack.standIn };
  }
  if (slackApp !== undefined) {
    ctx.step('slack');
    await slackApp.start();
    closers.push('slack', () => slackApp.stop());
    web.slack = slackApp;
  }
  ctx.say(
    `Regdesk ${ctx.role} listening on http://0.0.0.0:${http.port} (Slack: ${playgroundSlack === undefined ? config.slack.mode : 'playground'}).`,
  );
  return web;
}

/** Every feature of the table of contents, handed the services (each sees only its own `Deps`). */
function featureRegistrations(services: Services): Feature[] {
  return FEATURES.map(
    (feature): Feature =>
      (app, slackDeps) => {
        if ('register' in feature) feature.register(app, { ...services, ...slackDeps });
      },
  );
}

/** `/metrics` on PORT, which faces Slack: with METRICS_TOKEN; else on METRICS_PORT; else loopback only. */
function slackPortMetrics(config: Config): MetricsAccess {
  if (config.metricsToken !== undefined) return { kind: 'token', token: config.metricsToken };
  if (config.metricsPort !== undefined) return { kind: 'elsewhere', port: config.metricsPort };
  return { kind: 'loopback' };
}
