import type { CertSpotter, CtSearch, Issuance } from '../../ct/certspotter.js';
import type { TlsCertificate } from '../../registrar/index.js';
import type { LeafIdentity } from '../../served/leaf.js';
import { slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { markup, text } from '../../text/index.js';
import type { Alert } from './alert.js';
import type { CertificateIdentities } from './identities.js';
import type { KnownIssuances } from './known-issuances.js';
import { type CtSeen, MAX_UNKNOWN_ISSUANCES } from './seen.js';
import { type LookSource, pemReader } from './served-look.js';
import type { WatchItem, WatchState } from './store.js';

export interface CtLookDeps {
  /** Undefined when Certificate Transparency search is off (the sandbox without CT_API_URL). */
  certSpotter: CertSpotter | undefined;
  identities: Pick<CertificateIdentities, 'of' | 'last'>;
  knownIssuances: Pick<KnownIssuances, 'has'>;
  now: () => number;
}

/** Failed searches in a row before "could not check" is said (as FAILURES_BEFORE_REPORT). */
const FAILURES_BEFORE_REPORT = 3;
/** Foreign issuances alerted in one look (each is a message of its own, with its button). */
const MAX_FOREIGN_PER_LOOK = 10;
/** Names an alert shows of an issuance. */
const NAMES_SHOWN = 5;

type Decision = { kind: 'ours' } | { kind: 'foreign' } | { kind: 'undecided'; reason: string };

/**
 * A watched zone in Certificate Transparency (contract §3): what Cert Spotter discovered since the
 * zone's cursor, each issuance compared with the certificates the registrar lists for the account
 * (SPKI SHA-256 first, serial second). One that matches none is alerted once, with Mark as known.
 * The cursor moves only after every issuance of the answer was judged, so a search that failed, a
 * rate limit, or a registrar that could not be read leaves it, and is "could not check", never "clear".
 * Its alerts are `once`: staged in the outbox before the moved cursor is saved (sweep.ts).
 */
export async function ctLook(
  deps: CtLookDeps,
  source: LookSource,
  item: WatchItem,
  previous: WatchState,
): Promise<{ ct: CtSeen | undefined; alerts: Alert[] }> {
  if (deps.certSpotter === undefined) return { ct: previous.ct, alerts: [] };
  const now = deps.now();
  const seen: CtSeen = previous.ct ?? { status: 'unchecked', failures: 0 };
  // Retry-After is kept: no question before it, whatever the watch interval.
  if (seen.retryAt !== undefined && now < seen.retryAt) return { ct: seen, alerts: [] };
  const unknown = await stillUnknown(deps, source, seen.unknown, now);
  const before: CtSeen = { ...seen, ...(unknown === undefined ? {} : { unknown }) };
  const search = await deps.certSpotter.issuances(item.id, before.cursor);
  if (search.kind !== 'ok') return failing(item, before, now, searchReason(search), search);
  if (search.issuances.length === 0)
    return {
      ct: {
        ...withCursor(search.cursor ?? before.cursor),
        checkedAt: now,
        status: 'clear',
        failures: 0,
        ...(unknown === undefined ? {} : { unknown }),
      },
      alerts: [],
    };
  let listed: TlsCertificate[] | undefined;
  try {
    listed = await source.paced(() => source.registrar.tls.list());
  } catch {
    return failing(item, before, now, text.served.ctReasonRegistrar);
  }
  if (listed === undefined) return failing(item, before, now, text.served.ctReasonNoList);
  const foreign: Issuance[] = [];
  let cursor = search.cursor;
  let more = search.more;
  for (const issuance of search.issuances) {
    if (await deps.knownIssuances.has(source.workspace, issuance.tbsSha256)) continue;
    const decision = await decide(deps, source, issuance, listed, now);
    if (decision.kind === 'undecided') return failing(item, before, now, decision.reason);
    if (decision.kind !== 'foreign') continue;
    foreign.push(issuance);
    // A zone's first search reads its whole unexpired history: the channel hears at most this many
    // a look, and the next look goes on after the last one said.
    if (foreign.length === MAX_FOREIGN_PER_LOOK) {
      cursor = issuance.id;
      more = true;
      break;
    }
  }
  const found = [
    ...(unknown ?? []).filter((kept) => !foreign.some((issuance) => issuance.tbsSha256 === kept.tbs)),
    ...foreign.map((issuance) => ({
      tbs: issuance.tbsSha256,
      ...(issuance.notAfter === undefined ? {} : { until: issuance.notAfter }),
    })),
  ].slice(-MAX_UNKNOWN_ISSUANCES);
  return {
    ct: {
      ...withCursor(cursor),
      checkedAt: now,
      status: foreign.length > 0 ? 'found' : more ? 'unchecked' : 'clear',
      failures: 0,
      ...(found.length === 0 ? {} : { unknown: found }),
    },
    alerts: foreign.map((issuance) => foreignAlert(item, issuance)),
  };
}

const withCursor = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });

