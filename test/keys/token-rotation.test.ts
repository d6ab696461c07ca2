import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { type Harness, memoryLogger, startHarness } from '../helpers/app-harness.js';

const OAUTH_TEAM = { teamId: 'T0OAUTH' };

/**
 * docs/requirements.md R26 with Slack's token rotation: tokens that expire, refresh tokens used once.
 * Every token use, on the web process and on a separate worker process, refreshes through one place.
 */
describe('token rotation across web and worker processes', () => {
  let h: Harness;
  let worker: Running;

  beforeAll(async () => {
    h = await startHarness({
      role: 'web',
      env: {
        SLACK_BOT_TOKEN: '',
        SLACK_CLIENT_ID: '111.222',
        SLACK_CLIENT_SECRET: 'client-secret-canary',
        SLACK_STATE_SECRET: 'state-secret-for-tests',
        REGFISH_SANDBOX: '0',
        VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
      },
      // An hour's tokens: always inside the two-hour refresh window, so every use refreshes.
      prepareSlack: (slack) => {
        slack.rotation.enabled = true;
        slack.rotation.expiresInSeconds = 3600;
      },
    });
    worker = await runRegdesk({
      role: 'worker',
      config: loadConfig(h.env),
      logger: memoryLogger('warn').logger,
      env: h.env,
      say: () => {},
    });
    const start = await fetch(`${h.url}/slack/install`, { redirect: 'manual' });
    const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const done = await fetch(`${h.url}/slack/oauth_redirect?code=rot&state=${encodeURIComponent(state)}`, {
      headers: { cookie },
      redirect: 'manual',
    });
    expect(done.status).toBeLessThan(400);
  });
  afterAll(async () => {
    await worker?.stop();
    await h?.stop();
  });

  const installedToken = async () =>
    (
      JSON.parse((await h.running.services.vault.get(OAUTH_TEAM, 'slack-installation')) ?? '{}') as {
        bot?: { token?: string; refreshToken?: string };
      }
    ).bot;

  it('a worker whose stored token expired refreshes it before posting, and stores the new pair', async () => {
    const first = await installedToken();
    expect(first?.token).toMatch(/^xoxe\.xoxb-/);
    h.slack.expireToken(first?.token ?? '');
    const client = await worker.services.slackFor(OAUTH_TEAM);
    const posted = await client.chat.postMessage({ channel: 'CROT', text: 'digest' });
    expect(posted.ok).toBe(true);
    const now = await installedToken();
    expect(now?.token).not.toBe(first?.token);
    expect(now?.refreshToken).not.toBe(first?.refreshToken);
    expect(
      h.slack.calls.some((c) => c.result !== undefined && JSON.stringify(c.result).includes('token_expired')),
    ).toBe(false);
  });

  it('web and worker refreshing at once never spend one refresh token twice', async () => {
    const uses = Array.from({ length: 12 }, (_, i) =>
      (i % 2 === 0 ? worker : h.running).services
        .slackFor(OAUTH_TEAM)
        .then((client) => client.chat.postMessage({ channel: 'CROT', text: `at once ${i}` })),
    );
    const results = await Promise.all(uses);
    expect(results.every((result) => result.ok)).toBe(true);
    const refreshes = h.slack.callsTo('oauth.v2.access').filter((c) => c.args.grant_type === 'refresh_token');
    expect(refreshes.length).toBeGreaterThan(1);
    expect(refreshes.every((c) => (c.result as { ok?: boolean }).ok === true)).toBe(true);
  });
});

describe('org-wide (Enterprise Grid) installation', () => {
  it('is refused by name, never stored where no workspace key, policy or trail follows it', async () => {
    const { installationRef } = await import('../../src/slack/installation-store.js');
    expect(() => installationRef({ enterpriseId: 'E0001', isEnterpriseInstall: true })).toThrow(/org-wide/);
    expect(installationRef({ teamId: 'T0001', enterpriseId: 'E0001' })).toEqual({
      teamId: 'T0001',
      enterpriseId: 'E0001',
    });
  });
});
