import { type Route, SandboxError } from './http.js';
import type { SandboxDomain, SandboxState } from './state.js';

const ACCEPTED_KINDS = ['ds'];
const ACCEPTED_ALGORITHMS = [8, 13, 14];
const MIN_RECORDS = 1;

/** Lazily complete a transition whose settle time has come (no timers: the clock decides). */
export function settle(domain: SandboxDomain, now: number): void {
  const d = domain.dnssec;
  if (d.settleAt !== null && now >= d.settleAt) {
    d.live = d.desired;
    if (d.desired === 'disabled') d.mode = 'none';
    d.settleAt = null;
    d.jobId = null;
  }
}

export function dnssecView(domain: SandboxDomain, now: number): Record<string, unknown> {
  settle(domain, now);
  const d = domain.dnssec;
  const pending = d.settleAt !== null;
  return {
    configured: d.mode !== 'none',
    dnssec_state: pending ? 'pending' : d.live === 'enabled' ? 'active' : 'inactive',
    mode: d.mode,
    desired_state: d.desired,
    live_state: d.live,
    capabilities: {
      supported: true,
      provider: 'sandbox-registry',
      mode_regfish_available: domain.usingServiceNameservers,
      mode_external_available: true,
      accepted_record_kinds: ACCEPTED_KINDS,
      min_records: MIN_RECORDS,
      accepted_algorithms: ACCEPTED_ALGORITHMS,
    },
    desired_records: d.records,
    live_records: d.live === 'enabled' ? d.records : [],
    using_regfish_nameservers: domain.usingServiceNameservers,
    legacy_mode: false,
    zone_signed: d.mode === 'regfish' && d.live === 'enabled',
    zone_pending_disable: pending && d.desired === 'disabled',
    ...(pending
      ? {
          pending_job: {
            id: d.jobId,
            action: d.desired === 'enabled' ? 'activate' : 'deactivate',
            settle_at: Math.floor((d.settleAt ?? now) / 1000),
          },
        }
      : {}),
  };
}

export function dnssecRoutes(state: SandboxState, settleMs: number): Route[] {
  const find = (name: string | undefined): SandboxDomain => {
    const domain = name === undefined ? undefined : state.domains.get(decodeURIComponent(name).toLowerCase());
    if (domain === undefined) throw new SandboxError(404, 'Domain not found');
    return domain;
  };
  return [
    {
      method: 'GET',
      pattern: /^\/dns\/([^/]+)\/dnssec$/,
      operation: 'dnssec.get',
      handler: ({ params, now }) => ({ response: dnssecView(find(params[0]), now) }),
    },
    {
      method: 'PUT',
      pattern: /^\/dns\/([^/]+)\/dnssec$/,
      operation: 'dnssec.put',
      handler: ({ params, body, now }) => {
        const domain = find(params[0]);
        settle(domain, now);
        const { mode, state: target } = body;
        if (
          !['none', 'regfish', 'external'].includes(String(mode)) ||
          !['enabled', 'disabled'].includes(String(target))
        ) {
          throw new SandboxError(400, 'Invalid payload: mode and state are required');
        }
        const d = domain.dnssec;
        if (target === 'enabled') {
          if (mode === 'none')
            throw new SandboxError(400, 'Invalid payload: enabling needs mode regfish or external');
          if (mode === 'regfish' && !domain.usingServiceNameservers) {
            throw new SandboxError(
              409,
              'Cannot be applied in the requested mode: the domain does not use the service nameservers',
            );
          }
          if (mode === 'external') {
            const records = Array.isArray(body.records) ? (body.records as Record<string, unknown>[]) : [];
            const bad = records.some(
              (r) =>
                !ACCEPTED_KINDS.includes(String(r.kind)) ||
                !ACCEPTED_ALGORITHMS.includes(Number(r.algorithm)),
            );
            if (records.length < MIN_RECORDS || bad)
              throw new SandboxError(417, 'DNSSEC record set invalid for the TLD or provider');
            d.records = records;
          } else {
            d.records = [
              { kind: 'ds', key_tag: 12345, algorithm: 13, digest_type: 2, digest: 'A1B2C3D4E5F6' },
            ];
          }
          if (d.live === 'enabled' && d.mode === mode && mode === 'regfish')
            return { response: dnssecView(domain, now) };
          d.mode = mode as 'regfish' | 'external';
          d.desired = 'enabled';
        } else {
          if (d.live === 'disabled' && d.settleAt === null) return { response: dnssecView(domain, now) };
          d.desired = 'disabled';
        }
        d.settleAt = now + settleMs;
        d.jobId = state.newId('job-');
        if (settleMs === 0) settle(domain, now);
        return { response: dnssecView(domain, now) };
      },
    },
    {
      method: 'POST',
      pattern: /^\/dns\/([^/]+)\/dnssec\/verify$/,
      operation: 'dnssec.verify',
      handler: ({ params, now }) => ({ response: dnssecView(find(params[0]), now) }),
    },
    {
      method: 'POST',
      pattern: /^\/dns\/([^/]+)\/dnssec\/cancel$/,
      operation: 'dnssec.cancel',
      handler: ({ params, now }) => {
        const domain = find(params[0]);
        settle(domain, now);
        const d = domain.dnssec;
        if (d.settleAt === null) throw new SandboxError(409, 'No cancellable transition exists');
        // Deactivation can be rolled back only on the service's own nameservers (docs/registrar-api.md §3).
        if (d.desired === 'disabled' && !domain.usingServiceNameservers) {
          throw new SandboxError(409, 'The transition cannot be rolled back automatically');
        }
        d.desired = d.live;
        if (d.live === 'disabled') {
          d.mode = 'none';
          d.records = [];
        }
        d.settleAt = null;
        d.jobId = null;
        return { response: dnssecView(domain, now) };
      },
    },
  ];
}
