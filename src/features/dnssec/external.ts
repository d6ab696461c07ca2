import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { View } from '@slack/types';
import { displayName } from '../../shared/domain-names.js';
import type { Logger } from '../../shared/logger.js';
import { section } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { workspaceOf } from '../../slack/workspace.js';
import { type Requests, requestApproval } from '../approvals/request.js';
import { setExternalDnssec } from './operations.js';

export const EXTERNAL_IDS = {
  open: 'dnssec.external.open',
  modal: 'dnssec.external.modal',
  block: 'dnssec.external.records',
  input: 'dnssec.external.records.value',
} as const;

/** What the registrar accepts for this domain (docs/registrar-api.md §2.4 capabilities), carried through Slack. */
export interface ExternalContext {
  domain: string;
  channel: string;
  kinds: string[];
  algorithms: number[];
  minRecords: number;
}

export interface ParsedRecord {
  kind: 'ds' | 'dnskey';
  algorithm: number;
  key_tag?: number;
  digest_type?: number;
  digest?: string;
  flags?: number;
  protocol?: number;
  public_key?: string;
}

/**
 * One record a line, in zone-file order: `DS <key tag> <algorithm> <digest type> <digest>` or
 * `DNSKEY <flags> <protocol> <algorithm> <public key>`. Checked against the capabilities before
 * anything is sent (docs/registrar-api.md §8: at least `min_records`, only accepted kinds and algorithms).
 */
export function parseRecords(
  text: string,
  ctx: ExternalContext,
): { records: ParsedRecord[] } | { error: string } {
  const records: ParsedRecord[] = [];
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  for (const [index, line] of lines.entries()) {
    const [kindText = '', ...parts] = line.replace(/\s+IN\s+/i, ' ').split(/\s+/);
    const kind = kindText.toLowerCase();
    const numbers = parts.slice(0, 3).map(Number);
    if (
      kind === 'ds' &&
      parts.length >= 4 &&
      numbers.every(Number.isInteger) &&
      /^[0-9a-f]+$/i.test(parts.slice(3).join(''))
    ) {
      records.push({
        kind: 'ds',
        key_tag: numbers[0] ?? 0,
        algorithm: numbers[1] ?? 0,
        digest_type: numbers[2] ?? 0,
        digest: parts.slice(3).join('').toUpperCase(),
      });
    } else if (kind === 'dnskey' && parts.length >= 4 && numbers.every(Number.isInteger)) {
      records.push({
        kind: 'dnskey',
        flags: numbers[0] ?? 0,
        protocol: numbers[1] ?? 0,
        algorithm: numbers[2] ?? 0,
        public_key: parts.slice(3).join(''),
      });
    } else {
      return { error: `Line ${index + 1} is not a DS or DNSKEY record in zone-file form.` };
    }
    const record = records.at(-1);
    if (record !== undefined && !ctx.kinds.includes(record.kind))
      return {
        error: `Line ${index + 1}: the registry accepts only ${ctx.kinds.join(', ').toUpperCase()} records.`,
      };
    if (record !== undefined && !ctx.algorithms.includes(record.algorithm)) {
      return {
        error: `Line ${index + 1}: algorithm ${record.algorithm} is not accepted (accepted: ${ctx.algorithms.join(', ')}).`,
      };
    }
  }
  if (records.length < ctx.minRecords) return { error: `At least ${ctx.minRecords} record(s) are needed.` };
  if (records.length > 10) return { error: 'At most 10 records.' };
  return { records };
}

export function externalModal(ctx: ExternalContext): View {
  return {
    type: 'modal',
    callback_id: EXTERNAL_IDS.modal,
    private_metadata: JSON.stringify(ctx),
    title: { type: 'plain_text', text: 'External DNSSEC' },
    submit: { type: 'plain_text', text: 'Request approval' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      section(
        `${codeSpan(displayName(ctx.domain))} uses external nameservers: paste the records your DNS provider shows. ` +
          `Accepted: ${ctx.kinds.join(', ').toUpperCase()}, algorithms ${ctx.algorithms.join(', ')}, at least ${ctx.minRecords}. ` +
          'Changing them needs a second person’s approval.',
      ),
      {
        type: 'input',
        block_id: EXTERNAL_IDS.block,
        label: { type: 'plain_text', text: 'Records' },
        element: {
          type: 'plain_text_input',
          action_id: EXTERNAL_IDS.input,
          multiline: true,
          max_length: 3_000,
          placeholder: { type: 'plain_text', text: 'DS 12345 13 2 49FD46E6C4B45C55D4AC…' },
        },
      },
    ],
  };
}

/** The button opens the modal (a fresh trigger_id, docs/requirements.md R2); the submission asks for approval. */
export function registerExternalRecords(
  app: App,
  approvals: Requests<typeof setExternalDnssec>,
  logger: Logger,
): void {
  app.action<BlockAction<ButtonAction>>(EXTERNAL_IDS.open, async ({ ack, body, action, client }) => {
    await ack();
    const ctx = JSON.parse(action.value ?? '{}') as ExternalContext;
    await client.views.open({ trigger_id: body.trigger_id, view: externalModal(ctx) });
  });
  app.view(EXTERNAL_IDS.modal, async ({ ack, body, view, client }) => {
    const ctx = JSON.parse(view.private_metadata) as ExternalContext;
    const parsed = parseRecords(
      view.state.values[EXTERNAL_IDS.block]?.[EXTERNAL_IDS.input]?.value ?? '',
      ctx,
    );
    if ('error' in parsed) {
      await ack({ response_action: 'errors', errors: { [EXTERNAL_IDS.block]: parsed.error } });
      return;
    }
    await ack();
    await requestApproval(
      approvals,
      {
        workspace: workspaceOf(body),
        user: body.user.id,
        channel: ctx.channel,
        operation: setExternalDnssec,
        params: { domain: ctx.domain, records: parsed.records },
      },
      client,
      (text) =>
        client.chat
          .postEphemeral({ channel: ctx.channel, user: body.user.id, text })
          .catch((error: unknown) => logger.warn({ err: replyForError(error, logger).text }, 'reply failed')),
      logger,
    );
  });
}
