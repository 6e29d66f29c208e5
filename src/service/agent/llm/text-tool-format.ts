import { randomUUID } from 'node:crypto';
import type { JSONSchema7, ModelMessage, ToolResultPart } from 'ai';
import type { LlmToolCall, LlmToolDefinition } from './llm-types';

/**
 * OpenHands' text tool format, for models without native tool calls: the tools are described in the
 * system prompt, calls are written as `<function=N><parameter=P>V</parameter></function>` (the model
 * stops at `</function`), and results come back as user messages.
 */

export const TEXT_FORMAT_STOP = '</function';

type SchemaDefinition = NonNullable<JSONSchema7['properties']>[string];

function propertiesOf(tool: LlmToolDefinition): [string, JSONSchema7][] {
  return Object.entries(tool.parameters.properties ?? {}).map(
    ([name, schema]: [string, SchemaDefinition]) => [name, typeof schema === 'boolean' ? {} : schema],
  );
}

function describeTool(tool: LlmToolDefinition, n: number): string {
  const required = new Set(tool.parameters.required ?? []);
  const parameters = propertiesOf(tool).map(([name, schema], i) => {
    const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'string');
    const allowed =
      schema.enum && `Allowed values: ${schema.enum.map((v) => `\`${String(v)}\``).join(', ')}.`;
    const about = [schema.description, allowed].filter(Boolean).join(' ');
    const need = required.has(name) ? 'required' : 'optional';
    return `  (${i + 1}) ${name} (${type}, ${need}): ${about}`;
  });
  return [
    `---- BEGIN FUNCTION #${n}: ${tool.name} ----`,
    `Description: ${tool.description}`,
    parameters.length
      ? `Parameters:\n${parameters.join('\n')}`
      : 'No parameters are required for this function.',
    `---- END FUNCTION #${n} ----`,
  ].join('\n');
}

/** The system-prompt section that describes the tools and the call format. */
export function textToolInstructions(tools: LlmToolDefinition[]): string {
  return `You have access to the following functions:

${tools.map((tool, i) => describeTool(tool, i + 1)).join('\n\n')}

If you choose to call a function, reply ONLY in the following format, with nothing after it:

<function=example_function_name>
<parameter=example_parameter_1>value_1</parameter>
<parameter=example_parameter_2>
A value that
spans several lines
</parameter>
</function>

<IMPORTANT>
Reminder:
- A function call MUST follow this format: it starts with <function= and ends with </function>
- Required parameters MUST be given
- Call only one function at a time
- You may explain your reasoning in natural language BEFORE the function call, but NOT after it
- If no function fits, answer normally and do not mention function calls
</IMPORTANT>`;
}

function parameterText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function renderToolCall(name: string, args: unknown): string {
  const entries = args && typeof args === 'object' ? Object.entries(args as Record<string, unknown>) : [];
  const parameters = entries.map(([key, value]) => `<parameter=${key}>${parameterText(value)}</parameter>\n`);
  return `<function=${name}>\n${parameters.join('')}</function>`;
}

function resultText(part: ToolResultPart): string {
  const output = part.output;
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return output.reason ?? 'The call was not executed.';
    case 'content':
      return output.value.map((item) => (item.type === 'text' ? item.text : '[image omitted]')).join('\n');
  }
}

/** The conversation with native tool calls and results rewritten as text. */
export function toTextFormatMessages(messages: ModelMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      const text = message.content
        .map((part) =>
          part.type === 'text'
            ? part.text
            : part.type === 'tool-call'
              ? renderToolCall(part.toolName, part.input)
              : '',
        )
        .filter(Boolean)
        .join('\n');
      return { role: 'assistant', content: text };
    }
    if (message.role === 'tool') {
      const results = message.content.filter((part): part is ToolResultPart => part.type === 'tool-result');
      return {
        role: 'user',
        content: results
          .map((part) => `EXECUTION RESULT of [${part.toolName}]:\n${resultText(part)}`)
          .join('\n\n'),
      };
    }
    return message;
  });
}

function coerce(raw: string, schema: JSONSchema7 | undefined): unknown {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if ((type === 'integer' || type === 'number') && raw.trim() !== '' && Number.isFinite(Number(raw))) {
    return Number(raw);
  }
  if (type === 'boolean' && /^(true|false)$/i.test(raw.trim())) return raw.trim().toLowerCase() === 'true';
  if (type === 'array' || type === 'object') {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

/** One newline right after the opening tag and right before the closing tag belongs to the format. */
function unwrap(value: string): string {
  return value.replace(/^\n/, '').replace(/\n$/, '');
}

/** Splits a text-format reply into its leading text and its calls (arguments typed by each tool's schema). */
export function parseTextToolCalls(
  reply: string,
  tools: LlmToolDefinition[],
): { text: string; toolCalls: LlmToolCall[] } {
  const functionPattern = /<function=([^>\s]+)>([\s\S]*?)(?:<\/function>|(?=<function=)|$)/g;
  const parameterPattern = /<parameter=([^>\s]+)>([\s\S]*?)<\/parameter>/g;
  const first = reply.indexOf('<function=');
  const text = (first < 0 ? reply : reply.slice(0, first)).trim();
  const toolCalls = [...reply.matchAll(functionPattern)].map(([, name = '', body = '']): LlmToolCall => {
    const schemas = new Map(
      propertiesOf(tools.find((t) => t.name === name) ?? { name, description: '', parameters: {} }),
    );
    const args: Record<string, unknown> = {};
    for (const [, key = '', value = ''] of body.matchAll(parameterPattern)) {
      args[key] = coerce(unwrap(value), schemas.get(key));
    }
    return {
      id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      name,
      rawArgs: JSON.stringify(args),
      args,
    };
  });
  return { text, toolCalls };
}
