import type { LanguageModelV4, LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';
import { createIdGenerator } from 'ai';
import { LlmTimeout } from './llm-errors';
import type { LlmToolCall } from './llm-types';
import type { PreparedCall } from './request-preparation';
import type { LlmTiming } from './retry-policy';
import { providerPrompt, providerTools } from './provider-prompt';
import { parseTextToolCalls } from './text-tool-format';

/** What one streamed model call produced, before usage and cost are worked out. */
export interface StreamedCallResult {
  text: string;
  toolCalls: LlmToolCall[];
  finishReason: string;
  usage: LanguageModelV4Usage | undefined;
  responseId: string;
  modelId: string;
  headers: Record<string, string> | undefined;
  latencyMs: number;
}

export function parseArgs(raw: string): Pick<LlmToolCall, 'args' | 'argsError'> {
  if (raw.trim() === '') return { args: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value))
      return { args: value as Record<string, unknown> };
    return { args: undefined, argsError: 'the arguments are not a JSON object' };
  } catch (error) {
    return { args: undefined, argsError: `the arguments are not valid JSON (${(error as Error).message})` };
  }
}

/**
 * Aborts `controller` when the server sends nothing for `idleMs` (re-armed by `touch`) or the call
 * exceeds `totalMs`, with an `LlmTimeout` as the reason.
 */
function watchdog(controller: AbortController, timing: LlmTiming) {
  const fire = (message: string) => () => controller.abort(new LlmTimeout(message));
  const total = setTimeout(
    fire(`The LLM request took longer than ${timing.totalTimeoutMs / 1000} s.`),
    timing.totalTimeoutMs,
  );
  const idle = setTimeout(
    fire(`The LLM sent nothing for ${timing.idleTimeoutMs / 1000} s.`),
    timing.idleTimeoutMs,
  );
  return {
    // Re-arms the same timer: a stream sends many parts, and a new timer for each costs more.
    touch: () => void idle.refresh(),
    stop: () => {
      clearTimeout(idle);
      clearTimeout(total);
    },
  };
}

/**
 * Runs one streamed call's `read` with the caller's `signal` forwarded and the watchdog armed (`touch` on every
 * part re-arms its idle timer). An abort is reported as its cause, whatever the reader made of it: the caller's
 * Stop or the watchdog's timeout.
 */
export async function watchedCall<T>(
  signal: AbortSignal,
  timing: LlmTiming,
  read: (abortSignal: AbortSignal, touch: () => void) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(signal.reason);
  if (signal.aborted) forwardAbort();
  signal.addEventListener('abort', forwardAbort, { once: true });
  const timer = watchdog(controller, timing);
  try {
    const result = await read(controller.signal, timer.touch);
    if (controller.signal.aborted) throw controller.signal.reason;
    return result;
  } catch (error) {
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    timer.stop();
    signal.removeEventListener('abort', forwardAbort);
  }
}

type FinishPart = Extract<LanguageModelV4StreamPart, { type: 'finish' }>;

/** The id of a reply whose provider sent none, in the form `streamText` gives it. */
const replyId = createIdGenerator({ prefix: 'aitxt', size: 24 });

/** Gathers the parts of a streamed reply: text, tool calls with their raw arguments, the finish. */
class ReplyCollector {
  text = '';
  finish: FinishPart | undefined;
  responseId: string | undefined;
  modelId: string | undefined;
  private readonly rawArgs = new Map<string, string>();
  private readonly calls: { id: string; name: string; input: unknown }[] = [];

  /** Takes one part; throws the error a provider streamed. */
  add(part: LanguageModelV4StreamPart): void {
    switch (part.type) {
      case 'text-delta':
        this.text += part.delta;
        break;
      case 'tool-input-delta':
        this.rawArgs.set(part.id, (this.rawArgs.get(part.id) ?? '') + part.delta);
        break;
      case 'tool-call':
        this.calls.push({ id: part.toolCallId, name: part.toolName, input: part.input });
        break;
      case 'response-metadata':
        this.responseId = part.id ?? this.responseId;
        this.modelId = part.modelId ?? this.modelId;
        break;
      case 'finish':
        this.finish = part;
        break;
      case 'error':
        throw part.error;
    }
  }

  toolCalls(): LlmToolCall[] {
    return this.calls.map((c) => {
      const raw =
        this.rawArgs.get(c.id) ?? (typeof c.input === 'string' ? c.input : JSON.stringify(c.input ?? {}));
      return { id: c.id, name: c.name, rawArgs: raw, ...parseArgs(raw) };
    });
  }
}

/**
 * One streamed call, no retries, straight to the AI SDK provider's model (`doStream`). Throws what the
 * provider or the watchdog raised, unclassified. The SDK's call layer (`streamText`, or its single-call
 * `streamLanguageModelCall`) would convert the prompt and re-stream every part once more; the agent makes
 * one step per call and reads the parts itself, so that costs it time on every step for nothing.
 */
export async function streamedCall(
  model: LanguageModelV4,
  call: PreparedCall,
  temperature: number | undefined,
  signal: AbortSignal,
  timing: LlmTiming,
): Promise<StreamedCallResult> {
  const started = performance.now();
  const reply = new ReplyCollector();
  let headers: Record<string, string> | undefined;
  await watchedCall(signal, timing, async (abortSignal, touch) => {
    const result = await model.doStream({
      prompt: await providerPrompt(call.instructions, call.messages, model, abortSignal),
      ...(call.nativeTools ? { tools: providerTools(call.nativeTools), toolChoice: { type: 'auto' } } : {}),
      temperature,
      stopSequences: call.stopSequences,
      maxOutputTokens: call.maxOutputTokens,
      abortSignal,
    });
    headers = result.response?.headers;
    for await (const part of result.stream) {
      touch();
      reply.add(part);
    }
  });
  const { text, finish } = reply;
  return {
    ...(call.toolFormat === 'text'
      ? parseTextToolCalls(text, call.toolDefinitions)
      : { text, toolCalls: reply.toolCalls() }),
    finishReason: finish?.finishReason.unified ?? 'unknown',
    usage: finish?.usage,
    responseId: finish ? (reply.responseId ?? replyId()) : '',
    modelId: reply.modelId ?? '',
    headers: finish ? headers : undefined,
    latencyMs: performance.now() - started,
  };
}
