import { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { Config } from '../config.js';
import { loadAppManifest } from '../manifest.js';
import type { Vault } from '../vault/store.js';
import { type DoctorWords, type Finding, fix, note, ok, reasonOf } from './report.js';
import { storedSecrets, teamName } from './vault.js';

/** The bot scopes manifest.yml asks for (oauth_config.scopes.bot). */
const ManifestScopes = z.lazy(() =>
  z.looseObject({
    oauth_config: z.looseObject({ scopes: z.looseObject({ bot: z.array(z.string()) }) }),
  }),
);

/** What `auth.test` said of one bot token. */
type TokenCheck =
  | { kind: 'works'; team: string; name: string; scopes: string[] | undefined }
  | { kind: 'refused'; error: string }
  | { kind: 'unreachable'; reason: string };

/**
 * One `auth.test` (docs.slack.dev: it answers for any valid token, and like every Web API answer
 * carries the token's scopes in the `x-oauth-scopes` header, which the client puts in
 * `response_metadata.scopes`). No retries: a doctor says what it found, at once.
 */
async function testToken(token: string, apiUrl: string | undefined): Promise<TokenCheck> {
  const client = new WebClient(token, {
    ...(apiUrl === undefined ? {} : { slackApiUrl: apiUrl }),
    timeout: 10_000,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
  try {
    const answer = await client.auth.test();
    return {
      kind: 'works',
      team: answer.team_id ?? '',
      name: answer.team ?? answer.team_id ?? '',
      scopes: answer.response_metadata?.scopes,
    };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const platform = (error as { data?: { error?: string } }).data?.error;
    if (code === 'slack_webapi_platform_error' && platform !== undefined)
      return { kind: 'refused', error: platform };
    return { kind: 'unreachable', reason: reasonOf(error) };
  }
}

function findingOf(check: TokenCheck, wanted: readonly string[], words: DoctorWords, team?: string): Finding {
  const subject = (id: string | undefined) =>
    id === undefined ? words.subjectSlackApp : words.subjectSlack({ team: id });
  switch (check.kind) {
    case 'refused':
      return fix(subject(team), words.slackTokenRefused({ error: check.error }));
    case 'unreachable':
      return fix(subject(team), words.slackUnreachable({ reason: check.reason }));
    case 'works': {
      const id = team ?? check.team;
      if (check.scopes === undefined)
        return note(subject(id), words.slackScopesUnknown({ name: check.name }));
      const missing = wanted.filter((scope) => !check.scopes?.includes(scope));
      if (missing.length > 0)
        return fix(subject(id), words.slackMissingScopes({ scopes: missing.join(', ') }));
      return ok(subject(id), words.slackHealthy({ name: check.name, scopes: wanted.length }));
    }
  }
}

/**
 * Slack: `auth.test` with the bot token of each installed workspace (SLACK_BOT_TOKEN, or each OAuth
 * installation in the vault), its scopes against the manifest's. `vault` is undefined when Redis or
 * the vault key is missing, which matters only in OAuth mode.
 */
export async function checkSlack(
  config: Config,
  vault: Vault | undefined,
  words: DoctorWords,
): Promise<Finding[]> {
  const mode = config.slack.mode;
  if (mode === 'unconfigured') return [ok(words.subjectSlackApp, words.slackNone)];
  const wanted = ManifestScopes.parse(loadAppManifest()).oauth_config.scopes.bot;
  const apiUrl = config.slack.apiUrl;
  if (mode !== 'http-oauth') {
    const token = config.slack.botToken ?? '';
    return [findingOf(await testToken(token, apiUrl), wanted, words)];
  }
  if (vault === undefined) return [note(words.subjectSlackApp, words.slackNotChecked)];
  const installations = await storedSecrets(vault, 'slack-installation');
  if (installations.length === 0) return [note(words.subjectSlackApp, words.slackNoInstallations)];
  return Promise.all(
    installations.map(async ({ workspace, secret }) => {
      const team = teamName(workspace);
      if (secret === 'unreadable')
        return fix(words.subjectSlack({ team }), words.slackInstallationUnreadable);
      const token = (JSON.parse(secret) as { bot?: { token?: string } }).bot?.token ?? '';
      return findingOf(await testToken(token, apiUrl), wanted, words, team);
    }),
  );
}
