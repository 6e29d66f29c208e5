import type { NewEvent } from '../../shared/api/events';
import type { AgentState } from '../events/model/dockhand-event';

export { AGENT_STATES, type AgentState } from '../events/model/dockhand-event';

/** The V0 events the agent loop appends, built in one place so their shapes stay consistent. */

export function agentStateChanged(state: AgentState, reason = ''): NewEvent {
  return {
    source: 'environment',
    message: '',
    observation: 'agent_state_changed',
    content: '',
    extras: { agent_state: state, reason },
  };
}

export function userMessage(content: string, imageUrls: string[] = []): NewEvent {
  return {
    source: 'user',
    message: content,
    action: 'message',
    args: { content, image_urls: imageUrls, file_urls: [], wait_for_response: false, security_risk: -1 },
  };
}

export function agentMessage(content: string, metadata: Record<string, unknown>): NewEvent {
  return {
    source: 'agent',
    message: content,
    action: 'message',
    args: { content, image_urls: null, file_urls: null, wait_for_response: true, security_risk: -1 },
    ...metadata,
  };
}

export function errorObservation(content: string, extra: Partial<NewEvent> = {}): NewEvent {
  return {
    source: 'agent',
    message: content,
    observation: 'error',
    content,
    extras: { error_id: '' },
    ...extra,
  };
}

/** The `system` event; `mcpTools` is the MCP name map (model name -> server and tool). */
export function systemAction(
  content: string,
  tools: unknown[],
  version: string,
  mcpTools: Record<string, { server: string; tool: string }> = {},
): NewEvent {
  return {
    source: 'agent',
    message: content,
    action: 'system',
    args: { content, tools, openhands_version: version, agent_class: 'CodeActAgent', mcp_tools: mcpTools },
  };
}

/** A `recall` observation: the workspace context (first message) or triggered knowledge (`extras.recall_type`). */
export function recallObservation(content: string, extras: Record<string, unknown>): NewEvent {
  const knowledge = extras.recall_type === 'knowledge';
  return {
    source: 'environment',
    message: knowledge ? 'Added microagent knowledge' : 'Added workspace context',
    observation: 'recall',
    content,
    extras: { recall_type: 'workspace_context', ...extras },
  };
}
