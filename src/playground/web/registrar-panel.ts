import { post } from './api.js';
import type { Chrome } from './chrome.js';
import { formatOffset } from './clock-offset.js';
import { el } from './dom.js';
import { chromeOf, type Page } from './page.js';
import { type RegistrarSnapshot, TEST_IDS } from './protocol.js';

const HOUR = 3_600_000;
const STEPS: Array<{ step: keyof Chrome['steps']; ms: number }> = [
  { step: 'hour', ms: HOUR },
  { step: 'day', ms: 24 * HOUR },
  { step: 'week', ms: 7 * 24 * HOUR },
];
const PANEL_ID = 'registrar-panel';
/** Enough rows to follow a flow; the server keeps its own bounded list. */
const SHOWN_REQUESTS = 30;

/** What the simulated registrar received and holds, and the control that moves its clock. */
export function createRegistrarPanel(page: Page) {
  const clock = el('p', { class: 'clock' });
  const buttons = STEPS.map(({ step, ms }) => {
    const button = el('button', { type: 'button', class: 'btn' });
    button.addEventListener('click', async () => {
      const words = chromeOf(page);
      button.disabled = true;
      const result = await post('clock', { advanceMs: ms }, words);
      button.disabled = false;
      page.report(result, words.clockNotMoved);
    });
    return { step, button };
  });
  const clockButtons = el(
    'div',
    { class: 'clock-buttons', role: 'group', 'data-testid': TEST_IDS.clockForward },
    buttons.map(({ button }) => button),
  );
  // Built once; their words follow the acting member's language in render().
  const heading = el('h2');
  const requestsHeading = el('h3');
  const columns = el('tr');
  const accountHeading = el('h3');
  const requests = el('tbody');
  const account = el('div', { class: 'account' });
  const root = el('aside', { class: 'registrar', id: PANEL_ID, 'data-testid': TEST_IDS.registrarPanel }, [
    heading,
    el('div', { class: 'clock-row' }, [clock, clockButtons]),
    requestsHeading,
    el('div', { class: 'table-wrap' }, [
      el('table', { class: 'requests' }, [el('thead', {}, [columns]), requests]),
    ]),
    accountHeading,
    account,
  ]);
  // Below 1,100 px the panel folds away (style.css); this button, in the sidebar, brings it back.
  const toggle = el('button', {
    type: 'button',
    class: 'btn registrar-toggle',
    'aria-controls': PANEL_ID,
    'aria-expanded': 'false',
    'data-testid': TEST_IDS.registrarToggle,
  });
  toggle.addEventListener('click', () => {
    const open = root.classList.toggle('open');
    toggle.setAttribute('aria-expanded', String(open));
  });

  const render = (registrar: RegistrarSnapshot) => {
    const words = chromeOf(page);
    const state = (value: string) => words.states[value] ?? value;
    root.setAttribute('aria-label', words.registrar);
    toggle.textContent = `🕒 ${words.showRegistrar}`;
    heading.textContent = words.registrarSandbox;
    clockButtons.setAttribute('aria-label', words.fastForward);
    for (const { step, button } of buttons) button.textContent = words.steps[step];
    requestsHeading.textContent = words.requestsMade;
    const { method, path, status, limit } = words.columns;
    columns.replaceChildren(...[method, path, status, limit].map((h) => el('th', { scope: 'col' }, [h])));
    accountHeading.textContent = words.seededAccount;
    clock.textContent = words.clock({ offset: formatOffset(registrar.clockOffsetMs, words) });
    const rows = registrar.requests.slice(-SHOWN_REQUESTS).reverse();
    requests.replaceChildren(
      ...(rows.length === 0
        ? [el('tr', {}, [el('td', { colspan: '4', class: 'empty' }, [words.noRequests])])]
        : rows.map((r) =>
            el('tr', { class: r.status >= 400 ? 'failed' : '' }, [
              el('td', {}, [r.method]),
              el('td', { class: 'path', title: r.path }, [r.path]),
              el('td', {}, [String(r.status)]),
              el('td', {}, [r.limit ?? '—']),
            ]),
          )),
    );
    const { domains, certificates, organizations } = registrar.account;
    account.replaceChildren(
      section(
        words.domains({ count: domains.length }),
        domains.map((d) =>
          [
            d.name,
            d.expires ? words.expires({ date: d.expires.slice(0, 10) }) : '',
            d.dnssec ? `DNSSEC ${d.dnssec.split(' → ').map(state).join(' → ')}` : '',
          ]
            .filter(Boolean)
            .join(' · '),
        ),
      ),
      section(
        words.certificates({ count: certificates.length }),
        certificates.map(
          (c) => `${c.commonName} · ${state(c.status)}${c.product ? ` · ${c.product}` : ''} (${c.id})`,
        ),
      ),
      section(
        words.organizations({ count: organizations.length }),
        organizations.map((o) => `${o.name} (${o.id})`),
      ),
    );
  };
  return { root, toggle, render };
}

function section(title: string, lines: string[]): HTMLElement {
  return el('details', { open: '' }, [
    el('summary', {}, [title]),
    el(
      'ul',
      {},
      lines.map((line) => el('li', { dir: 'auto' }, [line])),
    ),
  ]);
}
