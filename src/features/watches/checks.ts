import type { DnssecState, Domain, TlsCertificate } from '../../registrar/index.js';
import { TLS_PRODUCTS } from '../../registrar/schemas/tls.js';
import { displayName } from '../../shared/domain-names.js';
import { slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { orderedAt } from '../tls/blocks.js';
import type { Alert } from './alert.js';
import type { RenewalSeen, WatchChange, WatchItem, WatchState } from './store.js';

/**
 * What one look at a watched item raises, free of Slack and Redis: the thresholds and drifts of
 * docs/requirements.md R37. Each alert carries a mark; the mark names the threshold and the date it
 * concerns, so it is raised once, and a renewal (a new expiry date) arms every threshold again.
 */

export const DAY_MS = 86_400_000;
/** Days before a domain's expiry at which it is raised; 0 is "expired". */
export const DOMAIN_THRESHOLDS = [60, 30, 14, 7, 1, 0] as const;
export const CERTIFICATE_THRESHOLDS = [30, 14, 7, 1, 0] as const;
/** A DNSSEC transition pending longer than this is stuck (docs/requirements.md R37). */
export const DNSSEC_PENDING_MAX_MS = DAY_MS;
/**
 * How long an order usually stays pending: domain validation takes minutes to hours, organization
 * validation (OV) a few days. Past these it is raised as stuck.
 */
export const USUAL_PENDING_MS = { dv: 2 * DAY_MS, ov: 7 * DAY_MS } as const;

export interface Look {
  state: WatchState;
  alerts: Alert[];
  changes: WatchChange[];
}

/** The tightest threshold `expiresAt` has crossed at `now`, or undefined when none. */
export function crossedThreshold(
  thresholds: readonly number[],
  expiresAt: number,
  now: number,
): number | undefined {
  const days = (expiresAt - now) / DAY_MS;
  if (days <= 0) return 0;
  let crossed: number | undefined;
  for (const threshold of thresholds) if (threshold > 0 && days <= threshold) crossed = threshold;
  return crossed;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const daysLeft = (expiresAt: number, now: number) => Math.max(0, Math.ceil((expiresAt - now) / DAY_MS));
const normalisedNameservers = (list: readonly string[]) =>
  [...new Set(list.map((ns) => ns.toLowerCase().replace(/\.$/, '')))].sort();

export function lookAtDomain(
  item: WatchItem,
  previous: WatchState,
  domain: Domain,
  dnssec: DnssecState,
  now: number,
): Look {
  const name = `*${escapeMrkdwn(displayName(item.id))}*`;
  const alerts: Alert[] = [];
  const changes: WatchChange[] = [];
  const expiresAt = domain.expires_at !== undefined && domain.expires_at > 0 ? domain.expires_at : undefined;

  if (expiresAt !== undefined) {
    const threshold = crossedThreshold(DOMAIN_THRESHOLDS, expiresAt, now);
    if (threshold !== undefined) {
      const lapses = domain.auto_renew === false || domain.cancelled === true;
      const when = slackDate(expiresAt, '{date_long}');
      const days = daysLeft(expiresAt, now);
      const what =
        threshold === 0
          ? text.watches.domainExpired({ name, when })
          : lapses
            ? text.watches.domainExpiresLapsing({ name, when, days })
            : text.watches.domainExpiresRenewing({ name, when, days });
      const why =
        domain.cancelled === true
          ? text.watches.domainCancelledWhy
          : domain.auto_renew === false
            ? text.watches.domainAutoRenewOffWhy
            : text.watches.domainAutoRenewOnWhy;
      const state =
        domain.cancelled === true
          ? text.watches.domainStateCancelled
          : domain.auto_renew === false
            ? text.watches.domainStateAutoRenewOff
            : undefined;
      alerts.push({
        mark: `domain:${item.id}:expiry:${threshold}:${dayOf(expiresAt)}`,
        level: lapses ? 'loud' : 'warn',
        text: `${what} ${why}`,
        buttons: ['show'],
        cause: { kind: 'domain-expiry', threshold, lapses },
        line:
          threshold === 0
            ? text.watches.domainExpiredLine({ name, when, state })
            : text.watches.domainExpiresLine({ name, when, days, state }),
      });
    }
    if (previous.expiresAt !== undefined && dayOf(previous.expiresAt) !== dayOf(expiresAt)) {
      changes.push({
        at: now,
        text: text.watches.domainExpiryMoved({
          name,
          when: slackDate(expiresAt, '{date_long}'),
          was: slackDate(previous.expiresAt, '{date_long}'),
        }),
      });
    }
  }
  if (
    previous.autoRenew !== undefined &&
    domain.auto_renew !== undefined &&
    previous.autoRenew !== domain.auto_renew
  ) {
    changes.push({
      at: now,
      text: domain.auto_renew
        ? text.watches.autoRenewTurnedOn({ name })
        : text.watches.autoRenewTurnedOff({ name }),
    });
  }

  const nameservers = normalisedNameservers(domain.nameservers);
  if (previous.nameservers !== undefined && previous.nameservers.join(',') !== nameservers.join(',')) {
    const list = (ns: readonly string[]) =>
      ns.length === 0 ? text.watches.nameserversNone : ns.map(codeSpan).join(', ');
    const fromTo = { name, from: list(previous.nameservers), to: list(nameservers) };
    const change = text.watches.delegationChanged(fromTo);
    alerts.push({
      mark: `domain:${item.id}:ns:${previous.checkedAt ?? 0}:${nameservers.join(',')}`,
      level: 'warn',
      text: text.watches.delegationAlert({ change }),
      buttons: ['show'],
      cause: { kind: 'delegation' },
      line: text.watches.delegationLine(fromTo),
    });
    changes.push({ at: now, text: change });
  }

  const pending = dnssec.dnssec_state === 'pending' || (dnssec.pending_job ?? null) !== null;
  const desired = dnssec.desired_state ?? '';
  const live = dnssec.live_state ?? '';
  const drifting = !pending && desired !== '' && live !== '' && desired !== live;
  const before = previous.dnssec;
  const pendingSince = pending ? (before?.pending === true ? (before.pendingSince ?? now) : now) : undefined;
  const driftSince = drifting ? (before?.driftSince ?? now) : undefined;
  if (drifting && driftSince !== undefined) {
    alerts.push({
      mark: `domain:${item.id}:dnssec-drift:${desired}:${live}:${driftSince}`,
      level: 'warn',
      text: text.watches.dnssecDrift({
        name,
        desired: escapeMrkdwn(desired),
        live: escapeMrkdwn(live),
        domain: item.id,
      }),
      buttons: ['verify', 'show'],
      cause: { kind: 'dnssec-drift' },
      line: text.watches.dnssecDriftLine({ name, desired: escapeMrkdwn(desired), live: escapeMrkdwn(live) }),
    });
  }
  if (pendingSince !== undefined && now - pendingSince > DNSSEC_PENDING_MAX_MS) {
    alerts.push({
      mark: `domain:${item.id}:dnssec-stuck:${pendingSince}`,
      level: 'warn',
      text: text.watches.dnssecStuck({ name, since: slackDate(pendingSince), domain: item.id }),
      buttons: ['verify', 'show'],
      cause: { kind: 'dnssec-stuck' },
      line: text.watches.pendingSinceLine({ name, since: slackDate(pendingSince) }),
    });
  }
  if (before !== undefined && (before.desired !== desired || before.live !== live)) {
    changes.push({
      at: now,
      text: text.watches.dnssecChanged({
        name,
        live: escapeMrkdwn(live || '?'),
        desired: escapeMrkdwn(desired || '?'),
      }),
    });
  }

  return {
    state: {
      checkedAt: now,
      failures: 0,
      ...(expiresAt === undefined ? {} : { expiresAt }),
      ...(domain.auto_renew === undefined ? {} : { autoRenew: domain.auto_renew }),
      ...(domain.cancelled === undefined ? {} : { cancelled: domain.cancelled }),
      nameservers,
      dnssec: {
        desired,
        live,
        pending,
        ...(pendingSince === undefined ? {} : { pendingSince }),
        ...(driftSince === undefined ? {} : { driftSince }),
      },
    },
    alerts,
    changes,
  };
}

/**
 * A certificate's expiry. The spec's certificate has no end date (docs/registrar-api.md §2.2): an
 * explicit date field is used when the registrar sends one, else order date + purchased days, which
 * is never later than the real end (a renewal's carried-over time only adds), so alerts come early,
 * never late. Undefined when neither is known.
 */
export function certificateExpiry(cert: TlsCertificate): number | undefined {
  const fields = cert as Record<string, unknown>;
  for (const name of ['expires_at', 'valid_until', 'not_after', 'valid_to']) {
    const value = fields[name];
    if (typeof value === 'number' && value > 0) return value < 1e11 ? value * 1000 : value;
    if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return Date.parse(value);
  }
  const ordered = orderedAt(cert);
  if (ordered === undefined || cert.validity_days === undefined) return undefined;
  return ordered + cert.validity_days * DAY_MS;
}

const REVOKED = new Set(['revoked', 'certificate-revoked', 'cancelled']);

/** The threshold an issued certificate has crossed (so a renewal matters), else undefined. */
export function certificateThreshold(cert: TlsCertificate, now: number): number | undefined {
  const expiresAt = cert.status === 'issued' ? certificateExpiry(cert) : undefined;
  return expiresAt === undefined ? undefined : crossedThreshold(CERTIFICATE_THRESHOLDS, expiresAt, now);
}

/**
 * A certificate's expiry, revocation and stuck order. `renewal` is a later order Regdesk placed for
 * the same name that is still pending or issued (renewal.ts): while there is one, an approaching end
 * raises nothing ("no renewal ordered", docs/requirements.md R37), and the list and digest show it.
 * Once it is gone (cancelled, failed) the alert of the threshold then crossed comes, once. An
 * expired certificate is raised even so: the renewal then still has to be installed.
 */
export function lookAtCertificate(
  item: WatchItem,
  previous: WatchState,
  cert: TlsCertificate,
  now: number,
  renewal?: RenewalSeen,
): Look {
  const name = `*${escapeMrkdwn(cert.common_name)}* (${codeSpan(cert.id)})`;
  const alerts: Alert[] = [];
  const changes: WatchChange[] = [];
  const expiresAt = cert.status === 'issued' ? certificateExpiry(cert) : undefined;
  const threshold =
    expiresAt === undefined ? undefined : crossedThreshold(CERTIFICATE_THRESHOLDS, expiresAt, now);
  const renewed = threshold === undefined ? undefined : renewal;

  if (expiresAt !== undefined && threshold !== undefined && (renewed === undefined || threshold === 0)) {
    const when = slackDate(expiresAt, '{date_long}');
    const ordered =
      renewed === undefined
        ? text.watches.certificateRenewIt
        : text.watches.certificateRenewalOrdered({
            id: codeSpan(renewed.id),
            date: slackDate(renewed.placedAt, '{date_short}'),
            status: escapeMrkdwn(renewed.status),
          });
    const renewal =
      renewed === undefined
        ? undefined
        : text.watches.certificateLineRenewal({
            id: codeSpan(renewed.id),
            status: escapeMrkdwn(renewed.status),
          });
    alerts.push({
      mark: `certificate:${item.id}:expiry:${threshold}:${dayOf(expiresAt)}`,
      level: 'warn',
      text:
        threshold === 0
          ? `${text.watches.certificateExpired({ name, when })} ${ordered}`
          : text.watches.certificateExpires({ name, when, days: daysLeft(expiresAt, now) }),
      buttons: ['renew', 'show'],
      cause: { kind: 'certificate-expiry', threshold, renewed: renewed !== undefined },
      line:
        threshold === 0
          ? text.watches.certificateExpiredLine({ name, when, renewal })
          : text.watches.certificateExpiresLine({ name, when, renewal }),
    });
  }
  const before = previous.renewal;
  if (renewed !== undefined && (before?.id !== renewed.id || before.status !== renewed.status)) {
    changes.push({
      at: now,
      text: text.watches.certificateRenewalStatus({
        name,
        id: codeSpan(renewed.id),
        ordered: slackDate(renewed.placedAt, '{date_short}'),
        status: escapeMrkdwn(renewed.status),
      }),
    });
  } else if (renewed === undefined && before !== undefined && threshold !== undefined) {
    changes.push({
      at: now,
      text: text.watches.certificateRenewalGone({ name, id: codeSpan(before.id) }),
    });
  }
  if (REVOKED.has(cert.status)) {
    alerts.push({
      mark: `certificate:${item.id}:status:${cert.status}`,
      level: 'warn',
      text: `${text.watches.certificateRevoked({ name, status: escapeMrkdwn(cert.status) })} ${
        cert.status === 'certificate-revoked'
          ? text.watches.certificateReissueIt
          : text.watches.certificateReplaceIt
      }`,
      buttons: cert.status === 'certificate-revoked' ? ['reissue', 'show'] : ['show'],
      cause: { kind: 'certificate-status', status: cert.status },
      line: name,
    });
  }
  const pendingSince =
    cert.status === 'pending'
      ? (orderedAt(cert) ?? (previous.status === 'pending' ? previous.pendingSince : undefined) ?? now)
      : undefined;
  if (pendingSince !== undefined) {
    const ov = TLS_PRODUCTS.find((product) => product.sku === cert.product)?.organization === true;
    const usual = ov ? USUAL_PENDING_MS.ov : USUAL_PENDING_MS.dv;
    if (now - pendingSince > usual) {
      alerts.push({
        mark: `certificate:${item.id}:stuck:${pendingSince}`,
        level: 'warn',
        text: `${text.watches.certificateStuck({ name, since: slackDate(pendingSince), days: usual / DAY_MS })} ${
          cert.action_required === true
            ? text.watches.certificateDetailsMissing
            : text.watches.certificateCheckValidation
        }`,
        buttons: ['show'],
        cause: { kind: 'certificate-stuck', usualDays: usual / DAY_MS },
        line:
          cert.action_required === true
            ? text.watches.certificateStuckLineDetailsMissing({ name, since: slackDate(pendingSince) })
            : text.watches.pendingSinceLine({ name, since: slackDate(pendingSince) }),
      });
    }
  }
  if (previous.status !== undefined && previous.status !== cert.status) {
    changes.push({
      at: now,
      text: text.watches.certificateStatusChanged({
        name,
        status: escapeMrkdwn(cert.status),
        was: escapeMrkdwn(previous.status),
      }),
    });
  }
  return {
    state: {
      checkedAt: now,
      failures: 0,
      label: cert.common_name,
      status: cert.status,
      ...(expiresAt === undefined ? {} : { expiresAt }),
      ...(pendingSince === undefined ? {} : { pendingSince }),
      ...(renewed === undefined ? {} : { renewal: renewed }),
    },
    alerts,
    changes,
  };
}
