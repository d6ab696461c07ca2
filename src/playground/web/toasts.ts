import { el } from './dom.js';
import { TEST_IDS } from './protocol.js';

/** Long enough to read two lines; Slack's own toasts are gone about as fast. */
const TOAST_MS = 6_000;
/** More at once would cover the composer. */
const MAX_TOASTS = 3;

/**
 * The page's toasts: each closes itself after TOAST_MS (sooner with its ✕), and words already shown
 * restart that toast's time instead of stacking a second copy.
 */
export function createToasts() {
  const root = el('div', { class: 'notices', 'aria-live': 'polite' });
  const shown = new Map<string, { toast: HTMLElement; timer: number }>();

  const close = (text: string) => {
    const entry = shown.get(text);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    entry.toast.remove();
    shown.delete(text);
  };

  const show = (text: string, dismissLabel: string) => {
    const entry = shown.get(text);
    if (entry !== undefined) clearTimeout(entry.timer);
    const toast =
      entry?.toast ?? el('div', { class: 'notice', role: 'status', 'data-testid': TEST_IDS.notice }, [text]);
    if (entry === undefined) {
      const dismiss = el('button', { type: 'button', class: 'icon-button', 'aria-label': dismissLabel }, [
        '✕',
      ]);
      dismiss.addEventListener('click', () => close(text));
      toast.append(dismiss);
      root.append(toast);
    }
    shown.set(text, { toast, timer: window.setTimeout(() => close(text), TOAST_MS) });
    // Maps keep insertion order: the first key is the oldest toast.
    while (shown.size > MAX_TOASTS) close(shown.keys().next().value ?? '');
  };
  return { root, show };
}
