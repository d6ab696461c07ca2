import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOf, PolicyDocument, policyOf } from '../../src/features/policy/document.js';
import { POLICY_IDS } from '../../src/features/policy/ids.js';
import { rulesFor } from '../../src/features/policy/rules.js';
import { inputActionId, type StateValue } from '../../src/slack/modal.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { viewSubmission } from '../helpers/payloads.js';
import { submittedAsShown } from './support.js';

const WS = { teamId: 'T0001' };
const ADMIN = 'UADMIN'; // a workspace admin: opens and saves the policy
const A = POLICY_IDS.action;

/** What `regdesk policy set` saved before: class rules the modal shows, and what it does not show. */
const SET_BY_YAML = PolicyDocument.parse({
  approvals: 1,
  actions: {
    revoke: { approvals: 2, expiryHours: 4 },
    dnssec: { approvals: 3, reason: 'required' },
    order: { approvals: 0, who: 'approvers' },
  },
  zones: [{ match: '*.prod.example', actions: { record: { approvals: 2 } } }],
  freezes: [
    {
      name: 'Weekends',
      weekly: { days: ['sat', 'sun'], from: '00:00', to: '24:00', timeZone: 'Europe/Berlin' },
      actions: ['delegation'],
    },
  ],
  escalateTo: ['U0ESCALATE'],
  mcp: 'write',
});

const select = (value: string): StateValue => ({ selected_option: { value } });
const box = (checked: boolean): StateValue => ({ selected_options: checked ? [{ value: 'required' }] : [] });

describe('/domain policy edits the rules of each action class (signed requests, strict fake Slack)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
    await h.running.services.policies.set(WS, policyOf(SET_BY_YAML));
  });
  afterAll(() => h.stop());

  /** The admin runs `/domain policy`; the modal Regdesk opened. */
  async function openPolicy(): Promise<{ block_id?: string; type: string; element?: object }[]> {
    const opened = () => h.slack.succeeded('views.open').length;
    const before = opened();
    await h.driver.command('/domain', 'policy', { user: ADMIN, channel: 'CADMIN' });
    await h.slack.waitFor(() => opened() > before);
    const view = h.slack.succeeded('views.open').at(-1)?.args.view as
      | { blocks: { block_id?: string; type: string; element?: object }[] }
      | undefined;
    return view?.blocks ?? [];
  }

  it("opens with each class's rules in force, saves each row, and keeps what it does not show", async () => {
    const blocks = await openPolicy();
    const element = (block: string) => blocks.find((b) => b.block_id === block)?.element;
    expect(element(A.revoke.approvals)).toMatchObject({ initial_option: { value: '2' } });
    expect(element(A.dnssec.approvals)).toMatchObject({ initial_option: { value: '3' } });
    expect(element(A.dnssec.reason)).toMatchObject({ initial_options: [{ value: 'required' }] });
    expect(element(A.record.approvals)).toMatchObject({ initial_option: { value: 'default' } });
    expect(element(A.order.approvals)).toMatchObject({ initial_option: { value: '0' } });
    expect(element(A.revoke.reason)).not.toHaveProperty('initial_options');

    // The admin changes some rows and submits the rest as shown.
    const values = submittedAsShown(blocks, {
      [A.record.approvals]: select('2'),
      [A.record.reason]: box(true),
      [A.revoke.approvals]: select('3'),
      [A.authcode.reason]: box(true),
      [A.delegation.approvals]: select('0'),
      [A.dnssec.approvals]: select('default'),
      [A.dnssec.reason]: box(false),
      [A.order.approvals]: select('1'),
    });
    const res = await h.driver.interaction(viewSubmission(POLICY_IDS.modal, values, { user: ADMIN }));
    expect(res.json()).toMatchObject({ response_action: 'update' });
    await h.slack.waitFor(() =>
      h.slack.callsTo('views.update').some((c) => JSON.stringify(c.args).includes('policy is saved')),
    );

    const document = documentOf(await h.running.services.policies.get(WS));
    expect(rulesFor(document, 'record')).toMatchObject({ approvals: 2, reason: 'required' });
    // What `regdesk policy set` gave the class besides its approvals survives the save.
    expect(rulesFor(document, 'revoke')).toMatchObject({ approvals: 3, reason: 'optional', expiryHours: 4 });
    expect(rulesFor(document, 'authcode')).toMatchObject({ approvals: 1, reason: 'required' });
    expect(rulesFor(document, 'delegation').approvals).toBe(0);
    expect(rulesFor(document, 'dnssec')).toMatchObject({ approvals: 1, reason: 'optional' });
    expect(rulesFor(document, 'order').approvals).toBe(1);
    expect(document.actions.order?.who).toBe('approvers');
    // Publishing follows the default, as the YAML left it out: unchanged, so not in the trail below.
    expect(rulesFor(document, 'publish').approvals).toBe(1);
    expect(document.zones).toEqual(SET_BY_YAML.zones);
    expect(document.freezes).toEqual(SET_BY_YAML.freezes);
    expect(document.escalateTo).toEqual(['U0ESCALATE']);
    expect(document.mcp).toBe('write');

    // The trail names each class that changed, before and after.
    const [change] = await h.running.services.audit.latest(WS, { limit: 1 });
    expect(change).toMatchObject({ action: 'policy_change', actor: ADMIN });
    for (const line of [
      'record: approvals default (1) → 2, reason required',
      'revoke: approvals 2 → 3',
      'authcode: reason required',
      'delegation: approvals default (1) → 0',
      'dnssec: approvals 3 → default (1), reason optional',
      'order: approvals 0 → 1',
    ])
      expect(change?.detail).toContain(line);
    expect(change?.detail).not.toContain('publish:');

    // Opened again, the modal shows what was saved.
    const again = await openPolicy();
    const shown = (block: string) => again.find((b) => b.block_id === block)?.element;
    expect(shown(A.record.approvals)).toMatchObject({ initial_option: { value: '2' } });
    expect(shown(A.record.reason)).toMatchObject({ initial_options: [{ value: 'required' }] });
    expect(shown(A.delegation.approvals)).toMatchObject({ initial_option: { value: '0' } });
  });

  it('a modal opened before the rows existed leaves each class as it was, its switches as they were shown', async () => {
    const before = await h.running.services.policies.get(WS);
    const P = POLICY_IDS.field;
    const input = (block: string, value: StateValue) => ({ [block]: { [inputActionId(block)]: value } });
    // What the older modal submits: its switches, no rows.
    const values = {
      ...input(P.needed, { value: '1' }),
      ...input(P.recordChangesNeedApproval, { selected_options: [{ value: 'on' }] }),
      ...input(P.ordersNeedApproval, { selected_options: [{ value: 'on' }] }),
      ...input(P.validationPublishing, select('approval')),
      ...input(P.orderers, select('approvers')),
    };
    const res = await h.driver.interaction(
      viewSubmission(POLICY_IDS.modal, values, { user: ADMIN, viewId: 'VOLD' }),
    );
    expect(res.json()).toMatchObject({ response_action: 'update' });
    const saved = (c: { method: string; args: unknown }) =>
      c.method === 'views.update' && JSON.stringify(c.args).includes('policy is saved');
    await h.slack.waitFor((calls) => calls.filter(saved).length >= 2);
    const after = await h.running.services.policies.get(WS);
    expect(after.actions).toEqual(before.actions);
    expect(documentOf(after).actions).toEqual(documentOf(before).actions);
    expect(documentOf(after).freezes).toEqual(SET_BY_YAML.freezes);
  });
});
