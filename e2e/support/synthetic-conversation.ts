import type { Page, Route } from '@playwright/test';
import type { ConversationInfo } from '../../src/shared/api/conversations';
import type { V0Event } from '../../src/shared/api/events';
import { conversationState } from '../../src/shared/conversation-state';

const STAMP = '2025-11-28T16:16:34.123Z';

/** A running conversation record, as `GET /api/conversations/{id}` answers. */
export function conversationInfo(id: string, title: string): ConversationInfo {
  return {
    conversation_id: id,
    title,
    last_updated_at: STAMP,
    status: 'RUNNING',
    runtime_status: 'STATUS$READY',
    selected_repository: null,
    selected_branch: null,
    git_provider: null,
    trigger: 'gui',
    num_connections: 1,
    url: `/api/conversations/${id}`,
    session_api_key: null,
    created_at: STAMP,
    pr_number: [],
    conversation_version: 'V0',
    sub_conversation_ids: [],
    sandbox_id: null,
    agent_state: 'awaiting_user_input',
    sandbox_secrets: [],
    agent: 'dockhand',
    dockhand_state: conversationState({
      status: 'RUNNING',
      start: { stage: 'ready' },
      agent_state: 'awaiting_user_input',
    }),
    changed_files: null,
    network_policy: 'balanced',
  };
}

/**
 * Four events per round: the user's question, the agent's command, its output, the agent's reply
 * ("Question number <n>", `echo <n>`, "Reply number <n>"). `first` replaces the first question's text.
 */
export function syntheticEvents(rounds: number, first?: string): V0Event[] {
  const events: V0Event[] = [];
  for (let round = 0; round < rounds; round++) {
    const id = round * 4;
    const question = round === 0 && first !== undefined ? first : `Question number ${round}`;
    const command = `echo ${round}`;
    events.push(
      {
        id,
        timestamp: STAMP,
        source: 'user',
        message: question,
        action: 'message',
        args: { content: question },
      },
      {
        id: id + 1,
        timestamp: STAMP,
        source: 'agent',
        message: `Running command: ${command}`,
        action: 'run',
        args: { command, thought: '', confirmation_state: 'confirmed', security_risk: 0 },
      },
      {
        id: id + 2,
        timestamp: STAMP,
        source: 'agent',
        message: `Command \`${command}\` executed with exit code 0.`,
        observation: 'run',
        content: String(round),
        extras: { command, metadata: { exit_code: 0 } },
        cause: id + 1,
        success: true,
      },
      {
        id: id + 3,
        timestamp: STAMP,
        source: 'agent',
        message: `Reply number ${round}`,
        action: 'message',
        args: { content: `Reply number ${round}` },
      },
    );
  }
  return events;
}

/** An SSE body: every event as an `oh_event` frame, then `replay_done`. */
export function sseBody(events: V0Event[]): string {
  const frames = events.map((e) => `id: ${e.id}\nevent: oh_event\ndata: ${JSON.stringify(e)}\n\n`);
  const last = events.at(-1)?.id ?? -1;
  return `retry: 3000\n\n${frames.join('')}event: replay_done\ndata: {"last_event_id":${last}}\n\n`;
}

/** Answers `GET /api/conversations/{id}` for a conversation that exists only in the page's eyes. */
export async function routeConversation(page: Page, info: ConversationInfo): Promise<void> {
  await page.route(
    (url) => url.pathname === `/api/conversations/${info.conversation_id}`,
    (route: Route) => route.fulfill({ json: info }),
  );
}
