import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { ask, press, waitForDm } from '../approvals/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { issued, readyz, readyzBecomes, regdesk, startAgain, toldEphemerally } from './restore-support.js';

const REQUESTER = 'UHAND1';
const ADMIN = 'UHANDA';

const errorLines = (h: Harness, words: string) =>
  h.logs.filter((line) => line.includes('"level":"error"') && line.includes(words));

/**
 * Issue #41: `regdesk start`'s private Redis, its files put back by hand while Regdesk is stopped, is
 * noticed at the next start through the data directory's mark; and `regdesk backup` and `restore`
 * work on it while it is stopped, and refuse while it runs.
 */
describe('the private Redis restored while Regdesk is stopped', () => {
  let root: string;
  let dataDir: string;
  let h: Harness;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'regdesk-hand-restore-'));
    dataDir = join(root, 'data');
    // No REDIS_URL: `start` runs its own persistent Redis in REGDESK_DATA_DIR.
    h = await startHarness({
      env: { REDIS_URL: '', REGDESK_DATA_DIR: dataDir, REGDESK_INTEGRITY_CHECK_MS: '500' },
    });
    for (const id of [ADMIN, REQUESTER]) h.slack.users.set(id, { id, is_admin: id === ADMIN });
  });
  afterAll(async () => {
    await h?.stop();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  /** A full stop: the app, then its redis-server, whose exit frees the data directory. */
  async function stop(): Promise<void> {
    await h.running.stop();
    await expect.poll(() => existsSync(join(dataDir, 'regdesk.lock')), { timeout: 10_000 }).toBe(false);
  }
  const state = (id: string) =>
    h.running.services.redis.hget(`${h.keyPrefix}:{ws:-:T0001}:approval:${id}`, 'state');

  it('the Redis files copied aside, then put back after an execution: noticed at the next start', async () => {
    const channel = 'CHAND1';
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', { user: REQUESTER, channel });
    await stop();
    cpSync(join(dataDir, 'redis'), join(root, 'redis-copy'), { recursive: true });

    // A restart alone is no rollback: ready, and the request approved and executed.
    h = await startAgain(h);
    await readyzBecomes(h, 200);
    await press(h, APPROVAL_IDS.approve, id, ADMIN, channel);
    await waitForDm(h, REQUESTER, 'Your transfer auth code for regdesk-demo.de is ready');
    expect(issued(h)).toBe(1);
    await stop();

    rmSync(join(dataDir, 'redis'), { recursive: true });
    cpSync(join(root, 'redis-copy'), join(dataDir, 'redis'), { recursive: true });
    h = await startAgain(h);
    expect(await state(id)).toBe('pending');
    const { status, body } = await readyz(h);
    expect({ status, reason: body.reason }).toEqual({ status: 503, reason: 'data_rolled_back' });
    expect(String(body.detail)).toContain('while Regdesk was stopped');
    expect(errorLines(h, 'Regdesk data ROLLED BACK')).toHaveLength(1);

    await press(h, APPROVAL_IDS.approve, id, ADMIN, channel);
    await toldEphemerally(h, ADMIN, 'restored from an older copy');
    expect(await state(id)).toBe('failed');
    expect(issued(h)).toBe(1);
    expect((await regdesk(['data', 'accept'], h.env)).output).toContain('Accepted: the data rollback');
    await readyzBecomes(h, 200);
  });

  it('regdesk backup and restore: refused while it runs, done while it is stopped; the mark follows', async () => {
    const file = join(root, 'private.jsonl');
    const refused = await regdesk(['backup', file], h.env);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      `refused: a Regdesk (pid ${process.pid}) runs its private Redis from ${dataDir}`,
    );
    await stop();

    const backup = await regdesk(['backup', file], h.env);
    expect(backup.code).toBe(0);
    expect(backup.output).toContain('Backed up');
    expect(existsSync(join(dataDir, 'regdesk.lock'))).toBe(false);

    // A request made after the backup, gone with the restore.
    h = await startAgain(h);
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', {
      user: REQUESTER,
      channel: 'CHAND2',
    });
    expect((await regdesk(['restore', file], h.env)).code).toBe(1);
    await stop();
    const restore = await regdesk(['restore', file], h.env);
    expect(restore.code).toBe(0);
    const mark = JSON.parse(readFileSync(join(dataDir, `integrity-${h.keyPrefix}.json`), 'utf8'));

    h = await startAgain(h);
    expect(await state(id)).toBeNull();
    const { status, body } = await readyz(h);
    expect(status).toBe(503);
    expect(String(body.detail)).toContain('regdesk restore');
    const marker = await h.running.services.redis.hgetall(`${h.keyPrefix}:{meta}:integrity`);
    expect({ id: marker.id, epoch: Number(marker.epoch) }).toEqual({ id: mark.id, epoch: mark.epoch });
    await regdesk(['data', 'accept'], h.env);
    await readyzBecomes(h, 200);

    // Accepted, then restarted: the mark agrees with the data, so no second incident.
    await stop();
    h = await startAgain(h);
    await readyzBecomes(h, 200);
    expect(errorLines(h, 'Regdesk data')).toHaveLength(1);
  });
});
