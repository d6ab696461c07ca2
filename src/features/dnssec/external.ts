import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { KnownBlock, View } from '@slack/types';
import { z } from 'zod';
import { displayName } from '../../shared/domain-names.js';
import type { Logger } from '../../shared/logger.js';
import { button, formModal, section } from '../../slack/blocks.js';
import { onAction, onView } from '../../slack/handlers.js';
import { inputBlock, readMetadata, stateOf, writeMetadata } from '../../slack/modal.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { openModal } from '../../slack/views.js';
import { text } from '../../text/index.js';
import { type Requests, requestFromView } from '../approvals/request.js';
import { EXTERNAL_IDS } from './ids.js';
import { setExternalDnssec } from './operations.js';
import { parseRecords, RecordRules } from './service.js';

/** The button's value and the modal's metadata: the domain, where to post the request, and the rules. */
export const ExternalTarget = z.lazy(() =>
  RecordRules.unwrap().extend({
    domain: z.string().min(1).max(253),
    channel: z.string().min(1).max(32),
  }),
);
export type ExternalTarget = z.infer<typeof ExternalTarget>;

/** The reply to `enable` off the service's nameservers: a button, since only a listener may open a modal (R2). */
export function externalPrompt(target: ExternalTarget): { text: string; blocks: KnownBlock[] } {
  return {
    text: text.dns.externalNeedsRecords,
    blocks: [
      section(text.dns.externalNeedsRecordsFor({ name: codeSpan(displayName(target.domain)) })),
      {
        type: 'actions',
        elements: [
          button(
            text.dns.enterRecordsButton,
            EXTERNAL_IDS.open,
            writeMetadata(ExternalTarget, target),
            'primary',
          ),
        ],
      },
    ],
  };
}

function externalModal(target: ExternalTarget): View {
  return formModal(
    EXTERNAL_IDS.modal,
    writeMetadata(ExternalTarget, target),
    text.dns.externalModalTitle,
    text.dns.externalModalSubmit,
    [
      section(
        text.dns.externalModalIntro({
          name: codeSpan(displayName(target.domain)),
          kinds: target.kinds.join(', ').toUpperCase(),
          algorithms: target.algorithms.join(', '),
          min: target.minRecords,
        }),
      ),
      inputBlock(EXTERNAL_IDS.block, text.dns.recordsLabel, {
        type: 'plain_text_input',
        multiline: true,
        max_length: 3_000,
        placeholder: { type: 'plain_text', text: text.dns.recordsPlaceholder },
      }),
    ],
  );
}

/** The button opens the modal (a fresh trigger_id, docs/requirements.md R2); the submission asks for approval. */
export function registerExternalRecords(
  app: App,
  approvals: Requests<typeof setExternalDnssec>,
  logger: Logger,
): void {
  onAction<BlockAction<ButtonAction>>(app, EXTERNAL_IDS.open, logger, async ({ body, action, client }) => {
    const target = readMetadata(ExternalTarget, action.value);
    // Nothing is read first (the rules travel in the button), so the modal opens straight away.
    await openModal(client, body.trigger_id, externalModal(target));
  });
  onView(app, EXTERNAL_IDS.modal, logger, async ({ body, view, client }) => {
    const target = readMetadata(ExternalTarget, view.private_metadata);
    const parsed = parseRecords(stateOf(view.state.values, EXTERNAL_IDS.block).value ?? '', target);
    if ('error' in parsed) {
      return { answer: { response_action: 'errors', errors: { [EXTERNAL_IDS.block]: parsed.error } } };
    }
    // The approval preview reads the registrar: after the ack (docs/requirements.md R1).
    return {
      after: requestFromView(
        approvals,
        { body, client },
        target.channel,
        setExternalDnssec,
        { domain: target.domain, records: parsed.records },
        logger,
      ),
    };
  });
}
