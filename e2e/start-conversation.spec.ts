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

  test('Start is disabled with the reason, which the status bar details without repeating itself', async ({
    page,
    service,
  }) => {
    await service.api('POST', '/api/settings', { llm_model: 'ollama/qwen2.5-coder' });
    await page.goto(service.link);
    await page.getByLabel(MESSAGE).fill('Print the date');
    const start = page.getByRole('button', { name: 'Start conversation' });
    await expect(start).toBeDisabled();
    await expect(start).toHaveAccessibleDescription(/^Docker is not available/);
    await page.getByLabel(MESSAGE).press('Control+Enter');
    await expect(page).not.toHaveURL(/#\/conversations\//);

    await page
      .getByRole('region', { name: 'Service status' })
      .getByRole('button', { name: 'Docker not running' })
      .click();
    const details = page.getByRole('note', { name: 'Sandboxes cannot start until Docker is available' });
    await expect(details).toContainText('Nothing answers at unix:///nonexistent/dockhand-e2e.sock');
    await expect(details).not.toContainText(/Docker is not (available|running):/);
    await screenshot(page, 'conversation-start-no-docker');
  });
});
