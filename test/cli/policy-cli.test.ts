import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parsePolicyYaml } from '../../src/features/policy/document.js';
import { DEFAULT_POLICY, PolicyStore } from '../../src/features/policy/policy.js';
import { createLogger } from '../../src/shared/logger.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { workspaceId } from '../../src/shared/workspace.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));
const run = promisify(execFile);

/** `regdesk policy get` as an operator runs it, against the Redis Regdesk uses. */
describe('regdesk policy get', () => {
  const prefix = `tpc${randomBytes(4).toString('hex')}`;
  const env = {
    PATH: process.env.PATH ?? '',
    REDIS_URL: testRedisUrl(),
    REDIS_ALLOW_EPHEMERAL: '1',
    REDIS_KEY_PREFIX: prefix,
    REGFISH_SANDBOX: '1',
  };
  const redis = createRedis(testRedisUrl(), 'worker');
  const keys = new KeySpace(prefix);
  const store = new PolicyStore(redis, keys, createLogger({ level: 'silent' }));
  afterAll(() => redis.disconnect());
  const get = (team: string) => run(process.execPath, [CLI, 'policy', 'get', '--team', team], { env });

  it('prints a policy saved by /domain policy as a version 2 document that policy rules read back', async () => {
    await store.set(
      { teamId: 'T0POL1' },
      {
        ...DEFAULT_POLICY,
        approvers: ['U0ALICE'],
        approverGroup: 'S0SEC',
        needed: 2,
        expiryHours: 12,
        recordChangeExemptTypes: ['TXT'],
        ordersNeedApproval: true,
      },
    );
    const { stdout, stderr } = await get('T0POL1');
    expect(stderr).toBe('');
    expect(stdout.split('\n')[0]).toBe('# Regdesk policy of T0POL1: as saved');
    const parsed = parsePolicyYaml(stdout);
    expect(parsed.ok).toBe(true);
    expect(parse(stdout)).toMatchObject({
      version: 2,
      approvers: ['U0ALICE', 'S0SEC'],
      approvals: 2,
      expiryHours: 12,
      actions: {
        record: { approvals: 2, exemptTypes: ['TXT'] },
        order: { approvals: 2, who: 'everyone' },
        publish: { approvals: 0 },
      },
    });
  });

  it('says when the defaults apply, and when a saved policy cannot be read (the strictest applies)', async () => {
    const never = await get('T0POL2');
    expect(never.stdout.split('\n')[0]).toBe('# Regdesk policy of T0POL2: never saved: the defaults apply');
    expect(parse(never.stdout)).toMatchObject({ approvals: 1, requesters: 'everyone' });

    await store.set({ teamId: 'T0POL3' }, DEFAULT_POLICY);
    await redis.set(keys.key(`ws:${workspaceId({ teamId: 'T0POL3' })}`, 'policy'), '{not json');
    const unreadable = await get('T0POL3');
    expect(unreadable.stdout.split('\n')[0]).toContain('cannot be read: the strictest policy applies');
    expect(parse(unreadable.stdout)).toMatchObject({ approvals: 5, expiryHours: 1, requesters: [] });
    // The log line says why, on stderr: stdout stays a document.
    expect(unreadable.stderr).toContain('cannot be read');
  });

  it('refuses a team id that is none, and exits 1 with one line', async () => {
    const failed = await get('nope').catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toMatch(/^regdesk: --team must be a Slack team id/);
  });
});
