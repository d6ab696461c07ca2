import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ASK_SHORTCUT } from '../../src/features/assistant/ids.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { type Harness, memoryLogger, SIGNING_SECRET, startHarness } from '../helpers/app-harness.js';
import { messageText } from '../helpers/payloads.js';
import { SlackDriver } from '../helpers/slack-driver.js';
import { SlackGate } from '../helpers/slack-gate.js';
import { messageShortcut, outcomesIn, RegistrarRecorder, writeToBot } from './support.js';

// The built CLI, as an operator runs it (`npm run build` first).
const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));
const LIMIT = { max: 50, windowMs: 60_000 };

/** `regdesk start` as a process of its own, resolved once it listens and its workers run. */
async function startRegdesk(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'start'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const listening = /listening on http:\/\/0\.0\.0\.0:(\d+)/;
  await new Promise<void>((resolve, reject) => {
    const look = () => {
      if (listening.test(output) && /Regdesk workers \(\d+ queues\) running/.test(output)) resolve();
      else if (child.exitCode !== null) reject(new Error(`regdesk start exited:\n${output}`));
      else setTimeout(look, 50);
    };
    look();
  });
  return { child, url: `http://127.0.0.1:${listening.exec(output)?.[1]}` };
}

/**
 * Issue #41 item 9: an acknowledged question is never lost when the process that acked it dies.
 * `regdesk start` is killed (SIGKILL) while each question waits at one of the steps after its ack
 * (the Slack call of that step held at a gate, so the kill comes at a moment the test sees); a fresh
 * worker then answers every one of them exactly once, and no asker keeps a place for a question
 * that was never recorded.
 */
