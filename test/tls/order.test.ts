import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrProblems, parseCsr } from '../../src/features/tls/csr.js';
import { ORDER_IDS } from '../../src/features/tls/ids.js';
import { inputActionId } from '../../src/slack/modal.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText, viewSubmission } from '../helpers/payloads.js';

/** A real CSR from openssl; the private key is thrown away at once. */
function csr(subject: string, sans: string[] = [], key = 'rsa:2048'): string {
  const keyArgs =
    key === 'ec-p256' ? ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'] : ['-newkey', key];
  const args = ['req', '-new', ...keyArgs, '-nodes', '-keyout', '/dev/null', '-subj', `/CN=${subject}`];
  if (sans.length > 0) args.push('-addext', `subjectAltName=${sans.map((s) => `DNS:${s}`).join(',')}`);
  return execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
}

const input = (blockId: string, value: Record<string, unknown>) => ({
  [blockId]: { [inputActionId(blockId)]: value },
});
const form = (fields: { cn: string; csr: string; sans?: string; product?: string }) => ({
  ...input(ORDER_IDS.product, {
    type: 'static_select',
    selected_option: { value: fields.product ?? 'RapidSSL' },
  }),
  ...input(ORDER_IDS.cn, { type: 'plain_text_input', value: fields.cn }),
  ...input(ORDER_IDS.sans, { type: 'plain_text_input', value: fields.sans ?? '' }),
  ...input(ORDER_IDS.csr, { type: 'plain_text_input', value: fields.csr }),
  ...input(ORDER_IDS.dcv, { type: 'radio_buttons', selected_option: { value: 'dns-cname-token' } }),
});

describe('CSR checks', () => {
  it('reads names and key size, and names every mismatch', () => {
    const info = parseCsr(csr('www.example.com', ['www.example.com', 'example.com']));
    expect(info).toMatchObject({
      commonName: 'www.example.com',
      dnsNames: ['www.example.com', 'example.com'],
      key: { type: 'rsa', bits: 2048 },
    });
    expect(csrProblems(info, 'www.example.com', ['example.com'])).toEqual([]);
    expect(csrProblems(info, 'shop.example.com', [])).toHaveLength(2);
    expect(csrProblems(parseCsr(csr('a.example.com', [], 'rsa:1024')), 'a.example.com', [])[0]).toContain(
      '1024 bits',
    );
    expect(parseCsr(csr('e.example.com', [], 'ec-p256')).key).toEqual({ type: 'ec', curve: 'P-256' });
    expect(() =>
      parseCsr('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----'),
    ).toThrow();
  });
});

describe('/tls order', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { delays: { certificateIssueMs: 3_000 } } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('opens the order modal within Block Kit limits', async () => {
    // A loading view opens at once (the trigger lasts 3 s); the form replaces it once the person is checked.
    await h.driver.command('/tls', 'order');
    const filled = (c: SlackCall) => c.method === 'views.update' && messageText(c).includes(ORDER_IDS.cn);
    await h.slack.waitFor((calls) => calls.some(filled));
    assertWithinBlockKitLimits(h.slack.calls.find(filled)?.args.view, 'modal');
  });

  it('refuses a CSR that does not match the order, inline on the field', async () => {
    const res = await h.driver.interaction(
      viewSubmission(ORDER_IDS.modal, form({ cn: 'shop.example.com', csr: csr('other.example.com') }), {
        privateMetadata: '{"channel":"C0001"}',
      }),
    );
    expect(res.json()).toMatchObject({
      response_action: 'errors',
      errors: { [ORDER_IDS.csr]: expect.stringContaining('other.example.com') },
    });
    const bad = await h.driver.interaction(
      viewSubmission(ORDER_IDS.modal, form({ cn: 'not a name', csr: 'x' }), {
        privateMetadata: '{"channel":"C0001"}',
      }),
    );
    expect(bad.json()).toMatchObject({
      response_action: 'errors',
      errors: { [ORDER_IDS.cn]: expect.any(String) },
    });
    const ov = await h.driver.interaction(
      viewSubmission(
        ORDER_IDS.modal,
        form({ cn: 'ov.example.com', csr: csr('ov.example.com'), product: 'SecureSite' }),
        {
          privateMetadata: '{"channel":"C0001"}',
        },
      ),
    );
    expect(ov.json()).toMatchObject({
      response_action: 'errors',
      errors: { [ORDER_IDS.org]: expect.stringContaining('/tls org new') },
    });
  });

  it('orders, shows the validation records, follows to issuance, and does not order a duplicate', async () => {
    const pem = csr('new.example.com', ['new.example.com', 'alt.example.com']);
    const submit = () =>
      h.driver.interaction(
        viewSubmission(ORDER_IDS.modal, form({ cn: 'new.example.com', sans: 'alt.example.com', csr: pem }), {
          user: 'U0001',
          privateMetadata: '{"channel":"C0001"}',
        }),
      );
    await submit();
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) => c.method === 'chat.postMessage' && messageText(c).includes('Publish these DNS records'),
      ),
    );
    const card = h.slack
      .callsTo('chat.postMessage')
      .find((c) => messageText(c).includes('Publish these DNS records'));
    assertWithinBlockKitLimits(card?.args, 'message');
    expect(messageText(card ?? { method: '', args: {}, at: 0 })).toContain('CNAME');

    await submit();
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'chat.postEphemeral' && String(c.args.text).includes('already pending')),
    );
    expect(h.sandbox.calls.filter((c) => c.operation === 'tls.order')).toHaveLength(1);

    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.args.thread_ts !== undefined &&
            messageText(c).includes('is issued'),
        ),
      20_000,
    );
  }, 30_000);

  it('an order from a channel Regdesk is not in still reaches the person, by DM (R30)', async () => {
    h.slack.conversation('C0OUT', { kind: 'public', botMember: false });
    await h.driver.interaction(
      viewSubmission(ORDER_IDS.modal, form({ cn: 'out.example.com', csr: csr('out.example.com') }), {
        user: 'U0001',
        privateMetadata: '{"channel":"C0OUT"}',
      }),
    );
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === 'DU0001' &&
          messageText(c).includes('out.example.com (pending)') &&
          messageText(c).includes('/invite'),
      ),
    );
  });
});
