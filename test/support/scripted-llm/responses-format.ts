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
import type { ScriptedReply, ScriptedUsage } from './steps';

/** OpenAI Responses (`POST /v1/responses`, as Codex calls it), with the real server-sent event sequence. */

function usageBody(usage: ScriptedUsage): Record<string, unknown> {
  const input = usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + usage.output,
  };
}

function event(type: string, sequence: number, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...data })}\n\n`;
}

/** The output items of a reply: its text as one message, then one item per tool call. */
function outputItems(reply: ScriptedReply, context: WireContext): Record<string, unknown>[] {
  return [
    ...(reply.text
      ? [
          {
            id: `msg_${context.n}`,
            type: 'message',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: reply.text, annotations: [] }],
          },
        ]
      : []),
    ...(reply.toolCalls ?? []).map((call, i) => ({
      id: `fc_${context.n}_${i + 1}`,
      type: 'function_call',
      status: 'completed',
      call_id: call.id ?? `call_${context.n}_${i + 1}`,
      name: call.name,
      arguments: argumentText(call),
    })),
  ];
}

function reply(reply: ScriptedReply, context: WireContext) {
  const id = reply.id ?? `resp_${context.n}`;
  const model = reply.model ?? context.model;
  const usage = reply.usage === undefined ? DEFAULT_USAGE : reply.usage;
  const output = outputItems(reply, context);
  const status = reply.finishReason === 'length' ? 'incomplete' : 'completed';
  const response = (state: string, items: unknown[]) => ({
    id,
    object: 'response',
    created_at: 1_700_000_000 + context.n,
    status: state,
    model,
    output: items,
    usage: state === 'in_progress' || !usage ? null : usageBody(usage),
  });
  if (!context.stream) return jsonResponse(200, response(status, output), reply.headers);
  let n = 0;
  const events = [
    event('response.created', n++, { response: response('in_progress', []) }),
    event('response.in_progress', n++, { response: response('in_progress', []) }),
  ];
  output.forEach((item, index) => {
    if (item.type === 'message') {
      const text = reply.text ?? '';
      events.push(
        event('response.output_item.added', n++, {
          output_index: index,
          item: { ...item, status: 'in_progress', content: [] },
        }),
        event('response.content_part.added', n++, {
          item_id: item.id,
          output_index: index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        }),
      );
      for (const delta of textPieces(text)) {
        events.push(
          event('response.output_text.delta', n++, {
            item_id: item.id,
            output_index: index,
            content_index: 0,
            delta,
          }),
        );
      }
      events.push(
        event('response.output_text.done', n++, {
          item_id: item.id,
          output_index: index,
          content_index: 0,
          text,
        }),
        event('response.content_part.done', n++, {
          item_id: item.id,
          output_index: index,
          content_index: 0,
          part: { type: 'output_text', text, annotations: [] },
        }),
      );
    } else {
      const args = String(item.arguments);
      events.push(
        event('response.output_item.added', n++, {
          output_index: index,
          item: { ...item, status: 'in_progress', arguments: '' },
        }),
      );
      for (const delta of halves(args)) {
        events.push(
          event('response.function_call_arguments.delta', n++, {
            item_id: item.id,
            output_index: index,
            delta,
          }),
        );
      }
      events.push(
        event('response.function_call_arguments.done', n++, {
          item_id: item.id,
          output_index: index,
          arguments: args,
        }),
      );
    }
    events.push(event('response.output_item.done', n++, { output_index: index, item }));
  });
  events.push(event(`response.${status}`, n++, { response: response(status, output) }));
  return sseResponse(events, reply.headers);
}

export const responsesFormat: WireFormat = {
  reply,
  error(fault) {
    const message = fault.message ?? defaultErrorMessage(fault.status);
    const type =
      fault.status === 429 ? 'requests' : fault.status >= 500 ? 'server_error' : 'invalid_request_error';
    return jsonResponse(
      fault.status,
      { error: { message, type, param: null, code: fault.code ?? null } },
      errorHeaders(fault),
    );
  },
  malformed(context) {
    const broken = `{"id": "resp_${context.n}", "object": "response", "output": [`;
    return context.stream
      ? sseResponse([`event: response.created\ndata: ${broken}\n\n`])
      : { ...jsonResponse(200, {}), body: broken };
  },
};
