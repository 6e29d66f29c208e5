import path from 'node:path';
import type { Page } from '@playwright/test';
import { SCREENSHOT_DIR } from './paths';

/** Saves what the page shows to test-results/screenshots/<name>.png, to be looked at after the run. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
