import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BOOTSTRAP_MAX_AGE_MS,
  BOOTSTRAP_RETRY_MS,
  RdapClient,
  type RdapLookup,
} from '../../src/rdap/index.js';
import { Limiter } from '../../src/shared/limiter.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { RdapWorld } from './server.js';

/** The RDAP client against a local bootstrap and registry over real HTTP, with real Redis. */
describe('RDAP client (RFC 9224 bootstrap, RFC 9083 answers, bounded)', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  const limiter = new Limiter(redis);
  const world = new RdapWorld();
  const clock = { t: Date.UTC(2030, 0, 1) };
  const LAB = [{ network: '127.0.0.1', prefix: 32 }];
  const client = (options: { allowed?: boolean; bootstrapUrl?: string } = {}) =>
    new RdapClient({
      redis,
      keys: new KeySpace(`trdap${randomBytes(4).toString('hex')}`),
      limiter,
      now: () => clock.t,
      bootstrapUrl: options.bootstrapUrl ?? world.bootstrapUrl,
      ...(options.allowed === false ? {} : { allowed: LAB }),
      // Shrunk from the contract's 10 s so the silent server costs the suite little.
      limits: { deadlineMs: 1_500, maxBytes: 64 * 1024, maxRedirects: 2 },
    });

  beforeAll(async () => {
    await world.start();
  });
  afterAll(async () => {
    await world.stop();
    redis.disconnect();
  });

  it('reads the expiration event, the registrar and a transfer lock of a gTLD domain', async () => {
    world.answers.set('held-elsewhere.com', {
      kind: 'domain',
      expires: new Date('2031-03-04T05:06:07Z'),
      registrar: 'Example Registrar & Co.',
      statuses: ['client transfer prohibited', 'server update prohibited'],
    });
    expect(await client().domain('held-elsewhere.com')).toEqual({
      kind: 'found',
      facts: {
        expiresAt: Date.parse('2031-03-04T05:06:07Z'),
        registrar: 'Example Registrar & Co.',
        transferLock: true,
        lapsing: false,
      },
    });
    world.answers.set('unlocked.net', { kind: 'domain', statuses: ['active'] });
    expect(await client().domain('unlocked.net')).toEqual({
      kind: 'found',
      facts: { transferLock: false, lapsing: false },
    });
  });

  it('names a TLD without RDAP, and a name the registry does not know is not found', async () => {
    expect(await client().domain('example.de')).toEqual({ kind: 'no-service', tld: 'de' });
    expect(await client().domain('never-registered.com')).toEqual({ kind: 'not-found' });
  });

  it('ends every bad answer as a failure: 500, silence, too large (declared or streamed), malformed, not a domain, redirect loops', async () => {
    world.answers.set('error.com', { kind: 'status', status: 500 });
    world.answers.set('silent.com', { kind: 'hang' });
    world.answers.set('huge.com', { kind: 'huge' });
    world.answers.set('flood.com', { kind: 'flood' });
    world.answers.set('broken.com', { kind: 'malformed' });
    world.answers.set('entity.com', { kind: 'not-rdap' });
    world.answers.set('loop.com', { kind: 'redirect', to: `${world.base}/myrdap/domain/loop.com` });
    world.answers.set('moved.com', { kind: 'redirect', to: `${world.base}/myrdap/domain/target.com` });
    world.answers.set('target.com', { kind: 'domain', statuses: [] });
    const rdap = client();
    const failure = (lookup: RdapLookup) => (lookup.kind === 'failed' ? lookup.failure : lookup.kind);
    expect(failure(await rdap.domain('error.com'))).toBe('status');
    expect(failure(await rdap.domain('silent.com'))).toBe('timeout');
    expect(failure(await rdap.domain('huge.com'))).toBe('too_large');
    expect(failure(await rdap.domain('flood.com'))).toBe('too_large');
    expect(failure(await rdap.domain('broken.com'))).toBe('malformed');
    expect(failure(await rdap.domain('entity.com'))).toBe('malformed');
    expect(failure(await rdap.domain('loop.com'))).toBe('redirects');
    expect(failure(await rdap.domain('moved.com'))).toBe('found');
    // By name: the address the socket is given is judged (localhost's 127.0.0.1 is allowed, ::1 not).
    world.answers.set('by-name.com', {
      kind: 'redirect',
      to: `${world.base.replace('127.0.0.1', 'localhost')}/myrdap/domain/target.com`,
    });
    expect(failure(await rdap.domain('by-name.com'))).toBe('found');
  });

  it("keeps a 429's Retry-After for the whole server: nothing is asked there before it (RFC 6585 §4)", async () => {
    world.answers.set('busy.com', { kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    world.answers.set('patient.com', { kind: 'domain' });
    const rdap = client();
    const start = clock.t;
    expect(await rdap.domain('busy.com')).toEqual({
      kind: 'failed',
      failure: 'rate_limited',
      retryAt: start + 120_000,
    });
    const reads = world.domainReads.length;
    // Another domain at the same registry waits too, and the server hears nothing meanwhile.
    clock.t += 119_000;
    expect(await rdap.domain('patient.com')).toEqual({
      kind: 'failed',
      failure: 'rate_limited',
      retryAt: start + 120_000,
    });
    expect(world.domainReads.length).toBe(reads);
    clock.t += 1_000;
    expect((await rdap.domain('patient.com')).kind).toBe('found');
    // Without a Retry-After: five minutes.
    world.answers.set('busy.com', { kind: 'status', status: 429 });
    const now = clock.t;
    expect(await rdap.domain('busy.com')).toMatchObject({ retryAt: now + 5 * 60_000 });
    clock.t += 5 * 60_000;
  });

  it('asks no address outside the public internet unless allowed, and no public one over plain HTTP', async () => {
    world.answers.set('lab-only.com', { kind: 'domain' });
    const before = world.domainReads.length;
    expect(await client({ allowed: false }).domain('lab-only.com')).toEqual({
      kind: 'failed',
      failure: 'not_public',
    });
    expect(world.domainReads.length).toBe(before);
    // A redirect from an allowed server to a private address is refused the same way.
    world.answers.set('to-private.com', { kind: 'redirect', to: 'https://10.0.0.1/domain/to-private.com' });
    expect(await client().domain('to-private.com')).toEqual({ kind: 'failed', failure: 'not_public' });
    // Plain HTTP to a public address: refused before any packet.
    world.answers.set('to-http.com', { kind: 'redirect', to: 'http://1.1.1.1/domain/to-http.com' });
    expect(await client().domain('to-http.com')).toEqual({ kind: 'failed', failure: 'insecure' });
    // A server named by a host name is judged by the addresses it resolves to, at connect time.
    world.registryHost = 'localhost';
    const reads = world.domainReads.length;
    try {
      expect(await client({ allowed: false }).domain('lab-only.com')).toEqual({
        kind: 'failed',
        failure: 'not_public',
      });
      expect(world.domainReads.length).toBe(reads);
      expect((await client().domain('lab-only.com')).kind).toBe('found');
    } finally {
      world.registryHost = '127.0.0.1';
    }
  });

  it('keeps the bootstrap file in Redis, reads it again after a day, and keeps the old one when that fails', async () => {
    world.answers.set('cached.com', { kind: 'domain' });
    const rdap = client();
    const reads = world.bootstrapReads;
    await rdap.domain('cached.com');
    await rdap.domain('cached.com');
    expect(world.bootstrapReads).toBe(reads + 1);

    clock.t += BOOTSTRAP_MAX_AGE_MS + 1;
    world.bootstrapDown = true;
    expect((await rdap.domain('cached.com')).kind).toBe('found');
    expect(world.bootstrapReads).toBe(reads + 2);
    // A failed refresh is not repeated at every look-up.
    await rdap.domain('cached.com');
    expect(world.bootstrapReads).toBe(reads + 2);

    world.bootstrapDown = false;
    clock.t += BOOTSTRAP_RETRY_MS;
    expect((await rdap.domain('cached.com')).kind).toBe('found');
    expect(world.bootstrapReads).toBe(reads + 3);
    await rdap.domain('cached.com');
    expect(world.bootstrapReads).toBe(reads + 3);
  });

  it('without any bootstrap file, says so instead of guessing', async () => {
    world.bootstrapDown = true;
    try {
      expect(await client().domain('anything.com')).toEqual({
        kind: 'failed',
        failure: 'bootstrap_unavailable',
      });
    } finally {
      world.bootstrapDown = false;
    }
    expect(await client({ bootstrapUrl: 'http://127.0.0.1:9/dns.json' }).domain('anything.com')).toEqual({
      kind: 'failed',
      failure: 'bootstrap_unavailable',
    });
  });
});
