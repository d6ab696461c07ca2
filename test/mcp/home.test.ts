import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_IDS } from '../../src/features/home/agents.js';
import { WS } from '../approvals/support.js';
import type { Harness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { homeButtonPress } from '../helpers/payloads.js';
import { call, connect, startMcpHarness, TestAgent } from './support.js';

describe("each person's agents in the App Home: listed with client names, revocable there and by admins", () => {
  let h: Harness & { base: string };

  beforeAll(async () => {
    h = await startMcpHarness();
    h.slack.users.set('U0BEA', { id: 'U0BEA', locale: 'de-DE' });
    h.slack.users.set('U0CARL', { id: 'U0CARL' });
    h.slack.users.set('UADMIN2', { id: 'UADMIN2', is_admin: true });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  /** The Home `user` is shown now, as Slack received it. */
  async function homeOf(user: string): Promise<string> {
    const before = h.slack.callsTo('views.publish').filter((c) => c.args.user_id === user).length;
    await h.driver.event({ type: 'app_home_opened', user, channel: `D${user}`, tab: 'home' });
    await h.slack.waitFor(
      () => h.slack.callsTo('views.publish').filter((c) => c.args.user_id === user).length > before,
    );
    const view = h.slack
      .callsTo('views.publish')
      .filter((c) => c.args.user_id === user)
      .at(-1)?.args.view;
    assertWithinBlockKitLimits(view, 'home');
    return JSON.stringify(view);
  }

  /** How /mcp answers a bare request with `token` (the SDK client would sign in again on a 401). */
  const statusWith = async (token: string | undefined) =>
    (
      await fetch(`${h.base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
    ).status;

  const grantIdIn = (home: string, client: string) =>
    new RegExp(`${client}[^}]*?\\}[^]*?"action_id":"${AGENT_IDS.revoke}","value":"([0-9a-f]+)"`).exec(
      home,
    )?.[1];

  it('lists the person’s own agents (in German for a German locale), and revoking one ends its token', async () => {
    const agent = new TestAgent('Claude Desktop', 'U0BEA');
    const client: Client = await connect(h.base, agent);
    expect((await call(client, 'watch_list')).isError).not.toBe(true);

    const home = await homeOf('U0BEA');
    expect(home).toContain('Agenten');
    expect(home).toContain('Claude Desktop');
    const grant = grantIdIn(home, 'Claude Desktop');
    expect(grant).toBeDefined();
    // Another member sees their own section only, not Bea's agents.
    expect(await homeOf('U0CARL')).not.toContain('Claude Desktop');

    await h.driver.interaction(homeButtonPress(AGENT_IDS.revoke, grant ?? '', 'U0BEA'));
    await expect.poll(() => statusWith(agent.saved?.access_token), { timeout: 10_000 }).toBe(401);
    // The token ends first, then the revocation is audited: wait for the entry rather than race it.
    const revokeEntry = async () =>
      (await h.running.services.audit.latest(WS, { limit: 10 })).find(
        (entry) => entry.action === 'agent_revoke',
      );
    await expect
      .poll(async () => (await revokeEntry())?.detail, { timeout: 10_000 })
      .toBe('client: Claude Desktop');
    await client.close().catch(() => {});
  });

  it("lets admins revoke anyone's agent; refuses another member", async () => {
    const agent = new TestAgent('Slackbot', 'U0CARL');
    const client = await connect(h.base, agent);
    const adminHome = await homeOf('UADMIN2');
    const grant = grantIdIn(adminHome, 'Slackbot') ?? '';
    expect(grant).not.toBe('');

    await h.driver.interaction(homeButtonPress(AGENT_IDS.revoke, grant, 'U0BEA'));
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) => c.method === 'chat.postMessage' && JSON.stringify(c.args).includes('Nur wer den Agenten'),
      ),
    );
    expect((await call(client, 'watch_list')).isError).not.toBe(true);

    await h.driver.interaction(homeButtonPress(AGENT_IDS.revoke, grant, 'UADMIN2'));
    await expect.poll(() => statusWith(agent.saved?.access_token), { timeout: 10_000 }).toBe(401);
    await client.close().catch(() => {});
  });
});
