import { post } from './api.js';
import { el } from './dom.js';
import { chromeOf, type Page } from './page.js';
import { type SlashCommandInfo, TEST_IDS } from './protocol.js';
import { commandsIn, completions, encodeMessage, usageFor } from './store.js';

let composers = 0;

/**
 * The message box: slash commands with a completion list (an ARIA combobox: arrows move, Enter or
 * Tab accepts, Escape closes) and usage hints; Enter sends, Shift+Enter starts a new line.
 */
export function createComposer(
  page: Page,
  target: () => { channel: string; threadTs?: string; label: string } | undefined,
): { root: HTMLElement; focus(): void; refresh(): void } {
  const id = `composer-${++composers}`;
  const input = el('textarea', {
    class: 'composer-input',
    'data-testid': TEST_IDS.composer,
    rows: '1',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': `${id}-list`,
  });
  const list = el('ul', { id: `${id}-list`, class: 'completions', role: 'listbox', hidden: '' });
  // Regdesk's commands (manifest.yml), then Slack's own that the playground runs (membership.ts).
  const commands = () => commandsIn(chromeOf(page), page.snapshot.commands);
  const hint = el('div', { class: 'usage-hint', 'aria-live': 'polite' });
  const send = el('button', { type: 'submit', class: 'btn primary send' });
  const form = el('form', { class: 'composer' }, [
    list,
    el('div', { class: 'composer-row' }, [input, send]),
    hint,
  ]);
  let shown: SlashCommandInfo[] = [];
  let active = 0;

  const close = () => {
    shown = [];
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  };
  const paint = () => {
    list.replaceChildren(
      ...shown.map((command, i) => {
        const option = el(
          'li',
          { id: `${id}-opt-${i}`, role: 'option', 'aria-selected': String(i === active) },
          [
            el('span', { class: 'command' }, [command.command]),
            el('span', { class: 'usage' }, [command.usageHint ?? '']),
            el('span', { class: 'description' }, [command.description]),
          ],
        );
        // mousedown, not click: the textarea keeps focus.
        option.addEventListener('mousedown', (event) => {
          event.preventDefault();
          accept(i);
        });
        return option;
      }),
    );
    list.hidden = shown.length === 0;
    input.setAttribute('aria-expanded', String(shown.length > 0));
    if (shown.length > 0) input.setAttribute('aria-activedescendant', `${id}-opt-${active}`);
  };
  const update = () => {
    shown = completions(commands(), input.value);
    active = Math.min(active, Math.max(0, shown.length - 1));
    paint();
    const usage = usageFor(commands(), input.value);
    hint.textContent =
      usage === undefined
        ? ''
        : chromeOf(page).usageHint({
            command: usage.command,
            usage: usage.usageHint ?? '',
            description: usage.description,
          });
  };
  const accept = (index: number) => {
    const command = shown[index];
    if (command === undefined) return;
    input.value = `${command.command} `;
    close();
    update();
    input.focus();
  };
  const submit = async () => {
    const where = target();
    const typed = input.value.trim();
    if (where === undefined || typed === '') return;
    send.disabled = true;
    const words = chromeOf(page);
    const result = await post(
      'composer',
      {
        user: page.user,
        channel: where.channel,
        text: encodeMessage(page.snapshot, typed),
        ...(where.threadTs === undefined ? {} : { threadTs: where.threadTs }),
      },
      words,
    );
    send.disabled = false;
    if (result.ok) {
      input.value = '';
      update();
    }
    page.report(result, words.notSent);
  };

  input.addEventListener('input', update);
  // As in Slack, coming back to a box that holds `/inv` offers the commands again.
  input.addEventListener('focus', update);
  input.addEventListener('blur', () => setTimeout(close, 150));
  input.addEventListener('keydown', (event) => {
    const open = shown.length > 0;
    if (open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      active = (active + (event.key === 'ArrowDown' ? 1 : shown.length - 1)) % shown.length;
      paint();
    } else if (open && (event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey))) {
      event.preventDefault();
      accept(active);
    } else if (open && event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void submit();
    }
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  return {
    root: form,
    focus: () => input.focus(),
    refresh: () => {
      const where = target();
      const words = chromeOf(page);
      input.placeholder = where === undefined ? '' : where.label;
      input.setAttribute('aria-label', where === undefined ? words.message : where.label);
      input.disabled = where === undefined;
      send.textContent = words.send;
    },
  };
}
