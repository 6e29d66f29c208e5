import {
  DEFAULT_USAGE,
  defaultErrorMessage,
  errorHeaders,
  jsonResponse,
  sseResponse,
  textPieces,
} from './wire';
import type { WireContext, WireFormat } from './wire';
import type { ScriptedReply, ScriptedToolCall, ScriptedUsage } from './steps';

/**
 * Gemini (`POST /v1beta/models/{model}:generateContent`, and `:streamGenerateContent?alt=sse` as Gemini CLI
 * calls it): a `GenerateContentResponse`, or a stream of them, one per text piece, function calls whole.
 */

const STATUSES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

function usageMetadata(usage: ScriptedUsage): Record<string, unknown> {
  const prompt = usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: usage.output,
    totalTokenCount: prompt + usage.output,
    ...(usage.cacheRead ? { cachedContentTokenCount: usage.cacheRead } : {}),
  };
}

/** Gemini sends a call's arguments as an object; a string that is not JSON is sent as is. */
function callPart(call: ScriptedToolCall): Record<string, unknown> {
  let args: unknown = call.args ?? {};
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      // sent verbatim
    }
  }
  return { functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args } };
}

function reply(reply: ScriptedReply, context: WireContext) {
  const usage = reply.usage === undefined ? DEFAULT_USAGE : reply.usage;
  const finishReason = reply.finishReason ?? 'STOP';
  const chunk = (parts: unknown[], last: boolean) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason } : {}) }],
    ...(last && usage ? { usageMetadata: usageMetadata(usage) } : {}),
    modelVersion: reply.model ?? context.model,
    responseId: reply.id ?? `gemini-${context.n}`,
  });
  const calls = (reply.toolCalls ?? []).map(callPart);
  if (!context.stream) {
    return jsonResponse(
      200,
      chunk([...(reply.text ? [{ text: reply.text }] : []), ...calls], true),
      reply.headers,
    );
  }
  const pieces = textPieces(reply.text ?? '');
  const events = pieces.map((text, i) => chunk([{ text }], i === pieces.length - 1 && calls.length === 0));
  if (calls.length > 0 || events.length === 0) events.push(chunk(calls, true));
  return sseResponse(
    events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`),
    reply.headers,
  );
}

export const geminiFormat: WireFormat = {
  reply,
  error(fault) {
    const message = fault.message ?? defaultErrorMessage(fault.status);
    const status = STATUSES[fault.status] ?? (fault.status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
    return jsonResponse(
      fault.status,
      { error: { code: fault.status, message, status } },
      errorHeaders(fault),
    );
  },
  malformed(context) {
    const broken = `{"candidates": [{"content": {"role": "model", "parts": [`;
    return context.stream
      ? sseResponse([`data: ${broken}\r\n\r\n`])
      : { ...jsonResponse(200, {}), body: broken };
  },
};
