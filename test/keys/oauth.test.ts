import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '../../src/shared/redis.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { allRedisText } from '../helpers/redis-dump.js';

describe('multi-workspace OAuth install', () => {
  let h: Harness;
  const redis = createRedis(testRedisUrl(), 'worker');

  beforeAll(async () => {
    h = await startHarness({
      env: {
        SLACK_BOT_TOKEN: '',
        SLACK_CLIENT_ID: '111.222',
        SLACK_CLIENT_SECRET: 'client-secret-canary',
        SLACK_STATE_SECRET: 'state-secret-for-tests',
        // OAuth mode never falls back to the sandbox's shared demo key.
        REGFISH_SANDBOX: '0',
        VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
      },
    });
  });
  afterAll(async () => {
    await h.stop();
    redis.disconnect();
  });

  it('installs from /slack/install through oauth.v2.access and keeps the installation sealed in the vault', async () => {
    const start = await fetch(`${h.url}/slack/install`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const location = new URL(start.headers.get('location') ?? '');
    expect(location.searchParams.get('client_id')).toBe('111.222');
    expect(location.searchParams.get('scope')).toContain('chat:write');
    const state = location.searchParams.get('state') ?? '';
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

    const done = await fetch(`${h.url}/slack/oauth_redirect?code=abc123&state=${encodeURIComponent(state)}`, {
      headers: { cookie },
      redirect: 'manual',
    });
    expect(done.status).toBeLessThan(400);
    expect(h.slack.callsTo('oauth.v2.access')).toHaveLength(1);

    const installation = await h.running.services.vault.get({ teamId: 'T0OAUTH' }, 'slack-installation');
    expect(JSON.parse(installation ?? '{}')).toMatchObject({
      team: { id: 'T0OAUTH' },
      bot: { token: 'xoxb-installed-abc123' },
    });
    expect(await allRedisText(redis, h.keyPrefix)).not.toContain('xoxb-installed-abc123');

    // Requests from the installed workspace are authorized with its own token.
    const res = await h.driver.command('/domain', 'help', { team: 'T0OAUTH' });
    expect(res.status).toBe(200);

    await h.driver.event({ type: 'tokens_revoked', tokens: { bot: ['UBOT'] } }, { team: 'T0OAUTH' });
    await expect
      .poll(() => h.running.services.vault.get({ teamId: 'T0OAUTH' }, 'slack-installation'))
      .toBeUndefined();
  });

  it('refuses a callback with a forged state', async () => {
    const res = await fetch(`${h.url}/slack/oauth_redirect?code=abc&state=forged`, { redirect: 'manual' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(h.slack.callsTo('oauth.v2.access')).toHaveLength(1);
  });
});
