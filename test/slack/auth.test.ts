import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_TOKEN, type Harness, startHarness } from '../helpers/app-harness.js';

describe('single-workspace identity when auth.test fails at start-up', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      prepareSlack: (slack) => {
        slack.failNext('auth.test', 'service_unavailable');
        slack.failNext('auth.test', 'service_unavailable');
      },
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('keeps answering with the bot token, and learns the identity by retrying with backoff', async () => {
    const res = await h.driver.command('/domain', 'help');
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.json())).toContain('/domain check');

    // A listener's Web API call carries the token even before auth.test has succeeded.
    await h.driver.command('/ask', 'How do transfers work?');
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'chat.postMessage'), 10_000);
    expect(h.slack.callsTo('chat.postMessage')[0]?.token).toBe(BOT_TOKEN);

    // Start-up retries auth.test until it succeeds, then keeps the identity (no call per request).
    await h.slack.waitFor(() => h.slack.succeeded('auth.test').length === 1, 15_000);
    const calls = h.slack.callsTo('auth.test').length;
    await h.driver.command('/domain', 'help');
    await h.driver.command('/domain', 'help');
    expect(h.slack.callsTo('auth.test').length).toBe(calls);
  });
});
