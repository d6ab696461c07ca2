// The page's sidebar (workspace, "Acting as", channels, App Home): its own DOM and render, apart from the page's flow.
import type { Chrome } from './chrome.js';
import { el } from './dom.js';
import { chromeOf, type Page } from './page.js';
import { TEST_IDS } from './protocol.js';
import { channelsFor } from './store.js';

export type Place = { kind: 'channel'; id: string } | { kind: 'home' };

/** A conversation's title as Slack's sidebar shows it: `#name`, `@person`, or the bot's name. */
export function channelTitle(page: Page, id: string): string {
  const channel = page.snapshot.channels.find((c) => c.id === id);
  if (channel === undefined) return id;
  if (channel.kind === 'im') return channel.botMember ? page.snapshot.bot.name : `@${channel.name}`;
  return `#${channel.name}`;
}

/** The stream of events: its state shows next to the workspace's name. */
export type Connection = 'connecting' | 'live' | 'down';

export function createSidebar(page: Page, go: (next: Place) => void) {
  const status = el('span', { class: 'status' });
  let connection: Connection = 'connecting';
  const switcher = el('select', { id: 'user-switcher', 'data-testid': TEST_IDS.userSwitcher });
  // The acting member's Slack language, as Slack's preferences set it: Regdesk answers in it.
  const language = el('select', { id: 'language-switcher', 'data-testid': TEST_IDS.languageSwitcher }, [
    el('option', { value: 'en-US' }, ['English']),
    el('option', { value: 'de-DE' }, ['Deutsch']),
  ]);
  const channelList = el('ul', { class: 'channel-list', 'data-testid': TEST_IDS.channelList });
  const homeButton = el('button', { type: 'button', class: 'nav-item', 'data-testid': TEST_IDS.homeTab });
  // Built once; their words follow the acting member's language in render().
  const title = el('strong');
  const actingAs = el('label', { for: 'user-switcher', class: 'switch-label' });
  const channelsHeading = el('h3');
  const appsHeading = el('h3');
  const root = el('nav', { class: 'sidebar' }, [
    el('header', { class: 'workspace' }, [title, status]),
    actingAs,
    switcher,
    // In both languages, so whoever reads the other one still finds the way back.
    el('label', { for: 'language-switcher', class: 'switch-label' }, ['Slack language · Sprache']),
    language,
    channelsHeading,
    channelList,
    appsHeading,
    homeButton,
  ]);

  function paintStatus(words: Chrome): void {
    status.textContent = { connecting: words.connecting, live: words.live, down: words.reconnecting }[
      connection
    ];
    status.className = { connecting: 'status', live: 'status live', down: 'status down' }[connection];
  }

  /** `words`: before the first snapshot there is no acting member to take the language from. */
  function setConnection(next: Connection, words: Chrome): void {
    connection = next;
    paintStatus(words);
  }

  function render(place: Place): void {
    const words = chromeOf(page);
    root.setAttribute('aria-label', words.workspace);
    title.textContent = words.playground;
    actingAs.textContent = words.actingAs;
    channelsHeading.textContent = words.channelsAndMessages;
    appsHeading.textContent = words.apps;
    homeButton.textContent = `🏠 ${page.snapshot.bot.name} · ${words.home}`;
    paintStatus(words);
    switcher.replaceChildren(
      ...page.snapshot.users.map((u) =>
        el('option', { value: u.id, selected: u.id === page.user ? '' : undefined }, [
          `${u.realName} (@${u.name}, ${u.isOwner ? words.role.owner : u.isAdmin ? words.role.admin : words.role.member})`,
        ]),
      ),
    );
    switcher.value = page.user;
    // The member's language as Regdesk and the page judge it (chrome.ts), not a rule of its own.
    language.value = chromeOf(page).lang === 'de' ? 'de-DE' : 'en-US';
    channelList.replaceChildren(
      ...channelsFor(page.snapshot, page.user).map((channel) => {
        const current = place.kind === 'channel' && place.id === channel.id;
        const name = channel.kind === 'im' ? `💬 ${channelTitle(page, channel.id)}` : `# ${channel.name}`;
        const button = el(
          'button',
          { type: 'button', class: 'nav-item', 'aria-current': current ? 'page' : undefined },
          [
            name,
            ...(channel.botMember || channel.kind === 'im'
              ? []
              : [el('span', { class: 'muted' }, [` ${words.withoutRegdesk}`])]),
          ],
        );
        button.addEventListener('click', () => go({ kind: 'channel', id: channel.id }));
        return el('li', {}, [button]);
      }),
    );
    if (place.kind === 'home') homeButton.setAttribute('aria-current', 'page');
    else homeButton.removeAttribute('aria-current');
  }

  return { root, switcher, language, homeButton, render, setConnection };
}
