import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { messageText } from '../helpers/payloads.js';
import { RdapWorld } from '../rdap/server.js';
import { command, DAY, looksDone, posted, startWatching, sweepLater, WS } from './support.js';

/**
 * `/domain watch add` of domains the registrar does not hold (contract §3 "What is served and what is
 * issued"): the app over real HTTP, the sandbox as the registrar, and a local RDAP world (the RFC 9224
 * bootstrap and a registry's RDAP server, test/rdap/server.ts) at a loopback address LIVE_CHECK_ALLOW opens.
 */
describe('domains held at other registrars are watched through RDAP (app, sandbox, local RDAP)', () => {
  let h: Harness;
  let clock: { t: number };
  const rdap = new RdapWorld();
  const CHANNEL = 'CRDAP';
  const reply = (last: string) => (JSON.parse(last) as { text: string }).text;
  const registrarReads = (domain: string) =>
    h.sandbox.calls.filter((call) => call.operation === 'domains.get' && call.path.endsWith(`/${domain}`));

  beforeAll(async () => {
    await rdap.start();
    ({ h, clock } = await startWatching({
      env: { RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl, LIVE_CHECK_ALLOW: '127.0.0.1/32' },
    }));
    h.slack.users.set('UDE', { id: 'UDE', locale: 'de-DE' });
  });
  afterAll(async () => {
    await h?.stop();
    await rdap.stop();
  });

  it('watches a gTLD domain from its registry: source, expiry and transfer lock; alerted at the usual threshold', async () => {
    rdap.answers.set('held-elsewhere.com', {
      kind: 'domain',
      expires: new Date(clock.t + 20 * DAY),
      registrar: 'Example Registrar, Inc.',
      statuses: ['client transfer prohibited'],
    });
    const { last } = await command(h, '/domain', 'watch add held-elsewhere.com example.com', {
      channel: CHANNEL,
    });
    const said = reply(last);
    expect(said).toContain('Now watching `example.com` and `held-elsewhere.com`');
    expect(said).toContain(
      '`held-elsewhere.com` is held at another registrar: watched via RDAP, Example Registrar, Inc.',
    );
    expect(said).toContain('transfer lock on');
    expect(registrarReads('held-elsewhere.com').map((call) => call.status)).toEqual([404]);

    await h.slack.waitFor(() => posted(h, CHANNEL, 'held-elsewhere.com').length > 0, 15_000);
    await looksDone(h);
    const [alert] = posted(h, CHANNEL, 'held-elsewhere.com');
    const text = messageText(alert ?? { method: '', args: {}, at: 0 });
    expect(text).toContain('(in 20 days)');
    expect(text).toContain('held at another registrar (via RDAP, Example Registrar, Inc.): renew it there');
    // Nothing to press: the registrar's buttons cannot act on a domain it does not hold.
    expect(JSON.stringify(alert?.args)).not.toContain('"actions"');
    assertWithinBlockKitLimits(alert?.args, 'message');

    // Looked at again: the RDAP server is asked, not the registrar; the threshold is not raised twice.
    const reads = rdap.domainReads.length;
    await sweepLater(h, clock);
    expect(rdap.domainReads.length).toBeGreaterThan(reads);
    expect(registrarReads('held-elsewhere.com')).toHaveLength(1);
    expect(posted(h, CHANNEL, 'held-elsewhere.com')).toHaveLength(1);

    // The next threshold (14 days) comes once, as for the registrar's own domains.
    clock.t += 7 * DAY;
    await sweepLater(h, clock);
    await h.slack.waitFor(() => posted(h, CHANNEL, 'held-elsewhere.com').length >= 2, 15_000);
    expect(posted(h, CHANNEL, 'held-elsewhere.com')).toHaveLength(2);

    const list = await command(h, '/domain', 'watch list');
    expect(list.last).toContain('held-elsewhere.com` (via RDAP, Example Registrar, Inc.)');
    expect(list.last).toContain('transfer lock on');
    // The digest lists it among what expires soon, with where its facts come from.
    await command(h, '/domain', 'watch digest', { channel: CHANNEL });
    await h.slack.waitFor(() => posted(h, CHANNEL, 'Watch digest').length > 0, 15_000);
    const digest = messageText(posted(h, CHANNEL, 'Watch digest')[0] ?? { method: '', args: {}, at: 0 });
    expect(digest).toContain('held-elsewhere.com` (via RDAP, Example Registrar, Inc.)');
    const watched = await h.running.services.watches.list(WS);
    expect(watched.find((entry) => entry.item.id === 'held-elsewhere.com')?.item.via).toBe('rdap');
  });

  it('names a TLD without RDAP, and never watches what RDAP could not confirm', async () => {
    rdap.answers.set('error.com', { kind: 'status', status: 500 });
    rdap.answers.set('broken.com', { kind: 'malformed' });
    const { last } = await command(
      h,
      '/domain',
      'watch add example.de never-registered.com error.com broken.com',
      { channel: CHANNEL },
    );
    const said = reply(last);
    expect(said).toContain(
      "the registrar does not know these domains for this workspace's key: `example.de`, `never-registered.com`, `error.com`, `broken.com`",
    );
    expect(said).toContain('`example.de`: .de has no RDAP service; expiry unknown.');
    expect(said).toContain("registries' RDAP services do not know `never-registered.com` either");
    expect(said).toContain('`error.com`: RDAP could not be checked (the RDAP server answered with an error)');
    expect(said).toContain(
      "`broken.com`: RDAP could not be checked (the RDAP server's answer was malformed)",
    );
    expect(said).toContain('Nothing was added');
    const ids = (await h.running.services.watches.list(WS)).map((entry) => entry.item.id);
    expect(ids).not.toContain('example.de');
    expect(ids).not.toContain('error.com');

    // In German, for a German member.
    const german = await command(h, '/domain', 'watch add example.de', { user: 'UDE', channel: CHANNEL });
    expect(reply(german.last)).toContain('.de hat keinen RDAP-Dienst; Ablauf unbekannt.');
  });

  it('a 429 from the RDAP server is no failure: the next look waits for its Retry-After', async () => {
    rdap.answers.set('throttled.com', { kind: 'domain', expires: new Date(clock.t + 300 * DAY) });
    await command(h, '/domain', 'watch add throttled.com', { channel: CHANNEL });
    await looksDone(h);
    rdap.answers.set('throttled.com', { kind: 'status', status: 429, headers: { 'retry-after': '36000' } });
    await sweepLater(h, clock);
    const state = await h.running.services.watchStore.state(WS, 'domain', 'throttled.com');
    expect(state.failures).toBe(0);
    const reads = rdap.domainReads.filter((name) => name === 'throttled.com').length;
    // 7 hours later: within the 10 hours asked for, so RDAP hears nothing.
    await sweepLater(h, clock);
    expect(rdap.domainReads.filter((name) => name === 'throttled.com')).toHaveLength(reads);
    rdap.answers.set('throttled.com', { kind: 'domain', expires: new Date(clock.t + 300 * DAY) });
    await sweepLater(h, clock);
    expect(rdap.domainReads.filter((name) => name === 'throttled.com')).toHaveLength(reads + 1);
    expect((await h.running.services.watchStore.state(WS, 'domain', 'throttled.com')).failures).toBe(0);
    await h.running.services.watches.remove(WS, 'domain', ['throttled.com']);
  });

  it('a watched domain whose RDAP server starts failing is "could not check", never fine', async () => {
    rdap.answers.set('soon-broken.net', { kind: 'domain', expires: new Date(clock.t + 300 * DAY) });
    await command(h, '/domain', 'watch add soon-broken.net', { channel: CHANNEL });
    await looksDone(h);
    rdap.answers.set('soon-broken.net', { kind: 'malformed' });
    for (let i = 0; i < 3; i++) await sweepLater(h, clock);
    await h.slack.waitFor(() => posted(h, CHANNEL, 'soon-broken.net').length > 0, 15_000);
    const text = messageText(posted(h, CHANNEL, 'soon-broken.net')[0] ?? { method: '', args: {}, at: 0 });
    expect(text).toContain("RDAP could not be checked: the RDAP server's answer was malformed.");
    const list = await command(h, '/domain', 'watch list');
    expect(list.last).toMatch(/soon-broken\.net` \(via RDAP\) · :warning: could not check since/);
  });
});
