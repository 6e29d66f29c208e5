import { describe, expect, it } from 'vitest';
import { resolveModelRoute } from '../llm/model-routing';
import { tokenEstimate } from './token-estimate';

describe('tokenEstimate', () => {
  const route = resolveModelRoute('openai/gpt-4o');

  it('counts the characters of the system prompt, messages, tool calls and results, divided by 4', () => {
    const estimate = tokenEstimate(route, {
      system: 's'.repeat(400),
      messages: [
        { role: 'user', content: 'u'.repeat(800) },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 't'.repeat(40) },
            { type: 'tool-call', toolCallId: 'c', toolName: 'execute_bash', input: { command: 'ls' } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c',
              toolName: 'execute_bash',
              output: { type: 'text', value: 'r'.repeat(1000) },
            },
          ],
        },
      ],
    });
    const toolParts =
      JSON.stringify({ command: 'ls' }).length +
      JSON.stringify({ type: 'text', value: 'r'.repeat(1000) }).length;
    expect(estimate).toBe(Math.ceil((400 + 800 + 40 + toolParts) / 4));
  });

  it('counts the tool definitions', () => {
    const tools = [{ name: 'think', description: 'd'.repeat(100), parameters: { type: 'object' as const } }];
    const without = tokenEstimate(route, { system: '', messages: [] });
    expect(tokenEstimate(route, { system: '', messages: [], tools })).toBe(
      without + Math.ceil(JSON.stringify(tools).length / 4),
    );
  });
});
