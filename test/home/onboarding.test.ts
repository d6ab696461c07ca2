import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_IDS } from '../../src/features/home/ids.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { homeButtonPress } from '../helpers/payloads.js';

/** Its own app: other tests' approval traffic re-publishes Home for every recent viewer. */
describe('App Home for a newcomer', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    h.slack.users.set('UADMIN', { id: 'UADMIN', is_admin: true });
    h.slack.users.set('UPLAIN', { id: 'UPLAIN' });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('greets a first visit with onboarding, then shows the usual Home', async () => {
    const published = () => h.slack.callsTo('views.publish').filter((c) => c.args.user_id === 'UNEW');
    await h.driver.event({ type: 'app_home_opened', user: 'UNEW', channel: 'DNEW', tab: 'home' });
    await h.slack.waitFor(() => published().length === 1, 15_000);
    const first = JSON.stringify(published()[0]?.args.view);
    expect(first).toContain('Welcome to Regdesk');
    expect(first).toContain('/domain check');
    expect(first).toContain(HOME_IDS.setKey);
    assertWithinBlockKitLimits(published()[0]?.args.view, 'home');

    await h.driver.event({ type: 'app_home_opened', user: 'UNEW', channel: 'DNEW', tab: 'home' });
    await h.slack.waitFor(() => published().length === 2, 15_000);
    const second = JSON.stringify(published()[1]?.args.view);
    expect(second).not.toContain('Welcome to Regdesk');
    // The commands stay listed on every visit, once each.
    expect(second.split('/domain check NAME').length - 1).toBe(1);
    expect(first.split('/domain check NAME').length - 1).toBe(1);
  });

  it('answers Home buttons: the key modal for admins, a DM for others, and a refresh', async () => {
    await h.driver.interaction(homeButtonPress(HOME_IDS.setKey, 'key', 'UPLAIN'));
    await h.slack.waitFor(
      () => h.slack.succeeded('chat.postMessage').some((c) => c.args.channel === 'DUPLAIN'),
      15_000,
    );
    const refusal = h.slack.succeeded('chat.postMessage').find((c) => c.args.channel === 'DUPLAIN');
    expect(String(refusal?.args.text)).toContain('Only workspace admins');

    const opened = h.slack.succeeded('views.open').length;
    await h.driver.interaction(homeButtonPress(HOME_IDS.setKey, 'key', 'UADMIN'));
    await h.slack.waitFor(() => h.slack.succeeded('views.open').length > opened, 15_000);
    expect(JSON.stringify(h.slack.succeeded('views.open').at(-1)?.args.view)).toContain('API key');

    const forAdmin = () => h.slack.callsTo('views.publish').filter((c) => c.args.user_id === 'UADMIN').length;
    const publishes = forAdmin();
    await h.driver.interaction(homeButtonPress(HOME_IDS.refresh, 'refresh', 'UADMIN'));
    await h.slack.waitFor(() => forAdmin() > publishes, 15_000);
  });
});
