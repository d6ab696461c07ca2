import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ApprovalStore } from '../../src/features/approvals/store.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { BOT_TOKEN, memoryLogger, SIGNING_SECRET } from '../helpers/app-harness.js';
import { FakeSlack, WORKSPACE } from '../helpers/fake-slack.js';

/**
 * docs/requirements.md R38: `regdesk start` with no Redis configured keeps what it stores. The whole
 * app runs twice on one REGDESK_DATA_DIR, the second time after a full stop: what the first stored
 * through its services is all there for the second.
 */
describe('regdesk start without a configured Redis', () => {
  const workspace = { teamId: WORKSPACE };
  let slack: FakeSlack;
  let sandbox: Sandbox;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    slack = await new FakeSlack().start();
    sandbox = await createSandbox();
    dataDir = join(mkdtempSync(join(tmpdir(), 'regdesk-durable-')), 'data');
    // No REDIS_* variable at all: the private Redis is the only one this app can have.
    env = {
      PORT: '0',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_API_URL: slack.apiUrl,
      REGFISH_SANDBOX: '1',
      REGFISH_API_URL: sandbox.url,
      REGFISH_SANDBOX_API_KEY: sandbox.apiKey,
      // No VAULT_MASTER_KEY either: the sandbox's sealing key is kept beside the private Redis.
      REGDESK_DATA_DIR: dataDir,
    };
  });

  afterAll(async () => {
    await slack?.stop();
    await sandbox?.close();
    if (dataDir !== undefined) rmSync(join(dataDir, '..'), { recursive: true, force: true });
  });

  async function start(): Promise<{ running: Running; said: string[] }> {
    const said: string[] = [];
    const running = await runRegdesk({
      role: 'start',
      config: loadConfig(env),
      logger: memoryLogger().logger,
      env,
      say: (line) => said.push(line),
    });
    return { running, said };
  }

  /** A full stop: the app, then its redis-server, whose exit frees the data directory. */
  async function stop(running: Running): Promise<void> {
    await running.stop();
    await expect.poll(() => existsSync(join(dataDir, 'regdesk.lock')), { timeout: 10_000 }).toBe(false);
  }

  it('keeps the vault, a policy, a watch, the audit trail and a pending approval across a restart', async () => {
    const first = await start();
    expect(first.said.join('\n')).toContain(`data in ${join(dataDir, 'redis')}`);
    expect(first.running.redisUrl).toMatch(/^redis:\/\/\*\*\*@127\.0\.0\.1:\d+$/);
    const firstServer = readFileSync(join(dataDir, 'redis', 'redis.pid'), 'utf8');
    const { vault, policies, watches, audit, approvalStore: approvals } = first.running.services;
    await vault.put(workspace, 'registrar-key', sandbox.apiKey, 'UADMIN');
    const policy = { ...(await policies.get(workspace)), approvers: ['UAPPROVER'], needed: 2 };
    await policies.set(workspace, policy);
    const added = await watches.add(workspace, 'domain', ['durable.example'], {
      channel: 'CWATCH',
      user: 'UADMIN',
    });
    expect(added.ok).toBe(true);
    const auditId = await audit.append(workspace, { action: 'policy_change', actor: 'UADMIN' });
    const request = await approvals.create({
      id: ApprovalStore.newId(),
      workspace,
      operation: 'tls.revoke',
      params: { certificateId: 'c1', reason: 'keyCompromise' },
      paramsHash: 'h',
      target: 'c1',
      summary: 'Revoke c1',
      details: ['Certificate `c1`'],
      requester: 'UREQ',
      channel: 'CREQ',
      approverGroup: '',
      createdAt: Date.now(),
      expiresAt: Date.now() + 24 * 60 * 60_000,
      needed: 1,
    });
    expect(await approvals.show(request, '1700000000.000100')).toBe(true);
    await stop(first.running);

    const second = await start();
    try {
      // A new redis-server, on the same files.
      expect(readFileSync(join(dataDir, 'redis', 'redis.pid'), 'utf8')).not.toBe(firstServer);
      const services = second.running.services;
      expect(await services.vault.get(workspace, 'registrar-key')).toBe(sandbox.apiKey);
      expect(await services.policies.get(workspace)).toEqual(policy);
      expect((await services.watchStore.items(workspace)).map((item) => item.id)).toEqual([
        'durable.example',
      ]);
      expect((await services.audit.latest(workspace)).map((entry) => entry.id)).toContain(auditId);
      const pending = await services.approvalStore.pending(workspace);
      expect(pending.map((each) => [each.id, each.state])).toEqual([[request.id, 'pending']]);
    } finally {
      await stop(second.running);
    }
  });

  it('restores a backup as the README says: the snapshot put back, the append-only folder removed', async () => {
    const first = await start();
    const { redis } = first.running.services;
    await redis.set('tbackup:kept', 'in the backup');
    // The backup: a fresh snapshot, copied aside.
    await redis.save();
    const redisDir = join(dataDir, 'redis');
    copyFileSync(join(redisDir, 'dump.rdb'), join(dataDir, '..', 'backup.rdb'));
    await redis.set('tbackup:later', 'after the backup');
    await stop(first.running);

    copyFileSync(join(dataDir, '..', 'backup.rdb'), join(redisDir, 'dump.rdb'));
    rmSync(join(redisDir, 'appendonlydir'), { recursive: true });
    const second = await start();
    try {
      expect(second.said.join('\n')).toContain('wrote a new append-only file');
      expect(await second.running.services.redis.get('tbackup:kept')).toBe('in the backup');
      expect(await second.running.services.redis.get('tbackup:later')).toBeNull();
    } finally {
      await stop(second.running);
    }
    // And the data is kept by the append-only file again from then on.
    expect(existsSync(join(redisDir, 'appendonlydir'))).toBe(true);
    const third = await start();
    try {
      expect(await third.running.services.redis.get('tbackup:kept')).toBe('in the backup');
    } finally {
      await stop(third.running);
    }
  });
});
