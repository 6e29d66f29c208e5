import { LLM_STATUS, LlmError } from './llm-errors';
import type { LlmClient, LlmToolDefinition, ToolCallFormat } from './llm-types';

/** How a model takes tools: native tool calls, OpenHands' text format, or not at all. */
export type ToolMode = 'native' | 'text' | 'none';

/** Marks the probe's requests (servers and test fakes can tell them from agent turns). */
export const TOOL_PROBE_MARKER = 'You are a tool-call check.';

const PROBE_TOOL: LlmToolDefinition = {
  name: 'report_number',
  description: 'Reports a number to the user.',
  parameters: {
    type: 'object',
    properties: { number: { type: 'integer', description: 'The number to report.' } },
    required: ['number'],
  },
};

async function callsTool(client: LlmClient, toolFormat: ToolCallFormat, signal?: AbortSignal) {
  const reply = await client.complete({
    system: `${TOOL_PROBE_MARKER} Call the report_number tool with the number 7. Write nothing else.`,
    messages: [{ role: 'user', content: 'Report the number 7 with the report_number tool.' }],
    tools: [PROBE_TOOL],
    toolFormat,
    maxOutputTokens: 256,
    signal,
  });
  return reply.toolCalls.some((call) => call.name === PROBE_TOOL.name);
}

/**
 * One-shot check of a model's tool calls: native first, then the text format. A failure that is not about
 * tools (unreachable, auth) is thrown, not taken as an answer.
 */
export async function probeToolCalls(client: LlmClient, signal?: AbortSignal): Promise<ToolMode> {
  try {
    if (await callsTool(client, 'native', signal)) return 'native';
  } catch (error) {
    if (!(error instanceof LlmError && error.kind === 'tools_unsupported')) throw error;
  }
  return (await callsTool(client, 'text', signal)) ? 'text' : 'none';
}

/** The refusal of a model that makes no tool call either way. */
export function noToolUseError(model: string): LlmError {
  return new LlmError(
    'other',
    `${model} made no tool call when asked to, neither natively nor in the text format, so it cannot do agent work. Choose a model that supports tool use (Settings → LLM → Test connection shows each model's tool mode).`,
    { statusId: LLM_STATUS.error },
  );
}
