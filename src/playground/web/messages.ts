import { threadStatus } from './agent.js';
import { post } from './api.js';
import { formatSlackDate } from './dates.js';
import { el, toDom } from './dom.js';
import { emojiFor } from './emoji.js';
import { chromeOf, type Page, renderContext } from './page.js';
import { type PlaygroundMessage, TEST_IDS } from './protocol.js';
import { renderBlocks } from './render-blocks.js';
import { renderMrkdwn } from './render-text.js';
import { findUser, replyCount } from './store.js';

const QUICK_REACTIONS = ['white_check_mark', 'eyes', '+1'];

/** One message as Slack shows it: author, time, body from its blocks (else its text), extras. */
export function renderMessage(page: Page, message: PlaygroundMessage, inThread: boolean): HTMLElement {
  const ctx = renderContext(page);
  const words = chromeOf(page);
  const nameOf = (id: string) =>
    id === page.snapshot.bot.userId ? page.snapshot.bot.name : (findUser(page.snapshot, id)?.realName ?? id);
  const author = message.fromBot ? page.snapshot.bot.name : nameOf(message.user ?? '') || words.someone;
  const time = formatSlackDate(Number(message.ts), '{time}', ctx.viewer, ctx.now);
  const header = el('div', { class: 'message-header' }, [
    el('span', { class: 'author', dir: 'auto' }, [author]),
    ...(message.fromBot ? [el('span', { class: 'badge' }, [words.app])] : []),
    el('time', { class: 'time', datetime: new Date(Number(message.ts) * 1000).toISOString() }, [time]),
    ...(message.edited === true ? [el('span', { class: 'edited' }, [words.edited])] : []),
  ]);
  const article = el(
    'article',
    {
      class: `message${message.ephemeralTo === undefined ? '' : ' ephemeral'}`,
      'data-testid': TEST_IDS.message,
      'data-channel': message.channel,
      'data-ts': message.ts,
    },
    [header],
  );
  if (message.ephemeralTo !== undefined) {
    article.append(el('div', { class: 'only-you' }, [`👁 ${words.onlyVisibleToYou}`]));
  }
  const blocks = Array.isArray(message.blocks) && message.blocks.length > 0 ? message.blocks : undefined;
  const { system } = message;
  if (system !== undefined) {
    // Slack words its own membership messages in the reader's language, not in the stored text's.
    const channel = page.snapshot.channels.find((c) => c.id === message.channel)?.name ?? message.channel;
    const member = nameOf(system.member);
    const said =
      system.kind === 'joined'
        ? words.joined({ member, channel, ...(system.by === undefined ? {} : { by: nameOf(system.by) }) })
        : words.left({ member, channel });
    article.classList.add('system');
    article.append(el('p', { class: 'message-text' }, [said]));
  } else {
    const body =
      blocks === undefined
        ? renderMrkdwn(ctx, message.text ?? '', 'message-text')
        : renderBlocks(ctx, blocks, 'message', `m${message.ts}`);
    article.append(toDom(body));
  }
  if (message.files.length > 0) article.append(renderFiles(message, ctx.viewer.locale));
  const row = renderReactions(page, message);
  if (message.ephemeralTo === undefined && page.snapshot.messageShortcuts.length > 0)
    row.append(renderShortcuts(page, message));
  article.append(row);
  if (!inThread) {
    const replies = replyCount(page.snapshot, message, page.user);
    const tools = el('div', { class: 'message-tools' });
    const open = el('button', { type: 'button', class: 'link-button thread-link' }, [
      replies === 0 ? words.replyInThread : words.replies({ count: replies }),
    ]);
    open.addEventListener('click', () => page.openThread(message.channel, message.ts));
    tools.append(open, ...threadStatus(page, message.channel, message.ts));
    article.append(tools);
  }
  return article;
}

/** A message's "More actions" menu: the app's message shortcuts (Slack offers none on ephemerals). */
function renderShortcuts(page: Page, message: PlaygroundMessage): HTMLElement {
  const words = chromeOf(page);
  const menu = el(
    'select',
    { class: 'more-actions', 'aria-label': words.moreActions, 'data-testid': TEST_IDS.moreActions },
    [
      el('option', { value: '' }, ['⋯']),
      ...page.snapshot.messageShortcuts.map((shortcut) =>
        el('option', { value: shortcut.callbackId }, [shortcut.name]),
      ),
    ],
  );
  menu.addEventListener('change', () => {
    const callbackId = menu.value;
    menu.value = '';
    if (callbackId === '') return;
    void post(
      'shortcut',
      { user: page.user, channel: message.channel, ts: message.ts, callbackId },
      words,
    ).then((result) => {
      page.report(result, words.shortcutFailed);
    });
  });
  return menu;
}

