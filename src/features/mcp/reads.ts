import { z } from 'zod';
import type { TlsCertificate } from '../../registrar/index.js';
import { text } from '../../text/index.js';
import type { AuditLog } from '../audit/service.js';
import type { WatchService } from '../watches/service.js';
import { DomainName, iso, type ToolSpec } from './tool.js';

/** Lists in results are cut here (and say so): a result stays within MAX_RESULT_CHARS. */
const MAX_RECORDS = 200;
const MAX_CERTIFICATES = 100;
const MAX_WATCHES = 200;
const MAX_AUDIT = 50;

export interface ReadDeps {
  audit: Pick<AuditLog, 'append' | 'latest'>;
  watches: Pick<WatchService, 'list'>;
}

const Certificate = z.object({
  id: z.string(),
  status: z.string(),
  commonName: z.string(),
  names: z.array(z.string()),
  product: z.string().optional(),
  validityDays: z.number().optional(),
  orderState: z.string().optional(),
});

/** A certificate as data: never its key, CSR, PEM or completion link. */
function certificateOf(cert: TlsCertificate): z.infer<typeof Certificate> {
  return {
    id: cert.id,
    status: cert.status,
    commonName: cert.common_name,
    names: cert.dns_names.slice(0, 50),
    ...(cert.product === undefined ? {} : { product: cert.product }),
    ...(cert.validity_days === undefined ? {} : { validityDays: cert.validity_days }),
    ...(cert.order_state === undefined ? {} : { orderState: cert.order_state }),
  };
}

export function readTools(deps: ReadDeps): ToolSpec[] {
  const domainInfo: ToolSpec<{ domain: typeof DomainName }> = {
    name: 'domain_info',
    kind: 'read',
    act: 'lookup',
    description: () => text.mcp.domainInfoTool,
    input: { domain: DomainName },
    output: {
      domain: z.string(),
      owner: z.string().optional(),
      nameservers: z.array(z.string()),
      dnssecState: z.string().optional(),
      autoRenew: z.boolean().optional(),
      cancelled: z.boolean().optional(),
      registeredAt: z.string().optional(),
      expiresAt: z.string().optional(),
    },
    target: (input) => input.domain,
    run: async ({ registrar }, { domain }) => {
      const found = await registrar.domains.get(domain);
      return {
        domain: found.domain,
        ...(found.owner === undefined ? {} : { owner: found.owner }),
        nameservers: found.nameservers,
        ...(found.dnssec_state === undefined ? {} : { dnssecState: found.dnssec_state }),
        ...(found.auto_renew === undefined ? {} : { autoRenew: found.auto_renew }),
        ...(found.cancelled === undefined ? {} : { cancelled: found.cancelled }),
        ...iso('registeredAt', found.registered_at),
        ...iso('expiresAt', found.expires_at),
      };
    },
  };

  const dnsRecords: ToolSpec<{ domain: typeof DomainName }> = {
    name: 'dns_records',
    kind: 'read',
    act: 'lookup',
    description: () => text.mcp.dnsRecordsTool,
    input: { domain: DomainName },
    output: {
      domain: z.string(),
      records: z.array(
        z.object({
          id: z.number().optional(),
          name: z.string(),
          type: z.string(),
          data: z.string().optional(),
          ttl: z.number().optional(),
          priority: z.number().optional(),
        }),
      ),
      truncated: z.boolean(),
    },
    target: (input) => input.domain,
    run: async ({ registrar }, { domain }) => {
      const records = await registrar.dns.records(domain);
      return {
        domain,
        records: records.slice(0, MAX_RECORDS).map((record) => ({
          ...(record.id === undefined ? {} : { id: record.id }),
          name: record.name,
          type: record.type,
          ...(record.data === undefined ? {} : { data: record.data.slice(0, 2_048) }),
          ...(record.ttl === undefined ? {} : { ttl: record.ttl }),
          ...(record.priority === undefined ? {} : { priority: record.priority }),
        })),
        truncated: records.length > MAX_RECORDS,
      };
    },
  };

  const tlsShow: ToolSpec<{ id: z.ZodOptional<z.ZodString> }> = {
    name: 'tls_show',
    kind: 'read',
    act: 'lookup',
    description: () => text.mcp.tlsShowTool,
    input: { id: z.string().min(1).max(200).optional() },
    output: { certificates: z.array(Certificate), truncated: z.boolean() },
    target: (input) => input.id,
    run: async ({ registrar }, { id }) => {
      const certificates =
        id === undefined ? ((await registrar.tls.list()) ?? []) : [await registrar.tls.get(id)];
      return {
        certificates: certificates.slice(0, MAX_CERTIFICATES).map(certificateOf),
        truncated: certificates.length > MAX_CERTIFICATES,
      };
    },
  };

  const watchList: ToolSpec = {
    name: 'watch_list',
    kind: 'read',
    act: 'lookup',
    description: () => text.mcp.watchListTool,
    input: {},
    output: {
      items: z.array(
        z.object({
          kind: z.enum(['domain', 'certificate']),
          id: z.string(),
          label: z.string().optional(),
          status: z.string().optional(),
          expiresAt: z.string().optional(),
          checkedAt: z.string().optional(),
        }),
      ),
      truncated: z.boolean(),
    },
    run: async ({ workspace }) => {
      const entries = await deps.watches.list(workspace);
      return {
        items: entries.slice(0, MAX_WATCHES).map(({ item, state }) => ({
          kind: item.kind,
          id: item.id,
          ...(state.label === undefined ? {} : { label: state.label }),
          ...(state.status === undefined ? {} : { status: state.status }),
          ...iso('expiresAt', state.expiresAt),
          ...iso('checkedAt', state.checkedAt),
        })),
        truncated: entries.length > MAX_WATCHES,
      };
    },
  };

  const auditRecent: ToolSpec<{
    target: z.ZodOptional<z.ZodString>;
    limit: z.ZodOptional<z.ZodNumber>;
  }> = {
    name: 'audit_recent',
    kind: 'read',
    act: 'view',
    description: () => text.mcp.auditRecentTool,
    input: {
      target: z.string().min(1).max(253).optional(),
      limit: z.number().int().min(1).max(MAX_AUDIT).optional(),
    },
    output: {
      entries: z.array(
        z.object({
          at: z.string(),
          action: z.string(),
          actor: z.string(),
          operation: z.string().optional(),
          target: z.string().optional(),
          requestId: z.string().optional(),
          outcome: z.string().optional(),
          detail: z.string().optional(),
        }),
      ),
    },
    target: (input) => input.target,
    run: async ({ workspace }, { target, limit }) => {
      const entries = await deps.audit.latest(workspace, {
        limit: limit ?? 20,
        ...(target === undefined ? {} : { target }),
      });
      return {
        entries: entries.map((entry) => ({
          at: new Date(entry.at).toISOString(),
          action: entry.action,
          actor: entry.actor,
          ...(entry.operation === undefined ? {} : { operation: entry.operation }),
          ...(entry.target === undefined ? {} : { target: entry.target }),
          ...(entry.requestId === undefined ? {} : { requestId: entry.requestId }),
          ...(entry.outcome === undefined ? {} : { outcome: entry.outcome.slice(0, 300) }),
          ...(entry.detail === undefined ? {} : { detail: entry.detail.slice(0, 300) }),
        })),
      };
    },
  };

  return [domainInfo, dnsRecords, tlsShow, watchList, auditRecent] as ToolSpec[];
}
