import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { Cluster, type Redis as SingleRedis } from 'ioredis';
import { text } from '../text/index.js';
import { AppError } from './app-error.js';
import type { Logger } from './logger.js';
import type { Redis } from './redis.js';

/**
 * docs/requirements.md R40: an approval's claim (approved → executing) is durable before the registrar
 * is called, so a Redis that loses its last writes cannot hand the same approval to a second run.
 *
 * How, per server (asked once per node, again after a failure):
 * - Redis 7.2+ with an append-only file: `WAITAOF 1 0` — the write is fsynced on the master;
 * - replicas connected: `WAIT 1` as well — a fail-over keeps it;
 * - neither (Debian's Redis 7.0 on one node has no WAITAOF, and no replica to WAIT for): a claim file
 *   in this host's data directory, created exclusively and fsynced (file and folder) before the call.
 *   A run that finds the file knows the claim was made here before, whatever Redis says now. What is
 *   left: a claim lost by Redis and retried by a worker on ANOTHER host runs again there (the file is
 *   local); run workers on one host, or give Redis an append-only file on 7.2+ or a replica.
 * `WAIT`/`WAITAOF` cover the writes of the connection they are sent on, so the marker write and the
 * wait go through a connection of their own, to the node that holds the claim: the marker lands in
 * the node's append-only file and replication stream after the claim, and is durable only once the
 * claim is. The wait never blocks the request path's shared connection.
 */

export class ClaimNotDurableError extends AppError {
  constructor(cause?: unknown) {
    super('regdesk_claim_not_durable', () => text.slack.claimNotDurable, { cause });
  }
}

interface NodeAbilities {
  waitAof: boolean;
  replicas: number;
}

const WAIT_MS = 3_000;
/** Claim files older than this are pruned at start: a request never runs that long after its claim. */
const KEEP_CLAIM_FILES_MS = 40 * 24 * 60 * 60 * 1000;

export class ClaimDurability {
  readonly #connections = new Map<string, { conn: SingleRedis; abilities?: NodeAbilities }>();

  constructor(
    private readonly redis: Redis,
    private readonly journalDir: string,
    private readonly logger: Logger,
  ) {}

  /** A claim of `key` made on this host before (its claim file exists). */
  claimedHere(key: string): boolean {
    return existsSync(this.#file(key));
  }

  /**
   * Makes the write that `key` just received durable (see above). Throws `ClaimNotDurableError` when
   * neither the server nor the claim file can vouch for it.
   */
  async confirm(key: string): Promise<void> {
    let confirmed = false;
    try {
      confirmed = await this.#serverConfirms(key);
    } catch (error) {
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'Redis did not confirm a claim durable; writing a local claim file',
      );
    }
    try {
      this.#writeClaimFile(key);
    } catch (error) {
      if (confirmed) return;
      this.logger.error(
        { claim: key, err: error instanceof Error ? error.message : String(error) },
        'claim not durable: no server confirmation and no claim file',
      );
      throw new ClaimNotDurableError(error);
    }
  }

  async #serverConfirms(key: string): Promise<boolean> {
    const node = await this.#nodeFor(key);
    node.abilities ??= await abilitiesOf(node.conn);
    const { abilities, conn } = node;
    if (!abilities.waitAof && abilities.replicas === 0) return false;
    try {
      // The marker shares the claim's hash tag, so it lands on the same node, after the claim.
      await conn.incr(`${key}:durable`);
      await conn.pexpire(`${key}:durable`, 60_000);
      if (abilities.waitAof) {
        const [local = 0] = (await conn.call('WAITAOF', '1', '0', String(WAIT_MS))) as number[];
        if (local < 1) return false;
      }
      if (abilities.replicas > 0) {
        const acknowledged = (await conn.call('WAIT', '1', String(WAIT_MS))) as number;
        if (acknowledged < 1) return false;
      }
      return true;
    } catch (error) {
      delete node.abilities;
      throw error;
    }
  }

  async #nodeFor(key: string): Promise<{ conn: SingleRedis; abilities?: NodeAbilities }> {
    const source = this.redis instanceof Cluster ? await masterOfKey(this.redis, key) : this.redis;
    const name = `${source.options.host}:${source.options.port}:${source.options.name ?? ''}`;
    let node = this.#connections.get(name);
    if (node === undefined) {
      // Its own timeout: the request path's 2.5 s would cut a WAIT short.
      const conn = source.duplicate({
        connectionName: 'regdesk-durable',
        enableOfflineQueue: true,
        commandTimeout: WAIT_MS + 2_000,
      });
      conn.on('error', (error) => this.logger.warn({ err: error.message }, 'redis (durable) error'));
      node = { conn };
      this.#connections.set(name, node);
    }
    return node;
  }

  #file(claim: string): string {
    return join(this.journalDir, claim.replace(/[^A-Za-z0-9_.-]/g, '_'));
  }

  #writeClaimFile(claim: string): void {
    mkdirSync(this.journalDir, { recursive: true, mode: 0o700 });
    let fd: number;
    try {
      fd = openSync(this.#file(claim), 'wx', 0o600);
    } catch (error) {
      // Already there: made by an earlier run of this claim, which is durable already.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
      throw error;
    }
    try {
      writeSync(fd, `${new Date().toISOString()}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // The new name is durable only once its folder is.
    const dir = openSync(this.journalDir, 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }

  /** Drops claim files past any request's lifetime (at start). */
  prune(now: number): void {
    if (!existsSync(this.journalDir)) return;
    for (const name of readdirSync(this.journalDir)) {
      const path = join(this.journalDir, name);
      if (now - statSync(path).mtimeMs > KEEP_CLAIM_FILES_MS) unlinkSync(path);
    }
  }

  async close(): Promise<void> {
    for (const { conn } of this.#connections.values()) conn.disconnect();
    this.#connections.clear();
  }
}

async function abilitiesOf(conn: SingleRedis): Promise<NodeAbilities> {
  const info = await conn.info();
  const field = (name: string) => new RegExp(`^${name}:(\\S*)`, 'm').exec(info)?.[1] ?? '';
  const [major = 0, minor = 0] = field('redis_version').split('.').map(Number);
  return {
    waitAof: field('aof_enabled') === '1' && (major > 7 || (major === 7 && minor >= 2)),
    // Replicas still syncing acknowledge nothing; only those online count.
    replicas: (info.match(/^slave\d+:.*state=online/gm) ?? []).length,
  };
}

/** The master connection that serves `key`'s slot. */
async function masterOfKey(cluster: Cluster, key: string): Promise<SingleRedis> {
  const slot = (await cluster.call('CLUSTER', 'KEYSLOT', key)) as number;
  const owner = cluster.slots[slot]?.[0];
  const node = cluster.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === owner);
  if (node === undefined) throw new Error(`no master known for slot ${slot}`);
  return node;
}
