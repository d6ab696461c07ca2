import { createHash, createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_IDS } from '../../src/features/watches/ids.js';
import type { Harness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { buttonPress, messageText } from '../helpers/payloads.js';
import { command, DAY, looksDone, posted, startWatching, sweepLater, WS } from '../watches/support.js';
import { makeCertificate } from './certificates.js';
import { type FakeCertSpotter, fixture, startFakeCertSpotter } from './fake-certspotter.js';

const CHANNEL = 'C0001';
const FOREIGN = '9e1f7d3c5b2a4e6f8d0c1b3a5e7f9d2c4b6a8e0f1d3c5b7a9e2f4d6c8b0a1e3f';
const OURS = makeCertificate({
  names: ['www.example.com', 'example.com'],
  notBefore: new Date(Date.now() - 2 * DAY),
  notAfter: new Date(Date.now() + 45 * DAY),
});
const oursSpki = createHash('sha256')
  .update(createPublicKey(OURS.keyPem).export({ type: 'spki', format: 'der' }))
  .digest('hex');

/**
 * Issue #46, Certificate Transparency (contract §3): a watched zone's issuances are read from a local
 * fake of Cert Spotter's API (test/fixtures/certspotter); one the registrar's certificates do not
 * match by key is alerted once with Mark as known (audited); a search that fails is "could not check".
 */
describe('Certificate Transparency of a watched zone (app, sandbox, local Cert Spotter)', () => {
  let h: Harness;
  let clock: { t: number };
  let ct: FakeCertSpotter;

  beforeAll(async () => {
    ct = await startFakeCertSpotter();
    const first = fixture('issuances-first.json');
    if (first[0] !== undefined) first[0].pubkey_sha256 = oursSpki;
    ct.pages.set('', first);
    ct.pages.set('8830001977', fixture('issuances-after.json'));
    ({ h, clock } = await startWatching({ env: { CT_API_URL: ct.url, CT_API_TOKEN: 'ct-token-for-tests' } }));
    const ours = h.sandbox.state.certificates.get('cert-issued-recent');
    if (ours === undefined) throw new Error('seed changed');
    ours.pem = OURS.pem;
    // An order still pending for a name would hold the search back (its issuance may be logged first).
    h.sandbox.state.certificates.delete('cert-pending');
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
    await ct?.stop();
  });

  const foreign = () => posted(h, CHANNEL, 'that the registrar does not list');

  it('alerts each issuance the registrar does not list, once, with issuer, names, validity and Mark as known', async () => {
    const { last } = await command(h, '/domain', 'watch add example.com');
    expect(last).toContain('Now watching');
    await looksDone(h);
    await h.slack.waitFor(() => foreign().length >= 2, 20_000);
    const texts = foreign().map(messageText);
    expect(texts.some((t) => t.includes("Let's Encrypt") && t.includes('login.example.com'))).toBe(true);
    expect(texts.some((t) => t.includes('Sectigo') && t.includes('shop.example.com'))).toBe(true);
    // The issuance whose key is the registrar's certificate's is ours: not alerted.
    expect(texts.some((t) => t.includes('DigiCert'))).toBe(false);
    for (const call of foreign()) {
      assertWithinBlockKitLimits(call.args, 'message');
      expect(JSON.stringify(call.args)).toContain(WATCH_IDS.markKnown);
    }
    expect(ct.requests[0]).toMatchObject({
      domain: 'example.com',
      authorization: 'Bearer ct-token-for-tests',
    });
    const state = await h.running.services.watchStore.state(WS, 'domain', 'example.com');
    expect(state.ct).toMatchObject({ status: 'found', cursor: '8830002840', failures: 0 });
    await sweepLater(h, clock);
    expect(foreign()).toHaveLength(2);
    expect(ct.requests.at(-1)?.after).toBe('8830002840');
  });

  it('Mark as known is audited, and the issuance is not alerted again', async () => {
    const id = `known${Date.now()}`;
    await h.driver.interaction(
      buttonPress(WATCH_IDS.markKnown, `example.com|${FOREIGN}`, { responseUrl: h.slack.responseUrl(id) }),
    );
    await h.slack.waitFor(() => h.slack.callsTo(`response_url:${id}`).length > 0, 15_000);
    expect(JSON.stringify(h.slack.callsTo(`response_url:${id}`)[0]?.args)).toContain('Marked as known');
    const entries = await h.running.services.audit.latest(WS, { limit: 20 });
    expect(entries).toContainEqual(
      expect.objectContaining({ action: 'ct_known', actor: 'U0002', target: 'example.com' }),
    );
    expect(await h.running.services.knownIssuances.has(WS, FOREIGN)).toBe(true);
    // The search starts over (a lost cursor): the known issuance is judged again and stays quiet.
    const state = await h.running.services.watchStore.state(WS, 'domain', 'example.com');
    const { cursor: _lost, ...ctState } = state.ct ?? { status: 'clear', failures: 0 };
    await h.running.services.watchStore.saveState(WS, 'domain', 'example.com', { ...state, ct: ctState });
    await sweepLater(h, clock);
    expect(foreign()).toHaveLength(2);
  });

  it('keeps Retry-After: no search before it', async () => {
    ct.queue.push({ status: 429, headers: { 'retry-after': String(10 * 3_600) } });
    const before = ct.requests.length;
    await sweepLater(h, clock);
    expect(ct.requests.length).toBe(before + 1);
    const state = await h.running.services.watchStore.state(WS, 'domain', 'example.com');
    expect(state.ct).toMatchObject({ status: 'unchecked', failures: 1 });
    await sweepLater(h, clock); // 7 h later: still within the 10 h asked for
    expect(ct.requests.length).toBe(before + 1);
    await sweepLater(h, clock);
    expect(ct.requests.length).toBe(before + 2);
  });

  it('a failing search is "could not check", said once after three in a row, never "clear"', async () => {
    for (let i = 0; i < 4; i++) ct.queue.push({ status: 500 });
    const unchecked = () => posted(h, CHANNEL, 'Certificate Transparency search for');
    for (let i = 0; i < 4; i++) await sweepLater(h, clock);
    await h.slack.waitFor(() => unchecked().length > 0, 20_000);
    expect(unchecked()).toHaveLength(1);
    expect(messageText(unchecked()[0] ?? { method: '', args: {}, at: 0 })).toContain('not an all-clear');
    const state = await h.running.services.watchStore.state(WS, 'domain', 'example.com');
    expect(state.ct).toMatchObject({ status: 'unchecked', failures: 4 });
    await sweepLater(h, clock);
    expect((await h.running.services.watchStore.state(WS, 'domain', 'example.com')).ct).toMatchObject({
      status: 'clear',
      failures: 0,
    });
    expect(ct.unexpected).toEqual([]);
  });

  it('an issuance whose post Slack fails is posted by the outbox later, exactly once, though the cursor moved', async () => {
    const LATE = 'Buypass';
    ct.pages.set('8830002840', [
      {
        id: '8830003117',
        tbs_sha256: '7a'.repeat(32),
        dns_names: ['mail.example.com'],
        pubkey_sha256: 'c1'.repeat(32),
        issuer: { friendly_name: LATE, name: 'C=NO, O=Buypass AS-983163327, CN=Buypass Class 2 CA 5' },
        not_before: '2026-11-29T00:00:00Z',
        not_after: '2027-02-27T00:00:00Z',
        revoked: false,
      },
    ]);
    const late = () =>
      h.slack
        .succeeded('chat.postMessage')
        .filter((call) => call.args.channel === CHANNEL && messageText(call).includes(LATE));
    const attempts = () =>
      h.slack
        .callsTo('chat.postMessage')
        .filter((call) => call.args.channel === CHANNEL && messageText(call).includes(LATE));
    // Slack fails the post (not a refusal of the channel: a platform error a retry may get past).
    h.slack.failNext('chat.postMessage', 'service_unavailable');
    await sweepLater(h, clock);
    await h.slack.waitFor(() => late().length > 0, 60_000);
    expect(attempts().length).toBe(2);
    expect(late()).toHaveLength(1);
    expect(JSON.stringify(late()[0]?.args)).toContain(WATCH_IDS.markKnown);
    // The cursor moved past it when it was staged; later looks do not raise it again.
    const state = await h.running.services.watchStore.state(WS, 'domain', 'example.com');
    expect(state.ct).toMatchObject({ cursor: '8830003117', failures: 0 });
    await sweepLater(h, clock);
    expect(late()).toHaveLength(1);
    // The list says what Certificate Transparency showed that nobody marked as known.
    const list = await command(h, '/domain', 'watch list');
    expect(list.last).toContain('CT: :sleuth_or_spy: 2 unknown issuances');
  });
});
