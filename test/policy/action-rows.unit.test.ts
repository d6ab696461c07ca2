import { describe, expect, it } from 'vitest';
import { type ActionRows, readRows, rowsOf, withRows } from '../../src/features/policy/action-rows.js';
import { policyChange } from '../../src/features/policy/change.js';
import { ACTION_CLASSES } from '../../src/features/policy/classes.js';
import { documentOf, PolicyDocument, policyOf } from '../../src/features/policy/document.js';
import { readSubmission } from '../../src/features/policy/form.js';
import { POLICY_IDS } from '../../src/features/policy/ids.js';
import { DEFAULT_POLICY, type Policy, STRICTEST_POLICY } from '../../src/features/policy/policy.js';
import { rulesFor } from '../../src/features/policy/rules.js';
import { policyModal } from '../../src/features/policy/view.js';
import type { StateValue } from '../../src/slack/modal.js';
import { submittedAsShown } from './support.js';

const A = POLICY_IDS.action;

/** A policy whose every class says something of its own, as `regdesk policy set` would store it. */
const EVERY_CLASS: Policy = policyOf(
  PolicyDocument.parse({
    approvers: ['U0A1', 'U0A2', 'U0A3', 'U0A4', 'U0A5'],
    approvals: 2,
    actions: {
      revoke: { approvals: 3, reason: 'required', expiryHours: 4 },
      authcode: { approvals: 1, reason: 'required' },
      delegation: { approvals: 2 },
      dnssec: { approvals: 5, expiryHours: 2 },
      record: { approvals: 4, exemptTypes: ['TXT'] },
      order: { approvals: 0, who: 'approvers' },
      publish: { approvals: 1, reason: 'required' },
    },
    freezes: [
      {
        name: 'Weekends',
        weekly: { days: ['sat', 'sun'], from: '00:00', to: '24:00', timeZone: 'Europe/Berlin' },
        actions: ['delegation'],
      },
    ],
    zones: [{ match: '*.prod.example', actions: { record: { approvals: 5 } } }],
  }),
);

const VARIANTS: [string, Policy][] = [
  ['the default', DEFAULT_POLICY],
  // With someone to order: the modal refuses "listed" orderers with nobody listed.
  ['the strictest', { ...STRICTEST_POLICY, ordererUsers: ['U0BUY'] }],
  ['every class set', EVERY_CLASS],
  [
    'every switch off',
    { ...EVERY_CLASS, recordChangesNeedApproval: false, validationPublishing: 'own-orders' },
  ],
  [
    'every switch on',
    { ...DEFAULT_POLICY, needed: 3, ordersNeedApproval: true, validationPublishing: 'approval' },
  ],
];

const select = (value: string): StateValue => ({ selected_option: { value } });
const box = (checked: boolean): StateValue => ({ selected_options: checked ? [{ value: 'required' }] : [] });

