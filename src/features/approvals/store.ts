import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../shared/app-error.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

export type ApprovalState =
  | 'pending'
  | 'approved'
  | 'executing'
  | 'succeeded'
  | 'failed'
  | 'denied'
  | 'expired'
  | 'withdrawn';

export const FINAL_STATES: readonly ApprovalState[] = [
  'succeeded',
  'failed',
  'denied',
  'expired',
  'withdrawn',
];

/** One request for a sensitive action, as stored. Parameters are a snapshot taken at request time. */
export interface ApprovalRequest {
  id: string;
  workspace: WorkspaceRef;
  operation: string;
  /** JSON snapshot of the parameters; execution uses exactly these (docs/requirements.md R10). */
  params: Record<string, unknown>;
  paramsHash: string;
  target: string;
  summary: string;
  /** mrkdwn lines describing the resource's state when requested (escaped by the operation). */
  details: string[];
  requester: string;
  channel: string;
  /** The public request message, updated in place at every step (set once it is posted). */
  messageTs: string;
  createdAt: number;
  expiresAt: number;
  needed: number;
  approvals: string[];
  state: ApprovalState;
  decidedBy: string;
  reason: string;
  outcome: string;
}

export type ApproveResult =
  | { kind: 'approved' }
  | { kind: 'recorded'; count: number }
  | { kind: 'missing' }
  | { kind: 'not_pending'; state: ApprovalState }
  | { kind: 'expired' }
  | { kind: 'self' }
  | { kind: 'duplicate' };

// One script per transition keeps every decision a single atomic compare-and-set (docs/requirements.md R9).
const APPROVE = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing'} end
if state ~= 'pending' then return {'not_pending', state} end
if tonumber(redis.call('HGET', KEYS[1], 'expiresAt')) <= tonumber(ARGV[2]) then return {'expired'} end
if redis.call('HGET', KEYS[1], 'requester') == ARGV[1] then return {'self'} end
local list = redis.call('HGET', KEYS[1], 'approvals')
for id in string.gmatch(list, '[^,]+') do
  if id == ARGV[1] then return {'duplicate'} end
end
if list == '' then list = ARGV[1] else list = list .. ',' .. ARGV[1] end
redis.call('HSET', KEYS[1], 'approvals', list)
local count = select(2, string.gsub(list, ',', ',')) + 1
if count >= tonumber(redis.call('HGET', KEYS[1], 'needed')) then
  redis.call('HSET', KEYS[1], 'state', 'approved', 'decidedBy', ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[3])
  return {'approved'}
end
return {'recorded', tostring(count)}`;

// ARGV: from-states (comma list), to-state, request id, then field/value pairs to set.
const TRANSITION = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing'} end
local allowed = false
for s in string.gmatch(ARGV[1], '[^,]+') do
  if s == state then allowed = true end
end
if not allowed then return {'not_allowed', state} end
redis.call('HSET', KEYS[1], 'state', ARGV[2])
for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
if ARGV[2] ~= 'pending' then redis.call('ZREM', KEYS[2], ARGV[3]) end
return {'ok', state}`;

/** The JSON fields of the stored hash; a value that fails its schema is never acted on. */
const StoredParams = z.record(z.string(), z.unknown());
const StoredDetails = z.array(z.string());

/** A stored request whose JSON fields are not what Regdesk wrote: shown as damaged, never executed. */
export class CorruptApprovalError extends AppError {
  constructor(id: string, field: string) {
    super(
      'regdesk_approval_corrupt',
      `The stored approval request \`${id}\` is damaged, so nothing can be done with it. Ask for the action again.`,
      { message: `approval ${id}: stored ${field} fails its schema` },
    );
  }
}

/** Keep finished requests this long for the audit's context and late button presses. */
const FINISHED_TTL_SECONDS = 30 * 24 * 60 * 60;

