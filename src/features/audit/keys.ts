import type { KeySpace } from '../../shared/redis.js';

/** One chain's keys: its stream, its head (`position:hash` of the newest entry), its anchor (of the newest trimmed). */
export interface ChainKeys {
  stream: string;
  head: string;
  anchor: string;
}

/**
 * Every key of a workspace's trail, all under its `{ws:<id>}` hash tag, so one script touches them
 * together on Redis Cluster too: the trail, the refusals (a chain of their own, as they are trimmed on
 * their own), the counter shared by both, and the outbox the sinks are fed from.
 */
export interface TrailKeys {
  trail: ChainKeys;
  refusals: ChainKeys;
  seq: string;
  outbox: string;
}

/** `workspace` as `workspaceId` gives it (`-:T123`, `E1:T123`). */
export function trailKeys(keys: KeySpace, workspace: string): TrailKeys {
  const tag = `ws:${workspace}`;
  const chain = (...stream: string[]): ChainKeys => ({
    stream: keys.key(tag, ...stream),
    head: keys.key(tag, ...stream, 'head'),
    anchor: keys.key(tag, ...stream, 'anchor'),
  });
  return {
    trail: chain('audit'),
    refusals: chain('audit', 'refusals'),
    seq: keys.key(tag, 'audit', 'seq'),
    outbox: keys.key(tag, 'audit', 'outbox'),
  };
}

/**
 * Keys of no workspace: the workspaces whose outbox has had entries (a sorted set scored by the time of
 * their latest entry), and the lease of the one process that delivers.
 */
export function outboxKeys(keys: KeySpace): { workspaces: string; lease: string } {
  return { workspaces: keys.key('audit-outbox', 'workspaces'), lease: keys.key('audit-outbox', 'lease') };
}
