import AxeBuilder from '@axe-core/playwright';
import type { V0Event } from '../src/shared/api/events';
import { conversationState } from '../src/shared/conversation-state';
import { screenshot } from './support/screenshots';
import { conversationInfo, routeConversation, sseBody } from './support/synthetic-conversation';
import { expect, test } from './support/test';

const STAMP = '2025-11-28T16:30:00.000Z';
const FAILURE =
  'The git provider refused the token for acme/app. Fix: add a token that can read it in Settings → Git providers.';

test('a failed start shows as Error with what went wrong, one Start, and a message box that says why', async ({
  page,
  service,
}) => {
  const id = 'failed-start';
  const events: V0Event[] = [
    {
      id: 0,
      timestamp: STAMP,
      source: 'user',
      message: 'Fix the flaky test',
      action: 'message',
      args: { content: 'Fix the flaky test' },
    },
    {
      id: 1,
      timestamp: STAMP,
      source: 'environment',
      message: FAILURE,
      observation: 'error',
      content: FAILURE,
      extras: {},
    },
  ];
  await routeConversation(page, {
    ...conversationInfo(id, 'Fix the flaky test'),
    status: 'STOPPED',
    runtime_status: 'STATUS$GIT_PROVIDER_AUTHENTICATION_ERROR',
    agent_state: null,
    selected_repository: 'acme/app',
    selected_branch: 'main',
    // As the service computes it from the start's typed failure.
    dockhand_state: conversationState({
      status: 'STOPPED',
      start: {
        stage: 'failed',
        failure: { stage: 'setting_up_workspace', message: FAILURE, kind: 'git_auth' },
      },
      agent_state: null,
    }),
  });
  await page.route(
    (url) => url.pathname === `/api/conversations/${id}/events/stream`,
    (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body: sseBody(events) }),
  );
  await page.route(
    (url) => url.pathname.startsWith(`/api/conversations/${id}/`) && !url.pathname.endsWith('/stream'),
    (route) =>
      route.fulfill({ status: 409, json: { detail: 'Sandbox for the conversation is not running' } }),
  );

  await page.goto(service.link);
  await page.evaluate((hash) => (window.location.hash = hash), `#/conversations/${id}`);
  const pill = page.locator('.conversation-header .state-pill');
  await expect(pill).toHaveText(/^Error: The git provider refused the token/);
  // The pill's line is cut; its tooltip has the whole message and where the start stopped.
  await expect(pill).toHaveAttribute(
    'title',
    new RegExp(`Fix: add a token[^]*Start failed while: Setting up the workspace`),
  );
  await expect(page.getByRole('button', { name: /^Start/ })).toHaveCount(1);
  const message = page.getByLabel('Message', { exact: true });
  await expect(message).toBeDisabled();
  await expect(message).toHaveAccessibleDescription(
    'The conversation is stopped. Start it to send messages.',
  );
  await screenshot(page, 'conversation-start-failed');
  // The error pill and the error in the timeline are readable in both themes.
  for (const theme of ['light', 'dark']) {
    await page.evaluate((value) => (document.documentElement.dataset.theme = value), theme);
    const contrast = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
    expect(
      contrast.violations.flatMap((violation) => violation.nodes.map((node) => node.target)),
      theme,
    ).toEqual([]);
  }
});
