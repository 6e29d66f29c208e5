import { startScriptedLlm, type ScriptedLlm } from '../test/support/scripted-llm';
import { startService, type DockhandService } from './support/dockhand-service';
import { deleteConversations, SANDBOX_ENV, sandboxSkipReason } from './support/sandbox-docker';
import { ScriptedAgent } from './support/scripted-agent';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

const CONVERSATION_TIMEOUT_MS = 180_000;
const AGENT_WAIT = { timeout: 60_000 };

let skipReason: string | null = null;
let llm: ScriptedLlm | undefined;
let service: DockhandService | undefined;

test.beforeAll(async () => {
  skipReason = await sandboxSkipReason();
  if (skipReason) {
    console.warn(`Skipping the terminal tests: ${skipReason}`);
    return;
  }
  llm = await startScriptedLlm();
  service = await startService({ secrets: 'file', env: SANDBOX_ENV });
});

test.afterAll(async () => {
  if (service) {
    await deleteConversations(service);
    await service.stop();
  }
  await llm?.close();
});

test('the Terminal tab opens a shell in the sandbox and shows the agent’s commands', async ({ page }) => {
  test.skip(skipReason !== null, skipReason ?? '');
  test.setTimeout(CONVERSATION_TIMEOUT_MS);
  if (!service || !llm) throw new Error('The service and the scripted model were not started');
  const saved = await service.api('POST', '/api/settings', {
    llm_model: 'openai/gpt-4o',
    llm_api_key: 'sk-test',
    llm_base_url: llm.baseUrl,
  });
  expect(saved.status).toBe(200);
  const agent = new ScriptedAgent(llm, 'Terminal');
  agent.say(
    { toolCalls: [{ name: 'execute_bash', args: { command: 'echo from-the-agent', security_risk: 'LOW' } }] },
    { text: 'Done.' },
  );

  await page.goto(service.link);
  await page.getByLabel('What should the agent do?').fill('Echo something');
  await page.getByLabel('What should the agent do?').press('Control+Enter');
  await expect(page).toHaveURL(/#\/conversations\/[0-9a-f]{32}$/);
  const events = page.getByRole('region', { name: 'Conversation events' });
  await expect(events.getByText('Done.')).toBeVisible(AGENT_WAIT);

  const workspace = page.getByRole('region', { name: 'Workspace' });
  await workspace.getByRole('tab', { name: 'Terminal' }).click();
  const shell = workspace.getByLabel('Your shell');
  await expect(shell).toHaveAttribute('data-state', 'open', AGENT_WAIT);
  // The prompt shows the working directory once bash is ready for input.
  await expect(shell.locator('.xterm-rows')).toContainText('$', AGENT_WAIT);
  await shell.locator('.xterm-screen').click();
  await page.keyboard.type('echo hello-terminal');
  await page.keyboard.press('Enter');
  // What the shell printed, on a row of its own (the typed line above it may wrap in a narrow panel).
  const rows = shell.locator('.xterm-rows > div');
  await expect(rows.filter({ hasText: /^hello-terminal\s*$/ })).toHaveCount(1);
  await screenshot(page, 'terminal-shell');

  // The TTY has the size of the view, and follows it when the window grows.
  const sttySize = async () => {
    const count = await rows.count();
    await page.keyboard.type('clear; stty size');
    await page.keyboard.press('Enter');
    await expect(rows.filter({ hasText: new RegExp(`^${count} \\d+\\s*$`) })).toHaveCount(1);
    return count;
  };
  const before = await sttySize();
  await page.setViewportSize({ width: 1280, height: 1000 });
  await expect.poll(() => rows.count()).toBeGreaterThan(before);
  await sttySize();
  await page.keyboard.type('echo hello-terminal');
  await page.keyboard.press('Enter');
  await expect(rows.filter({ hasText: /^hello-terminal\s*$/ })).toHaveCount(1);
  await screenshot(page, 'terminal-shell-resized');

  await workspace.getByRole('radio', { name: "Agent's commands" }).click();
  const commands = workspace.getByLabel("The agent's commands");
  await expect(commands.locator('.xterm-rows')).toContainText('$ echo from-the-agent');
  await expect(commands.locator('.xterm-rows > div').filter({ hasText: /^from-the-agent\s*$/ })).toHaveCount(
    1,
  );
  await screenshot(page, 'terminal-agent-commands');

  // Back to the shell: the same one, with what it printed.
  await workspace.getByRole('radio', { name: 'Your shell' }).click();
  await expect(shell).toHaveAttribute('data-state', 'open');
  await expect(rows.filter({ hasText: /^\d+ \d+\s*$/ })).toHaveCount(1);
  expect(agent.unplayed).toBe(0);
});
