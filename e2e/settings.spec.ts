import { MASKED_API_KEY } from '../src/shared/api/mcp';
import { Settings } from '../src/shared/api/settings';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

const MODEL = 'openai/gpt-4o';
const API_KEY = 'sk-e2e-4f1c9a7d2b8e6035';

test('settings round trip through the form without losing other fields or showing the key', async ({
  page,
  service,
}) => {
  // Fields the form does not show, to prove that saving sends the loaded object back whole,
  // including an MCP server whose key GET shows masked.
  const mcpServer = { url: 'https://mcp.example.test/sse', api_key: 'mcp-key-5d2e' };
  const seeded = await service.api('POST', '/api/settings', {
    git_user_name: 'Ada Lovelace',
    mcp_config: { sse_servers: [mcpServer], stdio_servers: [], shttp_servers: [] },
  });
  expect(seeded.status).toBe(200);

  await page.goto(service.link);
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.locator('#llm-model-options option')).not.toHaveCount(0);

  await page.getByLabel('Model', { exact: true }).fill(MODEL);
  await page.getByLabel('API key', { exact: true }).fill(API_KEY);
  // Sections of one form: edits in one survive a look at another, and its Save saves both.
  await page.getByRole('tab', { name: 'Agent', exact: true }).click();
  await expect(page.getByLabel('Model', { exact: true })).toBeHidden();
  await page.getByLabel('Ask before risky actions (confirmation mode)').check();
  await page.getByLabel('Maximum iterations').fill('250');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await page.getByRole('tab', { name: 'Language model' }).click();
  await expect(page.getByLabel('API key', { exact: true })).toHaveValue('');

  await page.reload();
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue(MODEL);
  await expect(page.getByText('Key set', { exact: true })).toBeVisible();
  await expect(page.getByLabel('API key', { exact: true })).toHaveValue('');
  await page.getByRole('tab', { name: 'Agent', exact: true }).click();
  await expect(page.getByLabel('Ask before risky actions (confirmation mode)')).toBeChecked();
  await expect(page.getByLabel('Maximum iterations')).toHaveValue('250');
  expect(await page.content()).not.toContain(API_KEY);
  expect(await page.content()).not.toContain(mcpServer.api_key);
  await screenshot(page, 'settings-saved');

  const stored = Settings.parse((await service.api('GET', '/api/settings')).body);
  expect(stored).toMatchObject({
    llm_model: MODEL,
    llm_api_key_set: true,
    llm_api_key: null,
    confirmation_mode: true,
    max_iterations: 250,
    git_user_name: 'Ada Lovelace',
    mcp_config: { sse_servers: [{ url: mcpServer.url, api_key: MASKED_API_KEY }] },
  });
});

test('never-saved settings show the defaults, and rejected values are marked at their fields', async ({
  page,
  service,
}) => {
  expect((await service.api('GET', '/api/settings')).status).toBe(404);
  await page.goto(service.link);
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('');
  await expect(page.getByText('Key set', { exact: true })).toHaveCount(0);
  await page.getByLabel('Base URL').fill('localhost:11434');

  await page.getByRole('tab', { name: 'Agent', exact: true }).click();
  await expect(page.getByLabel('Maximum iterations')).toHaveAttribute('placeholder', '500');
  await expect(page.getByLabel('Ask before risky actions (confirmation mode)')).not.toBeChecked();
  await page.getByLabel('Maximum iterations').fill('0');
  await page.getByRole('button', { name: 'Save settings' }).click();

  await expect(page.getByLabel('Maximum iterations')).toHaveAccessibleDescription(/Enter 1 or more/);
  // The problem in the section out of view is named.
  await expect(page.getByRole('alert')).toContainText('Settings were not saved');
  await expect(page.getByRole('alert')).toContainText('Language model');
  await screenshot(page, 'settings-field-errors');
  await page.getByRole('tab', { name: 'Language model' }).click();
  const baseUrl = page.getByLabel('Base URL');
  await expect(baseUrl).toHaveAttribute('aria-invalid', 'true');
  await expect(baseUrl).toHaveAccessibleDescription(/starts with http:\/\/ or https:\/\//);
  expect((await service.api('GET', '/api/settings')).status).toBe(404);

  await baseUrl.fill('http://127.0.0.1:11434/v1');
  await page.getByRole('tab', { name: 'Agent', exact: true }).click();
  await page.getByLabel('Maximum iterations').fill('');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await page.getByRole('tab', { name: 'Language model' }).click();
  await expect(baseUrl).not.toHaveAttribute('aria-invalid');
});

test('custom secrets are added and deleted, and their values never shown', async ({ page, service }) => {
  const value = 'e2e-secret-value-93b1f0';
  await page.goto(service.link);
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('tab', { name: 'Secrets' }).click();
  await expect(page).toHaveURL(/#\/settings\/secrets$/);
  await expect(page.getByText('No custom secrets yet.')).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill('NPM_TOKEN');
  await page.getByLabel('Value', { exact: true }).fill(value);
  await page.getByLabel('Description (optional)').fill('Publishes the package');
  await page.getByRole('button', { name: 'Add secret' }).click();

  const list = page.getByRole('list', { name: 'Custom secrets' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('NPM_TOKEN');
  await expect(list).toContainText('Publishes the package');
  await expect(page.getByLabel('Value', { exact: true })).toHaveValue('');
  expect(await page.content()).not.toContain(value);

  // The same name again: the service refuses it and the form says so at the name.
  await page.getByLabel('Name', { exact: true }).fill('NPM_TOKEN');
  await page.getByLabel('Value', { exact: true }).fill('another');
  await page.getByRole('button', { name: 'Add secret' }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription(/already exists/);
  await screenshot(page, 'secrets');

  await page.reload();
  await expect(list).toContainText('NPM_TOKEN');
  await page.getByRole('button', { name: 'Delete NPM_TOKEN' }).click();
  await page
    .getByRole('group', { name: 'Confirm deleting NPM_TOKEN' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('No custom secrets yet.')).toBeVisible();
  expect((await service.api('GET', '/api/secrets')).body).toEqual({ custom_secrets: [] });
});
