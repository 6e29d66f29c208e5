import path from 'node:path';
import type { Page } from '@playwright/test';
import { SCREENSHOT_DIR } from './paths';

/**
 * Saves what the window shows (the app never scrolls as a whole) in the light and the dark theme, to
 * test-results/screenshots/{light,dark}/<name>.png, to be looked at after the run. The page's theme is
 * put back as it was.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const shown = await page.evaluate(() => document.documentElement.dataset.theme ?? 'light');
  for (const theme of ['light', 'dark']) {
    await page.evaluate((value) => (document.documentElement.dataset.theme = value), theme);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, theme, `${name}.png`) });
  }
  await page.evaluate((value) => (document.documentElement.dataset.theme = value), shown);
}
