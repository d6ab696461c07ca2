import { readFileSync, rmSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Running } from '../../src/main.js';
import { TEST_IDS } from '../../src/playground/web/protocol.js';
import {
  collectPageErrors,
  launchBrowser,
  openPlayground,
  SCREENSHOT_DIR,
  screenshot,
} from '../helpers/browser.js';
import { startPlaygroundProcess } from '../helpers/playground.js';
import { ensurePageBuilt } from './page-driver.js';

/**
 * The playground end to end: headless Chromium (Debian's) on the page that `npm start` serves with
 * no Slack settings, driving the real Regdesk against the playground's Slack and the sandbox
 * registrar. Every step is done as a person would, through the page, and screenshotted.
 */

const ADA = 'U0ADA';
const GRACE = 'U0GRACE';
/** A plain member whose Slack language is German (de-DE). */
const LINUS = 'U0LINUS';
/** Generous: the full suite shares two cores, and follow-ups run on BullMQ delays. */
const WAIT = 30_000;
const CSR = readFileSync(new URL('../fixtures/csr/rsa-2048.csr', import.meta.url), 'utf8');

let running: Running;
let browser: Browser;
let page: Page;
let errors: string[];

const mainList = () => page.getByTestId(TEST_IDS.messageList).getByTestId(TEST_IDS.message);
const composer = () => page.locator('main').getByTestId(TEST_IDS.composer);
const thread = () => page.getByTestId(TEST_IDS.thread);

async function actAs(user: string): Promise<void> {
  await page.getByTestId(TEST_IDS.userSwitcher).selectOption(user);
}

async function openChannel(name: string): Promise<void> {
  await page
    .getByTestId(TEST_IDS.channelList)
    .getByRole('button', { name: `# ${name}` })
    .click();
}

async function send(text: string): Promise<void> {
  await composer().fill(text);
  await composer().press('Enter');
  // Sent: the composer clears once the playground accepted it.
  // Read through the locator (this file compiles without DOM types, like all but the page's code).
  await expect
    .poll(() => page.locator(`main [data-testid="${TEST_IDS.composer}"]`).inputValue(), { timeout: WAIT })
    .toBe('');
}

/** Sends `text` and waits for one more message with `answer` in it than the list showed before. */
async function sendForAnswer(text: string, answer: string): Promise<Locator> {
  const answers = mainList().filter({ hasText: answer });
  const before = await answers.count();
  await send(text);
  await expect.poll(() => answers.count(), { timeout: WAIT }).toBeGreaterThan(before);
  return answers.last();
}

/** Sets the acting member's Slack language in the sidebar; done once the page's own words follow it. */
async function switchLanguage(locale: 'en-US' | 'de-DE', sendButton: string): Promise<void> {
  await page.getByTestId(TEST_IDS.languageSwitcher).selectOption(locale);
  await page
    .locator('main')
    .getByRole('button', { name: sendButton, exact: true })
    .waitFor({ timeout: WAIT });
}

async function waitForMessage(list: Locator, text: string | RegExp, timeout = WAIT): Promise<Locator> {
  const message = list.filter({ hasText: text }).last();
  await message.waitFor({ state: 'visible', timeout });
  return message;
}

beforeAll(async () => {
  ensurePageBuilt();
  rmSync(SCREENSHOT_DIR, { recursive: true, force: true });
  running = await startPlaygroundProcess();
  const url = running.playground?.url;
  if (url === undefined) throw new Error('Regdesk did not start the playground with no Slack settings');
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  errors = collectPageErrors(page);
  await openPlayground(page, url);
  await page
    .getByTestId(TEST_IDS.channelList)
    .getByRole('button', { name: '# general' })
    .waitFor({ timeout: WAIT });
}, 120_000);

