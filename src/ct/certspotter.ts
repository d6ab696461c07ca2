import { z } from 'zod';
import { leafFromDer, normalSerial } from '../served/leaf.js';
import { retryAfterMs as retryAfter } from '../shared/retry-after.js';

/**
 * Cert Spotter's issuances API, v1 (sslmate.com/certspotter/api/docs-v1): every issuance logged in
 * Certificate Transparency for a domain, in the order Cert Spotter discovered them, paged by `after`
 * (the last issuance's id). One bounded boundary (docs/requirements.md R49, R54): a request waits at
 * most REQUEST_TIMEOUT_MS, reads at most MAX_BODY_BYTES, a search reads at most MAX_PAGES pages; a 429
 * says when to ask again (`Retry-After`), and every failure is a value, "could not check".
 */

const CtIssuer = z.lazy(() =>
  z.looseObject({ friendly_name: z.string().optional(), name: z.string().optional() }),
);
const CtCertificate = z.lazy(() =>
  z.looseObject({ type: z.string().optional(), data: z.string().optional() }),
);

/** The issuance object as documented; only `id` is required, the rest is read when present. */
export const CtIssuance = z.lazy(() =>
  z.looseObject({
    id: z.string().min(1).max(100),
    tbs_sha256: z.string().optional(),
    cert_sha256: z.string().optional(),
    dns_names: z.array(z.string()).optional(),
    pubkey_sha256: z.string().optional(),
    issuer: CtIssuer.optional(),
    not_before: z.string().optional(),
    not_after: z.string().optional(),
    cert: CtCertificate.optional(),
  }),
);
export type CtIssuance = z.infer<typeof CtIssuance>;

/** One issuance as Regdesk keeps it: a precertificate and its certificate are one (same TBS digest). */
export interface Issuance {
  id: string;
  /** The TBSCertificate's SHA-256 (RFC 6962 §3.2), shared by a precertificate and its certificate. */
  tbsSha256: string;
  spkiSha256: string | undefined;
  /** From the expanded certificate, when it parses. */
  serial: string | undefined;
  names: string[];
  issuer: string;
  notBefore: number | undefined;
  notAfter: number | undefined;
}

export type CtSearch =
  | { kind: 'ok'; issuances: Issuance[]; cursor: string | undefined; more: boolean }
  | { kind: 'rate-limited'; retryAt: number }
  | { kind: 'failed'; reason: 'status' | 'timeout' | 'network' | 'too-large' | 'malformed'; status?: number };

export const CT_LIMITS = {
  requestTimeoutMs: 15_000,
  /** A page of a hundred expanded issuances is about 300 KB. */
  maxBodyBytes: 2 * 1024 * 1024,
  maxPages: 4,
  /** Names kept per issuance (a certificate may carry hundreds; the alert shows a few). */
  maxNames: 100,
  /** When a 429 names no Retry-After. */
  defaultRetryMs: 5 * 60_000,
  /** A Retry-After further out than this is capped: the zone is still looked at within a day. */
  maxRetryMs: 24 * 3_600_000,
};

export interface CertSpotterOptions {
  baseUrl: string;
  token?: string | undefined;
  fetch?: typeof fetch;
  now?: () => number;
}

export class CertSpotter {
  readonly #baseUrl: string;
  readonly #token: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;

