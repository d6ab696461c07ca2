import { createHmac } from 'node:crypto';
import { packageVersion } from '../../shared/version.js';
import { type AuditSink, entryJson, failureReason } from './sink.js';

/** A receiver that has not answered by then is retried later: one slow receiver must not stall the rest. */
const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookOptions {
  url: string;
  secret: string;
  /** Tests give a fetch of their own; Node's otherwise. */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** `sha256=<hex HMAC-SHA256 of the body>`: what `X-Regdesk-Signature` carries (contract §2). */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * AUDIT_WEBHOOK_URL: each entry POSTed as JSON, signed with AUDIT_WEBHOOK_SECRET. A 2xx answer is a
 * delivery; anything else (another status, a redirect — not followed, as the signature is for this
 * receiver — no answer within 10 s, no connection) is retried by the deliverer with the same body.
 */
export function webhookSink(options: WebhookOptions): AuditSink {
  const post = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const userAgent = `regdesk/${packageVersion()}`;
  return {
    name: 'webhook',
    async send(workspace, entry, signal) {
      const body = entryJson(workspace, entry);
      try {
        const response = await post(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': userAgent,
            'x-regdesk-signature': webhookSignature(options.secret, body),
          },
          body,
          redirect: 'manual',
          signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
        });
        // The answer's body is not read: only the status counts, and the connection is freed.
        await response.body?.cancel().catch(() => undefined);
        return response.ok ? { ok: true } : { ok: false, reason: `HTTP ${response.status}` };
      } catch (error) {
        return { ok: false, reason: failureReason(error) };
      }
    },
    close: async () => {},
  };
}
