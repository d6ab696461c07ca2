// The seeded account as a person would list it: a read-only view, apart from the HTTP server.
import { settle as settleDnssec } from './dnssec.js';
import type { SandboxState } from './state.js';
import { settle as settleCertificate } from './tls.js';
import type { SandboxAccount } from './types.js';

export function summarize(state: SandboxState, now: number): SandboxAccount {
  return {
    domains: [...state.domains.values()].map((domain) => {
      settleDnssec(domain, now);
      const d = domain.dnssec;
      return {
        name: domain.domain,
        expires: new Date(domain.expiresAt).toISOString().slice(0, 10),
        autoRenew: domain.autoRenew,
        dnssec: d.settleAt !== null ? `${d.live} → ${d.desired}` : d.live,
      };
    }),
    certificates: [...state.certificates.values()].map((cert) => {
      settleCertificate(cert, now);
      return { id: cert.id, commonName: cert.common_name, status: cert.status, product: cert.product };
    }),
    organizations: [...state.organizations.values()].map((org) => ({ id: org.id, name: org.organization })),
  };
}
