import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/config.js';
import { changeNameservers, requestAuthCode } from '../../src/features/domains/operations.js';
import { VanitySets } from '../../src/features/domains/vanity.js';
import { createRegistrarClient, ForbiddenError, NotFoundError } from '../../src/registrar/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { Limiter } from '../../src/shared/limiter.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const WS = { teamId: 'T0OPS' };

describe('domain sensitive operations, called directly with their context', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await createSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
    redis.disconnect();
  });

  /** What the composition root gives an operation, under a key prefix of the test's own. */
  function context() {
    const keys = new KeySpace(`t-${randomBytes(4).toString('hex')}`);
    return {
      workspace: WS,
      now: Date.now(),
      registrar: createRegistrarClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }),
      limits: DEFAULT_LIMITS,
      keys,
      vanitySets: new VanitySets(redis, keys),
    };
  }

  describe('requestAuthCode (domain.authcode)', () => {
    it('snapshots only a domain name: anything else is refused when requested', () => {
      expect(requestAuthCode.parse({ domain: 'example.com' })).toEqual({ domain: 'example.com' });
      expect(() => requestAuthCode.parse({ domain: '' })).toThrow();
      expect(() => requestAuthCode.parse({})).toThrow();
      expect(requestAuthCode.target({ domain: 'example.com' })).toBe('example.com');
    });

    it('spends a window per domain and one per workspace; a fourth code for a domain in a day is refused', async () => {
      const ctx = context();
      const windows = requestAuthCode.quota(ctx, { domain: 'example.com' });
      expect(windows).toEqual([
        {
          key: ctx.keys.key('ws:-:T0OPS', 'quota', 'authcode', 'example.com'),
          ...DEFAULT_LIMITS.authcodeDomain,
        },
        { key: ctx.keys.key('ws:-:T0OPS', 'quota', 'authcode-account'), ...DEFAULT_LIMITS.authcodeAccount },
      ]);
      const limiter = new Limiter(redis);
      for (let i = 0; i < DEFAULT_LIMITS.authcodeDomain.max; i++) {
        expect(await limiter.acquire(windows)).toEqual({ ok: true });
      }
      expect((await limiter.peek(windows)).ok).toBe(false);
      // Another domain still has room in its own window and in the workspace's.
      expect((await limiter.peek(requestAuthCode.quota(ctx, { domain: 'regdesk-demo.de' }))).ok).toBe(true);
    });

    it('previews the owner, escaped, and warns about a cancelled domain', async () => {
      const ctx = context();
      const hostile = sandbox.state.domains.get('regdesk-demo.de');
      if (hostile !== undefined) hostile.owner = '<!channel> *bold*';
      const preview = await requestAuthCode.preview(ctx, { domain: 'regdesk-demo.de' });
      expect(preview.details.join('\n')).toContain('&lt;!channel&gt;');
      expect(preview.details.join('\n')).not.toContain('<!channel>');
      expect(preview.blocker).toBeUndefined();
      const cancelled = await requestAuthCode.preview(ctx, { domain: 'leaving.net' });
      expect(cancelled.details.join('\n')).toContain('cancelled');
    });

    it('prechecks that the domain is still in the account', async () => {
      const ctx = context();
      expect(await requestAuthCode.precheck(ctx, { domain: 'example.com' })).toBeUndefined();
      await expect(requestAuthCode.precheck(ctx, { domain: 'not-mine.com' })).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });

    it('executes with the code handed over apart from the public outcome, which never holds it', async () => {
      const logged = sandbox.state.guardLog.length;
      const result = await requestAuthCode.execute(context(), { domain: 'example.com' });
      const code = result.authCode?.code ?? '';
      expect(code.length).toBeGreaterThan(5);
      expect(result.authCode?.domain).toBe('example.com');
      expect(result.outcome).not.toContain(code);
      expect(result.follow).toBeUndefined();
      expect(sandbox.state.guardLog.slice(logged)).toMatchObject([
        { domain: 'example.com', outcome: 'issued' },
      ]);
    });

    it("fails with the guard's error when the domain guard blocks auth codes", async () => {
      await expect(requestAuthCode.execute(context(), { domain: 'guarded.com' })).rejects.toBeInstanceOf(
        ForbiddenError,
      );
    });
  });

  describe('changeNameservers (domain.ns)', () => {
    it('says what it will do, and has no quota window of its own', () => {
      expect(changeNameservers.summary({ domain: 'example.com', vanitySetId: 12 })).toContain(
        'vanity nameserver set 12',
      );
      expect(changeNameservers.summary({ domain: 'example.com', vanitySetId: null })).toContain(
        'standard nameservers',
      );
      expect(() => changeNameservers.parse({ domain: 'example.com', vanitySetId: 0 })).toThrow();
      expect(changeNameservers.quota(context(), { domain: 'example.com', vanitySetId: 12 })).toEqual([]);
    });

    it('previews the current delegation and always lets the change be asked for', async () => {
      const ctx = context();
      const preview = await changeNameservers.preview(ctx, { domain: 'example.com', vanitySetId: 12 });
      expect(preview.details.join('\n')).toContain('ns1.example.com');
      expect(preview.blocker).toBeUndefined();
      expect(
        await changeNameservers.precheck(ctx, { domain: 'example.com', vanitySetId: 12 }),
      ).toBeUndefined();
    });

    it('delegates, then remembers the vanity sets the registrar returned; standard reverts', async () => {
      const ctx = context();
      expect(await ctx.vanitySets.known(WS)).toBeUndefined();
      const result = await changeNameservers.execute(ctx, { domain: 'shop-example.org', vanitySetId: 12 });
      expect(result.outcome).toContain('a.dns.acme-hosting.net');
      expect(sandbox.state.domains.get('shop-example.org')?.vanitySetId).toBe(12);
      expect((await ctx.vanitySets.known(WS))?.map((set) => set.id)).toEqual([11, 12]);

      const back = await changeNameservers.execute(ctx, { domain: 'shop-example.org', vanitySetId: null });
      expect(back.outcome).toContain('ns1.regfish.de');
      expect(sandbox.state.domains.get('shop-example.org')?.vanitySetId).toBeNull();
    });
  });

  it('treats a damaged stored copy of the vanity sets as not known, never showing it', async () => {
    const { keys, vanitySets } = context();
    const key = keys.key('ws:-:T0OPS', 'vanity-sets');
    await redis.set(key, '{not json');
    expect(await vanitySets.known(WS)).toBeUndefined();
    await redis.set(key, JSON.stringify([{ id: 'eleven', nameservers: 'ns1' }]));
    expect(await vanitySets.known(WS)).toBeUndefined();
    await vanitySets.remember(WS, [{ id: 11, host: 'ns.example.com', nameservers: ['ns1.example.com'] }]);
    expect(await vanitySets.known(WS)).toEqual([
      { id: 11, host: 'ns.example.com', nameservers: ['ns1.example.com'] },
    ]);
  });
});
