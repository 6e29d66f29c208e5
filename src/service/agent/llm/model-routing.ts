/**
 * Routing of LiteLLM-style model strings (`<provider>/<model>`) to an AI SDK provider and base URL.
 */

export type ProviderKind = 'anthropic' | 'openai' | 'openai-compatible';

export interface ModelRoute {
  /** The model string as configured, e.g. `ollama/qwen2.5-coder`. */
  model: string;
  provider: ProviderKind;
  /** The provider's name: the model string's prefix, or the one inferred for an unprefixed model. */
  providerName: string;
  /** The model id sent to the API (everything after the prefix). */
  modelId: string;
  /** The effective base URL, without a trailing slash. */
  baseUrl: string;
  /** The endpoint is a server on the user's own machine (an Ollama-like provider or a loopback URL). */
  local: boolean;
}

const ANTHROPIC_URL = 'https://api.anthropic.com/v1';
const OPENAI_URL = 'https://api.openai.com/v1';

/** Default base URLs of the OpenAI-compatible providers; others need `llm_base_url`. */
const COMPATIBLE_URLS: Record<string, string> = {
  ollama: 'http://127.0.0.1:11434/v1',
  ollama_chat: 'http://127.0.0.1:11434/v1',
  lm_studio: 'http://127.0.0.1:1234/v1',
  lemonade: 'http://127.0.0.1:8000/api/v1',
  openrouter: 'https://openrouter.ai/api/v1',
  deepseek: 'https://api.deepseek.com/v1',
  groq: 'https://api.groq.com/openai/v1',
  mistral: 'https://api.mistral.ai/v1',
  together_ai: 'https://api.together.xyz/v1',
  fireworks_ai: 'https://api.fireworks.ai/inference/v1',
  deepinfra: 'https://api.deepinfra.com/v1/openai',
  xai: 'https://api.x.ai/v1',
  cerebras: 'https://api.cerebras.ai/v1',
  perplexity: 'https://api.perplexity.ai',
  gemini: 'https://generativelanguage.googleapis.com/v1beta/openai',
  moonshot: 'https://api.moonshot.ai/v1',
};

/** Providers that run on the user's machine: keyless and free. */
const LOCAL_PROVIDERS = new Set(['ollama', 'ollama_chat', 'lm_studio', 'lemonade']);

/** Model-string prefixes that need no API key (the contract's list). */
const KEYLESS_PREFIXES = ['ollama/', 'ollama_chat/', 'bedrock/', 'lemonade/'];

/** Providers of unprefixed model names, by name pattern. */
const UNPREFIXED: [RegExp, string][] = [
  [/^claude/, 'anthropic'],
  [/^(gpt-|o1|o3|o4|chatgpt-)/, 'openai'],
  [/^deepseek-/, 'deepseek'],
  [/^(mistral|codestral|devstral|magistral)/, 'mistral'],
  [/^gemini-/, 'gemini'],
  [/^grok-/, 'xai'],
];

export class ModelRoutingError extends Error {
  override readonly name = 'ModelRoutingError';
}

/** True for hosts on the user's own machine. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === 'host.docker.internal' ||
    host === '::1' ||
    host === '0.0.0.0' ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}

function isLocalUrl(url: string): boolean {
  try {
    return isLocalHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * A user-given base URL without trailing slashes; a bare origin (`http://localhost:11434`) gets `/v1`,
 * where every routed API (OpenAI, Anthropic, Ollama's OpenAI layer) lives.
 */
export function normalizeBaseUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  try {
    return new URL(trimmed).pathname === '/' ? `${trimmed}/v1` : trimmed;
  } catch {
    throw new ModelRoutingError(`The base URL "${url}" is not a valid URL.`);
  }
}

function splitModel(model: string): { providerName: string; modelId: string } {
  const slash = model.indexOf('/');
  if (slash > 0)
    return { providerName: model.slice(0, slash).toLowerCase(), modelId: model.slice(slash + 1) };
  const known = UNPREFIXED.find(([pattern]) => pattern.test(model.toLowerCase()));
  return { providerName: known?.[1] ?? '', modelId: model };
}

function kindOf(providerName: string): ProviderKind {
  if (providerName === 'anthropic') return 'anthropic';
  if (providerName === 'openai') return 'openai';
  return 'openai-compatible';
}

function defaultUrl(providerName: string): string | undefined {
  if (providerName === 'anthropic') return ANTHROPIC_URL;
  if (providerName === 'openai') return OPENAI_URL;
  return COMPATIBLE_URLS[providerName];
}

/** Resolves a model string and an optional `llm_base_url` (which overrides the provider's URL). */
export function resolveModelRoute(model: string, baseUrl?: string | null): ModelRoute {
  const trimmed = model.trim();
  if (!trimmed) throw new ModelRoutingError('No model is configured.');
  const { providerName, modelId } = splitModel(trimmed);
  if (!modelId) throw new ModelRoutingError(`The model "${trimmed}" names no model after its provider.`);
  const url = baseUrl?.trim() ? normalizeBaseUrl(baseUrl) : defaultUrl(providerName);
  if (!url) {
    throw new ModelRoutingError(
      providerName
        ? `There is no default URL for provider "${providerName}": set a base URL for ${trimmed}.`
        : `Cannot tell the provider of "${trimmed}": write it as <provider>/${trimmed} (e.g. openai/${trimmed}) or set a base URL.`,
    );
  }
  return {
    model: trimmed,
    provider: kindOf(providerName),
    providerName: providerName || 'openai-compatible',
    modelId,
    baseUrl: url,
    local: LOCAL_PROVIDERS.has(providerName) || isLocalUrl(url),
  };
}

/** Whether a conversation with this model and base URL needs an API key (remote endpoints do). */
export function needsApiKey(model: string, baseUrl?: string | null): boolean {
  if (KEYLESS_PREFIXES.some((prefix) => model.trim().toLowerCase().startsWith(prefix))) return false;
  return !(baseUrl?.trim() && isLocalUrl(baseUrl.trim()));
}
