import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { ask, press, WS } from '../approvals/support.js';
import { commandAnswer } from '../helpers/answers.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { savePolicyYaml } from './support.js';

/** One requester per test: an identical request still waiting would be pointed to, not asked again (R34). */
const REQUESTERS = ['U0REQ1', 'U0REQ2', 'U0REQ3', 'U0REQ4', 'U0REQ5'] as const;
/** A workspace admin: with no approvers listed, admins approve. */
const ADMIN = 'U0ADMIN';

/**
 * A version 2 policy in force, through signed requests, the fake Slack and the sandbox: each class's
 * own count and lifetime, a zone's override, and a freeze that refuses its classes, naming itself and
 * its end. The policy is saved as `regdesk policy set` saves it (test/cli/policy-cli.test.ts runs it).
 */
describe('the rules of a version 2 policy, in force (contract §3 "Policy")', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    for (const user of REQUESTERS) h.slack.users.set(user, { id: user });
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
  });
  afterAll(() => h.stop());

  const save = (yaml: string) => savePolicyYaml(h, yaml);

  it('a class asks its own count and lifetime; the others the top level’s', async () => {
    const REQUESTER = REQUESTERS[0];
    await save(`approvals: 1
expiryHours: 24
actions:
  authcode: { approvals: 3, expiryHours: 2 }
`);
    const authcode = await ask(h, '/domain', 'authcode regdesk-demo.de', {
      user: REQUESTER,
      channel: 'CCLASS1',
    });
    const stored = await h.running.services.approvalStore.get(WS, authcode.id);
    expect(stored?.needed).toBe(3);
    expect((stored?.expiresAt ?? 0) - (stored?.createdAt ?? 0)).toBe(2 * 3_600_000);
    const delegation = await ask(h, '/domain', 'ns regdesk-demo.de set standard', {
      user: REQUESTER,
      channel: 'CCLASS2',
    });
    expect((await h.running.services.approvalStore.get(WS, delegation.id))?.needed).toBe(1);
  });

  it('a zone override wins for its zones only', async () => {
    const REQUESTER = REQUESTERS[1];
    await save(`approvals: 1
zones:
  - match: "regdesk-demo.de"
    actions: { authcode: { approvals: 4 } }
`);
    const demo = await ask(h, '/domain', 'authcode regdesk-demo.de', { user: REQUESTER, channel: 'CZONE1' });
    expect((await h.running.services.approvalStore.get(WS, demo.id))?.needed).toBe(4);
  });

  it('a freeze refuses its classes, naming itself and when it ends; other classes go on', async () => {
    const REQUESTER = REQUESTERS[2];
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    await save(`freezes:
  - name: Cutover week
    from: "${from}"
    to: "${to}"
    actions: [authcode]
`);
    const told = await commandAnswer(h, '/domain', 'authcode regdesk-demo.de', {
      user: REQUESTER,
      channel: 'CFROZEN',
    });
    expect(told).toContain('Cutover week');
    expect(told).toContain(`<!date^${Math.floor(Date.parse(to) / 1000)}^`);
    expect(told).toContain('Nothing was done');
    expect(h.slack.callsTo('chat.postMessage').filter((call) => call.args.channel === 'CFROZEN')).toEqual([]);
    // Not its class: asked as usual.
    await ask(h, '/domain', 'ns regdesk-demo.de set standard', { user: REQUESTER, channel: 'CFROZEN2' });
  });

  /** The admin approves `id`; the request's end, once it has one. */
  async function approvedOutcome(id: string, channel: string): Promise<string> {
    await press(h, APPROVAL_IDS.approve, id, ADMIN, channel);
    await expect
      .poll(async () => (await h.running.services.approvalStore.get(WS, id))?.state, { timeout: 15_000 })
      .toBe('failed');
    return (await h.running.services.approvalStore.get(WS, id))?.outcome ?? '';
  }

  it('at execution, a count raised since the request was made wins: it does not run', async () => {
    await save('approvals: 1\n');
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', {
      user: REQUESTERS[3],
      channel: 'CSTRICT',
    });
    await save('approvals: 1\nactions:\n  authcode: { approvals: 2 }\n');
    const outcome = await approvedOutcome(id, 'CSTRICT');
    expect(outcome).toContain('the policy now asks 2 approvals');
  });

  it('at execution, a freeze begun since the request was made stops it', async () => {
    await save('approvals: 1\n');
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', {
      user: REQUESTERS[4],
      channel: 'CFREEZE2',
    });
    const to = new Date(Date.now() + 3_600_000).toISOString();
    await save(
      `freezes:\n  - name: Audit week\n    from: "${new Date(Date.now() - 60_000).toISOString()}"\n    to: "${to}"\n    actions: [authcode]\n`,
    );
    const outcome = await approvedOutcome(id, 'CFREEZE2');
    expect(outcome).toContain('Audit week');
  });
});
