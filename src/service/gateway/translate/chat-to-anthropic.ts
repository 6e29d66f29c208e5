import { sseEvent } from '../sse';
import type { ChatReply, ChatStreamSink } from './chat-reply';
import { asNumber, asObject, parsedOrText, type Json } from './json';

/** A Chat Completions reply as Anthropic Messages sends it: a message, or its exact event sequence. */

const STOP_REASONS: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

function stopReason(reply: ChatReply): string {
  if (reply.finishReason === null) return reply.toolCalls.length ? 'tool_use' : 'end_turn';
  return STOP_REASONS[reply.finishReason] ?? 'end_turn';
}

function messageId(reply: ChatReply): string {
  return `msg_${reply.id || Date.now().toString(36)}`;
}

/** Anthropic counts cached prompt tokens apart from `input_tokens`. */
function usage(reply: ChatReply): Json {
  const raw = asObject(reply.usage);
  const cached = asNumber(asObject(raw.prompt_tokens_details).cached_tokens);
  return {
    input_tokens: Math.max(0, asNumber(raw.prompt_tokens) - cached),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    output_tokens: asNumber(raw.completion_tokens),
  };
}

export function chatToAnthropic(reply: ChatReply, model: string): Json {
  return {
    id: messageId(reply),
    type: 'message',
    role: 'assistant',
    model,
    content: [
      ...(reply.reasoning ? [{ type: 'thinking', thinking: reply.reasoning, signature: '' }] : []),
      ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
      ...reply.toolCalls.map((call) => ({
        type: 'tool_use',
        id: call.id,
        name: call.name,
        input: parsedOrText(call.arguments),
      })),
    ],
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: usage(reply),
  };
}

/**
 * Writes Anthropic's events as the Chat chunks arrive: `message_start`, `ping`, one
 * `content_block_start`/`content_block_delta`…/`content_block_stop` per text run or tool call, then
 * `message_delta` (stop reason and usage) and `message_stop`.
 */
export class AnthropicStreamWriter implements ChatStreamSink {
  private open: { index: number; kind: 'thinking' | 'text' | 'tool' } | null = null;
  private nextIndex = 0;
  private readonly toolIndexes = new Map<number, number>();

  constructor(
    private readonly emit: (chunk: string) => void,
    private readonly model: string,
  ) {}

  start(id: string): void {
    const message = {
      id: `msg_${id}`,
      type: 'message',
      role: 'assistant',
      model: this.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 0,
      },
    };
    this.send('message_start', { message });
    this.send('ping', {});
  }

  /** A reasoning model's thoughts, as a thinking block (unsigned: only Anthropic signs them, and the gateway drops them from the next request). */
  reasoning(delta: string): void {
    if (this.open?.kind !== 'thinking')
      this.openBlock('thinking', { type: 'thinking', thinking: '', signature: '' });
    this.send('content_block_delta', {
      index: this.open?.index,
      delta: { type: 'thinking_delta', thinking: delta },
    });
  }

  text(delta: string): void {
    if (this.open?.kind !== 'text') this.openBlock('text', { type: 'text', text: '' });
    this.send('content_block_delta', { index: this.open?.index, delta: { type: 'text_delta', text: delta } });
  }

  toolStart(position: number, call: { id: string; name: string }): void {
    this.openBlock('tool', { type: 'tool_use', id: call.id, name: call.name, input: {} });
    this.toolIndexes.set(position, this.open?.index ?? 0);
  }

  toolArguments(position: number, delta: string): void {
    const index = this.toolIndexes.get(position);
    if (index === undefined) return;
    this.send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: delta } });
  }

  finish(reply: ChatReply): void {
    this.closeBlock();
    this.send('message_delta', {
      delta: { stop_reason: stopReason(reply), stop_sequence: null },
      usage: usage(reply),
    });
    this.send('message_stop', {});
  }

  /** The provider failed mid-stream: Anthropic's `error` event, which its SDKs raise. */
  fail(message: string): void {
    this.send('error', { error: { type: 'api_error', message } });
  }

  private openBlock(kind: 'thinking' | 'text' | 'tool', block: Json): void {
    this.closeBlock();
    this.open = { index: this.nextIndex++, kind };
    this.send('content_block_start', { index: this.open.index, content_block: block });
  }

  private closeBlock(): void {
    if (!this.open) return;
    this.send('content_block_stop', { index: this.open.index });
    this.open = null;
  }

  private send(type: string, data: Json): void {
    this.emit(sseEvent({ type, ...data }, type));
  }
}
