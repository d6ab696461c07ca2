import type { DnsClient } from '../../dns/client.js';
import type { RegistrarClient, TlsCertificate } from '../../registrar/index.js';
import type { LeafIdentity } from '../../served/leaf.js';
import type { ServedProbe } from '../../served/probe.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import type { Paced } from '../diagnostics/service.js';
import type { Alert } from './alert.js';
import type { CertificateIdentities } from './identities.js';
import { MAX_STALE_NAMES, MAX_UNCHECKED_LINES, type ServedSeen } from './seen.js';
import { judgeServed, servedByName, uncheckedReason, uncheckedWhere, whereOf } from './served-judge.js';
import type { RenewalSeen, WatchItem, WatchState } from './store.js';

export interface ServedLookDeps {
  servedProbe: ServedProbe;
  dnsClient: DnsClient;
  identities: Pick<CertificateIdentities, 'of' | 'last'>;
  now: () => number;
}

export interface LookSource {
  registrar: RegistrarClient;
  workspace: WorkspaceRef;
  paced: Paced;
}

/** Looks in a row in which no name could be asked before it is said (as FAILURES_BEFORE_REPORT). */
const BLIND_LOOKS_BEFORE_REPORT = 3;

/** The registrar's PEM of a certificate, through the look's paced read. */
export const pemReader = (source: LookSource, id: string) => () =>
  source
    .paced(() => source.registrar.tls.download(id, 'pem'))
    .then((file) => (file.format === 'pem' ? file.text : ''));

/**
 * The served half of a certificate's look: each of its names is asked which certificate it serves
 * (src/served/probe.ts), and a name still serving an older certificate a day after a newer was issued,
 * or one that ends sooner, is alerted once per name, address, port and expected certificate. Without
 * the registrar's copy of the certificate nothing is asked: there would be nothing to compare with.
 */
export async function servedLook(
  deps: ServedLookDeps,
  source: LookSource,
  item: WatchItem,
  previous: WatchState,
  cert: TlsCertificate,
  renewal: RenewalSeen | undefined,
): Promise<{ served: ServedSeen | undefined; alerts: Alert[] }> {
  if (cert.status !== 'issued') return { served: previous.served, alerts: [] };
  const now = deps.now();
  const watched = await deps.identities.of(source.workspace, cert, pemReader(source, cert.id), now);
  const newest =
    renewal?.status === 'issued' ? await renewalIdentity(deps, source, renewal.id, now) : watched;
  // Nothing to compare with: said in the state, not alerted (a real registrar's copy always reads;
  // the sandbox's placeholder never does, and asking real servers about it would only mislead).
  if (watched === null || watched === undefined || newest === null || newest === undefined)
    return {
      served: {
        checkedAt: now,
        current: 0,
        stale: 0,
        unchecked: [text.served.reasonUnreadable],
        blindLooks: previous.served?.blindLooks ?? 0,
      },
      alerts: [],
    };
  const checks = await deps.servedProbe.look(deps.dnsClient, [cert.common_name, ...cert.dns_names]);
  const verdicts = judgeServed(checks, watched, newest, now);
  const unchecked = verdicts.unchecked.map(
    (check) => `${check.name}${uncheckedWhere(check)}: ${uncheckedReason(check)}`,
  );
  if (verdicts.current.length === 0 && verdicts.stale.length === 0)
    return blind(previous, now, unchecked, item, cert);
  const id = codeSpan(renewal?.status === 'issued' ? renewal.id : cert.id);
  const alerts = verdicts.stale.map(({ check, why }): Alert => {
    const name = `*${escapeMrkdwn(check.name)}*`;
    const where = codeSpan(whereOf(check.address, check.port));
    return {
      mark: `certificate:${item.id}:served:${check.name}|${check.address}|${check.port}:${newest.serial}`,
      level: 'warn',
      text:
        why === 'older'
          ? text.served.staleOlder({
              name,
              where,
              serial: codeSpan(check.leaf.serial),
              id,
              issued: slackDate(newest.notBefore, '{date_long}'),
            })
          : text.served.staleSooner({
              name,
              where,
              ends: slackDate(check.leaf.notAfter, '{date_long}'),
              id: codeSpan(cert.id),
              expected: slackDate(watched.notAfter, '{date_long}'),
            }),
      buttons: ['show'],
      cause: { kind: 'served-stale', why },
      line: text.served.staleLine({ name, where, id }),
    };
  });
  const names = servedByName(verdicts);
  return {
    served: {
      checkedAt: now,
      current: verdicts.current.length,
      stale: verdicts.stale.length,
      unchecked: unchecked.slice(0, MAX_UNCHECKED_LINES),
      blindLooks: 0,
      names: { ...names, stale: names.stale.slice(0, MAX_STALE_NAMES), staleCount: names.stale.length },
    },
    alerts,
  };
}

async function renewalIdentity(
  deps: ServedLookDeps,
  source: LookSource,
  id: string,
  now: number,
): Promise<LeafIdentity | null | undefined> {
  const renewal = await source.paced(() => source.registrar.tls.get(id));
  return deps.identities.of(source.workspace, renewal, pemReader(source, id), now);
}

/**
 * A look in which no name answered: "could not check", never "fine". Said once per streak, after
 * BLIND_LOOKS_BEFORE_REPORT looks in a row.
 */
function blind(
  previous: WatchState,
  now: number,
  reasons: string[],
  item: WatchItem,
  cert: TlsCertificate,
): { served: ServedSeen; alerts: Alert[] } {
  const blindLooks = (previous.served?.blindLooks ?? 0) + 1;
  const blindSince = previous.served?.blindSince ?? now;
  const name = `*${escapeMrkdwn(cert.common_name)}* (${codeSpan(cert.id)})`;
  const alerts: Alert[] =
    blindLooks < BLIND_LOOKS_BEFORE_REPORT
      ? []
      : [
          {
            mark: `certificate:${item.id}:served-blind:${blindSince}`,
            level: 'warn',
            text: text.served.servedUnchecked({
              name,
              times: blindLooks,
              reasons: escapeMrkdwn(
                [...new Set(reasons)].slice(0, 3).join('; ') || text.served.reasonNoAddress,
              ),
            }),
            buttons: ['show'],
            cause: { kind: 'served-unchecked' },
            line: name,
          },
        ];
  return {
    served: {
      checkedAt: now,
      current: 0,
      stale: 0,
      unchecked: reasons.slice(0, MAX_UNCHECKED_LINES),
      blindLooks,
      blindSince,
    },
    alerts,
  };
}
