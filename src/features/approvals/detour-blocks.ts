import type { KnownBlock, View } from '@slack/types';
import { button, formModal, section } from '../../slack/blocks.js';
import { inputBlock } from '../../slack/modal.js';
import type { Message } from '../../slack/reply.js';
import { text } from '../../text/index.js';
import { APPROVAL_IDS } from './ids.js';
import { MIN_REASON_LENGTH } from './refusals.js';

/** The longest reason kept: it is shown in the request's message and written to the audit. */
export const MAX_REASON_LENGTH = 500;

/** The modal that asks the requester why, before the request exists (contract §3 "Policy"). */
export function reasonModal(stashId: string, summary: string): View {
  return formModal(
    APPROVAL_IDS.reasonModal,
    stashId,
    text.approvals.reasonModalTitle,
    text.approvals.reasonModalSubmit,
    [
      section(text.approvals.reasonModalIntro({ summary }).slice(0, 3000)),
      inputBlock(
        APPROVAL_IDS.reasonBlock,
        text.approvals.reasonLabel,
        {
          type: 'plain_text_input',
          multiline: true,
          min_length: MIN_REASON_LENGTH,
          max_length: MAX_REASON_LENGTH,
        },
        { hint: text.approvals.reasonHint },
      ),
    ],
  );
}

/** Where the modal could not be opened at once: a button that opens it (a press brings a new trigger). */
export function reasonPrompt(stashId: string, summary: string): Message {
  const said = text.approvals.reasonAsked({ summary });
  const blocks: KnownBlock[] = [
    section(said.slice(0, 3000)),
    {
      type: 'actions',
      elements: [button(text.approvals.giveReasonButton, APPROVAL_IDS.giveReason, stashId, 'primary')],
    },
  ];
  return { text: said, blocks };
}

/** A frozen class's refusal, with Break glass (contract §3 "Policy"). */
export function breakGlassOffer(stashId: string, refusal: string, freezeName: string): Message {
  const blocks: KnownBlock[] = [
    section(refusal.slice(0, 3000)),
    section(text.approvals.breakGlassOffer),
    {
      type: 'actions',
      elements: [
        {
          ...button(text.approvals.breakGlassButton, APPROVAL_IDS.breakGlass, stashId, 'danger'),
          confirm: {
            title: { type: 'plain_text', text: text.approvals.breakGlassConfirmTitle },
            text: {
              type: 'mrkdwn',
              text: text.approvals.breakGlassConfirmText({ name: freezeName }).slice(0, 300),
            },
            confirm: { type: 'plain_text', text: text.approvals.breakGlassConfirmButton },
            deny: { type: 'plain_text', text: text.slack.cancelButton },
            style: 'danger',
          },
        },
      ],
    },
  ];
  return { text: refusal, blocks };
}
