import { z } from 'zod';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

export const OwnRecord = z.lazy(() =>
  z.object({
    id: z.number().int(),
    zone: z.string(),
    name: z.string(),
    value: z.string(),
  }),
);
export type OwnRecord = z.infer<typeof OwnRecord>;

const Published = z.lazy(() => z.object({ records: z.array(OwnRecord) }));

/** What marks a record at the registrar as Regdesk's, for one certificate (contract §3). */
export const annotationFor = (certificateId: string) => `managed by Regdesk; certificate_id=${certificateId}`;

/** Longer than any validation (30 days): the cleanup after issuance still finds what it wrote. */
const TTL_S = 40 * 86_400;

/**
 * The records Regdesk created, per certificate, and the set of their ids per workspace: what
 * "Regdesk's own" means. Only these are ever replaced or deleted; a record with the same name that is
 * not in here belongs to someone else (docs/requirements.md R46).
 */
export class PublishedRecords {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef, ...parts: string[]): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'publish', ...parts);
  }

  async owned(workspace: WorkspaceRef): Promise<Set<number>> {
    return new Set((await this.redis.smembers(this.#key(workspace, 'owned'))).map(Number));
  }

  async of(workspace: WorkspaceRef, certificateId: string): Promise<OwnRecord[]> {
    const raw = await this.redis.get(this.#key(workspace, 'cert', certificateId));
    if (raw === null) return [];
    try {
      const parsed = Published.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data.records : [];
    } catch {
      return [];
    }
  }

  /** Adds records Regdesk just created (and forgets `replaced`, which it just deleted). */
  async add(
    workspace: WorkspaceRef,
    certificateId: string,
    added: readonly OwnRecord[],
    replaced: readonly number[],
  ) {
    const gone = new Set(replaced);
    const records = [...(await this.of(workspace, certificateId)).filter((r) => !gone.has(r.id)), ...added];
    const owned = this.#key(workspace, 'owned');
    const transaction = this.redis
      .multi()
      .set(this.#key(workspace, 'cert', certificateId), JSON.stringify({ records }), 'EX', TTL_S);
    if (added.length > 0) transaction.sadd(owned, ...added.map((record) => String(record.id)));
    if (replaced.length > 0) transaction.srem(owned, ...replaced.map(String));
    await transaction.expire(owned, TTL_S).exec();
  }

  /** After the cleanup: the certificate's records are gone. */
  async forget(workspace: WorkspaceRef, certificateId: string, ids: readonly number[]): Promise<void> {
    const transaction = this.redis.multi().del(this.#key(workspace, 'cert', certificateId));
    if (ids.length > 0) transaction.srem(this.#key(workspace, 'owned'), ...ids.map(String));
    await transaction.exec();
  }
}
