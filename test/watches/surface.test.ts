import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_IDS } from '../../src/features/watches/ids.js';
import { digestSchedulerId } from '../../src/features/watches/jobs.js';
import { createRedis, type Redis, waitForReady } from '../../src/shared/redis.js';
import { inputActionId } from '../../src/slack/modal.js';
import type { Harness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { buttonPress, homeButtonPress, messageText, viewSubmission } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { command, looksDone, posted, startWatching, WS } from './support.js';

/** The settings modal as submitted. */
function settings(fields: { channel?: string; cadence?: string; hour?: string; tz?: string }) {
  const input = (block: string, value: Record<string, unknown>) => ({
    [block]: { [inputActionId(block)]: value },
  });
  return {
    ...input(WATCH_IDS.channel, {
      type: 'conversations_select',
      selected_conversation: fields.channel ?? null,
    }),
    ...input(WATCH_IDS.cadence, {
      type: 'static_select',
      selected_option: { value: fields.cadence ?? 'daily' },
    }),
    ...input(WATCH_IDS.hour, { type: 'static_select', selected_option: { value: fields.hour ?? '9' } }),
    ...input(WATCH_IDS.timeZone, { type: 'plain_text_input', value: fields.tz ?? 'Europe/Berlin' }),
  };
}

describe('watch commands, buttons, settings, digest, App Home and uninstall (app, strict fake Slack)', () => {
  let h: Harness;
  let redis: Redis;

  beforeAll(async () => {
    redis = createRedis(testRedisUrl(), 'worker', 'watch-surface-test');
    await waitForReady(redis);
    ({ h } = await startWatching({
      env: { WATCH_LIMIT: '6' },
      prepare: {
        prepareSlack: (slack) => slack.conversation('CNOBOT', { kind: 'public', botMember: false }),
      },
    }));
  });
  afterAll(async () => {
    redis?.disconnect();
    await h?.stop();
  });

  it('refuses bad input with a clear ephemeral answer and adds nothing', async () => {
    expect((await h.driver.command('/domain', 'watch')).text).toContain('/domain watch add DOMAIN');
    expect((await h.driver.command('/domain', 'watch add')).text).toContain('Usage');
    expect((await h.driver.command('/domain', 'watch frobnicate')).text).toContain('/domain watch list');
    const invalid = await h.driver.command('/domain', 'watch add exa_mple..com co.uk');
    expect(invalid.text).toContain('Nothing was added');
    expect((await h.driver.command('/tls', 'watch add bad/id')).text).toContain('Not a certificate id');
    const tooMany = Array.from({ length: 101 }, (_, i) => `n${i}.com`).join(' ');
    expect((await h.driver.command('/domain', `watch add ${tooMany}`)).text).toContain('at most 100');
    // An id the registrar does not know is not added.
    const { last } = await command(h, '/tls', 'watch add cert-nope');
    expect(last).toContain('the registrar does not know these certificates');
    expect(await h.running.services.watches.list(WS)).toHaveLength(0);
  });

  it('adds valid names next to invalid ones, lists them, and keeps to the workspace limit', async () => {
    const { last } = await command(h, '/domain', 'watch add example.com müller.de bad..name');
    expect(last).toContain('Now watching');
    expect(last).toContain('müller.de');
    expect(last).toContain('was not added');
    await looksDone(h);
    const again = await command(h, '/domain', 'watch add example.com');
    expect(again.last).toContain('Already watched');
    const list = await command(h, '/domain', 'watch list');
    expect(list.last).toContain('Watched domains and certificates (2)');
    expect(list.last).toContain('2 of 6 watches used');
    // 2 + 5 > 6: all or nothing (names the registrar knows: unknown ones are never added).
    for (let i = 1; i <= 5; i++) h.sandbox.state.addDomain(`a${i}.com`, Date.now());
    const over = await command(h, '/domain', 'watch add a1.com a2.com a3.com a4.com a5.com');
    expect(over.last).toContain('would pass the limit');
    expect(await h.running.services.watches.list(WS)).toHaveLength(2);
  });

  it('has a Watch button on domain and certificate cards; pressing it watches the item', async () => {
    const info = await command(h, '/domain', 'info regdesk-demo.de');
    expect(info.last).toContain(WATCH_IDS.watchDomain);
    const cert = await command(h, '/tls', 'show cert-issued-recent');
    expect(cert.last).toContain(WATCH_IDS.watchCertificate);
    const id = `press${Date.now()}`;
    await h.driver.interaction(
      buttonPress(WATCH_IDS.watchCertificate, 'cert-issued-recent', {
        user: 'U0001',
        responseUrl: h.slack.responseUrl(id),
      }),
    );
    await h.slack.waitFor(() => h.slack.callsTo(`response_url:${id}`).length > 0, 15_000);
    expect(JSON.stringify(h.slack.callsTo(`response_url:${id}`)[0]?.args)).toContain('Now watching');
    const ids = (await h.running.services.watches.list(WS)).map((entry) => entry.item.id);
    expect(ids).toContain('cert-issued-recent');
  });

  it('an alert for a channel Regdesk is not in reaches the person who added the watch by DM', async () => {
    await command(h, '/domain', 'watch add expiring-soon.net', { channel: 'CNOBOT', user: 'U0042' });
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.args.channel === 'DU0042' &&
            messageText(c).includes('expiring-soon.net'),
        ),
      15_000,
    );
    expect(posted(h, 'DU0042', 'invite it')).toHaveLength(1);
  });

  it('settings: the modal opens in the opener’s time zone, refuses a bad one inline, and schedules one digest', async () => {
    await h.driver.command('/domain', 'watch settings', { user: 'U0007' });
    await h.slack.waitFor(() => h.slack.callsTo('views.open').length > 0, 15_000);
    const view = h.slack.callsTo('views.open').at(-1)?.args.view;
    assertWithinBlockKitLimits(view, 'modal');
    expect(JSON.stringify(view)).toContain('Europe/Berlin');

    const bad = await h.driver.interaction(
      viewSubmission(WATCH_IDS.settingsModal, settings({ tz: 'Mars/Olympus' })),
    );
    expect(bad.json()).toMatchObject({
      response_action: 'errors',
      errors: { [WATCH_IDS.timeZone]: expect.any(String) },
    });

    await h.driver.interaction(
      viewSubmission(
        WATCH_IDS.settingsModal,
        settings({ channel: 'C0DIGEST', cadence: 'monday', hour: '8', tz: 'America/New_York' }),
        { user: 'U0007' },
      ),
    );
    const scheduler = () => h.running.services.watchQueue.getJobScheduler(digestSchedulerId(WS));
    await expect.poll(async () => (await scheduler())?.pattern, { timeout: 15_000 }).toBe('0 8 * * 1');
    expect((await scheduler())?.tz).toBe('America/New_York');
    await h.slack.waitFor(() => posted(h, 'DU0007', 'settings saved').length > 0, 15_000);
  });

  it('/domain watch digest posts the digest in the digest channel: expiries in order, within limits', async () => {
    const { last } = await command(h, '/domain', 'watch digest');
    expect(last).toContain('Digest posted in <#C0DIGEST>');
    const [digest] = posted(h, 'C0DIGEST', 'Watch digest');
    assertWithinBlockKitLimits(digest?.args, 'message');
    expect(messageText(digest ?? { method: '', args: {}, at: 0 })).toContain('expiring-soon.net');
  });

  it('App Home shows "Coming up" and the digest settings', async () => {
    await h.driver.event({ type: 'app_home_opened', user: 'U0009', channel: 'D9', tab: 'home' });
    await h.slack.waitFor(
      () => h.slack.callsTo('views.publish').some((c) => c.args.user_id === 'U0009'),
      15_000,
    );
    const view = h.slack.callsTo('views.publish').find((c) => c.args.user_id === 'U0009')?.args.view;
    assertWithinBlockKitLimits(view, 'home');
    const text = JSON.stringify(view);
    expect(text).toContain('Coming up');
    expect(text).toContain('expiring-soon.net');
    expect(text).toContain('C0DIGEST');
    expect(text).toContain(WATCH_IDS.openSettings);

    await h.driver.interaction(homeButtonPress(WATCH_IDS.digestNow, 'home', 'U0009'));
    await h.slack.waitFor(() => posted(h, 'C0DIGEST', 'Watch digest').length >= 2, 15_000);
  });

  it('uninstall removes the workspace’s watches and its digest scheduler', async () => {
    await h.driver.event({ type: 'app_uninstalled' }, { team: 'T0001' });
    await expect
      .poll(async () => h.running.services.watchQueue.getJobScheduler(digestSchedulerId(WS)), {
        timeout: 15_000,
      })
      .toBeUndefined();
    expect(await h.running.services.watches.list(WS)).toHaveLength(0);
    expect(await redis.keys(`${h.keyPrefix}:{ws:-:T0001}:watch:*`)).toEqual([]);
    expect(await h.running.services.watchStore.workspaces()).toEqual([]);
  });
});
