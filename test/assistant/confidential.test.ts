import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ASK_SHORTCUT } from '../../src/features/assistant/ids.js';
import { DEFAULT_POLICY, type Policy } from '../../src/features/policy/policy.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';
import { allRedisText } from '../helpers/redis-dump.js';
import { type AssistantWorld, messageShortcut, outcomesIn, startAssistantWorld } from './support.js';

const LIMIT = { max: 50, windowMs: 60_000 };
const text = (call: SlackCall | undefined) => (call === undefined ? '' : messageText(call));

/**
 * What was said privately stays private (docs/requirements.md R33, policy `assistantAnswers`): a
 * thread's earlier exchange answered to its asker alone is never context of an answer the thread
 * reads, nor of another person's; and a message a shortcut asked about is not kept once its question
 * has ended.
 */
describe('private assistant answers and shortcut messages do not outlive their audience', () => {
  let w: AssistantWorld;
  let seq = 0;
  const nextTs = () => `1830000${String(++seq).padStart(3, '0')}.000500`;

  const setPolicy = (assistantAnswers: Policy['assistantAnswers']) =>
    w.h.running.services.policies.set({ teamId: 'T0001' }, { ...DEFAULT_POLICY, assistantAnswers });
  const mention = (user: string, question: string, channel: string, threadTs?: string) =>
    w.h.driver.event({
      type: 'app_mention',
      user,
      text: `<@UBOT> ${question}`,
      channel,
      ts: nextTs(),
      ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
    });
  /** The one registrar question that ends with `question`, once it was asked. */
  const askedFor = async (question: string) => {
    await w.h.slack.waitFor(() => w.registrar.about(question).length === 1, 15_000);
    return w.registrar.about(question)[0]?.q ?? '';
  };
  const ephemeralsTo = (user: string) =>
    w.h.slack.succeeded('chat.postEphemeral').filter((c) => c.args.user === user);

  beforeAll(async () => {
    w = await startAssistantWorld({
      env: { REGFISH_LIMITS: JSON.stringify({ assistantKey: LIMIT, assistantAccount: LIMIT }) },
      sandbox: { limits: { assistantKey: LIMIT, assistantAccount: LIMIT } },
    });
    w.h.slack.conversation('CCONNECT', { kind: 'public', botMember: true, shared: true });
    w.h.slack.conversation('CSHORT', { kind: 'public', botMember: true });
  });
  afterEach(async () => {
    await setPolicy(DEFAULT_POLICY.assistantAnswers);
  });
  afterAll(async () => {
    await w.stop();
  });

  it('a privately answered exchange reaches only its asker’s private follow-ups, never a public answer', async () => {
    // Slack Connect channel, default policy: answers go to their asker alone.
    const threadTs = nextTs();
    await w.h.driver.event({
      type: 'app_mention',
      user: 'UALICE',
      text: '<@UBOT> Where are my billing invoices?',
      channel: 'CCONNECT',
      ts: threadTs,
    });
    await w.h.slack.waitFor(() => ephemeralsTo('UALICE').length === 1, 15_000);
    expect(text(ephemeralsTo('UALICE')[0])).toContain('answered only to you');

    // The same asker, answered privately again: the earlier exchange is carried.
    await mention('UALICE', 'And may I download them as PDF?', 'CCONNECT', threadTs);
    const own = await askedFor('And may I download them as PDF?');
    expect(own).toContain('Q: Where are my billing invoices?');
    await w.h.slack.waitFor(() => ephemeralsTo('UALICE').length === 2, 15_000);

    // Someone else in the thread, answered privately too: Alice's exchanges are not theirs.
    await mention('UBOB', 'Which payment methods are accepted?', 'CCONNECT', threadTs);
    const bobs = await askedFor('Which payment methods are accepted?');
    expect(bobs).not.toContain('billing invoices');
    expect(bobs).not.toContain('PDF');
    expect(bobs).not.toContain('/my/billing');
    await w.h.slack.waitFor(() => ephemeralsTo('UBOB').length === 1, 15_000);

    // Answers now go to the thread: nothing said privately before is sent along, nor shown.
    await setPolicy('channel');
    await mention('UALICE', 'Is there anything else to know about this?', 'CCONNECT', threadTs);
    const open = await askedFor('Is there anything else to know about this?');
    expect(open).toBe('Is there anything else to know about this?');
    await w.h.slack.waitFor(() => outcomesIn(w.h.slack.calls, 'CCONNECT', threadTs).length === 1, 15_000);
    const posted = text(outcomesIn(w.h.slack.calls, 'CCONNECT', threadTs)[0]);
    expect(posted).toMatch(/^\["<@UALICE> here is the answer/);
    for (const said of ['billing invoices', 'PDF', 'payment methods', '/my/billing'])
      expect(posted).not.toContain(said);
  });

  it('an answer built on a private exchange goes privately, even if the thread may read answers by then', async () => {
    const threadTs = nextTs();
    await w.h.driver.event({
      type: 'app_mention',
      user: 'UERIN',
      text: '<@UBOT> Where are my billing invoices?',
      channel: 'CCONNECT',
      ts: threadTs,
    });
    await w.h.slack.waitFor(() => ephemeralsTo('UERIN').length === 1, 15_000);
    // Her follow-up is sent with her private exchange; while the registrar answers, the policy
    // changes to answering in threads.
    const held = w.registrar.hold('Which of them are still unpaid?');
    await mention('UERIN', 'Which of them are still unpaid?', 'CCONNECT', threadTs);
    await held.arrived;
    await setPolicy('channel');
    held.release();
    expect(await askedFor('Which of them are still unpaid?')).toContain('Q: Where are my billing invoices?');
    await w.h.slack.waitFor(() => ephemeralsTo('UERIN').length === 2, 15_000);
    expect(text(ephemeralsTo('UERIN')[1])).toContain('answered only to you');
    expect(outcomesIn(w.h.slack.calls, 'CCONNECT', threadTs)).toEqual([]);
  });

  it('a public exchange is still carried into a later public follow-up', async () => {
    await setPolicy('channel');
    const threadTs = nextTs();
    await w.h.driver.event({
      type: 'app_mention',
      user: 'UCAROL',
      text: '<@UBOT> How does a domain transfer work?',
      channel: 'CINTERNAL',
      ts: threadTs,
    });
    await w.h.slack.waitFor(() => outcomesIn(w.h.slack.calls, 'CINTERNAL', threadTs).length === 1, 15_000);
    await mention('UDAVE', 'And how long does it take?', 'CINTERNAL', threadTs);
    expect(await askedFor('And how long does it take?')).toContain('Q: How does a domain transfer work?');
  });

  it('the message a shortcut asked about is nowhere in Redis once its question is answered or has failed', async () => {
    const answered = 'Canary-5KQ9: invoice 4711 for example.org was declined by the bank.';
    const failed = 'Canary-8ZW3: the renewal of example.net stopped with an error.';
    const ask = async (message: string, name: string) => {
      const ts = nextTs();
      await w.h.driver.interaction(
        messageShortcut(ASK_SHORTCUT, {
          user: 'USHORT',
          channel: 'CSHORT',
          text: message,
          ts,
          responseUrl: w.h.slack.responseUrl(name),
        }),
      );
      await w.h.slack.waitFor(() => outcomesIn(w.h.slack.calls, 'CSHORT', ts).length === 1, 15_000);
      return text(outcomesIn(w.h.slack.calls, 'CSHORT', ts)[0]);
    };
    expect(await ask(answered, 'canary-answered')).toContain('here is the answer');
    // The registrar refuses the next one (400): the question fails, told to its asker.
    w.h.sandbox.faults.inject('assistant.search', { status: 400, times: 1 });
    expect(await ask(failed, 'canary-failed')).toContain('No answer');
    // Both were sent to the registrar with the message as context …
    expect(w.registrar.about('Canary-5KQ9')).toHaveLength(1);
    expect(w.registrar.about('Canary-8ZW3')).toHaveLength(1);

    // … and neither is kept: not in the jobs (completed jobs stay 24 h), nor anywhere else.
    const queue = w.h.running.services.assistantQueue;
    await expect
      .poll(async () => (await queue.getJobs(['active'])).filter((j) => j.data.user === 'USHORT'), {
        timeout: 10_000,
      })
      .toEqual([]);
    const dump = await allRedisText(w.h.running.services.redis, w.h.keyPrefix);
    expect(dump).toContain('USHORT'); // the dump does see the questions' jobs
    expect(dump).not.toContain('Canary-5KQ9');
    expect(dump).not.toContain('Canary-8ZW3');
  });
});
