import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/features/audit/service.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { runRegdeskCli } from '../helpers/cli.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const DAY_MS = 24 * 60 * 60 * 1000;

// One Redis key space for the file; each test its own workspace.
const prefix = `tac${randomBytes(4).toString('hex')}`;
const env = {
  PATH: process.env.PATH ?? '',
  REDIS_URL: testRedisUrl(),
  REDIS_ALLOW_EPHEMERAL: '1',
  REDIS_KEY_PREFIX: prefix,
  REGFISH_SANDBOX: '1',
};
const redis = createRedis(testRedisUrl(), 'worker');
const keys = new KeySpace(prefix);
afterAll(() => redis.disconnect());

/** `regdesk audit …` as an operator runs it, against the Redis Regdesk uses. */
const cli = (args: string[]) => runRegdeskCli(['audit', ...args], env);

async function seed(team: string, count: number, audit = new AuditLog(redis, keys)): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push(
      await audit.append(
        { teamId: team },
        i % 3 === 2 ? { action: 'refuse', actor: 'U2', outcome: 'no' } : { action: 'approve', actor: 'U1' },
      ),
    );
  return ids;
}

describe('regdesk audit verify', () => {
  it('exits 0 with the number of entries checked in both chains', async () => {
    await seed('T0AV1', 9);
    const { code, stdout, stderr } = await cli(['verify', '--team', 'T0AV1']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('Audit trail of T0AV1 verified: 9 entries (6 in the trail, 3 refusals)');
  });

  it('exits 1 naming the entry after one deleted from the middle', async () => {
    const ids = await seed('T0AV2', 7);
    // Trail entries are those not at i % 3 === 2: 0, 1, 3, 4, 6.
    await redis.xdel(keys.key('ws:-:T0AV2', 'audit'), ids[3] ?? '');
    const { code, stdout, stderr } = await cli(['verify', '--team', 'T0AV2']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      `regdesk: audit trail of T0AV2, entry ${ids[4]}: an entry before it is missing: it is position 4, the entry before it position 2`,
    );
  });

  it('exits 1 naming an entry whose fields were rewritten', async () => {
    const ids = await seed('T0AV3', 4);
    const stream = keys.key('ws:-:T0AV3', 'audit');
    const rows = await redis.xrange(stream, '-', '+');
    await redis.del(stream);
    for (const [id, fields] of rows)
      await redis.xadd(
        stream,
        id,
        ...fields.map((value) => (id === ids[1] && value === 'U1' ? 'U9' : value)),
      );
    const { code, stderr } = await cli(['verify', '--team', 'T0AV3']);
    expect(code).toBe(1);
    expect(stderr).toContain(`entry ${ids[1]}: changed: its fields do not hash to the hash it carries`);
  });

  it('exits 0 after retention trimmed the oldest entries', async () => {
    await seed('T0AV4', 6);
    const later = new AuditLog(redis, keys, { retentionDays: 30, now: () => Date.now() + 31 * DAY_MS });
    await seed('T0AV4', 3, later);
    expect(await redis.exists(keys.key('ws:-:T0AV4', 'audit', 'anchor'))).toBe(1);
    const { code, stdout } = await cli(['verify', '--team', 'T0AV4']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/verified: [1-3] entries/);
  });

  it('refuses a team id that is not one as a usage error', async () => {
    const { code, stderr } = await cli(['verify', '--team', 'acme']);
    expect(code).toBe(2);
    expect(stderr).toContain('--team must be a Slack team id');
  });
});

describe('regdesk audit export', () => {
  it('prints JSON Lines, with --since only entries from then on', async () => {
    await seed('T0AE1', 3);
    // A millisecond after the last of them, and the clock past it before the next are written.
    const [last] = await new AuditLog(redis, keys).latest({ teamId: 'T0AE1' }, { limit: 1 });
    const since = new Date((last?.at ?? 0) + 1);
    while (Date.now() <= since.getTime()) await sleep(1);
    const ids = await seed('T0AE1', 4);
    const all = await cli(['export', '--team', 'T0AE1']);
    expect(all.code).toBe(0);
    expect(all.stdout.trimEnd().split('\n')).toHaveLength(7);
    const { code, stdout, stderr } = await cli(['export', '--team', 'T0AE1', '--since', since.toISOString()]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.id)).toEqual(ids);
    for (const line of lines) {
      expect(Number(line.at)).toBeGreaterThanOrEqual(since.getTime());
      expect(line).toMatchObject({
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        prev: expect.stringMatching(/^[0-9a-f]{64}$/),
        position: expect.any(Number),
      });
    }
  });

  it('refuses a --since that is not an ISO 8601 time with exit 2 and says what to give', async () => {
    for (const since of ['yesterday', '2025-02-30', '2025-01-31T08:00']) {
      const { code, stdout, stderr } = await cli(['export', '--team', 'T0AE1', '--since', since]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain('not an ISO 8601 time');
    }
  });
});
