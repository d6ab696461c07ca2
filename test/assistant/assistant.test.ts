import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { texts } from '../../src/text/index.js';
import { type Harness, memoryLogger, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';

/** Outcomes posted as new replies in a thread (answers and "No answer"), not edits. */
const answers = (h: Harness): SlackCall[] =>
  h.slack.succeeded('chat.postMessage').filter(
    (c) =>
      c.args.thread_ts !== undefined &&
      // U0001's Slack is German: their answers come in German.
      /here is the answer|No answer|hier ist die Antwort|Keine Antwort/.test(messageText(c)),
  );

/** Placeholders ("Asking the registrar's assistant…", "Queued: …") posted in `channel` and still there. */
const waitingLeft = (h: Harness, channel: string): string[] => {
  const deleted = new Set(h.slack.succeeded('chat.delete').map((c) => String(c.args.ts)));
  return h.slack
    .succeeded('chat.postMessage')
    .filter((c) => c.args.channel === channel && /^:hourglass_flowing_sand:/.test(String(c.args.text)))
    .map((c) => String((c.result as { ts?: string } | undefined)?.ts))
    .filter((ts) => !deleted.has(ts));
};

describe("the registrar's assistant in channels", () => {
  let h: Harness;
  let second: Running;

  beforeAll(async () => {
    h = await startHarness({
      env: {
        // Several processes share secrets only with a shared master key.
        VAULT_MASTER_KEY: Buffer.alloc(32, 3).toString('base64'),
        REGFISH_LIMITS:
          '{"assistantKey":{"max":50,"windowMs":60000},"assistantAccount":{"max":50,"windowMs":60000}}',
      },
      sandbox: {
        delays: { assistantAnswerMs: 120 },
        limits: {
          assistantKey: { max: 50, windowMs: 60_000 },
          assistantAccount: { max: 50, windowMs: 60_000 },
        },
      },
    });
    h.slack.users.set('U0001', { id: 'U0001', locale: 'de-DE' });
    // No channel here is shared with another organisation: answers go in threads (the default policy).
    // A second worker process against the same Redis and registrar.
    second = await runRegdesk({
      role: 'worker',
      config: loadConfig(h.env),
      logger: memoryLogger().logger,
      env: h.env,
      say: () => {},
    });
  });
  afterAll(async () => {
    if (process.env.DUMP_LOGS) console.log(h.logs.filter((l) => /"level":"(warn|error)"/.test(l)).join(''));
    await second.stop();
    await h.stop();
  });

  it('/ask posts the question publicly and answers in its thread, links made absolute, within limits', async () => {
    const res = await h.driver.command('/ask', 'How do I enable DNSSEC for my domain?', { user: 'U0002' });
    expect(res.status).toBe(200);
    await h.slack.waitFor(() => answers(h).length >= 1, 15_000);
    const asked = h.slack.callsTo('chat.postMessage')[0];
    expect(asked?.args.text).toBe('<@U0002> asked: How do I enable DNSSEC for my domain?');
    const questionTs = (asked?.result as { ts?: string } | undefined)?.ts;
    const answer = answers(h)[0];
    // A new reply in the question's thread that mentions the asker (an edit would notify nobody).
    expect(answer?.args.thread_ts).toBe(questionTs);
    expect(String(answer?.args.text)).toMatch(/^<@U0002> /);
    const text = answer === undefined ? '' : messageText(answer);
    expect(text).toContain('*Enabling DNSSEC*');
    expect(text).toContain('<https://dash.regfish.example/my/dns/dnssec|DNSSEC settings>');
    assertWithinBlockKitLimits(answer?.args, 'message');
    // The question was queued before its placeholder, which waits its turn behind the channel's posts:
    // answered first, none is left waiting in the thread (not posted, or gone once the answer is).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(waitingLeft(h, 'C0001')).toEqual([]);
  });

  it('a re-run of an answered question posts no second answer', async () => {
    const job = (await h.running.services.assistantQueue.getJobs(['completed'])).find((j) =>
      j.data.question.includes('enable DNSSEC for my domain'),
    );
    const before = answers(h).length;
    await job?.retry('completed');
    await expect.poll(() => job?.getState(), { timeout: 10_000 }).toBe('completed');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answers(h).length).toBe(before);
    expect(h.sandbox.calls.filter((c) => c.operation === 'assistant.search')).toHaveLength(1);
  });

  it('/ask where the bot cannot post answers the asker privately with advice and queues nothing', async () => {
    h.slack
      .conversation('DOTHER', { kind: 'im', botMember: false, members: ['U0004', 'U0005'] })
      .conversation('GNOBOT', { kind: 'private', botMember: false, members: ['U0004'] })
      .conversation('CARCHIVED', { kind: 'public', botMember: true, archived: true });
    const { assistant, assistantQueue, redis } = h.running.services;
    const before = await assistantQueue.count();
    // Its job finds it out, holding no response_url (R2): the advice comes in the asker's DM with the
    // bot, as an ephemeral cannot go where the bot cannot post.
    const advised = () => h.slack.succeeded('chat.postMessage').filter((c) => c.args.channel === 'DU0004');
    for (const [channel, advice] of [
      ['DOTHER', /invite it with `\/invite @Regdesk`/],
      ['GNOBOT', /invite it with `\/invite @Regdesk`/],
      ['CARCHIVED', /archived/],
    ] as const) {
      const told = advised().length;
      await h.driver.command('/ask', 'How do I renew?', { user: 'U0004', channel });
      await h.slack.waitFor(() => advised().length > told, 15_000);
      expect(messageText(advised()[told] ?? { method: '', args: {}, at: 0 })).toMatch(advice);
      expect(h.slack.succeeded('chat.postMessage').filter((c) => c.args.channel === channel)).toEqual([]);
    }
    expect(await assistantQueue.count()).toBe(before);
    // Each gave its place back.
    const account = await assistant.accountOf({ teamId: 'T0001' });
    expect(await redis.zcard(assistant.redisKeys.asker(account, 'U0004'))).toBe(0);
  });

  it('/ask in a DM with the bot is answered there', async () => {
    const before = answers(h).length;
    await h.driver.command('/ask', 'How does a transfer work?', { user: 'U0006', channel: 'DU0006' });
    await h.slack.waitFor(() => answers(h).length > before, 15_000);
    expect(answers(h).at(-1)?.args).toMatchObject({
      channel: 'DU0006',
      text: expect.stringMatching(/^<@U0006> /),
    });
  });

  it('gives usage for empty or oversized questions, in the asker’s language', async () => {
    const english = { user: 'U0ENGLISH' };
    expect(JSON.stringify((await h.driver.command('/ask', '', english)).json())).toContain('/ask QUESTION');
    expect(JSON.stringify((await h.driver.command('/ask', 'x'.repeat(1_200), english)).json())).toContain(
      texts('en').assistant.questionTooLong({ max: 1000 }),
    );
    // U0001's Slack is German.
    expect(JSON.stringify((await h.driver.command('/ask', '')).json())).toContain('/ask FRAGE');
    expect(JSON.stringify((await h.driver.command('/ask', 'x'.repeat(1_200))).json())).toContain(
      texts('de').assistant.questionTooLong({ max: 1000 }),
    );
  });

  it('queues a mention delivered twice (Slack retry) once, in its thread, with the asker’s locale', async () => {
    const before = answers(h).length;
    const event = {
      type: 'app_mention',
      user: 'U0001',
      text: '<@UBOT> how does a transfer work?',
      channel: 'C0002',
      ts: '1700000100.000100',
    };
    await h.driver.event(event, { eventId: 'EvMention1' });
    await h.driver.event(event, { eventId: 'EvMention1', retryNum: 1 });
    await h.slack.waitFor(() => answers(h).length > before, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const inThread = answers(h).filter((c) => c.args.thread_ts === '1700000100.000100');
    expect(inThread).toHaveLength(1);
    expect(inThread[0]?.args.text).toMatch(/^<@U0001>, hier ist die Antwort/);
    expect(answers(h).length - before).toBe(1);
    expect(h.slack.callsTo('reactions.add').some((c) => c.args.name === 'white_check_mark')).toBe(true);
  });

  it('answers parallel questions from many users with two workers: one in flight per account, no 429/503, each once', async () => {
    const before = answers(h).length;
    // Slow answers, so later questions wait long enough for their placeholders to show positions.
    h.sandbox.faults.inject('assistant.search', { delayMs: 1_200, times: 6 });
    const questions = [
      'renewal',
      'billing invoice',
      'vanity nameservers',
      'dns records ttl',
      'api keys',
      'certificate validation',
    ];
    // Three channels: Slack's pacing of about one post a second applies per channel.
    await Promise.all(
      questions.map((q, i) =>
        h.driver.command('/ask', `Tell me about ${q}`, { user: `UP${i}`, channel: `CPAR${i % 3}` }),
      ),
    );
    await h.slack.waitFor(() => answers(h).length >= before + questions.length, 50_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(answers(h).length - before).toBe(questions.length);
    // Each asker is mentioned by exactly one answer.
    const mentioned = answers(h)
      .slice(before)
      .map((c) => /^<@(U[A-Z0-9]+)>/.exec(String(c.args.text))?.[1]);
    expect(mentioned.sort()).toEqual(questions.map((_, i) => `UP${i}`).sort());
    const statuses = h.sandbox.calls.filter((c) => c.operation === 'assistant.search').map((c) => c.status);
    expect(statuses.filter((s) => s === 503 || s === 429)).toEqual([]);
    // Queue positions were shown while waiting, and every placeholder went once its answer was posted.
    expect(h.slack.calls.some((c) => messageText(c).includes('ahead'))).toBe(true);
    await expect
      .poll(() => ['CPAR0', 'CPAR1', 'CPAR2'].flatMap((channel) => waitingLeft(h, channel)), {
        timeout: 5_000,
      })
      .toEqual([]);
  }, 60_000);

  it('explains a key without the assistant right, once, without retrying', async () => {
    h.sandbox.addKey('no-assistant-key', ['domain:read']);
    // A member of that workspace (anyone else is an outsider there: R33).
    h.slack.users.set('U0009', { id: 'U0009', team_id: 'T0009' });
    await h.running.services.vault.put({ teamId: 'T0009' }, 'registrar-key', 'no-assistant-key', 'test');
    await h.driver.command('/ask', 'hello there', { team: 'T0009', user: 'U0009' });
    await h.slack.waitFor(
      (calls) => calls.some((c) => messageText(c).includes('not available for this workspace')),
      15_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(
      h.sandbox.calls.filter((c) => c.operation === 'assistant.search' && c.status === 403),
    ).toHaveLength(1);
  });

  it('retries a busy assistant (503) later instead of failing', async () => {
    h.sandbox.faults.inject('assistant.search', { status: 503, times: 1 });
    const before = answers(h).length;
    await h.driver.command('/ask', 'How does auto-renew work for a renewal?', {
      user: 'U0003',
      channel: 'CBUSY',
    });
    await h.slack.waitFor(() => answers(h).length > before, 25_000);
    expect(h.slack.calls.some((c) => messageText(c).includes('is busy'))).toBe(true);
    expect(
      h.sandbox.calls.filter((c) => c.operation === 'assistant.search' && c.status === 503),
    ).toHaveLength(1);
    expect(messageText(answers(h).at(-1) ?? { method: '', args: {}, at: 0 })).toContain('Renewals');
  }, 40_000);
});
