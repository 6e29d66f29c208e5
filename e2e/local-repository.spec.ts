import { readFileSync } from 'node:fs';
import { makeLocalGitRepo } from '../test/support/local-git-repo';
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
    console.warn(`Skipping the local repository test: ${skipReason}`);
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

test('a repository of this machine: started from the path field, reviewed, applied and exported as a branch', async ({
  page,
}) => {
  test.skip(skipReason !== null, skipReason ?? '');
  test.setTimeout(CONVERSATION_TIMEOUT_MS);
  if (!service || !llm) throw new Error('The service and the scripted model were not started');
  const repo = makeLocalGitRepo({ 'greeting.txt': 'helo world\n', 'README.md': '# Greeter\n' }, 'greeter');
  repo.write('notes.md', 'my uncommitted notes\n');
  const agent = new ScriptedAgent(llm, 'Fix the greeting');
  agent.say(
    {
      toolCalls: [
        {
          name: 'execute_bash',
          args: {
            // An interpreter cache beside the fix: the sandbox's git excludes keep it out of the review.
            command:
              "sed -i 's/helo/hello/' greeting.txt && mkdir -p __pycache__ && touch __pycache__/greet.cpython-311.pyc && git status --short",
            security_risk: 'LOW',
          },
        },
      ],
    },
    { text: 'Fixed the typo in greeting.txt.' },
  );
  await service.api('POST', '/api/settings', {
    llm_model: 'openai/gpt-4o',
    llm_api_key: 'sk-test',
    llm_base_url: llm.baseUrl,
  });

  await page.goto(service.link);
  await page.getByLabel('Or a repository on this machine').fill(repo.root);
  await page.getByLabel('What should the agent do?').fill('Fix the typo in greeting.txt');
  await expect(page.getByText(`on a copy of ${repo.root}`)).toBeVisible();
  await screenshot(page, 'local-repository-start');
  await page.getByRole('button', { name: 'Start conversation' }).click();
  await expect(page).toHaveURL(/#\/conversations\/[0-9a-f]{32}$/);

  const events = page.getByRole('region', { name: 'Conversation events' });
  await expect(events.getByText('Fixed the typo in greeting.txt.')).toBeVisible(AGENT_WAIT);
  // The review lists only the agent's change: the user's uncommitted notes are the starting point, and
  // interpreter caches are not changes.
  const changed = page.getByRole('list', { name: 'Changed files' });
  await expect(changed.getByRole('button')).toHaveCount(1, AGENT_WAIT);
  await expect(changed).toContainText('greeter/greeting.txt');
  const footer = page.getByRole('heading', { name: `Bring the changes back to ${repo.root}` });
  await expect(footer).toBeVisible();
  // Diff first: the ways to bring the work back follow it.
  const diffBox = await page
    .getByRole('region', { name: 'Workspace' })
    .locator('.diff')
    .first()
    .boundingBox();
  const footerBox = await footer.boundingBox();
  expect(diffBox && footerBox && diffBox.y < footerBox.y).toBe(true);
  expect(repo.read('greeting.txt')).toBe('helo world\n');
  await screenshot(page, 'local-repository-review');

  await page.getByRole('button', { name: 'Apply to working tree' }).click();
  const applied = page.getByRole('status').filter({ hasText: 'Changed 1 file' });
  await expect(applied).toContainText('greeting.txt', AGENT_WAIT);
  // Applied once: the same changes cannot be applied again.
  await expect(page.getByRole('button', { name: 'Applied to working tree' })).toBeDisabled();
  expect(readFileSync(`${repo.root}/greeting.txt`, 'utf8')).toBe('hello world\n');
  expect(repo.read('notes.md')).toBe('my uncommitted notes\n');
  await applied.scrollIntoViewIfNeeded();
  await screenshot(page, 'local-repository-applied');

  await page.getByLabel('New branch').fill('dockhand/fix-greeting');
  await page.getByLabel('Commit message').fill('Fix the greeting typo');
  await page.getByRole('button', { name: 'Create branch' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Created branch dockhand/fix-greeting' }),
  ).toBeVisible(AGENT_WAIT);
  await screenshot(page, 'local-repository-branch');
  expect(repo.git('log', '--format=%s', 'dockhand/fix-greeting')).toContain('Fix the greeting typo\n');
  expect(agent.unplayed).toBe(0);
});
