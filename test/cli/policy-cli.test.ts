import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AuditLog } from '../../src/features/audit/service.js';
import { ACTION_CLASSES } from '../../src/features/policy/classes.js';
import { DEFAULT_POLICY, PolicyStore } from '../../src/features/policy/policy.js';
import { rulesFor } from '../../src/features/policy/rules.js';
import { parsePolicyYaml } from '../../src/features/policy/yaml.js';
import { createLogger } from '../../src/shared/logger.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { workspaceId } from '../../src/shared/workspace.js';
import { runRegdeskCli } from '../helpers/cli.js';
import { testRedisUrl } from '../helpers/provided-context.js';

// One Redis key space for the file; each test its own workspace.
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
const dir = mkdtempSync(join(tmpdir(), 'regdesk-policy-'));
afterAll(() => {
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

/** `regdesk policy …` as an operator runs it, against the Redis Regdesk uses. */
const cli = (args: string[], stdin?: string) => runRegdeskCli(['policy', ...args], env, stdin);

describe('regdesk policy get', () => {
  const store = new PolicyStore(redis, keys, createLogger({ level: 'silent' }));
  const get = (team: string) => cli(['get', '--team', team]);

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
    const failed = await get('nope');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^regdesk: --team must be a Slack team id/);
  });
});

/** `regdesk policy set`: validated in full, saved only when right, audited. */
describe('regdesk policy set', () => {
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  const POLICY = `version: 2
approvers: [U0ALICE, S0SEC]
approvals: 2
actions:
  revoke: { approvals: 3, expiryHours: 4 }
  order: { approvals: 0, who: everyone }
zones:
  - match: "*.prod.example"
    actions: { record: { approvals: 4 } }
freezes:
  - name: Weekends
    weekly: { days: [sat, sun], from: "00:00", to: "24:00", timeZone: Europe/Berlin }
    actions: [delegation]
`;

  it('saves a valid document: policy get prints it back, and the change is audited', async () => {
    const saved = await cli(['set', '--team', 'T0SET1', file('policy.yaml', POLICY)]);
    expect(saved.stderr).toBe('');
    expect(saved.code).toBe(0);
    expect(saved.stdout).toMatch(/^Saved\. /);
    const printed = await cli(['get', '--team', 'T0SET1']);
    const again = parsePolicyYaml(printed.stdout);
    const wanted = parsePolicyYaml(POLICY);
    if (!again.ok || !wanted.ok) throw new Error('a document does not parse');
    // The same rules for every class, in and out of the zone, and the same freezes.
    for (const actionClass of ACTION_CLASSES)
      for (const zone of ['api.prod.example', 'shop.example'])
        expect(rulesFor(again.document, actionClass, zone), `${actionClass} ${zone}`).toEqual(
          rulesFor(wanted.document, actionClass, zone),
        );
    expect(again.document.freezes).toEqual(wanted.document.freezes);
    expect(again.document.approvers).toEqual(['U0ALICE', 'S0SEC']);
    const entries = await new AuditLog(redis, keys).latest({ teamId: 'T0SET1' }, { limit: 5 });
    expect(entries[0]).toMatchObject({ action: 'policy_change', actor: expect.stringMatching(/^cli:/) });
    expect(entries[0]?.detail).toContain('needed: 1 → 2');
  });

  it('reads the document from stdin with -', async () => {
    const saved = await cli(['set', '--team', 'T0SET2', '-'], 'approvals: 3\n');
    expect(saved.code).toBe(0);
    expect(parse((await cli(['get', '--team', 'T0SET2'])).stdout)).toMatchObject({ approvals: 3 });
  });

  it('names every error by its path and saves nothing', async () => {
    await cli(['set', '--team', 'T0SET3', file('good.yaml', 'approvals: 2\n')]);
    const refused = await cli([
      'set',
      '--team',
      'T0SET3',
      file('bad.yaml', 'approvals: 9\nactions:\n  revoke: { approvals: -1 }\n  purge: {}\n'),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('regdesk: approvals: ');
    expect(refused.stderr).toContain('regdesk: actions.revoke.approvals: ');
    expect(refused.stderr).toContain('purge');
    expect(refused.stderr).toContain('nothing was saved');
    expect(parse((await cli(['get', '--team', 'T0SET3'])).stdout)).toMatchObject({ approvals: 2 });
  });

  it('saves several user groups among the approvers and the requesters, and reads them back', async () => {
    const saved = await cli([
      'set',
      '--team',
      'T0SET4',
      file('groups.yaml', 'approvers: [U0ONE, S0ONE, S0TWO]\nrequesters: [S0REQ]\n'),
    ]);
    expect(saved.code).toBe(0);
    expect(parse((await cli(['get', '--team', 'T0SET4'])).stdout)).toMatchObject({
      approvers: ['U0ONE', 'S0ONE', 'S0TWO'],
      // Listed approvers may always request (documentOf): they are listed among the requesters.
      requesters: ['S0REQ', 'U0ONE'],
    });
  });
});
