import type { Page } from '@playwright/test';
import { startScriptedLlm, type ScriptedLlm } from '../test/support/scripted-llm';
import { startService, type DockhandService } from './support/dockhand-service';
import { deleteConversations, SANDBOX_ENV, sandboxSkipReason } from './support/sandbox-docker';
import { ScriptedAgent } from './support/scripted-agent';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

/** Starting a sandbox and a few agent turns take longer than a page check. */
const CONVERSATION_TIMEOUT_MS = 180_000;
const AGENT_WAIT = { timeout: 60_000 };

test.describe.configure({ mode: 'serial' });

let skipReason: string | null = null;
let llm: ScriptedLlm | undefined;
let service: DockhandService | undefined;
let agent: ScriptedAgent;

function running(): { service: DockhandService; llm: ScriptedLlm } {
  if (!service || !llm) throw new Error('The service and the scripted model were not started');
  return { service, llm };
}

async function saveSettings(confirmationMode: boolean): Promise<void> {
  const { service: svc, llm: model } = running();
  const saved = await svc.api('POST', '/api/settings', {
    llm_model: 'openai/gpt-4o',
    llm_api_key: 'sk-test',
    llm_base_url: model.baseUrl,
    confirmation_mode: confirmationMode,
    // No analyzer: confirmation mode asks before every side effect. (The service reads null as `rules`.)
    security_analyzer: '',
  });
  expect(saved.status).toBe(200);
}

