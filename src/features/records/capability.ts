import {
  type DnsRecord,
  NotFoundError,
  NotOfferedError,
  type RegistrarClient,
} from '../../registrar/index.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

/** A registrar rarely changes what it offers: one probe an hour per workspace is enough. */
const PROBE_TTL_S = 60 * 60;

/**
 * Whether the registrar lets this workspace's key change records (contract §4: beyond v1.6.2, only
 * after a capability probe). The probe reads one record the zone listing just named by its id
 * (spec addendum §1 #2): a 405, or a 404 for a record that exists, means the record endpoints are not
 * offered. A zone without records, or a probe that failed otherwise, says nothing and is not kept.
 */
export class RecordCapability {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'records', 'offered');
  }

  async offered(
    workspace: WorkspaceRef,
    registrar: RegistrarClient,
    records: readonly DnsRecord[],
  ): Promise<boolean> {
    const known = await this.redis.get(this.#key(workspace));
    if (known !== null) return known === '1';
    const probe = records.find((record) => record.id !== undefined);
    if (probe?.id === undefined) return true;
    let offered: boolean;
    try {
      await registrar.dns.getRecord(probe.id);
      offered = true;
    } catch (error) {
      if (!(error instanceof NotOfferedError || error instanceof NotFoundError)) return true;
      offered = false;
    }
    await this.redis.set(this.#key(workspace), offered ? '1' : '0', 'EX', PROBE_TTL_S);
    return offered;
  }
}
