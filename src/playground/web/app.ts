import { isMessagesTab, openMessagesTab, renderSuggestedPrompts, threadStatus } from './agent.js';
import { getState, post, subscribe } from './api.js';
import { chromeFor, DEFAULT_LOCALE } from './chrome.js';
import { createComposer } from './composer.js';
import { el, toDom } from './dom.js';
import { fillList, renderMessage } from './messages.js';
import { createModalHost } from './modal.js';
import { noticeText } from './notices.js';
import { chromeOf, type Page, renderContext, wireActions } from './page.js';
import { type ActionSource, type PlaygroundEvent, type PlaygroundSnapshot, TEST_IDS } from './protocol.js';
import { createRegistrarPanel } from './registrar-panel.js';
import { renderBlocks } from './render-blocks.js';
import { createSidebar, type Place, channelTitle as sidebarTitle } from './sidebar.js';
import { applyEvent, channelsFor, threadOf, timeline } from './store.js';
import { createToasts } from './toasts.js';

/** The playground page: sidebar, conversation or App Home, thread pane, registrar panel, modals. */
async function main(): Promise<void> {
  const root = document.getElementById('app');
  if (root === null) return;
  let place: Place = { kind: 'home' };
  let thread: { channel: string; ts: string } | undefined;
  let loaded = false;

  const toasts = createToasts();
  // The page's words: the acting member's language once the first snapshot has named them.
  const wordsNow = () => (loaded ? chromeOf(page) : chromeFor(DEFAULT_LOCALE));
  const page: Page = {
    // Set before anything renders: nothing reads it until the first snapshot has loaded (`loaded`).
    snapshot: undefined as unknown as PlaygroundSnapshot,
    user: '',
    notify(text) {
      toasts.show(text, wordsNow().dismiss);
    },
    report(result, fallback) {
      if (result.notice !== undefined) toasts.show(noticeText(wordsNow(), result.notice), wordsNow().dismiss);
      else if (!result.ok) toasts.show(result.error ?? fallback, wordsNow().dismiss);
    },
    openThread(channel, ts) {
      thread = { channel, ts };
      renderThread();
      threadComposer.focus();
    },
  };

  // Sidebar.
  const sidebar = createSidebar(page, (next) => go(next));
  const { switcher, language, homeButton } = sidebar;
  sidebar.setConnection('connecting', wordsNow());
  const channelTitle = (id: string) => sidebarTitle(page, id);
  const renderSidebar = () => sidebar.render(place);

  // Conversation.
  const title = el('h1', { class: 'conversation-title' });
  const messageList = el('div', { class: 'message-list', 'data-testid': TEST_IDS.messageList, role: 'log' });
  const homeView = el('div', { class: 'home-view', 'data-home': '' });
  const composer = createComposer(page, () => {
    if (place.kind !== 'channel') return undefined;
    const channel = page.snapshot.channels.find((c) => c.id === (place as { id: string }).id);
    return channel === undefined
      ? undefined
      : { channel: channel.id, label: chromeOf(page).messageTo({ title: channelTitle(channel.id) }) };
  });
  const prompts = el('div', { class: 'prompts-bar' });
  const conversation = el('main', { class: 'conversation' }, [
    title,
    messageList,
    homeView,
    prompts,
    composer.root,
  ]);

  // Thread pane.
  const threadList = el('div', { class: 'message-list thread-list', role: 'log' });
  const threadStatusLine = el('div', { class: 'thread-status-line' });
  const closeThread = el('button', { type: 'button', class: 'icon-button' }, ['✕']);
  const threadComposer = createComposer(page, () =>
    thread === undefined
      ? undefined
      : { channel: thread.channel, threadTs: thread.ts, label: chromeOf(page).replyInThread },
  );
  const threadTitle = el('h2');
  const threadPane = el('aside', { class: 'thread', 'data-testid': TEST_IDS.thread, hidden: '' }, [
    el('header', { class: 'thread-header' }, [threadTitle, closeThread]),
    threadList,
    threadStatusLine,
    threadComposer.root,
  ]);
  closeThread.addEventListener('click', () => {
    thread = undefined;
    renderThread();
  });

  const registrar = createRegistrarPanel(page);
  sidebar.root.append(registrar.toggle);
  const modals = createModalHost(page, () => composer.focus());
  root.classList.remove('loading');
  root.replaceChildren(
    el('div', { class: 'layout' }, [sidebar.root, conversation, threadPane, registrar.root]),
    toasts.root,
  );

  const messageSource = (control: Element): ActionSource | undefined => {
    const article = control.closest('article[data-ts]');
    const channel = article?.getAttribute('data-channel');
    const ts = article?.getAttribute('data-ts');
    return channel && ts ? { kind: 'message', channel, ts } : undefined;
  };
  wireActions(page, messageList, messageSource);
  wireActions(page, threadList, messageSource);
  wireActions(page, homeView, () => ({ kind: 'home' }));

  function renderMain(): void {
    const words = chromeOf(page);
    messageList.setAttribute('aria-label', words.messages);
    const onHome = place.kind === 'home';
    messageList.hidden = onHome;
    homeView.hidden = !onHome;
    composer.root.hidden = onHome;
    prompts.replaceChildren(...(place.kind === 'home' ? [] : renderSuggestedPrompts(page, place.id)));
    if (place.kind === 'home') {
      title.textContent = `${page.snapshot.bot.name} · ${words.home}`;
      const view = page.snapshot.homes[page.user] as { blocks?: unknown } | undefined;
      homeView.replaceChildren(
        view === undefined
          ? el('p', { class: 'empty' }, [words.noHome({ bot: page.snapshot.bot.name })])
          : toDom(renderBlocks(renderContext(page), view.blocks, 'home', 'home')),
      );
      return;
    }
    title.textContent = channelTitle(place.id);
    const items = timeline(page.snapshot, place.id, page.user).map((m) => renderMessage(page, m, false));
    fillList(messageList, items, words.noMessages);
    composer.refresh();
  }

  function renderThread(): void {
    threadPane.hidden = thread === undefined;
    if (thread === undefined) return;
    const words = chromeOf(page);
    threadPane.setAttribute('aria-label', words.thread);
    threadList.setAttribute('aria-label', words.thread);
    threadTitle.textContent = words.thread;
    closeThread.setAttribute('aria-label', words.closeThread);
    const items = threadOf(page.snapshot, thread.channel, thread.ts, page.user).map((m) =>
      renderMessage(page, m, true),
    );
    fillList(threadList, items, words.emptyThread);
    threadStatusLine.replaceChildren(...threadStatus(page, thread.channel, thread.ts));
    threadComposer.refresh();
  }

  function renderAll(): void {
    const words = chromeOf(page);
    document.documentElement.lang = words.lang;
    document.title = words.playground;
    renderSidebar();
    renderMain();
    renderThread();
    registrar.render(page.snapshot.registrar);
    modals.render();
  }

  function go(next: Place): void {
    // As in Slack, a thread belongs to the conversation it was opened from.
    if (thread !== undefined && (next.kind === 'home' || next.id !== thread.channel)) {
      thread = undefined;
      renderThread();
    }
    place = next;
    renderSidebar();
    renderMain();
    if (next.kind === 'home') void openHome();
    else composer.focus();
    if (next.kind === 'channel' && isMessagesTab(page.snapshot, next.id)) void openMessagesTab(page);
  }

  async function openHome(): Promise<void> {
    const result = await post('home-opened', { user: page.user }, wordsNow());
    page.report(result, wordsNow().homeNotOpened);
  }

  switcher.addEventListener('change', () => {
    page.user = switcher.value;
    thread = undefined;
    if (
      place.kind === 'channel' &&
      !channelsFor(page.snapshot, page.user).some((c) => c.id === (place as { id: string }).id)
    ) {
      place = { kind: 'channel', id: defaultChannel() };
    }
    renderAll();
    if (place.kind === 'home') void openHome();
    else if (isMessagesTab(page.snapshot, place.id)) void openMessagesTab(page);
  });
  language.addEventListener('change', async () => {
    const result = await post('language', { user: page.user, locale: language.value }, wordsNow());
    page.report(result, wordsNow().languageNotChanged);
    // What Regdesk showed before (Home) is shown again in the new language.
    if (result.ok && place.kind === 'home') void openHome();
  });
  homeButton.addEventListener('click', () => go({ kind: 'home' }));

  function defaultChannel(): string {
    const channels = channelsFor(page.snapshot, page.user);
    return (channels.find((c) => c.kind === 'public' && c.botMember) ?? channels[0])?.id ?? '';
  }

  function onEvent(event: PlaygroundEvent): void {
    if (!loaded) return;
    page.snapshot = applyEvent(page.snapshot, event);
    switch (event.type) {
      case 'registrar':
        registrar.render(page.snapshot.registrar);
        return;
      case 'views':
        if (event.user === page.user) modals.render();
        return;
      case 'home':
        if (event.user === page.user && place.kind === 'home') renderMain();
        return;
      case 'user':
        // A member's language: the acting member's changes every word on the page, modals included.
        renderAll();
        return;
      default:
        renderSidebar();
        renderMain();
        renderThread();
    }
  }

  subscribe(
    onEvent,
    async () => {
      // Every (re)connection reloads the snapshot: events sent while the stream was down are in it.
      try {
        page.snapshot = await getState(wordsNow());
      } catch (error) {
        page.notify(String(error instanceof Error ? error.message : error));
        return;
      }
      if (!loaded) {
        const admin = page.snapshot.users.find((u) => u.isAdmin) ?? page.snapshot.users[0];
        page.user = admin?.id ?? '';
        place = { kind: 'channel', id: defaultChannel() };
        loaded = true;
      }
      sidebar.setConnection('live', wordsNow());
      renderAll();
    },
    () => {
      sidebar.setConnection('down', wordsNow());
    },
  );
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && thread !== undefined && !document.querySelector('dialog[open]')) {
      thread = undefined;
      renderThread();
    }
  });
}

void main();
