import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { modelFetch } from './http-transport';
import type { ModelRoute } from './model-routing';

/**
 * The AI SDK provider's model for a route, on Dockhand's model-call transport unless a `fetch` is given.
 * A missing key is sent empty (local servers ignore it) rather than letting the SDK fall back to
 * environment variables.
 */
export function languageModelFor(
  route: ModelRoute,
  apiKey: string | null | undefined,
  fetch: typeof globalThis.fetch = modelFetch,
): LanguageModelV4 {
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
