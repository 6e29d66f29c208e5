import type { V0Event } from '../src/shared/api/events';
import { screenshot } from './support/screenshots';
import {
  conversationInfo,
  routeConversation,
  sseBody,
  syntheticEvents,
} from './support/synthetic-conversation';
import { expect, test } from './support/test';

/** After the rounds: a thought, a file edit with its diff, and a failure, to see each kind of row. */
function lastKinds(firstId: number): V0Event[] {
  const stamp = '2025-11-28T16:20:00.000Z';
  const path = '/workspace/project/hello.py';
  const diff = `--- ${path}\n+++ ${path}\n@@ -1,2 +1,2 @@\n import sys\n-print("hello")\n+print("hello, world")\n`;
  return [
    {
      id: firstId,
      timestamp: stamp,
      source: 'agent',
      message: '',
      action: 'think',
      args: { thought: 'Check the greeting' },
    },
    {
      id: firstId + 1,
      timestamp: stamp,
      source: 'agent',
      message: `Editing file: ${path}`,
      action: 'edit',
      args: { path, command: 'str_replace', thought: 'The greeting should name the world.' },
    },
    {
      id: firstId + 2,
      timestamp: stamp,
      source: 'agent',
      message: `I edited the file ${path}.`,
      observation: 'edit',
      content: 'The file was edited.',
      cause: firstId + 1,
      extras: { path, diff },
    },
    {
      id: firstId + 3,
      timestamp: stamp,
      source: 'agent',
      message: 'The model failed',
      observation: 'error',
      content: 'Agent reached maximum iteration. Current iteration: 500, max iteration: 500',
    },
    {
      id: firstId + 4,
      timestamp: stamp,
      source: 'environment',
      message: '',
      observation: 'agent_state_changed',
      content: '',
      extras: { agent_state: 'error', reason: 'maximum iteration reached' },
    },
  ];
}

const HOSTILE = [
  'Look: <img src="x" onerror="window.hacked = 1"> and <script>window.hacked = 2</script>',
  '',
  '[a bad link](javascript:window.hacked=3) and [a good one](https://example.com/docs)',
].join('\n');

test('10 000 streamed events stay windowed, follow the end, and jump back after scrolling up', async ({
  page,
  service,
}) => {
  const id = 'synthetic-10k';
  const rounds = syntheticEvents(2499, HOSTILE);
  const events = [...rounds, ...lastKinds(rounds.length)];
  expect(events.length).toBeGreaterThanOrEqual(10_000);
  await routeConversation(page, conversationInfo(id, 'Ten thousand events'));
  let streams = 0;
  const keysSent: (string | null)[] = [];
  await page.route(
    (url) => url.pathname === `/api/conversations/${id}/events/stream`,
    (route) => {
      streams += 1;
      // The key goes in the header, never in the URL.
      const request = route.request();
      keysSent.push(request.headers()['x-session-api-key'] ?? null);
      expect(new URL(request.url()).searchParams.has('session_api_key')).toBe(false);
      // The first connection replays everything; a reconnect (after the body ends) has nothing new.
      const body = streams === 1 ? sseBody(events) : sseBody([]);
      return route.fulfill({ status: 200, contentType: 'text/event-stream', body });
    },
  );

  await page.goto(service.link);
  await page.evaluate((hash) => (window.location.hash = hash), `#/conversations/${id}`);
  const list = page.getByRole('region', { name: 'Conversation events' });
  await expect(page.getByRole('heading', { level: 1, name: 'Ten thousand events' })).toBeVisible();
  await expect(list.getByText('Agent: Stopped by an error — maximum iteration reached')).toBeVisible();
  expect(keysSent[0]).toBe(service.key);
  await expect(list.locator('.diff-added')).toHaveText('+print("hello, world")');
  await expect(list.locator('.diff-removed')).toHaveText('-print("hello")');
  await expect(list.getByText('Agent reached maximum iteration.', { exact: false })).toBeVisible();
  await expect(list.getByText('Check the greeting')).toBeHidden();
  await list.getByText('Thought', { exact: true }).click();
  await expect(list.getByText('Check the greeting')).toBeVisible();
  const rendered = await list.locator('.vlog-row').count();
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(100);
  // Rows are compact: a successful command is one line, so a 1280×800 window shows at least 15 of them.
  const inView = await list.evaluate((viewport) => {
    const box = viewport.getBoundingClientRect();
    return [...viewport.querySelectorAll('.vlog-row')].filter((row) => {
      const rect = row.getBoundingClientRect();
      return rect.height > 0 && rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1;
    }).length;
  });
  expect(inView).toBeGreaterThanOrEqual(15);
  const echo = list.locator('.terminal-compact').filter({ hasText: 'echo 2498' });
  await expect(echo).toContainText('exit 0');
  await expect(echo.locator('.terminal-body')).toBeHidden();
  await echo.locator('summary').click();
  await expect(echo.locator('.terminal-body')).toHaveText(/^\$ echo 2498\s+2498$/);
  await screenshot(page, 'conversation-10k-end');

  await list.focus();
  await page.keyboard.press('Home');
  const jump = page.getByRole('button', { name: /Jump to latest/ });
  await expect(jump).toBeVisible();
  await expect(list.getByText('Look:')).toBeVisible();
  await expect(list.getByText('Reply number 2498')).toHaveCount(0);

  // Markup in a message is text: nothing runs, no element is made from it, only the http(s) link is a link.
  await expect(list.getByText('<img src="x" onerror="window.hacked = 1">', { exact: false })).toBeVisible();
  await expect(list.locator('img, script')).toHaveCount(0);
  await expect(list.getByRole('link', { name: 'a good one' })).toHaveAttribute(
    'href',
    'https://example.com/docs',
  );
  await expect(list.getByRole('link', { name: 'a bad link' })).toHaveCount(0);
  expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
  await screenshot(page, 'conversation-10k-top');

  await jump.click();
  await expect(list.getByText('Reply number 2498')).toBeVisible();
  await expect(jump).toHaveCount(0);
});

