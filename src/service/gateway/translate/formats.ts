import type { ClientApi } from '../wire-api';
import { anthropicToChat } from './anthropic-to-chat';
import { AnthropicStreamWriter, chatToAnthropic } from './chat-to-anthropic';
import type { ClientFormat } from './client-format';

/** The client APIs translated to an OpenAI-compatible model, by API. */
export const TRANSLATED: Partial<Record<ClientApi, ClientFormat>> = {
  anthropic: {
    toChat: anthropicToChat,
    fromChat: chatToAnthropic,
    writer: (emit, model) => new AnthropicStreamWriter(emit, model),
  },
};
