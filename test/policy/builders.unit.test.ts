import { ACTION_CLASSES } from '../../src/features/policy/classes.js';
import { DEFAULT_POLICY, Policy, type PolicyField } from '../../src/features/policy/policy.js';
import { policyModal, policyProblem } from '../../src/features/policy/view.js';
import { DNS_RECORD_TYPES } from '../../src/registrar/index.js';
import { noticeModal } from '../../src/slack/blocks.js';
import { text } from '../../src/text/index.js';
import { checkBuilders, type Entry } from '../helpers/builder-checks.js';
import { CHANNEL, guestRefusal, users } from '../helpers/builder-fixtures.js';

/**
 * The policy modal and its notices (named `approvals: …` as before the policy became a feature of its own, so
 * their test names stay). Each is rendered in every language at the largest its inputs realistically get and
 * checked by test/helpers/builder-checks.ts (Block Kit limits, no outside markup, German differs, dates as
 * tokens). A builder added later is one line of `BUILDERS` here.
 */

/** A policy with every list full and every choice away from the default. */
const FULL_POLICY: Policy = {
  ...DEFAULT_POLICY,
  approvers: users(100),
  approverGroup: 'S0APPROVERS',
  needed: 5,
  expiryHours: 168,
  requesters: 'listed',
  requesterUsers: users(100, 'U2'),
  approvalsChannel: CHANNEL,
  admins: users(100, 'U3'),
  orderers: 'listed',
  ordererUsers: users(100, 'U4'),
  ordersNeedApproval: true,
  recordChangesNeedApproval: true,
  recordChangeExemptTypes: [...DNS_RECORD_TYPES],
  recordChangeExemptUsers: users(100, 'U5'),
  validationPublishing: 'approval',
  assistantAnswers: 'asker',
  assistantLinkHosts: Array.from({ length: 20 }, (_, i) => `docs${i}.${'s'.repeat(40)}.example.com`),
  watchManagers: 'anyone',
};
const ALL_POLICY_FIELDS = Object.keys(Policy.unwrap().shape) as PolicyField[];

/** FULL_POLICY with every action class's own count and a required reason (the rows "Per action"). */
const EVERY_CLASS_POLICY: Policy = {
  ...FULL_POLICY,
  actions: Object.fromEntries(
    ACTION_CLASSES.map((actionClass, i) => [
      actionClass,
      { approvals: i % 6, reason: 'required', expiryHours: 168, approvers: users(100, 'U6') },
    ]),
  ),
};

const BUILDERS: Entry[] = [
  ['approvals: policy modal, default', 'modal', () => policyModal(DEFAULT_POLICY)],
  ['approvals: policy modal, every list full', 'modal', () => policyModal(FULL_POLICY)],
  ['approvals: policy modal, every action class set', 'modal', () => policyModal(EVERY_CLASS_POLICY)],
  [
    'approvals: policy modal, every action class set, every field repaired',
    'modal',
    () =>
      policyModal(
        EVERY_CLASS_POLICY,
        policyProblem({ policy: EVERY_CLASS_POLICY, state: 'repaired', fields: ALL_POLICY_FIELDS }),
      ),
  ],
  [
    'approvals: policy modal, every field repaired',
    'modal',
    () =>
      policyModal(
        FULL_POLICY,
        policyProblem({ policy: FULL_POLICY, state: 'repaired', fields: ALL_POLICY_FIELDS }),
      ),
  ],
  [
    'approvals: policy modal, unreadable',
    'modal',
    () => policyModal(DEFAULT_POLICY, policyProblem({ policy: DEFAULT_POLICY, state: 'unreadable' })),
  ],
  ...(['policySaving', 'policySaved'] as const).map(
    (said): Entry => [
      `approvals: policy notice ${said}`,
      'modal',
      () => noticeModal(text.policy.policyTitle, text.policy[said], 'cb'),
    ],
  ),
  [
    'approvals: policy notice, refused',
    'modal',
    () => noticeModal(text.policy.policyTitle, text.approvals.refused({ reason: guestRefusal() }), 'cb'),
  ],
];

checkBuilders('policy', BUILDERS);
