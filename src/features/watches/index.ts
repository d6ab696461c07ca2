import type { WebClient } from '@slack/web-api';
import type { Queue } from 'bullmq';
import type { DnsClient } from '../../dns/client.js';
import type { TrustAnchor } from '../../dns/validator.js';
import type { RdapClient } from '../../rdap/index.js';
import type { RegistrarClient } from '../../registrar/index.js';
import type { BaseDeps } from '../../shared/deps.js';
import type { Limiter } from '../../shared/limiter.js';
import type { Metrics } from '../../shared/metrics.js';
import { createWorker } from '../../shared/queues.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { SlackDirectory } from '../../slack/users.js';
import type { AuditLog } from '../audit/service.js';
import type { ProductsCa } from '../diagnostics/caa.js';
import type { FeatureModule } from '../feature.js';
import type { WorkspaceKeys } from '../keys/service.js';
import type { Roles } from '../policy/permissions.js';
import type { PolicyStore } from '../policy/policy.js';
import type { RenewalLedger } from '../tls/renewals.js';
import { registerWatchActions } from './actions.js';
import { domainWatchCommand, tlsWatchCommand, type WatchCommandDeps } from './commands.js';
import { WATCH_QUEUE, type WatchJob } from './jobs.js';
import { registerMarkKnown } from './mark-known.js';
import { AlertOutbox } from './outbox.js';
import { servedFollower } from './served-follow.js';
import type { WatchService } from './service.js';
import type { WatchServices } from './services.js';
import type { WatchStore } from './store.js';
import { watchProcessor } from './sweep.js';

export interface WatchesDeps extends BaseDeps {
  /** Looks and alerts counted for /metrics. */
  metrics: Pick<Metrics, 'watchLooks' | 'watchAlerts' | 'watchSweptAt'>;
  watches: WatchService;
  watchStore: WatchStore;
  watchQueue: Queue<WatchJob>;
  roles: Roles;
  /** Who may remove watches and change the digest settings (`watchManagers`, managers.ts). */
  policies: Pick<PolicyStore, 'get'>;
  /** Every watch added or removed and every settings change (docs/requirements.md R12). */
  audit: Pick<AuditLog, 'append'>;
  directory: SlackDirectory;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  workspaceKeys: Pick<WorkspaceKeys, 'keyHashFor'>;
  limiter: Limiter;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  poster: ChannelPoster;
  /** Certificate orders the tls feature placed (features/tls/renewals.ts). */
  renewals: Pick<RenewalLedger, 'ordersFor' | 'ordersUnder'>;
  /** A watched domain's live DNS check (dns-look.ts). */
  dnsClient: DnsClient;
  productsCa: ProductsCa;
  /** DNSSEC_TRUST_ANCHOR (dns/validator.ts). */
  trustAnchors: readonly TrustAnchor[];
  languages: Languages;
  /** Domains held at other registrars: their expiry through RDAP (src/rdap). */
  rdap: RdapClient;
  /** What certificates' names serve, Certificate Transparency, and what is known of both (served-look.ts, ct-look.ts). */
  servedProbe: WatchServices['servedProbe'];
  certSpotter: WatchServices['certSpotter'];
  identities: WatchServices['identities'];
  knownIssuances: WatchServices['knownIssuances'];
}

/** Checks at once per worker process; the registrar pace, not this, bounds the reads. */
const CONCURRENCY = 8;

/**
 * `/domain watch …` and `/tls watch …`: expiry and drift alerts, once per threshold, and a digest on a
 * schedule of the workspace's choosing (docs/requirements.md R37). The sweep and the looks are
 * BullMQ jobs, so they survive restarts and spread over any number of workers.
 */
export const watchesFeature = {
  name: 'watches',
  followers: [servedFollower],
  register: (app, deps) => {
    const commandDeps: WatchCommandDeps = {
      ...deps,
      service: deps.watches,
      store: deps.watchStore,
      keyHashFor: (workspace) => deps.workspaceKeys.keyHashFor(workspace),
    };
    deps.router.add('/domain', domainWatchCommand(commandDeps)).add('/tls', tlsWatchCommand(commandDeps));
    registerWatchActions(app, commandDeps, deps.logger);
    registerMarkKnown(
      app,
      { ...deps, store: deps.watchStore, changed: (workspace) => deps.watches.changed(workspace) },
      deps.logger,
    );
  },
  workers: (deps) => [
    ({ connection, keys, logger }) => {
      // Every worker upserts the sweep and the digests under their fixed ids: a restart or a second
      // worker replaces them, never adds another.
      deps.watches
        .restoreSchedules()
        .catch((error: unknown) =>
          logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'watch schedules not restored',
          ),
        );
      const processor = watchProcessor({
        ...deps,
        service: deps.watches,
        store: deps.watchStore,
        queue: deps.watchQueue,
        outbox: new AlertOutbox(deps.redis, deps.keys),
        keyHashFor: (workspace) => deps.workspaceKeys.keyHashFor(workspace),
        logger,
      });
      return createWorker(WATCH_QUEUE, processor, connection, keys, logger, { concurrency: CONCURRENCY });
    },
  ],
} satisfies FeatureModule<WatchesDeps>;
