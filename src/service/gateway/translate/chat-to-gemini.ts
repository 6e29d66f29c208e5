import { sseEvent } from '../sse';
import type { ChatReply, ChatStreamSink } from './chat-reply';
import { asNumber, asObject, parsedOrText, type Json } from './json';

/** A Chat Completions reply as Gemini's `generateContent` answers, or as its `alt=sse` stream of chunks. */

const FINISH: Record<string, string> = {
  stop: 'STOP',
  tool_calls: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
};

function usageMetadata(reply: ChatReply): Json {
  const raw = asObject(reply.usage);
  const prompt = asNumber(raw.prompt_tokens);
  const output = asNumber(raw.completion_tokens);
  const cached = asNumber(asObject(raw.prompt_tokens_details).cached_tokens);
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: output,
    totalTokenCount: prompt + output,
    ...(cached ? { cachedContentTokenCount: cached } : {}),
  };
}

function callPart(call: { id: string; name: string; arguments: string }): Json {
  return { functionCall: { id: call.id, name: call.name, args: parsedOrText(call.arguments) } };
}

function chunk(parts: Json[], model: string, id: string, finish?: ChatReply): Json {
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        index: 0,
        ...(finish ? { finishReason: FINISH[finish.finishReason ?? 'stop'] ?? 'STOP' } : {}),
      },
    ],
    ...(finish ? { usageMetadata: usageMetadata(finish) } : {}),
    modelVersion: model,
    responseId: id,
  };
}

export function chatToGemini(reply: ChatReply, model: string): Json {
  const parts = [
    ...(reply.reasoning ? [{ text: reply.reasoning, thought: true }] : []),
    ...(reply.text ? [{ text: reply.text }] : []),
    ...reply.toolCalls.map(callPart),
  ];
  return chunk(parts, model, reply.id, reply);
}

/**
 * Writes Gemini's SSE chunks: one per text delta, and each function call whole once its arguments are
 * complete (Gemini never streams a call in pieces); the last chunk has the finish reason and the usage.
 */
export class GeminiStreamWriter implements ChatStreamSink {
  private id = '';

  constructor(
    private readonly emit: (chunk: string) => void,
    private readonly model: string,
  ) {}

  start(id: string): void {
    this.id = id;
  }

  /** A reasoning model's thoughts, as Gemini's thought parts. */
  reasoning(delta: string): void {
    this.emit(sseEvent(chunk([{ text: delta, thought: true }], this.model, this.id)));
  }

  text(delta: string): void {
    this.emit(sseEvent(chunk([{ text: delta }], this.model, this.id)));
  }

  toolStart(): void {
    // The call is sent whole with the last chunk.
  }

  toolArguments(): void {
    // as toolStart
  }

  finish(reply: ChatReply): void {
    this.emit(sseEvent(chunk(reply.toolCalls.map(callPart), this.model, this.id, reply)));
  }

  fail(message: string): void {
    this.emit(sseEvent({ error: { code: 500, message, status: 'INTERNAL' } }));
  }
}
