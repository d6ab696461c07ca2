import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_REFRESH_WINDOW_MS } from '../../src/features/home/refresh.js';
import { WATCH_IDS } from '../../src/features/watches/ids.js';
import { inputActionId } from '../../src/slack/modal.js';
import type { Harness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { viewSubmission } from '../helpers/payloads.js';
import { command, DAY, looksDone, posted, startWatching } from './support.js';

const VIEWER = 'U0009';
const SWEEP = 20;

const input = (block: string, value: Record<string, unknown>) => ({
  [block]: { [inputActionId(block)]: value },
});
const settings = (channel: string, hour: string) => ({
  ...input(WATCH_IDS.channel, { type: 'conversations_select', selected_conversation: channel }),
  ...input(WATCH_IDS.cadence, { type: 'static_select', selected_option: { value: 'daily' } }),
  ...input(WATCH_IDS.hour, { type: 'static_select', selected_option: { value: hour } }),
  ...input(WATCH_IDS.timeZone, { type: 'plain_text_input', value: 'Europe/Berlin' }),
});

describe('App Home is re-published when watches change, coalesced (app, sandbox, strict fake Slack)', () => {
  let h: Harness;
  let clock: { t: number };

  beforeAll(async () => {
    ({ h, clock } = await startWatching());
    for (let i = 0; i < SWEEP; i++)
      h.sandbox.state.addDomain(`soon-${i}.com`, clock.t, { expiresAt: clock.t + 10 * DAY });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const publishes = () => h.slack.callsTo('views.publish').filter((c) => c.args.user_id === VIEWER);
  const latestHome = () => JSON.stringify(publishes().at(-1)?.args.view ?? {});

  it('after the digest settings change, whoever has Home open sees the new settings', async () => {
    await h.driver.event({ type: 'app_home_opened', user: VIEWER, channel: 'D9', tab: 'home' });
    await h.slack.waitFor(() => publishes().length === 1, 15_000);
    expect(latestHome()).not.toContain('Digest and alerts in');

    await h.driver.interaction(
      viewSubmission(WATCH_IDS.settingsModal, settings('C0001', '7'), { user: 'U0001' }),
    );
    await h.slack.waitFor(() => publishes().length >= 2, 15_000);
    expect(latestHome()).toContain('Digest and alerts in <#C0001>');
    expect(latestHome()).toContain('07:00 Europe/Berlin');
    assertWithinBlockKitLimits(publishes().at(-1)?.args.view, 'home');
  });

  it("after an alert, Home shows what is coming up (once the last publish's window lapses)", async () => {
    const before = publishes().length;
    const { last } = await command(h, '/domain', 'watch add expiring-soon.net');
    expect(last).toContain('Now watching');
    await h.slack.waitFor(() => posted(h, 'C0001', 'expiring-soon.net').length > 0, 15_000);
    // The settings were published moments ago: this one comes when their window lapses.
    await h.slack.waitFor(
      () => publishes().length > before && latestHome().includes('expiring-soon.net'),
      HOME_REFRESH_WINDOW_MS + 20_000,
    );
  }, 60_000);

  it(`a sweep of ${SWEEP} alerts re-publishes a few times, not once per item, and ends current`, async () => {
    const before = publishes().length;
    const names = Array.from({ length: SWEEP }, (_, i) => `soon-${i}.com`).join(' ');
    await command(h, '/domain', `watch add ${names}`);
    await looksDone(h);
    // One cause (the 14-day threshold) in one sweep: one message in the channel, naming all of them.
    await h.slack.waitFor(
      () => posted(h, 'C0001', `${SWEEP} domains expire within 14 days`).length > 0,
      60_000,
    );
    expect(posted(h, 'C0001', 'soon-')).toHaveLength(1);
    // Every look asked for a refresh (20 asks): one publish per window, the last one showing them all.
    await h.slack.waitFor(
      () => latestHome().includes('soon-') && latestHome().includes(`and ${SWEEP + 1 - 10} more`),
      HOME_REFRESH_WINDOW_MS + 20_000,
    );
    const during = publishes().length - before;
    expect(during).toBeGreaterThanOrEqual(1);
    // One per 20 s window while the looks go on: a few, however slow the machine, and far below
    // the 20 asks.
    expect(during).toBeLessThan(SWEEP / 2);
  }, 150_000);

  it('removing watches re-publishes Home without them', async () => {
    const before = publishes().length;
    const names = Array.from({ length: SWEEP }, (_, i) => `soon-${i}.com`).join(' ');
    await command(h, '/domain', `watch remove ${names}`);
    // "Coming up" (above "Recent activity", where the audited adds and removals are listed).
    const comingUp = () => latestHome().split('Recent activity')[0] ?? '';
    await h.slack.waitFor(
      () => publishes().length > before && !comingUp().includes('soon-'),
      HOME_REFRESH_WINDOW_MS + 20_000,
    );
    expect(latestHome()).toContain('expiring-soon.net');
  }, 60_000);
});
