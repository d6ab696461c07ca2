import type { RegistrarClient } from '../../registrar/index.js';
import { parseDomainName } from '../../shared/domain-names.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { RenewalLedger } from '../tls/renewals.js';
import { type PaceDeps, watchPace } from './pace.js';
import type { WatchService } from './service.js';
import type { WatchAll, WatchStore } from './store.js';

export interface DiscoverDeps extends PaceDeps {
  service: WatchService;
  store: WatchStore;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  renewals: Pick<RenewalLedger, 'ordersFor'>;
  now: () => number;
  logger: Logger;
}

/** How often a workspace that watches everything lists the registrar's zones and certificates again. */
export const DISCOVER_EVERY_MS = 60 * 60_000;
/** Certificates worth watching: the others are over (revoked, cancelled, expired). */
const LIVE = new Set(['pending', 'issued']);

export type DiscoverResult =
  | { kind: 'not-offered' }
  | { kind: 'over-limit'; limit: number }
  | {
      kind: 'done';
      domains: string[];
      certificates: string[];
      foreign: string[];
      certificatesListed: boolean;
    };

/**
 * `/domain watch all` (issue #31): every zone and every live certificate the registrar lists for the
 * workspace's key is watched, all at once within the workspace's limit (admins only: no per-person
 * cap), alerts going to `all.channel`. Certificates Regdesk did not order are remembered as such for
 * the digest. Reads go at the watch pace. A registrar without the zone list (beyond v1.6.2) says so.
 */
export async function discover(
  deps: DiscoverDeps,
  workspace: WorkspaceRef,
  all: WatchAll,
): Promise<DiscoverResult> {
  const paced = await watchPace(deps, workspace);
  const registrar = deps.registrarFor(workspace);
  const zones = await paced(() => registrar.dns.zones());
  if (zones === undefined) return { kind: 'not-offered' };
  const certificates = await paced(() => registrar.tls.list());
  const domains = [
    ...new Set(
      zones.flatMap((zone) => {
        const parsed = parseDomainName(zone.domain);
        return parsed.ok ? [parsed.ascii] : [];
      }),
    ),
  ];
  const live = (certificates ?? []).filter((certificate) => LIVE.has(certificate.status));
  const where = { channel: all.channel, user: all.by };
  const watchedDomains = await deps.service.add(workspace, 'domain', domains, where, {
    perPerson: undefined,
  });
  if (!watchedDomains.ok) return { kind: 'over-limit', limit: deps.service.limit };
  const watchedCertificates = await deps.service.add(
    workspace,
    'certificate',
    live.map((certificate) => certificate.id),
    where,
    { perPerson: undefined },
  );
  if (!watchedCertificates.ok) return { kind: 'over-limit', limit: deps.service.limit };
  const foreign: string[] = [];
  for (const certificate of live) {
    const orders = await deps.renewals.ordersFor(workspace, certificate.common_name);
    if (!orders.some((order) => order.id === certificate.id)) foreign.push(certificate.id);
  }
  await deps.store.markForeign(workspace, foreign);
  await deps.store.saveWatchAll(workspace, { ...all, listedAt: deps.now() });
  return {
    kind: 'done',
    domains: watchedDomains.added.map((item) => item.id),
    certificates: watchedCertificates.added.map((item) => item.id),
    foreign: foreign.filter((id) => watchedCertificates.added.some((item) => item.id === id)),
    certificatesListed: certificates !== undefined,
  };
}

/**
 * The sweep's part: each workspace that watches everything is listed again once DISCOVER_EVERY_MS
 * has passed, so new zones and certificates are picked up. A failure waits for the next sweep.
 */
export async function discoverDue(deps: DiscoverDeps): Promise<void> {
  for (const workspace of await deps.store.workspaces()) {
    const all = await deps.store.watchAll(workspace);
    if (all === undefined || deps.now() - all.listedAt < DISCOVER_EVERY_MS) continue;
    try {
      const result = await discover(deps, workspace, all);
      if (result.kind === 'done' && result.domains.length + result.certificates.length > 0)
        deps.logger.info(
          { domains: result.domains.length, certificates: result.certificates.length },
          'watch all picked up new items',
        );
    } catch (error) {
      deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'watch all listing failed',
      );
    }
  }
}
