import { describe, expect, it } from 'vitest';
import { LLM_STATUS, LlmError } from './llm/llm-errors';
import type { LlmResponse } from './llm/llm-types';
import { modelFailure, queuedCalls } from './model-reply';
import { llmResponse } from '../../../test/support/llm-response';

function reply(text: string, toolCalls: LlmResponse['toolCalls']): LlmResponse {
  return llmResponse({ text, toolCalls, finishReason: 'tool_calls', responseId: 'resp-7' });
}

describe('queuedCalls', () => {
  it('queues the calls in order, the text as the first thought, each with its metadata', () => {
    const calls = queuedCalls(
      reply('Let me look.', [
        { id: 'a', name: 'execute_bash', rawArgs: '{"command":"ls"}', args: { command: 'ls' } },
        { id: 'b', name: 'think', rawArgs: '{"thought":', args: undefined, argsError: 'Unexpected end' },
      ]),
    );
    expect(calls.map((c) => c.thought)).toEqual(['Let me look.', '']);
    expect(calls.map((c) => c.metadata)).toEqual([
      {
        function_name: 'execute_bash',
        tool_call_id: 'a',
        model_response: { id: 'resp-7' },
        total_calls_in_response: 2,
        arguments: { command: 'ls' },
      },
      {
        function_name: 'think',
        tool_call_id: 'b',
        model_response: { id: 'resp-7' },
        total_calls_in_response: 2,
        arguments: '{"thought":',
      },
    ]);
    expect(calls[1]?.call.argsError).toBe('Unexpected end');
  });

  it('queues nothing for a text reply', () => {
    expect(queuedCalls(reply('Done.', []))).toEqual([]);
  });
});

describe('modelFailure', () => {
  const error = (kind: LlmError['kind'], statusId: LlmError['statusId'] = null) =>
    new LlmError(kind, `${kind} happened`, { statusId });

  it('switches to the text tool format once when the model refuses native tool calls', () => {
    expect(modelFailure(error('tools_unsupported'), false)).toEqual({ kind: 'text_tools' });
    expect(modelFailure(error('tools_unsupported'), true)).toEqual({
      kind: 'fail',
      reason: 'tools_unsupported happened',
      statusId: undefined,
    });
  });

  it('condenses on a context overflow', () => {
    expect(modelFailure(error('context_overflow'), false)).toEqual({ kind: 'overflow' });
  });

  it('fails with the error’s message and status id otherwise', () => {
    expect(modelFailure(error('auth', LLM_STATUS.authentication), false)).toEqual({
      kind: 'fail',
      reason: 'auth happened',
      statusId: LLM_STATUS.authentication,
    });
  });

  it('leaves errors that are not the model’s to the caller', () => {
    expect(modelFailure(new Error('disk full'), false)).toBeNull();
  });
});
