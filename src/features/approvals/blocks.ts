import type { KnownBlock, View } from '@slack/types';
import { button, context, header, section, slackDate } from '../../slack/blocks.js';
import { inputBlock } from '../../slack/modal.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import { APPROVAL_IDS } from './ids.js';
import type { ApprovalRequest } from './store.js';

const STATE_LINES: Record<ApprovalRequest['state'], (r: ApprovalRequest) => string> = {
  pending: (r) =>
    `:hourglass_flowing_sand: Waiting for ${r.needed - r.approvals.length} more approval(s)` +
    (r.approvals.length > 0 ? ` (approved so far by ${r.approvals.map((u) => `<@${u}>`).join(', ')})` : ''),
  approved: (r) => `:white_check_mark: Approved by ${approvers(r)}. Executing…`,
  executing: (r) => `:gear: Approved by ${approvers(r)}. Executing…`,
  succeeded: (r) => `:white_check_mark: Done. ${escapeMrkdwn(r.outcome)} (approved by ${approvers(r)})`,
  failed: (r) => `:x: Failed: ${escapeMrkdwn(r.outcome)} (approved by ${approvers(r)})`,
  denied: (r) =>
    `:no_entry: Denied by <@${r.decidedBy}>${r.reason === '' ? '' : `: ${escapeMrkdwn(r.reason)}`}`,
  expired: () => ':alarm_clock: Expired without enough approvals. Nothing was done.',
  withdrawn: (r) => `:leftwards_arrow_with_hook: Withdrawn by <@${r.requester}>. Nothing was done.`,
};

function approvers(request: ApprovalRequest): string {
  return request.approvals.map((user) => `<@${user}>`).join(', ') || 'nobody';
}

export function stateLine(request: ApprovalRequest): string {
  return STATE_LINES[request.state](request);
}

/**
 * The public approval message, rendered from the stored request alone so every update looks alike.
 * Buttons appear only while the request is pending (docs/requirements.md R11) and carry only
 * the request id (docs/requirements.md R10).
 */
export function approvalMessage(request: ApprovalRequest): { text: string; blocks: KnownBlock[] } {
  const details = request.details;
  const blocks: KnownBlock[] = [
    header(request.state === 'pending' ? ':lock: Approval needed' : ':lock: Approval request'),
    section(`<@${request.requester}> asks to *${escapeMrkdwn(request.summary)}*.`),
  ];
  if (details.length > 0) blocks.push(section(details.join('\n')));
  blocks.push(section(stateLine(request)));
  if (request.state === 'pending') {
    blocks.push({
      type: 'actions',
      // Unique per request: App Home shows several requests in one view.
      block_id: `${APPROVAL_IDS.actionsBlock}.${request.id}`,
      elements: [
        {
          ...button('Approve', APPROVAL_IDS.approve, request.id, 'primary'),
          confirm: {
            title: { type: 'plain_text', text: 'Approve this action?' },
            text: {
              type: 'mrkdwn',
              text: `This will *${escapeMrkdwn(request.summary)}*. It cannot be undone.`.slice(0, 300),
            },
            confirm: { type: 'plain_text', text: 'Approve' },
            deny: { type: 'plain_text', text: 'Cancel' },
            style: 'danger',
          },
        },
        button('Deny', APPROVAL_IDS.deny, request.id, 'danger'),
        button('Withdraw', APPROVAL_IDS.withdraw, request.id),
      ],
    });
  }
  blocks.push(
    context(
      `Requested ${slackDate(request.createdAt)}` +
        (request.state === 'pending' ? ` · expires ${slackDate(request.expiresAt)}` : '') +
        ` · needs ${request.needed} approval(s) from someone other than the requester · \`${request.id}\``,
    ),
  );
  return { text: `Approval request: ${request.summary} (${request.state})`, blocks };
}

export function denyModal(privateMetadata: string, summary: string): View {
  return {
    type: 'modal',
    callback_id: APPROVAL_IDS.denyModal,
    private_metadata: privateMetadata,
    title: { type: 'plain_text', text: 'Deny request' },
    submit: { type: 'plain_text', text: 'Deny' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      section(`Deny the request to *${escapeMrkdwn(summary)}*?`),
      inputBlock(APPROVAL_IDS.denyReasonBlock, 'Reason', {
        type: 'plain_text_input',
        multiline: true,
        max_length: 500,
        placeholder: { type: 'plain_text', text: 'Tell the requester why' },
      }),
    ],
  };
}
