import { randomBytes } from 'node:crypto';
import { currentEpoch } from '../../shared/integrity.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import { claimIdentity, type Identity, identityKey, releaseIdentity } from './identical.js';
import {
  type ApprovalRequest,
  type ApprovalState,
  CorruptApprovalError,
  deserialize,
  FINAL_STATES,
  type MessageCopy,
  serialize,
} from './record.js';
import { APPROVE, REMIND_ONCE, RESERVE, SET_IF_EXISTS, SHOW, TRANSITION } from './store-scripts.js';

/** Readers of requests (App Home) take the type from the store they read them from. */
export type { ApprovalRequest } from './record.js';

export type ApproveResult =
  | { kind: 'approved' }
  | { kind: 'recorded'; count: number }
  | { kind: 'missing' }
  | { kind: 'not_pending'; state: ApprovalState }
  | { kind: 'expired' }
  | { kind: 'self' }
  | { kind: 'duplicate' };

/**
 * docs/requirements.md R34: one person's pending requests per workspace are capped, so a flood of
 * requests (a script, a stuck key) cannot bury everyone else's in the approvers' channel and DMs.
 * Five is more than a person waits on at once in practice.
 */
export const MAX_PENDING_PER_REQUESTER = 5;

/** Keep finished requests this long for the audit's context and late button presses. */
const FINISHED_TTL_SECONDS = 30 * 24 * 60 * 60;
/** A request whose message was never posted (a crash between the two) vanishes by itself. */
const DRAFT_TTL_SECONDS = 15 * 60;

