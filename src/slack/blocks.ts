import type { Button, KnownBlock, View } from '@slack/types';
import { type Markup, markup, text } from '../text/index.js';
import { escapeMrkdwn, truncate } from './mrkdwn.js';

/** Shared Block Kit helpers. Limits: section text 3000, header 150, context element text 3000. */
export function section(text: string): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: truncate(text, 3000) } };
}

export function header(text: string): KnownBlock {
  return { type: 'header', text: { type: 'plain_text', text: truncate(text, 150), emoji: true } };
}

export function context(...texts: string[]): KnownBlock {
  return {
    type: 'context',
    elements: texts.slice(0, 10).map((text) => ({ type: 'mrkdwn' as const, text: truncate(text, 3000) })),
  };
}

export function divider(): KnownBlock {
  return { type: 'divider' };
}

/** Slack renders `<!date^…>` in the reader's own time zone; the fallback is UTC. */
export function slackDate(ms: number, format = '{date_short_pretty} {time}'): Markup {
  const seconds = Math.floor(ms / 1000);
  const fallback = new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
  return markup(`<!date^${seconds}^${format}|${fallback} UTC>`);
}

/** A mention of a Slack user (`U…`/`W…` ids only: anything else is written as words). */
export function mention(user: string): Markup {
  return markup(/^[UW][A-Z0-9]+$/.test(user) ? `<@${user}>` : escapeMrkdwn(user));
}

/** A link to a Slack conversation (a `C…`, `G…` or `D…` id), shown as its name in each client. */
export function conversationLink(channel: string): Markup {
  return markup(/^[CGD][A-Z0-9]+$/.test(channel) ? `<#${channel}>` : escapeMrkdwn(channel));
}

/**
 * A button. `label` is what a screen reader says instead of the text: buttons repeated down a list or
 * across messages ("Approve", "Watch") name their target there, or a listener hears ten alike
 * (Block Kit `accessibility_label`, at most 75 characters).
 */
export function button(
  text: string,
  actionId: string,
  value: string,
  style?: 'primary' | 'danger',
  label?: string,
): Button {
  return {
    type: 'button',
    text: { type: 'plain_text', text: truncate(text, 75), emoji: true },
    action_id: actionId,
    value,
    ...(style === undefined ? {} : { style }),
    ...(label === undefined ? {} : { accessibility_label: truncate(label, 75) }),
  };
}

/** A modal with a form: Submit and Cancel; `privateMetadata` carries what the submission needs. */
export function formModal(
  callbackId: string,
  privateMetadata: string | undefined,
  title: string,
  submit: string,
  blocks: View['blocks'],
): View {
  return {
    type: 'modal',
    callback_id: callbackId,
    ...(privateMetadata === undefined ? {} : { private_metadata: privateMetadata }),
    title: { type: 'plain_text', text: title },
    submit: { type: 'plain_text', text: submit },
    close: { type: 'plain_text', text: text.slack.cancelButton },
    blocks,
  };
}

/** A modal that only tells something (the outcome of a submission), with a Close button. */
export function noticeModal(title: string, message: string, callbackId: string): View {
  return {
    type: 'modal',
    callback_id: callbackId,
    title: { type: 'plain_text', text: truncate(title, 24) },
    close: { type: 'plain_text', text: text.slack.closeButton },
    blocks: [section(message)],
  };
}

/** Sections holding as many whole lines as fit in Slack's 3000-character section text. */
export function packLines(lines: readonly string[], max = 2_900): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  let current = '';
  for (const line of lines) {
    const piece = truncate(line, max);
    if (current !== '' && current.length + 1 + piece.length > max) {
      blocks.push(section(current));
      current = '';
    }
    current = current === '' ? piece : `${current}\n${piece}`;
  }
  if (current !== '') blocks.push(section(current));
  return blocks;
}
