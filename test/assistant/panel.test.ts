import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUGGESTED_PROMPTS } from '../../src/features/assistant/panel.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';
import {
  type AssistantWorld,
  messagesTabOpened,
  outcomesIn,
  startAssistantWorld,
  statusesOf,
  writeToBot,
} from './support.js';

const LIMIT = { max: 50, windowMs: 60_000 };
const NONE: SlackCall = { method: '', args: {}, at: 0 };

/**
 * Slack's agent messaging (manifest `features.agent_view`): people talk to Regdesk in its Messages tab,
 * their DM with the bot. Opening the tab is `app_home_opened` with `tab: messages`; each message is a
 * question answered in its thread, the thread's status saying what goes on meanwhile.
 */
describe('the assistant in the Messages tab', () => {
  let w: AssistantWorld;

  beforeAll(async () => {
    w = await startAssistantWorld({
      env: { REGFISH_LIMITS: JSON.stringify({ assistantKey: LIMIT, assistantAccount: LIMIT }) },
      sandbox: {
        delays: { assistantAnswerMs: 150 },
        limits: { assistantKey: LIMIT, assistantAccount: LIMIT },
      },
    });
    w.h.slack.users.set('UDE', { id: 'UDE', locale: 'de-DE' });
  });
  afterAll(async () => {
    await w.stop();
  });

  it('opening the tab pins four suggested prompts in the person’s language, with no thread_ts', async () => {
    for (const user of ['UEN', 'UDE'])
      expect((await w.h.driver.event(messagesTabOpened(user))).status).toBe(200);
    await w.h.slack.waitFor(
      () => w.h.slack.succeeded('assistant.threads.setSuggestedPrompts').length >= 2,
      15_000,
    );
    expect(w.h.slack.suggestedPrompts.get('DUEN')).toEqual({
      title: SUGGESTED_PROMPTS.en.title,
      prompts: SUGGESTED_PROMPTS.en.prompts,
    });
    expect(w.h.slack.suggestedPrompts.get('DUDE')?.prompts).toEqual(SUGGESTED_PROMPTS.de.prompts);
    expect(w.h.slack.suggestedPrompts.get('DUEN')?.prompts.map((p) => p.title)).toEqual([
      'Renewals',
      'DNSSEC',
      'Certificates',
      'Transfers',
    ]);
    // Slack's reference: a thread_ts makes the call silently fail for an agent app.
    for (const call of w.h.slack.callsTo('assistant.threads.setSuggestedPrompts'))
      expect(call.args).not.toHaveProperty('thread_ts');
    // The Home tab is the home feature's: nothing published for a Messages tab opening.
    expect(w.h.slack.callsTo('views.publish').filter((c) => c.args.user_id === 'UEN')).toEqual([]);
  });

  it('a message in the tab: status while it runs, the answer a reply in its thread, the thread titled', async () => {
    const { ts, event } = writeToBot(w.h.slack, 'UPANEL', 'How do I enable DNSSEC for my domain?');
    await w.h.driver.event(event);
    await w.h.slack.waitFor(() => outcomesIn(w.h.slack.calls, 'DUPANEL', ts).length === 1, 15_000);
    const answer = outcomesIn(w.h.slack.calls, 'DUPANEL', ts)[0] ?? NONE;
    expect(messageText(answer)).toContain('*Enabling DNSSEC*');
    assertWithinBlockKitLimits(answer.args, 'message');
    // The thread's status said what was going on, then was cleared; no placeholder message, no reactions.
    await w.h.slack.waitFor(() => statusesOf(w.h.slack.calls, 'DUPANEL', ts).at(-1) === '', 15_000);
    expect(statusesOf(w.h.slack.calls, 'DUPANEL', ts)).toContain('is looking it up…');
    expect(
      w.h.slack.calls.filter(
        (c) => c.args.channel === 'DUPANEL' && /Asking the registrar|Queued/.test(messageText(c)),
      ),
    ).toEqual([]);
    expect(w.h.slack.callsTo('reactions.add').filter((c) => c.args.channel === 'DUPANEL')).toEqual([]);
    expect(w.h.slack.assistantThreads.get(`DUPANEL:${ts}`)?.title).toBe(
      'How do I enable DNSSEC for my domain?',
    );
    expect(w.registrar.about('enable DNSSEC for my domain')).toHaveLength(1);
  });

  it('a follow-up in the thread carries its earlier question and answer to the registrar', async () => {
    const first = writeToBot(w.h.slack, 'UFOLLOW', 'How does a domain transfer work?');
    await w.h.driver.event(first.event);
    await w.h.slack.waitFor(() => outcomesIn(w.h.slack.calls, 'DUFOLLOW', first.ts).length === 1, 15_000);
    const followUp = writeToBot(w.h.slack, 'UFOLLOW', 'And what does the auth code do there?', first.ts);
    await w.h.driver.event(followUp.event);
    await w.h.slack.waitFor(() => outcomesIn(w.h.slack.calls, 'DUFOLLOW', first.ts).length === 2, 15_000);
    const asked = w.registrar.about('And what does the auth code do there?');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.q).toContain('Earlier in this conversation');
    expect(asked[0]?.q).toContain('Q: How does a domain transfer work?');
    expect(asked[0]?.q).toMatch(/A: .*[Tt]ransfer/);
    // The thread keeps the title its first question gave it.
    expect(
      w.h.slack.succeeded('assistant.threads.setTitle').filter((c) => c.args.channel_id === 'DUFOLLOW'),
    ).toHaveLength(1);
  });

  it('ignores the bot’s own and other bots’ messages, edits, and refuses an empty question in its thread', async () => {
    const root = writeToBot(w.h.slack, 'UQUIET', 'How do I renew?');
    const before = w.registrar.asked.length;
    await w.h.driver.event({ ...root.event, bot_id: 'BOTHER' });
    await w.h.driver.event({ ...root.event, subtype: 'message_changed' });
    const empty = writeToBot(w.h.slack, 'UQUIET', '   ', root.ts);
    await w.h.driver.event(empty.event);
    await w.h.slack.waitFor(
      () =>
        w.h.slack
          .succeeded('chat.postMessage')
          .some((c) => c.args.thread_ts === root.ts && messageText(c).includes('Ask a question')),
      15_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(w.registrar.asked.length).toBe(before);
    expect(outcomesIn(w.h.slack.calls, 'DUQUIET', root.ts)).toEqual([]);
  });

  it('questions from many Messages tabs with two processes: one in flight per account, no 429/503, each answered once', async () => {
    const users = ['UPA', 'UPB', 'UPC', 'UPD', 'UPE'];
    const topics = ['renewal', 'billing invoice', 'vanity nameservers', 'dns records ttl', 'api keys'];
    // The first answer takes 3 s: the others, however slowly they arrive under load, wait behind it.
    w.h.sandbox.faults.inject('assistant.search', { delayMs: 3_000, times: 1 });
    const asked = users.map((user, i) => ({
      user,
      ...writeToBot(w.h.slack, user, `Tell me about ${topics[i]}`),
    }));
    await Promise.all(asked.map((a) => w.h.driver.event(a.event)));
    await w.h.slack.waitFor(
      () => asked.every((a) => outcomesIn(w.h.slack.calls, `D${a.user}`, a.ts).length >= 1),
      50_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const a of asked) expect(outcomesIn(w.h.slack.calls, `D${a.user}`, a.ts)).toHaveLength(1);
    expect(w.registrar.asked.filter((a) => a.status === 503 || a.status === 429)).toEqual([]);
    // Someone waited, and their thread's status said where they stood.
    const statuses = asked.flatMap((a) => statusesOf(w.h.slack.calls, `D${a.user}`, a.ts));
    expect(statuses.some((s) => /^is in queue, \d ahead, /.test(s))).toBe(true);
  }, 60_000);
});
