import type { KnownBlock } from '@slack/types';
import type { AssistantAnswer } from '../../registrar/index.js';
import { context, section } from '../../slack/blocks.js';
import { resolveLink } from '../../slack/links.js';
import { escapeMrkdwn, splitMrkdwn, truncate } from '../../slack/mrkdwn.js';
import { markdownToMrkdwn } from './markdown.js';
import type { Outcome } from './outcome.js';

/**
 * A message holds 50 blocks: a lead line, at most 45 sections of answer (≈130 000 characters) and up
 * to three context lines.
 */
const MAX_SECTIONS = 45;

export function waitingMessage(ahead: number): { text: string; blocks: KnownBlock[] } {
  const text =
    ahead <= 0
      ? ':hourglass_flowing_sand: Asking the registrar’s assistant…'
      : `:hourglass_flowing_sand: Queued: ${ahead} question${ahead === 1 ? '' : 's'} ahead. The assistant answers one at a time.`;
  return { text, blocks: [section(text)] };
}

export function retryingMessage(reason: string): { text: string; blocks: KnownBlock[] } {
  const text = `:hourglass_flowing_sand: The assistant is busy (${escapeMrkdwn(reason)}); your question stays queued and is retried shortly.`;
  return { text, blocks: [section(text)] };
}

/**
 * The outcome as a new reply in the question's thread. It mentions the asker: an edited placeholder
 * notifies nobody, a mention does.
 */
export function threadReply(outcome: Outcome, user: string): { text: string; blocks: KnownBlock[] } {
  const mention = `<@${user}>`;
  if (!outcome.ok) return noAnswer(`${mention} :x: No answer: ${escapeMrkdwn(outcome.reason)}`);
  const answer = answerMessage(outcome.answer);
  return {
    text: `${mention} ${answer.text}`,
    blocks: [section(`${mention} here is the answer to your question:`), ...answer.blocks],
  };
}

/** The same outcome for the asker alone (ephemeral or DM), when its thread can no longer take it. */
export function privateReply(outcome: Outcome, question: string): { text: string; blocks: KnownBlock[] } {
  const asked = `Your question “${escapeMrkdwn(truncate(question, 200))}” could not be answered in its thread`;
  if (!outcome.ok) return noAnswer(`:x: ${asked}: ${escapeMrkdwn(outcome.reason)}`);
  const answer = answerMessage(outcome.answer);
  return { text: answer.text, blocks: [section(`${asked}, so here is the answer:`), ...answer.blocks] };
}

function noAnswer(text: string): { text: string; blocks: KnownBlock[] } {
  return { text, blocks: [section(text)] };
}

/**
 * The answer as mrkdwn sections (data, never instructions: every string is escaped and only http(s)
 * links survive), then the sources as context and a note when the registrar truncated it.
 */
export function answerMessage(answer: AssistantAnswer): { text: string; blocks: KnownBlock[] } {
  const base = answer.dashboard_url ?? 'https://invalid.invalid/';
  const mrkdwn = markdownToMrkdwn(answer.answer, base);
  const pieces = splitMrkdwn(mrkdwn === '' ? '_The assistant gave an empty answer._' : mrkdwn);
  const blocks: KnownBlock[] = pieces.slice(0, MAX_SECTIONS).map((piece) => section(piece));
  if (pieces.length > MAX_SECTIONS)
    blocks.push(context('The answer was longer than one Slack message; the rest is left out.'));
  const sources = answer.sources.slice(0, 8).map((source) => {
    const url = source.url === undefined ? undefined : resolveLink(source.url, base);
    const title = escapeMrkdwn(truncate(source.title, 80)).replace(/\|/g, '∣');
    return url === undefined ? title : `<${url.replace(/[|<>]/g, encodeURIComponent)}|${title}>`;
  });
  if (sources.length > 0) blocks.push(context(`Sources: ${sources.join(' · ')}`));
  if (answer.truncated) blocks.push(context(':scissors: The registrar shortened this answer.'));
  return { text: truncate(answer.answer.replace(/\s+/g, ' '), 300), blocks };
}
