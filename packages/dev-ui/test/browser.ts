// Launching Debian's chromium through playwright-core for the browser tests (toolchain.md §5).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The browser the tests drive: Debian's chromium, or `ADKIT_CHROMIUM`. */
export const CHROMIUM = process.env.ADKIT_CHROMIUM ?? '/usr/bin/chromium';

/** Whether the browser is installed here. */
export const chromiumAvailable = existsSync(CHROMIUM);

/** Where the screenshots of each step go (gitignored). */
export const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

/** A headless chromium with a throwaway profile; `close()` removes the profile. */
export async function launchBrowser(): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'adkit-dev-ui-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot of the page as `test-artifacts/<name>.png`. */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}
