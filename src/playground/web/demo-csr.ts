import { post } from './api.js';
import { controlsIn, el, readControl, writeControl } from './dom.js';
import { chromeOf, type Page } from './page.js';
import { type DemoCsrResult, TEST_IDS } from './protocol.js';

/**
 * In Regdesk's `/tls order` modal, a button that fills the CSR field with a throwaway CSR for the
 * names typed above it (made by the playground's server), so a newcomer without `openssl` at hand can
 * follow an order to issuance. Undefined for every other view.
 */
export function demoCsrButton(page: Page, view: { callback_id?: unknown }, form: HTMLElement) {
  const spec = page.snapshot.demoCsr;
  if (view.callback_id !== spec.callbackId) return undefined;
  const words = chromeOf(page);
  const field = (blockId: string) => controlsIn(form).find(({ ref }) => ref.blockId === blockId)?.element;
  const button = el('button', { type: 'button', class: 'btn', 'data-testid': TEST_IDS.demoCsr }, [
    words.demoCsr,
  ]);
  button.addEventListener('click', async () => {
    const commonName = field(spec.commonName);
    const csr = field(spec.csr);
    const typed = (blockId: string) => readControl(field(blockId) ?? form).join('\n');
    const name = commonName === undefined ? '' : typed(spec.commonName).trim();
    if (name === '' || csr === undefined) {
      page.notify(words.demoCsrNeedsName);
      if (commonName instanceof HTMLElement) commonName.focus();
      return;
    }
    const sans = typed(spec.sans)
      .split(/[\s,]+/)
      .filter((san) => san !== '' && san !== name);
    button.disabled = true;
    const result = await post<DemoCsrResult>('demo-csr', { names: [name, ...sans] }, words);
    button.disabled = false;
    if (!result.ok || result.csr === undefined) {
      page.report(result, words.demoCsrFailed);
      return;
    }
    writeControl(csr, [result.csr]);
  });
  return button;
}