export class ApprovalStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #hash(ref: WorkspaceRef, id: string): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'approval', id);
  }

  /** Pending requests of a workspace by creation time (App Home). Same hash tag as the requests. */
  #pending(ref: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'approvals', 'pending');
  }

  static newId(): string {
    return `apr_${randomBytes(8).toString('hex')}`;
  }

  async create(
    request: Omit<ApprovalRequest, 'approvals' | 'state' | 'decidedBy' | 'reason' | 'outcome'>,
  ): Promise<ApprovalRequest> {
    const full: ApprovalRequest = {
      ...request,
      approvals: [],
      state: 'pending',
      decidedBy: '',
      reason: '',
      outcome: '',
    };
    const key = this.#hash(request.workspace, request.id);
    await this.redis
      .multi()
      .hset(key, serialize(full))
      .zadd(this.#pending(request.workspace), request.createdAt, request.id)
      .exec();
    return full;
  }

  /** Undefined when there is no such request; throws `CorruptApprovalError` when it is damaged. */
  async get(ref: WorkspaceRef, id: string): Promise<ApprovalRequest | undefined> {
    if (!/^apr_[0-9a-f]{16}$/.test(id)) return undefined;
    const fields = await this.redis.hgetall(this.#hash(ref, id));
    return fields.state === undefined ? undefined : deserialize(fields);
  }

  async setMessage(ref: WorkspaceRef, id: string, channel: string, ts: string): Promise<void> {
    await this.redis.hset(this.#hash(ref, id), { channel, messageTs: ts });
  }

  async approve(ref: WorkspaceRef, id: string, approver: string, now: number): Promise<ApproveResult> {
    const reply = (await this.redis.eval(
      APPROVE,
      2,
      this.#hash(ref, id),
      this.#pending(ref),
      approver,
      String(now),
      id,
    )) as string[];
    const [kind = 'missing', detail = ''] = reply;
    switch (kind) {
      case 'approved':
      case 'missing':
      case 'expired':
      case 'self':
      case 'duplicate':
        return { kind };
      case 'recorded':
        return { kind: 'recorded', count: Number(detail) };
      default:
        return { kind: 'not_pending', state: detail as ApprovalState };
    }
  }

  /**
   * Move from one of `from` to `to`, setting `fields`, atomically. Returns the state it moved from, or
   * undefined when the request was not in an allowed state (someone else got there first).
   */
  async transition(
    ref: WorkspaceRef,
    id: string,
    from: readonly ApprovalState[],
    to: ApprovalState,
    fields: Partial<Pick<ApprovalRequest, 'decidedBy' | 'reason' | 'outcome'>> = {},
  ): Promise<ApprovalState | undefined> {
    const pairs = Object.entries(fields).flatMap(([key, value]) => [key, String(value)]);
    const key = this.#hash(ref, id);
    const reply = (await this.redis.eval(
      TRANSITION,
      2,
      key,
      this.#pending(ref),
      from.join(','),
      to,
      id,
      ...pairs,
    )) as string[];
    if (reply[0] !== 'ok') return undefined;
    if (FINAL_STATES.includes(to)) await this.redis.expire(key, FINISHED_TTL_SECONDS);
    return reply[1] as ApprovalState;
  }

  /** Pending requests, oldest first; a damaged one is left out rather than hiding all the others. */
  async pending(ref: WorkspaceRef, limit = 20): Promise<ApprovalRequest[]> {
    const ids = await this.redis.zrange(this.#pending(ref), '0', String(limit - 1));
    const requests = await Promise.all(
      ids.map((id) =>
        this.get(ref, id).catch((error: unknown) => {
          if (error instanceof CorruptApprovalError) return undefined;
          throw error;
        }),
      ),
    );
    return requests.filter((request): request is ApprovalRequest => request?.state === 'pending');
  }
}

function serialize(request: ApprovalRequest): Record<string, string> {
  return {
    id: request.id,
    teamId: request.workspace.teamId,
    enterpriseId: request.workspace.enterpriseId ?? '',
    operation: request.operation,
    params: JSON.stringify(request.params),
    paramsHash: request.paramsHash,
    target: request.target,
    summary: request.summary,
    details: JSON.stringify(request.details),
    requester: request.requester,
    channel: request.channel,
    messageTs: request.messageTs,
    createdAt: String(request.createdAt),
    expiresAt: String(request.expiresAt),
    needed: String(request.needed),
    approvals: request.approvals.join(','),
    state: request.state,
    decidedBy: request.decidedBy,
    reason: request.reason,
    outcome: request.outcome,
  };
}

function storedJson<T>(schema: z.ZodType<T>, fields: Record<string, string>, field: string): T {
  const id = fields.id ?? '';
  let json: unknown;
  try {
    json = JSON.parse(fields[field] ?? '');
  } catch {
    throw new CorruptApprovalError(id, field);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new CorruptApprovalError(id, field);
  return parsed.data;
}

function deserialize(fields: Record<string, string>): ApprovalRequest {
  const enterpriseId = fields.enterpriseId ?? '';
  return {
    id: fields.id ?? '',
    workspace:
      enterpriseId === '' ? { teamId: fields.teamId ?? '' } : { teamId: fields.teamId ?? '', enterpriseId },
    operation: fields.operation ?? '',
    params: storedJson(StoredParams, fields, 'params'),
    paramsHash: fields.paramsHash ?? '',
    target: fields.target ?? '',
    summary: fields.summary ?? '',
    details: storedJson(StoredDetails, fields, 'details'),
    requester: fields.requester ?? '',
    channel: fields.channel ?? '',
    messageTs: fields.messageTs ?? '',
    createdAt: Number(fields.createdAt ?? 0),
    expiresAt: Number(fields.expiresAt ?? 0),
    needed: Number(fields.needed ?? 1),
    approvals: (fields.approvals ?? '') === '' ? [] : (fields.approvals ?? '').split(','),
    state: (fields.state ?? 'pending') as ApprovalState,
    decidedBy: fields.decidedBy ?? '',
    reason: fields.reason ?? '',
    outcome: fields.outcome ?? '',
  };
}
