import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_IDS } from '../../src/features/tls/ids.js';
import { inputActionId } from '../../src/slack/modal.js';
import type { Harness } from '../helpers/app-harness.js';
import { messageText, viewSubmission } from '../helpers/payloads.js';
import { csrFor } from '../tls/world.js';
import { command, DAY, looksDone, posted, startWatching, sweepLater, WS } from './support.js';

const input = (blockId: string, value: Record<string, unknown>) => ({
  [blockId]: { [inputActionId(blockId)]: value },
});

/** The order modal as submitted: from `/tls order`, or from a card's Renew button (`renewalOf` prefilled). */
const orderForm = (cn: string, renewalOf = '') => ({
  ...input(ORDER_IDS.product, { type: 'static_select', selected_option: { value: 'RapidSSL' } }),
  ...input(ORDER_IDS.cn, { type: 'plain_text_input', value: cn }),
  ...input(ORDER_IDS.sans, { type: 'plain_text_input', value: '' }),
  ...input(ORDER_IDS.csr, { type: 'plain_text_input', value: csrFor(cn, []) }),
  ...input(ORDER_IDS.dcv, { type: 'radio_buttons', selected_option: { value: 'dns-cname-token' } }),
  ...input(ORDER_IDS.renewal, { type: 'plain_text_input', value: renewalOf }),
});

describe('certificate expiry alerts wait for no renewal ordered through Regdesk (app, sandbox, strict fake Slack)', () => {
  let h: Harness;
  let clock: { t: number };
  let renewalId = '';

  beforeAll(async () => {
    ({ h, clock } = await startWatching());
    // Two certificates ending on the same day: api.example.com gets a renewal, www.example.com none.
    const old = h.sandbox.state.certificates.get('cert-issued-old');
    const recent = h.sandbox.state.certificates.get('cert-issued-recent');
    if (old === undefined || recent === undefined) throw new Error('seed changed');
    recent.orderedAt = old.orderedAt;
  });
  afterAll(async () => {
    await h?.stop();
  });

  const sweep = () => sweepLater(h, clock);
  const alerts = (id: string) => posted(h, 'C0001', `(\`${id}\`) expires on`);

  it('a renewal ordered with the order modal (Renew button) is recorded for the watches', async () => {
    const { last } = await command(h, '/tls', 'watch add cert-issued-old cert-issued-recent');
    expect(last).toContain('Now watching');
    await looksDone(h);
    await h.driver.interaction(
      viewSubmission(ORDER_IDS.modal, orderForm('api.example.com', 'cert-issued-old'), {
        user: 'U0001',
        privateMetadata: '{"channel":"C0001"}',
      }),
    );
    await h.slack.waitFor(() => posted(h, 'C0001', 'Publish these DNS records').length > 0, 15_000);
    const [order] = await h.running.services.renewals.ordersFor(WS, 'api.example.com');
    expect(order?.renewalOf).toBe('cert-issued-old');
    renewalId = order?.id ?? '';
    expect(renewalId).not.toBe('');
  });

  it('near the end, only the certificate without a renewal is raised, once; list and digest show the renewal', async () => {
    // Both ordered 40 days ago for 365 days: 300 days on, 25 are left (the 30-day threshold).
    clock.t += 300 * DAY;
    await sweep();
    await h.slack.waitFor(() => alerts('cert-issued-recent').length > 0, 15_000);
    await sweep();
    expect(alerts('cert-issued-recent')).toHaveLength(1);
    expect(messageText(alerts('cert-issued-recent')[0] ?? { method: '', args: {}, at: 0 })).toContain(
      'no renewal is ordered',
    );
    expect(alerts('cert-issued-old')).toHaveLength(0);

    const { last } = await command(h, '/tls', 'watch list');
    expect(last).toContain(`renewal \`${renewalId}\` ordered`);
    const digest = await command(h, '/domain', 'watch digest', { channel: 'C0001' });
    expect(digest.last).toContain('Digest posted');
    const [posting] = posted(h, 'C0001', 'Watch digest');
    const text = messageText(posting ?? { method: '', args: {}, at: 0 });
    expect(text).toContain(`renewal \`${renewalId}\` ordered`);
    expect(text).toContain('is *issued*');
  });

  it('once the renewal is cancelled, the alert of the threshold comes, once', async () => {
    const renewal = h.sandbox.state.certificates.get(renewalId);
    if (renewal === undefined) throw new Error('renewal not in the sandbox');
    renewal.status = 'cancelled';
    await sweep();
    await h.slack.waitFor(() => alerts('cert-issued-old').length > 0, 15_000);
    await sweep();
    expect(alerts('cert-issued-old')).toHaveLength(1);
    expect(alerts('cert-issued-recent')).toHaveLength(1);
    const { last } = await command(h, '/tls', 'watch list');
    expect(last).not.toContain(`renewal \`${renewalId}\``);
  });

  it('an order placed before the certificate is not its renewal; a failed read of the renewal raises nothing', async () => {
    await command(h, '/tls', 'watch remove cert-issued-old');
    const recent = h.sandbox.state.certificates.get('cert-issued-recent');
    if (recent === undefined) throw new Error('seed changed');
    recent.orderedAt = clock.t - 360 * DAY; // 5 days left: the 7-day threshold
    // An order for the name from before the certificate's own order is not its renewal.
    await h.running.services.renewals.record(WS, {
      id: 'cert-pending',
      commonName: 'www.example.com',
      placedAt: 0,
    });
    await sweep();
    await h.slack.waitFor(() => alerts('cert-issued-recent').length >= 2, 15_000);
    expect(alerts('cert-issued-recent')).toHaveLength(2);

    // A later `/tls order` for the name (no "renewal of" given), whose read fails: the look fails
    // and raises nothing.
    recent.orderedAt -= DAY; // a new end date arms the thresholds again
    await h.driver.interaction(
      viewSubmission(ORDER_IDS.modal, orderForm('www.example.com'), {
        user: 'U0001',
        privateMetadata: '{"channel":"C0001"}',
      }),
    );
    await h.slack.waitFor(() => posted(h, 'C0001', 'Publish these DNS records').length >= 2, 15_000);
    const [order] = await h.running.services.renewals.ordersFor(WS, 'www.example.com');
    const ordered = order?.id ?? '';
    expect(ordered).toMatch(/^cert-/);
    expect(order?.renewalOf).toBeUndefined();
    const stop = h.sandbox.onRequest((request) => {
      if (request.path.endsWith('/cert-issued-recent'))
        h.sandbox.faults.inject('tls.get', { status: 502, times: 1 });
    });
    try {
      await sweep();
    } finally {
      stop();
      h.sandbox.faults.clear();
    }
    expect(h.sandbox.requests().some((r) => r.path.endsWith(`/${ordered}`) && r.status === 502)).toBe(true);
    expect(alerts('cert-issued-recent')).toHaveLength(2);
    // Readable again: the renewal counts, so the new end date raises nothing either.
    await sweep();
    expect(alerts('cert-issued-recent')).toHaveLength(2);
    const { last } = await command(h, '/tls', 'watch list');
    expect(last).toContain(`renewal \`${ordered}\` ordered`);
  });
});
