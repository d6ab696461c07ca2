import { createHash } from 'node:crypto';
import type { AuditSettings } from '../../config.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import { appendChained } from './append.js';
import { type ChainSource, type ChainVerdict, parseLink, verifyChain } from './chain.js';
import { type AuditEntry, fieldRecord, inOrder, type StoredAuditEntry, toEntry } from './entry.js';
import { type ChainKeys, outboxKeys, type TrailKeys, trailKeys } from './keys.js';

export type { AuditAction, AuditEntry, StoredAuditEntry } from './entry.js';

const PAGE = 500;

/** Default retention (contract §2 AUDIT_RETENTION_DAYS). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 400;

/**
 * Refusals kept per workspace, newest first, whatever their age: anyone can cause refusals (a script
 * pressing buttons), so their trail is capped by count on its own and never pushes requests,
 * decisions and executions out of the trail. 10,000 is weeks of a busy workspace's honest refusals,
 * and about 2 MB of Redis at most.
 */
export const REFUSALS_KEPT = 10_000;

export interface AuditLogOptions extends Partial<AuditSettings> {
  /** Refusals kept (REFUSALS_KEPT unless a test asks for fewer). */
  refusalsKept?: number;
  /** The clock of `at` and of the retention cutoff (tests move it). */
  now?: () => number;
  /** Told of every entry once it is stored (the approvals-by-state metric counts from here). */
  observe?: (entry: AuditEntry) => void;
}

/** Both chains of a workspace, as `regdesk audit verify` found them. */
export interface TrailVerdict {
  trail: ChainVerdict;
  refusals: ChainVerdict;
}

/**
 * SHA-256 of an operation's parameters in canonical JSON (keys sorted at every depth, so nested
 * values such as DS records count): proves what was approved without storing values.
 */
export function hashParams(params: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(params)).digest('hex');
}

/**
 * Append-only audit trail: one Redis stream per workspace, and one of its refusals, each a hash chain
 * (docs/requirements.md R52, chain.ts). Entries are never edited; entries older than the retention
 * are trimmed as new ones are written. Nothing secret is ever passed in (callers give hashes and ids,
 * R12). With sinks configured, every entry also goes to the workspace's outbox (outbox.ts).
 */
