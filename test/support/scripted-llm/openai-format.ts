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

/** OpenAI Chat Completions (`POST /v1/chat/completions`), as OpenAI and OpenAI-compatible servers answer. */

function usageBody(usage: ScriptedUsage): Record<string, unknown> {
  const prompt = usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.output,
    total_tokens: prompt + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
    ...(usage.cost === undefined ? {} : { cost: usage.cost }),
  };
}

function finishReason(reply: ScriptedReply): string {
  return reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
}

function toolCallId(reply: ScriptedReply, index: number, context: WireContext): string {
  return reply.toolCalls?.[index]?.id ?? `call_${context.n}_${index + 1}`;
}

function reply(reply: ScriptedReply, context: WireContext) {
  const id = reply.id ?? `chatcmpl-${context.n}`;
  const model = reply.model ?? context.model;
  const usage = reply.usage === undefined ? DEFAULT_USAGE : reply.usage;
  const calls = reply.toolCalls ?? [];
  if (!context.stream) {
    const message = {
      role: 'assistant',
      content: reply.text ?? null,
      ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
      ...(calls.length
        ? {
            tool_calls: calls.map((call, i) => ({
              id: toolCallId(reply, i, context),
              type: 'function',
              function: { name: call.name, arguments: argumentText(call) },
            })),
          }
        : {}),
    };
    return jsonResponse(
      200,
      {
        id,
        object: 'chat.completion',
        created: 1_700_000_000 + context.n,
        model,
        choices: [{ index: 0, message, finish_reason: finishReason(reply) }],
        ...(usage ? { usage: usageBody(usage) } : {}),
      },
      reply.headers,
    );
  }
  const chunk = (fields: Record<string, unknown>) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_700_000_000 + context.n, model, ...fields })}\n\n`;
  const delta = (value: Record<string, unknown>, finish: string | null = null) =>
    chunk({ choices: [{ index: 0, delta: value, finish_reason: finish }] });
  const events = [delta({ role: 'assistant', content: '' })];
  for (const piece of textPieces(reply.reasoning ?? '')) events.push(delta({ reasoning_content: piece }));
  for (const piece of textPieces(reply.text ?? '')) events.push(delta({ content: piece }));
  calls.forEach((call, index) => {
    const [first = '', ...rest] = halves(argumentText(call));
    events.push(
      delta({
        tool_calls: [
          {
            index,
            id: toolCallId(reply, index, context),
            type: 'function',
            function: { name: call.name, arguments: first },
          },
        ],
      }),
    );
    for (const piece of rest) events.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(delta({}, finishReason(reply)));
  if (usage && context.includeUsage) events.push(chunk({ choices: [], usage: usageBody(usage) }));
  events.push('data: [DONE]\n\n');
  return sseResponse(events, reply.headers);
}

export const openAiFormat: WireFormat = {
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
    const broken = `{"id": "chatcmpl-${context.n}", "object": "chat.completion", "choices": [{"index": 0, "message": {`;
    return context.stream
      ? sseResponse([`data: ${broken}\n\n`, 'data: [DONE]\n\n'])
      : { ...jsonResponse(200, {}), body: broken };
  },
};