describe('the rows per action class of /domain policy', () => {
  it.each(VARIANTS)(
    'show what is in force for %s (documentOf), each class by its own count or the default',
    (_name, policy) => {
      const rows = rowsOf(policy);
      for (const actionClass of ACTION_CLASSES) {
        const inForce = rulesFor(documentOf(policy), actionClass);
        const row = rows[actionClass];
        expect(row.approvals === 'default' ? policy.needed : row.approvals, actionClass).toBe(
          inForce.approvals,
        );
        expect(row.reason ? 'required' : 'optional', actionClass).toBe(inForce.reason);
      }
    },
  );

  it.each(VARIANTS)('give back %s when submitted untouched', (_name, policy) => {
    const read = readSubmission(submittedAsShown(policyModal(policy).blocks));
    if ('errors' in read) throw new Error(JSON.stringify(read.errors));
    expect(Object.keys(read.rows).sort()).toEqual([...ACTION_CLASSES].sort());
    expect(documentOf(withRows({ ...read.policy, ...pick(policy) }, read.rows))).toEqual(documentOf(policy));
  });

  it("save each class's approvals and reason, keeping its approvers and expiry, and set the switches", () => {
    const rows: ActionRows = {
      revoke: { approvals: 'default', reason: false },
      dnssec: { approvals: 1, reason: true },
      record: { approvals: 0, reason: true },
      order: { approvals: 'default', reason: false },
      publish: { approvals: 0, reason: false },
    };
    const saved = withRows(EVERY_CLASS, rows);
    expect(saved.actions.revoke).toEqual({ expiryHours: 4 });
    expect(saved.actions.dnssec).toEqual({ approvals: 1, reason: 'required', expiryHours: 2 });
    // 0 for a class with a switch is the switch off, with no count of its own kept (as policyOf stores it).
    expect(saved.actions.record).toEqual({ reason: 'required' });
    expect(saved.recordChangesNeedApproval).toBe(false);
    expect(saved.ordersNeedApproval).toBe(true);
    expect(saved.actions.order).toBeUndefined();
    expect(saved.validationPublishing).toBe('own-orders');
    expect(saved.actions.publish).toBeUndefined();
    // Rows not submitted, and what the modal does not show, stay.
    expect(saved.actions.authcode).toEqual(EVERY_CLASS.actions.authcode);
    expect(saved.actions.delegation).toEqual(EVERY_CLASS.actions.delegation);
    expect(saved.freezes).toEqual(EVERY_CLASS.freezes);
    expect(saved.zones).toEqual(EVERY_CLASS.zones);

    const document = documentOf(saved);
    expect(rulesFor(document, 'revoke')).toMatchObject({ approvals: 2, reason: 'optional', expiryHours: 4 });
    expect(rulesFor(document, 'record')).toMatchObject({ approvals: 0, reason: 'required' });
    expect(rulesFor(document, 'order').approvals).toBe(2);
    expect(rulesFor(document, 'publish').approvals).toBe(0);
    // A count for a class with a switch turns it on again.
    const on = withRows(saved, { record: { approvals: 3, reason: false } });
    expect(on).toMatchObject({ recordChangesNeedApproval: true, actions: { record: { approvals: 3 } } });
  });

  it('read nothing from a modal opened before the rows existed, and refuse a count not offered', () => {
    expect(readRows({})).toEqual({ rows: {}, errors: {} });
    const values = submittedAsShown(policyModal(DEFAULT_POLICY).blocks, { [A.order.approvals]: select('7') });
    expect(readRows(values).errors).toEqual({ [A.order.approvals]: expect.any(String) });
  });

  it('refuse a count the listed approvers can never give, on its row', () => {
    const policy: Policy = { ...DEFAULT_POLICY, approvers: ['U0A1', 'U0A2'] };
    const values = submittedAsShown(policyModal(policy).blocks, {
      [A.delegation.approvals]: select('3'),
      [A.record.approvals]: select('2'),
    });
    expect(readSubmission(values)).toEqual({
      errors: { [A.delegation.approvals]: expect.stringContaining('at most 2 approvals') },
    });
  });

  it('name each class whose rules changed in the audit trail', () => {
    const before: Policy = { ...DEFAULT_POLICY, actions: { revoke: { expiryHours: 4 } } };
    const values = submittedAsShown(policyModal(before).blocks, {
      [A.record.approvals]: select('2'),
      [A.record.reason]: box(true),
      [A.order.approvals]: select('default'),
      [A.revoke.approvals]: select('3'),
    });
    const read = readSubmission(values);
    if ('errors' in read) throw new Error(JSON.stringify(read.errors));
    const after = withRows({ ...read.policy, actions: before.actions }, read.rows);
    const change = policyChange(before, after);
    expect(change).toContain('revoke: approvals default (1) → 3');
    expect(change).toContain('record: approvals default (1) → 2, reason required');
    expect(change).toContain('order: approvals 0 → default (1)');
    // The switches are said as their classes' approvals, not as fields of their own.
    expect(change).not.toContain('ordersNeedApproval');
    expect(change).not.toContain('actions:');
    expect(policyChange(after, withRows(after, { revoke: { approvals: 3, reason: false } }))).toBe(
      'no change',
    );
    expect(policyChange(after, { ...after, actions: { ...after.actions, revoke: { approvals: 3 } } })).toBe(
      'revoke: expiryHours 4 → unset',
    );
  });
});

/** What the modal does not show, kept from the stored policy as the save does (view.ts). */
function pick(policy: Policy): Pick<Policy, 'actions' | 'zones' | 'freezes' | 'escalateTo' | 'mcp'> {
  const { actions, zones, freezes, escalateTo, mcp } = policy;
  return { actions, zones, freezes, escalateTo, mcp };
}
