import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';
import { count, n } from './numbers.js';

const inDays = (days: number): string => (days === 0 ? 'today' : `in ${count(days, 'day')}`);

/** Watched domains held at other registrars, read through RDAP (src/rdap, features/watches). */
export const rdap = {
  // Where a domain's facts come from (`registrar` is the RDAP registrar entity's name)
  source: 'via RDAP',
  sourceWithRegistrar: (p: { registrar: string }) => `via RDAP, ${p.registrar}`,
  transferLockOn: 'transfer lock on',
  transferLockOff: '*no transfer lock*',

  // `/domain watch add` of names the registrar does not hold (`source` is one of the two above)
  watchedViaRdap: (p: { name: string; source: string; expiry: Markup; lock: string }) =>
    `:eyes: ${p.name} is held at another registrar: watched ${p.source} · ${p.expiry} · ${p.lock}.`,
  notRegistered: (p: { names: string }) =>
    `Their registries' RDAP services do not know ${p.names} either: they do not seem to be registered.`,
  noService: (p: { names: string; tld: string }) =>
    `${p.names}: .${p.tld} has no RDAP service; expiry unknown. Only the registrar holding them can tell, so they are not watched.`,
  couldNotCheck: (p: { names: string; reason: string }) =>
    `${p.names}: RDAP could not be checked (${p.reason}), so they are not watched. Try again later.`,
  notAsked: (p: { names: string; max: number }) =>
    `RDAP is asked about at most ${n(p.max)} domains per command; not asked: ${p.names}. Add them in another command.`,

  // Why RDAP could not be checked
  failureBootstrap: "IANA's RDAP bootstrap file could not be read",
  failureTimeout: 'the RDAP server did not answer in time',
  failureTooLarge: "the RDAP server's answer was too large",
  failureRedirects: 'the RDAP server redirected too often',
  failureNotPublic: 'the RDAP server is not at a public address',
  failureInsecure: 'the RDAP server does not offer HTTPS',
  failureNetwork: 'the RDAP server could not be reached',
  failureStatus: 'the RDAP server answered with an error',
  failureMalformed: "the RDAP server's answer was malformed",
  failurePaced: 'too many RDAP questions to that server just now',
  failureRateLimited: 'the RDAP server asked to wait (rate limit)',

  // A look at a watched domain that failed (the watch's "could not check" carries it)
  lookNoService: (p: { tld: string }) => `.${p.tld} has no RDAP service; expiry unknown.`,
  lookNotFound: "The registry's RDAP service no longer knows the domain: it may have been deleted.",
  lookFailed: (p: { reason: string }) => `RDAP could not be checked: ${p.reason}.`,

  // Alerts and the digest's changes (`source` as above)
  expires: (p: { name: string; when: Markup; days: number; source: string }) =>
    `:calendar: ${p.name} expires on ${p.when} (${inDays(p.days)}). It is held at another registrar (${p.source}): renew it there.`,
  expired: (p: { name: string; when: Markup; source: string }) =>
    `:rotating_light: ${p.name} *expired* on ${p.when} (${p.source}). Renew it at its registrar now, or it is lost.`,
  lapsingWhy: 'The registry lists it as *pending delete* or in its *redemption period*.',
  expiresLine: (p: { name: string; when: Markup; days: number; source: string }) =>
    `${p.name}: expires ${p.when} (${inDays(p.days)}), ${p.source}`,
  expiredLine: (p: { name: string; when: Markup; source: string }) =>
    `${p.name}: expired ${p.when}, ${p.source}`,
  batchExpire: (p: { items: string; days: number }) =>
    `:calendar: ${p.items} held at other registrars expire within ${count(p.days, 'day')}. Renew them at their registrars.`,
  batchExpired: (p: { items: string }) =>
    `:rotating_light: ${p.items} held at other registrars have *expired*. Renew them at their registrars now, or they are lost.`,
  transferLockRemoved: (p: { name: string }) => `${p.name}: the transfer lock was removed (RDAP).`,
  transferLockSet: (p: { name: string }) => `${p.name}: the transfer lock was set (RDAP).`,
  registrarChanged: (p: { name: string; from: string; to: string }) =>
    `${p.name}: now held at ${p.to} (was ${p.from}, RDAP).`,
} satisfies TextArea;
