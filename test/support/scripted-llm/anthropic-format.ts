import {
  DEFAULT_USAGE,
  argumentText,
  defaultErrorMessage,
  errorHeaders,
  halves,
  jsonResponse,
  sseResponse,
  textPieces,
} from './wire';
import type { WireContext, WireFormat } from './wire';
import type { ScriptedReply, ScriptedToolCall, ScriptedUsage } from './steps';

/** Anthropic Messages (`POST /v1/messages`), with the real server-sent event sequence. */

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** Anthropic always reports usage; a scripted `null` is sent as zeros. */
function usageOf(reply: ScriptedReply): ScriptedUsage {
  return reply.usage === undefined ? DEFAULT_USAGE : (reply.usage ?? { input: 0, output: 0 });
}

function usageBody(usage: ScriptedUsage, output: number): Record<string, unknown> {
  return {
    input_tokens: usage.input,
    cache_creation_input_tokens: usage.cacheWrite ?? 0,
    cache_read_input_tokens: usage.cacheRead ?? 0,
    output_tokens: output,
  };
}

function stopReason(reply: ScriptedReply): string {
  return reply.finishReason ?? (reply.toolCalls?.length ? 'tool_use' : 'end_turn');
}

function toolUseId(call: ScriptedToolCall, index: number, context: WireContext): string {
  return call.id ?? `toolu_${context.n}_${index + 1}`;
}

/** The `input` object of a non-streamed tool_use block (a string that is not JSON is sent as is). */
function toolInput(call: ScriptedToolCall): unknown {
  const text = argumentText(call);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function event(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function reply(reply: ScriptedReply, context: WireContext) {
  const id = reply.id ?? `msg_${context.n}`;
  const model = reply.model ?? context.model;
  const usage = usageOf(reply);
  const calls = reply.toolCalls ?? [];
  const text = reply.text ?? '';
  if (!context.stream) {
    const content = [
      ...(text ? [{ type: 'text', text }] : []),
      ...calls.map((call, i) => ({
        type: 'tool_use',
        id: toolUseId(call, i, context),
        name: call.name,
        input: toolInput(call),
      })),
    ];
    return jsonResponse(
      200,
      {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: stopReason(reply),
        stop_sequence: null,
        usage: usageBody(usage, usage.output),
      },
      reply.headers,
    );
  }
  const events = [
    event('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usageBody(usage, 1),
      },
    }),
    event('ping', {}),
  ];
  let index = 0;
  if (text) {
    events.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const piece of textPieces(text)) {
      events.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    }
    events.push(event('content_block_stop', { index }));
    index += 1;
  }
  calls.forEach((call, i) => {
    events.push(
      event('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: toolUseId(call, i, context), name: call.name, input: {} },
      }),
    );
    for (const piece of halves(argumentText(call))) {
      events.push(
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }),
      );
    }
    events.push(event('content_block_stop', { index }));
    index += 1;
  });
  events.push(
    event('message_delta', {
      delta: { stop_reason: stopReason(reply), stop_sequence: null },
      usage: { output_tokens: usage.output },
    }),
    event('message_stop', {}),
  );
  return sseResponse(events, reply.headers);
}

export const anthropicFormat: WireFormat = {
  reply,
  error(fault) {
    const message = fault.message ?? defaultErrorMessage(fault.status);
    const type = ERROR_TYPES[fault.status] ?? (fault.status >= 500 ? 'api_error' : 'invalid_request_error');
    return jsonResponse(fault.status, { type: 'error', error: { type, message } }, errorHeaders(fault));
  },
  malformed(context) {
    const broken = `{"id": "msg_${context.n}", "type": "message", "content": [`;
    return context.stream
      ? sseResponse([
          `event: message_start\ndata: ${broken}\n\n`,
          'event: message_stop\ndata: {"type":"message_stop"}\n\n',
        ])
      : { ...jsonResponse(200, {}), body: broken };
  },
};
