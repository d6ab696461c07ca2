import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { DEFAULT_POLICY } from '../../src/features/policy/policy.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { ask, press, toldTo, WS, waitForDm } from './support.js';

const ALICE = 'U0001';

describe('who may request and approve, from the cached Slack directory (signed requests, fake Slack)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    h.slack.users.set('UADMIN', { id: 'UADMIN', is_admin: true });
    h.slack.users.set('UMEMBER', { id: 'UMEMBER' });
    // Admins in name, but none may act (docs/requirements.md R33).
    h.slack.users.set('UGUESTADMIN', { id: 'UGUESTADMIN', is_admin: true, is_restricted: true });
    h.slack.users.set('UEXTERNAL', { id: 'UEXTERNAL', is_admin: true, team_id: 'T0OTHER' });
    h.slack.users.set('UGONE', { id: 'UGONE', is_admin: true, deleted: true });
    // Listed as an admin, but users.info cannot describe them, from the start (a one-off failure
    // could be taken by any other lookup of the moment: App Home's, a language's).
    h.slack.users.set('UUNKNOWN', { id: 'UUNKNOWN', is_admin: true });
    h.slack.forgetUser('UUNKNOWN');
    h.slack.users.set('UGUEST', { id: 'UGUEST', is_restricted: true });
  });
  afterAll(async () => {
    await h.stop();
  });

  const usersInfoFor = (user: string) =>
    h.slack.callsTo('users.info').filter((c) => c.args.user === user).length;
  const refusalsTo = (user: string) => toldTo(h, user).filter((t) => t.includes('not an approver')).length;

  it('asks Slack once a minute per user, however often they press', async () => {
    const { id } = await ask(h, '/domain', 'ns example.com set 12', { user: ALICE, channel: 'CROLE1' });
    for (let i = 1; i <= 3; i++) {
      await press(h, APPROVAL_IDS.approve, id, 'UMEMBER', 'CROLE1');
      await h.slack.waitFor(() => refusalsTo('UMEMBER') === i);
    }
    expect(usersInfoFor('UMEMBER')).toBe(1);
    await press(h, APPROVAL_IDS.withdraw, id, ALICE, 'CROLE1');
    await waitForDm(h, ALICE, 'You withdrew');
  });

  it('denies guests, external and deleted users, and anyone Slack cannot describe; an admin still approves', async () => {
    const { id } = await ask(h, '/tls', 'revoke cert-issued-recent superseded', {
      user: ALICE,
      channel: 'CROLE2',
    });
    // Each refusal says why (docs/requirements.md C3 "Who may act"), and is audited.
    const why = {
      UGUESTADMIN: 'Guests cannot approve requests',
      UEXTERNAL: 'People from outside this workspace (Slack Connect) cannot approve requests',
      UGONE: 'Deactivated accounts cannot approve requests',
      UUNKNOWN: 'could not confirm your account with Slack',
    };
    const told = (user: keyof typeof why) => toldTo(h, user).some((text) => text.includes(why[user]));
    for (const user of ['UGUESTADMIN', 'UEXTERNAL', 'UGONE'] as const) {
      await press(h, APPROVAL_IDS.approve, id, user, 'CROLE2');
      await h.slack.waitFor(() => told(user));
    }
    await press(h, APPROVAL_IDS.approve, id, 'UUNKNOWN', 'CROLE2');
    await h.slack.waitFor(() => told('UUNKNOWN'));
    const refused = (await h.running.services.audit.latest(WS, { limit: 50 })).filter(
      (entry) => entry.action === 'refuse' && entry.requestId === id,
    );
    expect(refused.map((entry) => entry.actor).sort()).toEqual([
      'UEXTERNAL',
      'UGONE',
      'UGUESTADMIN',
      'UUNKNOWN',
    ]);
    expect(refused.every((entry) => entry.operation === 'tls.revoke' && entry.outcome !== undefined)).toBe(
      true,
    );
    expect((await h.running.services.approvalStore.get(WS, id))?.state).toBe('pending');

    await press(h, APPROVAL_IDS.approve, id, 'UADMIN', 'CROLE2');
    await waitForDm(h, ALICE, 'is done');
    expect(h.sandbox.state.certificates.get('cert-issued-recent')?.status).toBe('certificate-revoked');
  });

  it('never takes a request from a guest, whatever the policy', async () => {
    expect(await h.running.services.policies.get(WS)).toEqual(DEFAULT_POLICY);
    await h.driver.command('/tls', 'revoke cert-issued-old superseded', {
      user: 'UGUEST',
      channel: 'CROLE3',
      responseUrl: h.slack.responseUrl('guest'),
    });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:guest'));
    expect(JSON.stringify(h.slack.callsTo('response_url:guest')[0]?.args)).toContain(
      'Guests cannot request sensitive actions',
    );
    expect(h.slack.succeeded('chat.postMessage').some((c) => c.args.channel === 'CROLE3')).toBe(false);
  });
});
