import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { ModelRoute } from './model-routing';

/**
 * The AI SDK model for a route. A missing key is sent empty (local servers ignore it) rather than
 * letting the SDK fall back to environment variables.
 */
export function languageModelFor(
  route: ModelRoute,
  apiKey: string | null | undefined,
  fetch?: typeof globalThis.fetch,
): LanguageModel {
  const key = apiKey ?? '';
  switch (route.provider) {
    case 'anthropic':
      return createAnthropic({ apiKey: key, baseURL: route.baseUrl, fetch })(route.modelId);
    case 'openai':
      return createOpenAI({ apiKey: key, baseURL: route.baseUrl, fetch }).chat(route.modelId);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: route.providerName,
        baseURL: route.baseUrl,
        apiKey: key || undefined,
        includeUsage: true,
        fetch,
      }).chatModel(route.modelId);
  }
}
