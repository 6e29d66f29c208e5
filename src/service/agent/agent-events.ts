import type { LlmMetrics, NewDockhandEvent, ToolCall } from '../events/model/dockhand-event';
import { camel, rekeyed } from '../events/model/v0-codec';
import type { AgentState } from '../events/model/dockhand-event';

export { AGENT_STATES, type AgentState } from '../events/model/dockhand-event';

/** The events the agent loop appends, built in one place so their shapes stay consistent. */

export function agentStateChanged(state: AgentState, reason = ''): NewDockhandEvent {
  return { kind: 'status', source: 'environment', state, reason };
}

export function userMessage(content: string, imageUrls: string[] = []): NewDockhandEvent {
  return {
    kind: 'message',
    source: 'user',
    text: content,
    imageUrls,
    fileUrls: [],
    waitForResponse: false,
    securityRisk: -1,
  };
}

export function agentMessage(content: string, metrics?: LlmMetrics): NewDockhandEvent {
  return {
    kind: 'message',
    source: 'agent',
    text: content,
    imageUrls: null,
    fileUrls: null,
    waitForResponse: true,
    securityRisk: -1,
    ...(metrics ? { metrics } : {}),
  };
}

/** An `error` event; `link` names the action and the tool call it answers. */
export function errorObservation(
  content: string,
  link: { cause?: number; toolCall?: ToolCall } = {},
): NewDockhandEvent {
  return { kind: 'error', source: 'agent', text: content, errorId: '', ...link };
}

/** The `system` event; `mcpTools` is the MCP name map (model name -> server and tool). */
export function systemAction(
  content: string,
  tools: unknown[],
  version: string,
  mcpTools: Record<string, { server: string; tool: string }> = {},
): NewDockhandEvent {
  return {
    kind: 'system',
    source: 'agent',
    prompt: content,
    tools,
    version,
    agentClass: 'CodeActAgent',
    mcpTools,
  };
}

/**
 * A `recall` event: the workspace context (first message) or triggered knowledge (`recall_type`), with the
 * recalled facts as `recall-extras.ts` lists them.
 */
export function recallObservation(content: string, extras: Record<string, unknown>): NewDockhandEvent {
  const { recall_type: recallType, ...facts } = extras;
  return {
    kind: 'recall',
    source: 'environment',
    recallType: recallType === 'knowledge' ? 'knowledge' : 'workspace_context',
    text: content,
    context: rekeyed(facts, camel),
  };
}
