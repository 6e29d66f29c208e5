import { freePort } from '../test/support/ports';
import { startService, type DockhandService } from './support/dockhand-service';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

let offline: DockhandService | undefined;

test.beforeAll(async () => {
  // Every provider API at a loopback port nothing listens on: the providers cannot be reached.
  offline = await startService({ secrets: 'file', providerApi: `127.0.0.1:${await freePort()}` });
});
test.afterAll(async () => {
  await offline?.stop();
});

test('a token saved while its provider cannot be reached is kept, marked unverified', async ({ page }) => {
  const svc = offline as DockhandService;
  expect((await svc.api('POST', '/api/settings', { llm_model: 'ollama/qwen2.5-coder' })).status).toBe(200);
  await page.goto(svc.link);
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('tab', { name: 'Git providers' }).click();
  await page.getByLabel('Git provider', { exact: true }).selectOption('github');
  await page.getByLabel('Token', { exact: true }).fill('ghp_saved_while_offline_0001');
  await page.getByRole('button', { name: 'Save token' }).click();
  await expect(page.getByText('GitHub token saved.')).toBeVisible();
  const notice = page.getByRole('note').filter({ hasText: 'Saved without verification' });
  await expect(notice).toContainText('GitHub could not be reached when the token was saved');
  await screenshot(page, 'git-token-saved-unverified');
  const settings = (await svc.api('GET', '/api/settings')).body as { provider_tokens_unverified: string[] };
  expect(settings.provider_tokens_unverified).toEqual(['github']);
});
