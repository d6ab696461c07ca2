import { post } from './api.js';
import { demoCsrButton } from './demo-csr.js';
import { controlsIn, el, readControl, toDom, writeControl } from './dom.js';
import { chromeOf, type Page, renderContext, stateOf, wireActions } from './page.js';
import { type PlaygroundView, TEST_IDS, type ViewSubmissionResult } from './protocol.js';
import { renderBlocks } from './render-blocks.js';
import { plainText } from './render-text.js';
import { missingRequired } from './state-values.js';

type Json = Record<string, unknown>;
const label = (value: unknown, fallback: string): string =>
  plainText(typeof (value as Json | undefined)?.text === 'string' ? String((value as Json).text) : '') ||
  fallback;

/**
 * The acting user's modal stack in a native <dialog> (focus stays inside, Escape closes). Only the
 * top view is shown, as in Slack; a push or update re-renders it, keeping what was typed in inputs
 * whose block_id and action_id survive (Slack keeps input state across views.update the same way).
 */
export function createModalHost(page: Page, onEmpty: () => void) {
  const dialog = el('dialog', { class: 'modal', 'data-testid': TEST_IDS.modal, 'aria-modal': 'true' });
  document.body.append(dialog);
  let shownKey = '';
  /** Errors answered to the last submission, per view id (until the view changes). */
  const errors = new Map<string, Record<string, string>>();
  /** Views the person closed; hidden at once, whatever the server's next event says. */
  const dismissed = new Set<string>();

  const stack = (): PlaygroundView[] =>
    (page.snapshot.views[page.user] ?? []).filter((v) => !dismissed.has(v.id));

  const closeTop = async (top: PlaygroundView) => {
    dismissed.add(top.id);
    render();
    const words = chromeOf(page);
    const result = await post('view-closed', { user: page.user, viewId: top.id }, words);
    page.report(result, words.viewNotClosed);
  };

  const submit = async (top: PlaygroundView, form: HTMLFormElement, button: HTMLButtonElement) => {
    const words = chromeOf(page);
    const values = stateOf(form);
    // As Slack's client: a required input left empty is marked, and nothing reaches the app.
    const missing = missingRequired(top.view, values);
    if (missing.length > 0) {
      errors.set(top.id, Object.fromEntries(missing.map((blockId) => [blockId, words.requiredField])));
      render(true);
      dialog.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    button.disabled = true;
    const result = await post<ViewSubmissionResult>(
      'view-submission',
      { user: page.user, viewId: top.id, values },
      words,
    );
    button.disabled = false;
    if (result.errors !== undefined && Object.keys(result.errors).length > 0) {
      errors.set(top.id, result.errors);
      render(true);
      dialog.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    } else {
      page.report(result, words.formNotAccepted);
    }
  };

  const render = (force = false) => {
    const views = stack();
    const top = views.at(-1);
    if (top === undefined) {
      shownKey = '';
      if (dialog.open) {
        dialog.close();
        onEmpty();
      }
      dialog.replaceChildren();
      return;
    }
    const words = chromeOf(page);
    // The language is part of what is shown: the page's own words (Cancel, Close) follow the member's.
    const key = `${top.id}:${top.hash}:${JSON.stringify(top.errors ?? {})}:${words.lang}`;
    if (key === shownKey && !force && dialog.open) return;
    const sameView = shownKey.startsWith(`${top.id}:`);
    if (!sameView) errors.delete(top.id);
    // Keep what was typed when the same view is re-rendered (update, errors).
    const kept = new Map<string, string[]>();
    let focused: string | undefined;
    if (sameView) {
      for (const { element, ref } of controlsIn(dialog)) {
        const id = `${ref.blockId}/${String(ref.element.action_id)}`;
        kept.set(id, readControl(element));
        if (element.contains(document.activeElement)) focused = id;
      }
    }
    shownKey = key;
    const view = top.view as Json;
    const ctx = renderContext(page, { ...(top.errors ?? {}), ...(errors.get(top.id) ?? {}) });
    const form = el('form', { class: 'modal-form', 'data-view-id': top.id, novalidate: '' });
    const title = el('h2', { class: 'modal-title', id: `title-${top.id}` }, [label(view.title, 'Regdesk')]);
    const close = el(
      'button',
      { type: 'button', class: 'icon-button', 'data-testid': TEST_IDS.modalClose, 'aria-label': words.close },
      ['✕'],
    );
    const depth =
      views.length > 1 ? [el('span', { class: 'depth' }, [words.viewsOpen({ count: views.length })])] : [];
    form.append(el('header', { class: 'modal-header' }, [title, ...depth, close]));
    form.append(el('div', { class: 'modal-body' }, [toDom(renderBlocks(ctx, view.blocks, 'modal', top.id))]));
    const footer = el('footer', { class: 'modal-footer' });
    const cancel = el('button', { type: 'button', class: 'btn' }, [label(view.close, words.cancel)]);
    const demo = demoCsrButton(page, view, form);
    footer.append(...(demo === undefined ? [] : [demo]), cancel);
    let submitButton: HTMLButtonElement | undefined;
    if (view.submit !== undefined) {
      submitButton = el(
        'button',
        { type: 'submit', class: 'btn primary', 'data-testid': TEST_IDS.modalSubmit },
        [label(view.submit, words.submit)],
      );
      footer.append(submitButton);
    }
    form.append(footer);
    for (const { element, ref } of controlsIn(form)) {
      const values = kept.get(`${ref.blockId}/${String(ref.element.action_id)}`);
      if (values !== undefined) writeControl(element, values);
    }
    close.addEventListener('click', () => void closeTop(top));
    cancel.addEventListener('click', () => void closeTop(top));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (submitButton !== undefined && !submitButton.disabled) void submit(top, form, submitButton);
    });
    wireActions(
      page,
      form,
      () => ({ kind: 'view', viewId: top.id }),
      () => form,
    );
    dialog.setAttribute('aria-labelledby', title.id);
    dialog.replaceChildren(form);
    if (!dialog.open) dialog.showModal();
    // Focus stays where the person was; a new view (or a loading view turned form) starts at its first field.
    const again = controlsIn(form).find(
      ({ ref }) => `${ref.blockId}/${String(ref.element.action_id)}` === focused,
    );
    const target =
      again?.element ?? form.querySelector('.modal-body input, .modal-body textarea, .modal-body select');
    (target instanceof HTMLElement ? target : close).focus();
  };

  dialog.addEventListener('cancel', (event) => {
    // Escape: close the top view the way its close button does (and tell Regdesk, like Slack).
    event.preventDefault();
    const top = stack().at(-1);
    if (top !== undefined) void closeTop(top);
  });
  return { render: () => render() };
}
