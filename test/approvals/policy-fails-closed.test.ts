import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { POLICY_IDS } from '../../src/features/policy/ids.js';
import { ORDER_IDS } from '../../src/features/tls/ids.js';
import { createRedis } from '../../src/shared/redis.js';
import { inputActionId } from '../../src/slack/modal.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { messageText, viewSubmission } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { orderForm } from '../tls/world.js';
import { ask, toldTo, WS } from './support.js';

const P = POLICY_IDS.field;
const ADMIN = 'UADMIN'; // a workspace admin: may open and save the policy
const LISTED = 'ULISTED'; // the one listed requester of the saved policy
const PLAIN = 'UPLAIN'; // a member in good standing the saved policy does not list
const UNREADABLE = "This workspace's approval policy could not be read";
const SAVE_AGAIN = 'opens `/domain policy` and saves it again';

describe('a saved approval policy that cannot be read refuses what it governs (R41; signed requests, fake Slack, sandbox)', () => {
  let h: Harness;
  const redis = createRedis(testRedisUrl(), 'worker');
  let saves = 0;
  const policyKey = () => `${h.keyPrefix}:{ws:-:T0001}:policy`;

  beforeAll(async () => {
    h = await startHarness();
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
    h.slack.users.set(LISTED, { id: LISTED });
    h.slack.users.set(PLAIN, { id: PLAIN });
  });
  afterAll(async () => {
    if (process.env.DUMP_LOGS) console.log(h.logs.filter((l) => !l.includes('"level":"debug"')).join(''));
    await h.stop();
    redis.disconnect();
  });

  /** The admin submits the policy modal: only listed requesters (and approvers) may ask. */
  async function savePolicy(): Promise<void> {
    const input = (block: string, value: Record<string, unknown>) => ({
      [block]: { [inputActionId(block)]: value },
    });
    const values = {
      ...input(P.requesters, { type: 'static_select', selected_option: { value: 'listed' } }),
      ...input(P.requesterUsers, { type: 'multi_users_select', selected_users: [LISTED] }),
    };
    saves += 1;
    const res = await h.driver.interaction(
      viewSubmission(POLICY_IDS.modal, values, { user: ADMIN, viewId: `VPOLICY${saves}` }),
    );
    expect(res.json()).toMatchObject({ response_action: 'update' });
    const saved = (c: { method: string; args: unknown }) =>
      c.method === 'views.update' && JSON.stringify(c.args).includes('policy is saved');
    await h.slack.waitFor((calls) => calls.filter(saved).length === saves);
  }

  /** `/domain authcode` by `user` in a channel of its own; returns what they were told. */
  async function askForAuthCode(user: string, channel: string): Promise<string> {
    const answer = `${channel}-${user}`;
    await h.driver.command('/domain', 'authcode regdesk-demo.de', {
      user,
      channel,
      responseUrl: h.slack.responseUrl(answer),
    });
    await h.slack.waitFor(() => h.slack.callsTo(`response_url:${answer}`).length > 0);
    return JSON.stringify(h.slack.callsTo(`response_url:${answer}`)[0]?.args);
  }

  const postedIn = (channel: string) =>
    h.slack.callsTo('chat.postMessage').filter((c) => c.args.channel === channel);
  const refusals = async (user: string) =>
    (await h.running.services.audit.latest(WS, { limit: 200 })).filter(
      (entry) => entry.action === 'refuse' && entry.actor === user,
    );
  const errorLines = () =>
    h.logs.filter(
      (line) => line.includes('"level":"error"') && line.includes('approval policy cannot be read'),
    );

  /** Both users are refused, saying why and what fixes it; nothing is posted for approval; audited and logged. */
  async function expectRequestsRefused(channel: string): Promise<void> {
    const auditedBefore = (await refusals(PLAIN)).length;
    const loggedBefore = errorLines().length;
    for (const user of [PLAIN, LISTED]) {
      const told = await askForAuthCode(user, `${channel}${user}`);
      expect(told).toContain(UNREADABLE);
      expect(told).toContain(SAVE_AGAIN);
      expect(postedIn(`${channel}${user}`)).toEqual([]);
    }
    // Newest first: the entries this call added.
    const all = await refusals(PLAIN);
    const audited = all.slice(0, all.length - auditedBefore);
    expect(audited).toEqual([
      expect.objectContaining({
        operation: 'domain.authcode',
        target: 'regdesk-demo.de',
        outcome: expect.stringContaining(UNREADABLE),
      }),
    ]);
    expect(errorLines().length - loggedBefore).toBe(2);
    expect(await h.running.services.approvalStore.pending(WS)).toEqual([]);
  }

  it('refuses requests as the saved policy says while it can be read', async () => {
    await savePolicy();
    expect(await askForAuthCode(PLAIN, 'CSAVED')).toContain('Only listed requesters and approvers');
    expect(postedIn('CSAVED')).toEqual([]);
  });

  it('with the stored policy overwritten by garbage: refuses sensitive requests and orders, even for the listed requester', async () => {
    await redis.set(policyKey(), '{"requesters":"listed","requesterUsers":["ULISTED"');
    await expectRequestsRefused('CGARBAGE');
    // The stored text never reaches a log line.
    expect(h.logs.join('')).not.toContain('"requesterUsers":["ULISTED"');

    // `/tls order`: the modal shows why instead of the form; audited.
    await h.driver.command('/tls', 'order', { user: PLAIN, channel: 'CORDER' });
    const lastUpdate = () =>
      messageText(h.slack.callsTo('views.update').at(-1) ?? { method: '', args: {}, at: 0 });
    await h.slack.waitFor(() => lastUpdate().includes(UNREADABLE));
    expect(lastUpdate()).toContain('order certificates');
    expect(lastUpdate()).not.toContain(ORDER_IDS.cn);
    expect(await refusals(PLAIN)).toContainEqual(
      expect.objectContaining({ operation: 'tls.order', outcome: expect.stringContaining(UNREADABLE) }),
    );

    // A submission without the modal (one opened before, or forged) is refused after its ack the same way.
    await h.driver.interaction(
      viewSubmission(ORDER_IDS.modal, orderForm('plain.example.com'), {
        user: PLAIN,
        privateMetadata: JSON.stringify({ channel: 'CORDER' }),
      }),
    );
    await h.slack.waitFor(() => toldTo(h, PLAIN).some((text) => text.includes(UNREADABLE)));
    expect(await refusals(PLAIN)).toContainEqual(
      expect.objectContaining({ operation: 'tls.order', target: 'plain.example.com' }),
    );
    expect(postedIn('CORDER')).toEqual([]);
    expect(h.sandbox.calls.filter((c) => c.operation === 'tls.order')).toEqual([]);
  });

  it('opens /domain policy for an admin, at the strictest settings with a warning; a plain member still cannot', async () => {
    const opened = () => h.slack.succeeded('views.open').length;
    const before = opened();
    await h.driver.command('/domain', 'policy', { user: ADMIN, channel: 'CADMIN' });
    await h.slack.waitFor(() => opened() > before);
    const modal = JSON.stringify(h.slack.succeeded('views.open').at(-1)?.args.view);
    expect(modal).toContain('The saved policy could not be read');
    // Who may request starts at "listed" and nobody is listed.
    expect(modal).toMatch(
      /"initial_option":\{"text":\{"type":"plain_text","text":"[^"]*"\},"value":"listed"\}/,
    );
    const blocks = (JSON.parse(modal) as { blocks: { block_id?: string; element?: object }[] }).blocks;
    const element = (block: string) => blocks.find((b) => b.block_id === block)?.element;
    // DNS record changes need the most approvals, nobody and no type exempt (R47).
    expect(element(POLICY_IDS.action.record.approvals)).toMatchObject({ initial_option: { value: '5' } });
    expect(element(P.recordChangeExemptTypes)).not.toHaveProperty('initial_options');
    expect(element(P.recordChangeExemptUsers)).toMatchObject({ initial_users: [] });

    const responses = h.slack.responseUrl('plain-policy');
    await h.driver.command('/domain', 'policy', { user: PLAIN, channel: 'CADMIN', responseUrl: responses });
    await h.slack.waitFor(() => h.slack.callsTo('response_url:plain-policy').length > 0);
    expect(JSON.stringify(h.slack.callsTo('response_url:plain-policy')[0]?.args)).toContain(':lock:');
    expect(opened()).toBe(before + 1);
  });

  it('with the stored policy deleted (its saved marker kept): refuses just the same', async () => {
    await savePolicy();
    await redis.del(policyKey());
    await expectRequestsRefused('CGONE');
  });

  it('once an admin saves the policy again, requests work as it says', async () => {
    await savePolicy();
    expect(await askForAuthCode(PLAIN, 'CAGAIN')).toContain('Only listed requesters and approvers');
    expect(postedIn('CAGAIN')).toEqual([]);
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', { user: LISTED, channel: 'CLISTED' });
    expect(await h.running.services.approvalStore.get(WS, id)).toMatchObject({
      state: 'pending',
      requester: LISTED,
    });
  });
});
