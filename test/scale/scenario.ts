import { expect } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { buttonPress, buttonValue, messageText } from '../helpers/payloads.js';
import { METRICS_TOKEN, type World } from './world.js';

const threadReplyTo = (user: string) => (c: SlackCall) =>
  c.method === 'chat.postMessage' &&
  c.args.thread_ts !== undefined &&
  String(c.args.text).startsWith(`<@${user}> `);

/** `/domain check` through one web process: the answer names both names and their states. */
export async function domainCheck(world: World, web: number, tag: string): Promise<void> {
  const responseUrl = world.slack.responseUrl(`check-${tag}`);
  const res = await world
    .driver(web)
    .command('/domain', 'check example.com regdesk-scale-free.com', { user: `UCHK${tag}`, responseUrl });
  expect(res.status).toBe(200);
  const method = `response_url:check-${tag}`;
  const settled = (c: SlackCall) =>
    c.method === method && /available/i.test(messageText(c)) && /taken|registered/i.test(messageText(c));
  await world.slack.waitFor((calls) => calls.some(settled), 20_000);
  const text = messageText(world.slack.calls.filter(settled).at(-1) ?? { method: '', args: {}, at: 0 });
  expect(text).toContain('example.com');
  expect(text).toContain('regdesk-scale-free.com');
}

/**
 * A certificate revoke requested through one web process and approved through the other, by two
 * approvers at once: the registrar sees exactly one revoke.
 */
export async function approveAndRevoke(world: World, channel: string): Promise<void> {
  const before = world.slack.callsTo('chat.postMessage').length;
  await world
    .driver(0)
    .command('/tls', 'revoke cert-issued-recent keyCompromise', { user: 'UREQ1', channel });
  await world.slack.waitFor(() => world.slack.callsTo('chat.postMessage').length > before, 20_000);
  const id = buttonValue(world.slack, APPROVAL_IDS.approve);
  if (id === undefined) throw new Error('no approval request was posted');
  const presses = await Promise.all([
    world.driver(1).interaction(buttonPress(APPROVAL_IDS.approve, id, { user: 'UADM1', channel })),
    world.driver(1).interaction(buttonPress(APPROVAL_IDS.approve, id, { user: 'UADM2', channel })),
    world.driver(0).interaction(buttonPress(APPROVAL_IDS.approve, id, { user: 'UADM3', channel })),
  ]);
  expect(presses.map((res) => res.status)).toEqual([200, 200, 200]);
  await world.slack.waitFor(
    (calls) =>
      calls.some(
        (c) =>
          c.method === 'chat.update' &&
          c.args.channel === channel &&
          messageText(c).includes(':white_check_mark: Done'),
      ),
    30_000,
  );
  // Let a duplicate execution surface before counting.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(world.sandbox.calls.filter((c) => c.operation === 'tls.revoke' && c.status === 200)).toHaveLength(1);
  expect(world.sandbox.state.certificates.get('cert-issued-recent')?.status).toBe('certificate-revoked');
}

/**
 * Questions from `askers`, alternating between the web processes, each answered exactly once, never
 * two at the registrar at once. `during` runs once the first answer arrived (a fail-over, a kill).
 */
export async function askQuestions(
  world: World,
  askers: string[],
  during?: () => Promise<void>,
): Promise<void> {
  await Promise.all(
    askers.map((user, i) =>
      world
        .driver(i % world.webs.length)
        // Each question its own text: an identical one would be answered from the cache.
        .command('/ask', `How do I enable DNSSEC on ${user.toLowerCase()}.example?`, {
          user,
          channel: `CASK${user}`,
        }),
    ),
  );
  if (during !== undefined) {
    await world.slack.waitFor((calls) => askers.some((user) => calls.some(threadReplyTo(user))), 30_000);
    await during();
  }
  await world.slack.waitFor((calls) => askers.every((user) => calls.some(threadReplyTo(user))), 90_000);
  // Let a second answer to any of them surface before counting.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  for (const user of askers) {
    const answers = world.slack.calls.filter(threadReplyTo(user));
    expect(answers, user).toHaveLength(1);
    expect(messageText(answers[0] ?? { method: '', args: {}, at: 0 })).toContain('DNSSEC');
  }
  expect(world.proxy.maxInFlight).toBe(1);
  expect(world.proxy.questions).toBeGreaterThanOrEqual(askers.length);
}

/**
 * DNSSEC enabled through a web process is followed by a worker job; the first worker is killed with
 * SIGKILL meanwhile, and the outcome still reaches the thread exactly once.
 */
export async function followerAcrossKill(world: World, channel: string): Promise<void> {
  await world.driver(1).command('/dns', 'dnssec example.com enable', { user: 'UDNS1', channel });
  const card = (c: SlackCall) =>
    c.method === 'chat.postMessage' &&
    c.args.channel === channel &&
    messageText(c).includes('enabled DNSSEC');
  await world.slack.waitFor((calls) => calls.some(card), 20_000);
  world.workers[0]?.child.kill('SIGKILL');
  const outcome = (c: SlackCall) =>
    c.args.channel === channel &&
    (c.method === 'chat.postMessage' || c.method === 'chat.update') &&
    messageText(c).includes('is now *active*');
  await world.slack.waitFor((calls) => calls.some(outcome), 45_000);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(world.slack.calls.filter(outcome)).toHaveLength(1);
}

