import { domainPath, type RegistrarTransport } from '../client.js';
import { DnssecState, DnssecUpdateParams } from '../schemas/dnssec.js';

/** Spec 4.3: DNSSEC configuration, verification and cancellation. */
export function dnssecResource(t: RegistrarTransport) {
  const path = (domain: string, op: string, suffix = '') => `/dns/${domainPath(domain, op)}/dnssec${suffix}`;
  return {
    get: async (domain: string) =>
      t.json({
        operation: 'dnssec.get',
        method: 'GET',
        path: path(domain, 'dnssec.get'),
        schema: DnssecState,
        retry: true,
      }),
    put: async (domain: string, params: DnssecUpdateParams) =>
      t.json({
        operation: 'dnssec.put',
        method: 'PUT',
        path: path(domain, 'dnssec.put'),
        body: DnssecUpdateParams.parse(params),
        schema: DnssecState,
        retry: false,
      }),
    verify: async (domain: string) =>
      t.json({
        operation: 'dnssec.verify',
        method: 'POST',
        path: path(domain, 'dnssec.verify', '/verify'),
        schema: DnssecState,
        retry: false,
      }),
    cancel: async (domain: string) =>
      t.json({
        operation: 'dnssec.cancel',
        method: 'POST',
        path: path(domain, 'dnssec.cancel', '/cancel'),
        schema: DnssecState,
        retry: false,
      }),
  };
}
