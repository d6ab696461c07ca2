import { z } from 'zod';
import type { KeySpace, Redis } from '../shared/redis.js';
import { boundedGet, type HttpLimits } from './http.js';
import { RdapBootstrap } from './schema.js';

/** How old the cached bootstrap file may get before it is read again (IANA updates it as TLDs change). */
export const BOOTSTRAP_MAX_AGE_MS = 24 * 3_600_000;
/** After a failed read, the next try waits this long: a dead IANA is not asked at every look. */
export const BOOTSTRAP_RETRY_MS = 15 * 60_000;
/** IANA's dns.json is about 50 kB; a hundred times that is no bootstrap file. */
const BOOTSTRAP_LIMITS: HttpLimits = { deadlineMs: 20_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 3 };

const Cached = z.lazy(() =>
  z.object({
    fetchedAt: z.number(),
    /** Lower-case label sequences (RFC 9224 §4) → base URLs. */
    services: z.record(z.string(), z.array(z.string())),
  }),
);
type Cached = z.infer<typeof Cached>;

export type ServerLookup =
  | { kind: 'server'; tld: string; baseUrl: string }
  /** The bootstrap names no RDAP service for the name's TLD (RFC 9224 §4: no match). */
  | { kind: 'none'; tld: string }
  /** No bootstrap file could be read, nor was one kept from before. */
  | { kind: 'unavailable' };

export interface BootstrapDeps {
  redis: Redis;
  keys: KeySpace;
  now: () => number;
  /** RDAP_BOOTSTRAP_URL. */
  url: string;
}

/**
 * IANA's RDAP bootstrap file for domains (RFC 9224), kept in Redis for every process and read again
 * once a day. A failed refresh keeps the file from before: a registry's RDAP server moves rarely, and
 * an old answer is better than none.
 */
export class RdapBootstrapFile {
  #refreshing: Promise<Cached | undefined> | undefined;
  #failedAt: number | undefined;

  constructor(private readonly deps: BootstrapDeps) {}

  get #key(): string {
    return this.deps.keys.key('rdap', 'bootstrap');
  }

  /** The RDAP server of `name` (ASCII): the longest matching label sequence (RFC 9224 §4). */
  async serverFor(name: string): Promise<ServerLookup> {
    const file = await this.#current();
    return file === undefined ? { kind: 'unavailable' } : matchServer(file.services, name);
  }

  async #current(): Promise<Cached | undefined> {
    const stored = await this.#stored();
    const now = this.deps.now();
    if (stored !== undefined && now - stored.fetchedAt < BOOTSTRAP_MAX_AGE_MS) return stored;
    if (this.#failedAt !== undefined && now - this.#failedAt < BOOTSTRAP_RETRY_MS) return stored;
    this.#refreshing ??= this.#refresh().finally(() => {
      this.#refreshing = undefined;
    });
    return (await this.#refreshing) ?? stored;
  }

  async #stored(): Promise<Cached | undefined> {
    const raw = await this.deps.redis.get(this.#key);
    if (raw === null) return undefined;
    try {
      const parsed = Cached.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async #refresh(): Promise<Cached | undefined> {
    const answer = await boundedGet(
      this.deps.url,
      { trust: 'trusted', accept: 'application/json' },
      BOOTSTRAP_LIMITS,
    );
    const file = answer.ok && answer.status === 200 ? parseBootstrap(answer.body) : undefined;
    if (file === undefined) {
      this.#failedAt = this.deps.now();
      return undefined;
    }
    this.#failedAt = undefined;
    const cached: Cached = { fetchedAt: this.deps.now(), services: file };
    await this.deps.redis.set(this.#key, JSON.stringify(cached));
    return cached;
  }
}

/** The services of a bootstrap file, or undefined when it is not one. */
export function parseBootstrap(body: string): Record<string, string[]> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const file = RdapBootstrap.safeParse(json);
  if (!file.success) return undefined;
  const services: Record<string, string[]> = {};
  for (const [entries, urls] of file.data.services)
    for (const entry of entries) services[entry.toLowerCase().replace(/\.$/, '')] = urls;
  return services;
}

/**
 * The service of the longest label sequence that ends `name` (RFC 9224 §4: "co.uk" before "uk"), with
 * its preferred base URL; a service without a usable URL counts as none.
 */
export function matchServer(services: Readonly<Record<string, string[]>>, name: string): ServerLookup {
  const labels = name.toLowerCase().replace(/\.$/, '').split('.');
  const tld = labels.at(-1) ?? '';
  for (let i = 0; i < labels.length; i++) {
    const urls = services[labels.slice(i).join('.')];
    const baseUrl = urls === undefined ? undefined : preferred(urls);
    if (baseUrl !== undefined) return { kind: 'server', tld, baseUrl };
  }
  return { kind: 'none', tld };
}

/**
 * RFC 9224 §3: with both, HTTPS is preferred. A plain-HTTP URL is kept when it is the only one: the
 * address rules (http.ts) then decide, and only a lab's allowed addresses are asked over HTTP.
 */
function preferred(urls: readonly string[]): string | undefined {
  const chosen =
    urls.find((url) => url.startsWith('https://')) ?? urls.find((url) => url.startsWith('http://'));
  return chosen === undefined ? undefined : chosen.endsWith('/') ? chosen : `${chosen}/`;
}
