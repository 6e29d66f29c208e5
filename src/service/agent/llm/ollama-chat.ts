import type { LanguageModelV4Usage } from '@ai-sdk/provider';
import { APICallError, type ModelMessage } from 'ai';
import type { LlmToolCall } from './llm-types';
import type { PreparedCall } from './request-preparation';
import type { LlmTiming } from './retry-policy';
import { parseArgs, type StreamedCallResult, watchedCall } from './streamed-call';
import { parseTextToolCalls } from './text-tool-format';

/**
 * One call through Ollama's native chat API (`POST /api/chat`, streamed NDJSON), the only one of its APIs
 * that takes the context size (`options.num_ctx`); its OpenAI-compatible layer ignores it and runs the
 * model with its default context. Failures are thrown as the AI SDK's `APICallError`, so that they are
 * classified and retried as every other provider's.
 */

export interface OllamaEndpoint {
  /** The server's root, e.g. `http://127.0.0.1:11434`. */
  root: string;
  modelId: string;
  numCtx: number;
  fetch: typeof globalThis.fetch;
}

interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  images?: string[];
  tool_calls?: { function: { name: string; arguments: unknown } }[];
  tool_name?: string;
}

/** A data URL's or base64 string's payload; images given as remote URLs are not sent (Ollama takes base64). */
function base64Image(image: unknown): string | null {
  if (typeof image === 'string') {
    const data = /^data:[^;,]+;base64,(.*)$/s.exec(image);
    if (data) return data[1] ?? null;
    return /^[A-Za-z0-9+/=\s]+$/.test(image) ? image : null;
  }
  if (image instanceof Uint8Array) return Buffer.from(image).toString('base64');
  return null;
}

function resultText(output: unknown): string {
  const value = output as { type?: string; value?: unknown };
  if (value.type === 'text' || value.type === 'error-text') return String(value.value ?? '');
  return JSON.stringify(value.value ?? output);
}

/** The agent's messages in Ollama's chat format. */
export function ollamaMessages(system: string, messages: ModelMessage[]): OllamaMessage[] {
  const out: OllamaMessage[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    if (typeof message.content === 'string') {
      out.push({ role: message.role, content: message.content });
      continue;
    }
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type === 'tool-result')
          out.push({ role: 'tool', content: resultText(part.output), tool_name: part.toolName });
      }
      continue;
    }
    const text: string[] = [];
    const images: string[] = [];
    const calls: NonNullable<OllamaMessage['tool_calls']> = [];
    for (const part of message.content) {
      if (part.type === 'text') text.push(part.text);
      else if (part.type === 'image') {
        const image = base64Image(part.image);
        if (image) images.push(image);
      } else if (part.type === 'tool-call')
        calls.push({ function: { name: part.toolName, arguments: part.input ?? {} } });
    }
    out.push({
      role: message.role,
      content: text.join('\n'),
      ...(images.length ? { images } : {}),
      ...(calls.length ? { tool_calls: calls } : {}),
    });
  }
  return out;
}

export function ollamaRequestBody(
  endpoint: OllamaEndpoint,
  call: PreparedCall,
  temperature: number | undefined,
): Record<string, unknown> {
  const options: Record<string, unknown> = { num_ctx: endpoint.numCtx };
  if (temperature !== undefined) options.temperature = temperature;
  if (call.stopSequences) options.stop = call.stopSequences;
  if (call.maxOutputTokens !== undefined) options.num_predict = call.maxOutputTokens;
  return {
    model: endpoint.modelId,
    messages: ollamaMessages(String(call.instructions.content), call.messages),
    ...(call.nativeTools
      ? {
          tools: call.nativeTools.map((tool) => ({
            type: 'function',
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
        }
      : {}),
    stream: true,
    options,
  };
}

interface OllamaChunk {
  model?: string;
  message?: {
    content?: string;
    tool_calls?: { id?: string; function?: { name?: string; arguments?: unknown } }[];
  };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  prompt_eval_cached_count?: number;
  eval_count?: number;
  error?: string;
}

const FINISH: Record<string, string> = { stop: 'stop', length: 'length' };

function usageOf(chunk: OllamaChunk): LanguageModelV4Usage {
  return {
    inputTokens: {
      total: chunk.prompt_eval_count,
      noCache: undefined,
      cacheRead: chunk.prompt_eval_cached_count,
      cacheWrite: undefined,
    },
    outputTokens: { total: chunk.eval_count, text: chunk.eval_count, reasoning: undefined },
    raw: { prompt_eval_count: chunk.prompt_eval_count, eval_count: chunk.eval_count },
  };
}

function apiError(url: string, body: unknown, status: number | undefined, text: string, headers?: Headers) {
  let message = text;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === 'string') message = parsed.error;
  } catch {
    // not JSON: the text itself
  }
  return new APICallError({
    message: message || `Ollama answered ${status ?? 'nothing'}`,
    url,
    requestBodyValues: body,
    statusCode: status,
    responseHeaders: headers ? Object.fromEntries(headers.entries()) : undefined,
    responseBody: text,
    isRetryable: status === undefined || status === 429 || status >= 500,
  });
}

async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) yield line;
    }
  }
  if (buffered.trim()) yield buffered.trim();
}

/** One streamed call to Ollama's `/api/chat` with the given context size; no retries (the client retries). */
export async function ollamaChatCall(
  endpoint: OllamaEndpoint,
  call: PreparedCall,
  temperature: number | undefined,
  signal: AbortSignal,
  timing: LlmTiming,
): Promise<StreamedCallResult> {
  const started = performance.now();
  const url = `${endpoint.root}/api/chat`;
  const body = ollamaRequestBody(endpoint, call, temperature);
  let text = '';
  const toolCalls: LlmToolCall[] = [];
  let final: OllamaChunk | undefined;
  let modelId = '';
  await watchedCall(signal, timing, async (abortSignal, touch) => {
    const response = await endpoint.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: abortSignal,
    });
    if (!response.ok || !response.body)
      throw apiError(url, body, response.status, await response.text(), response.headers);
    for await (const line of lines(response.body)) {
      touch();
      const chunk = JSON.parse(line) as OllamaChunk;
      if (chunk.error) throw apiError(url, body, undefined, line);
      modelId = chunk.model ?? modelId;
      text += chunk.message?.content ?? '';
      for (const tool of chunk.message?.tool_calls ?? []) {
        const raw = JSON.stringify(tool.function?.arguments ?? {});
        toolCalls.push({
          id: tool.id ?? `call_${toolCalls.length + 1}_${Date.now().toString(36)}`,
          name: tool.function?.name ?? '',
          rawArgs: raw,
          ...parseArgs(raw),
        });
      }
      if (chunk.done) final = chunk;
    }
  });
  const reason = final
    ? toolCalls.length
      ? 'tool-calls'
      : (FINISH[final.done_reason ?? 'stop'] ?? 'other')
    : 'interrupted';
  return {
    ...(call.toolFormat === 'text' ? parseTextToolCalls(text, call.toolDefinitions) : { text, toolCalls }),
    finishReason: reason,
    usage: final ? usageOf(final) : undefined,
    responseId: final ? `ollama-${Date.now().toString(36)}` : '',
    modelId,
    headers: undefined,
    latencyMs: performance.now() - started,
  };
}
