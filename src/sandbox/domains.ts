import { domainToASCII } from 'node:url';
import { parse } from 'tldts';
import { type Route, SandboxError } from './http.js';
import type { SandboxLimits, Windows } from './limits.js';
import {
  REGISTERED_ELSEWHERE,
  type SandboxDomain,
  type SandboxState,
  STANDARD_NAMESERVERS,
  VANITY_SETS,
} from './state.js';

export interface DomainOptions {
  state: SandboxState;
  limits: SandboxLimits;
  windows: Windows;
}

export function nameserversOf(domain: SandboxDomain): string[] {
  if (!domain.usingServiceNameservers) return domain.externalNameservers;
  return VANITY_SETS.find((set) => set.id === domain.vanitySetId)?.nameservers ?? STANDARD_NAMESERVERS;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Labels of 1–63 a-z, 0-9 and inner hyphens, at most 255 characters in all. */
const validName = (name: string) =>
  name.length <= 255 &&
  name.split('.').every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label));

function details(domain: SandboxDomain): Record<string, unknown> {
  const [sld = '', ...tld] = domain.domain.split('.');
  return {
    domain: domain.domain,
    sld,
    tld: tld.join('.'),
    favorite: false,
    owner: domain.owner,
    primary_nameserver: nameserversOf(domain)[0] ?? '',
    dnssec_state: domain.dnssec.live === 'enabled' ? 'active' : 'inactive',
    auto_renew: domain.autoRenew,
    cancelled: domain.cancelled,
    registered_at: seconds(domain.registeredAt),
    expires_at: seconds(domain.expiresAt),
    nameservers: nameserversOf(domain),
  };
}

function delegation(domain: SandboxDomain): Record<string, unknown> {
  return {
    domain: domain.domain,
    mode: domain.vanitySetId === null ? 'standard' : 'vanity',
    current: nameserversOf(domain),
    vanity_set_id: domain.vanitySetId,
    vanity_sets: VANITY_SETS,
  };
}

export function domainRoutes({ state, limits, windows }: DomainOptions): Route[] {
  const find = (name: string | undefined, message = 'Domain not found'): SandboxDomain => {
    const domain = name === undefined ? undefined : state.domains.get(decodeURIComponent(name).toLowerCase());
    if (domain === undefined) throw new SandboxError(404, message);
    return domain;
  };
  return [
    {
      method: 'GET',
      pattern: /^\/domains\/availability\/([^/]+)$/,
      operation: 'domains.availability',
      handler: ({ params, key, now }) => {
        const { max, windowMs } = limits.availability;
        if (!windows.take(`availability:${key.key}`, max, windowMs, now)) {
          throw new SandboxError(429, 'Too many availability checks', {
            'retry-after': String(Math.ceil(windowMs / 1000)),
          });
        }
        const name = domainToASCII(decodeURIComponent(params[0] ?? '').toLowerCase());
        // A registry sells names under ICANN suffixes only: LDH labels, a suffix matched by an ICANN rule
        // (the implicit `*` rule does not count), and the name its own eTLD+1, so `github.io` is a name
        // (taken) and `myproject.github.io` is not.
        const parsed = parse(name, { extractHostname: false, detectIp: false, allowPrivateDomains: false });
        const listed = parsed.isIcann === true;
        if (!validName(name) || !listed || parsed.domain !== name)
          throw new SandboxError(400, 'Not a valid registrable domain name');
        if (name.includes('unreachable')) throw new SandboxError(502, 'Availability could not be determined');
        const taken = state.domains.has(name) || REGISTERED_ELSEWHERE.has(name);
        return {
          response: {
            domain: name,
            sld: parsed.domainWithoutSuffix,
            tld: parsed.publicSuffix,
            available: !taken,
            status: taken ? 'registered' : 'available',
            flags: state.domains.has(name) ? ['in_account'] : [],
          },
          headers: { 'ratelimit-policy': `${max}; w=${Math.ceil(windowMs / 1000)}` },
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/domains\/([^/]+)$/,
      operation: 'domains.get',
      handler: ({ params }) => ({ response: details(find(params[0])) }),
    },
    {
      method: 'PUT',
      pattern: /^\/domains\/([^/]+)\/nameservers$/,
      operation: 'domains.nameservers',
      handler: ({ params, body, now }) => {
        const domain = find(params[0], 'Domain or vanity set not found');
        if (!('vanity_set_id' in body))
          throw new SandboxError(400, 'Invalid payload: vanity_set_id is required');
        const id = body.vanity_set_id;
        if (id !== null && (typeof id !== 'number' || !Number.isInteger(id))) {
          throw new SandboxError(400, 'Invalid payload: vanity_set_id must be an integer or null');
        }
        if (id !== null && !VANITY_SETS.some((set) => set.id === id))
          throw new SandboxError(404, 'Domain or vanity set not found');
        if (domain.guardBlocks.has('ns_change'))
          throw new SandboxError(403, 'Blocked by the domain guard (ns_change)');
        if (domain.pendingTransfer || domain.cancelled)
          throw new SandboxError(409, 'Domain state does not allow the change');
        if (!windows.perDay(`ns:${domain.domain}`, limits.nsChangesPerDomainPerDay, now)) {
          throw new SandboxError(429, 'Daily change limit reached');
        }
        domain.vanitySetId = id;
        domain.usingServiceNameservers = true;
        return { response: delegation(domain) };
      },
    },
    {
      method: 'POST',
      pattern: /^\/domains\/([^/]+)\/authinfo$/,
      operation: 'domains.authinfo',
      handler: ({ params, key, now }) => {
        const domain = find(params[0]);
        if (domain.guardBlocks.has('authinfo'))
          throw new SandboxError(403, 'Blocked by the domain guard (authinfo)');
        const ok = windows.takeAll(
          [
            { key: `authinfo:${domain.domain}`, max: limits.authcodeDomainPerDay, windowMs: 86_400_000 },
            {
              key: `authinfo-account:${key.account}`,
              max: limits.authcodeAccountPerDay,
              windowMs: 86_400_000,
            },
          ],
          now,
        );
        if (!ok) throw new SandboxError(429, 'Daily auth-code limit reached');
        const code = `${Math.random().toString(36).slice(2, 8)}-${Math.random().toString(36).slice(2, 8)}!Q`;
        state.guardLog.push({ domain: domain.domain, outcome: 'issued', at: now });
        return { response: { domain: domain.domain, authinfo: code } };
      },
    },
  ];
}
