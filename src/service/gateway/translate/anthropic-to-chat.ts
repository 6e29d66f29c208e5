import { asArray, asObject, asString, renamed, type Json } from './json';

/**
 * An Anthropic Messages request as an OpenAI Chat Completions request: system, text, images, tool_use and
 * tool_result blocks, tools and tool_choice. Thinking blocks and server tools have no Chat equivalent and
 * are left out.
 */

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((block) => asObject(block))
    .filter((block) => block.type === 'text')
    .map((block) => asString(block.text))
    .join('\n');
}

function imagePart(block: Json): Json | null {
  const source = asObject(block.source);
  if (source.type === 'base64')
    return {
      type: 'image_url',
      image_url: { url: `data:${asString(source.media_type)};base64,${asString(source.data)}` },
    };
  if (source.type === 'url') return { type: 'image_url', image_url: { url: asString(source.url) } };
  return null;
}

function userMessages(content: unknown): Json[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const tools: Json[] = [];
  const parts: Json[] = [];
  for (const block of asArray(content).map(asObject)) {
    if (block.type === 'tool_result') {
      const text = textOf(block.content);
      tools.push({
        role: 'tool',
        tool_call_id: asString(block.tool_use_id),
        content: block.is_error === true ? `Error: ${text}` : text,
      });
      // A Chat tool message holds text only: an image a tool returned (a screenshot, an image file read)
      // goes to the model in the user message that follows.
      for (const inner of asArray(block.content).map(asObject)) {
        const part = inner.type === 'image' ? imagePart(inner) : null;
        if (part) parts.push(part);
      }
    } else if (block.type === 'text') {
      parts.push({ type: 'text', text: asString(block.text) });
    } else if (block.type === 'image') {
      const part = imagePart(block);
      if (part) parts.push(part);
    }
  }
  // Tool results answer the assistant's calls, so they come right after its message.
  const user =
    parts.length === 0
      ? []
      : [
          {
            role: 'user',
            content: parts.every((p) => p.type === 'text') ? parts.map((p) => p.text).join('\n') : parts,
          },
        ];
  return [...tools, ...user];
}

function assistantMessage(content: unknown): Json {
  if (typeof content === 'string') return { role: 'assistant', content };
  const blocks = asArray(content).map(asObject);
  const text = blocks
    .filter((b) => b.type === 'text')
    .map((b) => asString(b.text))
    .join('');
  const calls = blocks
    .filter((b) => b.type === 'tool_use')
    .map((b) => ({
      id: asString(b.id),
      type: 'function',
      function: { name: asString(b.name), arguments: JSON.stringify(b.input ?? {}) },
    }));
  return { role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) };
}

function toolChoice(choice: Json): unknown {
  switch (choice.type) {
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: asString(choice.name) } };
    default:
      return 'auto';
  }
}

export function anthropicToChat(body: Json, model: string, stream: boolean): Json {
  const system = textOf(body.system);
  const messages: Json[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of asArray(body.messages).map(asObject)) {
    if (message.role === 'assistant') messages.push(assistantMessage(message.content));
    else messages.push(...userMessages(message.content));
  }
  const tools = asArray(body.tools)
    .map(asObject)
    .filter((tool) => tool.type === undefined || tool.type === 'custom')
    .map((tool) => ({
      type: 'function',
      function: {
        name: asString(tool.name),
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.input_schema ?? { type: 'object', properties: {} },
      },
    }));
  return {
    model,
    messages,
    ...renamed(body, {
      max_tokens: 'max_tokens',
      temperature: 'temperature',
      top_p: 'top_p',
      stop_sequences: 'stop',
    }),
    ...(tools.length ? { tools } : {}),
    ...(tools.length && body.tool_choice ? { tool_choice: toolChoice(asObject(body.tool_choice)) } : {}),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}