afterEach(async (context) => {
  // A failed step leaves its screen behind: what the person would have seen.
  if (context.task.result?.state === 'fail')
    await screenshot(page, `failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  await browser?.close();
  await running?.stop();
});

describe('the playground in a browser', { timeout: 120_000 }, () => {
  it('answers /domain check in the page, only to the person who asked', async () => {
    await openChannel('general');
    await send('/domain check example.com');
    const answer = await waitForMessage(mainList(), 'could not be checked.');
    expect(await answer.textContent()).toContain('example.com');
    expect(await answer.textContent()).toContain('Only visible to you');
    await screenshot(page, '01-domain-check');

    await actAs(GRACE);
    expect(await mainList().filter({ hasText: 'Availability of' }).count()).toBe(0);
    await actAs(ADA);
    expect(await mainList().filter({ hasText: 'Availability of' }).count()).toBe(1);
  });

  it('shares a look-up card in the channel with its button', async () => {
    await send('/domain info example.com');
    const card = await waitForMessage(mainList(), 'Share in channel');
    expect(await card.textContent()).toContain('Only visible to you');
    await card.getByRole('button', { name: 'Share in channel' }).click();
    const shared = mainList().filter({ hasText: 'example.com', hasNotText: 'Only visible to you' });
    await shared.first().waitFor({ timeout: WAIT });
    await actAs(GRACE);
    await shared.first().waitFor({ timeout: WAIT });
    expect(await shared.first().getByRole('button', { name: 'Share in channel' }).count()).toBe(0);
    await screenshot(page, '02-shared-card');
    await actAs(ADA);
  });

  it('orders a certificate through the /tls order modal and follows it to issuance', async () => {
    await send('/tls order');
    const modal = page.getByTestId(TEST_IDS.modal);
    await modal.getByLabel('CSR (PEM)').waitFor({ timeout: WAIT });
    await modal.getByLabel('Product').selectOption('RapidSSL');
    await modal.getByLabel('Common name').fill('shop.example.com');
    await modal.getByLabel('Additional names (SANs) (optional)').fill('example.com');
    await modal.getByLabel('CSR (PEM)').fill(CSR);
    // A CSR for other names: Regdesk answers `response_action: errors`, shown under the field.
    await modal.getByTestId(TEST_IDS.modalSubmit).click();
    const error = modal.getByRole('alert');
    await error.waitFor({ timeout: WAIT });
    expect(await error.textContent()).toContain('www.example.com');
    expect(await modal.getByLabel('CSR (PEM)').getAttribute('aria-invalid')).toBe('true');
    expect(await modal.getByLabel('CSR (PEM)').inputValue()).toBe(CSR);
    await screenshot(page, '03-order-modal-error');
    await modal.getByLabel('Common name').fill('www.example.com');
    await modal.getByTestId(TEST_IDS.modalSubmit).click();
    await modal.waitFor({ state: 'hidden', timeout: WAIT });

    const posted = await waitForMessage(mainList(), 'Publish these DNS records');
    expect(await posted.textContent()).toContain('CNAME');
    // The card is edited in place as the order moves on: follow it by its ts, not its text.
    const card = page.locator(`article[data-ts="${await posted.getAttribute('data-ts')}"]`);
    await page.getByTestId(TEST_IDS.clockForward).getByRole('button', { name: '+1 h' }).click();
    await page.getByTestId(TEST_IDS.registrarPanel).getByText('Clock: 1 h ahead').waitFor({ timeout: WAIT });

    await card.filter({ hasText: 'issued' }).waitFor({ timeout: 60_000 });
    expect(await card.locator('.edited').textContent()).toBe('(edited)');
    const replies = card.getByRole('button', { name: /\d+ repl/ });
    await replies.waitFor({ timeout: WAIT });
    await replies.click();
    await waitForMessage(thread().getByTestId(TEST_IDS.message), 'is issued', WAIT);
    await screenshot(page, '04-order-issued');
  }, 150_000);

  it('runs a /tls revoke asked by one admin and approved by another exactly once', async () => {
    await send('/tls revoke cert-issued-old superseded');
    const request = await waitForMessage(mainList(), 'cert-issued-old');
    await request.getByRole('button', { name: 'Approve' }).waitFor({ timeout: WAIT });

    await actAs(GRACE);
    const card = mainList().filter({ hasText: 'cert-issued-old' }).last();
    await card.getByRole('button', { name: 'Approve' }).click();
    const confirm = page.locator('dialog.confirm-dialog');
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await waitForMessage(mainList(), /Done/);
    expect(await card.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    const panel = page.getByTestId(TEST_IDS.registrarPanel);
    await panel.getByText('cert-issued-old', { exact: false }).first().waitFor({ timeout: WAIT });
    const revokes = panel.locator('tbody tr').filter({ hasText: '/revoke' });
    await revokes.first().waitFor({ timeout: WAIT });
    expect(await revokes.count()).toBe(1);
    await screenshot(page, '05-revoke-approved');
    await actAs(ADA);
  });

  it('changes a DNS record from its records page: Edit, another admin approves, the nameservers serve it', async () => {
    await openChannel('general');
    // Required fields left empty: the page refuses as Slack's client does, before Regdesk sees it.
    await send('/dns record add example.com');
    const adding = page.getByTestId(TEST_IDS.modal);
    await adding.getByLabel('Data', { exact: true }).waitFor({ timeout: WAIT });
    await adding.getByTestId(TEST_IDS.modalSubmit).click();
    const required = adding.getByRole('alert').filter({ hasText: 'Please complete this required field.' });
    await required.first().waitFor({ timeout: WAIT });
    expect(await adding.getByLabel('Data', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('Escape');
    await adding.waitFor({ state: 'hidden', timeout: WAIT });

    const records = await sendForAnswer('/dns records example.com', ' records');
    const row = records.locator('.block.section').filter({ hasText: '192.0.2.10' }).first();
    await row.getByRole('combobox', { name: 'More actions' }).selectOption({ label: 'Edit' });
    const modal = page.getByTestId(TEST_IDS.modal);
    const data = modal.getByLabel('Data', { exact: true });
    await data.waitFor({ timeout: WAIT });
    expect(await data.inputValue()).toBe('192.0.2.10');
    // Not an address: the error is under the field, nothing is asked.
    await data.fill('not-an-address');
    await modal.getByTestId(TEST_IDS.modalSubmit).click();
    await modal.getByRole('alert').waitFor({ timeout: WAIT });
    expect(await data.getAttribute('aria-invalid')).toBe('true');
    await data.fill('192.0.2.11');
    await modal.getByTestId(TEST_IDS.modalSubmit).click();
    await modal.waitFor({ state: 'hidden', timeout: WAIT });

    const request = await waitForMessage(mainList(), '192.0.2.11');
    await request.getByRole('button', { name: 'Approve' }).waitFor({ timeout: WAIT });
    await actAs(GRACE);
    const card = mainList().filter({ hasText: '192.0.2.11' }).last();
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.locator('dialog.confirm-dialog').getByRole('button', { name: 'Approve' }).click();
    const replies = card.getByRole('button', { name: /\d+ repl/ });
    await replies.waitFor({ timeout: WAIT });
    await replies.click();
    // Written at the sandbox, served by the playground's nameservers, and Revert offered.
    await waitForMessage(thread().getByTestId(TEST_IDS.message), 'serve the change', WAIT);
    // One outcome in the thread offers Revert (which message carries it is the records feature's choice).
    await thread()
      .getByRole('button', { name: /Revert/ })
      .first()
      .waitFor({ timeout: WAIT });
    await screenshot(page, '06-record-change');
    await actAs(ADA);
  });

  it('answers /ask in a thread', async () => {
    await send('/ask How do I enable DNSSEC for my domain?');
    const question = await waitForMessage(mainList(), 'How do I enable DNSSEC');
    const replies = question.getByRole('button', { name: /\d+ repl/ });
    await replies.waitFor({ timeout: WAIT });
    await replies.click();
    await waitForMessage(thread().getByTestId(TEST_IDS.message), /one click/, WAIT);
    await screenshot(page, '06-ask-thread');
  });

  it('is keyboard usable: command completion, and Escape closes a modal', async () => {
    // The thread of the test before keeps its own composer: closed, so nothing takes the focus away
    // (the completion list closes when the box loses focus, as a combobox should).
    const closeThread = thread().getByRole('button', { name: 'Close thread' });
    if (await closeThread.isVisible()) await closeThread.click();
    await composer().click();
    await composer().fill('/tl');
    const option = page.locator('main [role="option"]').filter({ hasText: '/tls' });
    await option.waitFor({ timeout: WAIT });
    expect(await composer().getAttribute('aria-expanded')).toBe('true');
    await composer().press('Tab');
    expect(await composer().inputValue()).toBe('/tls ');
    expect(await page.locator('main .usage-hint').textContent()).toContain('revoke ID');
    await composer().pressSequentially('order');
    await composer().press('Enter');
    const modal = page.getByTestId(TEST_IDS.modal);
    await modal.getByLabel('CSR (PEM)').waitFor({ timeout: WAIT });
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden', timeout: WAIT });
  });

  it('shows what people type as text, never as markup', async () => {
    await openChannel('ops');
    await send('<img src=x onerror="window.hacked=1"> *bold* <!channel> \u202Eevil');
    const message = await waitForMessage(mainList(), 'onerror');
    expect(await message.textContent()).toContain('<img src=x onerror="window.hacked=1">');
    expect(await message.locator('img').count()).toBe(0);
    expect(await message.locator('b').textContent()).toBe('bold');
    expect(await message.textContent()).not.toContain('\u202E');
    expect(await page.evaluate('globalThis.hacked')).toBeUndefined();
    // A reaction from the quick picker shows on the message with its count.
    await message.getByLabel('Add reaction').selectOption('white_check_mark');
    await message.getByRole('button', { name: '✅ 1' }).waitFor({ timeout: WAIT });
    await openChannel('general');
  });

  it('uploads a certificate as a file the page can download', async () => {
    await send('/tls download cert-issued-recent pem');
    const message = await waitForMessage(mainList(), 'downloaded certificate');
    const link = message.getByRole('link', { name: /Certificate cert-issued-recent/ });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/playground\/files\/F\d+$/);
    expect(await link.getAttribute('download')).toBe('cert-issued-recent.pem');
    const file = await page.request.get(new URL(href ?? '', page.url()).href);
    expect(file.status()).toBe(200);
    expect(await file.text()).toContain('-----BEGIN CERTIFICATE-----');
  });

  it('shows nothing to a browser without the token (another profile, a stale tab)', async () => {
    const stranger = await browser.newContext();
    try {
      const page = await stranger.newPage();
      const origin = new URL(running.playground?.url ?? '').origin;
      expect((await page.goto(`${origin}/playground`))?.status()).toBe(403);
      expect((await page.goto(`${origin}/playground?token=not-the-token`))?.status()).toBe(403);
      expect((await page.goto(`${origin}/playground/assets/app.js`))?.status()).toBe(403);
    } finally {
      await stranger.close();
    }
  });

  it('the Messages tab: opening it pins suggested prompts; choosing one asks, answered in its thread', async () => {
    await page.getByTestId(TEST_IDS.channelList).getByRole('button', { name: '💬 Regdesk' }).click();
    // Opening the bot's DM is app_home_opened with tab: messages; Regdesk pins its prompts.
    const prompts = page.getByTestId(TEST_IDS.suggestedPrompts);
    await prompts.getByRole('button', { name: 'DNSSEC' }).click({ timeout: WAIT });
    const question = await waitForMessage(mainList(), 'How do I enable DNSSEC for my domain?');
    const replies = question.getByRole('button', { name: /\d+ repl/ });
    await replies.waitFor({ timeout: WAIT });
    await replies.click();
    await waitForMessage(thread().getByTestId(TEST_IDS.message), /one click/, WAIT);
    await screenshot(page, '08-messages-tab');
  });

  it('asks Regdesk about a message from its More actions menu, answered in the message’s thread', async () => {
    await openChannel('general');
    await send('Invoice 4711 for example.org is overdue: the card was declined.');
    const message = await waitForMessage(mainList(), 'Invoice 4711');
    await message.getByLabel('More actions').selectOption({ label: 'Ask Regdesk about this' });
    const replies = message.getByRole('button', { name: /\d+ repl/ });
    await replies.waitFor({ timeout: WAIT });
    await replies.click();
    const inThread = thread().getByTestId(TEST_IDS.message);
    await waitForMessage(inThread, /asked Regdesk about this message/, WAIT);
    await waitForMessage(inThread, /here is the answer|No answer/, WAIT);
    await screenshot(page, '09-message-shortcut');
  });

  it('speaks each member’s Slack language: the page’s own words and Regdesk’s answers', async () => {
    await openChannel('general');
    await actAs(GRACE);
    const language = page.getByTestId(TEST_IDS.languageSwitcher);
    expect(await language.inputValue()).toBe('en-US');

    await switchLanguage('de-DE', 'Senden');
    expect(await page.locator('label[for="user-switcher"]').textContent()).toBe('Angemeldet als');
    const german = await sendForAnswer('/domain help', 'diese Liste');
    expect(await german.textContent()).toContain('Nur für Sie sichtbar');
    await screenshot(page, '10-german');

    await switchLanguage('en-US', 'Send');
    expect(await page.locator('label[for="user-switcher"]').textContent()).toBe('Acting as');
    const english = await sendForAnswer('/domain help', 'this list');
    expect(await english.textContent()).toContain('Only visible to you');

    // Two members in the same channel, each answered in their own language.
    await actAs(LINUS);
    expect(await language.inputValue()).toBe('de-DE');
    await sendForAnswer('/domain help', 'diese Liste');
    await actAs(ADA);
    expect(await language.inputValue()).toBe('en-US');
    await sendForAnswer('/domain help', 'this list');
    expect(await mainList().filter({ hasText: 'diese Liste' }).count()).toBe(0);
  });

  it('shows the App Home Regdesk publishes', async () => {
    await page.getByTestId(TEST_IDS.homeTab).click();
    const home = page.locator('.home-view');
    await home
      .getByRole('heading', { name: /Regdesk/ })
      .first()
      .waitFor({ timeout: WAIT });
    expect(await home.textContent()).toMatch(/Pending approvals|Recent activity/);
    await screenshot(page, '07-app-home');
    expect(errors.join('\n')).toBe('');
  });
});
