import type { ModelRoute } from './model-routing';
import { modelFacts } from './model-table';

/**
 * What the server that runs a model says about it, read from each server's own API: Ollama (`/api/show`,
 * `/api/ps`), LM Studio (`/api/v1/models`), llama.cpp's server (`/props`, `/v1/models`) and vLLM
 * (`max_model_len` in `/v1/models`). The built-in model table fills what no server said.
 */

export const MODEL_SERVERS = ['ollama', 'lm_studio', 'llama_cpp', 'vllm'] as const;
export type ModelServerKind = (typeof MODEL_SERVERS)[number];

export interface ServerFacts {
  /** The server recognised, or null (a remote provider, or a server that did not answer). */
  server: ModelServerKind | null;
  /** The context the model was trained for (its maximum), in tokens. */
  trainedContext: number | null;
  /** The context the server runs the model with now (null: not loaded, or not said). */
  loadedContext: number | null;
  /** Whether the server can change the context per request (Ollama's `num_ctx`) or by loading (LM Studio). */
  resizable: boolean;
  /** The server's word on tool use (capability `tools`, `trained_for_tool_use`); null when it says nothing. */
  tools: boolean | null;
  vision: boolean | null;
  /** Video memory the loaded model takes (Ollama's `size_vram`). */
  vramBytes: number | null;
  /** `server` when a server answered, else `table` (the built-in model table, or nothing known). */
  source: 'server' | 'table';
}

const PROBE_TIMEOUT_MS = 3000;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positive(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : null;
}

/** The server's root: the base URL without its OpenAI-compatible `/v1` (or `/api/v1`) suffix. */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/(\/api)?\/v1$/, '');
}

async function requestJson(
  fetchFn: typeof globalThis.fetch,
  url: string,
  init: RequestInit = {},
): Promise<Json | null> {
  try {
    const response = await fetchFn(url, { ...init, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    return isObject(body) ? body : null;
  } catch {
    return null;
  }
}

/** Facts from the model table alone. */
export function tableFacts(model: string): ServerFacts {
  const known = modelFacts(model);
  return {
    server: null,
    trainedContext: known?.contextWindow ?? null,
    loadedContext: null,
    resizable: false,
    tools: known ? known.nativeTools : null,
    vision: known ? known.vision : null,
    vramBytes: null,
    source: 'table',
  };
}

/** Ollama names `qwen2.5-coder` and `qwen2.5-coder:latest` the same model. */
function sameOllamaModel(a: string, b: string): boolean {
  const full = (name: string) => (name.includes(':') ? name : `${name}:latest`);
  return full(a) === full(b);
}

function ollamaContextLength(modelInfo: unknown): number | null {
  if (!isObject(modelInfo)) return null;
  const architecture = modelInfo['general.architecture'];
  const named =
    typeof architecture === 'string' ? positive(modelInfo[`${architecture}.context_length`]) : null;
  if (named) return named;
  const key = Object.keys(modelInfo).find((k) => k.endsWith('.context_length'));
  return key ? positive(modelInfo[key]) : null;
}

async function probeOllama(route: ModelRoute, fetchFn: typeof globalThis.fetch): Promise<ServerFacts | null> {
  const root = serverRoot(route.baseUrl);
  const [show, ps] = await Promise.all([
    requestJson(fetchFn, `${root}/api/show`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: route.modelId }),
    }),
    requestJson(fetchFn, `${root}/api/ps`),
  ]);
  if (!show) return null;
  const capabilities = Array.isArray(show.capabilities) ? show.capabilities : null;
  const running = (Array.isArray(ps?.models) ? ps.models : []).find(
    (entry): entry is Json =>
      isObject(entry) && typeof entry.name === 'string' && sameOllamaModel(entry.name, route.modelId),
  );
  return {
    server: 'ollama',
    trainedContext: ollamaContextLength(show.model_info),
    loadedContext: positive(running?.context_length),
    resizable: true,
    tools: capabilities ? capabilities.includes('tools') : null,
    vision: capabilities ? capabilities.includes('vision') : null,
    vramBytes: positive(running?.size_vram),
    source: 'server',
  };
}

