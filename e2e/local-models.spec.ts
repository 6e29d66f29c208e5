import { startLocalModelServer, type FakeLocalServer } from '../test/support/local-model-servers';
import { startService, type DockhandService } from './support/dockhand-service';
import { deleteConversations, SANDBOX_ENV, sandboxSkipReason } from './support/sandbox-docker';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

let ollama: FakeLocalServer;

test.beforeAll(async () => {
  ollama = await startLocalModelServer({
    kind: 'ollama',
    models: [
      { name: 'qwen-coder', trainedContext: 131_072, tools: 'native' },
      { name: 'texty', trainedContext: 131_072, tools: 'text' },
      { name: 'tiny', trainedContext: 8192, tools: 'native' },
    ],
  });
});
test.afterAll(async () => {
  await ollama.close();
});

async function chooseOllamaModel(page: import('@playwright/test').Page, model: string) {
  await page.getByLabel('Provider', { exact: true }).selectOption('ollama');
  await page.getByLabel('Base URL').fill(ollama.origin);
  await page.getByLabel('Model', { exact: true }).fill(model);
}

test('Settings shows the probed facts on model selection and the tool mode badge after Test connection', async ({
  page,
  service,
}) => {
  await page.goto(service.link);
  await page.getByRole('link', { name: 'Settings', exact: true }).click();

  await chooseOllamaModel(page, 'ollama/qwen-coder');
  const facts = page.getByLabel("What the model's server says");
  await expect(facts).toContainText('Ollama');
  await expect(facts).toContainText('Context 20,480 tokens');
  await expect(facts.locator('[data-tool-mode]')).toHaveCount(0);

  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
  await expect(facts.getByText('native tools', { exact: true })).toBeVisible();
  await screenshot(page, 'local-model-native-tools');

  await page.getByLabel('Model', { exact: true }).fill('ollama/texty');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(facts.getByText('text tools', { exact: true })).toBeVisible();
  await screenshot(page, 'local-model-text-tools');

  // A model trained for less than an agent turn needs is flagged before any conversation, with the numbers.
  await page.getByLabel('Model', { exact: true }).fill('ollama/tiny');
  await expect(
    page.getByRole('note').filter({ hasText: 'The context is too small for agent work' }),
  ).toContainText('trained for at most 8,192 tokens');
  await screenshot(page, 'local-model-context-too-small');
});

test('Home offers the models of the Ollama server on this computer; one click configures one', async ({
  page,
  service,
}) => {
  let local: FakeLocalServer;
  try {
    local = await startLocalModelServer({
      kind: 'ollama',
      port: 11434,
      models: [{ name: 'qwen-coder', trainedContext: 131_072, tools: 'native' }],
    });
  } catch (error) {
    test.skip(true, `Ollama's default port 127.0.0.1:11434 is taken on this machine (${String(error)})`);
    return;
  }
  try {
    await page.goto(service.link);
    const offer = page.getByRole('region', { name: 'Or use a model already on this computer' });
    await expect(offer).toContainText('ollama/qwen-coder');
    await expect(offer).toContainText('Context 20,480 tokens');
    await screenshot(page, 'home-local-model-offer');
    await offer.getByRole('button', { name: 'Use this model' }).click();
    await expect(page.getByText('Model: ollama/qwen-coder')).toBeVisible();
    await expect(page.getByText('native tools', { exact: true })).toBeVisible();
    await expect(page.getByText('Context 20,480 tokens')).toBeVisible();
    await screenshot(page, 'home-local-model-configured');
  } finally {
    await local.close();
  }
});

test.describe('a conversation on a local model', () => {
  let skipReason: string | null = null;
  let conversationService: DockhandService | undefined;
  let small: FakeLocalServer | undefined;

  test.beforeAll(async () => {
    skipReason = await sandboxSkipReason();
    if (skipReason) {
      console.warn(`Skipping the local-model conversation: ${skipReason}`);
      return;
    }
    // A model trained for little more than an agent turn needs: two long command outputs overflow it. Once
    // the script is played, the fake model answers "done".
    const big = { command: "head -c 40000 /dev/zero | tr '\\0' x", security_risk: 'LOW' };
    small = await startLocalModelServer({
      kind: 'ollama',
      models: [{ name: 'qwen-coder', trainedContext: 12_288, tools: 'native' }],
      turns: [
        { toolCalls: [{ name: 'execute_bash', args: big }] },
        { toolCalls: [{ name: 'execute_bash', args: big }] },
      ],
    });
    conversationService = await startService({ secrets: 'file', env: SANDBOX_ENV });
  });
  test.afterAll(async () => {
    if (conversationService) {
      await deleteConversations(conversationService);
      await conversationService.stop();
    }
    await small?.close();
  });

  test('shows the warning when the server cut the start of the conversation', async ({ page }) => {
    test.skip(skipReason !== null, skipReason ?? '');
    test.setTimeout(180_000);
    const svc = conversationService as DockhandService;
    const saved = await svc.api('POST', '/api/settings', {
      llm_model: 'ollama/qwen-coder',
      llm_base_url: (small as FakeLocalServer).origin,
      enable_default_condenser: false,
    });
    expect(saved.status).toBe(200);
    await page.goto(svc.link);
    await expect(page.getByRole('note').filter({ hasText: 'The context is too small' })).toBeVisible();
    await page.getByLabel('What should the agent do?').fill('Print a lot of x.');
    await page.getByLabel('What should the agent do?').press('Control+Enter');
    await expect(page).toHaveURL(/#\/conversations\/[0-9a-f]{32}$/);
    await expect(page.getByText(/The model server cut the start of the conversation/)).toBeVisible({
      timeout: 90_000,
    });
    // Condensed, the conversation goes on to the model's answer.
    await expect(page.getByText('done', { exact: true })).toBeVisible({ timeout: 60_000 });
    await screenshot(page, 'conversation-context-cut-warning');
  });
});
