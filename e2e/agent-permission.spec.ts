import type { V0Event } from '../src/shared/api/events';
import { conversationState } from '../src/shared/conversation-state';
import { screenshot } from './support/screenshots';
import { conversationInfo, routeConversation, sseBody } from './support/synthetic-conversation';
import { expect, test } from './support/test';

const STAMP = '2025-11-28T16:20:00.000Z';

/** A coding agent's permission request as the service records it: the call, with the agent's own options. */
const REQUEST: V0Event = {
  id: 2,
  timestamp: STAMP,
  source: 'agent',
  message: 'npm test',
  action: 'run',
  args: {
    command: 'npm test',
    thought: '',
    confirmation_state: 'awaiting_confirmation',
    security_risk: -1,
    acp_options: [
      { option_id: 'allow', name: 'Allow', kind: 'allow_once' },
      { option_id: 'allow_always', name: 'Always Allow npm test', kind: 'allow_always' },
      { option_id: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
  },
  tool_call_metadata: {
    tool_call_id: 'toolu_1',
    function_name: 'Bash',
    model_response: null,
    total_calls_in_response: 1,
  },
};

test('a coding agent’s permission request offers the agent’s own options besides Confirm and Reject', async ({
  page,
  service,
}) => {
  const id = 'agent-permission';
  const events: V0Event[] = [
    {
      id: 0,
      timestamp: STAMP,
      source: 'user',
      message: 'Run the tests',
      action: 'message',
      args: { content: 'Run the tests', image_urls: [], file_urls: [], wait_for_response: false },
    },
    { ...REQUEST, id: 1 },
    {
      id: 2,
      timestamp: STAMP,
      source: 'environment',
      message: '',
      observation: 'agent_state_changed',
      content: '',
      extras: { agent_state: 'awaiting_user_confirmation', reason: '' },
    },
  ];
  await routeConversation(page, {
    ...conversationInfo(id, 'Claude Code asks'),
    agent: 'claude-code',
    agent_state: 'awaiting_user_confirmation',
    dockhand_state: conversationState({
      status: 'RUNNING',
      start: { stage: 'ready' },
      agent_state: 'awaiting_user_confirmation',
    }),
  });
  await page.route(
    (url) => url.pathname === `/api/conversations/${id}/events/stream`,
    (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body: sseBody(events) }),
  );
  const answers: unknown[] = [];
  await page.route(
    (url) => url.pathname === `/api/conversations/${id}/events`,
    async (route) => {
      answers.push(route.request().postDataJSON());
      await route.fulfill({ status: 200, contentType: 'application/json', body: '{"success":true}' });
    },
  );

  await page.goto(service.link);
  await page.evaluate((hash) => (window.location.hash = hash), `#/conversations/${id}`);
  const panel = page
    .getByRole('region', { name: 'Workspace' })
    .getByRole('region', { name: 'The agent asks for your confirmation' });
  await expect(panel.locator('.confirmation-command')).toContainText('npm test');
  // Allow once and reject once are Confirm and Reject; the agent's other options are buttons of their own.
  await expect(panel.getByRole('button')).toHaveText([
    'Confirm Alt+Y',
    'Reject Alt+N',
    'Always Allow npm test',
  ]);
  // The header says what the sandbox may reach.
  await expect(page.locator('.conversation-context')).toContainText('Network: balanced');
  await screenshot(page, 'agent-permission-options');
  await panel.getByRole('button', { name: 'Always Allow npm test' }).click();
  await expect
    .poll(() => answers)
    .toEqual([
      { action: 'change_agent_state', args: { agent_state: 'user_confirmed', option_id: 'allow_always' } },
    ]);
});
