import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's chromium package: the browser tests drive it with playwright-core, never a downloaded one. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Screenshots of the browser tests (test output, not committed). */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'playground');

/**
 * Finds Debian's chromium and, when it is missing and we are root, installs it with apt-get (as
 * src/runtime/local-redis.ts does for redis-server), saying so. Otherwise it explains how to get it.
 */
export function ensureChromium(
  log: (line: string) => void = (line) => console.log(`[test] ${line}`),
): string {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `The playground browser tests need Debian's chromium at ${CHROMIUM_PATH}. Install it with ` +
        '`sudo apt-get install -y chromium`.',
    );
  }
  log("chromium is missing: installing Debian's chromium package (apt-get) ...");
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`apt-get installed chromium, but ${CHROMIUM_PATH} is missing.`);
  return CHROMIUM_PATH;
}

/** Headless Chromium with nothing that talks to the network on its own. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: ensureChromium(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Writes a full-page screenshot under test-results/playground/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Fails the test on any error the page reports (uncaught exceptions, console errors), so a broken
 * script cannot pass as "nothing happened yet".
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/**
 * Opens the playground as a person does: the URL Regdesk printed, with its token (docs/requirements.md
 * R42). The page trades the token for an HttpOnly, SameSite=Strict cookie and redirects to the URL
 * without it; fails when the token stays in the address bar or the cookie is not set that way.
 */
export async function openPlayground(page: Page, printedUrl: string): Promise<void> {
  if (!new URL(printedUrl).searchParams.has('token')) {
    throw new Error(`The playground URL carries no token: ${printedUrl}`);
  }
  await page.goto(printedUrl);
  const landed = new URL(page.url());
  if (landed.search !== '' || landed.pathname !== '/playground') {
    throw new Error(`The token stayed in the address bar: ${page.url()}`);
  }
  const cookies = await page.context().cookies(landed.href);
  const cookie = cookies.find((candidate) => candidate.name.startsWith('regdesk_playground_'));
  if (cookie?.httpOnly !== true || cookie.sameSite !== 'Strict' || cookie.path !== '/playground') {
    throw new Error(
      `The playground cookie is not HttpOnly, SameSite=Strict, Path=/playground: ${JSON.stringify(cookie)}`,
    );
  }
}
