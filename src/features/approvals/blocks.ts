import type { Button, KnownBlock, View } from '@slack/types';
import { displayName } from '../../shared/domain-names.js';
import { button, context, formModal, header, mention, section, slackDate } from '../../slack/blocks.js';
import { inputBlock } from '../../slack/modal.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import type { Message } from '../../slack/reply.js';
import { type Markup, markup, text } from '../../text/index.js';
import { APPROVAL_IDS } from './ids.js';
import { type ApprovalRequest, wordingOf } from './record.js';

const STATE_LINES: Record<ApprovalRequest['state'], (r: ApprovalRequest) => string> = {
  pending: (r) =>
    text.approvals.statePending({
      remaining: r.needed - r.approvals.length,
      approvedSoFar: r.approvals.length === 0 ? undefined : approvers(r),
    }),
  approved: (r) =>
    r.needed === 0 ? text.approvals.stateAtOnce : text.approvals.stateApproved({ approvers: approvers(r) }),
  executing: (r) =>
    r.needed === 0 ? text.approvals.stateAtOnce : text.approvals.stateExecuting({ approvers: approvers(r) }),
  succeeded: (r) =>
    text.approvals.stateSucceeded({ outcome: escapeMrkdwn(r.outcome), approvers: approvers(r) }),
  failed: (r) => text.approvals.stateFailed({ outcome: escapeMrkdwn(r.outcome), approvers: approvers(r) }),
  denied: (r) => text.approvals.stateDenied({ by: r.decidedBy, reason: escapeMrkdwn(r.reason) }),
  expired: () => text.approvals.stateExpired,
  withdrawn: (r) => text.approvals.stateWithdrawn({ requester: r.requester }),
};

function approvers(request: ApprovalRequest): Markup {
  if (request.approvals.length === 0)
    return markup(request.needed === 0 ? text.approvals.noApprovalNeeded : text.approvals.nobody);
  return markup(text.slack.list({ items: request.approvals.map(mention) }));
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
  const { summary, details } = wordingOf(request);
  const blocks: KnownBlock[] = [
    header(pending ? text.approvals.headerPending : text.approvals.headerDecided),
    section(
      text.approvals.asks({
        requester: request.requester,
        channel: audience === 'approver' ? request.channel : undefined,
        summary: escapeMrkdwn(summary),
      }),
    ),
  ];
  for (const part of foldDetails(details)) blocks.push(section(part));
  // The requester's reason and a broken freeze stay on the message after the decision (contract §3).
  if (request.justification !== '')
    blocks.push(section(text.approvals.justificationLine({ reason: request.justification }).slice(0, 3000)));
  if (request.breakGlass) blocks.push(section(text.approvals.breakGlassLine));
  blocks.push(section(stateLine(request)));
  // A user group is told through the message itself: the mention notifies its members.
  if (pending && request.approverGroup !== '')
    blocks.push(
      section(
        request.approverGroup
          .split(',')
          .map((group) => text.approvals.approverGroupLine({ group }))
          .join('\n'),
      ),
    );
  if (pending && request.askedAdmins) blocks.push(section(adminsLine(request, audience)));
  if (pending) {
    const elements: Button[] = [
      {
        ...button(
          text.approvals.approveButton,
          APPROVAL_IDS.approve,
          request.id,
          'primary',
          text.approvals.approveButtonLabel({ summary }),
        ),
        confirm: {
          title: { type: 'plain_text', text: text.approvals.approveConfirmTitle },
          text: {
            type: 'mrkdwn',
            text: text.approvals
              .approveConfirmText({ summary: escapeMrkdwn(summary), undo: request.undo })
              .slice(0, 300),
          },
          confirm: { type: 'plain_text', text: text.approvals.approveConfirmButton },
          deny: { type: 'plain_text', text: text.approvals.approveConfirmCancel },
          style: 'danger',
        },
      },
      button(
        text.approvals.denyButton,
        APPROVAL_IDS.deny,
        request.id,
        'danger',
        text.approvals.denyButtonLabel({ summary }),
      ),
    ];
    if (audience === 'channel')
      elements.push(
        button(
          text.approvals.withdrawButton,
          APPROVAL_IDS.withdraw,
          request.id,
          undefined,
          text.approvals.withdrawButtonLabel({ summary }),
        ),
      );
    // Unique per request: App Home shows several requests in one view.
    blocks.push({ type: 'actions', block_id: `${APPROVAL_IDS.actionsBlock}.${request.id}`, elements });
  }
  blocks.push(
    context(
      text.approvals.requestContext({
        requested: slackDate(request.createdAt),
        expires: pending ? slackDate(request.expiresAt) : undefined,
        needed: request.needed,
        id: request.id,
      }),
    ),
  );
  // The fallback is mrkdwn too (notifications, screen readers): the summary escaped as in the blocks.
  return {
    text: text.approvals.messageFallback({ summary: escapeMrkdwn(summary), state: request.state }),
    blocks,
  };
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
  const named = request.namedApprovers.slice(0, 40);
  const more = request.namedApprovers.length - named.length;
  return text.approvals.adminsAsked({
    toApprover: audience === 'approver',
    named: named.length === 0 ? undefined : markup(named.map((user) => mention(user).mrkdwn).join(' ')),
    more,
  });
}

/** The one reminder to an approver who has not acted yet (the buttons are on their copy above). */
export function reminderMessage(request: ApprovalRequest): { text: string } {
  return {
    text: text.approvals.reminder({
      requester: request.requester,
      summary: escapeMrkdwn(wordingOf(request).summary),
      channel: request.channel,
      id: request.id,
      expires: slackDate(request.expiresAt),
    }),
  };
}

/** The requester's DM once their auth code is sealed: a button, never the code (R28). */
export function authCodeReadyMessage(request: ApprovalRequest, domain: string): Message {
  const ready = text.approvals.authCodeReady({ domain: escapeMrkdwn(displayName(domain)) });
  return {
    text: ready,
    blocks: [
      section(`${ready} ${text.approvals.authCodeOnlyYou}`),
      {
        type: 'actions',
        elements: [
          button(
            text.approvals.revealButton,
            APPROVAL_IDS.reveal,
            request.id,
            'primary',
            text.approvals.revealButtonLabel({ domain: displayName(domain) }),
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
    title: { type: 'plain_text', text: text.approvals.revealTitle },
    close: { type: 'plain_text', text: text.approvals.revealClose },
    blocks: [
      section(text.approvals.revealIntro({ domain: escapeMrkdwn(displayName(domain)) })),
      {
        type: 'rich_text',
        elements: [{ type: 'rich_text_preformatted', elements: [{ type: 'text', text: code }] }],
      },
      context(text.approvals.revealKeepPrivate),
    ],
  };
}

export function denyModal(privateMetadata: string): View {
  return formModal(
    APPROVAL_IDS.denyModal,
    privateMetadata,
    text.approvals.denyTitle,
    text.approvals.denySubmit,
    [
      section(text.approvals.denyQuestion),
      inputBlock(APPROVAL_IDS.denyReasonBlock, text.approvals.denyReasonLabel, {
        type: 'plain_text_input',
        multiline: true,
        max_length: 500,
        placeholder: { type: 'plain_text', text: text.approvals.denyReasonPlaceholder },
      }),
    ],
  );
}
