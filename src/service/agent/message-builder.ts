import type { V0Event } from '../../shared/api/events';
import type { ModelMessage } from './llm/llm-types';

const MAX_OBSERVATION_CHARS = 30_000;
const ERROR_SUFFIX = '\n[Error occurred in processing last action]';

/** `tool_call_metadata` of agent actions; `arguments` (an extension) keeps the call as the model sent it. */
export interface CallMetadata {
  function_name: string;
  tool_call_id: string;
  model_response: { id: string };
  total_calls_in_response: number;
  arguments: unknown;
}

interface PendingResponse {
  thought: string;
  calls: { id: string; name: string; input: unknown }[];
  results: Map<string, string>;
}

function metadataOf(event: V0Event): CallMetadata | undefined {
  return event.tool_call_metadata as CallMetadata | undefined;
}

function cutMiddle(text: string): string {
  if (text.length <= MAX_OBSERVATION_CHARS) return text;
  const half = MAX_OBSERVATION_CHARS / 2;
  return `${text.slice(0, half)}\n[... Observation truncated due to length ...]\n${text.slice(-half)}`;
}

/** The text the model reads for an observation. */
function resultText(event: V0Event): string {
  const content = event.content ?? '';
  if (event.observation === 'error') return content + ERROR_SUFFIX;
  if (event.observation === 'user_rejected') {
    return `OBSERVATION:\n${content}\n[Last action has been rejected by the user]`;
  }
  return event.observation === 'edit' || event.observation === 'read' ? content : cutMiddle(content);
}

/**
 * Builds the model's messages from the event log: user and agent messages, each model response's tool calls
 * as one assistant message followed by their results in call order (only once every call has a result),
 * recall context as user text. State changes, system and hidden events are left out.
 */
export function buildMessages(events: V0Event[]): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const responses = new Map<string, PendingResponse>();
  const callOfAction = new Map<number, CallMetadata>();

  const flush = (responseId: string) => {
    const response = responses.get(responseId);
    if (!response || response.calls.some((c) => !response.results.has(c.id))) return;
    responses.delete(responseId);
    messages.push({
      role: 'assistant',
      content: [
        ...(response.thought ? [{ type: 'text' as const, text: response.thought }] : []),
        ...response.calls.map((c) => ({
          type: 'tool-call' as const,
          toolCallId: c.id,
          toolName: c.name,
          input: c.input,
        })),
      ],
    });
    messages.push({
      role: 'tool',
      content: response.calls.map((c) => ({
        type: 'tool-result' as const,
        toolCallId: c.id,
        toolName: c.name,
        output: { type: 'text' as const, value: response.results.get(c.id) as string },
      })),
    });
  };

  const userCommands = new Set<number>();
  for (const event of events) {
    if ((event.args as { hidden?: boolean } | undefined)?.hidden) continue;
    const metadata = metadataOf(event);
    if (event.source === 'user' && event.action === 'run') {
      userCommands.add(event.id);
      messages.push({
        role: 'user',
        content: `User executed the command:\n${String((event.args as { command?: unknown }).command)}`,
      });
    } else if (
      event.source === 'user' &&
      event.observation === 'run' &&
      event.cause !== undefined &&
      userCommands.has(event.cause)
    ) {
      messages.push({
        role: 'user',
        content: `Observed result of command executed by user:\n${cutMiddle(event.content ?? '')}`,
      });
    } else if (event.action === 'message') {
      const content = String((event.args as { content?: unknown } | undefined)?.content ?? event.message);
      messages.push({ role: event.source === 'user' ? 'user' : 'assistant', content });
    } else if (event.action === 'finish') {
      messages.push({
        role: 'assistant',
        content: String((event.args as { final_thought?: unknown }).final_thought ?? ''),
      });
    } else if (event.action && metadata) {
      const responseId = metadata.model_response.id;
      const response: PendingResponse = responses.get(responseId) ?? {
        thought: '',
        calls: [],
        results: new Map(),
      };
      if (response.calls.length === 0)
        response.thought = String((event.args as { thought?: unknown }).thought ?? '');
      if (!response.calls.some((c) => c.id === metadata.tool_call_id)) {
        response.calls.push({
          id: metadata.tool_call_id,
          name: metadata.function_name,
          input: metadata.arguments ?? {},
        });
      }
      responses.set(responseId, response);
      if (event.id !== undefined) callOfAction.set(event.id, metadata);
    } else if (event.observation === 'recall' && event.content) {
      messages.push({ role: 'user', content: event.content });
    } else if (event.observation && event.observation !== 'agent_state_changed') {
      const call = metadata ?? (event.cause !== undefined ? callOfAction.get(event.cause) : undefined);
      if (!call) continue;
      const response: PendingResponse = responses.get(call.model_response.id) ?? {
        thought: '',
        calls: [{ id: call.tool_call_id, name: call.function_name, input: {} }],
        results: new Map(),
      };
      responses.set(call.model_response.id, response);
      response.results.set(call.tool_call_id, resultText(event));
      flush(call.model_response.id);
    }
  }
  return messages;
}
