import { domainToASCII } from 'node:url';
import type { z } from 'zod';
import type { Logger } from '../shared/logger.js';
import {
  BadRequestError,
  errorFromResponse,
  MalformedResponseError,
  NetworkError,
  RegistrarError,
  TimeoutError,
} from './errors.js';
import { ErrorEnvelope, SuccessEnvelope } from './schemas/common.js';

export const DEFAULT_BASE_URL = 'https://api.regfish.com';

export interface RequestInfo {
  operation: string;
  method: string;
  /** HTTP status, or 0 when no answer came (timeout, network). */
  status: number;
  durationMs: number;
  attempt: number;
}

export interface RegistrarClientOptions {
  baseUrl?: string;
  /** The workspace's key, fetched for every call (so a replaced key takes effect at once). */
  apiKey: string | (() => Promise<string>);
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Retries of safe calls (see `Call.retry`); default 2. */
  maxRetries?: number;
  logger?: Logger;
  /** For metrics: operation and status only, never the key. */
  onRequest?: (info: RequestInfo) => void;
  sleep?: (ms: number) => Promise<void>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Call<T> {
  operation: string;
  method: HttpMethod;
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  schema: z.ZodType<T>;
  /**
   * Retry rule: only calls that change nothing upstream (GETs, including the assistant) are retried,
   * and only on 502/503, timeouts and network errors. State-changing POST/PUT/PATCH/DELETE are never
   * retried: a lost answer does not mean the change did not happen.
   */
  retry: boolean;
}

const RETRY_STATUSES = new Set([502, 503]);

/** A domain for a URL path: trailing dot dropped, lower-cased, IDN → punycode, then encoded. */
export function domainPath(domain: string, operation: string): string {
  const trimmed = domain.trim().replace(/\.$/, '').toLowerCase();
  // domainToASCII parses a URL host: it would cut `a/b.com` to `a`, so URL syntax is refused first.
  const ascii = /[\s/\\?#%@:]/.test(trimmed) ? '' : domainToASCII(trimmed);
  // The same rule for names: labels of letters, digits and hyphens, never `.`/`..` or a slash.
  if (!/^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9])?)*$/.test(ascii))
    throw new BadRequestError(operation, 'not a domain name');
  return encodeURIComponent(ascii);
}

/**
 * Certificate and organization ids as the registrar issues them (their format is not shown,
 * docs/registrar-api.md §2.2): a letter or digit, then letters, digits and `_ . : -`. Anything else —
 * `.`, `..`, a `/`, spaces — is refused before a request is made, so no id can change which endpoint
 * is called (URL resolution turns `/tls/certificate/..` into `/tls/`).
 */
export const RESOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

export function idPath(id: string, operation: string): string {
  const trimmed = id.trim();
  if (!RESOURCE_ID.test(trimmed)) throw new BadRequestError(operation, 'not a valid id');
  return encodeURIComponent(trimmed);
}

/**
 * DNS record ids are integers in the registrar's answers (spec addendum §2); callers may hold them as
 * numbers or numeric strings. Anything else is refused before a request is made.
 */
export function recordIdPath(id: number | string, operation: string): string {
  const text = typeof id === 'number' ? String(id) : id.trim();
  const valid = typeof id === 'number' ? Number.isSafeInteger(id) && id > 0 : /^[1-9][0-9]{0,14}$/.test(text);
  if (!valid) throw new BadRequestError(operation, 'not a valid record id');
  return text;
}

