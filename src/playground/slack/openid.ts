import { randomBytes } from 'node:crypto';
import type { SlackState } from './state.js';
import { type Answer, WORKSPACE } from './types.js';

/**
 * Sign in with Slack's side of the stand-in (docs.slack.dev "Sign in with Slack"); what it keeps is
 * sign-in-state.ts.
 */

/** Slack's codes are short-lived; ten minutes is OAuth's recommended maximum (RFC 6749 §4.1.2). */
const CODE_LIFETIME_MS = 600_000;

/** GET `/openid/connect/authorize`: consent at once and redirect with `code` and `state`. */
export function authorizePage(state: SlackState, query: URLSearchParams): Answer {
  const signIn = state.signIn;
  const redirect = query.get('redirect_uri') ?? '';
  const clientId = query.get('client_id') ?? '';
  // Before a redirect can be trusted, Slack answers errors on its own page (here: 400 JSON).
  if (!URL.canParse(redirect) || !/^https?:$/.test(new URL(redirect).protocol))
    return { status: 400, body: { ok: false, error: 'bad_redirect_uri' } };
  if (signIn.clientId !== undefined && clientId !== signIn.clientId)
    return { status: 400, body: { ok: false, error: 'invalid_client_id' } };
  const back = new URL(redirect);
  const given = query.get('state');
  if (given !== null) back.searchParams.set('state', given);
  const scopes = (query.get('scope') ?? '').split(/[\s+]+/);
  if (query.get('response_type') !== 'code' || !scopes.includes('openid')) {
    back.searchParams.set('error', 'invalid_scope');
    return { status: 302, headers: { location: back.href }, body: '' };
  }
  const code = `${Date.now()}.${randomBytes(12).toString('hex')}`;
  const nonce = query.get('nonce');
  state.signIn.codes.set(code, {
    user: query.get('user') ?? signIn.member,
    redirectUri: redirect,
    ...(nonce === null ? {} : { nonce }),
    expiresAt: Date.now() + CODE_LIFETIME_MS,
  });
  back.searchParams.set('code', code);
  state.record({ method: 'openid/connect/authorize', args: Object.fromEntries(query), at: Date.now() });
  return { status: 302, headers: { location: back.href }, body: '' };
}

/** `openid.connect.token`: a code (single use, same redirect_uri) for a user token and an id_token. */
export function connectToken(state: SlackState, args: Record<string, unknown>): Record<string, unknown> {
  const signIn = state.signIn;
  if (signIn.clientId !== undefined && args.client_id !== signIn.clientId)
    return { ok: false, error: 'invalid_client_id' };
  if (signIn.clientSecret !== undefined && args.client_secret !== signIn.clientSecret)
    return { ok: false, error: 'bad_client_secret' };
  const code = String(args.code ?? '');
  const issued = state.signIn.codes.get(code);
  state.signIn.codes.delete(code);
  if (issued === undefined || issued.expiresAt < Date.now()) return { ok: false, error: 'invalid_code' };
  if (args.redirect_uri !== issued.redirectUri) return { ok: false, error: 'bad_redirect_uri' };
  const token = `xoxp-oidc-${randomBytes(12).toString('hex')}`;
  state.signIn.tokens.set(token, issued.user);
  return {
    ok: true,
    access_token: token,
    token_type: 'Bearer',
    id_token: idToken(state, issued.user, issued.nonce),
  };
}

/** `openid.connect.userInfo`: who the user token belongs to, with Slack's claim names. */
export function connectUserInfo(state: SlackState, args: Record<string, unknown>): Record<string, unknown> {
  const user = state.signIn.tokens.get(String(args.token ?? ''));
  if (user === undefined) return { ok: false, error: 'invalid_auth' };
  const profile = state.users.get(user);
  return {
    ok: true,
    sub: user,
    'https://slack.com/user_id': user,
    'https://slack.com/team_id': profile?.team_id ?? WORKSPACE,
    name: profile?.real_name ?? profile?.name ?? user,
    locale: profile?.locale ?? 'en-US',
    'https://slack.com/team_name': state.workspaceName,
  };
}

/**
 * The id_token's shape (a JWT with Slack's claims). Regdesk reads who signed in from
 * `openid.connect.userInfo`, so the stand-in does not sign it with a published key.
 */
function idToken(state: SlackState, user: string, nonce: string | undefined): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: 'https://slack.com',
    sub: user,
    aud: state.signIn.clientId ?? 'any',
    exp: now + 3600,
    iat: now,
    ...(nonce === undefined ? {} : { nonce }),
    'https://slack.com/user_id': user,
    'https://slack.com/team_id': WORKSPACE,
  };
  return `${part({ typ: 'JWT', alg: 'RS256' })}.${part(claims)}.${randomBytes(32).toString('base64url')}`;
}
