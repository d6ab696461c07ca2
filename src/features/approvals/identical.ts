import { createHash } from 'node:crypto';
import { LuaScript, releaseOwn } from '../../shared/lua.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

/**
 * One pending request per person, operation and parameters (docs/requirements.md R34): a second
 * identical request points to the first instead of asking the approvers twice. A key per identity holds
 * the id of the request that claimed it; it lasts as long as that request may wait, and a claim whose
 * request is no longer pending is taken over (compare-and-set, so two re-requests cannot both win).
 */
const TAKE_OVER = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`);

export interface Identity {
  requester: string;
  operation: string;
  paramsHash: string;
}

export function identityKey(keys: KeySpace, ref: WorkspaceRef, identity: Identity): string {
  const digest = createHash('sha256')
    .update(`${identity.requester}|${identity.operation}|${identity.paramsHash}`)
    .digest('hex')
    .slice(0, 32);
  return keys.key(`ws:${workspaceId(ref)}`, 'approvals', 'same', digest);
}

/**
 * Claims the identity for request `id`, or returns the id of the pending request that holds it.
 * `isPending` reads the holder's state.
 */
export async function claimIdentity(
  redis: Redis,
  key: string,
  id: string,
  ttlMs: number,
  isPending: (holder: string) => Promise<boolean>,
): Promise<string | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if ((await redis.set(key, id, 'PX', ttlMs, 'NX')) === 'OK') return undefined;
    const holder = await redis.get(key);
    if (holder === null) continue;
    if (holder === id) return undefined;
    if (await isPending(holder)) return holder;
    if ((await TAKE_OVER.run(redis, 1, key, holder, id, String(ttlMs))) === 1) return undefined;
  }
  // Contended three times over: another identical request is being made at this very moment.
  return (await redis.get(key)) ?? undefined;
}

/** Frees the identity of a request that was never made (its draft rolled back). */
export async function releaseIdentity(redis: Redis, key: string, id: string): Promise<void> {
  await releaseOwn(redis, key, id);
}
