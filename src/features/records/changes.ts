import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DNS_RECORD_TYPES, DnsRecord } from '../../registrar/index.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

/** A record as Regdesk writes it (rules.ts `RecordValue`), kept in requests, changes and buttons. */
export const RecordValue = z.lazy(() =>
  z.object({
    type: z.enum(DNS_RECORD_TYPES),
    name: z.string().min(1).max(254),
    data: z.string().min(1).max(4_000),
    ttl: z.number().int(),
    priority: z.number().int().min(0).max(65_535).optional(),
  }),
);
export type RecordValue = z.infer<typeof RecordValue>;

/** A change as requested: what is added, edited (the record as it was seen) or deleted. */
export const RecordChange = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('add'), after: RecordValue }),
    z.object({ kind: z.literal('edit'), id: z.number().int(), before: RecordValue, after: RecordValue }),
    z.object({ kind: z.literal('delete'), id: z.number().int(), before: RecordValue }),
  ]),
);
export type RecordChange = z.infer<typeof RecordChange>;

/** A change that was made: enough to say what happened, confirm it on the nameservers and revert it. */
export const MadeChange = z.lazy(() =>
  z.object({
    id: z.string(),
    domain: z.string(),
    change: RecordChange,
    /** The record the change created, edited or deleted. */
    recordId: z.number().int(),
    by: z.string(),
    at: z.number(),
    /** The change this one reverted, if it was a Revert. */
    revertOf: z.string().optional(),
    /** The zone's records just before the change (docs/requirements.md R47). */
    before: z.array(DnsRecord),
    /**
     * How long resolvers may still answer from before the change: the largest TTL of the records that
     * were at the name and type, or for a name that had none the zone's negative-caching TTL.
     */
    cacheSeconds: z.number().int().min(0),
  }),
);
export type MadeChange = z.infer<typeof MadeChange>;

/** What a record modal was opened on: the zone's records as read then, so every rule is checked at submission. */
export const RecordDraft = z.lazy(() =>
  z.object({
    domain: z.string(),
    channel: z.string(),
    records: z.array(DnsRecord),
    /** The record being edited or deleted; none for an add. */
    recordId: z.number().int().optional(),
  }),
);
export type RecordDraft = z.infer<typeof RecordDraft>;

/** Kept a quarter: long enough to look back on and revert a change that caused trouble later. */
const CHANGE_TTL_S = 90 * 86_400;
/** A modal left open longer than this is read afresh (the zone has likely changed anyway). */
const DRAFT_TTL_S = 60 * 60;

/** Short and unguessable: it sits in a button's value and names the change in messages. */
const newId = () => randomBytes(6).toString('base64url');

/**
 * The record changes made through Regdesk and the drafts of open record modals, in Redis. A change
 * (or draft) that is gone (expired, or Redis lost it: docs/requirements.md R38) is `undefined`, and its
 * reader says so rather than acting on a guess.
 */
export class RecordChanges {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef, ...parts: string[]): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'records', ...parts);
  }

  async keep(workspace: WorkspaceRef, made: Omit<MadeChange, 'id'>): Promise<MadeChange> {
    const change = MadeChange.parse({ ...made, id: newId() });
    await this.redis.set(
      this.#key(workspace, 'change', change.id),
      JSON.stringify(change),
      'EX',
      CHANGE_TTL_S,
    );
    return change;
  }

  async get(workspace: WorkspaceRef, id: string): Promise<MadeChange | undefined> {
    return parsed(MadeChange, await this.redis.get(this.#key(workspace, 'change', id)));
  }

  async draft(workspace: WorkspaceRef, draft: RecordDraft): Promise<string> {
    const id = newId();
    await this.redis.set(this.#key(workspace, 'draft', id), JSON.stringify(draft), 'EX', DRAFT_TTL_S);
    return id;
  }

  async drafted(workspace: WorkspaceRef, id: string): Promise<RecordDraft | undefined> {
    return parsed(RecordDraft, await this.redis.get(this.#key(workspace, 'draft', id)));
  }
}

function parsed<T>(schema: z.ZodType<T>, raw: string | null): T | undefined {
  if (raw === null) return undefined;
  try {
    const result = schema.safeParse(JSON.parse(raw));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
