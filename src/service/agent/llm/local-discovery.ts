/** Discovery of the models that local (or configured) servers offer; every source answers within 3 s. */

export const DISCOVERY_TIMEOUT_MS = 3000;
export const OLLAMA_ROOT = 'http://127.0.0.1:11434';
export const LM_STUDIO_URL = 'http://127.0.0.1:1234/v1';

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return response.json();
}

function names(list: unknown, field: 'id' | 'name'): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((entry: unknown) =>
      entry && typeof entry === 'object' ? (entry as Record<string, unknown>)[field] : undefined,
    )
    .filter((name): name is string => typeof name === 'string' && name.length > 0);
}

/** Models an OpenAI-compatible server lists at `<baseUrl>/models`, as `<prefix>/<id>`. */
export async function openAiCompatibleModels(
  baseUrl: string,
  prefix: string,
  timeoutMs = DISCOVERY_TIMEOUT_MS,
): Promise<string[]> {
  const body = (await getJson(`${baseUrl.replace(/\/+$/, '')}/models`, timeoutMs)) as { data?: unknown };
  return names(body.data, 'id').map((id) => `${prefix}/${id}`);
}

/** Models of an Ollama server (`<root>/api/tags`), as `ollama/<name>` (the default `:latest` tag dropped). */
export async function ollamaModels(root: string, timeoutMs = DISCOVERY_TIMEOUT_MS): Promise<string[]> {
  const body = (await getJson(`${root.replace(/\/+$/, '')}/api/tags`, timeoutMs)) as { models?: unknown };
  return names(body.models, 'name').map((name) => `ollama/${name.replace(/:latest$/, '')}`);
}
