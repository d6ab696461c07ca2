import type { IncomingMessage } from 'node:http';
import { type Locale, texts } from '../../text/index.js';
import type { McpStore } from './store.js';

/**
 * The person's consent to one client, asked by Regdesk itself after Slack said who they are. Regdesk
 * signs everyone in through one Slack app, so Slack's own consent (which it may skip for a returning
 * person) says nothing about which agent asked: without this page, anyone could register a client
 * with their own redirect URI and send a person a link that hands them a token in that person's name
 * (MCP security best practices, "Confused deputy problem": a proxy with a static client ID must ask
 * for consent per dynamically registered client).
 */

export const CONSENT_PATH = '/mcp/oauth/consent';
/** The form's body: an id and a button's value. */
const MAX_FORM_BYTES = 4_096;

/** Headers of the page: nothing loads, nothing frames it (clickjacking), only our own form posts. */
export const CONSENT_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
} as const;

/** The page: who asks (the client's registered name and where it sends the person back), and two buttons. */
export function consentPage(locale: Locale, consentId: string, client: string, redirectHost: string): string {
  // The catalog escapes &, < and > in parameters (src/text/index.ts): safe in HTML text.
  const t = texts(locale).mcp;
  const id = consentId.replace(/[^A-Za-z0-9_-]/g, '');
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${t.consentTitle}</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem;margin-right:.5rem}</style>
</head><body>
<h1>${t.consentTitle}</h1>
<p>${t.consentQuestion({ client, host: redirectHost })}</p>
<p>${t.consentRights}</p>
<form method="post" action="${CONSENT_PATH}">
<input type="hidden" name="consent" value="${id}">
<button type="submit" name="decision" value="allow">${t.consentAllow}</button>
<button type="submit" name="decision" value="deny">${t.consentDeny}</button>
</form>
</body></html>`;
}

/** The form as posted (`application/x-www-form-urlencoded`), or undefined when it is not one. */
export async function readConsentForm(
  req: IncomingMessage,
): Promise<{ consent: string; allow: boolean } | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  const consent = form.get('consent');
  return consent === null ? undefined : { consent, allow: form.get('decision') === 'allow' };
}

export type ConsentStore = Pick<McpStore, 'askConsent' | 'takeConsent' | 'issueCode'>;
