import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_IDS, ORG_IDS } from '../../src/features/tls/ids.js';
import type { OrganizationField } from '../../src/registrar/index.js';
import { inputActionId } from '../../src/slack/modal.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText, viewSubmission } from '../helpers/payloads.js';
import { orderForm } from './world.js';

const submitOrder = (h: Harness, cn: string, channel: string, user = 'U0001') =>
  h.driver.interaction(
    viewSubmission(ORDER_IDS.modal, orderForm(cn), { user, privateMetadata: JSON.stringify({ channel }) }),
  );
const saidNothingChanged = (calls: SlackCall[]) =>
  calls.some((c) => /nothing was changed/i.test(messageText(c)));

describe('TLS changes reach the person wherever Slack refuses to post (docs/requirements.md R30)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      sandbox: { delays: { certificateIssueMs: 3_000 } },
      // A DM between two people and a private channel, neither with the bot in it.
      prepareSlack: (slack) =>
        slack
          .conversation('D0PAIR', { kind: 'im', botMember: false, members: ['U0001', 'U0002'] })
          .conversation('G0PRIV', { kind: 'private', botMember: false, members: ['U0001'] }),
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('an order from a DM without the bot: its card and validation records by DM, then followed there', async () => {
    await submitOrder(h, 'dm.example.com', 'D0PAIR');
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === 'DU0001' &&
          messageText(c).includes('dm.example.com (pending)') &&
          messageText(c).includes('Publish these DNS records'),
      ),
    );
    const card = messageText(
      h.slack.succeeded('chat.postMessage').find((c) => messageText(c).includes('dm.example.com')) ?? {
        method: '',
        args: {},
        at: 0,
      },
    );
    expect(card).toContain('/invite');
    expect(card).toContain('tells you in your DM');
    expect(h.slack.callsTo('chat.postMessage').some((c) => c.args.channel === 'D0PAIR')).toBe(true);
    // Followed with no public thread: the outcome comes to the person's DM with the bot, naming them.
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.args.channel === 'U0001' &&
            messageText(c).includes('<@U0001>') &&
            messageText(c).includes('is issued') &&
            /Settled <!date\^/.test(messageText(c)),
        ),
      20_000,
    );
    expect(saidNothingChanged(h.slack.calls)).toBe(false);
  }, 30_000);

  it('two simultaneous submissions of one order: one registrar order, the other person told it is under way', async () => {
    const before = h.sandbox.calls.filter((c) => c.operation === 'tls.order').length;
    h.sandbox.faults.inject('tls.order', { delayMs: 400, times: 1 });
    await Promise.all([
      submitOrder(h, 'twice.example.com', 'C0001', 'U0001'),
      submitOrder(h, 'twice.example.com', 'C0001', 'U0002'),
    ]);
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) => c.method === 'chat.postMessage' && messageText(c).includes('twice.example.com (pending)'),
      ),
    );
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) => c.method === 'chat.postEphemeral' && messageText(c).includes('being placed right now'),
      ),
    );
    expect(h.sandbox.calls.filter((c) => c.operation === 'tls.order')).toHaveLength(before + 1);
  });

  it('/tls org new from a private channel without the bot: the new organization’s id, by DM', async () => {
    const fields: Record<OrganizationField, string> = {
      organization: 'Delta AG',
      first_name: 'Dora',
      last_name: 'Delta',
      address: 'Weg 4',
      postal_code: '3011',
      city: 'Bern',
      country_code: 'CH',
      phone: '+41 31 1234567',
      email: 'pki@delta.example',
    };
    const values = Object.fromEntries(
      (Object.entries(fields) as [OrganizationField, string][]).map(([field, value]) => [
        ORG_IDS.fields[field],
        { [inputActionId(ORG_IDS.fields[field])]: { type: 'plain_text_input', value } },
      ]),
    );
    await h.driver.interaction(
      viewSubmission(ORG_IDS.modal, values, { privateMetadata: JSON.stringify({ channel: 'G0PRIV' }) }),
    );
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === 'DU0001' &&
          messageText(c).includes('Delta AG'),
      ),
    );
    const id = [...h.sandbox.state.organizations.values()].find((o) => o.organization === 'Delta AG')?.id;
    expect(id).toBeDefined();
    const told = h.slack.succeeded('chat.postMessage').find((c) => messageText(c).includes('Delta AG'));
    expect(String(told?.args.text)).toContain(`Created TLS organization *Delta AG* with ID \`${id}\``);
  });

  it('a loading view the user closed before the registrar answered is left alone, with no error told', async () => {
    h.sandbox.faults.inject('org.get', { delayMs: 800, times: 1 });
    const opened = h.slack.callsTo('views.open').length;
    await h.driver.command('/tls', 'org edit org-acme', { responseUrl: h.slack.responseUrl('closed') });
    await h.slack.waitFor((calls) => calls.filter((c) => c.method === 'views.open').length > opened);
    const result = h.slack.callsTo('views.open').at(-1)?.result as { view?: { id?: string } } | undefined;
    const view = result?.view;
    h.slack.closeView(view?.id ?? '');
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'views.update' && c.args.view_id === view?.id),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.slack.callsTo('views.update').find((c) => c.args.view_id === view?.id)?.result).toMatchObject({
      ok: false,
      error: 'not_found',
    });
    expect(h.slack.callsTo('response_url:closed')).toHaveLength(0);
    expect(h.slack.calls.some((c) => messageText(c).includes('Something went wrong'))).toBe(false);
  });
});
