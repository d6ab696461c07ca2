import { describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { DEFAULT_POLICY, STRICTEST_POLICY } from '../../src/features/approvals/policy.js';
import { readPolicy } from '../../src/features/approvals/policy-form.js';
import { policyModal, policyProblem } from '../../src/features/approvals/policy-view.js';
import { inputActionId, type StateValue, type ViewState } from '../../src/slack/modal.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';

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

  it('reads who may order, whether orders need approval, and the assistant settings', () => {
    const result = readPolicy(
      submitted({
        orderers: { selected_option: { value: 'listed' } },
        ordererUsers: { selected_users: ['UBUYER'] },
        ordersNeedApproval: { selected_options: [{ value: 'on' }] },
        assistantAnswers: { selected_option: { value: 'asker' } },
        assistantLinkHosts: { value: ' Docs.Example.com, status.example.com.\ndocs.example.com ' },
      }),
    );
    expect(result).toEqual({
      policy: {
        ...DEFAULT_POLICY,
        orderers: 'listed',
        ordererUsers: ['UBUYER'],
        ordersNeedApproval: true,
        assistantAnswers: 'asker',
        assistantLinkHosts: ['docs.example.com', 'status.example.com'],
      },
    });
  });

  it('shows a host that is no host name, and "listed" orderers with nobody listed, inline', () => {
    const result = readPolicy(
      submitted({
        orderers: { selected_option: { value: 'listed' } },
        assistantLinkHosts: { value: 'docs.example.com, https://evil.example/x' },
      }),
    );
    expect(result).toEqual({
      errors: {
        [P.assistantLinkHosts]: expect.stringContaining('"https://evil.example/x" is not a host name'),
        [P.ordererUsers]: expect.stringContaining('List who may order'),
      },
    });
    const many = Array.from({ length: 21 }, (_, i) => `h${i}.example.com`).join(',');
    expect(readPolicy(submitted({ assistantLinkHosts: { value: many } }))).toEqual({
      errors: { [P.assistantLinkHosts]: 'At most 20 hosts.' },
    });
  });

  it('shows the current policy, every part within Block Kit limits', () => {
    const modal = policyModal({
      ...DEFAULT_POLICY,
      orderers: 'approvers',
      ordersNeedApproval: true,
      assistantAnswers: 'channel',
      assistantLinkHosts: ['docs.example.com', 'status.example.com'],
    });
    assertWithinBlockKitLimits(modal, 'modal');
    const text = JSON.stringify(modal.blocks);
    expect(text).toContain('"initial_value":"docs.example.com, status.example.com"');
    expect(text).toContain(
      '"initial_options":[{"text":{"type":"plain_text","text":"Orders and reissues need approval',
    );
    expect(text).toContain(
      '"initial_option":{"text":{"type":"plain_text","text":"Approvers only"},"value":"approvers"}',
    );
    expect(JSON.stringify(policyModal(DEFAULT_POLICY).blocks)).not.toContain('initial_options');
  });

  it('says what was wrong with the stored policy, naming repaired fields by their labels (R41)', () => {
    const unreadable = policyProblem({ policy: STRICTEST_POLICY, state: 'unreadable' });
    expect(unreadable).toContain('could not be read');
    const modal = policyModal(STRICTEST_POLICY, unreadable);
    assertWithinBlockKitLimits(modal, 'modal');
    expect(JSON.stringify(modal.blocks[0])).toContain('could not be read');
    expect(JSON.stringify(modal.blocks)).toContain('"initial_value":"5"');

    const repaired = policyProblem({
      policy: STRICTEST_POLICY,
      state: 'repaired',
      fields: ['needed', 'ordersNeedApproval'],
    });
    expect(repaired).toContain('Approvals needed, Approval for orders');
    expect(policyProblem({ policy: DEFAULT_POLICY, state: 'saved' })).toBeUndefined();
    expect(policyProblem({ policy: DEFAULT_POLICY, state: 'default' })).toBeUndefined();
  });
});
