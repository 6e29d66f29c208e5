import type { Page } from '@playwright/test';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

const MAX_TABS = 10;

/** Presses Tab until the element named `name` has focus; fails if it never does. */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let presses = 0; presses < MAX_TABS; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (focused === name) return;
  }
  throw new Error(`"${name}" did not get focus within ${MAX_TABS} presses of Tab`);
}

test('the keyboard alone reaches Settings, with a visible focus ring on the way', async ({
  page,
  service,
}) => {
  await page.goto(service.link);
  await expect(page.getByRole('heading', { name: 'Welcome to Dockhand' })).toBeVisible();

  await tabTo(page, 'Settings');
  const link = page.getByRole('link', { name: 'Settings', exact: true });
  await expect(link).toBeFocused();
  const outline = await link.evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline).not.toBe('none');
  await screenshot(page, 'keyboard-focus');

  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(link).toHaveAttribute('aria-current', 'page');
  expect(new URL(page.url()).hash).toBe('#/settings');
  await expect(page.getByRole('main')).toBeFocused();

  // From the page, Tab goes to the chosen section, then into its form.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tab', { name: 'Language model' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tabpanel')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Provider', { exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Model', { exact: true })).toBeFocused();
});

test('Home sends a first-time user to Settings and shows that there are no conversations', async ({
  page,
  service,
}) => {
  await page.goto(service.link);
  await expect(page.getByRole('heading', { name: 'Connect a language model' })).toBeVisible();

  await page.getByRole('link', { name: 'Set up a language model' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

  await page.getByLabel('Model', { exact: true }).fill('ollama/qwen2.5-coder');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await page.getByRole('link', { name: 'Home', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Connect a language model' })).toHaveCount(0);
  await expect(page.getByText('ollama/qwen2.5-coder')).toBeVisible();
  await expect(page.getByText('No conversations yet')).toBeVisible();
  await screenshot(page, 'home-configured');
});
