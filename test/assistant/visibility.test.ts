import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Policy } from '../../src/features/policy/policy.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';

const LIMIT = { max: 50, windowMs: 60_000 };
const NONE: SlackCall = { method: '', args: {}, at: 0 };

/** Who reads an answer (billing data, here): the workspace's policy, `assistantAnswers`. */
describe('where assistant answers are shown', () => {
  let h: Harness;

  const setPolicy = (assistantAnswers: Policy['assistantAnswers']) =>
    h.running.services.policies.set({ teamId: 'T0001' }, { ...DEFAULT_POLICY, assistantAnswers });
  const ask = (channel: string, user: string) =>
    h.driver.command('/ask', 'Where are my billing invoices?', { channel, user });
  /** Posts (not ephemerals) in `channel` that carry the answer. */
  const publicAnswers = (channel: string) =>
    h.slack
      .succeeded('chat.postMessage')
      .filter((c) => c.args.channel === channel && messageText(c).includes('/my/billing'));
  const ephemeralTo = (channel: string, user: string) =>
    h.slack.succeeded('chat.postEphemeral').find((c) => c.args.channel === channel && c.args.user === user);
  const waitForEphemeral = async (channel: string, user: string) => {
    await h.slack.waitFor(() => ephemeralTo(channel, user) !== undefined, 15_000);
    return messageText(ephemeralTo(channel, user) ?? NONE);
  };
  /** The placeholder, once the outcome went privately, says so (nobody waits for it in the thread). */
  const saysAnsweredPrivately = (channel: string, user: string) =>
    h.slack.waitFor(() =>
      h.slack
        .succeeded('chat.update')
        .some(
          (c) => c.args.channel === channel && messageText(c).includes(`Answered privately to <@${user}>`),
        ),
    );

  beforeAll(async () => {
    h = await startHarness({
      env: { REGFISH_LIMITS: JSON.stringify({ assistantKey: LIMIT, assistantAccount: LIMIT }) },
      sandbox: { limits: { assistantKey: LIMIT, assistantAccount: LIMIT } },
    });
    h.slack.conversation('CCONNECT', { kind: 'public', botMember: true, shared: true });
  });
  afterEach(async () => {
    await setPolicy(DEFAULT_POLICY.assistantAnswers);
  });
  afterAll(async () => {
    await h.stop();
  });

  it('by default, a Slack Connect channel: the asker alone gets the answer; an internal channel: its thread', async () => {
    expect(DEFAULT_POLICY.assistantAnswers).toBe('shared-private');
    await ask('CCONNECT', 'U0101');
    await ask('CINTERNAL', 'U0102');

    const text = await waitForEphemeral('CCONNECT', 'U0101');
    expect(text).toContain('answered only to you');
    expect(text).toContain('<https://dash.regfish.example/my/billing/invoices|Billing>');
    await saysAnsweredPrivately('CCONNECT', 'U0101');
    // The question itself was posted (the asker's own words); no answer was.
    expect(
      h.slack
        .succeeded('chat.postMessage')
        .some((c) => c.args.text === '<@U0101> asked: Where are my billing invoices?'),
    ).toBe(true);
    expect(publicAnswers('CCONNECT')).toEqual([]);

    await h.slack.waitFor(() => publicAnswers('CINTERNAL').length === 1, 15_000);
    expect(publicAnswers('CINTERNAL')[0]?.args).toMatchObject({ thread_ts: expect.any(String) });
    expect(ephemeralTo('CINTERNAL', 'U0102')).toBeUndefined();
  });

  it('a mention in a Slack Connect channel is answered to the asker alone', async () => {
    await h.driver.event(
      {
        type: 'app_mention',
        user: 'U0103',
        text: '<@UBOT> billing invoices?',
        channel: 'CCONNECT',
        ts: '1700000200.000100',
      },
      { eventId: 'EvConnect1' },
    );
    expect(await waitForEphemeral('CCONNECT', 'U0103')).toContain('/my/billing/invoices');
    await saysAnsweredPrivately('CCONNECT', 'U0103');
    expect(publicAnswers('CCONNECT')).toEqual([]);
  });

  it('when Slack cannot tell whether the channel is shared (a missing scope), the answer goes privately', async () => {
    h.slack.failNext('conversations.info', 'missing_scope');
    await ask('CUNSURE', 'U0104');
    expect(await waitForEphemeral('CUNSURE', 'U0104')).toContain('/my/billing/invoices');
    expect(publicAnswers('CUNSURE')).toEqual([]);
  });

  it('`asker`: an ephemeral in the channel, a DM when the asker has left it, the thread of a DM with the bot', async () => {
    await setPolicy('asker');
    // The asker left the channel while the question waited: Slack refuses the ephemeral.
    h.slack.conversation('CLEFT', { kind: 'public', botMember: true, members: [] });
    await ask('CASKER', 'U0105');
    await ask('CLEFT', 'U0106');
    await ask('DU0107', 'U0107');

    expect(await waitForEphemeral('CASKER', 'U0105')).toContain('/my/billing/invoices');
    const dm = () => publicAnswers('DU0106')[0];
    await h.slack.waitFor(() => dm() !== undefined, 15_000);
    expect(dm()?.args.thread_ts).toBeUndefined();
    expect(messageText(dm() ?? NONE)).toContain('answered only to you');
    // Only the asker reads a DM with the bot: the answer stays in its thread.
    await h.slack.waitFor(() => publicAnswers('DU0107').length === 1, 15_000);
    expect(publicAnswers('DU0107')[0]?.args.thread_ts).toEqual(expect.any(String));
    for (const channel of ['CASKER', 'CLEFT']) expect(publicAnswers(channel)).toEqual([]);
  });

  it('`channel`: the thread, even in a Slack Connect channel, without asking Slack about it', async () => {
    await setPolicy('channel');
    const before = h.slack.callsTo('conversations.info').length;
    await ask('CCONNECT', 'U0108');
    await h.slack.waitFor(() => publicAnswers('CCONNECT').length === 1, 15_000);
    expect(publicAnswers('CCONNECT')[0]?.args.text).toMatch(/^<@U0108> /);
    expect(h.slack.callsTo('conversations.info')).toHaveLength(before);
  });
});
