// The page's sidebar (workspace, "Acting as", channels, App Home): its own DOM and render, apart from the page's flow.
import { el } from './dom.js';
import type { Page } from './page.js';
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

export function createSidebar(page: Page, go: (next: Place) => void) {
  const status = el('span', { class: 'status' }, ['Connecting…']);
  const switcher = el('select', { id: 'user-switcher', 'data-testid': TEST_IDS.userSwitcher });
  const channelList = el('ul', { class: 'channel-list', 'data-testid': TEST_IDS.channelList });
  const homeButton = el('button', { type: 'button', class: 'nav-item', 'data-testid': TEST_IDS.homeTab }, [
    '🏠 Regdesk · Home',
  ]);
  const root = el('nav', { class: 'sidebar', 'aria-label': 'Workspace' }, [
    el('header', { class: 'workspace' }, [el('strong', {}, ['Regdesk playground']), status]),
    el('label', { for: 'user-switcher', class: 'switch-label' }, ['Acting as']),
    switcher,
    el('h3', {}, ['Channels and messages']),
    channelList,
    el('h3', {}, ['Apps']),
    homeButton,
  ]);

  function render(place: Place): void {
    switcher.replaceChildren(
      ...page.snapshot.users.map((u) =>
        el('option', { value: u.id, selected: u.id === page.user ? '' : undefined }, [
          `${u.realName} (@${u.name}${u.isOwner ? ', owner' : u.isAdmin ? ', admin' : ', member'})`,
        ]),
      ),
    );
    switcher.value = page.user;
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
              : [el('span', { class: 'muted' }, [' (no Regdesk)'])]),
          ],
        );
        button.addEventListener('click', () => go({ kind: 'channel', id: channel.id }));
        return el('li', {}, [button]);
      }),
    );
    if (place.kind === 'home') homeButton.setAttribute('aria-current', 'page');
    else homeButton.removeAttribute('aria-current');
  }

  return { root, status, switcher, homeButton, render };
}
