import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { createRedis } from '../../src/shared/redis.js';
import { inputActionId } from '../../src/slack/modal.js';
import { BOT_TOKEN, type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { buttonPress, messageText, viewSubmission } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { allRedisText } from '../helpers/redis-dump.js';
import { ask } from './support.js';

const REQUESTER = 'U0001';
const ADMINS = ['UADM1', 'UADM2', 'UADM3', 'UADM4', 'UADM5'];
const DAY = 86_400_000;

describe('team approval of sensitive actions (signed requests, fake Slack, sandbox registrar)', () => {
  let h: Harness;
  let offset = 0;
  const redis = createRedis(testRedisUrl(), 'worker');

  beforeAll(async () => {
    h = await startHarness({ now: () => Date.now() + offset });
    for (const id of ADMINS) h.slack.users.set(id, { id, is_admin: true });
    h.slack.users.set('U0002', { id: 'U0002' });
  });
  afterAll(async () => {
    if (process.env.DUMP_LOGS) console.log(h.logs.filter((l) => !l.includes('"level":"debug"')).join(''));
    await h.stop();
    redis.disconnect();
  });

  /**
   * Ask for a sensitive action; returns the request id from the posted approval message. Each test
   * asks in a channel of its own: posts and updates are paced per channel (R7).
   */
  async function request(command: string, text: string, channel = 'C0001'): Promise<string> {
    // By the request's own message in its channel: approvers' DM copies are posted around it.
    const { id } = await ask(h, command, text, { user: REQUESTER, channel });
    const posted = h.slack
      .succeeded('chat.postMessage')
      .find((c) => c.args.channel === channel && messageText(c).includes(id));
    assertWithinBlockKitLimits({ text: posted?.args.text, blocks: posted?.args.blocks }, 'message');
    return id;
  }

  const press = (action: string, id: string, user: string) =>
    h.driver.interaction(buttonPress(action, id, { user }));

  it('posts a public request naming the certificate, its state and the expiry, with Approve (confirm) and Deny', async () => {
    const id = await request('/tls', 'revoke cert-issued-recent keyCompromise');
    // The request's own message (approvers' DM copies are posted right after it).
    const posted = h.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.args.channel === 'C0001' && messageText(c).includes(id))
      .at(-1);
    const text = posted === undefined ? '' : messageText(posted);
    expect(posted?.args.channel).toBe('C0001');
    expect(text).toContain('cert-issued-recent');
    expect(text).toContain('www.example.com');
    expect(text).toContain('expires');
    expect(text).toContain('"confirm"');
    expect(text).toContain(APPROVAL_IDS.deny);
    // The requester hears where the request is (through the command's response_url).
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method.startsWith('response_url:') && JSON.stringify(c.args).includes(id)),
    );
  });

  it('executes exactly once under 5 concurrent approvals; refuses self-approval and non-approvers', async () => {
    const id = await request('/tls', 'revoke cert-issued-old superseded', 'CFLOW2');
    await press(APPROVAL_IDS.approve, id, REQUESTER);
    await press(APPROVAL_IDS.approve, id, 'U0002');
    await h.slack.waitFor((calls) => calls.filter((c) => c.method === 'chat.postEphemeral').length >= 2);
    const refusals = h.slack.callsTo('chat.postEphemeral').map((c) => String(c.args.text));
    expect(refusals.some((t) => t.includes('cannot approve your own request'))).toBe(true);
    expect(refusals.some((t) => t.includes('not an approver'))).toBe(true);

    const revokesBefore = h.sandbox.calls.filter((c) => c.operation === 'tls.revoke').length;
    const responses = await Promise.all(ADMINS.map((admin) => press(APPROVAL_IDS.approve, id, admin)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    await h.slack.waitFor(
      (calls) =>
        calls.some((c) => c.method === 'chat.update' && messageText(c).includes(':white_check_mark: Done')),
      10_000,
    );
    // Let any duplicate execution surface before counting.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.sandbox.calls.filter((c) => c.operation === 'tls.revoke').length - revokesBefore).toBe(1);
    expect(h.sandbox.state.certificates.get('cert-issued-old')?.status).toBe('certificate-revoked');
    const final = h.slack.callsTo('chat.update').at(-1);
    expect(final === undefined ? '' : messageText(final)).not.toContain(APPROVAL_IDS.approve);
  });

  it('seals the auth code for the requester: a DM with Reveal, a modal only they open, nowhere else', async () => {
    const id = await request('/domain', 'authcode regdesk-demo.de', 'CFLOW3');
    await press(APPROVAL_IDS.approve, id, 'UADM1');
    const dm = `D${REQUESTER}`;
    const isReady = (c: SlackCall) =>
      c.method === 'chat.postMessage' &&
      c.args.channel === dm &&
      messageText(c).includes('Your transfer auth code for regdesk-demo.de is ready');
    await h.slack.waitFor((calls) => calls.some(isReady), 10_000);
    const ready = h.slack.calls.find(isReady);
    expect(messageText(ready ?? { method: '', args: {}, at: 0 })).toContain(
      `"action_id":"${APPROVAL_IDS.reveal}","value":"${id}"`,
    );

    // Anyone else pressing Reveal is refused, and no modal opens.
    const modalsBefore = h.slack.callsTo('views.open').length;
    await h.driver.interaction(buttonPress(APPROVAL_IDS.reveal, id, { user: 'UADM1', channel: 'DUADM1' }));
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) => c.method === 'chat.postEphemeral' && String(c.args.text).includes('Only the person who asked'),
      ),
    );
    expect(h.slack.callsTo('views.open')).toHaveLength(modalsBefore);

    // The requester reveals it, and again: revealing does not use it up within the 24 h.
    const reveal = async () => {
      const before = h.slack.succeeded('views.open').length;
      await h.driver.interaction(buttonPress(APPROVAL_IDS.reveal, id, { user: REQUESTER, channel: dm }));
      await h.slack.waitFor(() => h.slack.succeeded('views.open').length > before);
      const view = h.slack.succeeded('views.open').at(-1)?.args.view;
      assertWithinBlockKitLimits(view, 'modal');
      return /"rich_text_preformatted","elements":\[\{"type":"text","text":"([^"]+)"/.exec(
        JSON.stringify(view),
      )?.[1];
    };
    const code = (await reveal()) ?? '';
    expect(code.length).toBeGreaterThan(5);
    expect(await reveal()).toBe(code);

    // Never in a message, log, job or result: only the two modals hold it; Redis (jobs included) only sealed.
    const modals = new Set(h.slack.succeeded('views.open').slice(-2));
    const elsewhere = h.slack.calls
      .filter((c) => !modals.has(c))
      .map((c) => JSON.stringify([c.args, c.result]));
    expect(elsewhere.join('\n')).not.toContain(code);
    expect(h.logs.join('\n')).not.toContain(code);
    expect(await allRedisText(redis, h.keyPrefix)).not.toContain(code);

    // Kept 24 h by Redis itself; once gone, Reveal says so.
    const sealed = `${h.keyPrefix}:{ws:-:T0001}:vault:auth-code:${id}`;
    expect(await redis.ttl(sealed)).toBeGreaterThan(DAY / 1000 - 60);
    expect(await redis.ttl(sealed)).toBeLessThanOrEqual(DAY / 1000);
    await redis.pexpire(sealed, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const opened = h.slack.callsTo('views.open').length;
    await h.driver.interaction(buttonPress(APPROVAL_IDS.reveal, id, { user: REQUESTER, channel: dm }));
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'chat.postEphemeral' && String(c.args.text).includes('has expired')),
    );
    expect(h.slack.callsTo('views.open')).toHaveLength(opened);
  });

  it('refuses an auth code request before approval when the quota is spent', async () => {
    const before = h.slack.callsTo('chat.postMessage').length;
    // Three per domain a day: one was issued above; spend the rest.
    for (let i = 0; i < 2; i++) {
      const id = await request('/domain', 'authcode regdesk-demo.de', 'CFLOW4');
      await press(APPROVAL_IDS.approve, id, 'UADM2');
      await h.slack.waitFor(
        (calls) =>
          calls.some(
            (c) =>
              c.method === 'chat.update' && messageText(c).includes(id) && messageText(c).includes('Done'),
          ),
        10_000,
      );
    }
    const posted = h.slack.callsTo('chat.postMessage').length;
    await h.driver.command('/domain', 'authcode regdesk-demo.de', {
      user: REQUESTER,
      channel: 'CFLOWQ',
      responseUrl: h.slack.responseUrl('quota'),
    });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:quota'));
    expect(JSON.stringify(h.slack.callsTo('response_url:quota')[0]?.args)).toContain('limit');
    // No approval request was posted for it, in its channel or to approvers (the earlier requests'
    // copies and outcome DMs may still be arriving: they name their own channels).
    const requests = h.slack
      .callsTo('chat.postMessage')
      .slice(posted)
      .filter((call) => JSON.stringify(call.args).includes('CFLOWQ'));
    expect(requests).toEqual([]);
    expect(posted).toBeGreaterThan(before);
  });

  it('deny asks for a reason and updates the message; the requester can withdraw; others cannot', async () => {
    const denied = await request('/domain', 'ns example.com set 12', 'CFLOW5');
    await press(APPROVAL_IDS.deny, denied, 'UADM1');
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'views.open' && messageText(c).includes(APPROVAL_IDS.denyModal)),
    );
    // Slack hands the modal's private_metadata back untouched on submission.
    const opened = h.slack.callsTo('views.open').at(-1)?.args.view as
      | { private_metadata?: string }
      | undefined;
    const privateMetadata = opened?.private_metadata ?? '';
    const reasonMissing = await h.driver.interaction(
      viewSubmission(
        APPROVAL_IDS.denyModal,
        {
          [APPROVAL_IDS.denyReasonBlock]: {
            [inputActionId(APPROVAL_IDS.denyReasonBlock)]: { type: 'plain_text_input', value: ' ' },
          },
        },
        { user: 'UADM1', privateMetadata },
      ),
    );
    expect(reasonMissing.json()).toMatchObject({ response_action: 'errors' });
    await h.driver.interaction(
      viewSubmission(
        APPROVAL_IDS.denyModal,
        {
          [APPROVAL_IDS.denyReasonBlock]: {
            [inputActionId(APPROVAL_IDS.denyReasonBlock)]: {
              type: 'plain_text_input',
              value: 'not during the freeze',
            },
          },
        },
        { user: 'UADM1', privateMetadata },
      ),
    );
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'chat.update' && messageText(c).includes('not during the freeze')),
    );

    // Until a change has run, the vanity sets are unknown; the denied change does not reveal them.
    const before = await h.driver.command('/domain', 'ns example.com', {
      responseUrl: h.slack.responseUrl('ns1'),
    });
    expect(before.status).toBe(200);
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:ns1'));
    expect(JSON.stringify(h.slack.callsTo('response_url:ns1')[0]?.args)).toContain('Not known yet');

    const withdrawn = await request('/dns', 'dnssec regdesk-demo.de disable', 'CFLOW6');
    await press(APPROVAL_IDS.withdraw, withdrawn, 'UADM1');
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) => c.method === 'chat.postEphemeral' && String(c.args.text).includes('Only the person who asked'),
      ),
    );
    await press(APPROVAL_IDS.withdraw, withdrawn, REQUESTER);
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'chat.update' && messageText(c).includes('Withdrawn')),
    );
    expect(h.sandbox.state.domains.get('regdesk-demo.de')?.dnssec.desired).toBe('enabled');
  });

  it('changes delegation after approval, and then lists the vanity sets the registrar returned', async () => {
    const id = await request('/domain', 'ns example.com set 12', 'CFLOW7');
    await press(APPROVAL_IDS.approve, id, 'UADM4');
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) => c.method === 'chat.update' && messageText(c).includes(id) && messageText(c).includes('Done'),
        ),
      10_000,
    );
    expect(h.sandbox.state.domains.get('example.com')?.vanitySetId).toBe(12);
    await h.driver.command('/domain', 'ns example.com', { responseUrl: h.slack.responseUrl('ns2') });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:ns2'));
    const view = JSON.stringify(h.slack.callsTo('response_url:ns2')[0]?.args);
    expect(view).toContain('dns.acme-hosting.net');
    expect(view).toContain('a.dns.acme-hosting.net');
  });

  it('an expired request cannot be approved', async () => {
    const id = await request('/tls', 'cancel cert-pending unspecified', 'CFLOW8');
    offset = 2 * DAY;
    try {
      await press(APPROVAL_IDS.approve, id, 'UADM3');
      await h.slack.waitFor((calls) =>
        calls.some((c) => c.method === 'chat.update' && messageText(c).includes('Expired')),
      );
    } finally {
      offset = 0;
    }
    expect(h.sandbox.calls.some((c) => c.operation === 'tls.orderCancel')).toBe(false);
  });

  it('records every step in the audit trail, without secrets', async () => {
    const res = await h.driver.command('/domain', 'audit', { user: REQUESTER });
    const body = JSON.stringify(res.json());
    for (const word of ['requested', 'approved', 'succeeded', 'denied', 'withdrew', 'expired'])
      expect(body).toContain(word);
    const forDomain = JSON.stringify((await h.driver.command('/domain', 'audit example.com')).json());
    expect(forDomain).toContain('domain.ns');
    expect(forDomain).not.toContain('tls.revoke');
    // docs/requirements.md R27: the whole run's logs hold no token.
    expect(h.logs.join('\n')).not.toContain(BOT_TOKEN);
    expect(h.logs.join('\n')).not.toContain(h.sandbox.apiKey);
  });
});
