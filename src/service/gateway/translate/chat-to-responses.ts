import { sseEvent } from '../sse';
import type { ChatReply, ChatStreamSink } from './chat-reply';
import { asNumber, asObject, parsedOrText, type Json } from './json';

/** A Chat Completions reply as the OpenAI Responses API sends it: a response object, or its event stream. */

function usage(reply: ChatReply): Json {
  const raw = asObject(reply.usage);
  const input = asNumber(raw.prompt_tokens);
  const output = asNumber(raw.completion_tokens);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: asNumber(asObject(raw.prompt_tokens_details).cached_tokens) },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

function messageItem(id: string, text: string, status: string): Json {
  return {
    id,
    type: 'message',
    status,
    role: 'assistant',
    content: status === 'in_progress' ? [] : [{ type: 'output_text', text, annotations: [] }],
  };
}

function callItem(id: string, call: { id: string; name: string }, args: string, status: string): Json {
  return { id, type: 'function_call', status, call_id: call.id, name: call.name, arguments: args };
}

/** A custom tool's free text, from the `input` argument of the function it was offered as. */
function customInput(args: string): string {
  const parsed = parsedOrText(args);
  const input = asObject(parsed).input;
  return typeof input === 'string' ? input : typeof parsed === 'string' ? parsed : args;
}

function customItem(id: string, call: { id: string; name: string }, input: string, status: string): Json {
  return { id, type: 'custom_tool_call', status, call_id: call.id, name: call.name, input };
}

function response(id: string, model: string, status: string, output: Json[], reply?: ChatReply): Json {
  return {
    id: `resp_${id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output,
    ...(status === 'incomplete' ? { incomplete_details: { reason: 'max_output_tokens' } } : {}),
    usage: reply ? usage(reply) : null,
  };
}

function statusOf(reply: ChatReply): string {
  return reply.finishReason === 'length' ? 'incomplete' : 'completed';
}

export function chatToResponses(reply: ChatReply, model: string, custom: ReadonlySet<string>): Json {
  const id = reply.id || Date.now().toString(36);
  const output = [
    ...(reply.text ? [messageItem(`msg_${id}`, reply.text, 'completed')] : []),
    ...reply.toolCalls.map((call, i) =>
      custom.has(call.name)
        ? customItem(`ctc_${id}_${i}`, call, customInput(call.arguments), 'completed')
        : callItem(`fc_${id}_${i}`, call, call.arguments, 'completed'),
    ),
  ];
  return response(id, model, statusOf(reply), output, reply);
}

/**
 * Writes the Responses events as the Chat chunks arrive: `response.created`, `response.in_progress`, per
 * output item `response.output_item.added`, its deltas (`response.output_text.delta` within a content part,
 * or `response.function_call_arguments.delta`), its `…done` events and `response.output_item.done`, then
 * `response.completed` (or `response.incomplete`) with the whole output and the usage. A custom tool's call
 * streams its input once whole (`response.custom_tool_call_input.delta`/`.done`): the model writes it as the
 * JSON of a function's arguments, which is not the text until it is complete.
 */
export class ResponsesStreamWriter implements ChatStreamSink {
  private id = '';
  private sequence = 0;
  private readonly output: Json[] = [];
  private open:
    | { kind: 'text'; item: Json; text: string }
    | { kind: 'call' | 'custom'; item: Json; args: string }
    | null = null;

  constructor(
    private readonly emit: (chunk: string) => void,
    private readonly model: string,
    private readonly custom: ReadonlySet<string>,
  ) {}

  start(id: string): void {
    this.id = id;
    this.send('response.created', { response: response(id, this.model, 'in_progress', []) });
    this.send('response.in_progress', { response: response(id, this.model, 'in_progress', []) });
  }

  /** Reasoning is not passed on: Responses carries only the provider's own (encrypted) reasoning items. */
  reasoning(): void {
    // left out
  }

  text(delta: string): void {
    if (this.open?.kind !== 'text') {
      this.closeItem();
      const item = messageItem(`msg_${this.id}_${this.output.length}`, '', 'in_progress');
      this.open = { kind: 'text', item, text: '' };
      this.send('response.output_item.added', { output_index: this.output.length, item });
      this.send('response.content_part.added', {
        item_id: item.id,
        output_index: this.output.length,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
    }
    this.open.text += delta;
    this.send('response.output_text.delta', {
      item_id: this.open.item.id,
      output_index: this.output.length,
      content_index: 0,
      delta,
    });
  }

  toolStart(_position: number, call: { id: string; name: string }): void {
    this.closeItem();
    const custom = this.custom.has(call.name);
    const item = custom
      ? customItem(`ctc_${this.id}_${this.output.length}`, call, '', 'in_progress')
      : callItem(`fc_${this.id}_${this.output.length}`, call, '', 'in_progress');
    this.open = { kind: custom ? 'custom' : 'call', item, args: '' };
    this.send('response.output_item.added', { output_index: this.output.length, item });
  }

  toolArguments(_position: number, delta: string): void {
    if (this.open?.kind !== 'call' && this.open?.kind !== 'custom') return;
    this.open.args += delta;
    if (this.open.kind === 'custom') return;
    this.send('response.function_call_arguments.delta', {
      item_id: this.open.item.id,
      output_index: this.output.length,
      delta,
    });
  }

  finish(reply: ChatReply): void {
    this.closeItem();
    const status = statusOf(reply);
    this.send(`response.${status}`, { response: response(this.id, this.model, status, this.output, reply) });
  }

  fail(message: string): void {
    this.closeItem();
    this.send('response.failed', {
      response: {
        ...response(this.id, this.model, 'failed', this.output),
        error: { code: 'server_error', message },
      },
    });
  }

  private closeItem(): void {
    const open = this.open;
    if (!open) return;
    this.open = null;
    const index = this.output.length;
    const itemId = open.item.id;
    let done: Json;
    if (open.kind === 'text') {
      this.send('response.output_text.done', {
        item_id: itemId,
        output_index: index,
        content_index: 0,
        text: open.text,
      });
      const part = { type: 'output_text', text: open.text, annotations: [] };
      this.send('response.content_part.done', {
        item_id: itemId,
        output_index: index,
        content_index: 0,
        part,
      });
      done = { ...open.item, status: 'completed', content: [part] };
    } else if (open.kind === 'custom') {
      const input = customInput(open.args);
      this.send('response.custom_tool_call_input.delta', {
        item_id: itemId,
        output_index: index,
        delta: input,
      });
      this.send('response.custom_tool_call_input.done', { item_id: itemId, output_index: index, input });
      done = { ...open.item, status: 'completed', input };
    } else {
      this.send('response.function_call_arguments.done', {
        item_id: itemId,
        output_index: index,
        arguments: open.args,
      });
      done = { ...open.item, status: 'completed', arguments: open.args };
    }
    this.output.push(done);
    this.send('response.output_item.done', { output_index: index, item: done });
  }

  private send(type: string, data: Json): void {
    this.emit(sseEvent({ type, sequence_number: this.sequence++, ...data }, type));
  }
}
