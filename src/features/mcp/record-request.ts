import { z } from 'zod';
import { DNS_RECORD_TYPES, type DnsRecord } from '../../registrar/index.js';
import { text } from '../../text/index.js';
import type { RecordChange } from '../records/changes.js';
import { changeRecord } from '../records/operations.js';
import { recordValueOf } from '../records/rules.js';
import { ToolRefusal } from './guard.js';
import { Channel, Justification, makeRequest, RequestAnswer, type RequestDeps } from './requests.js';
import { DomainName, type ToolSpec } from './tool.js';

const RecordInput = z.object({
  type: z.enum(DNS_RECORD_TYPES),
  /** `@`, a name under the zone (`www`), or a full name (`www.example.com.`). */
  name: z.string().min(1).max(254),
  data: z.string().min(1).max(4_000),
  ttl: z.number().int().min(60).max(86_400).optional(),
  priority: z.number().int().min(0).max(65_535).optional(),
});
type RecordInput = z.infer<typeof RecordInput>;

/** A name as the zone's records carry it: fully qualified, with the trailing dot. */
function qualified(name: string, zone: string): string {
  const lower = name.trim().toLowerCase();
  if (lower === '@' || lower === `${zone}.` || lower === zone) return `${zone}.`;
  if (lower.endsWith('.')) return lower;
  return lower.endsWith(`.${zone}`) ? `${lower}.` : `${lower}.${zone}.`;
}

const invalid = (problem: string) =>
  new ToolRefusal('invalid_input', () => text.mcp.invalidInput({ problem }));

/**
 * `request_record_change`: the same `dns.record` request a record modal makes, always as a request
 * (an agent never changes a zone at once, even where the policy exempts a person's change); the rules
 * of single record changes are the operation's preview, so a change Slack would refuse is refused.
 * An update or delete names the record by its id, and its current value is read from the registrar.
 */
export function recordRequestTool(deps: RequestDeps): ToolSpec {
  const tool: ToolSpec<{
    domain: typeof DomainName;
    change: z.ZodEnum<{ create: 'create'; update: 'update'; delete: 'delete' }>;
    recordId: z.ZodOptional<z.ZodNumber>;
    record: z.ZodOptional<typeof RecordInput>;
    justification: typeof Justification;
    channel: typeof Channel;
  }> = {
    name: 'request_record_change',
    kind: 'write',
    act: 'request',
    description: () => text.mcp.requestRecordChangeTool,
    input: {
      domain: DomainName,
      change: z.enum(['create', 'update', 'delete']),
      recordId: z.number().int().positive().optional(),
      record: RecordInput.optional(),
      justification: Justification,
      channel: Channel,
    },
    output: RequestAnswer,
    target: (input) => input.domain,
    run: async (ctx, input) => {
      const zone = input.domain.replace(/\.$/, '');
      const after = (record: RecordInput | undefined) => {
        if (record === undefined) throw invalid('record');
        const value = recordValueOf({
          type: record.type,
          name: qualified(record.name, zone),
          data: record.data,
          ...(record.ttl === undefined ? {} : { ttl: record.ttl }),
          ...(record.priority === undefined ? {} : { priority: record.priority }),
        } as DnsRecord);
        if (value === undefined) throw invalid('record');
        return value;
      };
      const current = async () => {
        if (input.recordId === undefined) throw invalid('recordId');
        const found = (await ctx.registrar.dns.records(zone)).find((record) => record.id === input.recordId);
        const value = found === undefined ? undefined : recordValueOf(found);
        if (value === undefined) throw new ToolRefusal('not_found', () => text.mcp.notFound);
        return { id: input.recordId, before: value };
      };
      const change: RecordChange =
        input.change === 'create'
          ? { kind: 'add', after: after(input.record) }
          : input.change === 'update'
            ? { kind: 'edit', ...(await current()), after: after(input.record) }
            : { kind: 'delete', ...(await current()) };
      return makeRequest(deps, ctx, changeRecord, { domain: zone, change, by: ctx.user }, input);
    },
  };
  return tool as ToolSpec;
}
