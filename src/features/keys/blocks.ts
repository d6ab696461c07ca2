import type { KnownBlock, View } from '@slack/types';
import { formModal, noticeModal, slackDate } from '../../slack/blocks.js';
import { inputBlock } from '../../slack/modal.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import { KEY_IDS } from './ids.js';
import type { KeyStatus } from './service.js';

export function describeKeyStatus(status: KeyStatus): string {
  switch (status.state) {
    case 'set': {
      const who = status.updatedBy.startsWith('U')
        ? `<@${status.updatedBy}>`
        : escapeMrkdwn(status.updatedBy);
      const when = status.updatedAt > 0 ? slackDate(status.updatedAt) : 'an unknown time';
      const warning = status.readable
        ? ''
        : ' :warning: It cannot be opened with the current vault key; set it again.';
      return `Stored key \`${status.masked}\`, set by ${who} on ${when}.${warning}`;
    }
    case 'sandbox':
      return "No key of this workspace's own is stored: Regdesk uses the sandbox's demo key.";
    case 'missing':
      return 'No key is stored. Registrar commands will not work until an admin adds one.';
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
      status.state === 'set' ? 'New API key' : 'API key',
      {
        type: 'plain_text_input',
        placeholder: { type: 'plain_text', text: 'Paste the registrar API key' },
        max_length: 500,
      },
      {
        optional: true,
        hint: 'Checked with the registrar before it is stored, then kept encrypted. Nobody can read it back.',
      },
    ),
  );
  if (status.state === 'set') {
    blocks.push(
      inputBlock(
        KEY_IDS.removeBlock,
        'Remove',
        {
          type: 'checkboxes',
          options: [
            { text: { type: 'plain_text', text: 'Remove the stored key' }, value: KEY_IDS.removeOption },
          ],
        },
        { optional: true },
      ),
    );
  }
  return formModal(KEY_IDS.modal, undefined, 'Registrar API key', 'Save', blocks);
}

/** Shown while the registrar checks the key (the submission is acked at once, docs/requirements.md R1). */
export function checkingModal(): View {
  return noticeModal(
    'Registrar API key',
    ':hourglass_flowing_sand: Checking the key with the registrar…',
    KEY_IDS.modal,
  );
}

export function doneModal(text: string): View {
  return noticeModal('Registrar API key', text, KEY_IDS.modal);
}
