import { afterEach, describe, expect, it } from 'vitest';
import { SlackStandIn } from '../../src/playground/slack-standin.js';

// The bench's Slack is the stand-in with Slack's pacing on: over HTTP, a call beyond Tier 3's 50 a
// minute is answered 429 with Retry-After and recorded with its answer. 51 calls take far less than
// the minute on any machine, so nothing here depends on its speed.
let slack: SlackStandIn | undefined;
afterEach(async () => {
  await slack?.stop();
  slack = undefined;
});

async function update(target: SlackStandIn): Promise<Response> {
  return fetch(`${target.apiUrl}chat.update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'C1', ts: '1.1', text: 'edited' }),
  });
}

describe('SlackStandIn pacing', () => {
  it('answers the 51st chat.update within a minute with 429 and Retry-After', async () => {
    slack = await new SlackStandIn({ pacing: true }).start();
    for (let i = 0; i < 50; i++) expect((await update(slack)).status).toBe(200);
    const refused = await update(slack);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({ ok: false, error: 'ratelimited' });
    expect(slack.pacing?.limitedCount('chat.update')).toBe(1);
    expect(slack.succeeded('chat.update')).toHaveLength(50);
    expect(slack.callsTo('chat.update').at(-1)?.result).toEqual({ ok: false, error: 'ratelimited' });
  });

  it('does not pace by default (tests and the playground)', async () => {
    slack = await new SlackStandIn().start();
    for (let i = 0; i < 51; i++) expect((await update(slack)).status).toBe(200);
    expect(slack.pacing).toBeUndefined();
  });
});
