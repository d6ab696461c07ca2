import { describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { DEFAULT_POLICY } from '../../src/features/approvals/policy.js';
import { policyModal, readPolicy } from '../../src/features/approvals/policy-view.js';
import { inputActionId, type StateValue, type ViewState } from '../../src/slack/modal.js';

const P = APPROVAL_IDS.policy;

/** A submitted policy modal: each block's one input, keyed as Slack keys it. */
function submitted(values: Partial<Record<keyof typeof P, StateValue>>): ViewState {
  return Object.fromEntries(
    Object.entries(values).map(([field, value]) => {
      const block = P[field as keyof typeof P];
      return [block, { [inputActionId(block)]: value }];
    }),
  );
}

describe('the approval policy modal', () => {
  it('builds every input with the action id the reader expects', () => {
    const blocks = JSON.stringify(policyModal(DEFAULT_POLICY).blocks);
    for (const block of Object.values(P)) expect(blocks).toContain(`"action_id":"${inputActionId(block)}"`);
  });

  it('reads a valid submission into a policy, defaults for what was left empty', () => {
    const result = readPolicy(
      submitted({
        approvers: { selected_users: ['UAPPROVER'] },
        approverGroup: { value: ' S0123ABCD ' },
        needed: { value: '2' },
        expiry: { value: '4' },
        channel: { selected_conversation: 'CAPPROVALS' },
      }),
    );
    expect(result).toEqual({
      policy: {
        ...DEFAULT_POLICY,
        approvers: ['UAPPROVER'],
        approverGroup: 'S0123ABCD',
        needed: 2,
        expiryHours: 4,
        approvalsChannel: 'CAPPROVALS',
      },
    });
  });

  it('puts each schema issue on the block of its field, and a malformed group id on the group', () => {
    const result = readPolicy(
      submitted({ approverGroup: { value: 'not-a-group' }, needed: { value: '9' }, expiry: { value: '0' } }),
    );
    expect(result).toEqual({
      errors: {
        [P.approverGroup]: expect.stringContaining('S0123ABCD'),
        [P.needed]: expect.any(String),
        [P.expiry]: expect.any(String),
      },
    });
  });
});
