import { idPath, type RegistrarTransport } from '../client.js';
import { TlsOrganization, TlsOrganizationCreateParams, TlsOrganizationUpdateParams } from '../schemas/tls.js';

/** Spec 4.2: TLS organizations for OV/EV-style orders. */
export function organizationsResource(t: RegistrarTransport) {
  return {
    create: async (params: TlsOrganizationCreateParams) =>
      t.json({
        operation: 'org.create',
        method: 'POST',
        path: '/tls/organization',
        body: TlsOrganizationCreateParams.parse(params),
        schema: TlsOrganization,
        retry: false,
      }),
    update: async (id: string, params: TlsOrganizationUpdateParams) =>
      t.json({
        operation: 'org.update',
        method: 'PATCH',
        path: `/tls/organization/${idPath(id, 'org.update')}`,
        body: TlsOrganizationUpdateParams.parse(params),
        schema: TlsOrganization,
        retry: false,
      }),
    get: async (id: string) =>
      t.json({
        operation: 'org.get',
        method: 'GET',
        path: `/tls/organization/${idPath(id, 'org.get')}`,
        schema: TlsOrganization,
        retry: true,
      }),
  };
}
