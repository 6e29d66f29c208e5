import { asArray, asObject, asString, renamed, type Json } from './json';

/**
 * An OpenAI Responses request (Codex) as a Chat Completions request: `instructions`, the `input` items
 * (messages, `function_call`, `function_call_output`, `custom_tool_call`, `custom_tool_call_output`), function
 * and custom tools, and tool_choice. Reasoning items and hosted tools (web search, file search) have no Chat
 * equivalent and are left out.
 *
 * A custom tool takes free text (Codex's `apply_patch`, whose fallback for a model it does not know is this
 * form): Chat has none, so it becomes a function with one string parameter, `input`, and the grammar, when
 * there is one, in that parameter's description.
 */

function contentOf(content: unknown): string | Json[] {
  if (typeof content === 'string') return content;
  const parts = asArray(content)
    .map(asObject)
    .flatMap((part): Json[] => {
      if (part.type === 'input_text' || part.type === 'output_text' || part.type === 'text')
        return [{ type: 'text', text: asString(part.text) }];
      if (part.type === 'input_image' && typeof part.image_url === 'string')
        return [{ type: 'image_url', image_url: { url: part.image_url } }];
      return [];
    });
  return parts.every((p) => p.type === 'text') ? parts.map((p) => asString(p.text)).join('\n') : parts;
}

/** The assistant message that function calls join: the last message when it is the assistant's. */
function assistantFor(messages: Json[]): Json {
  const last = messages.at(-1);
  if (last?.role === 'assistant') return last;
  const message: Json = { role: 'assistant', content: null };
  messages.push(message);
  return message;
}

function messagesOf(body: Json): Json[] {
  const messages: Json[] = [];
  const instructions = asString(body.instructions);
  if (instructions) messages.push({ role: 'system', content: instructions });
  if (typeof body.input === 'string') {
    messages.push({ role: 'user', content: body.input });
    return messages;
  }
  for (const item of asArray(body.input).map(asObject)) {
    const type = item.type ?? (item.role ? 'message' : undefined);
    if (type === 'message') {
      const role = item.role === 'developer' ? 'system' : asString(item.role) || 'user';
      messages.push({ role, content: contentOf(item.content) });
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      const assistant = assistantFor(messages);
      const calls = asArray(assistant.tool_calls);
      const args =
        type === 'custom_tool_call'
          ? JSON.stringify({ input: asString(item.input) })
          : asString(item.arguments);
      calls.push({
        id: asString(item.call_id),
        type: 'function',
        function: { name: asString(item.name), arguments: args || '{}' },
      });
      assistant.tool_calls = calls;
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      const output = item.output;
      messages.push({
        role: 'tool',
        tool_call_id: asString(item.call_id),
        content: typeof output === 'string' ? output : contentOf(output),
      });
    }
  }
  return messages;
}

function toolChoice(choice: unknown): unknown {
  if (typeof choice === 'string') return choice;
  const value = asObject(choice);
  return value.type === 'function' || value.type === 'custom'
    ? { type: 'function', function: { name: asString(value.name) } }
    : 'auto';
}

/** The names of the request's custom (free text) tools, whose calls go back as `custom_tool_call`. */
export function customToolNames(body: Json): Set<string> {
  return new Set(
    asArray(body.tools)
      .map(asObject)
      .filter((tool) => tool.type === 'custom')
      .map((tool) => asString(tool.name)),
  );
}

function customParameters(tool: Json): Json {
  const format = asObject(tool.format);
  const grammar =
    format.type === 'grammar'
      ? ` It must follow this ${asString(format.syntax)} grammar:\n${asString(format.definition)}`
      : '';
  return {
    type: 'object',
    properties: {
      input: { type: 'string', description: `The tool's whole input, as plain text.${grammar}` },
    },
    required: ['input'],
  };
}

export function responsesToChat(body: Json, model: string, stream: boolean): Json {
  const tools = asArray(body.tools)
    .map(asObject)
    .filter((tool) => tool.type === 'function' || tool.type === 'custom')
    .map((tool) => ({
      type: 'function',
      function: {
        name: asString(tool.name),
        ...(tool.description ? { description: tool.description } : {}),
        parameters:
          tool.type === 'custom'
            ? customParameters(tool)
            : (tool.parameters ?? { type: 'object', properties: {} }),
      },
    }));
  return {
    model,
    messages: messagesOf(body),
    ...renamed(body, { max_output_tokens: 'max_tokens', temperature: 'temperature', top_p: 'top_p' }),
    ...(tools.length ? { tools } : {}),
    ...(tools.length && body.tool_choice !== undefined ? { tool_choice: toolChoice(body.tool_choice) } : {}),
    ...(tools.length && typeof body.parallel_tool_calls === 'boolean'
      ? { parallel_tool_calls: body.parallel_tool_calls }
      : {}),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}
