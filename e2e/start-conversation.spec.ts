import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

const MESSAGE = 'What should the agent do?';

test('without a model, Home is the onboarding screen that leads to Settings', async ({ page, service }) => {
  await page.goto(service.link);
  const onboarding = page.getByRole('region', { name: 'Connect a language model to get started' });
  await expect(onboarding).toBeVisible();
  await expect(page.getByLabel(MESSAGE)).toHaveCount(0);
  await screenshot(page, 'conversation-start-no-settings');
  await onboarding.getByRole('link', { name: 'Set up a language model' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  expect((await service.api('GET', '/api/conversations')).body).toEqual({ results: [], next_page_id: null });
});

test('a remote model without an API key is named as the problem', async ({ page, service }) => {
  await service.api('POST', '/api/settings', { llm_model: 'openai/gpt-4o' });
  await page.goto(service.link);
  await page.getByLabel(MESSAGE).fill('Print the date');
  await page.getByLabel(MESSAGE).press('Control+Enter');
  const problem = page.getByRole('alert', { name: 'The model needs an API key' });
  await expect(problem).toContainText('Error authenticating with the LLM provider');
  await expect(problem.getByRole('link', { name: 'Open Settings' })).toBeVisible();
  // The message is kept, to try again after fixing the settings.
  await expect(page.getByLabel(MESSAGE)).toHaveValue('Print the date');
});

test.describe('with no Docker engine', () => {
  test.use({ serviceOptions: { secrets: 'file', dockerHost: 'unix:///nonexistent/dockhand-e2e.sock' } });

  test('the cause of the 503 is shown', async ({ page, service }) => {
    await service.api('POST', '/api/settings', { llm_model: 'ollama/qwen2.5-coder' });
    await page.goto(service.link);
    await page.getByLabel(MESSAGE).fill('Print the date');
    await page.getByRole('button', { name: 'Start conversation' }).click();
    const problem = page.getByRole('alert', { name: 'Docker is not available' });
    await expect(problem).toContainText('Docker is not available:');
    await expect(problem).toContainText('/nonexistent/dockhand-e2e.sock');
    await screenshot(page, 'conversation-start-no-docker');
  });
});
