import type { Page } from '@playwright/test';
import { startGitHubRepositories, type GitHubRepositories } from '../test/support/github-repositories';
import { startScriptedLlm, type ScriptedLlm } from '../test/support/scripted-llm';
import { startService, type DockhandService } from './support/dockhand-service';
import { deleteConversations, HOST_NETWORK_SANDBOX_ENV, sandboxSkipReason } from './support/sandbox-docker';
import { ScriptedAgent } from './support/scripted-agent';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

const TOKEN = 'ghp_ui-flow-token-7d1e';
const BROKEN = 'def add(a, b):\n    return a - b\n';
const TESTS = 'from app import add\nassert add(2, 3) == 5, "add is broken"\nprint("tests passed")\n';
const RISKY = 'sudo rm -rf /opt/old-build && python3 test_app.py';
const AGENT_WAIT = { timeout: 60_000 };

let skipReason: string | null = null;
let repositories: GitHubRepositories | undefined;
let llm: ScriptedLlm | undefined;
let service: DockhandService | undefined;

test.beforeAll(async () => {
  skipReason = await sandboxSkipReason();
  if (skipReason) {
    console.warn(`Skipping the repository flow: ${skipReason}`);
    return;
  }
  repositories = await startGitHubRepositories(TOKEN, [
    { name: 'acme/app', private: true, branches: { main: { 'app.py': BROKEN, 'test_app.py': TESTS } } },
  ]);
  llm = await startScriptedLlm();
  service = await startService({
    secrets: 'file',
    providerApi: repositories.providers.host,
    // The sandbox shares the host's network to reach the git server on 127.0.0.1.
    env: HOST_NETWORK_SANDBOX_ENV,
  });
});

test.afterAll(async () => {
  if (service) {
    await deleteConversations(service);
    await service.stop();
  }
  await Promise.all([llm?.close(), repositories?.close()]);
});

async function configureModel(page: Page, baseUrl: string): Promise<void> {
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByLabel('Model', { exact: true }).fill('openai/gpt-4o');
  await page.getByLabel('Base URL').fill(baseUrl);
  await page.getByLabel('API key').fill('sk-test');
  await page.getByRole('tab', { name: 'Agent', exact: true }).click();
  await page.getByLabel('Ask before risky actions (confirmation mode)').check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await screenshot(page, 'flow-1-settings');
}

