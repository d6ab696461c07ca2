import type { WebClient } from '@slack/web-api';
import type { Config } from '../config.js';
import { Limiter } from '../shared/limiter.js';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import type { KeySpace, Redis } from '../shared/redis.js';
import type { WorkspaceRef } from '../shared/workspace.js';
import type { Vault } from '../vault/store.js';
import { webClientOptions } from './app.js';
import { SlackClients } from './clients.js';
import { ChannelPoster } from './poster.js';
import { ShareableCards } from './share.js';
import { SlackDirectory } from './users.js';
import { WebClients } from './web-clients.js';

export interface SlackServiceDeps {
  slack: Config['slack'];
  redis: Redis;
  keys: KeySpace;
  logger: Logger;
  metrics: Pick<Metrics, 'slackCalls'>;
  vault: Vault;
}

export interface SlackServices {
  limiter: Limiter;
  poster: ChannelPoster;
  shareable: ShareableCards;
  slackClients: SlackClients;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  /** Slack users and user groups, cached 60 s across processes. */
  directory: SlackDirectory;
}

/** What every feature uses to talk to Slack: per-workspace clients, paced posting, the directory. */
export function buildSlackServices(deps: SlackServiceDeps): SlackServices {
  const { redis, keys, logger } = deps;
  const limiter = new Limiter(redis);
  // One bounded set of Web API clients per process: workers' and Slack requests' alike.
  const webClients = new WebClients(webClientOptions(deps.slack.apiUrl, logger, deps.metrics));
  const slackClients = new SlackClients(deps.slack, webClients, deps.vault, { redis, keys });
  return {
    limiter,
    poster: new ChannelPoster(limiter, keys, redis, logger),
    shareable: new ShareableCards(redis, keys),
    slackClients,
    slackFor: (workspace) => slackClients.forWorkspace(workspace),
    directory: new SlackDirectory(redis, keys),
  };
}
