import type { ConversationRecord } from '../../src/service/conversations/conversation-store';

/** A conversation record with no repository, sandbox or start request, for seeding a data folder directly. */
export function blankConversation(
  id: string,
  overrides: Partial<ConversationRecord> = {},
): ConversationRecord {
  const now = new Date().toISOString();
  return {
    id,
    title: `Conversation ${id.slice(0, 5)}`,
    titleIsCustom: false,
    status: 'STOPPED',
    runtimeStatus: null,
    agentState: null,
    selectedRepository: null,
    selectedBranch: null,
    gitProvider: null,
    trigger: 'gui',
    prNumber: [],
    version: 'V0',
    sandboxId: null,
    parentConversationId: null,
    llmModel: null,
    agent: 'dockhand',
    acpSession: null,
    request: { initial_user_msg: null, image_urls: [], conversation_instructions: null },
    createdAt: now,
    lastUpdatedAt: now,
    ...overrides,
  };
}
