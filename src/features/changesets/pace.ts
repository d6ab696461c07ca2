import type { RegfishLimits } from '../../config.js';
import type { RegistrarClient } from '../../registrar/index.js';
import { type Limiter, type QuotaWindow, withLatencyMargin } from '../../shared/limiter.js';
import type { KeySpace } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';

/** What pacing a change set's registrar calls needs: the limiter, the DNS window, the key's hash. */
export interface DnsPaceDeps {
  limiter: Pick<Limiter, 'slotWithin'>;
  limits: Pick<RegfishLimits, 'dnsKey'>;
  keys: KeySpace;
  workspaceKeys: { keyHashFor(workspace: WorkspaceRef): Promise<string> };
}

/** The rate window stayed full longer than a job should wait: the job is retried later and resumes. */
export class NoRoomYet extends Error {}

/** How long one call may wait for room in the window before the job hands back and retries. */
const MAX_PACE_WAIT_MS = 90_000;

/** The DNS API's window of the workspace's key (the quota is per key; the key is known by its hash). */
async function dnsWindow(deps: DnsPaceDeps, workspace: WorkspaceRef): Promise<QuotaWindow> {
  const tag = `key:${await deps.workspaceKeys.keyHashFor(workspace)}`;
  return {
    key: deps.keys.key(tag, 'quota', 'dns'),
    max: deps.limits.dnsKey.max,
    windowMs: withLatencyMargin(deps.limits.dnsKey.windowMs),
  };
}

/**
 * The registrar's DNS calls a set makes, each in a slot of the key's window (docs/requirements.md
 * R14, R44): 500 records take at least a minute, and the registrar never answers 429 for pace. Only
 * change sets take slots: single record changes and look-ups are a handful a minute.
 */
export async function pacedDns(deps: DnsPaceDeps, registrar: RegistrarClient, workspace: WorkspaceRef) {
  const window = await dnsWindow(deps, workspace);
  const inSlot = async <T>(call: () => Promise<T>): Promise<T> => {
    const slot = await deps.limiter.slotWithin([window], MAX_PACE_WAIT_MS);
    if (slot === undefined) throw new NoRoomYet('dns_rate_window_full');
    try {
      return await call();
    } finally {
      await slot.settle();
    }
  };
  return {
    records: (domain: string) => inSlot(() => registrar.dns.records(domain)),
    createRecord: (value: Parameters<RegistrarClient['dns']['createRecord']>[0]) =>
      inSlot(() => registrar.dns.createRecord(value)),
    updateRecord: (id: number, value: Parameters<RegistrarClient['dns']['updateRecord']>[1]) =>
      inSlot(() => registrar.dns.updateRecord(id, value)),
    deleteRecord: (id: number) => inSlot(() => registrar.dns.deleteRecord(id)),
  };
}