function renderFiles(message: PlaygroundMessage, locale: string): HTMLElement {
  const list = el('ul', { class: 'files' });
  for (const file of message.files) {
    // Files are served by the playground itself; any other URL is shown, not linked.
    const local = /^\/playground\/files\/[A-Za-z0-9._-]+$/.test(file.url);
    const label = `${file.title ?? file.name} (${formatSize(file.size, locale)})`;
    const item = local
      ? el('a', { href: file.url, download: file.name, class: 'file' }, [`📄 ${label}`])
      : el('span', { class: 'file' }, [`📄 ${label}`]);
    list.append(el('li', {}, [item]));
  }
  return list;
}

/** `1.5 KB`, or `1,5 KB` for a German reader. */
function formatSize(bytes: number, locale: string): string {
  const oneDecimal = new Intl.NumberFormat(locale.replace('_', '-'), {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${oneDecimal.format(bytes / 1024)} KB`;
  return `${oneDecimal.format(bytes / 1024 / 1024)} MB`;
}

function renderReactions(page: Page, message: PlaygroundMessage): HTMLElement {
  const words = chromeOf(page);
  const row = el('div', { class: 'reactions' });
  const react = async (name: string) => {
    const result = await post(
      'reaction',
      { user: page.user, channel: message.channel, ts: message.ts, name },
      words,
    );
    page.report(result, words.reactionFailed);
  };
  for (const reaction of message.reactions) {
    const mine = reaction.users.includes(page.user);
    const chip = el(
      'button',
      {
        type: 'button',
        class: `reaction${mine ? ' mine' : ''}`,
        'aria-pressed': String(mine),
        title: words.reactedBy({
          reaction: reaction.name,
          people: reaction.users.map((u) => findUser(page.snapshot, u)?.name ?? u).join(', '),
        }),
      },
      [`${emojiFor(reaction.name) ?? `:${reaction.name}:`} ${reaction.users.length}`],
    );
    chip.addEventListener('click', () => void react(reaction.name));
    row.append(chip);
  }
  const picker = el('select', { class: 'react-picker', 'aria-label': words.addReaction }, [
    el('option', { value: '' }, ['☺︎+']),
    ...QUICK_REACTIONS.map((name) => el('option', { value: name }, [`${emojiFor(name) ?? ''} :${name}:`])),
  ]);
  picker.addEventListener('change', () => {
    if (picker.value !== '') void react(picker.value);
    picker.value = '';
  });
  row.append(picker);
  return row;
}

/**
 * Replaces the children of a message list, keeping the reader at the bottom when they were there
 * (new messages scroll in) and where they were otherwise.
 */
export function fillList(list: HTMLElement, items: HTMLElement[], empty: string): void {
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const previous = list.scrollTop;
  const focus = focusedIn(list);
  list.replaceChildren(...(items.length === 0 ? [el('p', { class: 'empty' }, [empty])] : items));
  list.scrollTop = atBottom ? list.scrollHeight : previous;
  focus?.();
}

/**
 * Re-rendering replaces the elements, so keyboard focus would fall back to the page: remember the
 * focused control by its message and position among that message's controls, and return to it.
 */
function focusedIn(list: HTMLElement): (() => void) | undefined {
  const active = document.activeElement;
  const article = active?.closest('article[data-ts]');
  if (
    !(active instanceof HTMLElement) ||
    article === null ||
    article === undefined ||
    !list.contains(article)
  ) {
    return undefined;
  }
  const ts = article.getAttribute('data-ts') ?? '';
  const index = [...article.querySelectorAll('button, select, input, a')].indexOf(active);
  return () => {
    const again = [...list.querySelectorAll('article[data-ts]')].find(
      (a) => a.getAttribute('data-ts') === ts,
    );
    const target = again?.querySelectorAll('button, select, input, a')[index];
    if (target instanceof HTMLElement) target.focus({ preventScroll: true });
  };
}
