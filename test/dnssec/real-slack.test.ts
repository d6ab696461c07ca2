import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExternalTarget } from '../../src/features/dnssec/external.js';
import { EXTERNAL_IDS } from '../../src/features/dnssec/ids.js';
import { writeMetadata } from '../../src/slack/modal.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { buttonPress, messageText } from '../helpers/payloads.js';

const saidNothingChanged = (calls: SlackCall[]) =>
  calls.some((c) => /nothing was changed/i.test(messageText(c)));
const settledInDm = (h: Harness, user: string, domain: string) =>
  h.slack.calls.some(
    (c) =>
      c.method === 'chat.postMessage' &&
      c.args.channel === user &&
      c.args.thread_ts === undefined &&
      messageText(c).includes(`<@${user}>`) &&
      messageText(c).includes(domain) &&
      messageText(c).includes('is now *active*') &&
      /Settled <!date\^/.test(messageText(c)),
  );

describe('DNSSEC changes reach the person wherever Slack refuses to post (docs/requirements.md R30)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      sandbox: { delays: { dnssecSettleMs: 2_000 } },
      prepareSlack: (slack) =>
        slack
          .conversation('D0PAIR', { kind: 'im', botMember: false, members: ['U0001', 'U0002'] })
          .conversation('G0PRIV', { kind: 'private', botMember: false, members: ['U0003'] }),
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('enable typed in a DM without the bot: the card by response_url, the outcome later in the person’s DM', async () => {
    await h.driver.command('/dns', 'dnssec example.com enable', {
      user: 'U0001',
      channel: 'D0PAIR',
      responseUrl: h.slack.responseUrl('dm-enable'),
    });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:dm-enable'));
    const told = messageText(h.slack.callsTo('response_url:dm-enable')[0] ?? { method: '', args: {}, at: 0 });
    expect(told).toContain('enabled DNSSEC');
    expect(told).toContain('DNSSEC for example.com: pending');
    expect(told).toContain('tells you in your DM');
    expect(told).toMatch(/settle_at: <!date\^/);
    await h.slack.waitFor(() => settledInDm(h, 'U0001', 'example.com'), 20_000);
    expect(saidNothingChanged(h.slack.calls)).toBe(false);
  }, 30_000);

  it('from a private channel without the bot and a dead response_url: the card by DM, then followed there', async () => {
    await h.driver.command('/dns', 'dnssec xn--mller-kva.de enable', {
      user: 'U0003',
      channel: 'G0PRIV',
      responseUrl: 'http://127.0.0.1:9/response/dead',
    });
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === 'DU0003' &&
          messageText(c).includes('enabled DNSSEC'),
      ),
    );
    // The public post and the ephemeral were both refused before the DM.
    expect(h.slack.callsTo('chat.postMessage').some((c) => c.args.channel === 'G0PRIV')).toBe(true);
    expect(h.slack.callsTo('chat.postEphemeral').some((c) => c.args.channel === 'G0PRIV')).toBe(true);
    await h.slack.waitFor(() => settledInDm(h, 'U0003', 'müller.de'), 20_000);
    expect(saidNothingChanged(h.slack.calls)).toBe(false);
  }, 30_000);

  it('the records modal opens through the trigger-bound client: a rate-limited open is not retried past the trigger', async () => {
    h.slack.failNext('views.open', 'ratelimited', 5);
    const before = h.slack.callsTo('views.open').length;
    const value = writeMetadata(ExternalTarget, {
      domain: 'shop-example.org',
      channel: 'C0001',
      kinds: ['ds'],
      algorithms: [13],
      minRecords: 1,
    });
    await h.driver.interaction(
      buttonPress(EXTERNAL_IDS.open, value, { user: 'U0001', responseUrl: h.slack.responseUrl('rl') }),
    );
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:rl'));
    expect(messageText(h.slack.callsTo('response_url:rl')[0] ?? { method: '', args: {}, at: 0 })).toContain(
      'limiting',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(h.slack.callsTo('views.open')).toHaveLength(before + 1);
  });
});
