import type { KnownBlock } from '@slack/types';
import type { AssistantAnswer } from '../../registrar/index.js';
import { section } from '../../slack/blocks.js';
import { escapeMrkdwn, splitMrkdwn, truncate } from '../../slack/mrkdwn.js';
import type { Outcome } from './answer.js';
import { formatWait } from './estimate.js';
import { linkResolver } from './links.js';
import { markdownToMrkdwn } from './markdown.js';

/**
 * A message holds 50 blocks: a lead line, at most 45 sections of answer (≈130 000 characters) and up
 * to three context lines.
 */
const MAX_SECTIONS = 45;

export interface Reply {
  text: string;
  blocks: KnownBlock[];
}

/** The placeholder while a question waits: its position and, when known, when it will be answered. */
export function waitingMessage(ahead: number, waitMs?: number): Reply {
  const eta = waitMs === undefined ? '' : ` Answer expected in ${formatWait(waitMs)}.`;
  const text =
    ahead <= 0
      ? ':hourglass_flowing_sand: Asking the registrar’s assistant…'
      : `:hourglass_flowing_sand: Queued: ${ahead} question${ahead === 1 ? '' : 's'} ahead. The assistant answers one at a time.${eta}`;
  return { text, blocks: [section(text)] };
}

/**
 * The same states as an assistant thread's status (`assistant.threads.setStatus`), which Slack shows
 * after the app's name ("Regdesk is looking it up…"), on one short line.
 */
export const panelStatus = {
  waiting: (ahead: number, waitMs: number) =>
    ahead <= 0
      ? `is waiting for the registrar, ${formatWait(waitMs)}…`
      : `is in queue, ${ahead} ahead, ${formatWait(waitMs)}`,
  working: () => 'is looking it up…',
  retrying: () => 'is waiting: the assistant is busy…',
} as const;

export function retryingMessage(reason: string): Reply {
  const text = `:hourglass_flowing_sand: The assistant is busy (${escapeMrkdwn(reason)}); your question stays queued and is retried shortly.`;
  return { text, blocks: [section(text)] };
}

/** What the placeholder in the thread becomes when the outcome went to the asker alone. */
export function answeredPrivately(user: string): Reply {
  const text = `:lock: Answered privately to <@${user}> (this workspace’s setting for the assistant).`;
  return { text, blocks: [section(text)] };
}

/**
 * The outcome as a new reply in the question's thread. It mentions the asker: an edited placeholder
 * notifies nobody, a mention does. `linkHosts`: hosts besides the dashboard that links may go to.
 */
export function threadReply(
  outcome: Outcome,
  user: string,
  linkHosts: readonly string[],
  now: number = Date.now(),
): Reply {
  const mention = `<@${user}>`;
  if (!outcome.ok) return noAnswer(`${mention} :x: No answer: ${escapeMrkdwn(outcome.reason)}`);
  const lead = `${mention} here is the answer to your question:`;
  return {
    text: lead,
    blocks: [section(lead), ...answerBlocks(outcome.answer, linkHosts), ...cacheNote(outcome, now)],
  };
}

/** A cached answer says so, and how old it is (docs/requirements.md C3): it cost no registrar call. */
function cacheNote(outcome: Outcome, now: number): KnownBlock[] {
  if (!outcome.ok || outcome.cachedAt === undefined) return [];
  const minutes = Math.floor(Math.max(0, now - outcome.cachedAt) / 60_000);
  const age = minutes < 1 ? 'less than a minute ago' : `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  return [
    note(
      `:recycle: From the answer cache: the same question was answered ${age}, so this one cost no registrar call.`,
    ),
  ];
}

/**
 * The same outcome for the asker alone (ephemeral or DM): because the workspace's policy keeps
 * answers out of the conversation (`policy`), or because its thread can no longer take it (`gone`).
 */
export function privateReply(
  outcome: Outcome,
  question: string,
  why: 'policy' | 'gone',
  linkHosts: readonly string[],
): Reply {
  const asked = `Your question “${escapeMrkdwn(truncate(question, 200))}”`;
  const where = why === 'gone' ? ' could not be answered in its thread' : '';
  if (!outcome.ok) return noAnswer(`:x: ${asked}${where}: ${escapeMrkdwn(outcome.reason)}`);
  const lead = `${asked}${where}${why === 'gone' ? ', so here is the answer' : ', answered only to you'}:`;
  return {
    text: lead,
    blocks: [section(lead), ...answerBlocks(outcome.answer, linkHosts), ...cacheNote(outcome, Date.now())],
  };
}

function noAnswer(text: string): Reply {
  return { text, blocks: [section(text)] };
}

/**
 * The answer as mrkdwn sections, then the sources as context and a note when the registrar
 * truncated it. Everything from the registrar is data, never instructions: every string is escaped,
 * links go only to allowed hosts (`linkResolver`), and the text is `verbatim` so that Slack itself
 * does not turn a refused bare URL back into a link, nor a `#name` or `@here` into something active.
 * The message's `text` (notifications) repeats none of it.
 */
function answerBlocks(answer: AssistantAnswer, linkHosts: readonly string[]): KnownBlock[] {
  const links = linkResolver(answer.dashboard_url, linkHosts);
  const mrkdwn = markdownToMrkdwn(answer.answer, links);
  const pieces = splitMrkdwn(mrkdwn === '' ? '_The assistant gave an empty answer._' : mrkdwn);
  const blocks: KnownBlock[] = pieces.slice(0, MAX_SECTIONS).map((piece) => ({
    type: 'section',
    text: { type: 'mrkdwn', text: truncate(piece, 3000), verbatim: true },
  }));
  if (pieces.length > MAX_SECTIONS)
    blocks.push(note('The answer was longer than one Slack message; the rest is left out.'));
  const sources = answer.sources.slice(0, 8).map((source) => {
    const url = source.url === undefined ? undefined : links(source.url);
    const title = escapeMrkdwn(truncate(source.title, 80)).replace(/\|/g, '∣');
    return url === undefined ? title : `<${url.replace(/[|<>]/g, encodeURIComponent)}|${title}>`;
  });
  if (sources.length > 0) blocks.push(note(`Sources: ${sources.join(' · ')}`));
  if (answer.truncated) blocks.push(note(':scissors: The registrar shortened this answer.'));
  return blocks;
}

function note(text: string): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(text, 3000), verbatim: true }] };
}
