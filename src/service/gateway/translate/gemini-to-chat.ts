import { asArray, asObject, asString, type Json } from './json';

/**
 * A Gemini `generateContent` request (Gemini CLI) as a Chat Completions request: `systemInstruction`,
 * `contents` (text, inline images, `functionCall`, `functionResponse`), function declarations, the function
 * calling mode and the generation settings. Thought parts are left out.
 */

/** Gemini's OpenAPI-style schemas name types in capitals (`OBJECT`); JSON Schema writes them lower case. */
function jsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema as Json).map(([key, value]) => [
      key,
      key === 'type' && typeof value === 'string' ? value.toLowerCase() : jsonSchema(value),
    ]),
  );
}

function textOf(parts: Json[]): string {
  return parts
    .filter((part) => typeof part.text === 'string' && part.thought !== true)
    .map((part) => asString(part.text))
    .join('');
}

/**
 * Gemini may send calls without ids; Chat needs them to pair a result with its call. A call without an id
 * gets one from its name and place, and a response without an id pairs with the oldest open call of its name.
 */
class CallIds {
  private readonly open: { id: string; name: string }[] = [];
  private count = 0;

  call(fn: Json): string {
    const id = asString(fn.id) || `call_${this.count}_${asString(fn.name)}`;
    this.count += 1;
    this.open.push({ id, name: asString(fn.name) });
    return id;
  }

  response(fn: Json): string {
    const given = asString(fn.id);
    const index = this.open.findIndex((c) => (given ? c.id === given : c.name === asString(fn.name)));
    const match = index >= 0 ? this.open.splice(index, 1)[0] : undefined;
    return given || match?.id || `call_unmatched_${asString(fn.name)}`;
  }
}

function modelMessage(parts: Json[], ids: CallIds): Json {
  const calls = parts
    .map((part) => asObject(part.functionCall))
    .filter((fn) => fn.name !== undefined)
    .map((fn) => ({
      id: ids.call(fn),
      type: 'function',
      function: { name: asString(fn.name), arguments: JSON.stringify(fn.args ?? {}) },
    }));
  return {
    role: 'assistant',
    content: textOf(parts) || null,
    ...(calls.length ? { tool_calls: calls } : {}),
  };
}

function userMessages(parts: Json[], ids: CallIds): Json[] {
  const messages: Json[] = [];
  const content: Json[] = [];
  for (const part of parts) {
    const response = asObject(part.functionResponse);
    if (response.name !== undefined) {
      messages.push({
        role: 'tool',
        tool_call_id: ids.response(response),
        content: JSON.stringify(response.response ?? {}),
      });
    } else if (typeof part.text === 'string' && part.thought !== true) {
      content.push({ type: 'text', text: part.text });
    } else if (part.inlineData) {
      const data = asObject(part.inlineData);
      content.push({
        type: 'image_url',
        image_url: { url: `data:${asString(data.mimeType)};base64,${asString(data.data)}` },
      });
    }
  }
  if (content.length) {
    const textOnly = content.every((p) => p.type === 'text');
    messages.push({
      role: 'user',
      content: textOnly ? content.map((p) => asString(p.text)).join('') : content,
    });
  }
  return messages;
}

const MODES: Record<string, string> = { AUTO: 'auto', ANY: 'required', NONE: 'none', VALIDATED: 'auto' };

/** A JSON answer asked for (Gemini CLI's checks ask with a schema) as Chat's `response_format`. */
function responseFormat(config: Json): Json {
  const schema =
    config.responseJsonSchema ?? (config.responseSchema ? jsonSchema(config.responseSchema) : undefined);
  if (schema) return { response_format: { type: 'json_schema', json_schema: { name: 'response', schema } } };
  return config.responseMimeType === 'application/json' ? { response_format: { type: 'json_object' } } : {};
}

export function geminiToChat(body: Json, model: string, stream: boolean): Json {
  const messages: Json[] = [];
  const system = textOf(asArray(asObject(body.systemInstruction).parts).map(asObject));
  if (system) messages.push({ role: 'system', content: system });
  const ids = new CallIds();
  for (const content of asArray(body.contents).map(asObject)) {
    const parts = asArray(content.parts).map(asObject);
    if (content.role === 'model') messages.push(modelMessage(parts, ids));
    else messages.push(...userMessages(parts, ids));
  }
  const tools = asArray(body.tools)
    .flatMap((tool) => asArray(asObject(tool).functionDeclarations))
    .map(asObject)
    .map((fn) => ({
      type: 'function',
      function: {
        name: asString(fn.name),
        ...(fn.description ? { description: fn.description } : {}),
        parameters: fn.parametersJsonSchema ??
          jsonSchema(fn.parameters) ?? { type: 'object', properties: {} },
      },
    }));
  const config = asObject(body.generationConfig);
  const mode = asString(asObject(asObject(body.toolConfig).functionCallingConfig).mode);
  return {
    model,
    messages,
    ...(config.maxOutputTokens !== undefined ? { max_tokens: config.maxOutputTokens } : {}),
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.topP !== undefined ? { top_p: config.topP } : {}),
    ...(config.stopSequences !== undefined ? { stop: config.stopSequences } : {}),
    ...responseFormat(config),
    ...(tools.length ? { tools } : {}),
    ...(tools.length && MODES[mode] ? { tool_choice: MODES[mode] } : {}),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}
