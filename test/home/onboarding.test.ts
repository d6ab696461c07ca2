import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_IDS } from '../../src/features/home/ids.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';

/** Its own app: other tests' approval traffic re-publishes Home for every recent viewer. */
describe('App Home for a newcomer', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
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
    expect(JSON.stringify(published()[1]?.args.view)).not.toContain('Welcome to Regdesk');
  });
});
