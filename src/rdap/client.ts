import { AddressPolicy, type AllowedRange } from '../dns/addresses.js';
import { type Limiter, type QuotaWindow, withLatencyMargin } from '../shared/limiter.js';
import type { KeySpace, Redis } from '../shared/redis.js';
import { retryAfterMs } from '../shared/retry-after.js';
import { RdapBootstrapFile } from './bootstrap.js';
import { type RdapFacts, rdapFacts } from './facts.js';
import { boundedGet, type HttpFailure, type HttpLimits } from './http.js';
import { RdapDomain } from './schema.js';

/**
 * One domain look-up: a registry's answer is a few kilobytes (RFC 9083 §5.3 with its entities); 10 s
 * is a slow registry's worst; RFC 7480 §5.2 redirects are followed a few hops.
 */
export const RDAP_LIMITS: HttpLimits = { deadlineMs: 10_000, maxBytes: 256 * 1024, maxRedirects: 3 };
/**
 * Questions per RDAP server, shared by every process: registries throttle their RDAP services and
 * publish no numbers, so Regdesk stays far below anything a registry would notice.
 */
export const RDAP_PACE = { max: 5, windowMs: 1_000 } as const;
/** A look-up waiting longer than this for the pace gives up ("could not check"). */
const MAX_PACE_WAIT_MS = 20_000;

/**
 * A registry that answers 429 (RFC 6585 §4) is not asked again before its Retry-After: 5 minutes when
 * it names none, a day at most. Kept per server in Redis, so every process and every domain there waits.
 */
export const RDAP_RETRY = { defaultMs: 5 * 60_000, maxMs: 24 * 3_600_000 } as const;

/** `rate_limited`: the server asked to wait (its failure carries until when); not the server failing. */
export type RdapFailure =
  | HttpFailure
  | 'bootstrap_unavailable'
  | 'status'
  | 'malformed'
  | 'paced'
  | 'rate_limited';

/** Every way a look-up ends; none is "fine" unless the registry answered with the domain. */
export type RdapLookup =
  | { kind: 'found'; facts: RdapFacts }
  /** The registry's RDAP service does not know the name (HTTP 404, RFC 7480 §5.3). */
  | { kind: 'not-found' }
  /** The bootstrap names no RDAP service for the TLD: nothing outside the registrar tells its expiry. */
  | { kind: 'no-service'; tld: string }
  | { kind: 'failed'; failure: Exclude<RdapFailure, 'rate_limited'> }
  /** The server said 429: ask again at `retryAt`, not before. */
  | { kind: 'failed'; failure: 'rate_limited'; retryAt: number };

export interface RdapClientDeps {
  redis: Redis;
  keys: KeySpace;
  limiter: Limiter;
  now: () => number;
  /** RDAP_BOOTSTRAP_URL. */
  bootstrapUrl: string;
  /** LIVE_CHECK_ALLOW: a lab's RDAP servers (the only ones plain HTTP may reach). */
  allowed?: readonly AllowedRange[];
  /** The contract's bounds unless a test shrinks them. */
  limits?: HttpLimits;
}

/**
 * RDAP (RFC 9082 queries, RFC 9083 answers) for domains held at other registrars: the server from
 * IANA's bootstrap (RFC 9224), one bounded GET, the answer checked with zod. Never throws.
 */
export class RdapClient {
  readonly #bootstrap: RdapBootstrapFile;
  readonly #policy: AddressPolicy;
  readonly #limits: HttpLimits;

  constructor(private readonly deps: RdapClientDeps) {
    this.#bootstrap = new RdapBootstrapFile({ ...deps, url: deps.bootstrapUrl });
    this.#policy = new AddressPolicy(deps.allowed);
    this.#limits = deps.limits ?? RDAP_LIMITS;
  }

  /** `name` is ASCII (A-labels), as RFC 9082 §3.1.3 asks. */
  async domain(name: string): Promise<RdapLookup> {
    try {
      return await this.#domain(name);
    } catch {
      // Redis failing under the cache or the pace, or a base URL that is none: no look-up, nothing more.
      return { kind: 'failed', failure: 'network' };
    }
  }

  async #domain(name: string): Promise<RdapLookup> {
    const server = await this.#bootstrap.serverFor(name);
    if (server.kind === 'unavailable') return { kind: 'failed', failure: 'bootstrap_unavailable' };
    if (server.kind === 'none') return { kind: 'no-service', tld: server.tld };
    const url = new URL(`domain/${encodeURIComponent(name)}`, server.baseUrl);
    const host = url.host.toLowerCase();
    const waiting = Number((await this.deps.redis.get(this.#retryKey(host))) ?? 0);
    if (waiting > this.deps.now()) return { kind: 'failed', failure: 'rate_limited', retryAt: waiting };
    if (!(await this.#paced(host))) return { kind: 'failed', failure: 'paced' };
    const answer = await boundedGet(
      url.href,
      { trust: this.#policy, accept: 'application/rdap+json, application/json;q=0.8' },
      this.#limits,
    );
    if (!answer.ok) return { kind: 'failed', failure: answer.failure };
    if (answer.status === 429) {
      const now = this.deps.now();
      const retryAt = now + retryAfterMs(answer.retryAfter, now, RDAP_RETRY);
      await this.deps.redis.set(this.#retryKey(host), String(retryAt), 'PX', retryAt - now);
      return { kind: 'failed', failure: 'rate_limited', retryAt };
    }
    if (answer.status === 404) return { kind: 'not-found' };
    if (answer.status !== 200) return { kind: 'failed', failure: 'status' };
    const domain = parseDomain(answer.body);
    return domain === undefined
      ? { kind: 'failed', failure: 'malformed' }
      : { kind: 'found', facts: rdapFacts(domain) };
  }

  #retryKey(host: string): string {
    return this.deps.keys.key('rdap', 'retry-at', host);
  }

  #paced(host: string): Promise<boolean> {
    const window: QuotaWindow = {
      key: this.deps.keys.key('rdap', 'pace', host),
      max: RDAP_PACE.max,
      windowMs: withLatencyMargin(RDAP_PACE.windowMs),
    };
    return this.deps.limiter.acquireWithin([window], MAX_PACE_WAIT_MS);
  }
}

function parseDomain(body: string): RdapDomain | undefined {
  try {
    const parsed = RdapDomain.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
