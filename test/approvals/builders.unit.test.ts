import {
  approvalMessage,
  authCodeReadyMessage,
  denyModal,
  reminderMessage,
  revealModal,
} from '../../src/features/approvals/blocks.js';
import { breakGlassOffer, reasonModal, reasonPrompt } from '../../src/features/approvals/detour-blocks.js';
import type { ApprovalState } from '../../src/features/approvals/record.js';
import { frozenRefusal } from '../../src/features/approvals/refusals.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import { CHANNEL, HOSTILE, IDN, request } from '../helpers/builder-fixtures.js';

/**
 * Every builder of an approval's messages and modals. Each is rendered in every language at the largest its
 * inputs realistically get and checked by test/helpers/builder-checks.ts (Block Kit limits, no outside
 * markup, German differs, dates as tokens). A builder added later is one line of `BUILDERS` here.
 */

const STATES: ApprovalState[] = [
  'pending',
  'approved',
  'executing',
  'succeeded',
  'failed',
  'denied',
  'expired',
  'withdrawn',
];

const BUILDERS: Entry[] = [
  // approvals: the request message for each state, in the channel and in an approver's DM
  ...STATES.flatMap((state): Entry[] => [
    [`approvals: request ${state}, channel`, 'message', () => approvalMessage(request(state)), DATES],
    [
      `approvals: request ${state}, approver's copy`,
      'message',
      () => approvalMessage(request(state), 'approver'),
      DATES,
    ],
  ]),
  // Policy v2: a request with its requester's reason and a broken glass; one run at once
  ...(['pending', 'succeeded'] as const).map(
    (state): Entry => [
      `approvals: request ${state} with a reason, during a freeze`,
      'message',
      () =>
        approvalMessage({
          ...request(state),
          justification: `${HOSTILE} ${'Cut over to the new cluster. '.repeat(20)}`.slice(0, 500),
          breakGlass: true,
        }),
      DATES,
    ],
  ),
  ...(['approved', 'succeeded'] as const).map(
    (state): Entry => [
      `approvals: request ${state} at once (the policy asks no approval)`,
      'message',
      () => approvalMessage({ ...request(state), needed: 0, approvals: [] }),
      DATES,
    ],
  ),
  [
    'approvals: reason modal',
    'modal',
    () => reasonModal('stash_0123456789abcdef', request('pending').summary),
  ],
  [
    'approvals: reason prompt',
    'message',
    () => reasonPrompt('stash_0123456789abcdef', request('pending').summary),
  ],
  [
    'approvals: break glass offer',
    'message',
    () => {
      const freeze = { name: `${HOSTILE} ${'Black Friday '.repeat(8)}`, until: Date.UTC(2026, 10, 30) };
      return breakGlassOffer('stash_0123456789abcdef', frozenRefusal(freeze).userMessage, freeze.name);
    },
    DATES,
  ],
  ['approvals: reminder', 'message', () => reminderMessage(request('pending')), DATES],
  ['approvals: auth code ready', 'message', () => authCodeReadyMessage(request('succeeded'), IDN)],
  ['approvals: reveal modal', 'modal', () => revealModal(IDN, `A1b2-C3d4-${'E5f6'.repeat(60)}`)],
  [
    'approvals: deny modal',
    'modal',
    () => denyModal(JSON.stringify({ id: 'apr_0123456789abcdef', channel: CHANNEL })),
  ],
];

checkBuilders('approvals', BUILDERS);
