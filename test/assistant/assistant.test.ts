import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { type Harness, memoryLogger, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';

const answers = (h: Harness): SlackCall[] =>
  h.slack
    .callsTo('chat.update')
    .filter((c) => messageText(c).includes('Sources:') || messageText(c).includes('No answer'));

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
    const placeholder = h.slack.callsTo('chat.postMessage')[1];
    expect(placeholder?.args.thread_ts).toBeDefined();
    const answer = answers(h)[0];
    // The answer replaces the placeholder in place.
    expect(answer?.args.ts).toBe((placeholder?.result as { ts?: string } | undefined)?.ts);
    const text = answer === undefined ? '' : messageText(answer);
    expect(text).toContain('<https://dash.regfish.example/my/dns/dnssec|DNSSEC settings>');
    expect(text).toContain('*Enabling DNSSEC*');
    assertWithinBlockKitLimits(answer?.args, 'message');
  });

  it('gives usage for empty or oversized questions', async () => {
    expect(JSON.stringify((await h.driver.command('/ask', '')).json())).toContain('/ask QUESTION');
    expect(JSON.stringify((await h.driver.command('/ask', 'x'.repeat(1_200))).json())).toContain(
      'limited to 1000',
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
    const inThread = h.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.args.thread_ts === '1700000100.000100');
    expect(inThread).toHaveLength(1);
    expect(answers(h).length - before).toBe(1);
    expect(h.slack.callsTo('reactions.add').some((c) => c.args.name === 'white_check_mark')).toBe(true);
  });

  it('answers parallel questions from many users with two workers: one in flight per account, no 429/503, each once', async () => {
    const before = answers(h).length;
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
    const statuses = h.sandbox.calls.filter((c) => c.operation === 'assistant.search').map((c) => c.status);
    expect(statuses.filter((s) => s === 503 || s === 429)).toEqual([]);
    // Queue positions were shown while waiting.
    expect(h.slack.calls.some((c) => messageText(c).includes('ahead'))).toBe(true);
  }, 60_000);

  it('explains a key without the assistant right, once, without retrying', async () => {
    h.sandbox.addKey('no-assistant-key', ['domain:read']);
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
