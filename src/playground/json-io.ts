// The playground server's request and response plumbing: bounded JSON bodies, validation, headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';

/** The page's requests are small; a composer message is at most 40 000 characters. */
const MAX_BODY_BYTES = 256 * 1024;
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export class InputError extends Error {}

export function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new InputError(`${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
}

export async function readJson(
  req: IncomingMessage,
): Promise<{ ok: true; value: unknown } | { ok: false; status: number; error: string }> {
  if (!(req.headers['content-type'] ?? '').includes('application/json')) {
    return { ok: false, status: 415, error: 'send application/json' };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, error: 'payload_too_large' };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { ok: false, status: 400, error: 'invalid_json' };
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...SECURITY_HEADERS });
  res.end(JSON.stringify(body));
}
