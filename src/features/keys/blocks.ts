import type { KnownBlock, View } from '@slack/types';
import { formModal, mention, noticeModal, slackDate } from '../../slack/blocks.js';
import { inputBlock } from '../../slack/modal.js';
import { markup, text } from '../../text/index.js';
import { KEY_IDS } from './ids.js';
import type { KeyStatus } from './service.js';

export function describeKeyStatus(status: KeyStatus): string {
  switch (status.state) {
    case 'set': {
      const when =
        status.updatedAt > 0 ? slackDate(status.updatedAt) : markup(text.workspace.keyStatusUnknownTime);
      return text.workspace.keyStatusSet({
        masked: status.masked,
        who: mention(status.updatedBy),
        when,
        readable: status.readable,
      });
    }
    case 'sandbox':
      return text.workspace.keyStatusSandbox;
    case 'missing':
      return text.workspace.keyStatusMissing;
  }
}

/** The `/domain key` modal; `notice` reports the outcome of the last attempt (shown above the form). */
export function keyModal(status: KeyStatus, notice?: string): View {
  const blocks: KnownBlock[] = [];
  if (notice !== undefined) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: notice } });
  blocks.push(
    { type: 'section', text: { type: 'mrkdwn', text: describeKeyStatus(status) } },
    inputBlock(
      KEY_IDS.keyBlock,
      status.state === 'set' ? text.workspace.keyFieldLabelNew : text.workspace.keyFieldLabel,
      {
        type: 'plain_text_input',
        placeholder: { type: 'plain_text', text: text.workspace.keyFieldPlaceholder },
        max_length: 500,
      },
      {
        optional: true,
        hint: text.workspace.keyFieldHint,
      },
    ),
  );
  if (status.state === 'set') {
    blocks.push(
      inputBlock(
        KEY_IDS.removeBlock,
        text.workspace.keyRemoveLabel,
        {
          type: 'checkboxes',
          options: [
            {
              text: { type: 'plain_text', text: text.workspace.keyRemoveOption },
              value: KEY_IDS.removeOption,
            },
          ],
        },
        { optional: true },
      ),
    );
  }
  return formModal(
    KEY_IDS.modal,
    undefined,
    text.workspace.keyModalTitle,
    text.workspace.keyModalSubmit,
    blocks,
  );
}

/** Shown while the registrar checks the key (the submission is acked at once, docs/requirements.md R1). */
export function checkingModal(): View {
  return noticeModal(text.workspace.keyModalTitle, text.workspace.keyChecking, KEY_IDS.modal);
}

export function doneModal(message: string): View {
  return noticeModal(text.workspace.keyModalTitle, message, KEY_IDS.modal);
}
