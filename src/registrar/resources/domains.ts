import { domainPath, type RegistrarTransport } from '../client.js';
import { AuthCode, Availability, Delegation, Domain } from '../schemas/domains.js';

/** Spec 4.5: domain details, delegation, auth codes and availability. */
export function domainsResource(t: RegistrarTransport) {
  return {
    get: async (domain: string) =>
      t.json({
        operation: 'domains.get',
        method: 'GET',
        path: `/domains/${domainPath(domain, 'domains.get')}`,
        schema: Domain,
        retry: true,
      }),
    /** `null` reverts to the standard nameservers. */
    setNameservers: async (domain: string, vanitySetId: number | null) =>
      t.json({
        operation: 'domains.nameservers',
        method: 'PUT',
        path: `/domains/${domainPath(domain, 'domains.nameservers')}/nameservers`,
        body: { vanity_set_id: vanitySetId },
        schema: Delegation,
        retry: false,
      }),
    /** The result holds a secret: never log, store or queue it. */
    requestAuthCode: async (domain: string) =>
      t.json({
        operation: 'domains.authinfo',
        method: 'POST',
        path: `/domains/${domainPath(domain, 'domains.authinfo')}/authinfo`,
        schema: AuthCode,
        retry: false,
      }),
    /** A 502 means "could not be determined", never "taken" (docs/registrar-api.md §4.5). */
    checkAvailability: async (domain: string) =>
      t.json({
        operation: 'domains.availability',
        method: 'GET',
        path: `/domains/availability/${domainPath(domain, 'domains.availability')}`,
        schema: Availability,
        retry: false, // the caller schedules availability checks against the per-key quota itself
      }),
  };
}