test('configure, start on a repository, confirm a risky command, review the diff, follow up, stop', async ({
  page,
}) => {
  test.skip(skipReason !== null, skipReason ?? '');
  test.setTimeout(240_000);
  if (!service || !llm || !repositories) throw new Error('The servers were not started');
  const agent = new ScriptedAgent(llm, 'Fix add');

  await page.goto(service.link);
  await configureModel(page, llm.baseUrl);

  // The git token, checked by the (fake) GitHub; its host is the git server the sandbox clones from.
  await page.getByRole('tab', { name: 'Git providers' }).click();
  await page.getByLabel('Git provider', { exact: true }).selectOption('github');
  await page.getByLabel('Host (optional)').fill(repositories.git.host);
  await page.getByLabel('Token', { exact: true }).fill(TOKEN);
  await page.getByRole('button', { name: 'Save token' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'GitHub token saved.' })).toBeVisible();

  agent.say(
    {
      toolCalls: [
        {
          name: 'str_replace_editor',
          args: {
            command: 'str_replace',
            path: '/workspace/project/app/app.py',
            old_str: 'return a - b',
            new_str: 'return a + b',
            security_risk: 'MEDIUM',
          },
        },
      ],
    },
    { toolCalls: [{ name: 'execute_bash', args: { command: RISKY, security_risk: 'HIGH' } }] },
    { text: 'Fixed `add`; the tests pass.' },
  );

  // The repository picker needs a provider that lists repositories (e2e/home-flow.spec.ts covers it with
  // that fake); this fake GitHub only answers the access check, so the API starts the conversation.
  const created = await service.api('POST', '/api/conversations', {
    repository: 'acme/app',
    git_provider: 'github',
    initial_user_msg: 'Fix add and run the tests',
  });
  expect(created.status).toBe(200);
  const id = (created.body as { conversation_id: string }).conversation_id;

  await page.getByRole('link', { name: 'Home', exact: true }).click();
  const recent = page.getByRole('list', { name: 'Recent conversations' });
  await recent.getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`#/conversations/${id}$`));
  await screenshot(page, 'flow-2-starting');

  const events = page.getByRole('region', { name: 'Conversation events' });
  await expect(events.getByText('Fix add and run the tests')).toBeVisible(AGENT_WAIT);
  await expect(events.getByText('app/app.py', { exact: false }).first()).toBeVisible(AGENT_WAIT);

  // The HIGH-risk command waits for the user.
  const confirmation = page.getByRole('region', { name: 'The agent asks for your confirmation' });
  await expect(confirmation).toContainText(RISKY, AGENT_WAIT);
  await expect(confirmation).toContainText('Risk: HIGH');
  await screenshot(page, 'flow-3-confirm');
  await confirmation.getByRole('button', { name: 'Confirm' }).click();
  const command = events.locator('.terminal').filter({ hasText: 'sudo rm -rf' });
  await expect(command.locator('.terminal-body')).toContainText('tests passed', AGENT_WAIT);
  await expect(events.getByText('Fixed add; the tests pass.')).toBeVisible(AGENT_WAIT);

  // The Changes tab lists the edited file with its diff.
  const workspace = page.getByRole('region', { name: 'Workspace' });
  const changesTab = workspace.getByRole('tab', { name: 'Changes' });
  await expect(changesTab).toHaveAttribute('aria-selected', 'true');
  const changed = workspace.getByRole('list', { name: 'Changed files' });
  await expect(changed.getByRole('button', { name: /app\.py/ })).toBeVisible();
  await expect(workspace.locator('.diff-removed')).toHaveText('-    return a - b');
  await expect(workspace.locator('.diff-added')).toHaveText('+    return a + b');
  await screenshot(page, 'flow-4-changes');

  // Arrow keys move between tabs; the Files tab opens a file read-only and offers the zip.
  await changesTab.focus();
  await page.keyboard.press('ArrowRight');
  const filesTab = workspace.getByRole('tab', { name: 'Files' });
  await expect(filesTab).toBeFocused();
  await expect(filesTab).toHaveAttribute('aria-selected', 'true');
  const tree = workspace.getByRole('list', { name: 'Workspace files' });
  await tree.getByRole('button', { name: 'app/' }).click();
  await tree.getByRole('button', { name: 'app.py', exact: true }).click();
  await expect(workspace.getByLabel('Contents of app/app.py')).toContainText('return a + b');
  const download = page.waitForEvent('download');
  await workspace.getByRole('button', { name: 'Download workspace.zip' }).click();
  expect((await download).suggestedFilename()).toBe('workspace.zip');
  await screenshot(page, 'flow-5-files');

  await page.keyboard.press('End');
  await workspace.getByRole('tab', { name: 'Web hosts' }).click();
  await expect(workspace.getByRole('tabpanel')).toContainText(/localhost:801[12]|No web hosts/);
  await screenshot(page, 'flow-6-web-hosts');

  // A follow-up: the agent adds a file; the Changes tab follows.
  await workspace.getByRole('tab', { name: 'Changes' }).click();
  agent.say(
    {
      toolCalls: [
        {
          name: 'str_replace_editor',
          args: {
            command: 'create',
            path: '/workspace/project/app/NOTES.md',
            file_text: 'add() adds.\n',
            security_risk: 'LOW',
          },
        },
      ],
    },
    { text: 'Noted.' },
  );
  await page.getByLabel('Message', { exact: true }).fill('Write a note about the fix');
  await page.getByLabel('Message', { exact: true }).press('Control+Enter');
  await expect(events.getByText('Write a note about the fix')).toBeVisible();
  await expect(events.getByText('Noted.')).toBeVisible(AGENT_WAIT);
  await expect(changed.getByRole('button', { name: /NOTES\.md/ })).toBeVisible();
  await changed.getByRole('button', { name: /NOTES\.md/ }).click();
  await expect(workspace.locator('.diff-added')).toHaveText('+add() adds.');
  await screenshot(page, 'flow-7-follow-up');

  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  const header = page.locator('.conversation-header');
  await expect(header.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
  await expect(header.locator('.state-pill')).toHaveText('Stopped');
  await screenshot(page, 'flow-8-stopped');
  expect(agent.unplayed).toBe(0);
});
