import { setTimeout as sleep } from 'node:timers/promises';
import { Lease } from '../../shared/lease.js';
import type { Logger } from '../../shared/logger.js';
import type { Metrics } from '../../shared/metrics.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { outboxKeys } from './keys.js';
import { AuditOutbox, type OutboxItem } from './outbox.js';
import type { AuditSink } from './sink.js';

/** Retries of one entry wait 1 s, 2 s, 4 s … up to 5 min (with jitter) while a receiver is down. */
export const BACKOFF = { firstMs: 1_000, maxMs: 300_000 };

/** Entries read per XREADGROUP: delivered one at a time, in order. */
const BATCH = 100;

export interface DeliveryOptions {
  redis: Redis;
  keys: KeySpace;
  sinks: readonly AuditSink[];
  logger: Logger;
  metrics: Pick<Metrics, 'auditDeliveryFailures'>;
  /** Retry waits (tests make them short). */
  backoff?: { firstMs: number; maxMs: number };
  /** How often recently written workspaces are looked at. */
  pollMs?: number;
  /** How often every listed workspace is (a workspace written while its listing was late is found then). */
  sweepMs?: number;
  /** The lease's time to live; another process takes over this long after a holder dies. */
  leaseMs?: number;
}

/** The pause before retry `attempt` (0, 1, …): doubling from `firstMs`, capped, with "equal jitter". */
export function backoffDelay(attempt: number, backoff: { firstMs: number; maxMs: number }): number {
  const full = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.min(attempt, 30));
  return full / 2 + Math.random() * (full / 2);
}

/**
 * Delivers audit entries from the workspaces' outboxes to the sinks (docs/requirements.md R52): at
 * least once, in order per workspace, across restarts and receiver outages.
 * - One process at a time delivers (a lease); the others wait to take over.
 * - Each sink reads through a consumer group of its own, so one sink's outage does not hold the other
 *   back. An entry is acknowledged only once its sink took it; it is retried, and nothing after it is
 *   sent, until then. Entries read but not acknowledged before a stop are read again first (`0`).
 * - Each outbox is trimmed up to what every group has acknowledged.
 */
export class AuditDelivery {
  readonly #options: DeliveryOptions;
  readonly #outbox: AuditOutbox;
  readonly #lease: Lease;
  readonly #stop = new AbortController();
  #running: Promise<void> | undefined;

  constructor(options: DeliveryOptions) {
    this.#options = options;
    this.#outbox = new AuditOutbox(
      options.redis,
      options.keys,
      options.sinks.map((sink) => sink.name),
    );
    this.#lease = new Lease(options.redis, outboxKeys(options.keys).lease, options.leaseMs ?? 30_000);
  }

  start(): this {
    this.#running ??= this.#run();
    return this;
  }

  /** Stops at once (a delivery under way is abandoned, and sent again later), then frees the lease. */
  async close(): Promise<void> {
    this.#stop.abort();
    await this.#running;
    await this.#lease.release().catch(() => undefined);
    await Promise.all(this.#options.sinks.map((sink) => sink.close()));
  }

  async #run(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      try {
        if (await this.#lease.acquire()) await this.#holding();
      } catch (error) {
        this.#warn(error, 'audit delivery: lease');
      }
      await this.#pause(this.#lease.ttlMs / 3, signal);
    }
  }

  /** Delivers while the lease is held; returns once it is lost or the deliverer stops. */
  async #holding(): Promise<void> {
    const lost = new AbortController();
    const signal = AbortSignal.any([this.#stop.signal, lost.signal]);
    const renewal = setInterval(() => {
      this.#lease.renew().then(
        (held) => {
          if (!held) lost.abort();
        },
        // Redis unreachable: the loops fail too; the lease lapses unless renewed in time.
        () => undefined,
      );
    }, this.#lease.ttlMs / 3);
    try {
      await Promise.all(this.#options.sinks.map((sink) => this.#feed(sink, signal)));
    } finally {
      clearInterval(renewal);
    }
  }

  /** One sink's loop: the recently written outboxes every poll, all of them every sweep. */
  async #feed(sink: AuditSink, signal: AbortSignal): Promise<void> {
    const pollMs = this.#options.pollMs ?? 1_000;
    const sweepMs = this.#options.sweepMs ?? 60_000;
    let sweptAt = Number.NEGATIVE_INFINITY;
    let polledAt = Number.NEGATIVE_INFINITY;
    // Outboxes whose entries left unacknowledged by an earlier holder were read again.
    const recovered = new Set<string>();
    while (!signal.aborted) {
      const startedAt = Date.now();
      try {
        const sweep = startedAt - sweptAt >= sweepMs;
        // A minute's look-back covers an append still in flight when its workspace was listed.
        const listed = await this.#outbox.workspaces(sweep ? undefined : polledAt - 60_000);
        if (sweep) sweptAt = startedAt;
        polledAt = startedAt;
        for (const { workspace, touched } of listed) {
          if (signal.aborted) return;
          if (!(await this.#outbox.prepare(workspace, touched))) continue;
          await this.#drain(sink, workspace, recovered.has(workspace) ? '>' : '0', signal);
          if (!signal.aborted) recovered.add(workspace);
        }
      } catch (error) {
        this.#warn(error, 'audit delivery: outbox');
      }
      await this.#pause(pollMs, signal);
    }
  }

  /** Delivers a workspace's outbox to one sink, oldest first, then trims what every sink has had. */
  async #drain(sink: AuditSink, workspace: string, first: '0' | '>', signal: AbortSignal): Promise<void> {
    let from = first;
    let delivered = 0;
    while (!signal.aborted) {
      const batch = await this.#outbox.read(workspace, sink.name, from, BATCH);
      if (batch.length === 0) {
        if (from === '>') break;
        from = '>';
        continue;
      }
      for (const item of batch) {
        if (!(await this.#deliver(sink, item, signal))) return;
        await this.#outbox.ack(workspace, sink.name, item.outboxId);
        delivered++;
      }
    }
    if (delivered > 0) await this.#outbox.trim(workspace);
  }

  /** Sends one entry until its sink takes it; false when stopped first. */
  async #deliver(sink: AuditSink, item: OutboxItem, signal: AbortSignal): Promise<boolean> {
    const entry = item.entry;
    // An outbox entry removed by hand has nothing left to send.
    if (entry === undefined) return true;
    const backoff = this.#options.backoff ?? BACKOFF;
    for (let attempt = 0; !signal.aborted; attempt++) {
      const result = await sink.send(item.workspace, entry, signal);
      if (result.ok) return true;
      if (signal.aborted) return false;
      this.#options.metrics.auditDeliveryFailures.inc({ sink: sink.name });
      const waitMs = backoffDelay(attempt, backoff);
      this.#options.logger.warn(
        {
          sink: sink.name,
          entry: entry.id,
          reason: result.reason,
          attempt: attempt + 1,
          retryInMs: Math.round(waitMs),
        },
        'audit delivery failed; retrying',
      );
      await this.#pause(waitMs, signal);
    }
    return false;
  }

  /** Waits `ms`, or less when `signal` aborts. */
  async #pause(ms: number, signal: AbortSignal): Promise<void> {
    await sleep(ms, undefined, { signal }).catch(() => undefined);
  }

  #warn(error: unknown, message: string): void {
    this.#options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, message);
  }
}