test('without the stream, events are polled and new ones appear', async ({ page, service }) => {
  const id = 'synthetic-polled';
  const all = syntheticEvents(60);
  let served = 200;
  await routeConversation(page, conversationInfo(id, 'Polled events'));
  await page.route(
    (url) => url.pathname === `/api/conversations/${id}/events/stream`,
    (route) => route.fulfill({ status: 404, json: { detail: 'Not Found' } }),
  );
  const startIds: number[] = [];
  await page.route(
    (url) => url.pathname === `/api/conversations/${id}/events`,
    (route) => {
      const url = new URL(route.request().url());
      const start = Number(url.searchParams.get('start_id'));
      const limit = Number(url.searchParams.get('limit'));
      startIds.push(start);
      const available = all.slice(0, served);
      const chunk = available.filter((e) => e.id >= start).slice(0, limit);
      const hasMore = (chunk.at(-1)?.id ?? start) < (available.at(-1)?.id ?? -1);
      return route.fulfill({ json: { events: chunk, has_more: hasMore } });
    },
  );

  await page.goto(service.link);
  await page.evaluate((hash) => (window.location.hash = hash), `#/conversations/${id}`);
  const list = page.getByRole('region', { name: 'Conversation events' });
  await expect(list.getByText('Reply number 49')).toBeVisible();
  expect(startIds.slice(0, 2)).toEqual([0, 100]);

  served = all.length;
  await expect(list.getByText('Reply number 59')).toBeVisible();
  expect(startIds).toContain(200);
});

test('the conversation fills the window, with a split the keyboard moves and the next visit remembers', async ({
  page,
  service,
}) => {
  const id = 'synthetic-split';
  await routeConversation(page, conversationInfo(id, 'Split'));
  await page.route(
    (url) => url.pathname === `/api/conversations/${id}/events/stream`,
    (route) =>
      route.fulfill({ status: 200, contentType: 'text/event-stream', body: sseBody(syntheticEvents(3)) }),
  );
  await page.goto(service.link);
  await page.evaluate((hash) => (window.location.hash = hash), `#/conversations/${id}`);
  const events = page.getByRole('region', { name: 'Conversation events' });
  await expect(events.getByText('Reply number 2')).toBeVisible();

  // The sidebar, the page and the status bar fill the 1280×800 window and no more.
  const viewport = page.viewportSize();
  expect((await page.getByRole('navigation', { name: 'Main' }).boundingBox())?.height).toBe(viewport?.height);
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(viewport?.height);

  const divider = page.getByRole('separator', { name: 'Resize the conversation and the workspace' });
  const before = Number(await divider.getAttribute('aria-valuenow'));
  const widthBefore = (await events.boundingBox())?.width ?? 0;
  await divider.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(divider).toHaveAttribute('aria-valuenow', String(before - 4));
  expect((await events.boundingBox())?.width).toBeLessThan(widthBefore);

  await page.reload();
  await expect(events.getByText('Reply number 2')).toBeVisible();
  await expect(divider).toHaveAttribute('aria-valuenow', String(before - 4));
  await page.keyboard.press('Tab');
  await divider.focus();
  await page.keyboard.press('End');
  await expect(divider).toHaveAttribute('aria-valuenow', '80');
});