export class ApprovalStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #hash(ref: WorkspaceRef, id: string): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'approval', id);
  }

  /** The key a request's claim is written to (what `ClaimDurability.confirm` waits for). */
  keyOf(ref: WorkspaceRef, id: string): string {
    return this.#hash(ref, id);
  }

  /** Pending requests of a workspace by creation time (App Home). Same hash tag as the requests. */
  #pending(ref: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'approvals', 'pending');
  }

  /** One requester's places among the pending requests (R34). Same hash tag as the requests. */
  #mine(ref: WorkspaceRef, requester: string): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'approvals', 'by', requester);
  }

  /** The requester's hash field, which never changes: where their place is freed. */
  async #mineOf(ref: WorkspaceRef, id: string): Promise<string | undefined> {
    const requester = await this.redis.hget(this.#hash(ref, id), 'requester');
    return requester === null ? undefined : this.#mine(ref, requester);
  }

  static newId(): string {
    return `apr_${randomBytes(8).toString('hex')}`;
  }

  /**
   * A draft: stored so that buttons work the moment its message appears, but not listed as pending
   * and short-lived until `show` records the message (docs/requirements.md R30).
   */
  async create(
    request: Omit<
      ApprovalRequest,
      | 'messageTs'
      | 'copies'
      | 'approvals'
      | 'state'
      | 'decidedBy'
      | 'reason'
      | 'outcome'
      | 'epoch'
      | 'askedAdmins'
      | 'namedApprovers'
      | 'justification'
      | 'breakGlass'
      | 'basis'
    > &
      Partial<
        Pick<ApprovalRequest, 'askedAdmins' | 'namedApprovers' | 'justification' | 'breakGlass' | 'basis'>
      >,
    /** 'approved' for a class the policy runs at once (approvals: 0): it executes without buttons. */
    state: Extract<ApprovalState, 'pending' | 'approved'> = 'pending',
  ): Promise<ApprovalRequest> {
    const full: ApprovalRequest = {
      askedAdmins: false,
      namedApprovers: [],
      justification: '',
      breakGlass: false,
      basis: 'class',
      ...request,
      // Read fresh, not from a process's last check: a request made after an incident must not be
      // stamped with the epoch before it.
      epoch: await currentEpoch(this.redis, this.keys),
      messageTs: '',
      copies: [],
      approvals: [],
      state,
      decidedBy: state === 'approved' ? 'regdesk' : '',
      reason: '',
      outcome: '',
    };
    const key = this.#hash(request.workspace, request.id);
    await this.redis.multi().hset(key, serialize(full)).expire(key, DRAFT_TTL_SECONDS).exec();
    return full;
  }

  /**
   * Takes one of the requester's `MAX_PENDING_PER_REQUESTER` places for request `id` before anything
   * is stored or posted (false when all are taken). It lasts as long as a draft until `show`.
   */
  async reserve(ref: WorkspaceRef, requester: string, id: string, now: number): Promise<boolean> {
    const until = now + DRAFT_TTL_SECONDS * 1000;
    const args = [String(now), String(until), id, String(MAX_PENDING_PER_REQUESTER)];
    return (await RESERVE.run(this.redis, 1, this.#mine(ref, requester), ...args)) === 1;
  }

  /**
   * Claims "this person asks for this operation with these parameters" for request `id` (R34): the id of
   * an identical request still pending, or undefined when `id` holds the claim now.
   */
  async claimIdentical(
    ref: WorkspaceRef,
    identity: Identity,
    id: string,
    ttlMs: number,
  ): Promise<string | undefined> {
    return claimIdentity(this.redis, identityKey(this.keys, ref, identity), id, ttlMs, async (holder) => {
      const state = await this.redis.hget(this.#hash(ref, holder), 'state');
      return state === 'pending';
    });
  }

  async releaseIdentical(ref: WorkspaceRef, identity: Identity, id: string): Promise<void> {
    await releaseIdentity(this.redis, identityKey(this.keys, ref, identity), id);
  }

  /** Gives back a place taken for a request that was never made. */
  async release(ref: WorkspaceRef, requester: string, id: string): Promise<void> {
    await this.redis.zrem(this.#mine(ref, requester), id);
  }

  /** The request's message is posted: keep it and list it (false when the draft is gone). */
  async show(request: ApprovalRequest, ts: string): Promise<boolean> {
    const shown = await SHOW.run(
      this.redis,
      3,
      this.#hash(request.workspace, request.id),
      this.#pending(request.workspace),
      this.#mine(request.workspace, request.requester),
      ts,
      String(request.createdAt),
      request.id,
      String(request.expiresAt),
    );
    return shown === 1;
  }

  /** Rolls back a request that could not be shown, its requester's place included. */
  async discard(request: ApprovalRequest): Promise<void> {
    const { workspace, id } = request;
    await this.redis
      .multi()
      .del(this.#hash(workspace, id))
      .zrem(this.#pending(workspace), id)
      .zrem(this.#mine(workspace, request.requester), id)
      .exec();
  }

  async setCopies(ref: WorkspaceRef, id: string, copies: readonly MessageCopy[]): Promise<void> {
    await SET_IF_EXISTS.run(this.redis, 1, this.#hash(ref, id), 'copies', JSON.stringify(copies));
  }

  /** True for the one caller that may send the reminder of a still pending request. */
  async claimReminder(ref: WorkspaceRef, id: string): Promise<boolean> {
    return (await REMIND_ONCE.run(this.redis, 1, this.#hash(ref, id))) === 1;
  }

  /** Undefined when there is no such request; throws `CorruptApprovalError` when it is damaged. */
  async get(ref: WorkspaceRef, id: string): Promise<ApprovalRequest | undefined> {
    if (!/^apr_[0-9a-f]{16}$/.test(id)) return undefined;
    const fields = await this.redis.hgetall(this.#hash(ref, id));
    return fields.state === undefined ? undefined : deserialize(fields);
  }

  async approve(ref: WorkspaceRef, id: string, approver: string, now: number): Promise<ApproveResult> {
    const mine = await this.#mineOf(ref, id);
    if (mine === undefined) return { kind: 'missing' };
    const reply = (await APPROVE.run(
      this.redis,
      3,
      this.#hash(ref, id),
      this.#pending(ref),
      mine,
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
    const mine = await this.#mineOf(ref, id);
    if (mine === undefined) return undefined;
    const reply = (await TRANSITION.run(
      this.redis,
      3,
      key,
      this.#pending(ref),
      mine,
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