async function probeLmStudio(
  route: ModelRoute,
  fetchFn: typeof globalThis.fetch,
): Promise<ServerFacts | null> {
  const list = await requestJson(fetchFn, `${serverRoot(route.baseUrl)}/api/v1/models`);
  if (!list || !Array.isArray(list.models)) return null;
  const model = list.models.find((entry): entry is Json => isObject(entry) && entry.key === route.modelId);
  if (!model) return null;
  const instance = Array.isArray(model.loaded_instances) ? model.loaded_instances[0] : undefined;
  const capabilities = isObject(model.capabilities) ? model.capabilities : null;
  return {
    server: 'lm_studio',
    trainedContext: positive(model.max_context_length),
    loadedContext:
      isObject(instance) && isObject(instance.config) ? positive(instance.config.context_length) : null,
    resizable: true,
    tools: typeof capabilities?.trained_for_tool_use === 'boolean' ? capabilities.trained_for_tool_use : null,
    vision: typeof capabilities?.vision === 'boolean' ? capabilities.vision : null,
    vramBytes: null,
    source: 'server',
  };
}

/** llama.cpp's server (`/props` answers) or vLLM (`max_model_len` in its model list), told apart by what answers. */
async function probeOpenAiServer(
  route: ModelRoute,
  fetchFn: typeof globalThis.fetch,
): Promise<ServerFacts | null> {
  const [props, list] = await Promise.all([
    requestJson(fetchFn, `${serverRoot(route.baseUrl)}/props`),
    requestJson(fetchFn, `${route.baseUrl}/models`),
  ]);
  const entries = Array.isArray(list?.data) ? list.data.filter(isObject) : [];
  const entry =
    entries.find((e) => e.id === route.modelId) ?? (entries.length === 1 ? entries[0] : undefined);
  const settings = isObject(props?.default_generation_settings) ? props.default_generation_settings : null;
  if (props && settings) {
    const meta = isObject(entry?.meta) ? entry.meta : null;
    const modalities = isObject(props.modalities) ? props.modalities : null;
    return {
      server: 'llama_cpp',
      trainedContext: positive(meta?.n_ctx_train),
      loadedContext: positive(settings.n_ctx),
      resizable: false,
      tools: null,
      vision: typeof modalities?.vision === 'boolean' ? modalities.vision : null,
      vramBytes: null,
      source: 'server',
    };
  }
  const maxModelLen = positive(entry?.max_model_len);
  if (!maxModelLen) return null;
  return {
    server: 'vllm',
    trainedContext: maxModelLen,
    loadedContext: maxModelLen,
    resizable: false,
    tools: null,
    vision: null,
    vramBytes: null,
    source: 'server',
  };
}

/**
 * Reads what the model's server publishes (3 s per request), else the model table. Remote providers are not
 * asked: they publish none of this.
 */
export async function probeModelServer(
  route: ModelRoute,
  fetchFn: typeof globalThis.fetch = globalThis.fetch,
): Promise<ServerFacts> {
  const table = tableFacts(route.model);
  let facts: ServerFacts | null = null;
  if (route.providerName === 'ollama' || route.providerName === 'ollama_chat')
    facts = await probeOllama(route, fetchFn);
  else if (route.providerName === 'lm_studio') facts = await probeLmStudio(route, fetchFn);
  // Another prefix on this machine: llama.cpp, vLLM, or LM Studio addressed as an OpenAI-compatible server.
  else if (route.local)
    facts = (await probeOpenAiServer(route, fetchFn)) ?? (await probeLmStudio(route, fetchFn));
  if (!facts) return table;
  return {
    ...facts,
    trainedContext: facts.trainedContext ?? facts.loadedContext ?? table.trainedContext,
    tools: facts.tools ?? table.tools,
    vision: facts.vision ?? table.vision,
  };
}
