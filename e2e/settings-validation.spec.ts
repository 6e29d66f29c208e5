import { ServerInfo } from '../src/shared/api/server';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

const UNREACHABLE_DOCKER = 'unix:///nonexistent/dockhand-e2e.sock';

test('rejected settings and MCP servers are marked at their fields, in words', async ({ page, service }) => {
  await page.goto(service.link);
  await page.getByRole('link', { name: 'Settings', exact: true }).click();

  await page.getByLabel('Provider', { exact: true }).selectOption('ollama');
  await expect(page.getByLabel('Base URL')).toHaveValue('http://localhost:11434');
  await page.getByLabel('Model', { exact: true }).fill('ollama/qwen2.5-coder');
  await page.getByRole('tab', { name: 'Agent', exact: true }).click();
  await page.getByLabel('Budget per conversation (USD)').fill('-5');
  await page.getByLabel('Events kept before condensing').fill('5');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByLabel('Budget per conversation (USD)')).toHaveAccessibleDescription(
    /Enter more than 0/,
  );
  await expect(page.getByLabel('Events kept before condensing')).toHaveAccessibleDescription(
    /Enter 20 or more/,
  );
  await expect(page.getByRole('alert').filter({ hasText: 'Settings were not saved' })).toBeVisible();
  await screenshot(page, 'settings-agent-errors');

  await page.getByLabel('Budget per conversation (USD)').fill('2.5');
  await page.getByLabel('Events kept before condensing').fill('');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();

  // MCP servers: a URL without a scheme, a name with a space, an env line without "=".
  await page.getByRole('tab', { name: 'MCP servers' }).click();
  const mcp = page.getByRole('form', { name: 'MCP servers' });
  await mcp.getByRole('button', { name: 'Add SSE server' }).click();
  await mcp.getByRole('group', { name: 'SSE server 1' }).getByLabel('URL').fill('mcp.example.test/sse');
  await mcp.getByRole('button', { name: 'Add Command (stdio) server' }).click();
  const stdio = mcp.getByRole('group', { name: 'Command (stdio) server 1' });
  await stdio.getByLabel('Name').fill('file system');
  await stdio.getByLabel('Command').fill('npx');
  await stdio.getByLabel('Arguments').fill('-y @modelcontextprotocol/server-filesystem /workspace');
  await stdio.getByLabel('Environment').fill('DEBUG');
  await mcp.getByRole('button', { name: 'Save MCP servers' }).click();
  await expect(stdio.getByLabel('Environment')).toHaveAccessibleDescription(/NAME=value \(not “DEBUG”\)/);

  await stdio.getByLabel('Environment').fill('DEBUG=1');
  await mcp.getByRole('button', { name: 'Save MCP servers' }).click();
  await expect(
    mcp.getByRole('group', { name: 'SSE server 1' }).getByLabel('URL'),
  ).toHaveAccessibleDescription(/URL must include a scheme/);
  await expect(stdio.getByLabel('Name')).toHaveAccessibleDescription(/letters, digits, - and _ only/);
  await expect(mcp.getByRole('alert')).toContainText('MCP servers were not saved');
  await screenshot(page, 'settings-mcp-errors');

  await mcp
    .getByRole('group', { name: 'SSE server 1' })
    .getByLabel('URL')
    .fill('https://mcp.example.test/sse');
  await stdio.getByLabel('Name').fill('filesystem');
  await mcp.getByRole('button', { name: 'Save MCP servers' }).click();
  await expect(mcp.getByRole('status').filter({ hasText: 'MCP servers saved.' })).toBeVisible();
  const stored = (await service.api('GET', '/api/settings')).body as {
    mcp_config: unknown;
    max_budget_per_task: unknown;
  };
  expect(stored.max_budget_per_task).toBe(2.5);
  expect(stored.mcp_config).toEqual({
    sse_servers: [{ url: 'https://mcp.example.test/sse', api_key: null }],
    shttp_servers: [],
    stdio_servers: [
      {
        name: 'filesystem',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/workspace'],
        // Every MCP env value is a secret: kept in the keychain, shown masked.
        env: { DEBUG: '**********' },
      },
    ],
  });
});

test.describe('with no Docker engine', () => {
  test.use({ serviceOptions: { secrets: 'file', dockerHost: UNREACHABLE_DOCKER } });

  test('Home names the Docker problem and its fix above the start form', async ({ page, service }) => {
    const info = ServerInfo.parse((await service.api('GET', '/server_info')).body);
    expect(info.docker.available).toBe(false);
    expect((await service.api('POST', '/api/settings', { llm_model: 'ollama/qwen2.5-coder' })).status).toBe(
      200,
    );

    await page.goto(service.link);
    const status = page.getByRole('region', { name: 'Service status' });
    await status.getByRole('button', { name: 'Docker not running' }).click();
    const docker = status.getByRole('note', { name: 'Sandboxes cannot start until Docker is available' });
    await expect(docker).toContainText('/nonexistent/dockhand-e2e.sock');
    await expect(docker).toContainText(`Fix: ${(info.docker.fix ?? '').replaceAll('`', '')}`);
    await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
    await screenshot(page, 'home-docker-unavailable');
  });
});

test.describe('with no reachable keychain', () => {
  test.use({ serviceOptions: { secrets: 'unreachable-keychain' } });

  test('Home still offers to start; Settings names why it cannot load and the fix', async ({
    page,
    service,
  }) => {
    const info = ServerInfo.parse((await service.api('GET', '/server_info')).body);
    expect(info.keychain.state).not.toBe('ok');
    const fix = (info.keychain.fix ?? 'missing fix').replaceAll('`', '');
    // Settings without secrets can be saved; reading them back needs the keychain for the `*_set` flags.
    expect((await service.api('POST', '/api/settings', { llm_model: 'ollama/qwen2.5-coder' })).status).toBe(
      200,
    );

    await page.goto(service.link);
    const problem = page.getByRole('main').getByRole('note', { name: 'Settings could not be loaded' });
    await expect(problem).toContainText(fix);
    await expect(page.getByLabel('What should the agent do?')).toBeVisible();
    await screenshot(page, 'home-keychain-unavailable');

    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await expect(
      page.getByRole('main').getByRole('note', { name: 'Settings could not be loaded' }),
    ).toContainText(fix);
    await page.getByRole('button', { name: 'Try again' }).focus();
    await screenshot(page, 'settings-keychain-unavailable');
  });
});
