import type { SavedCall } from './agent-state-store';
import { LlmError } from './llm/llm-errors';
import type { LlmResponse } from './llm/llm-types';

/**
 * The calls of one model reply, queued to run in order: the reply's text is the first call's thought, and
 * each call carries the metadata that pairs its result with it (`tool_call_metadata`).
 */
export function queuedCalls(response: LlmResponse): SavedCall[] {
  return response.toolCalls.map((call, index) => ({
    call,
    thought: index === 0 ? response.text : '',
    metadata: {
      function_name: call.name,
      tool_call_id: call.id,
      model_response: { id: response.responseId },
      total_calls_in_response: response.toolCalls.length,
      arguments: call.args ?? call.rawArgs,
    },
  }));
}

/**
 * What a failed model call means for the loop: `text_tools` (the model refuses native tool calls: describe
 * the tools in OpenHands' text format from now on), `overflow` (the prompt did not fit: condense, unless it
 * keeps happening), `fail` (the agent enters `error` with this reason and status), or null for an error that
 * is not the model's (thrown on).
 */
export type ModelFailure =
  | { kind: 'text_tools' }
  | { kind: 'overflow' }
  | { kind: 'fail'; reason: string; statusId: string | undefined };

export function modelFailure(error: unknown, textTools: boolean): ModelFailure | null {
  if (!(error instanceof LlmError)) return null;
  if (error.kind === 'tools_unsupported' && !textTools) return { kind: 'text_tools' };
  if (error.kind === 'context_overflow') return { kind: 'overflow' };
  return { kind: 'fail', reason: error.message, statusId: error.statusId ?? undefined };
}
