import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

const WINDOW_HEIGHT = 800;

const stdio = (n: number) => ({
  name: `tool-${n}`,
  command: 'npx',
  args: ['-y', `@example/mcp-tool-${n}`],
  env: { TOKEN: `t-${n}` },
});

test('a long list of MCP servers fits the window, one line each, with one Save', async ({
  page,
  service,
}) => {
  const seeded = await service.api('POST', '/api/settings', {
    mcp_config: {
      sse_servers: [1, 2, 3].map((n) => ({ url: `https://sse-${n}.example.test/sse`, api_key: null })),
      shttp_servers: [1, 2, 3].map((n) => ({ url: `https://http-${n}.example.test/mcp`, api_key: null })),
      stdio_servers: [1, 2, 3, 4, 5, 6].map(stdio),
    },
  });
  expect(seeded.status).toBe(200);

  await page.goto(service.link);
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('tab', { name: 'MCP servers' }).click();
  const mcp = page.getByRole('form', { name: 'MCP servers' });
  // Twelve saved servers, each a line: no field is shown until one is edited, past three of a kind only
  // on request, and Save is in the window.
  await expect(mcp.getByText('tool-3: npx -y @example/mcp-tool-3 (1 variable)')).toBeVisible();
  await expect(mcp.getByText('tool-4: npx', { exact: false })).toHaveCount(0);
  await expect(mcp.getByLabel('URL')).toHaveCount(0);
  const save = mcp.getByRole('button', { name: 'Save MCP servers' });
  await expect(save).toHaveCount(1);
  await expect(save).toBeInViewport();
  const bottom = await save.evaluate((button) => button.getBoundingClientRect().bottom);
  expect(bottom).toBeLessThanOrEqual(WINDOW_HEIGHT);
  await screenshot(page, 'settings-mcp');
  await mcp.getByRole('button', { name: 'Show 3 more Command (stdio) servers' }).click();
  await expect(mcp.getByText('tool-6: npx -y @example/mcp-tool-6 (1 variable)')).toBeVisible();

  // Edit opens one server's fields; the edit is saved with the others, which stay as they were.
  const second = mcp.getByRole('group', { name: 'SSE server 2' });
  await second.getByRole('button', { name: 'Edit SSE server 2' }).click();
  await second.getByLabel('URL').fill('https://sse-2.example.test/v2/sse');
  await second.getByRole('button', { name: 'Done editing SSE server 2' }).click();
  await expect(second.getByText('https://sse-2.example.test/v2/sse')).toBeVisible();
  await save.click();
  await expect(mcp.getByRole('status').filter({ hasText: 'MCP servers saved.' })).toBeVisible();
  const stored = (await service.api('GET', '/api/settings')).body as {
    mcp_config: { sse_servers: { url: string }[]; stdio_servers: { name: string }[] };
  };
  expect(stored.mcp_config.sse_servers.map((server) => server.url)).toEqual([
    'https://sse-1.example.test/sse',
    'https://sse-2.example.test/v2/sse',
    'https://sse-3.example.test/sse',
  ]);
  expect(stored.mcp_config.stdio_servers.map((server) => server.name)).toEqual([
    'tool-1',
    'tool-2',
    'tool-3',
    'tool-4',
    'tool-5',
    'tool-6',
  ]);
});
