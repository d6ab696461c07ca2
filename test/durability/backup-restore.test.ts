import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { ask, press, waitForDm } from '../approvals/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { type SingleServer, startRedisServer } from '../helpers/redis-topology.js';
import { issued, readyz, readyzBecomes, regdesk, startAgain, toldEphemerally } from './restore-support.js';

const REQUESTER = 'UBACKUP1';
const ADMIN = 'UBACKUPA';
const CHANNEL = 'CBACKUP1';

/**
 * Issue #41: `regdesk backup` and `regdesk restore` against a Redis Regdesk was configured with, in a
 * drill through the real boundaries: the built CLI, a redis-server of the test's own, the whole app
 * (stopped and started again), the fake Slack and the registrar sandbox counting what it was asked.
 */
describe('regdesk backup and restore with a configured Redis', () => {
  let server: SingleServer;
  let h: Harness;
  let dir: string;

  beforeAll(async () => {
    server = await startRedisServer();
    dir = mkdtempSync(join(tmpdir(), 'regdesk-backup-'));
    // Checks every 2 s: a process counts as running for 6 s after its last one, however busy the machine.
    h = await startHarness({ env: { REDIS_URL: server.url, REGDESK_INTEGRITY_CHECK_MS: '2000' } });
    for (const id of [ADMIN, REQUESTER]) h.slack.users.set(id, { id, is_admin: id === ADMIN });
  });
  afterAll(async () => {
    await h?.stop();
    await server?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  const integrity = () => server.client.hgetall(`${h.keyPrefix}:{meta}:integrity`);

  it('refuses both commands while a Regdesk runs against the Redis, and changes nothing', async () => {
    await readyzBecomes(h, 200);
    const before = await integrity();
    const file = join(dir, 'refused.jsonl');
    const backup = await regdesk(['backup', file], h.env);
    expect(backup.code).toBe(1);
    expect(backup.output).toMatch(/^regdesk: refused: Regdesk runs against .* under the key prefix/);
    expect(backup.output).toContain(`pid ${process.pid}`);
    expect(backup.output.trim().split('\n')).toHaveLength(1);
    expect(() => readFileSync(file)).toThrow();

    // A whole backup of nothing at all: restoring it would delete every key.
    const empty = join(dir, 'empty.jsonl');
    const header = {
      format: 'regdesk-backup',
      version: 1,
      prefix: h.keyPrefix,
      takenAt: '',
      regdesk: '',
      redis: '',
    };
    writeFileSync(empty, `${JSON.stringify({ ...header, integrity: null })}\n{"end":true,"keys":0}\n`);
    const restore = await regdesk(['restore', empty], h.env);
    expect(restore.code).toBe(1);
    expect(restore.output).toMatch(/^regdesk: refused: Regdesk runs against/);
    expect(await server.client.exists(`${h.keyPrefix}:{meta}:integrity`)).toBe(1);
    const usage = await regdesk(['restore'], h.env);
    expect(usage.code).toBe(2);
    expect((await integrity()).epoch).toBe(before.epoch);
    expect((await integrity()).incident).toBeUndefined();
  });

  it('the drill: backup with a request pending, executed after, restored: no second execution, the press refused with the reason', async () => {
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', { user: REQUESTER, channel: CHANNEL });
    const key = `${h.keyPrefix}:{ws:-:T0001}:approval:${id}`;

    // The backup, taken while Regdesk is stopped (a clean stop leaves the presence set at once).
    await h.running.stop();
    const file = join(dir, 'regdesk.jsonl');
    const backup = await regdesk(['backup', file], h.env);
    expect(backup).toMatchObject({ code: 0 });
    expect(backup.output).toContain(`to ${file}`);
    const [header = '', ...keyLines] = readFileSync(file, 'utf8').trim().split('\n');
    expect(JSON.parse(header)).toMatchObject({
      format: 'regdesk-backup',
      version: 1,
      prefix: h.keyPrefix,
      integrity: { id: (await integrity()).id, epoch: 0 },
    });
    expect(keyLines.some((line) => line.includes(`"key":"${key}"`))).toBe(true);
    expect(JSON.parse(keyLines.at(-1) ?? '')).toEqual({ end: true, keys: keyLines.length - 1 });

    // Approved and executed after the backup.
    h = await startAgain(h);
    await press(h, APPROVAL_IDS.approve, id, ADMIN, CHANNEL);
    await waitForDm(h, REQUESTER, 'Your transfer auth code for regdesk-demo.de is ready');
    expect(issued(h)).toBe(1);
    expect(await server.client.hget(key, 'state')).toBe('succeeded');

    // The restore, while Regdesk is stopped.
    await h.running.stop();
    const restore = await regdesk(['restore', file], h.env);
    expect(restore.code).toBe(0);
    expect(restore.output).toContain(`from ${file}`);
    expect(restore.output).toMatch(/the approval epoch is now 1\b/);
    expect(restore.output).toContain('regdesk data accept');
    expect(await server.client.hget(key, 'state')).toBe('pending');
    const after = await integrity();
    expect(after.epoch).toBe('1');
    expect(JSON.parse(after.incident ?? '{}')).toMatchObject({ kind: 'rolled_back', epoch: 1 });

    // Started again: not ready, and Approve on the restored request closes it and says why.
    h = await startAgain(h);
    const { status, body } = await readyz(h);
    expect({ status, reason: body.reason }).toEqual({ status: 503, reason: 'data_rolled_back' });
    const answer = await press(h, APPROVAL_IDS.approve, id, ADMIN, CHANNEL);
    expect(answer.status).toBe(200);
    await toldEphemerally(h, ADMIN, 'restored from an older copy');
    expect(await server.client.hget(key, 'state')).toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(issued(h)).toBe(1);

    const accepted = await regdesk(['data', 'accept'], h.env);
    expect(accepted.output).toContain('Accepted: the data rollback');
    await readyzBecomes(h, 200);
  });

  it('a cut backup, or one of another key prefix, is refused before anything is deleted', async () => {
    await h.running.stop();
    const whole = readFileSync(join(dir, 'regdesk.jsonl'), 'utf8').trim().split('\n');
    const cut = join(dir, 'cut.jsonl');
    writeFileSync(cut, `${whole.slice(0, -1).join('\n')}\n`);
    const before = await integrity();
    // Kept for good (no deadline): gone if the restore had begun.
    const audit = `${h.keyPrefix}:{ws:-:T0001}:audit`;
    const entries = await server.client.xlen(audit);
    expect(entries).toBeGreaterThan(0);

    const restoreCut = await regdesk(['restore', cut], h.env);
    expect(restoreCut).toMatchObject({ code: 1 });
    expect(restoreCut.output).toContain('ends before its last line: the backup is incomplete');
    const elsewhere = await regdesk(['restore', join(dir, 'regdesk.jsonl')], {
      ...h.env,
      REDIS_KEY_PREFIX: 'tother',
    });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.output).toContain(`Set REDIS_KEY_PREFIX=${h.keyPrefix} to restore it`);
    expect(await integrity()).toEqual(before);
    expect(await server.client.xlen(audit)).toBe(entries);
    h = await startAgain(h);
  });
});
