import { serverRoot } from './model-server-probe';
import type { ModelRoute } from './model-routing';

/** Loading a model can take minutes on a slow disk. */
const LOAD_TIMEOUT_MS = 300_000;

/**
 * Loads a model in LM Studio with a context length (`POST /api/v1/models/load`); returns the context it
 * was loaded with. Throws with LM Studio's message when it refuses (e.g. not enough memory).
 */
export async function loadLmStudioModel(
  route: ModelRoute,
  contextLength: number,
  fetchFn: typeof globalThis.fetch = globalThis.fetch,
): Promise<number> {
  const response = await fetchFn(`${serverRoot(route.baseUrl)}/api/v1/models/load`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: route.modelId, config: { context_length: contextLength } }),
    signal: AbortSignal.timeout(LOAD_TIMEOUT_MS),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`LM Studio could not load ${route.modelId} (${response.status}): ${text}`);
  const loaded = (JSON.parse(text) as { config?: { context_length?: unknown } }).config?.context_length;
  return typeof loaded === 'number' && loaded > 0 ? loaded : contextLength;
}
