import { asArray, asObject, asString, type Json } from './json';

/** An OpenAI Chat Completions reply, whole or as it streams: what the translations to other formats read. */

export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ChatReply {
  id: string;
  model: string;
  text: string;
  /** What a reasoning model thought before answering (`reasoning_content`, or `reasoning`), else ''. */
  reasoning: string;
  toolCalls: ChatToolCall[];
  /** `stop`, `length`, `tool_calls`, `content_filter`, or null when the stream ended without one. */
  finishReason: string | null;
  /** The provider's `usage` object as sent, or null. */
  usage: Record<string, unknown> | null;
}

/** Reasoning servers name it `reasoning_content` (DeepSeek, vLLM, LM Studio) or `reasoning` (Ollama, OpenRouter). */
function reasoningOf(message: Json): string {
  return asString(message.reasoning_content) || asString(message.reasoning);
}

/** A non-streamed chat completion. */
export function chatReplyOf(body: unknown): ChatReply {
  const json = asObject(body);
  const choice = asObject(asArray(json.choices)[0]);
  const message = asObject(choice.message);
  const calls = asArray(message.tool_calls);
  return {
    id: asString(json.id),
    model: asString(json.model),
    text: asString(message.content),
    reasoning: reasoningOf(message),
    toolCalls: calls.map((raw, i) => {
      const call = asObject(raw);
      const fn = asObject(call.function);
      return {
        id: asString(call.id) || `call_${i}`,
        name: asString(fn.name),
        arguments: asString(fn.arguments),
      };
    }),
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    usage: json.usage && typeof json.usage === 'object' ? (json.usage as Json) : null,
  };
}

/** What a streamed reply brings, in order. */
export interface ChatStreamSink {
  reasoning(delta: string): void;
  text(delta: string): void;
  toolStart(position: number, call: { id: string; name: string }): void;
  toolArguments(position: number, delta: string): void;
}

/** Reads the chunks of a streamed chat completion into a `ChatReply`, telling `sink` each new part. */
export class ChatStreamReader {
  readonly reply: ChatReply = {
    id: '',
    model: '',
    text: '',
    reasoning: '',
    toolCalls: [],
    finishReason: null,
    usage: null,
  };
  /** Chat's tool call `index` → position in `reply.toolCalls`. */
  private readonly positions = new Map<number, number>();

  constructor(private readonly sink: ChatStreamSink) {}

  chunk(json: Json): void {
    this.reply.id ||= asString(json.id);
    this.reply.model ||= asString(json.model);
    if (json.usage && typeof json.usage === 'object') this.reply.usage = json.usage as Json;
    const choice = asObject(asArray(json.choices)[0]);
    const delta = asObject(choice.delta);
    const reasoning = reasoningOf(delta);
    if (reasoning) {
      this.reply.reasoning += reasoning;
      this.sink.reasoning(reasoning);
    }
    const text = asString(delta.content);
    if (text) {
      this.reply.text += text;
      this.sink.text(text);
    }
    for (const raw of asArray(delta.tool_calls)) this.toolDelta(asObject(raw));
    if (typeof choice.finish_reason === 'string') this.reply.finishReason = choice.finish_reason;
  }

  private toolDelta(call: Json): void {
    const index = typeof call.index === 'number' ? call.index : this.positions.size;
    const fn = asObject(call.function);
    let position = this.positions.get(index);
    if (position === undefined) {
      position = this.reply.toolCalls.length;
      this.positions.set(index, position);
      const started = {
        id: asString(call.id) || `call_${this.reply.id}_${position}`,
        name: asString(fn.name),
      };
      this.reply.toolCalls.push({ ...started, arguments: '' });
      this.sink.toolStart(position, started);
    }
    const args = asString(fn.arguments);
    const target = this.reply.toolCalls[position];
    if (args && target) {
      target.arguments += args;
      this.sink.toolArguments(position, args);
    }
  }
}
