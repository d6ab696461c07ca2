import type { DnssecState, Domain } from '../../registrar/index.js';
import { displayName } from '../../shared/domain-names.js';
import { slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import type { Alert } from './alert.js';
import type { WatchChange, WatchItem, WatchState } from './store.js';
import {
  crossedThreshold,
  DNSSEC_PENDING_MAX_MS,
  DOMAIN_THRESHOLDS,
  daysLeft,
  expiryMark,
  expiryMoved,
  type Look,
} from './thresholds.js';

/**
 * What one look at a watched item raises, free of Slack and Redis: the thresholds and drifts of
 * docs/requirements.md R37. Each alert carries a mark; the mark names the threshold and the date it
 * concerns, so it is raised once, and a renewal (a new expiry date) arms every threshold again.
 */

export {
  certificateExpiry,
  certificateThreshold,
  lookAtCertificate,
  thresholdsOf,
} from './certificate-checks.js';
export {
  CERTIFICATE_THRESHOLDS,
  type CertificateThreshold,
  certificateThresholds,
  crossedCertificateThreshold,
  crossedThreshold,
  DAY_MS,
  DNSSEC_PENDING_MAX_MS,
  DOMAIN_THRESHOLDS,
  type Look,
  USUAL_PENDING_MS,
} from './thresholds.js';

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
        mark: expiryMark(item.id, threshold, expiresAt),
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
    const moved = expiryMoved(name, previous.expiresAt, expiresAt, now);
    if (moved !== undefined) changes.push(moved);
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
