import type {
  LanguageModelV4,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
} from '@ai-sdk/provider';
import { isUrlSupported } from '@ai-sdk/provider-utils';
import type { FilePart, ModelMessage, SystemModelMessage } from 'ai';
import { weakMemo } from '../../weak-memo';
import { createImageDownload } from '../image-download';
import type { LlmToolDefinition } from './llm-types';

/**
 * Requests in the form the AI SDK providers take (`LanguageModelV4`): what the SDK's call layer does to
 * the messages the agent builds, for the parts the agent uses (text, images, tool calls and results).
 */

/** Public addresses only, at most MAX_IMAGE_BYTES (see image-download.ts). */
const download = createImageDownload();

/** The function tools for a tool list, built once per list: the agent sends the same list on every step. */
export const providerTools = weakMemo((definitions: LlmToolDefinition[]): LanguageModelV4FunctionTool[] =>
  definitions.map((d) => ({
    type: 'function',
    name: d.name,
    description: d.description,
    inputSchema: d.parameters,
  })),
);

/** The URL a file part points to (the agent's images are `{type: 'url'}` or `{type: 'data'}`). */
function urlOf(data: FilePart['data']): URL | null {
  if (data instanceof URL) return data;
  return typeof data === 'object' && 'type' in data && data.type === 'url' ? data.url : null;
}

/** An image URL the model cannot fetch itself is downloaded and sent inline, as the SDK does. */
async function inlined(part: FilePart, model: LanguageModelV4, signal: AbortSignal): Promise<FilePart> {
  const url = urlOf(part.data);
  if (!url) return part;
  const supportedUrls = await model.supportedUrls;
  if (isUrlSupported({ url: url.toString(), mediaType: part.mediaType, supportedUrls })) return part;
  const file = await download({ url, abortSignal: signal });
  return { ...part, data: { type: 'data', data: file.data }, mediaType: file.mediaType ?? part.mediaType };
}

type UserMessage = Extract<ModelMessage, { role: 'user' }>;

function hasImageUrl(message: ModelMessage): message is UserMessage {
  return (
    message.role === 'user' &&
    typeof message.content !== 'string' &&
    message.content.some((part) => part.type === 'file' && urlOf(part.data) !== null)
  );
}

/** The messages with the image URLs the model cannot fetch made inline (most prompts have none). */
async function withInlinedImages(
  messages: ModelMessage[],
  model: LanguageModelV4,
  signal: AbortSignal,
): Promise<ModelMessage[]> {
  if (!messages.some(hasImageUrl)) return messages;
  return Promise.all(
    messages.map(async (message) => {
      if (!hasImageUrl(message) || typeof message.content === 'string') return message;
      const content = await Promise.all(
        message.content.map((part) => (part.type === 'file' ? inlined(part, model, signal) : part)),
      );
      return { ...message, content };
    }),
  );
}

const nonEmpty = (part: { type: string; text?: string }) => part.type !== 'text' || part.text !== '';

function providerMessage(message: ModelMessage): LanguageModelV4Message {
  const { role, providerOptions } = message;
  if (typeof message.content === 'string') {
    return role === 'system'
      ? { role, content: message.content, providerOptions }
      : ({
          role,
          content: [{ type: 'text', text: message.content }],
          providerOptions,
        } as LanguageModelV4Message);
  }
  // Empty text parts are dropped, as the SDK does: some providers refuse them.
  const content =
    role === 'tool' ? message.content : (message.content as { type: string }[]).filter(nonEmpty);
  return { role, content, providerOptions } as LanguageModelV4Message;
}

/** The system message followed by the conversation, as the provider takes it. */
export async function providerPrompt(
  instructions: SystemModelMessage,
  messages: ModelMessage[],
  model: LanguageModelV4,
  signal: AbortSignal,
): Promise<LanguageModelV4Prompt> {
  const system: LanguageModelV4Message = {
    role: 'system',
    content: instructions.content,
    providerOptions: instructions.providerOptions,
  };
  return [system, ...(await withInlinedImages(messages, model, signal)).map(providerMessage)];
}
