import type { KnownBlock } from '@slack/types';
import type { AssistantAnswer } from '../../registrar/index.js';
import { section } from '../../slack/blocks.js';
import { escapeMrkdwn, splitMrkdwn, truncate } from '../../slack/mrkdwn.js';
import { markup, text } from '../../text/index.js';
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
  const line =
    ahead <= 0
      ? text.assistant.waitingAsking
      : text.assistant.waitingQueued({ ahead, wait: waitMs === undefined ? undefined : formatWait(waitMs) });
  return { text: line, blocks: [section(line)] };
}

/**
 * The same states as an assistant thread's status (`assistant.threads.setStatus`), which Slack shows
 * after the app's name ("Regdesk is looking it up…"), on one short line.
 */
export const panelStatus = {
  waiting: (ahead: number, waitMs: number) =>
    ahead <= 0
      ? text.assistant.statusWaitingForRegistrar({ wait: formatWait(waitMs) })
      : text.assistant.statusInQueue({ ahead, wait: formatWait(waitMs) }),
  working: () => text.assistant.statusWorking,
  retrying: () => text.assistant.statusRetrying,
} as const;

export function retryingMessage(reason: string): Reply {
  const line = text.assistant.retrying({ reason: escapeMrkdwn(reason) });
  return { text: line, blocks: [section(line)] };
}

/** What the placeholder in the thread becomes when the outcome went to the asker alone. */
export function answeredPrivately(user: string): Reply {
  const line = text.assistant.answeredPrivately({ user });
  return { text: line, blocks: [section(line)] };
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
  if (!outcome.ok)
    return noAnswer(text.assistant.threadNoAnswer({ user, reason: escapeMrkdwn(outcome.reason) }));
  const lead = text.assistant.threadAnswerLead({ user });
  return {
    text: lead,
    blocks: [section(lead), ...answerBlocks(outcome.answer, linkHosts), ...cacheNote(outcome, now)],
  };
}

/** A cached answer says so, and how old it is (docs/requirements.md C3): it cost no registrar call. */
function cacheNote(outcome: Outcome, now: number): KnownBlock[] {
  if (!outcome.ok || outcome.cachedAt === undefined) return [];
  const minutes = Math.floor(Math.max(0, now - outcome.cachedAt) / 60_000);
  return [note(text.assistant.cacheNotice({ minutes }))];
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
  const asked = escapeMrkdwn(truncate(question, 200));
  const gone = why === 'gone';
  if (!outcome.ok) {
    const failed = { question: asked, reason: escapeMrkdwn(outcome.reason) };
    return noAnswer(
      gone ? text.assistant.privateNoAnswerThreadGone(failed) : text.assistant.privateNoAnswer(failed),
    );
  }
  const lead = gone
    ? text.assistant.privateAnswerLeadThreadGone({ question: asked })
    : text.assistant.privateAnswerLead({ question: asked });
  return {
    text: lead,
    blocks: [section(lead), ...answerBlocks(outcome.answer, linkHosts), ...cacheNote(outcome, Date.now())],
  };
}

function noAnswer(line: string): Reply {
  return { text: line, blocks: [section(line)] };
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
  const pieces = splitMrkdwn(mrkdwn === '' ? text.assistant.emptyAnswer : mrkdwn);
  const blocks: KnownBlock[] = pieces.slice(0, MAX_SECTIONS).map((piece) => ({
    type: 'section',
    text: { type: 'mrkdwn', text: truncate(piece, 3000), verbatim: true },
  }));
  if (pieces.length > MAX_SECTIONS) blocks.push(note(text.assistant.answerCut));
  const sources = answer.sources.slice(0, 8).map((source) => {
    const url = source.url === undefined ? undefined : links(source.url);
    const title = escapeMrkdwn(truncate(source.title, 80)).replace(/\|/g, '∣');
    return url === undefined ? title : `<${url.replace(/[|<>]/g, encodeURIComponent)}|${title}>`;
  });
  if (sources.length > 0) blocks.push(note(text.assistant.sources({ list: markup(sources.join(' · ')) })));
  if (answer.truncated) blocks.push(note(text.assistant.answerShortened));
  return blocks;
}

function note(line: string): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(line, 3000), verbatim: true }] };
}
