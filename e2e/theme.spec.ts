import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import {
  conversationInfo,
  routeConversation,
  sseBody,
  syntheticEvents,
} from './support/synthetic-conversation';
import { expect, test } from './support/test';

/** Color-contrast violations (WCAG 2 AA) on what the page shows, as "rule: target" lines. */
async function contrastProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} ${node.failureSummary ?? ''}`),
  );
}

async function openScreens(page: Page, link: string, check: (screen: string) => Promise<void>) {
  const id = 'theme-check';
  await routeConversation(page, conversationInfo(id, 'Contrast check'));
  await page.route(
    (url) => url.pathname === `/api/conversations/${id}/events/stream`,
    (route) =>
      route.fulfill({ status: 200, contentType: 'text/event-stream', body: sseBody(syntheticEvents(8)) }),
  );
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await check('home');
  for (const section of ['llm', 'agent', 'agents', 'sandboxes', 'appearance']) {
    await page.evaluate((hash) => (window.location.hash = hash), `#/settings/${section}`);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await check(`settings/${section}`);
  }
  await page.evaluate((hash) => (window.location.hash = hash), `#/conversations/${id}`);
  await expect(page.getByRole('region', { name: 'Conversation events' })).toContainText('Reply number 7');
  await check('conversation');
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`with the system in ${scheme} mode`, () => {
    test.use({ colorScheme: scheme });

    test('the theme follows the system and every checked screen has enough contrast', async ({
      page,
      service,
    }) => {
      await page.goto(service.link);
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      await openScreens(page, service.link, async (screen) => {
        expect(await contrastProblems(page), `contrast on ${screen} (${scheme})`).toEqual([]);
      });
    });
  });
}

test.describe('with the system in dark mode', () => {
  test.use({ colorScheme: 'dark' });

  test('Settings overrides the system theme, and the choice is kept', async ({ page, service }) => {
    await page.goto(`${service.link}`);
    await page.evaluate(() => (window.location.hash = '#/settings/appearance'));
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.getByLabel('Light').check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expect(page.getByLabel('Light')).toBeChecked();
    await page.getByLabel('Follow the system').check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  });
});
