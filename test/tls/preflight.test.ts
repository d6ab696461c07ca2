import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { DEFAULT_POLICY } from '../../src/features/policy/policy.js';
import { COMPLETE_IDS, ORDER_IDS, REISSUE_IDS } from '../../src/features/tls/ids.js';
import { inputActionId } from '../../src/slack/modal.js';
import { addLabDomains } from '../diagnostics/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { type DnsLab, startDnsLab } from '../helpers/dns-lab/index.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { LAB_RANGE } from '../helpers/live-check.js';
import { orderModalValues } from '../helpers/order-form.js';
import { buttonPress, messageText, viewSubmission } from '../helpers/payloads.js';
import { addIssuedCertificate, csrFor } from './world.js';

const WS = { teamId: 'T0001' };

/**
 * Issue #45 from Slack, over real HTTP into the app, against the DNS lab (knot, unbound): the Renew,
 * Reissue and Complete buttons of a certificate whose names the CA would refuse say why and what to
 * set instead of opening their form, nothing goes to the registrar, and the refusal is audited; the
 * reissue and order forms judge CAA by the way of validation chosen in them.
 */
describe('the certificate preflight from Slack, against real DNS servers', () => {
  let lab: DnsLab;
  let h: Harness;

  beforeAll(async () => {
    lab = await startDnsLab();
    h = await startHarness({
      env: {
        DNS_RESOLVERS: lab.resolver,
        LIVE_CHECK_ALLOW: LAB_RANGE,
        DNSSEC_TRUST_ANCHOR: lab.trustAnchor,
      },
    });
    addLabDomains(h.sandbox, lab);
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
    await lab?.stop();
  });

  const registrarWrites = () =>
    h.sandbox.calls.filter((call) => ['tls.order', 'tls.reissue', 'tls.complete'].includes(call.operation));
  /** Presses `button` for `id` and returns the view that replaced the loading modal. */
  async function press(button: string, id: string, user = 'U0001'): Promise<SlackCall> {
    const before = h.slack.callsTo('views.update').length;
    await h.driver.interaction(buttonPress(button, id, { user }));
    await h.slack.waitFor(() => h.slack.callsTo('views.update').length > before, 20_000);
    const update = h.slack.callsTo('views.update').at(-1);
    if (update === undefined) throw new Error('no views.update');
    assertWithinBlockKitLimits(update.args.view, 'modal');
    return update;
  }
  const refusals = async (target: string) =>
    (await h.running.services.audit.latest(WS, { limit: 50 })).filter(
      (entry) => entry.action === 'refuse' && entry.target === target,
    );

  it('Renew of a certificate in a bogus zone names the broken link and the DS to set, and orders nothing', async () => {
    addIssuedCertificate(h.sandbox, 'cert-bogus', [`www.${lab.zones.badDs}`, lab.zones.badDs]);
    const before = registrarWrites().length;
    const shown = messageText(await press(REISSUE_IDS.renewButton, 'cert-bogus'));
    expect(shown).toContain('Nothing was sent to the registrar');
    expect(shown).toContain(`the DS for ${lab.zones.badDs} in de. matches no DNSKEY of ${lab.zones.badDs}`);
    expect(shown).toMatch(new RegExp(`${lab.zones.badDs.replace('.', '\\.')}\\. DS \\d+ 13 2 [0-9A-F]{64}`));
    expect(shown).not.toContain(ORDER_IDS.modal);
    expect(registrarWrites()).toHaveLength(before);
    const [audited] = await refusals('cert-bogus');
    expect(audited).toMatchObject({ actor: 'U0001', operation: 'tls.order' });
    expect(audited?.outcome).toContain('matches no DNSKEY');

    // Reissue and Complete of the same names are refused the same way.
    expect(messageText(await press(REISSUE_IDS.reissueButton, 'cert-bogus'))).toContain('matches no DNSKEY');
    h.sandbox.state.certificates.set('cert-bogus-staged', {
      ...(h.sandbox.state.certificates.get('cert-bogus') ?? ({} as never)),
      id: 'cert-bogus-staged',
      status: 'pending',
      product: 'SecureSite',
      action_required: true,
    });
    const complete = messageText(await press(COMPLETE_IDS.button, 'cert-bogus-staged'));
    expect(complete).toContain('matches no DNSKEY');
    expect(complete).not.toContain(COMPLETE_IDS.modal);
    expect(registrarWrites()).toHaveLength(before);
    expect((await refusals('cert-bogus-staged'))[0]).toMatchObject({ operation: 'tls.complete' });
  });

  it('Reissue of a certificate whose CAA forbids the CA gives the record to add; a healthy one opens the form', async () => {
    addIssuedCertificate(h.sandbox, 'cert-caa', [`www.${lab.zones.caa}`]);
    const shown = messageText(await press(REISSUE_IDS.reissueButton, 'cert-caa'));
    expect(shown).toContain('letsencrypt.org');
    expect(shown).toMatch(/caa\.de\. CAA 0 issue \\+"digicert\.com\\+"/);
    expect(shown).not.toContain(REISSUE_IDS.modal);
    expect((await refusals('cert-caa'))[0]).toMatchObject({ operation: 'tls.reissue' });

    addIssuedCertificate(h.sandbox, 'cert-healthy', [`www.${lab.zones.healthy}`]);
    expect(messageText(await press(REISSUE_IDS.renewButton, 'cert-healthy'))).toContain(ORDER_IDS.modal);
  });

  it('the reissue form judges CAA by the way chosen in it: e-mail against validationmethods=dns-01', async () => {
    const zone = lab.zones.healthy;
    const name = `dnsonly.${zone}`;
    await lab.setRecord(zone, 'dnsonly', 'CAA', '0 issue "digicert.com; validationmethods=dns-01"');
    try {
      addIssuedCertificate(h.sandbox, 'cert-dnsonly', [name]);
      // DNS validation is still open to it: the button opens the form.
      const form = await press(REISSUE_IDS.reissueButton, 'cert-dnsonly');
      expect(messageText(form)).toContain(REISSUE_IDS.modal);
      const view = form.args.view as { private_metadata: string };
      const submit = (method: string) =>
        h.driver.interaction(
          viewSubmission(
            REISSUE_IDS.modal,
            {
              [REISSUE_IDS.csr]: {
                [inputActionId(REISSUE_IDS.csr)]: { type: 'plain_text_input', value: csrFor(name, [name]) },
              },
              [REISSUE_IDS.dcv]: {
                [inputActionId(REISSUE_IDS.dcv)]: {
                  type: 'radio_buttons',
                  selected_option: { value: method },
                },
              },
            },
            { user: 'U0001', privateMetadata: view.private_metadata, viewId: 'VREISSUEMAIL' },
          ),
        );
      const reissues = () => h.sandbox.calls.filter((call) => call.operation === 'tls.reissue').length;
      const before = reissues();
      const refused = await submit('email');
      expect(refused.json()).toMatchObject({
        response_action: 'errors',
        errors: {
          [REISSUE_IDS.dcv]: expect.stringContaining(
            `not by e-mail: set "${name}. CAA 0 issue "digicert.com"" or choose validation through DNS`,
          ),
        },
      });
      expect(reissues()).toBe(before);
      // Validated through DNS, the same record allows it: the reissue goes to the registrar.
      const allowed = await submit('dns-cname-token');
      expect(allowed.text).not.toContain('errors');
      await h.slack.waitFor(() => reissues() === before + 1, 20_000);
    } finally {
      await lab.removeRecord(zone, 'dnsonly', 'CAA');
    }
  });

  it('the order form stops a name in a bogus zone, and orders when submitted again', async () => {
    const orders = () => h.sandbox.calls.filter((call) => call.operation === 'tls.order').length;
    const before = orders();
    const submit = () =>
      h.driver.interaction(
        viewSubmission(ORDER_IDS.modal, orderModalValues(`shop.${lab.zones.badDs}`), {
          privateMetadata: '{"channel":"C0001"}',
          viewId: 'VBOGUSORDER',
        }),
      );
    const refused = await submit();
    expect(refused.json()).toMatchObject({
      response_action: 'errors',
      errors: { [ORDER_IDS.cn]: expect.stringContaining('matches no DNSKEY') },
    });
    expect(orders()).toBe(before);
    const again = await submit();
    expect(again.text).not.toContain('errors');
    await h.slack.waitFor(() => orders() === before + 1, 20_000);
  });

  it('an approved order is checked again when it runs: over a broken chain it fails, and nothing is ordered', async () => {
    const orders = () => h.sandbox.calls.filter((call) => call.operation === 'tls.order').length;
    await h.running.services.policies.set(WS, { ...DEFAULT_POLICY, ordersNeedApproval: true });
    for (const admin of ['UADMIN', 'UADMIN2']) h.slack.users.set(admin, { id: admin, is_admin: true });
    try {
      const before = orders();
      const cn = `late.${lab.zones.badDs}`;
      const submit = () =>
        h.driver.interaction(
          viewSubmission(ORDER_IDS.modal, orderModalValues(cn), {
            user: 'U0001',
            privateMetadata: '{"channel":"CPREFLIGHTAPPROVE"}',
            viewId: 'VAPPROVEBOGUS',
          }),
        );
      // Refused on the field first; submitted again, it becomes a request instead of an order.
      expect((await submit()).json()).toMatchObject({ response_action: 'errors' });
      await submit();
      const isRequest = (call: SlackCall) =>
        call.method === 'chat.postMessage' &&
        call.args.channel === 'CPREFLIGHTAPPROVE' &&
        messageText(call).includes(APPROVAL_IDS.approve);
      await h.slack.waitFor((calls) => calls.some(isRequest), 20_000);
      const posted = h.slack.calls.find(isRequest);
      const id = /"value":"(apr_[0-9a-f]{16})"/.exec(JSON.stringify(posted?.args.blocks))?.[1] ?? '';
      await Promise.all(
        ['UADMIN', 'UADMIN2'].map((user) =>
          h.driver.interaction(buttonPress(APPROVAL_IDS.approve, id, { user, channel: 'CPREFLIGHTAPPROVE' })),
        ),
      );
      await expect
        .poll(async () => (await h.running.services.approvalStore.get(WS, id))?.state, { timeout: 30_000 })
        .toBe('failed');
      const stored = await h.running.services.approvalStore.get(WS, id);
      expect(stored?.outcome).toContain(`the DS for ${lab.zones.badDs} in de. matches no DNSKEY`);
      expect(orders()).toBe(before);
    } finally {
      await h.running.services.policies.set(WS, DEFAULT_POLICY);
    }
  });
});
