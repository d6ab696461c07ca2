import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_IDS } from '../../src/features/watches/ids.js';
import { daysUntil } from '../../src/shared/days.js';
import type { Harness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { buttonPress, messageText } from '../helpers/payloads.js';
import { command, DAY, looksDone, posted, startWatching, sweepLater, WS } from './support.js';

describe('watch alerts: each threshold once, on an injected clock (app, sandbox, strict fake Slack)', () => {
  let h: Harness;
  let clock: { t: number };

  beforeAll(async () => {
    ({ h, clock } = await startWatching());
  });
  afterAll(async () => {
    await h?.stop();
  });

  const sweep = () => sweepLater(h, clock);

  it('a new watch is looked at at once: a due expiry is raised loudly in the channel it was added in', async () => {
    // expiring-soon.net: 12 days left, auto-renew off (sandbox seed).
    const { last } = await command(h, '/domain', 'watch add expiring-soon.net example.com');
    expect(last).toContain('Now watching');
    await h.slack.waitFor(() => posted(h, 'C0001', 'expiring-soon.net').length > 0, 15_000);
    const [alert] = posted(h, 'C0001', 'expiring-soon.net');
    const text = messageText(alert ?? { method: '', args: {}, at: 0 });
    expect(text).toContain('<!here>');
    expect(text).toContain('Auto-renew is *off*');
    expect(text).toContain(WATCH_IDS.show);
    assertWithinBlockKitLimits(alert?.args, 'message');
    await looksDone(h);
    // example.com expires in 330 days: nothing to say.
    expect(posted(h, 'C0001', 'example.com*')).toHaveLength(0);
  });

  it('sweeping again raises nothing new; the next threshold is raised once when the clock crosses it', async () => {
    await sweep();
    expect(posted(h, 'C0001', 'expiring-soon.net')).toHaveLength(1);

    clock.t += 6 * DAY; // 6 days left: the 7-day threshold
    await sweep();
    await sweep();
    await h.slack.waitFor(() => posted(h, 'C0001', 'expiring-soon.net').length >= 2, 15_000);
    expect(posted(h, 'C0001', 'expiring-soon.net')).toHaveLength(2);
    // Days are UTC calendar days (src/shared/days.ts): 5 or 6 by the 24-hour count, by time of day.
    const expiresAt = h.sandbox.state.domains.get('expiring-soon.net')?.expiresAt ?? 0;
    // The alert came from the first of the two sweeps (7 hours apart).
    const said = messageText(posted(h, 'C0001', 'expiring-soon.net')[1] ?? { method: '', args: {}, at: 0 });
    expect([daysUntil(expiresAt, clock.t), daysUntil(expiresAt, clock.t - 7 * 3_600_000)]).toContain(
      Number(/in (\d+) days?\b/.exec(said)?.[1]),
    );
  });

  it('a renewal (a new expiry date) arms the thresholds again', async () => {
    const domain = h.sandbox.state.domains.get('expiring-soon.net');
    if (domain === undefined) throw new Error('seed changed');
    domain.expiresAt = clock.t + 13 * DAY;
    await sweep();
    await h.slack.waitFor(() => posted(h, 'C0001', 'expiring-soon.net').length >= 3, 15_000);
    expect(posted(h, 'C0001', 'expiring-soon.net')).toHaveLength(3);
  });

  it('delegation changes and DNSSEC drift are raised once each, with Verify and Show', async () => {
    const domain = h.sandbox.state.domains.get('example.com');
    if (domain === undefined) throw new Error('seed changed');
    domain.vanitySetId = 12;
    domain.dnssec = {
      ...domain.dnssec,
      mode: 'regfish',
      desired: 'enabled',
      live: 'disabled',
      settleAt: null,
    };
    await sweep();
    await sweep();
    await h.slack.waitFor(() => posted(h, 'C0001', 'delegation changed').length > 0, 15_000);
    await h.slack.waitFor(() => posted(h, 'C0001', 'DNSSEC of').length > 0, 15_000);
    expect(posted(h, 'C0001', 'delegation changed')).toHaveLength(1);
    expect(
      messageText(posted(h, 'C0001', 'delegation changed')[0] ?? { method: '', args: {}, at: 0 }),
    ).toContain('a.dns.acme-hosting.net');
    const drift = posted(h, 'C0001', 'DNSSEC of');
    expect(drift).toHaveLength(1);
    expect(messageText(drift[0] ?? { method: '', args: {}, at: 0 })).toContain(WATCH_IDS.verifyDnssec);
  });

  it('certificates: a revoked one is raised once; an issued one near its end carries Renew', async () => {
    const { last } = await command(h, '/tls', 'watch add cert-revoked cert-issued-old');
    expect(last).toContain('Now watching');
    await h.slack.waitFor(() => posted(h, 'C0001', 'cert-revoked').length > 0, 15_000);
    expect(messageText(posted(h, 'C0001', 'cert-revoked')[0] ?? { method: '', args: {}, at: 0 })).toContain(
      '*revoked*',
    );
    // cert-issued-old: ordered 40 days ago for 365 days, so it ends in 325 days; 300 days on, 25 are left.
    clock.t += 300 * DAY;
    await sweep();
    await h.slack.waitFor(() => posted(h, 'C0001', 'cert-issued-old').length > 0, 15_000);
    const [expiry] = posted(h, 'C0001', 'cert-issued-old');
    expect(messageText(expiry ?? { method: '', args: {}, at: 0 })).toContain('tls.renew.open');
    await sweep();
    expect(posted(h, 'C0001', 'cert-issued-old')).toHaveLength(1);
    expect(posted(h, 'C0001', 'cert-revoked')).toHaveLength(1);
  });

  it('a registrar 502 during a sweep raises nothing false; "could not check" comes after three failures, once, as one message', async () => {
    const before = h.slack.callsTo('chat.postMessage').length;
    h.sandbox.faults.inject('domains.get', { status: 502 });
    try {
      await sweep();
      await sweep();
      expect(h.slack.callsTo('chat.postMessage').length).toBe(before);
      await sweep();
      await h.slack.waitFor(() => posted(h, 'C0001', 'could not be checked').length > 0, 15_000);
      await sweep();
      // Both watched domains failed for one cause in one sweep: one message naming both, and no
      // expiry or delegation alert made up from the failure.
      const [failing] = posted(h, 'C0001', 'could not be checked');
      const text = messageText(failing ?? { method: '', args: {}, at: 0 });
      expect(text).toContain('2 domains could not be checked 3 times in a row');
      expect(text).toContain('example.com');
      expect(text).toContain('expiring-soon.net');
      assertWithinBlockKitLimits(failing?.args, 'message');
      expect(h.slack.callsTo('chat.postMessage').length).toBe(before + 1);
    } finally {
      h.sandbox.faults.clear();
    }
  });

  it('the Show button answers the presser only, with the current card', async () => {
    const id = `show${Date.now()}`;
    await h.driver.interaction(
      buttonPress(WATCH_IDS.show, 'certificate:cert-revoked', { responseUrl: h.slack.responseUrl(id) }),
    );
    await h.slack.waitFor(() => h.slack.callsTo(`response_url:${id}`).length > 0, 15_000);
    expect(JSON.stringify(h.slack.callsTo(`response_url:${id}`)[0]?.args)).toContain(
      'Certificate cert-revoked',
    );
  });

  it('removing a watch stops its alerts', async () => {
    const { last } = await command(h, '/tls', 'watch remove cert-revoked nope-123');
    expect(last).toContain('No longer watching');
    expect(last).toContain('Not watched');
    const entries = await h.running.services.watches.list(WS);
    expect(entries.map((e) => e.item.id)).not.toContain('cert-revoked');
  });
});
