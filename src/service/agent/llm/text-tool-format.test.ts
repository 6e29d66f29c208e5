import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import type { LlmToolDefinition } from './llm-types';
import {
  parseTextToolCalls,
  renderToolCall,
  textToolInstructions,
  toTextFormatMessages,
} from './text-tool-format';

const TOOLS: LlmToolDefinition[] = [
  {
    name: 'execute_bash',
    description: 'Run a bash command.',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command.' },
        timeout: { type: 'number', description: 'Seconds.' },
        is_input: { type: 'boolean' },
        security_risk: { type: 'string', enum: ['LOW', 'MEDIUM', 'HIGH'] },
      },
      required: ['command', 'security_risk'],
    },
  },
  {
    name: 'task_tracker',
    description: 'Plan tasks.',
    parameters: { type: 'object', properties: { task_list: { type: 'array' } } },
  },
];

describe('text tool format', () => {
  it('describes every tool and its parameters in the system prompt', () => {
    const text = textToolInstructions(TOOLS);
    expect(text).toContain('---- BEGIN FUNCTION #1: execute_bash ----');
    expect(text).toContain('  (1) command (string, required): The command.');
    expect(text).toContain(
      '  (4) security_risk (string, required): Allowed values: `LOW`, `MEDIUM`, `HIGH`.',
    );
    expect(text).toContain('---- END FUNCTION #2 ----');
    expect(text).toContain('<function=example_function_name>');
  });

  it('parses calls with typed, multi-line parameters and keeps the text before them', () => {
    const reply = [
      'I will run the tests.',
      '<function=execute_bash>',
      '<parameter=command>',
      'cd /workspace/project &&',
      'npm test',
      '</parameter>',
      '<parameter=timeout>30</parameter>',
      '<parameter=is_input>false</parameter>',
      '<parameter=security_risk>LOW</parameter>',
      '',
    ].join('\n');
    const { text, toolCalls } = parseTextToolCalls(reply, TOOLS);
    expect(text).toBe('I will run the tests.');
    expect(toolCalls).toHaveLength(1);
    expect(toolCalls[0]).toMatchObject({
      name: 'execute_bash',
      args: {
        command: 'cd /workspace/project &&\nnpm test',
        timeout: 30,
        is_input: false,
        security_risk: 'LOW',
      },
    });
    expect(JSON.parse(toolCalls[0]?.rawArgs ?? '')).toEqual(toolCalls[0]?.args);
    expect(toolCalls[0]?.id).toMatch(/^call_[0-9a-f]{24}$/);
  });

  it('parses JSON parameters of array type and several calls', () => {
    const reply =
      '<function=task_tracker>\n<parameter=task_list>[{"id":"1","title":"x","status":"todo"}]</parameter>\n</function>' +
      '<function=unknown_tool>\n<parameter=a>1</parameter>\n</function>';
    const { text, toolCalls } = parseTextToolCalls(reply, TOOLS);
    expect(text).toBe('');
    expect(toolCalls.map((c) => c.name)).toEqual(['task_tracker', 'unknown_tool']);
    expect(toolCalls[0]?.args).toEqual({ task_list: [{ id: '1', title: 'x', status: 'todo' }] });
    expect(toolCalls[1]?.args).toEqual({ a: '1' });
  });

  it('finds no call in plain text', () => {
    expect(parseTextToolCalls('Just an answer.', TOOLS)).toEqual({ text: 'Just an answer.', toolCalls: [] });
  });

  it('rewrites native tool calls and results as text', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Listing.' },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'execute_bash',
            input: { command: 'ls', timeout: 5 },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'execute_bash',
            output: { type: 'text', value: 'a.txt' },
          },
        ],
      },
    ];
    expect(toTextFormatMessages(messages)).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content:
          'Listing.\n<function=execute_bash>\n<parameter=command>ls</parameter>\n<parameter=timeout>5</parameter>\n</function>',
      },
      { role: 'user', content: 'EXECUTION RESULT of [execute_bash]:\na.txt' },
    ]);
  });

  it('round-trips a rendered call through the parser', () => {
    const rendered = renderToolCall('execute_bash', { command: 'echo "hi"', security_risk: 'LOW' });
    expect(parseTextToolCalls(rendered, TOOLS).toolCalls[0]?.args).toEqual({
      command: 'echo "hi"',
      security_risk: 'LOW',
    });
  });
});
