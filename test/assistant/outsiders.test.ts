import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASK_SHORTCUT } from '../../src/features/assistant/ids.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';
import { dmMessage, messageShortcut, messagesTabOpened, outcomesIn, writeToBot } from './support.js';

const LIMIT = { max: 50, windowMs: 60_000 };
const QUESTION = 'How do I enable DNSSEC for my domain?';
/** What the registrar's answer to QUESTION says (sandbox seed): an answer anywhere shows it. */
const ANSWER_MARK = 'Enabling DNSSEC';

/**
 * Guests, people of another organisation and deactivated accounts never use Regdesk, the assistant
 * included (docs/requirements.md C3 "Who may act", R33): answers draw on the account's
 * domains, billing and certificates. Every assistant surface asks the permission model the look-ups
 * ask (R43) before the answer cache and the queue, and says why it refused.
 */
describe('the assistant refuses guests, external and deactivated people on every surface', () => {
  let h: Harness;
  let seq = 0;
  const nextTs = () => `1820000${String(++seq).padStart(3, '0')}.000400`;
  /** Where an outsider asks from, and the reason each one is given. */
  const OUTSIDERS = [
    { user: 'UGUEST', reason: 'Guests cannot use Regdesk.' },
    { user: 'UEXT', reason: 'People from outside this workspace (Slack Connect) cannot use Regdesk.' },
    { user: 'UGONE', reason: 'Deactivated accounts cannot use Regdesk.' },
  ] as const;
  /** Where the calls of the outsiders' attempts start (the member's cached answer was given before). */
  let mark = 0;

  const registrarQuestions = () => h.sandbox.calls.filter((c) => c.operation === 'assistant.search');
  const allJobs = () =>
    h.running.services.assistantQueue.getJobs([
      'waiting',
      'active',
      'delayed',
      'prioritized',
      'completed',
      'failed',
    ]);
  const text = (call: SlackCall | undefined) => (call === undefined ? '' : messageText(call));

  beforeAll(async () => {
    h = await startHarness({
      env: { REGFISH_LIMITS: JSON.stringify({ assistantKey: LIMIT, assistantAccount: LIMIT }) },
      sandbox: { limits: { assistantKey: LIMIT, assistantAccount: LIMIT } },
    });
    h.slack.users.set('UGUEST', { id: 'UGUEST', is_restricted: true });
    h.slack.users.set('UGUEST1', { id: 'UGUEST1', is_ultra_restricted: true });
    h.slack.users.set('UEXT', { id: 'UEXT', team_id: 'TOTHER' });
    h.slack.users.set('UGONE', { id: 'UGONE', deleted: true });
    h.slack.conversation('CSHORT', { kind: 'public', botMember: true });

    // A member's question is answered, and its answer cached: an outsider asking the same must not get it.
    await h.driver.command('/ask', QUESTION, { user: 'UMEMBER', channel: 'CPRIME' });
    await h.slack.waitFor(
      () => h.slack.succeeded('chat.postMessage').some((c) => text(c).includes(ANSWER_MARK)),
      15_000,
    );
    expect(registrarQuestions()).toHaveLength(1);
    mark = h.slack.calls.length;
  });
  afterAll(async () => {
    await h.stop();
  });

  /** After every outsider's attempt: no registrar call, nothing queued, no answer shown anywhere. */
  const expectNothingAnswered = async (users: readonly string[]) => {
    // Long enough for a queued question to have been answered (sandbox answers in 20 ms).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(registrarQuestions()).toHaveLength(1);
    const jobs = await allJobs();
    expect(jobs.filter((job) => users.includes(job.data.user))).toEqual([]);
    expect(jobs).toHaveLength(1);
    const later = h.slack.calls.slice(mark);
    expect(later.filter((c) => text(c).includes(ANSWER_MARK))).toEqual([]);
    // Nothing public on their behalf (no "@guest asked: …", no reaction on their message).
    expect(later.filter((c) => users.some((u) => text(c).includes(`<@${u}> asked`)))).toEqual([]);
    expect(later.filter((c) => c.method === 'reactions.add')).toEqual([]);
  };

  it('/ask: refused ephemerally, saying why', async () => {
    const users = [...OUTSIDERS, { user: 'UGUEST1', reason: 'Guests cannot use Regdesk.' }];
    await Promise.all(
      users.map(({ user }) =>
        h.driver.command('/ask', QUESTION, {
          user,
          channel: 'C0001',
          responseUrl: h.slack.responseUrl(`ask-${user}`),
        }),
      ),
    );
    for (const { user, reason } of users) {
      await h.slack.waitFor((calls) => calls.some((c) => c.method === `response_url:ask-${user}`), 15_000);
      const reply = h.slack.callsTo(`response_url:ask-${user}`)[0];
      expect(reply?.args.response_type).toBe('ephemeral');
      expect(text(reply)).toContain(reason);
    }
    await expectNothingAnswered(users.map((u) => u.user));
  });

  it('a mention: refused with an ephemeral in the channel, saying why', async () => {
    for (const { user } of OUTSIDERS) {
      await h.driver.event({
        type: 'app_mention',
        user,
        text: `<@UBOT> ${QUESTION}`,
        channel: 'C0001',
        ts: nextTs(),
      });
    }
    for (const { user, reason } of OUTSIDERS) {
      const ephemeral = () =>
        h.slack
          .succeeded('chat.postEphemeral')
          .find((c) => c.args.user === user && c.args.channel === 'C0001');
      await h.slack.waitFor(() => ephemeral() !== undefined, 15_000);
      expect(text(ephemeral())).toContain(reason);
    }
    await expectNothingAnswered(OUTSIDERS.map((u) => u.user));
  });

  it('a DM with the bot: refused in its thread, saying why', async () => {
    const asked = OUTSIDERS.map((outsider) => ({ ...outsider, ts: nextTs() }));
    for (const { user, ts } of asked) await h.driver.event(dmMessage(user, QUESTION, ts));
    for (const { user, reason, ts } of asked) {
      const reply = () =>
        h.slack
          .succeeded('chat.postMessage')
          .find((c) => c.args.channel === `D${user}` && c.args.thread_ts === ts);
      await h.slack.waitFor(() => reply() !== undefined, 15_000);
      expect(text(reply())).toContain(reason);
    }
    await expectNothingAnswered(OUTSIDERS.map((u) => u.user));
  });

  it('the Messages tab: no suggested prompts and nothing posted on opening it; a question there is refused in its thread', async () => {
    for (const { user, reason } of OUTSIDERS) {
      const opened = h.slack.calls.length;
      await h.driver.event(messagesTabOpened(user));
      // Slack sends app_home_opened on every opening: a refusal is told when they ask, not each time.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(h.slack.calls.slice(opened).filter((c) => c.method !== 'users.info')).toEqual([]);
      expect(h.slack.suggestedPrompts.get(`D${user}`)).toBeUndefined();

      const { ts, event } = writeToBot(h.slack, user, QUESTION);
      const inThread = () =>
        h.slack
          .succeeded('chat.postMessage')
          .filter((c) => c.args.channel === `D${user}` && c.args.thread_ts === ts);
      await h.driver.event(event);
      await h.slack.waitFor(() => inThread().length === 1, 15_000);
      expect(text(inThread()[0])).toContain(reason);
      expect(h.slack.assistantThreads.get(`D${user}:${ts}`)?.title).toBeUndefined();
      expect(
        h.slack.callsTo('assistant.threads.setStatus').filter((c) => c.args.channel_id === `D${user}`),
      ).toEqual([]);
    }
    await expectNothingAnswered(OUTSIDERS.map((u) => u.user));
  });

  it('the message shortcut: refused ephemerally, saying why; nothing posted in the thread', async () => {
    for (const { user } of OUTSIDERS) {
      await h.driver.interaction(
        messageShortcut(ASK_SHORTCUT, {
          user,
          channel: 'CSHORT',
          text: 'Invoice 4711 for example.org is overdue: the card was declined.',
          ts: nextTs(),
          responseUrl: h.slack.responseUrl(`sc-${user}`),
        }),
      );
    }
    for (const { user, reason } of OUTSIDERS) {
      await h.slack.waitFor((calls) => calls.some((c) => c.method === `response_url:sc-${user}`), 15_000);
      const reply = h.slack.callsTo(`response_url:sc-${user}`)[0];
      expect(reply?.args.response_type).toBe('ephemeral');
      expect(text(reply)).toContain(reason);
    }
    expect(h.slack.callsTo('chat.postMessage').filter((c) => c.args.channel === 'CSHORT')).toEqual([]);
    await expectNothingAnswered(OUTSIDERS.map((u) => u.user));
  });

  it('a full member is answered on every surface as before', async () => {
    const before = registrarQuestions().length;
    // A mention, a DM, a question after opening the Messages tab (its prompts pinned) and the
    // shortcut (a member's /ask was answered above); one member each, as one person has at most three
    // questions waiting (R34).
    const mentionTs = nextTs();
    await h.driver.event({
      type: 'app_mention',
      user: 'UMEM1',
      text: '<@UBOT> How does a domain transfer work?',
      channel: 'CMEMBER',
      ts: mentionTs,
    });
    const dm = writeToBot(h.slack, 'UMEM2', 'How does certificate validation work?');
    const dmTs = dm.ts;
    await h.driver.event(dm.event);
    await h.driver.event(messagesTabOpened('UMEM3'));
    await h.slack.waitFor(() => h.slack.suggestedPrompts.get('DUMEM3') !== undefined, 15_000);
    const tab = writeToBot(h.slack, 'UMEM3', 'How does auto-renew work?');
    const thread = { channel: 'DUMEM3', threadTs: tab.ts };
    await h.driver.event(tab.event);
    const shortcutTs = nextTs();
    await h.driver.interaction(
      messageShortcut(ASK_SHORTCUT, {
        user: 'UMEM4',
        channel: 'CSHORT',
        text: 'The renewal of example.org failed.',
        ts: shortcutTs,
        responseUrl: h.slack.responseUrl('sc-member'),
      }),
    );
    await h.slack.waitFor(
      () =>
        outcomesIn(h.slack.calls, 'CMEMBER', mentionTs).length === 1 &&
        outcomesIn(h.slack.calls, 'DUMEM2', dmTs).length === 1 &&
        outcomesIn(h.slack.calls, thread.channel, thread.threadTs).length === 1 &&
        outcomesIn(h.slack.calls, 'CSHORT', shortcutTs).length === 1,
      20_000,
    );
    for (const [channel, ts] of [
      ['CMEMBER', mentionTs],
      ['DUMEM2', dmTs],
      [thread.channel, thread.threadTs],
      ['CSHORT', shortcutTs],
    ] as const)
      expect(text(outcomesIn(h.slack.calls, channel, ts)[0])).toContain('here is the answer');
    expect(registrarQuestions().length - before).toBe(4);
  });
});
