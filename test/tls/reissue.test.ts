import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_IDS, REISSUE_IDS } from '../../src/features/tls/ids.js';
import { inputActionId } from '../../src/slack/modal.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { buttonPress, messageText, viewSubmission } from '../helpers/payloads.js';

function csr(subject: string, sans: string[]): string {
  return execFileSync(
    'openssl',
    [
      'req',
      '-new',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      '/dev/null',
      '-subj',
      `/CN=${subject}`,
      '-addext',
      `subjectAltName=${sans.map((s) => `DNS:${s}`).join(',')}`,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  ).toString();
}

describe('reissue and renew from Slack', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { delays: { certificateIssueMs: 3_000 } } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('/tls reissue keeps the order’s names exactly, checks the CSR, and follows to issuance', async () => {
    await h.driver.command('/tls', 'reissue cert-issued-recent', { user: 'U0001' });
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'views.update' && messageText(c).includes(REISSUE_IDS.modal)),
    );
    const view = h.slack.callsTo('views.update').at(-1)?.args.view as { private_metadata: string };
    assertWithinBlockKitLimits(view, 'modal');
    const submit = (pem: string) =>
      h.driver.interaction(
        viewSubmission(
          REISSUE_IDS.modal,
          {
            [REISSUE_IDS.csr]: { [inputActionId(REISSUE_IDS.csr)]: { type: 'plain_text_input', value: pem } },
            [REISSUE_IDS.dcv]: {
              [inputActionId(REISSUE_IDS.dcv)]: {
                type: 'radio_buttons',
                selected_option: { value: 'dns-cname-token' },
              },
            },
          },
          { user: 'U0001', privateMetadata: view.private_metadata },
        ),
      );
    const wrong = await submit(csr('www.example.com', ['www.example.com', 'other.example.com']));
    expect(wrong.json()).toMatchObject({
      response_action: 'errors',
      errors: { [REISSUE_IDS.csr]: expect.stringContaining('other.example.com') },
    });
    await submit(csr('www.example.com', ['www.example.com', 'example.com']));
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'chat.postMessage' && messageText(c).includes('reissued a certificate')),
    );
    expect(h.sandbox.calls.filter((c) => c.operation === 'tls.reissue' && c.status === 200)).toHaveLength(1);
    await h.slack.waitFor(
      (calls) => calls.some((c) => c.args.thread_ts !== undefined && messageText(c).includes('is issued')),
      20_000,
    );
  }, 30_000);

  it('/tls show offers Renew, which opens the order modal prefilled for a renewal', async () => {
    await h.driver.command('/tls', 'show cert-issued-old', { responseUrl: h.slack.responseUrl('show') });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:show'));
    const card = JSON.stringify(h.slack.callsTo('response_url:show')[0]?.args);
    expect(card).toContain(REISSUE_IDS.renewButton);
    expect(card).toContain(REISSUE_IDS.reissueButton);
    await h.driver.interaction(buttonPress(REISSUE_IDS.renewButton, 'cert-issued-old', { user: 'U0001' }));
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'views.update' && messageText(c).includes(ORDER_IDS.modal)),
    );
    const modal = messageText(h.slack.callsTo('views.update').at(-1) ?? { method: '', args: {}, at: 0 });
    expect(modal).toContain('api.example.com');
    expect(modal).toContain('"initial_value":"cert-issued-old"');
  });

  it('reissues a certificate with 150 names: the modal stays within Slack limits and the SAN list is sent whole', async () => {
    const names = ['big.example.com', ...Array.from({ length: 149 }, (_, i) => `host-${i}.big.example.com`)];
    const seed = h.sandbox.state.certificates.get('cert-issued-recent');
    if (seed === undefined) throw new Error('no seeded certificate');
    h.sandbox.state.certificates.set('cert-many-names', {
      ...seed,
      id: 'cert-many-names',
      status: 'issued',
      common_name: 'big.example.com',
      dns_names: names,
    });
    const updates = () =>
      h.slack.callsTo('views.update').filter((c) => messageText(c).includes(REISSUE_IDS.modal));
    const before = updates().length;
    await h.driver.command('/tls', 'reissue cert-many-names', { user: 'U0001' });
    await h.slack.waitFor(() => updates().length > before);
    const view = updates().at(-1)?.args.view as { private_metadata: string };
    assertWithinBlockKitLimits(view, 'modal');
    expect(view.private_metadata.length).toBeLessThan(3_000);
    await h.driver.interaction(
      viewSubmission(
        REISSUE_IDS.modal,
        {
          [REISSUE_IDS.csr]: {
            [inputActionId(REISSUE_IDS.csr)]: {
              type: 'plain_text_input',
              value: csr('big.example.com', names),
            },
          },
          [REISSUE_IDS.dcv]: {
            [inputActionId(REISSUE_IDS.dcv)]: {
              type: 'radio_buttons',
              selected_option: { value: 'dns-cname-token' },
            },
          },
        },
        { user: 'U0001', privateMetadata: view.private_metadata },
      ),
    );
    await h.slack.waitFor(
      () => h.sandbox.calls.some((c) => c.operation === 'tls.reissue' && c.path.includes('cert-many-names')),
      15_000,
    );
    const call = h.sandbox.calls.find(
      (c) => c.operation === 'tls.reissue' && c.path.includes('cert-many-names'),
    );
    // The registrar requires the order's names exactly; a cut list would be refused (417).
    expect(call?.status).toBe(200);
  }, 30_000);
});
