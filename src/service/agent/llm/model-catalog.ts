import { LM_STUDIO_URL, OLLAMA_ROOT, ollamaModels, openAiCompatibleModels } from './local-discovery';
import { normalizeBaseUrl } from './model-routing';

/** Models offered in the UI before any discovery: current models of the common providers. */
export const CURATED_MODELS = [
  'anthropic/claude-sonnet-4-5-20250929',
  'anthropic/claude-opus-4-5-20251101',
  'anthropic/claude-opus-4-1-20250805',
  'anthropic/claude-haiku-4-5-20251001',
  'openai/gpt-5',
  'openai/gpt-5-mini',
  'openai/gpt-4.1',
  'openai/gpt-4o',
  'openai/o3',
  'openai/o4-mini',
  'deepseek/deepseek-chat',
  'mistral/devstral-medium-2507',
  'openrouter/anthropic/claude-sonnet-4.5',
  'ollama/qwen2.5-coder',
  'ollama/devstral',
];

export interface DiscoveryTargets {
  /** The local Ollama root probed besides the configured server. */
  ollamaRoot?: string;
  /** The local LM Studio base URL probed besides the configured server. */
  lmStudioUrl?: string;
  timeoutMs?: number;
}

/** The configured server's own listing: Ollama's `/api/tags` for `ollama/` models, else `<base>/models`. */
async function configuredServerModels(baseUrl: string, model: string | null | undefined, timeoutMs?: number) {
  const url = normalizeBaseUrl(baseUrl);
  const prefix = model?.includes('/') ? model.slice(0, model.indexOf('/')).toLowerCase() : 'openai';
  return prefix === 'ollama' || prefix === 'ollama_chat'
    ? ollamaModels(url.replace(/\/v1$/, ''), timeoutMs)
    : openAiCompatibleModels(url, prefix, timeoutMs);
}

/**
 * The model list: curated models plus what the configured base URL serves and what a local Ollama or
 * LM Studio offers. Sources that fail or take longer than 3 s are left out.
 */
export async function listModels(
  settings: { llm_base_url?: string | null; llm_model?: string | null },
  targets: DiscoveryTargets = {},
): Promise<string[]> {
  const { timeoutMs } = targets;
  const sources = [
    ollamaModels(targets.ollamaRoot ?? OLLAMA_ROOT, timeoutMs),
    openAiCompatibleModels(targets.lmStudioUrl ?? LM_STUDIO_URL, 'lm_studio', timeoutMs),
  ];
  if (settings.llm_base_url?.trim())
    sources.push(configuredServerModels(settings.llm_base_url, settings.llm_model, timeoutMs));
  const discovered = await Promise.allSettled(sources);
  const found = discovered.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  return [...new Set([...CURATED_MODELS, ...found])].sort();
}
