import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_IDS } from '../../src/features/home/ids.js';
import { SHARE_ACTION } from '../../src/slack/share.js';
import { text } from '../../src/text/index.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { buttonPress, homeButtonPress } from '../helpers/payloads.js';

describe('people from another workspace (Slack Connect) cannot act through this one', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('refuses an outsider’s button press before any listener runs, and tells them why', async () => {
    const press = buttonPress(SHARE_ACTION, 'anything', {
      user: 'UOUT',
      responseUrl: h.slack.responseUrl('out'),
    });
    (press.user as { team_id: string }).team_id = 'TOTHER';
    const res = await h.driver.interaction(press);
    expect(res.status).toBe(200);
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:out'));
    expect(JSON.stringify(h.slack.callsTo('response_url:out')[0]?.args)).toContain(
      text.slack.outsiderRefusal,
    );

    const home = homeButtonPress(HOME_IDS.refresh, 'refresh', 'UOUT');
    (home.user as { team_id: string }).team_id = 'TOTHER';
    await h.driver.interaction(home);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.slack.callsTo('views.publish')).toHaveLength(0);
  });

  it('ignores an outsider’s mention (no question is posted or queued); a member’s goes through', async () => {
    await h.driver.event({
      type: 'app_mention',
      user: 'UOUT',
      user_team: 'TOTHER',
      text: '<@UBOT> what is my balance?',
      channel: 'C0001',
      ts: '1700000000.000200',
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      h.slack.calls.filter((c) => c.method.startsWith('chat.') || c.method.startsWith('reactions.')),
    ).toEqual([]);

    await h.driver.event({
      type: 'app_mention',
      user: 'U0001',
      user_team: 'T0001',
      text: '<@UBOT> how do transfers work?',
      channel: 'C0001',
      ts: '1700000000.000300',
    });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'chat.postMessage'), 10_000);
  });
});
