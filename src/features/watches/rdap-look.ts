import type { RdapClient, RdapFacts, RdapFailure, RdapLookup } from '../../rdap/index.js';
import { AppError } from '../../shared/app-error.js';
import { displayName } from '../../shared/domain-names.js';
import { slackDate } from '../../slack/blocks.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import type { Alert } from './alert.js';
import { PaceExceeded } from './pace.js';
import type { WatchChange, WatchItem, WatchState } from './store.js';
import {
  crossedThreshold,
  DOMAIN_THRESHOLDS,
  daysLeft,
  expiryMark,
  expiryMoved,
  type Look,
} from './thresholds.js';

/**
 * A watched domain the registrar does not hold (`via: 'rdap'`): its expiry and EPP statuses come from
 * its registry's RDAP service (src/rdap), at the usual thresholds. Anything but the registry's answer
 * about the domain is a failed look ("could not check" after the usual streak), never "fine".
 */

export interface RdapLookDeps {
  rdap: Pick<RdapClient, 'domain'>;
  now: () => number;
}

/** A look whose RDAP answer says nothing about the domain; `failed` in sweep.ts words and counts it. */
export class RdapUnavailable extends AppError {
  constructor(say: () => string) {
    super('regdesk_rdap_unavailable', say);
  }
}

export function rdapFailureText(failure: RdapFailure): string {
  switch (failure) {
    case 'bootstrap_unavailable':
      return text.rdap.failureBootstrap;
    case 'timeout':
      return text.rdap.failureTimeout;
    case 'too_large':
      return text.rdap.failureTooLarge;
    case 'redirects':
      return text.rdap.failureRedirects;
    case 'not_public':
      return text.rdap.failureNotPublic;
    case 'insecure':
      return text.rdap.failureInsecure;
    case 'network':
      return text.rdap.failureNetwork;
    case 'status':
      return text.rdap.failureStatus;
    case 'malformed':
      return text.rdap.failureMalformed;
    case 'paced':
      return text.rdap.failurePaced;
    case 'rate_limited':
      return text.rdap.failureRateLimited;
  }
}

/** "via RDAP, Example Registrar", or "via RDAP" when the answer names no registrar. */
export const rdapSource = (registrar: string | undefined): string =>
  registrar === undefined ? text.rdap.source : text.rdap.sourceWithRegistrar({ registrar });

/** Reads the domain through RDAP and compares with the last look; throws RdapUnavailable otherwise. */
export async function rdapLook(deps: RdapLookDeps, item: WatchItem, previous: WatchState): Promise<Look> {
  const lookup = await deps.rdap.domain(item.id);
  // The pace per RDAP server is Regdesk's own restraint, not the server failing: the look is deferred.
  if (lookup.kind === 'failed' && lookup.failure === 'paced') throw new PaceExceeded();
  // A 429 is the server's pace, not a failure either: the next look is not before its Retry-After.
  if (lookup.kind === 'failed' && lookup.failure === 'rate_limited') throw new PaceExceeded(lookup.retryAt);
  if (lookup.kind !== 'found') throw new RdapUnavailable(() => unavailableText(lookup));
  return lookAtRdapDomain(item, previous, lookup.facts, deps.now());
}

function unavailableText(lookup: Exclude<RdapLookup, { kind: 'found' }>): string {
  if (lookup.kind === 'no-service') return text.rdap.lookNoService({ tld: lookup.tld });
  if (lookup.kind === 'not-found') return text.rdap.lookNotFound;
  return text.rdap.lookFailed({ reason: rdapFailureText(lookup.failure) });
}

export function lookAtRdapDomain(item: WatchItem, previous: WatchState, facts: RdapFacts, now: number): Look {
  const name = `*${escapeMrkdwn(displayName(item.id))}*`;
  const source = rdapSource(facts.registrar);
  const alerts: Alert[] = [];
  const changes: WatchChange[] = [];
  const { expiresAt } = facts;
  if (expiresAt !== undefined) {
    const threshold = crossedThreshold(DOMAIN_THRESHOLDS, expiresAt, now);
    if (threshold !== undefined) {
      const when = slackDate(expiresAt, '{date_long}');
      const days = daysLeft(expiresAt, now);
      const what =
        threshold === 0
          ? text.rdap.expired({ name, when, source })
          : text.rdap.expires({ name, when, days, source });
      alerts.push({
        mark: expiryMark(item.id, threshold, expiresAt),
        level: facts.lapsing || threshold === 0 ? 'loud' : 'warn',
        text: facts.lapsing ? `${what} ${text.rdap.lapsingWhy}` : what,
        // `/domain show` and the other buttons act through the registrar, which does not hold it.
        buttons: [],
        cause: { kind: 'rdap-expiry', threshold },
        line:
          threshold === 0
            ? text.rdap.expiredLine({ name, when, source })
            : text.rdap.expiresLine({ name, when, days, source }),
      });
    }
    const moved = expiryMoved(name, previous.expiresAt, expiresAt, now);
    if (moved !== undefined) changes.push(moved);
  }
  const before = previous.rdap;
  if (before !== undefined && before.transferLock !== facts.transferLock)
    changes.push({
      at: now,
      text: facts.transferLock
        ? text.rdap.transferLockSet({ name })
        : text.rdap.transferLockRemoved({ name }),
    });
  if (
    before?.registrar !== undefined &&
    facts.registrar !== undefined &&
    before.registrar !== facts.registrar
  )
    changes.push({
      at: now,
      text: text.rdap.registrarChanged({ name, from: before.registrar, to: facts.registrar }),
    });
  return {
    state: {
      checkedAt: now,
      failures: 0,
      ...(expiresAt === undefined ? {} : { expiresAt }),
      rdap: {
        transferLock: facts.transferLock,
        ...(facts.registrar === undefined ? {} : { registrar: facts.registrar }),
      },
    },
    alerts,
    changes,
  };
}
