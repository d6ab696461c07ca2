import { execFile } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { ask, press, waitForDm } from '../approvals/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { type SingleServer, startRedisServer } from '../helpers/redis-topology.js';

const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));
const run = promisify(execFile);

const REQUESTER = 'ULOSS1';
const ADMINS = ['ULOSSA1', 'ULOSSA2', 'ULOSSA3'];

async function readyz(h: Harness): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${h.url}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Polls `/readyz` until it answers `status` (R39 allows 60 s; the checks here run every 500 ms). */
async function readyzBecomes(h: Harness, status: number): Promise<Record<string, unknown>> {
  for (const deadline = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const answer = await readyz(h).catch(() => undefined);
    if (answer?.status === status) return answer.body;
    if (Date.now() > deadline) throw new Error(`/readyz never answered ${status}`);
  }
}

/** `regdesk data accept`, as an operator runs it: the CLI, with the processes' environment. */
async function acceptData(h: Harness): Promise<string> {
  const { stdout } = await run(process.execPath, [CLI, 'data', 'accept'], {
    env: { PATH: process.env.PATH ?? '', ...h.env, LOG_LEVEL: 'error' },
  });
  return stdout;
}

const errorLines = (h: Harness, words: string) =>
  h.logs.filter((line) => line.includes('"level":"error"') && line.includes(words));

/**
 * docs/requirements.md R39, R40 against a redis-server of the test's own: flushed, and restored from an
 * older snapshot, under a running Regdesk.
 */
describe('data loss and rollback under a running Regdesk', () => {
  let server: SingleServer;
  let h: Harness;

  beforeAll(async () => {
    // RDB snapshots, so an older copy can be put back the way an operator restores a backup.
    server = await startRedisServer(['save 3600 1']);
    h = await startHarness({
      env: { REDIS_URL: server.url, REGDESK_INTEGRITY_CHECK_MS: '500' },
    });
    for (const id of ADMINS) h.slack.users.set(id, { id, is_admin: true });
    h.slack.users.set(REQUESTER, { id: REQUESTER });
  });
  afterAll(async () => {
    await h?.stop();
    await server?.stop();
  });

  it('FLUSHALL: /readyz 503 with the reason, one error line, schedules re-created; ready again once accepted', async () => {
    await readyzBecomes(h, 200);
    const schedulers = async () =>
      (await h.running.services.watchQueue.getJobSchedulers()).map((scheduler) => scheduler.key);
    await expect.poll(schedulers).toContain('watch-sweep');

    await server.client.flushall();
    const body = await readyzBecomes(h, 503);
    expect(body.reason).toBe('data_lost');
    expect(String(body.resolve)).toContain('regdesk data accept');
    expect(errorLines(h, 'Regdesk data LOST')).toHaveLength(1);
    await expect.poll(schedulers, { timeout: 10_000 }).toContain('watch-sweep');
    // Liveness is not readiness: a restart would not bring the data back.
    expect((await fetch(`${h.url}/livez`)).status).toBe(200);

    // Still one error line after more checks, and still not ready: only an operator closes it.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(errorLines(h, 'Regdesk data LOST')).toHaveLength(1);
    expect((await readyz(h)).status).toBe(503);

    expect(await acceptData(h)).toContain('Accepted: the data loss');
    await readyzBecomes(h, 200);
    expect(await acceptData(h)).toContain('No data incident is open');
  });

  it('an older snapshot restored after an auth code was issued: no second code, however often Approve is pressed', async () => {
    const channel = 'CLOSS2';
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', { user: REQUESTER, channel });
    // The backup: taken while the request waits for its approval.
    await server.client.save();
    copyFileSync(join(server.dir, 'dump.rdb'), join(server.dir, 'dump.backup'));

    const issued = () => h.sandbox.calls.filter((c) => c.operation === 'domains.authinfo').length;
    await press(h, APPROVAL_IDS.approve, id, ADMINS[0] as string, channel);
    await waitForDm(h, REQUESTER, 'Your transfer auth code for regdesk-demo.de is ready');
    expect(issued()).toBe(1);

    // The restore: Redis stopped, the older copy put back, Redis started on it again.
    await server.restart(() => copyFileSync(join(server.dir, 'dump.backup'), join(server.dir, 'dump.rdb')));
    expect(await server.client.hget(`${h.keyPrefix}:{ws:-:T0001}:approval:${id}`, 'state')).toBe('pending');
    await expect.poll(() => h.running.services.redis.status, { timeout: 10_000 }).toBe('ready');

    // Approve again, by several approvers at once and then once more: nothing reaches the registrar.
    const answers = await Promise.all(
      ADMINS.map((admin) => press(h, APPROVAL_IDS.approve, id, admin, channel)),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    await press(h, APPROVAL_IDS.approve, id, ADMINS[1] as string, channel);
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) =>
          c.method === 'chat.postEphemeral' && String(c.args.text).includes('restored from an older copy'),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(issued()).toBe(1);
    expect(await server.client.hget(`${h.keyPrefix}:{ws:-:T0001}:approval:${id}`, 'state')).toBe('failed');

    // The operator is told: readiness and one error line.
    const body = await readyzBecomes(h, 503);
    expect(body.reason).toBe('data_rolled_back');
    expect(errorLines(h, 'Regdesk data ROLLED BACK')).toHaveLength(1);
    // The execution the trail lost is still in the log.
    expect(
      h.logs.some((line) => line.includes('"audit"') && line.includes(id) && line.includes('"execute"')),
    ).toBe(true);
    await acceptData(h);
    await readyzBecomes(h, 200);
  });

  it('a claim Redis lost (the executing state gone back to approved) does not run again on this host', async () => {
    const channel = 'CLOSS3';
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', { user: REQUESTER, channel });
    const issued = () => h.sandbox.calls.filter((c) => c.operation === 'domains.authinfo').length;
    const before = issued();
    await press(h, APPROVAL_IDS.approve, id, ADMINS[2] as string, channel);
    const key = `${h.keyPrefix}:{ws:-:T0001}:approval:${id}`;
    await expect.poll(() => server.client.hget(key, 'state'), { timeout: 10_000 }).toBe('succeeded');
    expect(issued()).toBe(before + 1);

    // Redis lost the claim and what followed: the request is back where the execution job found it.
    await server.client.hset(key, 'state', 'approved');
    const { approvals, slackFor } = h.running.services;
    await approvals.execute({ teamId: 'T0001' }, id, await slackFor({ teamId: 'T0001' }));
    expect(issued()).toBe(before + 1);
    expect(await server.client.hget(key, 'state')).toBe('failed');
    expect(await server.client.hget(key, 'outcome')).toContain('interrupted');
  });
});