async function scrape(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return res.text();
}

function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? Number.NaN : Number(line.split(' ')[1]);
}

/**
 * Every process, web or worker, reports the shared queues' depth; workers report what they ran; the
 * token guards /metrics on PORT (a worker's WORKER_PORT serves them to anyone); a worker's /healthz answers 200 while Redis does.
 */
export async function metricsEverywhere(world: World): Promise<void> {
  // One question now: the workers that answered earlier ones may have been killed since (their
  // counters went with them), so a live worker must have taken one.
  await askQuestions(world, ['UMETRICS']);
  const live = [...world.webs, ...world.workers].filter(
    (p) => p.child.exitCode === null && p.child.signalCode === null,
  );
  const depths: string[] = [];
  for (const proc of live) {
    // The token guards PORT, which faces Slack; a worker's WORKER_PORT never does, and is open.
    expect((await fetch(`http://127.0.0.1:${proc.port}/metrics`)).status, proc.role).toBe(
      proc.role === 'worker' ? 200 : 401,
    );
    const text = await scrape(proc.port);
    const depth: Record<string, number> = {};
    for (const queue of ['assistant', 'approvals', 'follow']) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        depth[`${queue} ${state}`] = sample(text, `regdesk_queue_jobs{queue="${queue}",state="${state}"}`);
      }
    }
    depths.push(JSON.stringify(depth));
    // Nothing is left waiting or failed; the approval's expiry and reminder jobs stay delayed.
    expect(depth, proc.role).toMatchObject({
      'assistant waiting': 0,
      'follow delayed': 0,
      'approvals failed': 0,
    });
    expect(depth['approvals delayed'], proc.role).toBeGreaterThan(0);
    expect(sample(text, 'regdesk_followers')).toBe(0);
  }
  // Read from the shared Redis, so every process reports the same depth.
  expect(new Set(depths).size).toBe(1);
  const worker = world.workers.find((w) => w.child.exitCode === null && w.child.signalCode === null);
  if (worker === undefined) throw new Error('no worker left running');
  const health = await fetch(`http://127.0.0.1:${worker.port}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ ok: true });
  const text = await scrape(worker.port);
  expect(sample(text, 'regdesk_followers')).toBe(0);
  // Which worker took the questions is BullMQ's to decide: the job metrics are judged over all of them.
  const scrapeWorkers = () =>
    Promise.all(
      world.workers
        .filter((w) => w.child.exitCode === null && w.child.signalCode === null)
        .map((w) => scrape(w.port)),
    );
  const completed = (texts: string[]) =>
    texts.reduce(
      (sum, t) =>
        sum + (sample(t, 'regdesk_job_duration_seconds_count{queue="assistant",outcome="completed"}') || 0),
      0,
    );
  // A job is counted when its processor returns, a moment after the answer was posted: wait for it.
  let workerTexts = await scrapeWorkers();
  for (const deadline = Date.now() + 30_000; completed(workerTexts) === 0 && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    workerTexts = await scrapeWorkers();
  }
  const onWorkers = (series: string) => workerTexts.reduce((sum, t) => sum + (sample(t, series) || 0), 0);
  expect(
    onWorkers('regdesk_job_duration_seconds_count{queue="assistant",outcome="completed"}'),
  ).toBeGreaterThan(0);
  expect(onWorkers('regdesk_assistant_wait_seconds_count')).toBeGreaterThan(0);
  // Approval transitions are counted where they happen: request and decision on the web processes.
  const all = await Promise.all([...world.webs, worker].map((proc) => scrape(proc.port)));
  const total = (series: string) => all.reduce((sum, t) => sum + (sample(t, series) || 0), 0);
  expect(total('regdesk_approvals_total{state="pending"}')).toBe(1);
  // The outcome was counted by whichever worker executed it, perhaps the one killed since.
  expect(total('regdesk_approvals_total{state="approved"}')).toBeGreaterThanOrEqual(1);
}

export interface Throughput {
  workers: number;
  /** `/domain check` commands (two names each) answered per second, through both web processes. */
  checksPerSecond: number;
  /** Assistant questions of one registrar account answered per second (one in flight at a time). */
  questionsPerSecond: number;
}

/** A burst of checks and of questions, timed from the first command to the last answer. */
export async function measure(
  world: World,
  run: string,
  size: { checks: number; questions: number },
): Promise<Throughput> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: size.checks }, (_, i) => domainCheck(world, i % world.webs.length, `${run}-${i}`)),
  );
  const checksPerSecond = size.checks / ((performance.now() - started) / 1000);
  const askers = Array.from({ length: size.questions }, (_, i) => `UT${run.toUpperCase()}${i}`);
  const asked = performance.now();
  await askQuestions(world, askers);
  // askQuestions waits 1.5 s for duplicates after the last answer; that is not the system's time.
  const questionsPerSecond = size.questions / ((performance.now() - asked - 1_500) / 1000);
  const live = world.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
  return { workers: live.length, checksPerSecond, questionsPerSecond };
}