/** The transport every resource module uses: key, timeout, retries, envelope and validation. */
export class RegistrarTransport {
  readonly baseUrl: string;
  readonly #options: RegistrarClientOptions;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: RegistrarClientOptions) {
    this.#options = options;
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.#fetch = options.fetch ?? fetch;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async json<T>(call: Call<T>): Promise<T> {
    const response = await this.#send(call, 'application/json');
    return parseEnvelope(call, response.status, response.body.toString('utf8'));
  }

  /** Non-envelope answers (certificate download): the raw body when 2xx, a typed error otherwise. */
  async raw(call: Omit<Call<unknown>, 'schema'>): Promise<{ body: Buffer; contentType: string }> {
    const response = await this.#send({ ...call, schema: SuccessEnvelope }, '*/*');
    if (response.status >= 200 && response.status < 300) {
      return { body: response.body, contentType: response.contentType };
    }
    throw errorForStatus(
      call.operation,
      response.status,
      response.body.toString('utf8'),
      response.retryAfterMs,
    );
  }

  async #send(
    call: Call<unknown>,
    accept: string,
  ): Promise<{ status: number; body: Buffer; contentType: string; retryAfterMs: number | undefined }> {
    const url = new URL(`${this.baseUrl}${call.path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    const key =
      typeof this.#options.apiKey === 'string' ? this.#options.apiKey : await this.#options.apiKey();
    const headers: Record<string, string> = { 'x-api-key': key, accept };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const attempts = call.retry ? this.#maxRetries + 1 : 1;

    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let outcome:
        | { status: number; body: Buffer; contentType: string; retryAfterMs: number | undefined }
        | { failure: RegistrarError };
      try {
        const res = await this.#fetch(url, {
          method: call.method,
          headers,
          ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
          signal: AbortSignal.timeout(this.#timeoutMs),
        });
        outcome = {
          status: res.status,
          body: Buffer.from(await res.arrayBuffer()),
          contentType: res.headers.get('content-type') ?? '',
          retryAfterMs: retryAfter(res.headers.get('retry-after')),
        };
      } catch (error) {
        const name = error instanceof Error ? error.name : '';
        outcome = {
          failure:
            name === 'TimeoutError' || name === 'AbortError'
              ? new TimeoutError(call.operation, this.#timeoutMs)
              : new NetworkError(call.operation, error instanceof Error ? error.message : 'fetch failed'),
        };
      }
      const status = 'failure' in outcome ? 0 : outcome.status;
      const durationMs = Math.round(performance.now() - started);
      this.#options.onRequest?.({
        operation: call.operation,
        method: call.method,
        status,
        durationMs,
        attempt,
      });
      this.#options.logger?.debug(
        { operation: call.operation, status, durationMs, attempt },
        'registrar call',
      );

      const retryable = 'failure' in outcome || RETRY_STATUSES.has(outcome.status);
      if (retryable && attempt < attempts) {
        // Jittered exponential backoff: 250 ms, 500 ms … plus up to 50 % noise.
        const base = 250 * 2 ** (attempt - 1);
        await this.#sleep(base + Math.random() * base * 0.5);
        continue;
      }
      if ('failure' in outcome) throw outcome.failure;
      return outcome;
    }
  }
}

/**
 * A listing beyond v1.6.2 behind the capability probe (docs/registrar-api.md §10): a 404 or 405 from
 * the endpoint itself means this registrar does not offer it, answered as `undefined`.
 */
export async function ifOffered<T>(t: RegistrarTransport, call: Call<T>): Promise<T | undefined> {
  try {
    return await t.json(call);
  } catch (error) {
    if (error instanceof RegistrarError && (error.status === 404 || error.status === 405)) return undefined;
    throw error;
  }
}

function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function errorForStatus(
  operation: string,
  status: number,
  text: string,
  retryAfterMs?: number,
): RegistrarError {
  let body: ErrorEnvelope | undefined;
  try {
    const parsed = ErrorEnvelope.safeParse(JSON.parse(text));
    if (parsed.success) body = parsed.data;
  } catch {
    // a non-JSON error body: the status alone decides
  }
  return errorFromResponse(status, body, operation, retryAfterMs);
}

/** Judge `success`, not only the status: the real service answers some errors with HTTP 200. */
function parseEnvelope<T>(call: Call<T>, status: number, text: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    if (status < 200 || status >= 300) throw errorFromResponse(status, undefined, call.operation);
    throw new MalformedResponseError(call.operation, 'body', 'not JSON');
  }
  const failed = ErrorEnvelope.safeParse(json);
  if (failed.success || status < 200 || status >= 300) {
    throw errorFromResponse(status, failed.success ? failed.data : undefined, call.operation);
  }
  const envelope = SuccessEnvelope.safeParse(json);
  if (!envelope.success)
    throw new MalformedResponseError(call.operation, 'success', 'envelope without success:true');
  const payload = call.schema.safeParse(envelope.data.response);
  if (!payload.success) {
    const issue = payload.error.issues[0];
    const field = ['response', ...(issue?.path ?? []).map(String)].join('.');
    throw new MalformedResponseError(call.operation, field, issue?.message ?? 'invalid');
  }
  return payload.data;
}