export class AuditLog {
  readonly #options: AuditLogOptions;
  /** This instance's appends run one at a time per chain: they would only race each other's compare-and-set. */
  readonly #tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
    options: AuditLogOptions = {},
  ) {
    this.#options = options;
  }

  /** Whether entries also go to the outbox: a webhook or syslog is configured. */
  get feedsOutbox(): boolean {
    return this.#options.webhook !== undefined || this.#options.syslog !== undefined;
  }

  #keys(ref: WorkspaceRef): TrailKeys {
    return trailKeys(this.keys, workspaceId(ref));
  }

  async append(ref: WorkspaceRef, entry: AuditEntry): Promise<string> {
    const keys = this.#keys(ref);
    const chain = entry.action === 'refuse' ? 'refusals' : 'trail';
    const workspace = workspaceId(ref);
    const id = await this.#serially(keys[chain].stream, async () => {
      // Listed before the entry exists, so the deliverer never misses an outbox (keys.ts outboxKeys).
      if (this.feedsOutbox) await this.redis.zadd(outboxKeys(this.keys).workspaces, Date.now(), workspace);
      return appendChained(this.redis, keys, chain, entry, {
        retentionDays: this.#options.retentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS,
        refusalsKept: this.#options.refusalsKept ?? REFUSALS_KEPT,
        outboxAs: this.feedsOutbox ? workspace : undefined,
        now: this.#options.now ?? Date.now,
      });
    });
    this.#options.observe?.(entry);
    return id;
  }

  #serially<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (this.#tails.get(key) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return run;
  }

  /**
   * After an uninstall the trail outlives everything else of the workspace for `keepMs`
   * (docs/requirements.md R36): its keys are the last that expire.
   */
  async retainAfterUninstall(ref: WorkspaceRef, keepMs: number): Promise<void> {
    for (const key of this.streamKeys(ref)) await this.redis.pexpire(key, keepMs);
  }

  /**
   * The keys of the workspace's trail, which a purge of the workspace leaves in place: the trail, the
   * refusals and the counter first, then each chain's head and anchor, then the outbox.
   */
  streamKeys(ref: WorkspaceRef): string[] {
    const { trail, refusals, seq, outbox } = this.#keys(ref);
    return [
      trail.stream,
      refusals.stream,
      seq,
      trail.head,
      trail.anchor,
      refusals.head,
      refusals.anchor,
      outbox,
    ];
  }

  /** Newest first, refusals among the rest; with `target`, only entries about that domain or certificate. */
  async latest(
    ref: WorkspaceRef,
    options: { limit?: number; target?: string } = {},
  ): Promise<StoredAuditEntry[]> {
    const limit = options.limit ?? 20;
    const { trail, refusals } = this.#keys(ref);
    const each = await Promise.all(
      [trail.stream, refusals.stream].map((stream) => this.#latestOf(stream, limit, options.target)),
    );
    return each
      .flat()
      .sort((a, b) => inOrder(b, a))
      .slice(0, limit);
  }

  async #latestOf(stream: string, limit: number, target: string | undefined): Promise<StoredAuditEntry[]> {
    const out: StoredAuditEntry[] = [];
    let end = '+';
    // Unfiltered, the newest `limit` entries are all there is to read, however long the trail; a
    // filter pages backwards until enough entries match or the stream is exhausted.
    const count = target === undefined ? limit : 200;
    for (let page = 0; page < 50 && out.length < limit; page++) {
      const rows = await this.redis.xrevrange(stream, end, '-', 'COUNT', count);
      for (const [id, flat] of rows) {
        const entry = toEntry(id, flat);
        if (target === undefined || entry.target === target) out.push(entry);
        if (out.length >= limit) break;
      }
      const last = rows.at(-1);
      if (rows.length < count || last === undefined) break;
      end = `(${last[0]}`;
    }
    return out;
  }

  /**
   * The whole trail, oldest first, refusals merged in (an export never holds more than a page of each);
   * with `since` (ms), only entries written then or later.
   */
  async *all(ref: WorkspaceRef, options: { since?: number } = {}): AsyncGenerator<StoredAuditEntry> {
    const { trail, refusals } = this.#keys(ref);
    const since = options.since ?? Number.NEGATIVE_INFINITY;
    const main = this.#pages(trail.stream);
    const refused = this.#pages(refusals.stream);
    let a = await main.next();
    let b = await refused.next();
    while (!a.done || !b.done) {
      let next: StoredAuditEntry;
      if (b.done || (!a.done && inOrder(a.value, b.value) <= 0)) {
        next = a.value as StoredAuditEntry;
        a = await main.next();
      } else {
        next = b.value;
        b = await refused.next();
      }
      if (next.at >= since) yield next;
    }
  }

  async *#pages(stream: string): AsyncGenerator<StoredAuditEntry> {
    for await (const [id, flat] of this.#rows(stream)) yield toEntry(id, flat);
  }

  /** A stream's entries oldest first, a page at a time (the `first` page when it was read already). */
  async *#rows(stream: string, first?: Array<[string, string[]]>): AsyncGenerator<[string, string[]]> {
    let rows = first ?? (await this.redis.xrange(stream, '-', '+', 'COUNT', PAGE));
    for (;;) {
      yield* rows;
      const last = rows.at(-1);
      if (rows.length < PAGE || last === undefined) return;
      rows = await this.redis.xrange(stream, `(${last[0]}`, '+', 'COUNT', PAGE);
    }
  }

  /** Checks both chains of the workspace's trail (`regdesk audit verify`, chain.ts). */
  async verify(ref: WorkspaceRef): Promise<TrailVerdict> {
    const { trail, refusals } = this.#keys(ref);
    return {
      trail: await verifyChain(await this.#chainSource(trail)),
      refusals: await verifyChain(await this.#chainSource(refusals)),
    };
  }

  async #chainSource(chain: ChainKeys): Promise<ChainSource> {
    // The anchor, the head and the oldest entries in one transaction (one slot): a trim between them
    // would otherwise look like a missing entry.
    const replies = await this.redis
      .multi()
      .get(chain.anchor)
      .get(chain.head)
      .xrange(chain.stream, '-', '+', 'COUNT', PAGE)
      .exec();
    if (replies === null) throw new Error(`reading ${chain.stream} was aborted`);
    const failed = replies.find(([error]) => error !== null);
    if (failed?.[0]) throw failed[0];
    const [[, anchor], [, head], [, first]] = replies as [
      [null, string | null],
      [null, string | null],
      [null, Array<[string, string[]]>],
    ];
    const rows = this.#rows(chain.stream, first);
    return {
      anchor: parseLink(anchor),
      head: parseLink(head),
      rows: (async function* () {
        for await (const [id, flat] of rows) yield { id, fields: fieldRecord(flat) };
      })(),
      currentAnchor: async () => parseLink(await this.redis.get(chain.anchor)),
    };
  }

  async deleteWorkspace(ref: WorkspaceRef): Promise<void> {
    await this.redis.del(...this.streamKeys(ref));
    await this.redis.zrem(outboxKeys(this.keys).workspaces, workspaceId(ref));
  }
}
