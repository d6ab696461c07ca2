import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { POLICY_IDS } from '../../src/features/policy/ids.js';
import { DEFAULT_POLICY } from '../../src/features/policy/policy.js';
import { inputActionId } from '../../src/slack/modal.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { viewSubmission } from '../helpers/payloads.js';
import { WS } from './support.js';

const P = POLICY_IDS.field;
const ADMIN = 'UADMIN';

/** A policy modal as submitted, with only the fields a test names. */
function submitted(fields: {
  approvers?: string[];
  group?: string;
  needed?: number;
  requesters?: string;
  channel?: string;
}) {
  const input = (block: string, value: Record<string, unknown>) => ({
    [block]: { [inputActionId(block)]: value },
  });
  return {
    ...input(P.approvers, { type: 'multi_users_select', selected_users: fields.approvers ?? [] }),
    ...input(P.approverGroup, { type: 'plain_text_input', value: fields.group ?? '' }),
    ...input(P.needed, { type: 'number_input', value: String(fields.needed ?? 1) }),
    ...input(P.requesters, {
      type: 'static_select',
      selected_option: { value: fields.requesters ?? 'anyone' },
    }),
    ...input(P.channel, { type: 'conversations_select', selected_conversation: fields.channel ?? null }),
  };
}

describe('the approval policy modal refuses what could not work (signed submissions, strict fake Slack)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      prepareSlack: (slack) => {
        slack.conversation('CNOBOT', { kind: 'public', botMember: false });
        slack.conversation('GNOBOT', { kind: 'private', botMember: false });
        slack.conversation('COLD', { kind: 'public', botMember: true, archived: true });
      },
    });
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
  });
  afterAll(async () => {
    await h.stop();
  });

  const submit = async (fields: Parameters<typeof submitted>[0]) => {
    const res = await h.driver.interaction(
      viewSubmission(POLICY_IDS.modal, submitted(fields), { user: ADMIN }),
    );
    // The answer, test post included, comes within Slack's 3 seconds.
    expect(res.elapsedMs).toBeLessThan(3_000);
    return res.json() as { response_action: string; errors?: Record<string, string> };
  };

  it('accepts an approvals channel only where a test post works, and removes the test post again', async () => {
    for (const [channel, words] of [
      ['CNOBOT', '/invite @Regdesk'],
      ['GNOBOT', '/invite @Regdesk'],
      ['COLD', 'archived'],
      ['DU0001', 'Choose a channel'],
    ] as const) {
      const answer = await submit({ channel });
      expect(answer).toMatchObject({
        response_action: 'errors',
        errors: { [P.channel]: expect.stringContaining(words) },
      });
    }
    expect(await h.running.services.policies.get(WS)).toEqual(DEFAULT_POLICY);

    expect(await submit({ channel: 'CAPPROVALS' })).toMatchObject({ response_action: 'update' });
    await h.slack.waitFor(() =>
      h.slack.succeeded('chat.delete').some((c) => c.args.channel === 'CAPPROVALS'),
    );
    const probe = h.slack.succeeded('chat.postMessage').find((c) => c.args.channel === 'CAPPROVALS');
    expect(h.slack.succeeded('chat.delete').find((c) => c.args.channel === 'CAPPROVALS')?.args.ts).toBe(
      (probe?.result as { ts?: string } | undefined)?.ts,
    );
    expect([...h.slack.messages.values()].filter((m) => m.channel === 'CAPPROVALS')).toEqual([]);
    await h.slack.waitFor(() =>
      h.slack.callsTo('views.update').some((c) => JSON.stringify(c.args).includes('policy is saved')),
    );
    expect((await h.running.services.policies.get(WS)).approvalsChannel).toBe('CAPPROVALS');
    // The trail says who changed what, before and after (R12).
    const [change] = await h.running.services.audit.latest(WS, { limit: 1 });
    expect(change).toMatchObject({ action: 'policy_change', actor: ADMIN });
    expect(change?.detail).toContain('approvalsChannel: unset → "CAPPROVALS"');
  });

  it('refuses an approval count that the listed approvers can never give', async () => {
    const short = await submit({ approvers: ['UA', 'UB'], needed: 3 });
    expect(short).toMatchObject({
      response_action: 'errors',
      errors: { [P.needed]: expect.stringContaining('at most 2 approvals') },
    });
    // When only approvers may ask, one of them is always the requester and cannot approve.
    const onlyApprovers = await submit({ approvers: ['UA', 'UB'], needed: 2, requesters: 'approvers' });
    expect(onlyApprovers.errors?.[P.needed]).toContain('at most 1 approval');

    // A user group may grow, so with one the count is accepted; so is a count the list can give.
    expect(await submit({ approvers: ['UA', 'UB'], needed: 3, group: 'S0APPROVE' })).toMatchObject({
      response_action: 'update',
    });
    expect(await submit({ approvers: ['UA', 'UB'], needed: 2 })).toMatchObject({ response_action: 'update' });
    const saved = (c: { method: string; args: unknown }) =>
      c.method === 'views.update' && JSON.stringify(c.args).includes('policy is saved');
    await h.slack.waitFor((calls) => calls.filter(saved).length === 3);
    expect(await h.running.services.policies.get(WS)).toMatchObject({ approvers: ['UA', 'UB'], needed: 2 });
  });

  it('saves who may order, orders needing approval and where the assistant answers; a bad host stays inline', async () => {
    const input = (block: string, value: Record<string, unknown>) => ({
      [block]: { [inputActionId(block)]: value },
    });
    const values = (hosts: string) => ({
      ...submitted({}),
      ...input(P.orderers, { type: 'static_select', selected_option: { value: 'approvers' } }),
      ...input(P.ordersNeedApproval, { type: 'checkboxes', selected_options: [{ value: 'on' }] }),
      ...input(P.assistantAnswers, { type: 'static_select', selected_option: { value: 'channel' } }),
      ...input(P.assistantLinkHosts, { type: 'plain_text_input', value: hosts }),
    });
    const bad = await h.driver.interaction(
      viewSubmission(POLICY_IDS.modal, values('docs.example.com/path'), { user: ADMIN }),
    );
    expect(bad.json()).toMatchObject({
      response_action: 'errors',
      errors: { [P.assistantLinkHosts]: expect.stringContaining('without https:// or a path') },
    });
    const good = await h.driver.interaction(
      viewSubmission(POLICY_IDS.modal, values('docs.example.com'), { user: ADMIN, viewId: 'VORD' }),
    );
    expect(good.json()).toMatchObject({ response_action: 'update' });
    await expect
      .poll(() => h.running.services.policies.get(WS))
      .toMatchObject({
        orderers: 'approvers',
        ordersNeedApproval: true,
        assistantAnswers: 'channel',
        assistantLinkHosts: ['docs.example.com'],
      });
  });

  it('saves whether DNS record changes need approval and who and what is exempt; the trail says so (R47)', async () => {
    const input = (block: string, value: Record<string, unknown>) => ({
      [block]: { [inputActionId(block)]: value },
    });
    const values = (exemptTypes: string[]) => ({
      ...submitted({}),
      // Unchecked: Slack sends the box with an empty list.
      ...input(P.recordChangesNeedApproval, { type: 'checkboxes', selected_options: [] }),
      ...input(P.recordChangeExemptTypes, {
        type: 'multi_static_select',
        selected_options: exemptTypes.map((value) => ({ value })),
      }),
      ...input(P.recordChangeExemptUsers, { type: 'multi_users_select', selected_users: ['UDNS'] }),
    });
    const bad = await h.driver.interaction(
      viewSubmission(POLICY_IDS.modal, values(['TXT', 'PTR']), { user: ADMIN, viewId: 'VREC1' }),
    );
    expect(bad.json()).toMatchObject({
      response_action: 'errors',
      errors: { [P.recordChangeExemptTypes]: expect.any(String) },
    });
    const good = await h.driver.interaction(
      viewSubmission(POLICY_IDS.modal, values(['TXT', 'CAA']), { user: ADMIN, viewId: 'VREC2' }),
    );
    expect(good.json()).toMatchObject({ response_action: 'update' });
    await expect
      .poll(() => h.running.services.policies.get(WS))
      .toMatchObject({
        recordChangesNeedApproval: false,
        recordChangeExemptTypes: ['TXT', 'CAA'],
        recordChangeExemptUsers: ['UDNS'],
      });
    // The trail is written right after the policy: wait for it rather than race it.
    const lastChange = async () => (await h.running.services.audit.latest(WS, { limit: 1 }))[0]?.detail ?? '';
    // A modal opened before the rows existed unchecks the switch: the row of record changes says none.
    await expect.poll(lastChange).toContain('record: approvals default (1) → 0');
    expect(await lastChange()).toContain('recordChangeExemptTypes: [] → ["TXT","CAA"]');
    expect(await lastChange()).toContain('recordChangeExemptUsers: [] → ["UDNS"]');
  });
});
