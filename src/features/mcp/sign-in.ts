import { randomBytes } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { McpSettings } from '../../config.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { localeOfSlack } from '../../text/index.js';
import { consentPage } from './consent.js';
import type { McpStore, PendingSignIn } from './store.js';

/** Where Slack sends the person back after Sign in with Slack. */
export const SLACK_CALLBACK_PATH = '/mcp/oauth/slack';

/** Slack's claims in `openid.connect.userInfo` (docs.slack.dev "Sign in with Slack"). */
const SlackIdentity = z.looseObject({
  ok: z.literal(true),
  'https://slack.com/user_id': z.string(),
  'https://slack.com/team_id': z.string(),
  'https://slack.com/enterprise_id': z.string().optional(),
  locale: z.string().optional(),
});

export interface SignInDeps {
  settings: McpSettings;
  store: Pick<McpStore, 'takeSignIn' | 'askConsent' | 'takeConsent' | 'issueCode'>;
  /** The client's registered name, for the consent page. */
  clientName(clientId: string): Promise<string>;
  /** A Web API client without a token (openid.connect.token), or with the user's (userInfo). */
  webClient(token?: string): WebClient;
  /** Whether the person may act at all: the permission model's outsiders are refused (R33). */
  mayAct(workspace: WorkspaceRef, user: string): Promise<boolean>;
  logger: Logger;
}

/** The outcome of Slack's callback: the consent page, where to send the browser, or a broken request. */
export type SignInAnswer = { page: string } | { redirect: string } | { status: 400; error: string };

/** Slack's authorize page for a sign-in (`scope openid profile`, our callback, a fresh nonce). */
export function slackAuthorizeUrl(settings: McpSettings, signInId: string): string {
  const url = new URL(settings.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', 'openid profile');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('state', signInId);
  url.searchParams.set('nonce', randomBytes(16).toString('base64url'));
  url.searchParams.set('redirect_uri', `${settings.publicUrl}${SLACK_CALLBACK_PATH}`);
  return url.href;
}

/** The client's redirect with the authorization response (RFC 6749 §4.1.2) or its error (§4.1.2.1). */
function back(pending: PendingSignIn, fields: Record<string, string>): SignInAnswer {
  const url = new URL(pending.redirectUri);
  for (const [name, value] of Object.entries(fields)) url.searchParams.set(name, value);
  if (pending.state !== undefined) url.searchParams.set('state', pending.state);
  return { redirect: url.href };
}

/**
 * Slack's callback: the sign-in it answers is taken once (a replay finds nothing), Slack's code is
 * traded for the person's identity, and the client gets an authorization code for that person in
 * that workspace. Slack's user token is used for `userInfo` only and never kept.
 */
export async function finishSignIn(deps: SignInDeps, query: URLSearchParams): Promise<SignInAnswer> {
  const pending = await deps.store.takeSignIn(query.get('state') ?? '');
  if (pending === undefined) return { status: 400, error: 'sign_in_unknown_or_used' };
  const code = query.get('code');
  if (code === null) return back(pending, { error: 'access_denied' });
  try {
    const exchanged = await deps.webClient().openid.connect.token({
      client_id: deps.settings.clientId,
      client_secret: deps.settings.clientSecret,
      code,
      redirect_uri: `${deps.settings.publicUrl}${SLACK_CALLBACK_PATH}`,
    });
    if (exchanged.access_token === undefined) return back(pending, { error: 'access_denied' });
    const identity = SlackIdentity.parse(
      await deps.webClient(exchanged.access_token).openid.connect.userInfo(),
    );
    const enterpriseId = identity['https://slack.com/enterprise_id'];
    const workspace: WorkspaceRef = {
      teamId: identity['https://slack.com/team_id'],
      ...(enterpriseId === undefined ? {} : { enterpriseId }),
    };
    const user = identity['https://slack.com/user_id'];
    if (!(await deps.mayAct(workspace, user))) return back(pending, { error: 'access_denied' });
    const consent = await deps.store.askConsent({ ...pending, workspace, user });
    const host = new URL(pending.redirectUri).host;
    return {
      page: consentPage(
        localeOfSlack(identity.locale),
        consent,
        await deps.clientName(pending.clientId),
        host,
      ),
    };
  } catch (error) {
    deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'mcp sign-in failed');
    return back(pending, { error: 'server_error' });
  }
}

/**
 * The person's answer on the consent page (consent.ts): the sign-in is taken once; allowed, the client
 * gets its authorization code; denied, `access_denied` (RFC 6749 §4.1.2.1).
 */
export async function decideConsent(
  deps: Pick<SignInDeps, 'store'>,
  form: { consent: string; allow: boolean } | undefined,
): Promise<SignInAnswer> {
  const signedIn = form === undefined ? undefined : await deps.store.takeConsent(form.consent);
  if (form === undefined || signedIn === undefined) return { status: 400, error: 'consent_unknown_or_used' };
  if (!form.allow) return back(signedIn, { error: 'access_denied' });
  return back(signedIn, { code: await deps.store.issueCode(signedIn) });
}
