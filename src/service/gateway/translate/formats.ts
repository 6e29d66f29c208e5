import type { ClientApi } from '../wire-api';
import { anthropicToChat } from './anthropic-to-chat';
import { AnthropicStreamWriter, chatToAnthropic } from './chat-to-anthropic';
import { chatToGemini, GeminiStreamWriter } from './chat-to-gemini';
import { chatToResponses, ResponsesStreamWriter } from './chat-to-responses';
import type { ClientFormat } from './client-format';
import { geminiToChat } from './gemini-to-chat';
import { customToolNames, responsesToChat } from './responses-to-chat';

/** The client APIs translated to an OpenAI-compatible model, by API. */
export const TRANSLATED: Partial<Record<ClientApi, ClientFormat>> = {
  anthropic: {
    toChat: anthropicToChat,
    fromChat: chatToAnthropic,
    writer: (emit, model) => new AnthropicStreamWriter(emit, model),
  },
  responses: {
    toChat: responsesToChat,
    fromChat: (reply, model, request) => chatToResponses(reply, model, customToolNames(request)),
    writer: (emit, model, request) => new ResponsesStreamWriter(emit, model, customToolNames(request)),
  },
  gemini: {
    toChat: geminiToChat,
    fromChat: chatToGemini,
    writer: (emit, model) => new GeminiStreamWriter(emit, model),
  },
};
