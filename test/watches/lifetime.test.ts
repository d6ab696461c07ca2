import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_IDS } from '../../src/features/watches/ids.js';
import { daysUntil } from '../../src/shared/days.js';
import type { Harness } from '../helpers/app-harness.js';
import { buttonPress, messageText } from '../helpers/payloads.js';
import { command, DAY, looksDone, posted, startWatching, sweepLater } from './support.js';

/**
 * Issue #45: certificate alerts scale with the issued lifetime (docs/requirements.md R37). A 46-day
 * certificate (the size allowed from March 2029) is first raised about 15 days before its end, not at
 * 30 as the fixed days would have it; the Show card says how much of its life is left.
 */
describe('a 46-day certificate is first alerted ~15 days before its end (app, sandbox, strict fake Slack)', () => {
  let h: Harness;
  let clock: { t: number };
  let expiresAt = 0;

  beforeAll(async () => {
    ({ h, clock } = await startWatching());
    const cert = h.sandbox.state.certificates.get('cert-issued-recent');
    if (cert === undefined) throw new Error('seed changed');
    // Ordered (and so, for Regdesk, begun) 20 days ago for 46 days: 26 days are left.
    cert.validity_days = 46;
    cert.orderedAt = clock.t - 20 * DAY;
    expiresAt = cert.orderedAt + 46 * DAY;
  });
  afterAll(async () => {
    await h?.stop();
  });

  const alerts = () => posted(h, 'C0001', '(`cert-issued-recent`) expires on');

  it('with 26 and then under 30 days left nothing is raised (the fixed 30-day threshold is not used)', async () => {
    const { last } = await command(h, '/tls', 'watch add cert-issued-recent');
    expect(last).toContain('Now watching');
    await looksDone(h);
    expect(daysUntil(expiresAt, clock.t)).toBeLessThanOrEqual(30);
    await sweepLater(h, clock, 8 * DAY); // 18 days left, at most 19 by the calendar
    expect(daysUntil(expiresAt, clock.t)).toBeGreaterThan(16);
    expect(alerts()).toHaveLength(0);
  });

  it('the first alert comes once the calendar count reaches 16 days (a third of 46), once', async () => {
    // Step through the day on which the count reaches 16, whatever time of day the test runs.
    while (daysUntil(expiresAt, clock.t) > 16) await sweepLater(h, clock, 6 * 3_600_000);
    await h.slack.waitFor(() => alerts().length > 0, 15_000);
    await sweepLater(h, clock);
    expect(alerts()).toHaveLength(1);
    const alert = messageText(alerts()[0] ?? { method: '', args: {}, at: 0 });
    expect(alert).toMatch(/\(in 1[56] days\)/);
    expect(alert).toContain('no renewal is ordered');
  });

  it('the Show card says how much of the 46-day life is left', async () => {
    const id = `show${Date.now()}`;
    await h.driver.interaction(
      buttonPress(WATCH_IDS.show, 'certificate:cert-issued-recent', { responseUrl: h.slack.responseUrl(id) }),
    );
    await h.slack.waitFor(() => h.slack.callsTo(`response_url:${id}`).length > 0, 15_000);
    const card = JSON.stringify(h.slack.callsTo(`response_url:${id}`)[0]?.args);
    // Slack handlers get the composition root's clock (src/start/web.ts passes no `now` to
    // createSlackApp, so here it is the real one, not the test's): the share is checked for its form
    // and its arithmetic, not for the test clock's day.
    const [, left, percent] = /(\d+) days? left \((\d+) % of its 46-day life\)/.exec(card) ?? [];
    expect(Number(percent)).toBe(Math.round((100 * Number(left)) / 46));
  });

  it('the next threshold (8 days, a sixth of the life) is raised once more', async () => {
    while (daysUntil(expiresAt, clock.t) > 8) await sweepLater(h, clock, 12 * 3_600_000);
    await h.slack.waitFor(() => alerts().length > 1, 15_000);
    await sweepLater(h, clock);
    expect(alerts()).toHaveLength(2);
  });
});