  constructor(options: CertSpotterOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#token = options.token;
    this.#fetch = options.fetch ?? fetch;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Issuances for `domain` and every name under it, discovered after `after` (all of them without),
   * up to MAX_PAGES pages: `more` says the next look goes on from `cursor`.
   */
  async issuances(domain: string, after: string | undefined): Promise<CtSearch> {
    const merged = new Map<string, Issuance>();
    let cursor = after;
    for (let page = 0; page < CT_LIMITS.maxPages; page++) {
      const answer = await this.#page(domain, cursor);
      if (answer.kind !== 'page') return answer;
      if (answer.issuances.length === 0)
        return { kind: 'ok', issuances: [...merged.values()], cursor, more: false };
      for (const raw of answer.issuances) {
        const issuance = issuanceOf(raw);
        const before = merged.get(issuance.tbsSha256);
        merged.set(issuance.tbsSha256, before === undefined ? issuance : mergeIssuances(before, issuance));
      }
      cursor = answer.issuances.at(-1)?.id ?? cursor;
    }
    return { kind: 'ok', issuances: [...merged.values()], cursor, more: true };
  }

  async #page(
    domain: string,
    after: string | undefined,
  ): Promise<{ kind: 'page'; issuances: CtIssuance[] } | Exclude<CtSearch, { kind: 'ok' }>> {
    const url = new URL(`${this.#baseUrl}/issuances`);
    url.searchParams.set('domain', domain);
    url.searchParams.set('include_subdomains', 'true');
    for (const field of ['dns_names', 'issuer', 'cert']) url.searchParams.append('expand', field);
    if (after !== undefined) url.searchParams.set('after', after);
    let response: Response;
    try {
      response = await this.#fetch(url, {
        headers: {
          accept: 'application/json',
          ...(this.#token === undefined ? {} : { authorization: `Bearer ${this.#token}` }),
        },
        signal: AbortSignal.timeout(CT_LIMITS.requestTimeoutMs),
      });
    } catch (error) {
      return { kind: 'failed', reason: isTimeout(error) ? 'timeout' : 'network' };
    }
    if (response.status === 429) {
      await response.body?.cancel().catch(() => undefined);
      return {
        kind: 'rate-limited',
        retryAt: this.#now() + retryAfterMs(response.headers.get('retry-after'), this.#now()),
      };
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: 'failed', reason: 'status', status: response.status };
    }
    const body = await readBounded(response, CT_LIMITS.maxBodyBytes);
    if (body === 'too-large' || body === 'timeout') return { kind: 'failed', reason: body };
    try {
      const parsed = z.array(CtIssuance).safeParse(JSON.parse(body));
      return parsed.success
        ? { kind: 'page', issuances: parsed.data }
        : { kind: 'failed', reason: 'malformed' };
    } catch {
      return { kind: 'failed', reason: 'malformed' };
    }
  }
}

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/** `Retry-After` within CT_LIMITS: the default when absent or unreadable, a day at most. */
export const retryAfterMs = (header: string | null, now: number): number =>
  retryAfter(header, now, { defaultMs: CT_LIMITS.defaultRetryMs, maxMs: CT_LIMITS.maxRetryMs });

/** The body as text, or why not: reading stops at `limit` bytes. */
async function readBounded(response: Response, limit: number): Promise<string | 'too-large' | 'timeout'> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return 'too-large';
      }
      chunks.push(value);
    }
  } catch (error) {
    return isTimeout(error) ? 'timeout' : 'too-large';
  }
  return Buffer.concat(chunks).toString('utf8');
}

const dateOf = (value: string | undefined) => {
  const ms = value === undefined ? Number.NaN : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
};

function issuanceOf(raw: CtIssuance): Issuance {
  const der = raw.cert?.data === undefined ? undefined : Buffer.from(raw.cert.data, 'base64');
  const leaf = der === undefined ? undefined : leafFromDer(der);
  return {
    id: raw.id,
    tbsSha256: (raw.tbs_sha256 ?? raw.id).toLowerCase(),
    spkiSha256: raw.pubkey_sha256?.toLowerCase() ?? leaf?.spkiSha256,
    serial: leaf?.serial === undefined ? undefined : normalSerial(leaf.serial),
    names: [...new Set((raw.dns_names ?? []).map((n) => n.toLowerCase()))].slice(0, CT_LIMITS.maxNames),
    issuer: (raw.issuer?.friendly_name ?? raw.issuer?.name ?? leaf?.issuer ?? '').slice(0, 200),
    notBefore: dateOf(raw.not_before) ?? leaf?.notBefore,
    notAfter: dateOf(raw.not_after) ?? leaf?.notAfter,
  };
}

/** A precertificate and its certificate, listed apart: one issuance, what either knew. */
function mergeIssuances(a: Issuance, b: Issuance): Issuance {
  return {
    ...a,
    spkiSha256: a.spkiSha256 ?? b.spkiSha256,
    serial: a.serial ?? b.serial,
    names: [...new Set([...a.names, ...b.names])].slice(0, CT_LIMITS.maxNames),
    issuer: a.issuer || b.issuer,
    notBefore: a.notBefore ?? b.notBefore,
    notAfter: a.notAfter ?? b.notAfter,
  };
}
