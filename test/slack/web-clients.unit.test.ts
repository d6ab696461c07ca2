import type { AllMiddlewareArgs, AuthorizeSourceData } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { requestClient, tokenForRegdesk, WebClients } from '../../src/slack/web-clients.js';

const SOURCE: AuthorizeSourceData<boolean> = {
  teamId: 'T0001',
  enterpriseId: undefined,
  isEnterpriseInstall: false,
};

describe('the Web API clients of one process (issue #49: memory that stays flat)', () => {
  it('serves any number of workspaces with a few clients, each call with its workspace’s token', async () => {
    const sent: string[] = [];
    const clients = new WebClients({
      slackApiUrl: 'http://slack.invalid/api/',
      retryConfig: { retries: 0 },
      fetch: async (_input, init) => {
        sent.push(new Headers(init?.headers).get('authorization') ?? '');
        return new Response(JSON.stringify({ ok: true }), {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const tokens = Array.from({ length: 1_000 }, (_, i) => `xoxb-workspace-${i}`);
    await Promise.all(tokens.map((token) => clients.forToken(token).users.info({ user: 'U0001' })));
    expect(clients.size).toBeLessThanOrEqual(8);
    expect(sent.sort()).toEqual(tokens.map((token) => `Bearer ${token}`).sort());
    // Every way of calling the API carries it, and the view says whose it is.
    const one = clients.forToken('xoxb-one');
    expect(one.token).toBe('xoxb-one');
    await one.apiCall('auth.test');
    await one.chat.postMessage({ channel: 'C1', text: 'hi' });
    await one.auth.test();
    expect(sent.slice(-3)).toEqual(['Bearer xoxb-one', 'Bearer xoxb-one', 'Bearer xoxb-one']);
    // A caller's own token still wins.
    await one.auth.test({ token: 'xoxb-other' });
    expect(sent.at(-1)).toBe('Bearer xoxb-other');
  });

  it('hands the bot token to Regdesk, keeping the bot’s identity where Bolt looks for it', async () => {
    const authorize = tokenForRegdesk(async () => ({
      botToken: 'xoxb-abc',
      userToken: 'xoxp-not-asked-for',
      botId: 'B1',
      botUserId: 'UBOT',
      teamId: 'T0001',
    }));
    const result = await authorize(SOURCE);
    // No token Bolt would make (and keep) a client of its own for.
    expect(result.botToken).toBeUndefined();
    expect(result.userToken).toBeUndefined();
    expect(result).toMatchObject({ botId: 'B1', botUserId: 'UBOT', teamId: 'T0001' });

    const clients = new WebClients({});
    const boltClient = new WebClient();
    const args = { context: { ...result, isEnterpriseInstall: false }, client: boltClient };
    const client = requestClient(clients, args as Pick<AllMiddlewareArgs, 'context' | 'client'>);
    expect(client.token).toBe('xoxb-abc');
    expect(client).toBeInstanceOf(WebClient);
  });

  it('leaves a request without a token (app_uninstalled, tokens_revoked) with Bolt’s client', async () => {
    const authorize = tokenForRegdesk(async () => ({ teamId: 'T0001' }));
    const result = await authorize(SOURCE);
    const boltClient = new WebClient();
    const args = { context: { ...result, isEnterpriseInstall: false }, client: boltClient };
    expect(requestClient(new WebClients({}), args as Pick<AllMiddlewareArgs, 'context' | 'client'>)).toBe(
      boltClient,
    );
  });
});
