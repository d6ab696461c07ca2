import type { Button, KnownBlock, View } from '@slack/types';
import { displayName } from '../../shared/domain-names.js';
import { button, context, formModal, header, section, slackDate } from '../../slack/blocks.js';
import { inputBlock } from '../../slack/modal.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import type { Message } from '../../slack/reply.js';
import { APPROVAL_IDS } from './ids.js';
import type { ApprovalRequest } from './record.js';

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

/** Who sees a rendering: the public channel message, or an approver's copy in their DM. */
export type Audience = 'channel' | 'approver';

/**
 * The approval message, rendered from the stored request alone so every update of every copy looks
 * alike. Buttons appear only while the request is pending (docs/requirements.md R11) and carry only
 * the request id (R10); an approver's copy has no Withdraw. Times are `<!date^…>` (R32).
 */
export function approvalMessage(
  request: ApprovalRequest,
  audience: Audience = 'channel',
): { text: string; blocks: KnownBlock[] } {
  const pending = request.state === 'pending';
  const where = audience === 'approver' ? ` in <#${request.channel}>` : '';
  const blocks: KnownBlock[] = [
    header(pending ? ':lock: Approval needed' : ':lock: Approval request'),
    section(`<@${request.requester}> asks${where} to *${escapeMrkdwn(request.summary)}*.`),
  ];
  for (const text of foldDetails(request.details)) blocks.push(section(text));
  blocks.push(section(stateLine(request)));
  // A user group is told through the message itself: the mention notifies its members.
  if (pending && request.approverGroup !== '')
    blocks.push(section(`Approvers: <!subteam^${request.approverGroup}>`));
  if (pending && request.askedAdmins) blocks.push(section(adminsLine(request, audience)));
  if (pending) {
    const elements: Button[] = [
      {
        ...button('Approve', APPROVAL_IDS.approve, request.id, 'primary', `Approve: ${request.summary}`),
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
      button('Deny', APPROVAL_IDS.deny, request.id, 'danger', `Deny: ${request.summary}`),
    ];
    if (audience === 'channel')
      elements.push(
        button('Withdraw', APPROVAL_IDS.withdraw, request.id, undefined, `Withdraw: ${request.summary}`),
      );
    // Unique per request: App Home shows several requests in one view.
    blocks.push({ type: 'actions', block_id: `${APPROVAL_IDS.actionsBlock}.${request.id}`, elements });
  }
  blocks.push(
    context(
      `Requested ${slackDate(request.createdAt)}` +
        (pending ? ` · expires ${slackDate(request.expiresAt)}` : '') +
        ` · needs ${request.needed} approval(s) from someone other than the requester · \`${request.id}\``,
    ),
  );
  return { text: `Approval request: ${request.summary} (${request.state})`, blocks };
}

/** A section holds 3000 characters: long details (full keys) go over several, line by line. */
const SECTION_TEXT = 3000;

function foldDetails(details: readonly string[]): string[] {
  const sections: string[] = [];
  let current = '';
  for (const line of details) {
    const piece = line.length > SECTION_TEXT ? `${line.slice(0, SECTION_TEXT - 1)}…` : line;
    if (current !== '' && current.length + 1 + piece.length > SECTION_TEXT) {
      sections.push(current);
      current = piece;
    } else {
      current = current === '' ? piece : `${current}\n${piece}`;
    }
  }
  if (current !== '') sections.push(current);
  return sections;
}

/**
 * Under a policy that lists no approvers the workspace's admins and owners approve: those past the DM
 * limit are named (a mention notifies them), and every admin is pointed to `/domain policy`.
 */
function adminsLine(request: ApprovalRequest, audience: Audience): string {
  const named = request.namedApprovers.slice(0, 40).map((user) => `<@${user}>`);
  const more = request.namedApprovers.length - named.length;
  return (
    (audience === 'approver'
      ? 'You are asked as a workspace admin or owner: '
      : 'Approvers: the workspace admins and owners, ') +
    'the policy lists no approvers (list them in `/domain policy`).' +
    (named.length === 0 ? '' : ` Also asked: ${named.join(' ')}${more > 0 ? ` and ${more} more` : ''}.`)
  );
}

/** The one reminder to an approver who has not acted yet (the buttons are on their copy above). */
export function reminderMessage(request: ApprovalRequest): { text: string } {
  return {
    text:
      `:alarm_clock: Reminder: <@${request.requester}> still needs approval to *${escapeMrkdwn(request.summary)}* ` +
      `(in <#${request.channel}>, \`${request.id}\`). It expires ${slackDate(request.expiresAt)}.`,
  };
}

/** The requester's DM once their auth code is sealed: a button, never the code (R28). */
export function authCodeReadyMessage(request: ApprovalRequest, domain: string): Message {
  const text = `:key: Your transfer auth code for ${escapeMrkdwn(displayName(domain))} is ready.`;
  return {
    text,
    blocks: [
      section(`${text} Only you can reveal it, as often as you need within 24 hours.`),
      {
        type: 'actions',
        elements: [
          button(
            'Reveal',
            APPROVAL_IDS.reveal,
            request.id,
            'primary',
            `Reveal the auth code for ${displayName(domain)}`,
          ),
        ],
      },
    ],
  };
}

/** The modal that shows the code: preformatted, so it copies exactly and nothing in it is markup. */
export function revealModal(domain: string, code: string): View {
  return {
    type: 'modal',
    callback_id: APPROVAL_IDS.revealModal,
    title: { type: 'plain_text', text: 'Transfer auth code' },
    close: { type: 'plain_text', text: 'Close' },
    blocks: [
      section(`Transfer auth code for *${escapeMrkdwn(displayName(domain))}*:`),
      {
        type: 'rich_text',
        elements: [{ type: 'rich_text_preformatted', elements: [{ type: 'text', text: code }] }],
      },
      context('Keep it private: anyone with it can transfer the domain away. Regdesk keeps it for 24 hours.'),
    ],
  };
}

export function denyModal(privateMetadata: string, summary: string): View {
  return formModal(APPROVAL_IDS.denyModal, privateMetadata, 'Deny request', 'Deny', [
    section(`Deny the request to *${escapeMrkdwn(summary)}*?`),
    inputBlock(APPROVAL_IDS.denyReasonBlock, 'Reason', {
      type: 'plain_text_input',
      multiline: true,
      max_length: 500,
      placeholder: { type: 'plain_text', text: 'Tell the requester why' },
    }),
  ]);
}