/** The unknown issuances still unexplained: neither marked as known since nor expired. */
async function stillUnknown(
  deps: CtLookDeps,
  source: LookSource,
  unknown: CtSeen['unknown'],
  now: number,
): Promise<CtSeen['unknown']> {
  if (unknown === undefined) return undefined;
  const kept: NonNullable<CtSeen['unknown']> = [];
  for (const issuance of unknown)
    if (
      (issuance.until === undefined || issuance.until > now) &&
      !(await deps.knownIssuances.has(source.workspace, issuance.tbs))
    )
      kept.push(issuance);
  return kept.length === 0 ? undefined : kept;
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** Whether a certificate name covers `name` or the other way round (one label of wildcard, RFC 6125 §6.4.3). */
function overlaps(a: string, b: string): boolean {
  if (a === b) return true;
  const covers = (wild: string, host: string) =>
    wild.startsWith('*.') && host.slice(host.indexOf('.') + 1) === wild.slice(2);
  return covers(a, b) || covers(b, a);
}

async function decide(
  deps: CtLookDeps,
  source: LookSource,
  issuance: Issuance,
  listed: readonly TlsCertificate[],
  now: number,
): Promise<Decision> {
  const candidates = listed.filter((cert) =>
    [cert.common_name, ...cert.dns_names].some((name) => issuance.names.some((n) => overlaps(bare(name), n))),
  );
  // A CA logs before the registrar shows the order issued: such an issuance waits for the next look.
  if (candidates.some((cert) => cert.status === 'pending'))
    return { kind: 'undecided', reason: text.served.ctReasonPending };
  const identities: LeafIdentity[] = [];
  for (const cert of candidates) {
    const identity =
      cert.status === 'issued'
        ? await deps.identities.of(source.workspace, cert, pemReader(source, cert.id), now)
        : await deps.identities.last(source.workspace, cert.id);
    if (cert.status === 'issued' && (identity === undefined || identity === null))
      return { kind: 'undecided', reason: text.served.ctReasonRegistrar };
    if (identity !== undefined && identity !== null) identities.push(identity);
  }
  const bySpki =
    issuance.spkiSha256 !== undefined && identities.some((leaf) => leaf.spkiSha256 === issuance.spkiSha256);
  const bySerial =
    issuance.serial !== undefined && identities.some((leaf) => leaf.serial === issuance.serial);
  return bySpki || bySerial ? { kind: 'ours' } : { kind: 'foreign' };
}

function foreignAlert(item: WatchItem, issuance: Issuance): Alert {
  const zone = `*${escapeMrkdwn(item.id)}*`;
  const shown = issuance.names.slice(0, NAMES_SHOWN).map(codeSpan).join(', ');
  const more = issuance.names.length - NAMES_SHOWN;
  const names = more > 0 ? `${shown} ${text.served.ctMoreNames({ count: more })}` : shown || zone;
  const issuer = issuance.issuer || text.served.ctUnknownIssuer;
  const date = (ms: number | undefined) =>
    ms === undefined ? markup(escapeMrkdwn(text.served.ctUnknownDate)) : slackDate(ms, '{date_long}');
  return {
    mark: `domain:${item.id}:ct:${issuance.tbsSha256}`,
    level: 'warn',
    text: text.served.ctForeign({
      zone,
      issuer,
      names,
      from: date(issuance.notBefore),
      until: date(issuance.notAfter),
    }),
    buttons: ['known'],
    cause: { kind: 'ct-foreign', issuance: issuance.tbsSha256 },
    line: text.served.ctForeignLine({ zone, issuer, names }),
    issuance: issuance.tbsSha256,
    // The cursor moves past it: posted by the outbox however long Slack fails, never lost.
    once: true,
  };
}

function searchReason(search: Exclude<CtSearch, { kind: 'ok' }>): string {
  if (search.kind === 'rate-limited') return text.served.ctReasonRateLimited;
  switch (search.reason) {
    case 'status':
      return text.served.ctReasonStatus({ status: search.status ?? 0 });
    case 'timeout':
      return text.served.ctReasonTimeout;
    case 'network':
      return text.served.ctReasonNetwork;
    case 'too-large':
      return text.served.ctReasonTooLarge;
    case 'malformed':
      return text.served.ctReasonMalformed;
  }
}

/** A search that told nothing: counted, the cursor kept, said once per streak at the third. */
function failing(
  item: WatchItem,
  before: CtSeen,
  now: number,
  reason: string,
  search?: CtSearch,
): { ct: CtSeen; alerts: Alert[] } {
  const failures = before.failures + 1;
  const failingSince = before.failingSince ?? now;
  const retryAt = search?.kind === 'rate-limited' ? search.retryAt : undefined;
  const ct: CtSeen = {
    ...withCursor(before.cursor),
    ...(before.unknown === undefined ? {} : { unknown: before.unknown }),
    ...(retryAt === undefined ? {} : { retryAt }),
    checkedAt: now,
    status: 'unchecked',
    failures,
    failingSince,
    reason: reason.slice(0, 300),
  };
  const zone = `*${escapeMrkdwn(item.id)}*`;
  const alerts: Alert[] =
    failures < FAILURES_BEFORE_REPORT
      ? []
      : [
          {
            mark: `domain:${item.id}:ct-unchecked:${failingSince}`,
            level: 'warn',
            text: text.served.ctUnchecked({ zone, times: failures, reason }),
            buttons: ['show'],
            cause: { kind: 'ct-unchecked' },
            line: zone,
          },
        ];
  return { ct, alerts };
}
