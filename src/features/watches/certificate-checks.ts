// The certificate half of checks.ts: expiry, revocation and stuck orders, apart from the domain's.
import type { TlsCertificate } from '../../registrar/index.js';
import { TLS_PRODUCTS } from '../../registrar/schemas/tls.js';
import { slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { orderedAt } from '../tls/blocks.js';
import type { Alert } from './alert.js';
import type { RenewalSeen, WatchChange, WatchItem, WatchState } from './store.js';
import {
  CERTIFICATE_THRESHOLDS,
  crossedThreshold,
  DAY_MS,
  dayOf,
  daysLeft,
  type Look,
  USUAL_PENDING_MS,
} from './thresholds.js';

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
