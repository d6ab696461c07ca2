// The certificate half of checks.ts: expiry, revocation and stuck orders, apart from the domain's.
import type { TlsCertificate } from '../../registrar/index.js';
import { TLS_PRODUCTS } from '../../registrar/schemas/tls.js';
import { daysUntil } from '../../shared/days.js';
import { slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { orderedAt } from '../tls/blocks.js';
import { certificateExpiry, certificateLifetime } from '../tls/lifetime.js';
import type { Alert } from './alert.js';
import type { RenewalSeen, WatchChange, WatchItem, WatchState } from './store.js';
import {
  type CertificateThreshold,
  certificateThresholds,
  crossedCertificateThreshold,
  DAY_MS,
  dayOf,
  daysLeft,
  type Look,
  USUAL_PENDING_MS,
} from './thresholds.js';

export { certificateExpiry } from '../tls/lifetime.js';

const REVOKED = new Set(['revoked', 'certificate-revoked', 'cancelled']);

/**
 * The thresholds of `cert`: scaled with its issued lifetime (certificateLifetime) in the one day count,
 * the fixed ones when the lifetime is not known (docs/requirements.md R37).
 */
export function thresholdsOf(cert: TlsCertificate): CertificateThreshold[] {
  const life = certificateLifetime(cert);
  return certificateThresholds(life === undefined ? undefined : daysUntil(life.expiresAt, life.startsAt));
}

/** The threshold an issued certificate has crossed (so a renewal matters), else undefined. */
function crossed(cert: TlsCertificate, now: number): CertificateThreshold | undefined {
  const expiresAt = cert.status === 'issued' ? certificateExpiry(cert) : undefined;
  return expiresAt === undefined
    ? undefined
    : crossedCertificateThreshold(thresholdsOf(cert), expiresAt, now);
}

/** The days of the threshold an issued certificate has crossed (so a renewal matters), else undefined. */
export function certificateThreshold(cert: TlsCertificate, now: number): number | undefined {
  return crossed(cert, now)?.days;
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
  const life = cert.status === 'issued' ? certificateLifetime(cert) : undefined;
  const crossing = crossed(cert, now);
  const threshold = crossing?.days;
  const renewed = threshold === undefined ? undefined : renewal;

  if (
    expiresAt !== undefined &&
    crossing !== undefined &&
    threshold !== undefined &&
    (renewed === undefined || threshold === 0)
  ) {
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
      // Marked by slot, not days: once per slot whatever the lifetime (thresholds.ts).
      mark: `certificate:${item.id}:expiry:${crossing.slot}:${dayOf(expiresAt)}`,
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
      ...(life === undefined ? {} : { startsAt: life.startsAt }),
      ...(pendingSince === undefined ? {} : { pendingSince }),
      ...(renewed === undefined ? {} : { renewal: renewed }),
    },
    alerts,
    changes,
  };
}
