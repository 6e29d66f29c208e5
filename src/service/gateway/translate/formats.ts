import type { ClientApi } from '../wire-api';
import { anthropicToChat } from './anthropic-to-chat';
import { AnthropicStreamWriter, chatToAnthropic } from './chat-to-anthropic';
import { chatToGemini, GeminiStreamWriter } from './chat-to-gemini';
import { chatToResponses, ResponsesStreamWriter } from './chat-to-responses';
import type { ClientFormat } from './client-format';
import { geminiToChat } from './gemini-to-chat';
import { responsesToChat } from './responses-to-chat';

/** The client APIs translated to an OpenAI-compatible model, by API. */
export const TRANSLATED: Partial<Record<ClientApi, ClientFormat>> = {
  anthropic: {
    toChat: anthropicToChat,
    fromChat: chatToAnthropic,
    writer: (emit, model) => new AnthropicStreamWriter(emit, model),
  },
  responses: {
    toChat: responsesToChat,
    fromChat: chatToResponses,
    writer: (emit, model) => new ResponsesStreamWriter(emit, model),
  },
  gemini: {
    toChat: geminiToChat,
    fromChat: chatToGemini,
    writer: (emit, model) => new GeminiStreamWriter(emit, model),
  },
};
