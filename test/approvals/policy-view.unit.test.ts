import { describe, expect, it } from 'vitest';
import { withRows } from '../../src/features/policy/action-rows.js';
import { readPolicy, readSubmission } from '../../src/features/policy/form.js';
import { POLICY_IDS, RETIRED_FIELDS } from '../../src/features/policy/ids.js';
import { DEFAULT_POLICY, type Policy, STRICTEST_POLICY } from '../../src/features/policy/policy.js';
import { needsApproval, policyFor } from '../../src/features/policy/rules.js';
import { policyModal, policyProblem } from '../../src/features/policy/view.js';
import { DNS_RECORD_TYPES } from '../../src/registrar/index.js';
import { inputActionId, type StateValue, type ViewState } from '../../src/slack/modal.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { submittedAsShown } from '../policy/support.js';

const P = POLICY_IDS.field;

/** A submitted policy modal: each block's one input, keyed as Slack keys it. */
function submitted(values: Partial<Record<keyof typeof P, StateValue>>): ViewState {
  return Object.fromEntries(
    Object.entries(values).map(([field, value]) => {
      const block = P[field as keyof typeof P];
      return [block, { [inputActionId(block)]: value }];
    }),
  );
}

/** A policy unlike the default in every field, each of them valid in the modal. */
const CUSTOM: Policy = {
  // What `regdesk policy set` adds is not the modal's: its defaults.
  actions: {},
  zones: [],
  freezes: [],
  escalateTo: [],
  mcp: 'read',
  approvers: ['UA', 'UB'],
  approverGroup: 'S0APPROVE',
  needed: 2,
  expiryHours: 48,
  requesters: 'listed',
  requesterUsers: ['UREQ'],
  approvalsChannel: 'CAPPROVALS',
  admins: ['UADMIN'],
  orderers: 'listed',
  ordererUsers: ['UBUYER'],
  ordersNeedApproval: true,
  recordChangesNeedApproval: false,
  recordChangeExemptTypes: ['TXT', 'CAA'],
  recordChangeExemptUsers: ['UDNS'],
  validationPublishing: 'approval',
  assistantAnswers: 'channel',
  assistantLinkHosts: ['docs.example.com'],
  watchManagers: 'anyone',
  language: 'de',
};

