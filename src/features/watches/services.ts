import type { Queue } from 'bullmq';
import { CertSpotter } from '../../ct/certspotter.js';
import type { AllowedRange } from '../../dns/addresses.js';
import { RdapClient } from '../../rdap/index.js';
import { ServedProbe } from '../../served/probe.js';
import type { BaseDeps } from '../../shared/deps.js';
import type { Limiter } from '../../shared/limiter.js';
import { createQueue } from '../../shared/queues.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { CertificateIdentities } from './identities.js';
import { WATCH_QUEUE, type WatchJob } from './jobs.js';
import { KnownIssuances } from './known-issuances.js';
import { WatchService } from './service.js';
import { WatchStore } from './store.js';

export interface WatchServiceFactoryDeps extends BaseDeps {
  /**
   * How often each watched item is read again, how many a workspace may watch, where certificates'
   * names are asked what they serve (TLS_CHECK_PORTS) and the CT search (absent: off).
   */
  watch: {
    intervalMs: number;
    limit: number;
    tlsCheckPorts: readonly number[];
    ct?: { url: string; token?: string } | undefined;
  };
  /** Told of every change to a workspace's watches (App Home re-publishes). */
  onChange: (workspace: WorkspaceRef) => void;
  /** RDAP_BOOTSTRAP_URL and LIVE_CHECK_ALLOW: domains held at other registrars (src/rdap). */
  rdap: { bootstrapUrl: string; allowed?: readonly AllowedRange[] | undefined };
  limiter: Limiter;
}

export interface WatchServices {
  watches: WatchService;
  watchStore: WatchStore;
  watchQueue: Queue<WatchJob>;
  /** The expiry of watched domains the registrar does not hold. */
  rdap: RdapClient;
  /** Which certificate a name serves (src/served): watches and the follower after an issuance. */
  servedProbe: ServedProbe;
  /** Certificate Transparency search for watched zones; undefined when off. */
  certSpotter: CertSpotter | undefined;
  /** The account's certificates' keys and serials, from the registrar's PEM (identities.ts). */
  identities: CertificateIdentities;
  /** Issuances marked as known (Mark as known). */
  knownIssuances: KnownIssuances;
}

export function buildWatchServices(deps: WatchServiceFactoryDeps): WatchServices {
  const watchQueue = createQueue<WatchJob>(WATCH_QUEUE, deps.redis, deps.keys, deps.logger);
  const watchStore = new WatchStore(deps.redis, deps.keys);
  const watches = new WatchService({
    store: watchStore,
    queue: watchQueue,
    intervalMs: deps.watch.intervalMs,
    limit: deps.watch.limit,
    now: deps.now,
    logger: deps.logger,
    onChange: deps.onChange,
  });
  const rdap = new RdapClient({
    ...deps,
    bootstrapUrl: deps.rdap.bootstrapUrl,
    ...(deps.rdap.allowed === undefined ? {} : { allowed: deps.rdap.allowed }),
  });
  const ct = deps.watch.ct;
  return {
    watches,
    watchStore,
    watchQueue,
    rdap,
    servedProbe: new ServedProbe({ ports: deps.watch.tlsCheckPorts }),
    certSpotter:
      ct === undefined ? undefined : new CertSpotter({ baseUrl: ct.url, token: ct.token, now: deps.now }),
    identities: new CertificateIdentities(deps.redis, deps.keys),
    knownIssuances: new KnownIssuances(deps.redis, deps.keys),
  };
}
