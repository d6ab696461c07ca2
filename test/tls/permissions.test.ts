import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { hashParams } from '../../src/features/audit/service.js';
import { DEFAULT_POLICY, type Policy } from '../../src/features/policy/policy.js';
import { ORDER_IDS, ORG_IDS, REISSUE_IDS } from '../../src/features/tls/ids.js';
import { orderCertificate } from '../../src/features/tls/operations.js';
import { dmsTo, toldTo, WS, waitForDm } from '../approvals/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { buttonPress, messageText, stateInput, viewSubmission } from '../helpers/payloads.js';
import { csrFor, orderForm } from './world.js';

const ADMIN = 'UADMIN'; // approves under the default policy (workspace admins)
const GUEST = 'UGUEST';
const BUYER = 'UBUYER';
const PLAIN = 'UPLAIN';

describe('who may order, reissue and edit organizations; orders through approval (signed requests, strict fake Slack)', () => {
  let h: Harness;
  const orders = () => h.sandbox.calls.filter((c) => c.operation === 'tls.order').length;
  const setPolicy = (changes: Partial<Policy>) =>
    h.running.services.policies.set(WS, { ...DEFAULT_POLICY, ...changes });
  const submitOrder = (cn: string, channel: string, user: string) =>
    h.driver.interaction(
      viewSubmission(ORDER_IDS.modal, orderForm(cn), { user, privateMetadata: JSON.stringify({ channel }) }),
    );
  /** The text of the newest modal update shown to the person (a refusal replaces the loading view). */
  const lastUpdate = () =>
    messageText(h.slack.callsTo('views.update').at(-1) ?? { method: '', args: {}, at: 0 });
  const refusals = async () =>
    (await h.running.services.audit.latest(WS, { limit: 100 })).filter((entry) => entry.action === 'refuse');

  beforeAll(async () => {
    h = await startHarness({ sandbox: { delays: { certificateIssueMs: 2_000 } } });
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
    h.slack.users.set(GUEST, { id: GUEST, is_restricted: true });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("refuses a guest's order, in the modal and at submission, saying why; audited, nothing ordered", async () => {
    const before = orders();
    await h.driver.command('/tls', 'order', { user: GUEST, channel: 'CGUEST' });
    await h.slack.waitFor(() => lastUpdate().includes('Guests cannot order certificates'));
    expect(lastUpdate()).not.toContain(ORDER_IDS.cn);

    // A submission can come without the modal (forged, or a modal opened before the person became a guest).
    const res = await submitOrder('guest.example.com', 'CGUEST', GUEST);
    expect(res.status).toBe(200);
    await h.slack.waitFor(() =>
      toldTo(h, GUEST).some((text) => text.includes('Guests cannot order certificates')),
    );
    expect(orders()).toBe(before);
    const refused = await refusals();
    expect(refused.filter((e) => e.actor === GUEST)).toEqual([
      expect.objectContaining({ operation: 'tls.order', target: 'guest.example.com' }),
      expect.objectContaining({ operation: 'tls.order', outcome: 'Guests cannot order certificates.' }),
    ]);
  });

  it('with orderers "listed", refuses everyone else: orders, Renew, organizations; a listed person orders', async () => {
    await setPolicy({ orderers: 'listed', ordererUsers: [BUYER] });
    try {
      await submitOrder('plain.example.com', 'CLISTED', PLAIN);
      const why = "Only the people listed in this workspace's policy may order certificates.";
      await h.slack.waitFor(() => toldTo(h, PLAIN).some((text) => text.includes(why)));

      await h.driver.interaction(
        buttonPress(REISSUE_IDS.renewButton, 'cert-issued-old', { user: PLAIN, channel: 'CLISTED' }),
      );
      await h.slack.waitFor(() => lastUpdate().includes(why));
      await h.driver.command('/tls', 'org new', { user: PLAIN, channel: 'CLISTED' });
      await h.slack.waitFor(
        () =>
          lastUpdate().includes('may create or edit TLS organizations') &&
          !lastUpdate().includes(ORG_IDS.modal),
      );
      expect(orders()).toBe(0);

      await submitOrder('buyer.example.com', 'CLISTED', BUYER);
      await h.slack.waitFor((calls) =>
        calls.some(
          (c) => c.method === 'chat.postMessage' && messageText(c).includes('buyer.example.com (pending)'),
        ),
      );
      expect(orders()).toBe(1);
    } finally {
      await setPolicy({});
    }
  });

  it('audits a direct order with its target and parameter hash', async () => {
    // Audited right after the card is posted.
    const ordered = async () =>
      (await h.running.services.audit.latest(WS, { limit: 100 })).find((e) => e.action === 'order');
    await expect.poll(ordered).toBeDefined();
    const entry = await ordered();
    expect(entry).toMatchObject({ actor: BUYER, operation: 'tls.order', target: 'buyer.example.com' });
    expect(entry?.paramsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(entry?.outcome).toMatch(/^Certificate \S+ is pending$/);
  });

  it('with orders needing approval: a request, not an order; once approved, ordered once, the requester told, followed in its thread', async () => {
    await setPolicy({ ordersNeedApproval: true });
    try {
      const before = orders();
      const isRequest = (c: SlackCall) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === 'CAPPROVE' &&
        messageText(c).includes(APPROVAL_IDS.approve);
      await submitOrder('approved.example.com', 'CAPPROVE', 'U0001');
      await h.slack.waitFor((calls) => calls.some(isRequest), 10_000);
      const posted = h.slack.calls.find(isRequest);
      expect(messageText(posted ?? { method: '', args: {}, at: 0 })).toContain(
        'order a RapidSSL certificate for approved.example.com',
      );
      const id = /"value":"(apr_[0-9a-f]{16})"/.exec(JSON.stringify(posted?.args.blocks))?.[1] ?? '';
      const ts = (posted?.result as { ts?: string } | undefined)?.ts;
      await h.slack.waitFor(() => toldTo(h, 'U0001').some((text) => text.includes('Approval requested')));
      expect(orders()).toBe(before);
      const stored = await h.running.services.approvalStore.get(WS, id);
      expect(stored).toMatchObject({
        operation: 'tls.order',
        target: 'approved.example.com',
        state: 'pending',
      });
      // The CSR is part of the snapshot (it is public), so what was approved is exactly what is sent.
      expect(String(stored?.params.csr)).toContain('BEGIN CERTIFICATE REQUEST');
      expect(stored?.paramsHash).toBe(hashParams(orderCertificate.parse(stored?.params)));

      h.slack.users.set('UADMIN2', { id: 'UADMIN2', is_admin: true });
      await Promise.all(
        [ADMIN, 'UADMIN2'].map((user) =>
          h.driver.interaction(buttonPress(APPROVAL_IDS.approve, id, { user, channel: 'CAPPROVE' })),
        ),
      );
      const done = await waitForDm(h, 'U0001', 'is done');
      expect(done).toContain('approved.example.com');
      expect(orders()).toBe(before + 1);
      await h.slack.waitFor(
        (calls) =>
          calls.some(
            (c) =>
              c.method === 'chat.postMessage' &&
              c.args.thread_ts === ts &&
              messageText(c).includes('is issued'),
          ),
        20_000,
      );
      expect(orders()).toBe(before + 1);
      const trail = (await h.running.services.audit.latest(WS, { limit: 100 })).filter(
        (e) => e.requestId === id,
      );
      expect(trail.map((e) => e.action)).toEqual(
        expect.arrayContaining(['request', 'approve', 'execute', 'succeed']),
      );
      expect(dmsTo(h, 'U0001').join('\n')).not.toContain('BEGIN CERTIFICATE REQUEST');
    } finally {
      await setPolicy({});
    }
  }, 40_000);

  it('with orders needing approval, a reissue becomes a request too', async () => {
    await setPolicy({ ordersNeedApproval: true });
    try {
      await h.driver.command('/tls', 'reissue cert-issued-recent', { user: 'U0001', channel: 'CREISSUE' });
      await h.slack.waitFor(() => lastUpdate().includes(REISSUE_IDS.modal));
      const view = h.slack.callsTo('views.update').at(-1)?.args.view as { private_metadata: string };
      await h.driver.interaction(
        viewSubmission(
          REISSUE_IDS.modal,
          {
            ...stateInput(REISSUE_IDS.csr, {
              type: 'plain_text_input',
              value: csrFor('www.example.com', ['www.example.com', 'example.com']),
            }),
            ...stateInput(REISSUE_IDS.dcv, {
              type: 'radio_buttons',
              selected_option: { value: 'dns-cname-token' },
            }),
          },
          { user: 'U0001', privateMetadata: view.private_metadata },
        ),
      );
      await h.slack.waitFor((calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.args.channel === 'CREISSUE' &&
            messageText(c).includes('reissue certificate cert-issued-recent'),
        ),
      );
      expect(h.sandbox.calls.some((c) => c.operation === 'tls.reissue')).toBe(false);
      // Recorded as shown right after Slack answers the post.
      await expect
        .poll(async () =>
          (await h.running.services.approvalStore.pending(WS)).find((r) => r.operation === 'tls.reissue'),
        )
        .toMatchObject({ target: 'cert-issued-recent' });
    } finally {
      await setPolicy({});
    }
  });
});
