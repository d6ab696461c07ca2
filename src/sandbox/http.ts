import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The 20 operations of spec v1.6.2, and those beyond it the sandbox offers (spec addendum), by stable
 * name (fault injection and the call log use these).
 */
export type OperationName =
  | 'tls.products'
  | 'tls.list'
  | 'tls.complete'
  | 'tls.order'
  | 'tls.reissue'
  | 'tls.get'
  | 'tls.orderCancel'
  | 'tls.revoke'
  | 'tls.download'
  | 'org.create'
  | 'org.update'
  | 'org.get'
  | 'dnssec.get'
  | 'dnssec.put'
  | 'dnssec.verify'
  | 'dnssec.cancel'
  | 'dns.zone'
  | 'dns.records'
  | 'dns.zones'
  | 'dns.recordGet'
  | 'dns.recordCreate'
  | 'dns.recordUpdate'
  | 'dns.recordDelete'
  | 'domains.get'
  | 'domains.nameservers'
  | 'domains.authinfo'
  | 'domains.availability'
  | 'assistant.search';

export interface KeyInfo {
  key: string;
  account: string;
  permissions: Set<string>;
}

export interface RequestContext {
  params: string[];
  query: URLSearchParams;
  body: Record<string, unknown>;
  key: KeyInfo;
  now: number;
}

export type HandlerResult =
  | { response: unknown; status?: number; headers?: Record<string, string> }
  | { raw: Buffer; contentType: string }
  /**
   * A whole body as the recordings show it, sent as it is: the real service's quirks (an unknown zone's
   * error inside HTTP 200, code 15001; the delete answer's text in `error`) and the 417 duplicate.
   */
  | { body: Record<string, unknown>; status: number };

export type Handler = (ctx: RequestContext) => HandlerResult | Promise<HandlerResult>;

export interface Route {
  method: string;
  pattern: RegExp;
  operation: OperationName;
  handler: Handler;
}

/** A refusal with the endpoint's fixed description (docs/registrar-api.md §4, §7). */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * Error `code` values are "not shown" in the spec; the sandbox uses 10000 + HTTP status (recorded
 * answers with their own codes are sent whole, see `HandlerResult`).
 */
export function errorBody(status: number, message: string): Record<string, unknown> {
  return { success: false, message, error: message, code: 10_000 + status };
}

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    server: 'regdesk-sandbox',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SandboxError(400, 'Invalid JSON payload');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SandboxError(400, 'Invalid JSON payload');
  }
  return parsed as Record<string, unknown>;
}

/** Field helpers for request validation: each refuses with 400 and the field's name. */
export const field = {
  string(body: Record<string, unknown>, name: string, required = true): string | undefined {
    const value = body[name];
    if (value === undefined || value === null) {
      if (required) throw new SandboxError(400, `Invalid payload: ${name} is required`);
      return undefined;
    }
    if (typeof value !== 'string' || (required && value.trim() === '')) {
      throw new SandboxError(400, `Invalid payload: ${name} must be a non-empty string`);
    }
    return value;
  },
  strings(body: Record<string, unknown>, name: string): string[] | undefined {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
      throw new SandboxError(400, `Invalid payload: ${name} must be an array of strings`);
    }
    return value as string[];
  },
  integer(body: Record<string, unknown>, name: string): number | undefined {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      throw new SandboxError(400, `Invalid payload: ${name} must be an integer`);
    }
    return value;
  },
};
