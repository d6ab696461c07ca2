import { field, type Route, SandboxError } from './http.js';
import type { SandboxOrganization, SandboxState } from './state.js';

/**
 * The sandbox stands where the registrar would, so it keeps its own copy of the spec's list rather
 * than importing the client's: a client that drifted from the spec would otherwise pass its tests.
 */
const FIELDS = [
  'organization',
  'first_name',
  'last_name',
  'address',
  'postal_code',
  'city',
  'country_code',
  'phone',
  'email',
] as const;

/** Spec 4.2. Formats of contact fields are "not shown"; the sandbox only requires non-empty strings. */
export function organizationRoutes(state: SandboxState): Route[] {
  const find = (id: string | undefined): SandboxOrganization => {
    const org = id === undefined ? undefined : state.organizations.get(id);
    if (org === undefined) throw new SandboxError(404, 'Organization not found');
    return org;
  };
  return [
    {
      method: 'POST',
      pattern: /^\/tls\/organization$/,
      operation: 'org.create',
      handler: ({ body }) => {
        const values = Object.fromEntries(
          FIELDS.map((name) => [name, field.string(body, name) ?? '']),
        ) as Record<(typeof FIELDS)[number], string>;
        const org: SandboxOrganization = {
          id: state.newId('org-'),
          status: 'ready',
          usable_for_ordering: true,
          ...values,
        };
        state.organizations.set(org.id, org);
        return { response: org };
      },
    },
    {
      method: 'PATCH',
      pattern: /^\/tls\/organization\/([^/]+)$/,
      operation: 'org.update',
      handler: ({ params, body }) => {
        const org = find(params[0]);
        const mode = body.edit_mode;
        if (mode !== undefined && mode !== 'create_replacement' && mode !== 'update_provider') {
          throw new SandboxError(400, 'Invalid payload: edit_mode');
        }
        for (const name of FIELDS) {
          const value = field.string(body, name, false);
          if (value !== undefined) org[name] = value;
        }
        return { response: org };
      },
    },
    {
      method: 'GET',
      pattern: /^\/tls\/organization\/([^/]+)$/,
      operation: 'org.get',
      handler: ({ params }) => ({ response: find(params[0]) }),
    },
  ];
}
