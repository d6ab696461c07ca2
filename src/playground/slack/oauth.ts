import { randomBytes } from 'node:crypto';
import type { SlackState } from './state.js';
import { BOT_USER } from './types.js';

/**
 * `oauth.v2.access`: an install by code, or (token rotation, docs.slack.dev "Using token rotation") a
 * refresh with a single-use refresh token (`invalid_refresh_token` when spent twice).
 */
export function oauthAccess(state: SlackState, args: Record<string, unknown>): Record<string, unknown> {
  const install = {
    ok: true,
    app_id: 'A0001',
    authed_user: { id: 'UINSTALLER' },
    scope: 'commands,chat:write',
    token_type: 'bot',
    bot_user_id: BOT_USER,
    team: { id: 'T0OAUTH', name: 'OAuth Team' },
    enterprise: null,
    is_enterprise_install: false,
  };
  if (args.grant_type === 'refresh_token') {
    const given = String(args.refresh_token ?? '');
    if (!state.rotation.refreshTokens.delete(given)) return { ok: false, error: 'invalid_refresh_token' };
    // The old access token stays valid until it expires; the refresh token is spent.
    return { ...install, ...rotatingPair(state, given.slice(-8)) };
  }
  if (!state.rotation.enabled)
    return { ...install, access_token: `xoxb-installed-${String(args.code ?? 'x')}` };
  return { ...install, ...rotatingPair(state, randomBytes(4).toString('hex')) };
}

/** True when `token` is a rotating access token that has expired (or was replaced and ran out). */
export function tokenExpired(state: SlackState, token: string | undefined, method: string): boolean {
  // Only `oauth.v2.access` needs no valid access token.
  const rotating = token === undefined ? undefined : state.rotation.tokens.get(token);
  return rotating !== undefined && method !== 'oauth.v2.access' && rotating.expiresAt <= Date.now();
}

/** Makes an issued rotating token expire now (a test's twelve hours). */
export function expireToken(state: SlackState, token: string): void {
  const entry = state.rotation.tokens.get(token);
  if (entry !== undefined) entry.expiresAt = 0;
}

/** A fresh access token and refresh token of one installation (`lineage` ties refreshes together). */
function rotatingPair(state: SlackState, lineage: string): Record<string, unknown> {
  const serial = state.seq++;
  const access = `xoxe.xoxb-rot-${serial}-${lineage}`;
  const refresh = `xoxe-1-refresh-${serial}-${lineage}`;
  state.rotation.tokens.set(access, { expiresAt: Date.now() + state.rotation.expiresInSeconds * 1000 });
  state.rotation.refreshTokens.add(refresh);
  return { access_token: access, refresh_token: refresh, expires_in: state.rotation.expiresInSeconds };
}