describe('questions acked by a process killed before they reach the queue', () => {
  let h: Harness;
  let registrar: RegistrarRecorder;
  let gate: SlackGate;
  let started: ChildProcess | undefined;
  let fresh: Running | undefined;
  let dataDir = '';

  beforeAll(async () => {
    registrar = await new RegistrarRecorder().start();
    // No workers here: the killed process and then the fresh one are the only ones.
    h = await startHarness({
      role: 'web',
      env: {
        VAULT_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
        REGFISH_API_URL: registrar.url,
        REGFISH_LIMITS: JSON.stringify({ assistantKey: LIMIT, assistantAccount: LIMIT }),
      },
      sandbox: { limits: { assistantKey: LIMIT, assistantAccount: LIMIT } },
    });
    registrar.target = h.sandbox.url;
    gate = await new SlackGate(h.slack.url).start();
    // The killed process's own data directory (its claim files), apart from this one's.
    dataDir = join(tmpdir(), `regdesk-test-${h.keyPrefix}-start`);
  });
  afterAll(async () => {
    started?.kill('SIGKILL');
    await fresh?.stop();
    await h.stop();
    await gate.stop();
    await registrar.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('kill -9 at each step between the ack and the queue: every acked question is answered exactly once', async () => {
    const { child, url } = await startRegdesk({
      ...h.env,
      SLACK_API_URL: gate.apiUrl,
      REGDESK_DATA_DIR: dataDir,
    });
    started = child;
    const driver = new SlackDriver(url, SIGNING_SECRET, h.slack.url);
    const held = (method: string, matches: (args: Record<string, unknown>) => boolean = () => true) =>
      gate.held.filter((call) => call.method === method && matches(call.args)).length;

    // A question answered before the crash, so that asking it again is answered from the cache.
    await driver.command('/ask', 'How do I create an API key?', { user: 'UWARM', channel: 'CWARM' });
    await h.slack.waitFor(
      () =>
        h.slack
          .succeeded('chat.postMessage')
          .some((c) => String(c.args.text).startsWith('<@UWARM> here is the answer')),
      30_000,
    );
    // Its repeat, whose thread's first post is held: the cached answer is still to be delivered.
    gate.hold((c) => c.method === 'chat.postMessage' && c.args.channel === 'CCACHED');

    // Four people /ask at once in one channel: each thread's first post, paced a second apart in the
    // channel (R7), is held at Slack's door.
    const crowd = ['UA1', 'UA2', 'UA3', 'UA4'];
    gate.hold((c) => c.method === 'chat.postMessage' && c.args.channel === 'CCROWD');
    // A mention whose asker's standing is still being looked up (the permission model, R43): its
    // language's look-up comes first, before the handler, then the permission check's.
    gate.hold((c) => c.method === 'users.info' && c.args.user === 'UMENTION');
    // A question in the Messages tab whose thread is being titled.
    gate.hold((c) => c.method === 'assistant.threads.setTitle');
    // The message shortcut, whose line in the message's thread is being posted.
    gate.hold((c) => c.method === 'chat.postMessage' && c.args.channel === 'CSHORT');
    // A question already queued: its placeholder held, and its question at the registrar's door.
    gate.hold(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === 'CQUEUED' &&
        String(c.args.text).startsWith(':hourglass_flowing_sand:'),
    );
    const atRegistrar = registrar.hold('a record TTL');

    const acks = await Promise.all([
      ...crowd.map((user, i) =>
        driver.command('/ask', `How do renewals work? (${i + 1})`, { user, channel: 'CCROWD' }),
      ),
      driver.event({
        type: 'app_mention',
        user: 'UMENTION',
        text: '<@UBOT> How does a domain transfer work?',
        channel: 'CMENTION',
        ts: '1830000001.000100',
      }),
      driver.command('/ask', 'How long is a record TTL?', { user: 'UQUEUED', channel: 'CQUEUED' }),
      driver.command('/ask', 'how do I create an API key', { user: 'UCACHED', channel: 'CCACHED' }),
      driver.interaction(
        messageShortcut(ASK_SHORTCUT, {
          user: 'USHORT',
          channel: 'CSHORT',
          text: 'The DCV record for shop.example was not found.',
          ts: '1830000002.000100',
          responseUrl: h.slack.responseUrl('sc-crash'),
        }),
      ),
    ]);
    expect(acks.map((ack) => ack.status)).toEqual(acks.map(() => 200));
    const dm = writeToBot(h.slack, 'UDM', 'How do vanity nameservers work?');
    expect((await driver.event(dm.event)).status).toBe(200);

    await h.slack.waitFor(
      () =>
        crowd.every(
          (user) => held('chat.postMessage', (args) => String(args.text).startsWith(`<@${user}> asked:`)) > 0,
        ) &&
        held('users.info', (args) => args.user === 'UMENTION') >= 2 &&
        held('assistant.threads.setTitle') > 0 &&
        held('chat.postMessage', (args) => args.channel === 'CSHORT') > 0 &&
        held('chat.postMessage', (args) => args.channel === 'CCACHED') > 0 &&
        held('chat.postMessage', (args) => args.channel === 'CQUEUED') > 0,
      30_000,
    );
    await atRegistrar.arrived;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    // Nobody keeps a place for a question that was never recorded: each place is a question's job.
    const { assistant, assistantQueue, redis } = h.running.services;
    const account = await assistant.accountOf({ teamId: 'T0001' });
    const askers = [...crowd, 'UMENTION', 'UQUEUED', 'UCACHED', 'USHORT', 'UDM'];
    const places = (
      await Promise.all(
        askers.map((user) => redis.zrange(assistant.redisKeys.asker(account, user), '0', '-1')),
      )
    ).flat();
    const recorded = await Promise.all(places.map((jobId) => assistantQueue.getJob(jobId)));
    expect(recorded.filter((job) => job === undefined)).toEqual([]);

    // A fresh process, with Slack's door open.
    fresh = await runRegdesk({
      role: 'worker',
      config: loadConfig(h.env),
      logger: memoryLogger().logger,
      env: h.env,
      say: () => {},
    });
    const answersTo = (user: string) =>
      h.slack
        .succeeded('chat.postMessage')
        .filter(
          (c) =>
            c.args.thread_ts !== undefined && String(c.args.text).startsWith(`<@${user}> here is the answer`),
        );
    await h.slack.waitFor(() => askers.every((user) => answersTo(user).length > 0), 60_000);
    // Every job has ended: nothing more is posted for any of them.
    await expect
      .poll(
        async () => {
          const counts = await assistantQueue.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
          return Object.values(counts).reduce((sum, n) => sum + n, 0);
        },
        { timeout: 30_000 },
      )
      .toBe(0);

    for (const user of askers) expect(answersTo(user)).toHaveLength(1);
    // Asked of the registrar once each (the held call never reached it).
    for (const marker of [
      'renewals work? (',
      'domain transfer',
      'record TTL',
      'DCV record',
      'vanity nameservers',
    ])
      expect(registrar.asked.filter((a) => a.q.includes(marker)).length, marker).toBe(
        marker === 'renewals work? (' ? crowd.length : 1,
      );
    // The repeat came from the cache, and says so: the registrar was asked once, before the crash.
    expect(registrar.about('create an API key')).toHaveLength(1);
    expect(messageText(answersTo('UCACHED')[0] ?? { method: '', args: {}, at: 0 })).toContain(
      'From the answer cache',
    );
    // Each thread's first post was posted once, in its thread.
    for (const user of crowd) {
      const asked = h.slack
        .succeeded('chat.postMessage')
        .filter((c) => String(c.args.text).startsWith(`<@${user}> asked:`));
      expect(asked).toHaveLength(1);
      const threadTs = String((asked[0]?.result as { ts?: string } | undefined)?.ts);
      expect(outcomesIn(h.slack.calls, 'CCROWD', threadTs)).toHaveLength(1);
    }
    expect(
      h.slack
        .succeeded('chat.postMessage')
        .filter((c) => c.args.text === '<@USHORT> asked Regdesk about this message.'),
    ).toHaveLength(1);
    expect(h.slack.assistantThreads.get(`DUDM:${dm.ts}`)?.title).toBe('How do vanity nameservers work?');
    expect(outcomesIn(h.slack.calls, 'CMENTION', '1830000001.000100')).toHaveLength(1);
    expect(messageText(answersTo('UQUEUED')[0] ?? { method: '', args: {}, at: 0 })).toContain('TTL');
    // Every place was given back, and nothing waits in the account's queue.
    for (const user of askers)
      expect(await redis.zcard(assistant.redisKeys.asker(account, user)), user).toBe(0);
    expect(await redis.zcard(assistant.redisKeys.arriving(account))).toBe(0);
    expect(await redis.zcard(assistant.redisKeys.queue(account))).toBe(0);
  }, 150_000);
});