/** Starts a conversation from Home with `message` and returns its id, read from the address it opens. */
async function startFromHome(page: Page, message: string): Promise<string> {
  await page.goto(running().service.link);
  await page.getByLabel('What should the agent do?').fill(message);
  await page.getByLabel('What should the agent do?').press('Control+Enter');
  await expect(page).toHaveURL(/#\/conversations\/[0-9a-f]{32}$/);
  return decodeURIComponent(new URL(page.url()).hash.split('/').pop() ?? '');
}

test.beforeAll(async () => {
  skipReason = await sandboxSkipReason();
  if (skipReason) {
    console.warn(`Skipping the conversation tests: ${skipReason}`);
    return;
  }
  llm = await startScriptedLlm();
  agent = new ScriptedAgent(llm, 'Hello from the sandbox');
  service = await startService({ secrets: 'file', env: SANDBOX_ENV });
});

test.afterAll(async () => {
  if (service) {
    await deleteConversations(service);
    await service.stop();
  }
  await llm?.close();
});

test.beforeEach(() => {
  test.skip(skipReason !== null, skipReason ?? '');
  test.setTimeout(CONVERSATION_TIMEOUT_MS);
});

test('a conversation started from Home shows the command, its output and the replies; Stop stops it', async ({
  page,
}) => {
  await saveSettings(false);
  agent.say(
    { toolCalls: [{ name: 'execute_bash', args: { command: 'echo hello', security_risk: 'LOW' } }] },
    { text: 'The command printed **hello**.\n\n- it ran in `/workspace/project`\n- exit code 0' },
  );
  const id = await startFromHome(page, 'Say hello from the sandbox');
  // Named by the model once titles are generated, by its id until then.
  const title = new RegExp(`^(Conversation ${id.slice(0, 5)}|Hello from the sandbox)$`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

  const events = page.getByRole('region', { name: 'Conversation events' });
  await expect(events.getByText('Say hello from the sandbox')).toBeVisible();
  const command = events.locator('.terminal').filter({ hasText: 'echo hello' });
  await expect(command).toBeVisible(AGENT_WAIT);
  await expect(command.locator('.terminal-body')).toHaveText(/^\$ echo hello\s+hello$/, AGENT_WAIT);
  await expect(command).toContainText('in /workspace/project');
  await expect(command.getByText('exit 0')).toBeVisible();
  await expect(events.getByText('The command printed hello.')).toBeVisible(AGENT_WAIT);
  await expect(events.locator('strong', { hasText: 'hello' })).toBeVisible();
  const pill = page.locator('.conversation-header .state-pill');
  await expect(pill).toHaveText('Idle');
  // The facts the one state is made of are in its tooltip.
  await expect(pill).toHaveAttribute('title', /Agent: Waiting for your message/);

  agent.say({ text: 'You are welcome.' });
  await page.getByLabel('Message', { exact: true }).fill('Thank you');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(events.getByText('Thank you')).toBeVisible();
  await expect(events.getByText('You are welcome.')).toBeVisible(AGENT_WAIT);
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');
  await screenshot(page, 'conversation-run');

  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(pill).toHaveText('Stopped');
  // One way to start, and a message box that says why it cannot be used.
  await expect(page.getByRole('button', { name: /^Start/ })).toHaveCount(1);
  const message = page.getByLabel('Message', { exact: true });
  await expect(message).toBeDisabled();
  await expect(message).toHaveAccessibleDescription(
    'The conversation is stopped. Start it to send messages.',
  );
  await screenshot(page, 'conversation-stopped');

  await page.locator('.conversation-header').getByRole('button', { name: 'Start', exact: true }).click();
  await expect(pill).toHaveText('Idle', AGENT_WAIT);
  await expect(message).toBeEnabled();
  expect(agent.unplayed).toBe(0);
});

test('in confirmation mode the agent waits for Confirm, and Alt+N rejects', async ({ page }) => {
  await saveSettings(true);
  agent.say(
    { toolCalls: [{ name: 'execute_bash', args: { command: 'touch /tmp/x && ls /tmp/x' } }] },
    { toolCalls: [{ name: 'execute_bash', args: { command: 'rm /tmp/x' } }] },
  );
  await startFromHome(page, 'Create /tmp/x');

  // The question shows once, in the side panel above its tabs; the events column only marks it pending.
  const confirmation = page
    .getByRole('region', { name: 'Workspace' })
    .getByRole('region', { name: 'The agent asks for your confirmation' });
  await expect(confirmation).toBeVisible(AGENT_WAIT);
  await expect(page.getByText('The agent asks for your confirmation')).toHaveCount(1);
  await expect(page.locator('.conversation-main .confirmation')).toHaveCount(0);
  await expect(confirmation).toContainText('touch /tmp/x && ls /tmp/x');
  await expect(confirmation).toContainText(/Risk: (LOW|MEDIUM|HIGH|UNKNOWN)/);
  const events = page.getByRole('region', { name: 'Conversation events' });
  const pill = page.locator('.conversation-header .state-pill');
  await expect(pill).toHaveText('Needs you');
  // Read while the sandbox was still starting, the changes are read again once it runs.
  await expect(
    page.getByRole('region', { name: 'Workspace' }).getByText('No changes yet', { exact: true }),
  ).toBeVisible();
  await screenshot(page, 'conversation-confirm');

  await confirmation.getByRole('button', { name: 'Confirm' }).click();
  const command = events.locator('.terminal').filter({ hasText: 'touch /tmp/x' });
  await expect(command.locator('.terminal-body')).toHaveText(/ls \/tmp\/x\s+\/tmp\/x$/, AGENT_WAIT);
  await expect(command.getByText('exit 0')).toBeVisible();

  // The next call asks again; this time the keyboard answers.
  await expect(confirmation).toContainText('rm /tmp/x', AGENT_WAIT);
  await page.keyboard.press('Alt+KeyN');
  await expect(confirmation).toHaveCount(0, AGENT_WAIT);
  await expect(
    events.locator('.terminal').filter({ hasText: 'rm /tmp/x' }).getByText('Rejected'),
  ).toBeVisible();
  await expect(pill).toHaveText('Idle');
  await screenshot(page, 'conversation-rejected');
  expect(agent.unplayed).toBe(0);
});

test('Pause holds the agent between commands and Resume lets it go on', async ({ page }) => {
  await saveSettings(false);
  agent.say(
    {
      toolCalls: [
        { name: 'execute_bash', args: { command: 'sleep 3 && echo slept', security_risk: 'LOW' } },
        { name: 'execute_bash', args: { command: 'echo resumed', security_risk: 'LOW' } },
      ],
    },
    { text: 'Both commands ran.' },
  );
  await startFromHome(page, 'Sleep, then echo');

  const pill = page.locator('.conversation-header .state-pill');
  const events = page.getByRole('region', { name: 'Conversation events' });
  await expect(events.locator('.terminal').filter({ hasText: 'sleep 3' })).toContainText(
    'Running…',
    AGENT_WAIT,
  );
  await page.getByRole('button', { name: 'Pause agent' }).click();
  await expect(pill).toHaveText('Paused: Agent paused');
  await expect(events.getByRole('separator', { name: 'Agent Paused' })).toBeVisible();
  // The running command finishes; the queued one waits.
  const sleep = events.locator('.terminal').filter({ hasText: 'sleep 3' });
  await expect(sleep.locator('.terminal-body')).toHaveText(/slept\s+slept$/, AGENT_WAIT);
  await expect(sleep.getByText('exit 0')).toBeVisible();
  await expect(events.locator('.terminal').filter({ hasText: 'echo resumed' })).toHaveCount(0);
  await screenshot(page, 'conversation-paused');

  await page.getByRole('button', { name: 'Resume agent' }).click();
  await expect(events.locator('.terminal').filter({ hasText: 'echo resumed' })).toContainText(
    'exit 0',
    AGENT_WAIT,
  );
  await expect(events.getByText('Both commands ran.')).toBeVisible(AGENT_WAIT);
  await expect(pill).toHaveText('Idle');
  expect(agent.unplayed).toBe(0);
});

test('the Conversations page renames in place and deletes after asking', async ({ page }) => {
  const { service: svc } = running();
  await saveSettings(false);
  const created = await svc.api('POST', '/api/conversations', {});
  expect(created.status).toBe(200);
  const id = (created.body as { conversation_id: string }).conversation_id;
  const title = `Conversation ${id.slice(0, 5)}`;

  await page.goto(svc.link);
  const recent = page.getByRole('list', { name: 'Recent conversations' });
  await expect(recent.getByRole('listitem')).toHaveCount(4);
  await expect(recent.getByRole('listitem').first()).toContainText(title);
  await screenshot(page, 'conversation-home-recent');

  await page.getByRole('link', { name: 'Conversations', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Conversations' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Conversations' });
  await expect(list.getByRole('link', { name: title })).toBeVisible();

  await page.getByLabel('Search by title').fill('no such title');
  await expect(page.getByText('No title contains “no such title”.')).toBeVisible();
  await page.getByLabel('Search by title').fill(id.slice(0, 5));
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await page.getByLabel('Search by title').fill('');

  // A row tells conversations apart: state, repository, model, cost (none before a model call).
  const row = list.getByRole('listitem').filter({ hasText: title });
  await expect(row.locator('.state-pill')).toHaveText(/^(Starting|Idle)/);
  await expect(row).toContainText('No repository');
  await expect(row).toContainText('openai/gpt-4o');
  await expect(row.locator('.conversation-cost')).toHaveText('—');
  // The earlier conversations' agents made a few priced gpt-4o calls of the scripted model's usage.
  await expect(list.locator('.conversation-cost').filter({ hasText: '<$0.01' })).toHaveCount(3);

  // Rename and Delete are in the row's ⋯ menu.
  await list.getByRole('button', { name: `More actions for ${title}` }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const input = page.getByLabel(`New title for ${title}`);
  await expect(input).toBeFocused();
  await input.fill('   ');
  await input.press('Enter');
  await expect(input).toHaveAccessibleDescription('Required.');
  await input.fill('Renamed by the test');
  await input.press('Enter');
  await expect(list.getByRole('link', { name: 'Renamed by the test' })).toBeVisible();
  const menu = list.getByRole('button', { name: 'More actions for Renamed by the test' });
  await expect(menu).toBeFocused();
  await screenshot(page, 'conversation-list');

  await menu.press('Enter');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  const question = page.getByRole('group', { name: 'Confirm deleting Renamed by the test' });
  await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await question.getByRole('button', { name: 'Delete' }).click();
  await expect(list.getByRole('link', { name: 'Renamed by the test' })).toHaveCount(0);
  expect((await svc.api('GET', `/api/conversations/${id}`)).status).toBe(404);
});
