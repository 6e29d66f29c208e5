/** Models offered in the UI before any discovery: current models of the common providers. */
export const CURATED_MODELS = [
  'anthropic/claude-sonnet-4-5-20250929',
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

const DISCOVERY_TIMEOUT_MS = 3000;
const OLLAMA_DEFAULT = 'http://127.0.0.1:11434';

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${response.status}`);
  return response.json();
}

/** Model names an OpenAI-compatible server lists at `<base>/models`, with the user's prefix. */
async function openAiCompatibleModels(baseUrl: string, prefix: string): Promise<string[]> {
  const body = (await getJson(`${baseUrl.replace(/\/+$/, '')}/models`)) as { data?: { id?: unknown }[] };
  return (body.data ?? [])
    .map((m) => m.id)
    .filter((id): id is string => typeof id === 'string')
    .map((id) => `${prefix}${id}`);
}

/** Models of an Ollama server (`/api/tags`), as `ollama/<name>`. */
async function ollamaModels(root: string): Promise<string[]> {
  const body = (await getJson(`${root.replace(/\/+$/, '')}/api/tags`)) as { models?: { name?: unknown }[] };
  return (body.models ?? [])
    .map((m) => m.name)
    .filter((name): name is string => typeof name === 'string')
    .map((name) => `ollama/${name.replace(/:latest$/, '')}`);
}

/**
 * The model list: curated models plus what the configured base URL serves, and a local Ollama when
 * one answers. Discovery failures are ignored; each source has 3 s.
 */
export async function listModels(settings: {
  llm_base_url?: string | null;
  llm_model?: string | null;
}): Promise<string[]> {
  const sources: Promise<string[]>[] = [ollamaModels(OLLAMA_DEFAULT)];
  const base = settings.llm_base_url;
  if (base) {
    const prefix = settings.llm_model?.includes('/') ? `${settings.llm_model.split('/')[0]}/` : 'openai/';
    sources.push(
      prefix === 'ollama/'
        ? ollamaModels(base.replace(/\/v1\/?$/, ''))
        : openAiCompatibleModels(base, prefix),
    );
  }
  const discovered = await Promise.allSettled(sources);
  const names = discovered.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  return [...new Set([...CURATED_MODELS, ...names])].sort();
}
