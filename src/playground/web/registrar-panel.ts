import { post } from './api.js';
import { el } from './dom.js';
import type { Page } from './page.js';
import { type RegistrarSnapshot, TEST_IDS } from './protocol.js';

const HOUR = 3_600_000;
const STEPS: Array<{ label: string; ms: number }> = [
  { label: '+1 h', ms: HOUR },
  { label: '+1 day', ms: 24 * HOUR },
  { label: '+7 days', ms: 7 * 24 * HOUR },
];
/** Enough rows to follow a flow; the server keeps its own bounded list. */
const SHOWN_REQUESTS = 30;

export function formatOffset(ms: number): string {
  if (ms <= 0) return 'real time';
  const days = Math.floor(ms / (24 * HOUR));
  const hours = Math.floor((ms % (24 * HOUR)) / HOUR);
  const minutes = Math.floor((ms % HOUR) / 60_000);
  const parts = [
    days > 0 ? `${days} d` : '',
    hours > 0 ? `${hours} h` : '',
    minutes > 0 ? `${minutes} min` : '',
  ];
  return `${parts.filter(Boolean).join(' ') || '< 1 min'} ahead`;
}

/** What the simulated registrar received and holds, and the control that moves its clock. */
export function createRegistrarPanel(page: Page) {
  const clock = el('p', { class: 'clock' });
  const buttons = STEPS.map((step) => {
    const button = el('button', { type: 'button', class: 'btn' }, [step.label]);
    button.addEventListener('click', async () => {
      button.disabled = true;
      const result = await post('clock', { advanceMs: step.ms });
      button.disabled = false;
      if (!result.ok) page.notify(result.error ?? 'The clock did not move.');
    });
    return button;
  });
  const requests = el('tbody');
  const account = el('div', { class: 'account' });
  const root = el(
    'aside',
    { class: 'registrar', 'data-testid': TEST_IDS.registrarPanel, 'aria-label': 'Registrar' },
    [
      el('h2', {}, ['Registrar sandbox']),
      el('div', { class: 'clock-row' }, [
        clock,
        el(
          'div',
          {
            class: 'clock-buttons',
            role: 'group',
            'aria-label': 'Fast-forward the clock',
            'data-testid': TEST_IDS.clockForward,
          },
          buttons,
        ),
      ]),
      el('h3', {}, ['Requests Regdesk made']),
      el('div', { class: 'table-wrap' }, [
        el('table', { class: 'requests' }, [
          el('thead', {}, [
            el(
              'tr',
              {},
              ['Method', 'Path', 'Status', 'Limit'].map((h) => el('th', { scope: 'col' }, [h])),
            ),
          ]),
          requests,
        ]),
      ]),
      el('h3', {}, ['Seeded account']),
      account,
    ],
  );

  const render = (registrar: RegistrarSnapshot) => {
    clock.textContent = `Clock: ${formatOffset(registrar.clockOffsetMs)}`;
    const rows = registrar.requests.slice(-SHOWN_REQUESTS).reverse();
    requests.replaceChildren(
      ...(rows.length === 0
        ? [el('tr', {}, [el('td', { colspan: '4', class: 'empty' }, ['No requests yet'])])]
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
        `Domains (${domains.length})`,
        domains.map((d) =>
          [d.name, d.expires ? `expires ${d.expires.slice(0, 10)}` : '', d.dnssec ? `DNSSEC ${d.dnssec}` : '']
            .filter(Boolean)
            .join(' · '),
        ),
      ),
      section(
        `Certificates (${certificates.length})`,
        certificates.map(
          (c) => `${c.commonName} · ${c.status}${c.product ? ` · ${c.product}` : ''} (${c.id})`,
        ),
      ),
      section(
        `Organizations (${organizations.length})`,
        organizations.map((o) => `${o.name} (${o.id})`),
      ),
    );
  };
  return { root, render };
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
