import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedis } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { allRedisText } from '../helpers/redis-dump.js';

const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));
const CANARY = 'rf_cli_canary_key_a1b2c3d4';

function vault(
  args: string[],
  env: Record<string, string>,
  stdin = '',
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'vault', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('exit', (code) => resolve({ code, out }));
    child.stdin.end(stdin);
  });
}

describe('regdesk vault', () => {
  const prefix = `tvc${randomBytes(4).toString('hex')}`;
  const oldKey = randomBytes(32).toString('base64');
  const newKey = randomBytes(32).toString('base64');
  const base = {
    REDIS_URL: testRedisUrl(),
    REDIS_ALLOW_EPHEMERAL: '1',
    REDIS_KEY_PREFIX: prefix,
    REGFISH_SANDBOX: '1',
  };
  const redis = createRedis(testRedisUrl(), 'worker');
  afterAll(() => redis.disconnect());

  it('sets from stdin, lists masked, rotates, and deletes', async () => {
    const set = await vault(
      ['set', '--team', 'T0CLI1'],
      { ...base, VAULT_MASTER_KEY: oldKey },
      `${CANARY}\n`,
    );
    expect(set.code).toBe(0);
    expect(set.out).toContain('••••c3d4');
    expect(set.out).not.toContain(CANARY);
    expect(await allRedisText(redis, prefix)).not.toContain(CANARY);

    const list = await vault(['list'], { ...base, VAULT_MASTER_KEY: oldKey });
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/-:T0CLI1\tregistrar-key\t••••c3d4\tcli:/);

    const rotated = await vault(['rotate'], {
      ...base,
      VAULT_MASTER_KEY: newKey,
      VAULT_MASTER_KEY_PREVIOUS: oldKey,
    });
    expect(rotated.out).toContain('Re-encrypted 1 secret(s)');
    const again = await vault(['rotate'], {
      ...base,
      VAULT_MASTER_KEY: newKey,
      VAULT_MASTER_KEY_PREVIOUS: oldKey,
    });
    expect(again.out).toContain('Re-encrypted 0 secret(s); 1 already under the current key');
    const listNew = await vault(['list'], { ...base, VAULT_MASTER_KEY: newKey });
    expect(listNew.out).toContain('••••c3d4');

    const deleted = await vault(['delete', '--team', 'T0CLI1'], { ...base, VAULT_MASTER_KEY: newKey });
    expect(deleted.out).toContain('Deleted the registrar key of T0CLI1');
    expect((await vault(['list'], { ...base, VAULT_MASTER_KEY: newKey })).out).toContain(
      'The vault is empty',
    );
  });

  it('lists a record put back from an older copy as unreadable, and rotate fails on it', async () => {
    const env = { ...base, VAULT_MASTER_KEY: newKey };
    const hash = `${prefix}:{ws:-:T0CLI3}:vault`;
    expect((await vault(['set', '--team', 'T0CLI3'], env, 'rf_old_cli_key_1111\n')).code).toBe(0);
    const older = (await redis.hget(hash, 'registrar-key')) ?? '';
    expect((await vault(['set', '--team', 'T0CLI3'], env, 'rf_new_cli_key_2222\n')).code).toBe(0);
    await redis.hset(hash, 'registrar-key', older);

    const list = await vault(['list'], env);
    expect(list.out).toMatch(/-:T0CLI3\tregistrar-key\t\(unreadable\)\t-\t-\t\w+ \(cannot be opened/);
    const rotated = await vault(['rotate'], env);
    expect(rotated.code).toBe(1);
    expect(rotated.out).toContain('FAILED: -:T0CLI3 registrar-key (does not open');
    expect((await vault(['delete', '--team', 'T0CLI3'], env)).code).toBe(0);
  });

  it('fails loudly without a master key, with a bad team id, and with no key on stdin', async () => {
    const noKey = await vault(['list'], base);
    expect(noKey.code).toBe(1);
    expect(noKey.out).toContain('VAULT_MASTER_KEY must be 32 bytes');
    const badTeam = await vault(['set', '--team', 'nope'], { ...base, VAULT_MASTER_KEY: newKey }, CANARY);
    expect(badTeam.code).toBe(1);
    expect(badTeam.out).toContain('--team must be a Slack team id');
    const empty = await vault(['set', '--team', 'T0CLI2'], { ...base, VAULT_MASTER_KEY: newKey }, '');
    expect(empty.code).toBe(1);
    expect(empty.out).toContain('expected one API key on stdin');
  });
});
