import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { TEST_IDS } from '../../src/playground/web/protocol.js';

/**
 * Driving the playground's page as a person does, for the browser suites (browser*.test.ts). Every
 * wait is for a condition on the page, with a generous timeout: the suite shares two busy cores.
 */

export const WAIT = 30_000;

/** The page's scripts are served from dist/ (built by `npm run build`, which `npm test` runs first). */
export function ensurePageBuilt(): void {
  const source = join(process.cwd(), 'src/playground/web');
  const built = join(process.cwd(), 'dist/src/playground/web');
  const stale = () =>
    readdirSync(source)
      .filter((name) => name.endsWith('.ts'))
      .some((name) => {
        const js = join(built, name.replace(/\.ts$/, '.js'));
        return !existsSync(js) || statSync(js).mtimeMs < statSync(join(source, name)).mtimeMs;
      });
  if (!stale()) return;
  // The page compiles under its own tsconfig (DOM types); the server's build leaves it out.
  for (const project of ['tsconfig.build.json', 'tsconfig.web.json']) {
    try {
      execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { stdio: 'ignore' });
    } catch {
      // tsc emits despite type errors elsewhere in the tree; only missing output is fatal here.
    }
  }
  if (stale())
    throw new Error('The page scripts could not be built: run `npm run build` and see its errors.');
}

export function driver(page: Page) {
  const mainList = () => page.getByTestId(TEST_IDS.messageList).getByTestId(TEST_IDS.message);
  const composer = () => page.locator('main').getByTestId(TEST_IDS.composer);
  const composerValue = () => page.locator(`main [data-testid="${TEST_IDS.composer}"]`).inputValue();

  return {
    mainList,
    composer,
    async actAs(user: string): Promise<void> {
      await page.getByTestId(TEST_IDS.userSwitcher).selectOption(user);
    },
    async openChannel(name: string): Promise<void> {
      await page
        .getByTestId(TEST_IDS.channelList)
        .getByRole('button', { name: new RegExp(`^# ${name}\\b`) })
        .click();
    },
    /** Types and sends; done once the playground accepted it (the composer clears). */
    async send(text: string): Promise<void> {
      await composer().fill(text);
      await composer().press('Enter');
      await expect.poll(composerValue, { timeout: WAIT }).toBe('');
    },
    /** Types and sends what the playground refuses (the text stays, as in Slack). */
    async sendRefused(text: string): Promise<void> {
      await composer().fill(text);
      await composer().press('Enter');
    },
    async waitForMessage(list: Locator, text: string | RegExp, timeout = WAIT): Promise<Locator> {
      const message = list.filter({ hasText: text }).last();
      await message.waitFor({ state: 'visible', timeout });
      return message;
    },
  };
}
