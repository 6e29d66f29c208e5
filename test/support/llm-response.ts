import type { LlmResponse, LlmUsage } from '../../src/service/agent/llm/llm-types';

/**
 * A model reply as an `LlmClient` returns it: one priced call, ended by its tool calls or else by `stop`.
 * `fields` replace the defaults; `usage` is merged, so a test names only the counts it checks.
 */
export function llmResponse(
  fields: Partial<Omit<LlmResponse, 'usage'>> & { usage?: Partial<LlmUsage> } = {},
): LlmResponse {
  const { usage, ...rest } = fields;
  const toolCalls = rest.toolCalls ?? [];
  return {
    text: '',
    toolCalls,
    finishReason: toolCalls.length ? 'tool_calls' : 'stop',
    cost: { usd: 0, known: true, source: 'price_table' },
    responseId: 'resp',
    model: 'gpt-4o',
    latencyMs: 1,
    attempts: 1,
    ...rest,
    usage: { prompt: 1, completion: 1, cache_read: 0, cache_write: 0, estimated: false, ...usage },
  };
}
