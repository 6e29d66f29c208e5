import type { ConversationInfo } from '../../shared/api/conversations';
import type { StartStage } from '../../shared/api/start-stage';
import { conversationState } from '../../shared/conversation-state';
import type { ServiceContext } from '../context';
import { sandboxKey } from '../secrets/sandbox-key';
import { conversationUrl } from './agent-server-url';
import { egressPreset } from './conversation-egress';
import type { ConversationRecord } from './conversation-store';
import { sandboxSecretNames } from './sandbox-secrets';

/** What only the running service knows of a conversation, beside its record. */
export interface LiveConversation {
  /** The agent's own state, else the recorded one. */
  agentState: string | null;
  connections: number;
  subConversationIds: string[];
  startStage: StartStage | null;
  changedFiles: number | null;
}

/** A conversation's info as the API shows it. */
export function conversationInfo(
  ctx: ServiceContext,
  record: ConversationRecord,
  live: LiveConversation,
): ConversationInfo {
  const sandbox = record.sandboxId ? ctx.sandboxes.find(record.sandboxId) : null;
  return {
    conversation_id: record.id,
    title: record.title,
    last_updated_at: record.lastUpdatedAt,
    status: record.status,
    runtime_status:
      record.status === 'STOPPED' && !record.runtimeStatus?.startsWith('STATUS$ERROR')
        ? null
        : record.runtimeStatus,
    selected_repository: record.selectedRepository,
    selected_branch: record.selectedBranch,
    git_provider: record.gitProvider,
    trigger: record.trigger,
    num_connections: live.connections,
    // As OpenHands: a V1 client reaches the conversation on its sandbox's agent-server endpoint.
    url:
      record.version !== 'V1'
        ? `/api/conversations/${record.id}`
        : sandbox
          ? conversationUrl(sandbox, record.id)
          : null,
    session_api_key:
      sandbox?.status === 'RUNNING' && record.sandboxId
        ? sandboxKey(ctx.sessionKey.current, record.sandboxId)
        : null,
    created_at: record.createdAt,
    pr_number: record.prNumber,
    conversation_version: record.version,
    sub_conversation_ids: live.subConversationIds,
    sandbox_id: record.sandboxId,
    agent_state: live.agentState,
    sandbox_secrets: sandboxSecretNames(ctx, record.request),
    agent: record.agent,
    dockhand_state: conversationState({
      status: record.status,
      start: live.startStage,
      agent_state: live.agentState,
      sandbox_status: sandbox?.status ?? null,
      sandbox_error: sandbox?.error ?? null,
    }),
    changed_files: live.changedFiles,
    network_policy: egressPreset(record.request.network_policy, ctx.settings.stored()),
  };
}
