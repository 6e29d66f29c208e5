import {
  createIdGenerator,
  experimental_streamLanguageModelCall as streamLanguageModelCall,
  jsonSchema,
  type LanguageModel,
  type LanguageModelStreamPart,
  type LanguageModelUsage,
  type ToolSet,
} from 'ai';
import { LlmTimeout } from './llm-errors';
import type { LlmToolCall, LlmToolDefinition } from './llm-types';
import type { PreparedCall } from './request-preparation';
import type { LlmTiming } from './retry-policy';
import { parseTextToolCalls } from './text-tool-format';

/** What one streamed model call produced, before usage and cost are worked out. */
export interface StreamedCallResult {
  text: string;
  toolCalls: LlmToolCall[];
  finishReason: string;
  usage: LanguageModelUsage | undefined;
  responseId: string;
  modelId: string;
  headers: Record<string, string> | undefined;
  latencyMs: number;
}

function parseArgs(raw: string): Pick<LlmToolCall, 'args' | 'argsError'> {
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

/** The SDK tool set for a tool list, built once per list: the agent sends the same list on every step. */
const toolSets = new WeakMap<LlmToolDefinition[], ToolSet>();

function toolSetFor(definitions: LlmToolDefinition[]): ToolSet {
  let tools = toolSets.get(definitions);
  if (!tools) {
    tools = Object.fromEntries(
      definitions.map((d) => [d.name, { description: d.description, inputSchema: jsonSchema(d.parameters) }]),
    );
    toolSets.set(definitions, tools);
  }
  return tools;
}

type StreamPart = LanguageModelStreamPart<ToolSet>;
type FinishPart = Extract<StreamPart, { type: 'model-call-end' }>;

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
  add(part: StreamPart): void {
    switch (part.type) {
      case 'text-delta':
        this.text += part.text;
        break;
      case 'tool-input-delta':
        this.rawArgs.set(part.id, (this.rawArgs.get(part.id) ?? '') + part.delta);
        break;
      case 'tool-call':
        this.calls.push({ id: part.toolCallId, name: part.toolName, input: part.input });
        break;
      case 'model-call-response-metadata':
        this.responseId = part.id ?? this.responseId;
        this.modelId = part.modelId ?? this.modelId;
        break;
      case 'model-call-end':
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
 * One streamed call, no retries. Throws what the provider or the watchdog raised, unclassified. It uses the
 * SDK's single-call layer (`streamText` runs the same one inside its multi-step machinery, which costs a
 * few milliseconds of CPU per call that the agent, making one step per call, does not need).
 */
export async function streamedCall(
  model: LanguageModel,
  call: PreparedCall,
  temperature: number | undefined,
  signal: AbortSignal,
  timing: LlmTiming,
): Promise<StreamedCallResult> {
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(signal.reason);
  if (signal.aborted) forwardAbort();
  signal.addEventListener('abort', forwardAbort, { once: true });
  const timer = watchdog(controller, timing);
  const started = performance.now();
  const reply = new ReplyCollector();
  let headers: Record<string, string> | undefined;
  try {
    const result = await streamLanguageModelCall({
      model,
      instructions: call.instructions,
      messages: call.messages,
      tools: call.nativeTools && toolSetFor(call.nativeTools),
      temperature,
      stopSequences: call.stopSequences,
      maxOutputTokens: call.maxOutputTokens,
      abortSignal: controller.signal,
    });
    headers = result.response?.headers;
    for await (const part of result.stream) {
      timer.touch();
      reply.add(part);
    }
    if (controller.signal.aborted) throw controller.signal.reason;
  } catch (error) {
    // Whatever the SDK made of an abort, report its cause: the caller's Stop or the watchdog's timeout.
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    timer.stop();
    signal.removeEventListener('abort', forwardAbort);
  }
  const { text, finish } = reply;
  return {
    ...(call.toolFormat === 'text'
      ? parseTextToolCalls(text, call.toolDefinitions)
      : { text, toolCalls: reply.toolCalls() }),
    finishReason: finish?.finishReason ?? 'unknown',
    usage: finish?.usage,
    responseId: finish ? (reply.responseId ?? replyId()) : '',
    modelId: reply.modelId ?? '',
    headers: finish ? headers : undefined,
    latencyMs: performance.now() - started,
  };
}