describe('the approval policy modal', () => {
  it('builds every input with the action id the reader expects', () => {
    const blocks = JSON.stringify(policyModal(DEFAULT_POLICY).blocks);
    const shown = Object.values(P).filter((block) => !RETIRED_FIELDS.includes(block));
    for (const block of shown) expect(blocks).toContain(`"action_id":"${inputActionId(block)}"`);
    // The rows per action replaced the switches of record changes, orders and publishing.
    for (const block of RETIRED_FIELDS) expect(blocks).not.toContain(`"block_id":"${block}"`);
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
    // Orders need approval: the row of orders shows the default count.
    const orders = (modal.blocks as { block_id?: string; element?: object }[]).find(
      (block) => block.block_id === POLICY_IDS.action.order.approvals,
    );
    expect(orders?.element).toMatchObject({ initial_option: { value: 'default' } });
    expect(text).toContain(
      '"initial_option":{"text":{"type":"plain_text","text":"Approvers only"},"value":"approvers"}',
    );
    const plain = JSON.stringify(policyModal({ ...DEFAULT_POLICY, recordChangesNeedApproval: false }).blocks);
    expect(plain).not.toContain('initial_options');
  });

  it('gives back the policy it shows, when submitted untouched', () => {
    const variants: Policy[] = [
      DEFAULT_POLICY,
      CUSTOM,
      {
        ...CUSTOM,
        recordChangesNeedApproval: true,
        recordChangeExemptTypes: [],
        recordChangeExemptUsers: [],
      },
    ];
    for (const policy of variants) {
      const modal = policyModal(policy);
      assertWithinBlockKitLimits(modal, 'modal');
      const read = readSubmission(submittedAsShown(modal.blocks));
      if ('errors' in read) throw new Error(JSON.stringify(read.errors));
      // What the rows set (the switches of record changes, orders and publishing) included.
      expect(withRows(read.policy, read.rows)).toEqual(policy);
    }
  });

  it('offers every record type to exempt, shows the exempt ones, and has record changes need approval by default (R47)', () => {
    expect(DEFAULT_POLICY).toMatchObject({
      recordChangesNeedApproval: true,
      recordChangeExemptTypes: [],
      recordChangeExemptUsers: [],
    });
    const blocks = policyModal(CUSTOM).blocks as { block_id?: string; element?: Record<string, unknown> }[];
    const types = blocks.find((block) => block.block_id === P.recordChangeExemptTypes)?.element;
    expect(types).toMatchObject({ type: 'multi_static_select' });
    expect((types?.options as { value: string }[] | undefined)?.map((o) => o.value)).toEqual([
      ...DNS_RECORD_TYPES,
    ]);
    expect(types?.initial_options).toEqual([
      { text: { type: 'plain_text', text: 'TXT' }, value: 'TXT' },
      { text: { type: 'plain_text', text: 'CAA' }, value: 'CAA' },
    ]);
    const users = blocks.find((block) => block.block_id === P.recordChangeExemptUsers)?.element;
    expect(users).toMatchObject({ type: 'multi_users_select', initial_users: ['UDNS'] });
    // CUSTOM turns record approval off: its row shows none; the default needs the default count.
    const row = (policy: Policy) =>
      (policyModal(policy).blocks as { block_id?: string; element?: object }[]).find(
        (block) => block.block_id === POLICY_IDS.action.record.approvals,
      )?.element;
    expect(row(CUSTOM)).toMatchObject({ initial_option: { value: '0' } });
    expect(row(DEFAULT_POLICY)).toMatchObject({ initial_option: { value: 'default' } });
  });

  it('reads the record settings; a submission without the checkbox keeps approval on, an unknown type is shown inline', () => {
    expect(
      readPolicy(
        submitted({
          recordChangesNeedApproval: { selected_options: [] },
          recordChangeExemptTypes: { selected_options: [{ value: 'MX' }] },
          recordChangeExemptUsers: { selected_users: ['UDNS'] },
        }),
      ),
    ).toEqual({
      policy: {
        ...DEFAULT_POLICY,
        recordChangesNeedApproval: false,
        recordChangeExemptTypes: ['MX'],
        recordChangeExemptUsers: ['UDNS'],
      },
    });
    // A modal opened before the field existed has no such block: the default (approval on) stands.
    expect(readPolicy(submitted({}))).toEqual({ policy: DEFAULT_POLICY });
    expect(
      readPolicy(submitted({ recordChangeExemptTypes: { selected_options: [{ value: 'PTR' }] } })),
    ).toEqual({ errors: { [P.recordChangeExemptTypes]: expect.any(String) } });
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
    expect(
      policyProblem({
        policy: STRICTEST_POLICY,
        state: 'repaired',
        fields: ['recordChangesNeedApproval', 'recordChangeExemptTypes', 'recordChangeExemptUsers'],
      }),
    ).toContain(
      'Approval for DNS record changes, Record types exempt from approval, People exempt from approval for records',
    );
    expect(policyProblem({ policy: DEFAULT_POLICY, state: 'saved' })).toBeUndefined();
    expect(policyProblem({ policy: DEFAULT_POLICY, state: 'default' })).toBeUndefined();
  });
});

describe('whether a record change needs approval (docs/requirements.md R47)', () => {
  const exempting = {
    ...DEFAULT_POLICY,
    recordChangeExemptTypes: ['TXT'],
    recordChangeExemptUsers: ['UDNS'],
  } satisfies Policy;

  it('asks for approval when the policy says so and neither the person nor the type is exempt', () => {
    const cases: [Policy, string, string, boolean][] = [
      [DEFAULT_POLICY, 'UANY', 'A', true],
      [STRICTEST_POLICY, 'UANY', 'TXT', true],
      [exempting, 'UANY', 'A', true],
      [exempting, 'UANY', 'TXT', false],
      [exempting, 'UDNS', 'A', false],
      [exempting, 'UDNS', 'TXT', false],
      // Types are compared as the registrar spells them: another spelling is not exempt.
      [exempting, 'UANY', 'txt', true],
      [{ ...exempting, recordChangesNeedApproval: false }, 'UANY', 'A', false],
      [{ ...DEFAULT_POLICY, recordChangesNeedApproval: false }, 'UANY', 'CNAME', false],
    ];
    for (const [policy, user, type, expected] of cases)
      expect(
        needsApproval(policyFor(policy, 'record', 'example.de', 0).rules, user, type),
        `${user} ${type}`,
      ).toBe(expected);
  });
});
