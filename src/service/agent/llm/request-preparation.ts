import type { ModelMessage, SystemModelMessage } from 'ai';
import { weakMemo } from '../../weak-memo';
import type { LlmRequest, LlmToolDefinition, ToolCallFormat } from './llm-types';
import type { ModelRoute } from './model-routing';
import { TEXT_FORMAT_STOP, textToolInstructions, toTextFormatMessages } from './text-tool-format';

/** A request in the shape the AI SDK's call takes, for one route and tool format. */
export interface PreparedCall {
  instructions: SystemModelMessage;
  messages: ModelMessage[];
  /** The tools sent natively (the text format describes them in the system prompt instead). */
  nativeTools: LlmToolDefinition[] | undefined;
  toolFormat: ToolCallFormat;
  toolDefinitions: LlmToolDefinition[];
  stopSequences: string[] | undefined;
  maxOutputTokens: number | undefined;
  /** Characters of the prompt, for the usage estimate when the provider reports none. */
  promptChars: number;
}

const ANTHROPIC_CACHE_POINT = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/** Anthropic prompt caching: breakpoints on the system message and the last user or tool message. */
function withCacheBreakpoints(messages: ModelMessage[]): ModelMessage[] {
  const last = messages.findLastIndex((m) => m.role === 'user' || m.role === 'tool');
  return messages.map((message, i) =>
    i === last
      ? { ...message, providerOptions: { ...message.providerOptions, ...ANTHROPIC_CACHE_POINT } }
      : message,
  );
}

/** The serialised length of a tool list; the agent sends the same list on every step. */
const toolChars = weakMemo((definitions: LlmToolDefinition[]) => JSON.stringify(definitions).length);

/** Characters per message, kept: the prompt is sized for the condenser and again for the call. */
const messageChars = weakMemo(countChars);

/** Characters of text a message carries (images and files are not counted). */
function countChars(message: ModelMessage): number {
  if (typeof message.content === 'string') return message.content.length;
  return message.content.reduce((sum, part) => {
    if (part.type === 'text' || part.type === 'reasoning') return sum + part.text.length;
    if (part.type === 'tool-call') return sum + JSON.stringify(part.input ?? {}).length;
    if (part.type === 'tool-result') return sum + JSON.stringify(part.output).length;
    return sum;
  }, 0);
}

export function prepareCall(
  route: ModelRoute,
  request: LlmRequest,
  toolFormat: ToolCallFormat,
): PreparedCall {
  const definitions = request.tools ?? [];
  const textFormat = toolFormat === 'text' && definitions.length > 0;
  const system = textFormat ? `${request.system}\n\n${textToolInstructions(definitions)}` : request.system;
  let messages = textFormat ? toTextFormatMessages(request.messages) : request.messages;
  const anthropic = route.provider === 'anthropic';
  if (anthropic) messages = withCacheBreakpoints(messages);
  const nativeTools = !textFormat && definitions.length > 0 ? definitions : undefined;
  const stops = [...(request.stopSequences ?? []), ...(textFormat ? [TEXT_FORMAT_STOP] : [])];
  return {
    instructions: {
      role: 'system',
      content: system,
      ...(anthropic ? { providerOptions: ANTHROPIC_CACHE_POINT } : {}),
    },
    messages,
    nativeTools,
    toolFormat: textFormat ? 'text' : 'native',
    toolDefinitions: definitions,
    stopSequences: stops.length ? stops : undefined,
    maxOutputTokens: request.maxOutputTokens,
    promptChars:
      system.length +
      messages.reduce((sum, m) => sum + messageChars(m), 0) +
      (nativeTools ? toolChars(nativeTools) : 0),
  };
}
