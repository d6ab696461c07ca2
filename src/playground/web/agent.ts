import { post } from './api.js';
import { el } from './dom.js';
import { chromeOf, type Page } from './page.js';
import { type PlaygroundSnapshot, TEST_IDS } from './protocol.js';
import { encodeMessage } from './store.js';

/**
 * Slack's agent messaging in the page: the Messages tab is a member's DM with the bot; Regdesk pins
 * suggested prompts to its top, and a thread's status ("Regdesk is looking it up…") shows under it
 * while a question waits or runs.
 */

/** The member's DM with the bot: Regdesk's Messages tab. */
export function isMessagesTab(snapshot: PlaygroundSnapshot, channel: string): boolean {
  const conversation = snapshot.channels.find((c) => c.id === channel);
  return conversation?.kind === 'im' && conversation.botMember;
}

/** Tells Regdesk the member opened its Messages tab (`app_home_opened` with `tab: messages`). */
export async function openMessagesTab(page: Page): Promise<void> {
  const words = chromeOf(page);
  const result = await post('home-opened', { user: page.user, tab: 'messages' }, words);
  page.report(result, words.homeNotOpened);
}

/** The pinned prompts above the composer; choosing one sends its message, as Slack does. */
export function renderSuggestedPrompts(page: Page, channel: string): HTMLElement[] {
  const pinned = page.snapshot.suggestedPrompts[channel];
  if (pinned === undefined || !isMessagesTab(page.snapshot, channel)) return [];
  const words = chromeOf(page);
  const buttons = pinned.prompts.map((prompt) => {
    const button = el('button', { type: 'button', class: 'prompt', title: prompt.message }, [prompt.title]);
    button.addEventListener('click', () => {
      void post(
        'composer',
        { user: page.user, channel, text: encodeMessage(page.snapshot, prompt.message) },
        words,
      ).then((result) => {
        page.report(result, words.promptNotSent);
      });
    });
    return button;
  });
  return [
    el('div', { class: 'suggested-prompts', 'data-testid': TEST_IDS.suggestedPrompts, role: 'group' }, [
      ...(pinned.title === undefined ? [] : [el('p', { class: 'prompts-title' }, [pinned.title])]),
      ...buttons,
    ]),
  ];
}

/** "Regdesk is in queue, 1 ahead…" under a thread while its status is set. */
export function threadStatus(page: Page, channel: string, ts: string): HTMLElement[] {
  const status = page.snapshot.threadStatuses[`${channel}:${ts}`];
  if (status === undefined || status === '') return [];
  return [
    el('p', { class: 'thread-status', role: 'status', 'data-testid': TEST_IDS.threadStatus }, [
      `${page.snapshot.bot.name} ${status}`,
    ]),
  ];
}
