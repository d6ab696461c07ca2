import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CertSpotter, CT_LIMITS, retryAfterMs } from '../../src/ct/certspotter.js';
import { type FakeCertSpotter, fixture, startFakeCertSpotter } from './fake-certspotter.js';

/** Cert Spotter's issuances API through Regdesk's client (src/ct/certspotter.ts), against a local fake. */
describe('Certificate Transparency search (src/ct/certspotter.ts)', () => {
  let fake: FakeCertSpotter;
  const now = 1_800_000_000_000;

  beforeAll(async () => {
    fake = await startFakeCertSpotter();
  });
  afterAll(async () => {
    await fake?.stop();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.queue.length = 0;
    fake.pages.clear();
    fake.pages.set('', fixture('issuances-first.json'));
    fake.pages.set('8830001977', fixture('issuances-after.json'));
  });

  const client = (token?: string) => new CertSpotter({ baseUrl: fake.url, token, now: () => now });

  it('reads every page from the cursor, merges a precertificate and its certificate, and says where it stopped', async () => {
    const search = await client('secret-token').issuances('example.com', undefined);
    expect(search.kind).toBe('ok');
    if (search.kind !== 'ok') return;
    expect(search.issuances.map((i) => i.tbsSha256.slice(0, 4))).toEqual(['5f0b', '9e1f', '2b4d']);
    expect(search.issuances[1]).toMatchObject({
      issuer: "Let's Encrypt",
      names: ['example.com', 'login.example.com'],
      spkiSha256: '4c7e2b9d1f3a5c8e0b2d4f6a8c1e3b5d7f9a2c4e6b8d0f1a3c5e7b9d2f4a6c8e',
      notAfter: Date.parse('2027-02-25T08:14:01Z'),
    });
    expect(search.cursor).toBe('8830002840');
    expect(search.more).toBe(false);
    expect(fake.requests.map((r) => r.after)).toEqual([null, '8830001977', '8830002840']);
    expect(fake.requests[0]).toMatchObject({
      domain: 'example.com',
      includeSubdomains: 'true',
      expand: ['dns_names', 'issuer', 'cert'],
      authorization: 'Bearer secret-token',
    });
    expect(fake.unexpected).toEqual([]);
  });

  it('goes on from the cursor it is given, and sends no token when none is configured', async () => {
    const search = await client().issuances('example.com', '8830002840');
    expect(search).toEqual({ kind: 'ok', issuances: [], cursor: '8830002840', more: false });
    expect(fake.requests[0]?.authorization).toBeUndefined();
  });

  it('stops after its pages per look and says there is more', async () => {
    for (let page = 0; page < CT_LIMITS.maxPages + 2; page++)
      fake.pages.set(page === 0 ? '' : `p${page}`, [
        { id: `p${page + 1}`, tbs_sha256: `${page}`.padStart(64, 'a') },
      ]);
    const search = await client().issuances('example.com', undefined);
    expect(search).toMatchObject({ kind: 'ok', more: true, cursor: `p${CT_LIMITS.maxPages}` });
    expect(fake.requests).toHaveLength(CT_LIMITS.maxPages);
  });

  it('keeps a 429 Retry-After: the next search not before it', async () => {
    fake.queue.push({ status: 429, headers: { 'retry-after': '120' } });
    expect(await client().issuances('example.com', undefined)).toEqual({
      kind: 'rate-limited',
      retryAt: now + 120_000,
    });
    expect(retryAfterMs(new Date(now + 3_600_000).toUTCString(), now)).toBe(3_600_000);
    expect(retryAfterMs(null, now)).toBe(CT_LIMITS.defaultRetryMs);
    expect(retryAfterMs('999999999', now)).toBe(CT_LIMITS.maxRetryMs);
  });

  it('turns a 500, a body that is no issuance list, and one too large into "could not check", never an empty list', async () => {
    fake.queue.push({ status: 500 });
    expect(await client().issuances('example.com', undefined)).toEqual({
      kind: 'failed',
      reason: 'status',
      status: 500,
    });
    fake.queue.push({ status: 200, body: '{"not":"a list"}' });
    expect(await client().issuances('example.com', undefined)).toEqual({
      kind: 'failed',
      reason: 'malformed',
    });
    fake.queue.push({ status: 200, body: `[${'"x",'.repeat(CT_LIMITS.maxBodyBytes / 4)}"x"]` });
    expect(await client().issuances('example.com', undefined)).toEqual({
      kind: 'failed',
      reason: 'too-large',
    });
    const closed = new CertSpotter({ baseUrl: 'http://127.0.0.1:9/v1' });
    expect(await closed.issuances('example.com', undefined)).toEqual({ kind: 'failed', reason: 'network' });
  });
});
