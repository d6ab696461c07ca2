import { Cluster } from 'ioredis';
import type { mastersOf, Redis } from './redis.js';

/** How long a write waits for replicas before going on regardless (Redis `WAIT`'s timeout). */
const WAIT_MS = 1_000;
/** How often the number of replicas is asked again: they come and go with fail-overs. */
const RECOUNT_MS = 30_000;

type Node = ReturnType<typeof mastersOf>[number];
const counted = new WeakMap<Node, { replicas: number; at: number }>();

async function replicasOf(node: Node): Promise<number> {
  const known = counted.get(node);
  if (known !== undefined && Date.now() - known.at < RECOUNT_MS) return known.replicas;
  const info = await node.info('replication');
  const replicas = Number(/connected_slaves:(\d+)/.exec(info)?.[1] ?? 0);
  counted.set(node, { replicas, at: Date.now() });
  return replicas;
}

/** The connection that wrote `key`: on a cluster, the master that holds its slot. */
async function writerOf(redis: Redis, key: string): Promise<Node | undefined> {
  if (!(redis instanceof Cluster)) return redis;
  const slot = Number(await redis.cluster('KEYSLOT', key));
  const [address] = redis.slots[slot] ?? [];
  return redis.nodes('master').find((node) => `${node.options.host}:${node.options.port}` === address);
}

/**
 * Waits (up to 1 s) until the replicas hold this connection's writes so far, `key`'s included.
 * Replication is asynchronous: a Sentinel or cluster fail-over loses what the old master had not
 * passed on, and a lost "delivered" mark means a second answer. Called after the few writes that
 * guard an effect outside Redis; without replicas it costs nothing.
 */
export async function waitForReplicas(redis: Redis, key: string): Promise<void> {
  const node = await writerOf(redis, key);
  if (node === undefined) return;
  const replicas = await replicasOf(node);
  if (replicas > 0) await node.wait(replicas, WAIT_MS);
}
