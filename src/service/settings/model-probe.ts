import type { LocalModelServers, ModelProbe } from '../../shared/api/model-probe';
import { agentFixedTokens } from '../agent/create-agent';
import { planContext } from '../agent/llm/context-plan';
import {
  LM_STUDIO_URL,
  OLLAMA_ROOT,
  ollamaModels,
  openAiCompatibleModels,
} from '../agent/llm/local-discovery';
import type { DiscoveryTargets } from '../agent/llm/model-catalog';
import type { ModelProbes } from '../agent/llm/model-probes';
import { resolveModelRoute, type ModelRoute } from '../agent/llm/model-routing';
import type { ServerFacts } from '../agent/llm/model-server-probe';

/** A model's probe as the API shows it: the server's facts, the context decided and the tool mode known. */
export function probeView(route: ModelRoute, facts: ServerFacts, probes: ModelProbes): ModelProbe {
  const plan = planContext(facts, agentFixedTokens(route));
  return {
    model: route.model,
    server: facts.server,
    source: facts.source,
    trained_context: facts.trainedContext,
    loaded_context: facts.loadedContext,
    context_needed: plan.needed,
    context_window: plan.window,
    context_enough: plan.enough,
    context_summary: plan.summary,
    tools: facts.tools,
    vision: facts.vision,
    vram_bytes: facts.vramBytes,
    tool_mode: probes.toolMode(route),
  };
}

/** The facts of a model as selected (cached per model and base URL; `refresh` reads the server again). */
export async function describeModel(
  probes: ModelProbes,
  model: string,
  baseUrl: string | null | undefined,
  refresh = false,
): Promise<ModelProbe> {
  const route = resolveModelRoute(model, baseUrl);
  return probeView(route, await probes.serverFacts(route, refresh), probes);
}

/**
 * The Ollama and LM Studio servers answering on this machine at their default addresses, each model with its
 * probed facts (for the first run, when no model is configured).
 */
export async function localModelServers(
  probes: ModelProbes,
  targets: Pick<DiscoveryTargets, 'ollamaRoot' | 'lmStudioUrl'> = {},
): Promise<LocalModelServers> {
  const ollamaRoot = targets.ollamaRoot ?? OLLAMA_ROOT;
  const lmStudioUrl = targets.lmStudioUrl ?? LM_STUDIO_URL;
  const [ollama, lmStudio] = await Promise.all([
    ollamaModels(ollamaRoot).catch(() => null),
    openAiCompatibleModels(lmStudioUrl, 'lm_studio').catch(() => null),
  ]);
  const found = [
    { server: 'ollama' as const, base_url: ollamaRoot, models: ollama },
    { server: 'lm_studio' as const, base_url: lmStudioUrl, models: lmStudio },
  ].filter((s): s is typeof s & { models: string[] } => s.models !== null && s.models.length > 0);
  return {
    servers: await Promise.all(
      found.map(async (s) => ({
        server: s.server,
        base_url: s.base_url,
        models: await Promise.all(s.models.map((model) => describeModel(probes, model, s.base_url))),
      })),
    ),
  };
}
