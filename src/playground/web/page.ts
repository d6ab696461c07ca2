import { post } from './api.js';
import { type Chrome, chromeFor, DEFAULT_LOCALE } from './chrome.js';
import { actionRefs, controlsIn, el, readControl, toDom } from './dom.js';
import type { ActionSource, ApiResult, PlaygroundSnapshot, StateValues } from './protocol.js';
import { renderConfirm } from './render-elements.js';
import type { RenderContext } from './render-text.js';
import { actionValue, collectState } from './state-values.js';
import { findUser } from './store.js';

/** What every part of the page shares: the workspace copy, who is acting, and a few page actions. */
export interface Page {
  snapshot: PlaygroundSnapshot;
  user: string;
  /** A toast that closes itself; the same words again restart the one shown instead of stacking. */
  notify(text: string): void;
  /** Tells what a call answered: its notice (ok or not), else on failure its error or `fallback`. */
  report(result: ApiResult, fallback: string): void;
  openThread(channel: string, ts: string): void;
}

/** The acting member's time zone and Slack language. */
function viewerOf(page: Page): RenderContext['viewer'] {
  const viewer = findUser(page.snapshot, page.user);
  return { tz: viewer?.tz ?? 'UTC', locale: viewer?.locale ?? DEFAULT_LOCALE };
}

/** The page's own words, in the acting member's Slack language. */
export function chromeOf(page: Page): Chrome {
  return chromeFor(viewerOf(page).locale);
}

export function renderContext(page: Page, errors?: Record<string, string>): RenderContext {
  return {
    users: page.snapshot.users,
    channels: page.snapshot.channels,
    bot: page.snapshot.bot,
    viewer: viewerOf(page),
    now: Date.now(),
    ...(errors === undefined ? {} : { errors }),
  };
}

/** Slack's `view.state.values` for every Block Kit control under `root`. */
export function stateOf(root: Element): StateValues {
  return collectState(controlsIn(root).map(({ element, ref }) => ({ ref, values: readControl(element) })));
}

/** Shows a `confirm` object in its own dialog; resolves true only on the confirm button. */
export function confirmDialog(page: Page, confirm: Record<string, unknown>): Promise<boolean> {
  const dialog = el('dialog', { class: 'confirm-dialog', 'aria-label': chromeOf(page).confirm });
  dialog.append(toDom(renderConfirm(renderContext(page), confirm)));
  document.body.append(dialog);
  return new Promise((resolve) => {
    const finish = (answer: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      finish(false);
    });
    for (const button of dialog.querySelectorAll('button')) {
      button.addEventListener('click', () => finish(button.value === 'confirm'));
    }
    dialog.showModal();
    dialog.querySelector<HTMLButtonElement>('button[value="confirm"]')?.focus();
  });
}

/**
 * Delegated handlers for Block Kit controls under `root`: a button press or (where the element
 * dispatches) a selection becomes one `block_actions` call, after its confirm dialog if it has one.
 */
export function wireActions(
  page: Page,
  root: Element,
  sourceOf: (control: Element) => ActionSource | undefined,
  stateRoot?: (control: Element) => Element | undefined,
): void {
  const fire = async (control: Element) => {
    const ref = actionRefs.get(control);
    const source = sourceOf(control);
    if (ref === undefined || source === undefined) return;
    const confirm = ref.element.confirm as Record<string, unknown> | undefined;
    if (confirm !== undefined && !(await confirmDialog(page, confirm))) return;
    const url = ref.element.url;
    if (typeof url === 'string' && /^https?:\/\//i.test(url)) window.open(url, '_blank', 'noopener');
    const scope = stateRoot?.(control);
    const body = {
      user: page.user,
      source,
      action: actionValue(ref, readControl(control)),
      ...(scope === undefined ? {} : { state: stateOf(scope) }),
    };
    if (control instanceof HTMLButtonElement) control.disabled = true;
    const words = chromeOf(page);
    const result = await post('action', body, words);
    if (control instanceof HTMLButtonElement) control.disabled = false;
    page.report(result, words.actionFailed);
  };
  root.addEventListener('click', (event) => {
    const control = (event.target as Element | null)?.closest('button[data-action-id]');
    if (control !== null && control !== undefined && root.contains(control)) void fire(control);
  });
  root.addEventListener('change', (event) => {
    const control = (event.target as Element | null)?.closest('[data-action-id]');
    if (control === null || control === undefined || control instanceof HTMLButtonElement) return;
    if (actionRefs.get(control)?.dispatch === true) void fire(control);
  });
}
