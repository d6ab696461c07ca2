import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { POLICY_IDS } from '../../src/features/policy/ids.js';
import { inputActionId } from '../../src/slack/modal.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { buttonPress, viewSubmission } from '../helpers/payloads.js';

describe('App Home and the approval policy', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    h.slack.users.set('UADMIN', { id: 'UADMIN', is_admin: true });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('renders key status, pending approvals with their buttons, and recent activity within limits', async () => {
    for (const id of ['cert-issued-recent', 'cert-pending', 'cert-issued-old']) {
      await h.driver.command('/tls', `revoke ${id} superseded`, { user: 'U0001' });
    }
    // Spread over people: one person may have only 5 requests pending (docs/requirements.md R34).
    for (let i = 0; i < 12; i++)
      await h.driver.command('/domain', 'authcode example.com', { user: `UREQ${i % 4}` });
    await h.slack.waitFor(
      (calls) => calls.filter((c) => c.method === 'chat.postMessage').length >= 4,
      20_000,
    );
    await h.driver.event({ type: 'app_home_opened', user: 'UADMIN', channel: 'D1', tab: 'home' });
    await h.slack.waitFor(() => h.slack.callsTo('views.publish').some((c) => c.args.user_id === 'UADMIN'));
    const publish = h.slack.callsTo('views.publish').find((c) => c.args.user_id === 'UADMIN');
    const view = publish?.args.view;
    assertWithinBlockKitLimits(view, 'home');
    const text = JSON.stringify(view);
    expect(text).toContain('sandbox');
    expect(text).toContain('Pending approvals');
    expect(text).toContain(APPROVAL_IDS.approve);
    expect(text).toContain('Recent activity');
  });

  it('lets admins set the policy (inline errors for bad input) and refuses others', async () => {
    await h.driver.command('/domain', 'policy', { user: 'U0001', responseUrl: h.slack.responseUrl('pol') });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:pol'));
    expect(JSON.stringify(h.slack.callsTo('response_url:pol')[0]?.args)).toContain('Only workspace admins');

    await h.driver.command('/domain', 'policy', { user: 'UADMIN' });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'views.open'));
    assertWithinBlockKitLimits(h.slack.callsTo('views.open')[0]?.args.view, 'modal');

    const P = POLICY_IDS.field;
    const input = (block: string, value: Record<string, unknown>) => ({
      [block]: { [inputActionId(block)]: value },
    });
    const values = (group: string) => ({
      ...input(P.approvers, { type: 'multi_users_select', selected_users: ['UAPPROVER', 'UAPPROVER2'] }),
      ...input(P.approverGroup, { type: 'plain_text_input', value: group }),
      ...input(P.needed, { type: 'number_input', value: '2' }),
      ...input(P.expiry, { type: 'number_input', value: '4' }),
      ...input(P.requesters, { type: 'static_select', selected_option: { value: 'anyone' } }),
    });
    const bad = await h.driver.interaction(
      viewSubmission(POLICY_IDS.modal, values('not-a-group'), { user: 'UADMIN' }),
    );
    expect(bad.json()).toMatchObject({
      response_action: 'errors',
      errors: { [P.approverGroup]: expect.any(String) },
    });

    const good = await h.driver.interaction(
      viewSubmission(POLICY_IDS.modal, values(''), { user: 'UADMIN', viewId: 'VPOL' }),
    );
    expect(good.json()).toMatchObject({ response_action: 'update' });
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'views.update' && JSON.stringify(c.args).includes('saved')),
    );
    const policy = await h.running.services.policies.get({ teamId: 'T0001' });
    expect(policy).toMatchObject({ approvers: ['UAPPROVER', 'UAPPROVER2'], needed: 2, expiryHours: 4 });

    // With approvers configured, a workspace admin who is not one of them can no longer approve.
    // Its own channel: the first test's requests still fill C0001's paced posting queue.
    await h.driver.command('/tls', 'revoke cert-issued-recent keyCompromise', {
      user: 'U0001',
      channel: 'CPOL',
    });
    await h.slack.waitFor(
      (calls) => calls.filter((c) => c.method === 'chat.postMessage').length >= 5,
      10_000,
    );
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) => c.method === 'chat.postMessage' && JSON.stringify(c.args).includes('keyCompromise'),
        ),
      20_000,
    );
    const posted = h.slack
      .callsTo('chat.postMessage')
      .find((c) => JSON.stringify(c.args).includes('keyCompromise'));
    const id = /"value":"(apr_[0-9a-f]+)"/.exec(JSON.stringify(posted?.args.blocks))?.[1] ?? '';
    await h.driver.interaction(buttonPress(APPROVAL_IDS.approve, id, { user: 'UADMIN', channel: 'CPOL' }));
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) => c.method === 'chat.postEphemeral' && String(c.args.text).includes('not an approver'),
        ),
      15_000,
    );
    await h.driver.interaction(buttonPress(APPROVAL_IDS.approve, id, { user: 'UAPPROVER', channel: 'CPOL' }));
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) => c.method === 'chat.update' && JSON.stringify(c.args).includes('Waiting for 1 more'),
        ),
      15_000,
    );
  });

  it('re-publishes Home for the requester and whoever has Home open when a request changes', async () => {
    h.slack.conversation('CHOME', { kind: 'public', botMember: true });
    await h.driver.event({ type: 'app_home_opened', user: 'UWATCHER', channel: 'DW', tab: 'home' });
    await h.slack.waitFor(() => h.slack.callsTo('views.publish').some((c) => c.args.user_id === 'UWATCHER'));
    const publishedFor = (user: string) =>
      h.slack.callsTo('views.publish').filter((c) => c.args.user_id === user).length;
    const [watcher, requester] = [publishedFor('UWATCHER'), publishedFor('U0001')];
    await h.driver.command('/tls', 'revoke cert-issued-recent cessationOfOperation', {
      user: 'U0001',
      channel: 'CHOME',
    });
    await h.slack.waitFor(
      () => publishedFor('UWATCHER') > watcher && publishedFor('U0001') > requester,
      15_000,
    );
  });
});
