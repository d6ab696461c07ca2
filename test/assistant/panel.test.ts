import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUGGESTED_PROMPTS } from '../../src/features/assistant/panel.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';
import {
  type AssistantWorld,
  dmMessage,
  outcomesIn,
  startAssistantWorld,
  statusesOf,
  threadStarted,
} from './support.js';

const LIMIT = { max: 50, windowMs: 60_000 };
const NONE: SlackCall = { method: '', args: {}, at: 0 };

describe('the assistant side panel and DMs', () => {
  let w: AssistantWorld;

  /** A person opens the panel: Slack starts a thread in their DM and tells the app. */
  const openPanel = async (user: string) => {
    const thread = w.h.slack.startAssistantThread(user);
    const res = await w.h.driver.event(threadStarted(user, thread.channel, thread.threadTs));
    expect(res.status).toBe(200);
    return thread;
  };
  let seq = 0;
  const nextTs = () => `1800000${String(++seq).padStart(3, '0')}.000200`;

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

  it('a new thread gets four suggested prompts in the asker’s language', async () => {
    const en = await openPanel('UEN');
    const de = await openPanel('UDE');
    await w.h.slack.waitFor(
      () => w.h.slack.succeeded('assistant.threads.setSuggestedPrompts').length >= 2,
      15_000,
    );
    const promptsOf = (thread: { channel: string; threadTs: string }) =>
      w.h.slack.assistantThreads.get(`${thread.channel}:${thread.threadTs}`)?.prompts;
    expect(promptsOf(en)).toEqual(SUGGESTED_PROMPTS.en.prompts);
    expect(promptsOf(de)).toEqual(SUGGESTED_PROMPTS.de.prompts);
    expect(promptsOf(en)?.map((p) => p.title)).toEqual(['Renewals', 'DNSSEC', 'Certificates', 'Transfers']);
  });

  it('a question in the panel: status while it runs, the answer a reply in the thread, the thread titled', async () => {
    const thread = await openPanel('UPANEL');
    const ts = nextTs();
    w.h.slack.postAsUser('UPANEL', thread.channel, 'How do I enable DNSSEC for my domain?', thread.threadTs);
    await w.h.driver.event(dmMessage('UPANEL', 'How do I enable DNSSEC for my domain?', ts, thread.threadTs));
    await w.h.slack.waitFor(
      () => outcomesIn(w.h.slack.calls, thread.channel, thread.threadTs).length === 1,
      15_000,
    );
    const answer = outcomesIn(w.h.slack.calls, thread.channel, thread.threadTs)[0] ?? NONE;
    expect(messageText(answer)).toContain('*Enabling DNSSEC*');
    assertWithinBlockKitLimits(answer.args, 'message');
    // The thread's status said what was going on, then was cleared; no placeholder message, no reactions.
    await w.h.slack.waitFor(
      () => statusesOf(w.h.slack.calls, thread.channel, thread.threadTs).at(-1) === '',
      15_000,
    );
    expect(statusesOf(w.h.slack.calls, thread.channel, thread.threadTs)).toContain('is looking it up…');
    expect(
      w.h.slack.calls.filter(
        (c) => c.args.channel === thread.channel && /Asking the registrar|Queued/.test(messageText(c)),
      ),
    ).toEqual([]);
    expect(w.h.slack.callsTo('reactions.add').filter((c) => c.args.channel === thread.channel)).toEqual([]);
    expect(w.h.slack.assistantThreads.get(`${thread.channel}:${thread.threadTs}`)?.title).toBe(
      'How do I enable DNSSEC for my domain?',
    );
    expect(w.registrar.about('enable DNSSEC for my domain')).toHaveLength(1);
  });

  it('a follow-up in the thread carries its earlier question and answer to the registrar', async () => {
    const thread = await openPanel('UFOLLOW');
    await w.h.driver.event(
      dmMessage('UFOLLOW', 'How does a domain transfer work?', nextTs(), thread.threadTs),
    );
    await w.h.slack.waitFor(
      () => outcomesIn(w.h.slack.calls, thread.channel, thread.threadTs).length === 1,
      15_000,
    );
    await w.h.driver.event(
      dmMessage('UFOLLOW', 'And what does the auth code do there?', nextTs(), thread.threadTs),
    );
    await w.h.slack.waitFor(
      () => outcomesIn(w.h.slack.calls, thread.channel, thread.threadTs).length === 2,
      15_000,
    );
    const followUp = w.registrar.about('And what does the auth code do there?');
    expect(followUp).toHaveLength(1);
    expect(followUp[0]?.q).toContain('Earlier in this conversation');
    expect(followUp[0]?.q).toContain('Q: How does a domain transfer work?');
    expect(followUp[0]?.q).toMatch(/A: .*[Tt]ransfer/);
  });

  it('a top-level DM with the bot (not an assistant thread) is answered in its thread, with a placeholder', async () => {
    const ts = nextTs();
    await w.h.driver.event(dmMessage('UDM', 'How does certificate validation work?', ts));
    await w.h.slack.waitFor(() => outcomesIn(w.h.slack.calls, 'DUDM', ts).length === 1, 15_000);
    expect(statusesOf(w.h.slack.calls, 'DUDM', ts)).toEqual([]);
    // Its placeholder went once the answer was below it.
    await w.h.slack.waitFor(
      () => w.h.slack.succeeded('chat.delete').some((c) => c.args.channel === 'DUDM'),
      15_000,
    );
  });

  it('ignores the bot’s own and other bots’ messages, edits, and refuses an empty question in the thread', async () => {
    const thread = await openPanel('UQUIET');
    const before = w.registrar.asked.length;
    await w.h.driver.event({
      ...dmMessage('UQUIET', 'How do I renew?', nextTs(), thread.threadTs),
      bot_id: 'BOTHER',
    });
    await w.h.driver.event({
      ...dmMessage('UQUIET', 'How do I renew?', nextTs(), thread.threadTs),
      subtype: 'message_changed',
    });
    await w.h.driver.event(dmMessage('UQUIET', '   ', nextTs(), thread.threadTs));
    await w.h.slack.waitFor(
      () =>
        w.h.slack
          .succeeded('chat.postMessage')
          .some((c) => c.args.thread_ts === thread.threadTs && messageText(c).includes('Ask a question')),
      15_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(w.registrar.asked.length).toBe(before);
    expect(outcomesIn(w.h.slack.calls, thread.channel, thread.threadTs)).toEqual([]);
  });

  it('questions from many panels with two processes: one in flight per account, no 429/503, each answered once', async () => {
    const threads = await Promise.all(['UPA', 'UPB', 'UPC', 'UPD', 'UPE'].map((user) => openPanel(user)));
    const topics = ['renewal', 'billing invoice', 'vanity nameservers', 'dns records ttl', 'api keys'];
    // The first answer takes 3 s: the others, however slowly they arrive under load, wait behind it.
    w.h.sandbox.faults.inject('assistant.search', { delayMs: 3_000, times: 1 });
    await Promise.all(
      threads.map((thread, i) =>
        w.h.driver.event(
          dmMessage(thread.channel.slice(1), `Tell me about ${topics[i]}`, nextTs(), thread.threadTs),
        ),
      ),
    );
    await w.h.slack.waitFor(
      () => threads.every((t) => outcomesIn(w.h.slack.calls, t.channel, t.threadTs).length >= 1),
      50_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const t of threads) expect(outcomesIn(w.h.slack.calls, t.channel, t.threadTs)).toHaveLength(1);
    expect(w.registrar.asked.filter((a) => a.status === 503 || a.status === 429)).toEqual([]);
    // Someone waited, and their status said where they stood.
    const statuses = threads.flatMap((t) => statusesOf(w.h.slack.calls, t.channel, t.threadTs));
    expect(statuses.some((s) => /^is in queue, \d ahead, /.test(s))).toBe(true);
  }, 60_000);
});
