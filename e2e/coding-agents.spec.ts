import type { Page } from '@playwright/test';
import type { AgentList } from '../src/shared/api/agents';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

async function openCodingAgents(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('tab', { name: 'Coding agents' }).click();
  await expect(page.getByRole('heading', { name: 'Coding agents' })).toBeVisible();
}

test('Settings → Coding agents lists every agent with its install, and saves the default agent', async ({
  page,
  service,
}) => {
  await openCodingAgents(page, service.link);
  const choices = page.getByRole('group', { name: 'Agent for new conversations' });
  for (const label of ['Dockhand', 'Claude Code', 'Codex', 'Gemini CLI', 'opencode']) {
    await expect(choices.getByRole('radio', { name: label })).toBeVisible();
  }
  await expect(choices.getByRole('radio', { name: 'Dockhand' })).toBeChecked();
  await expect(choices.getByRole('button', { name: 'Install 0.101.0' })).toBeVisible();

  const save = page.getByRole('button', { name: 'Save', exact: true });
  await expect(save).toBeDisabled();
  await choices.getByRole('radio', { name: 'Claude Code' }).check();
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await page.reload();
  await expect(choices.getByRole('radio', { name: 'Claude Code' })).toBeChecked();
  const stored = await service.api('GET', '/api/agents');
  expect((stored.body as AgentList).default_agent).toBe('claude-code');
});

test('an install in progress shows its progress, and a failed one its reason and a retry', async ({
  page,
  service,
}) => {
  const real = (await service.api('GET', '/api/agents')).body as AgentList;
  const shown: AgentList = {
    ...real,
    agents: real.agents.map((agent) =>
      agent.kind === 'codex'
        ? {
            ...agent,
            install: { ...agent.install, state: 'installing', progress: 'Downloading packages (41)' },
          }
        : agent.kind === 'gemini'
          ? {
              ...agent,
              install: {
                ...agent.install,
                state: 'failed',
                error:
                  'Installing Gemini CLI (@google/gemini-cli@0.61.0) failed: npm ended with exit code 1: request to https://registry.npmjs.org/@google%2fgemini-cli failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org. Fix: check that this computer reaches the npm registry, then install again.',
              },
            }
          : agent,
    ),
  };
  await page.route(
    (url) => url.pathname === '/api/agents',
    (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(shown) }),
  );
  await openCodingAgents(page, service.link);
  await expect(page.getByRole('status').filter({ hasText: 'Downloading packages (41)' })).toBeVisible();
  await expect(page.getByRole('note', { name: 'Gemini CLI is not installed' })).toContainText('ENOTFOUND');
  await expect(page.getByRole('button', { name: 'Retry install' })).toBeVisible();
  await screenshot(page, 'settings-coding-agents');
});

test('Home offers the agents, the Settings’ default first, and the start request names the one chosen', async ({
  page,
  service,
}) => {
  expect(
    (
      await service.api('POST', '/api/settings', {
        default_agent: 'opencode',
        llm_model: 'openai/gpt-4o',
        llm_api_key: 'sk-e2e-agents',
      })
    ).status,
  ).toBe(200);
  await page.goto(service.link);
  const picker = page.getByLabel('Agent', { exact: true });
  await expect(picker).toHaveValue('opencode');
  await expect(
    page.getByText('It is installed from the npm registry when the conversation starts'),
  ).toBeVisible();
  await picker.selectOption({ label: 'Claude Code' });
  await page.getByLabel('What should the agent do?').fill('Say hello');
  // The start itself is refused here: this test is about what the form sends.
  await page.route(
    (url) => url.pathname === '/api/conversations',
    (route) => route.abort(),
  );
  const sent = page.waitForRequest((request) => request.url().endsWith('/api/conversations'));
  await page.getByRole('button', { name: 'Start conversation' }).click();
  expect((await sent).postDataJSON()).toMatchObject({ initial_user_msg: 'Say hello', agent: 'claude-code' });
});
