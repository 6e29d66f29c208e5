/** The providers the model picker groups models by: the prefix of a LiteLLM-style model name. */
export const LLM_PROVIDERS = [
  {
    id: 'anthropic',
    label: 'Anthropic',
    prefixes: ['anthropic/'],
    baseUrl: '',
    example: 'anthropic/claude-sonnet-4-5',
  },
  { id: 'openai', label: 'OpenAI', prefixes: ['openai/'], baseUrl: '', example: 'openai/gpt-4o' },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    prefixes: ['openrouter/'],
    baseUrl: '',
    example: 'openrouter/anthropic/claude-sonnet-4.5',
  },
  {
    id: 'ollama',
    label: 'Ollama (local)',
    prefixes: ['ollama/', 'ollama_chat/'],
    baseUrl: 'http://localhost:11434',
    example: 'ollama/qwen2.5-coder',
  },
  {
    id: 'lm_studio',
    label: 'LM Studio (local)',
    prefixes: ['lm_studio/'],
    baseUrl: 'http://localhost:1234/v1',
    example: 'lm_studio/qwen2.5-coder-7b-instruct',
  },
  {
    id: 'other',
    label: 'Other or OpenAI-compatible',
    prefixes: [],
    baseUrl: '',
    example: 'openai/<model> with a base URL',
  },
] as const;

export type LlmProviderId = (typeof LLM_PROVIDERS)[number]['id'];

/** The provider a model name belongs to; `other` for any other prefix or none. */
export function providerOfModel(model: string): LlmProviderId {
  const lower = model.trim().toLowerCase();
  const found = LLM_PROVIDERS.find((p) => p.prefixes.some((prefix) => lower.startsWith(prefix)));
  return found?.id ?? 'other';
}

/** The models of `provider` among `models`; every model for `other`. */
export function modelsOf(provider: LlmProviderId, models: readonly string[]): string[] {
  if (provider === 'other') return [...models];
  return models.filter((model) => providerOfModel(model) === provider);
}

/** The address a local provider's server usually has, as a placeholder for the base URL. */
export function defaultBaseUrl(provider: LlmProviderId): string {
  return LLM_PROVIDERS.find((p) => p.id === provider)?.baseUrl ?? '';
}

/** A model name of `provider`, as the example in the model field's hint. */
export function exampleModel(provider: LlmProviderId): string {
  return LLM_PROVIDERS.find((p) => p.id === provider)?.example ?? '';
}
