import { lookupModel } from './model-names';

/** What Dockhand knows about a model family, beyond its price. */
export interface ModelFacts {
  /** Accepts images in user messages. */
  vision: boolean;
  /** Takes tool definitions natively; otherwise the text tool format is used from the start. */
  nativeTools: boolean;
  /** Input tokens the model accepts. */
  contextWindow: number;
}

const claude = (contextWindow = 200_000): ModelFacts => ({ vision: true, nativeTools: true, contextWindow });
const visionModel = (contextWindow: number): ModelFacts => ({
  vision: true,
  nativeTools: true,
  contextWindow,
});
const textModel = (contextWindow: number): ModelFacts => ({
  vision: false,
  nativeTools: true,
  contextWindow,
});

/** Keys as `modelKey` writes them; a key covers longer names that continue it after a dash. */
const MODELS: Record<string, ModelFacts> = {
  'claude-opus-4-5': claude(),
  'claude-opus-4-1': claude(),
  'claude-opus-4': claude(),
  'claude-sonnet-4-5': claude(),
  'claude-sonnet-4': claude(),
  'claude-haiku-4-5': claude(),
  'claude-3-7-sonnet': claude(),
  'claude-3-5-sonnet': claude(),
  'claude-3-5-haiku': textModel(200_000),
  'claude-3-opus': claude(),
  'claude-3-haiku': claude(),
  'gpt-5': visionModel(272_000),
  'gpt-5-mini': visionModel(272_000),
  'gpt-5-nano': visionModel(272_000),
  'gpt-4-1': visionModel(1_047_576),
  'gpt-4o': visionModel(128_000),
  'gpt-4o-mini': visionModel(128_000),
  o1: visionModel(200_000),
  'o1-mini': textModel(128_000),
  o3: visionModel(200_000),
  'o3-mini': textModel(200_000),
  'o3-pro': visionModel(200_000),
  'o4-mini': visionModel(200_000),
  'deepseek-chat': textModel(128_000),
  'deepseek-reasoner': textModel(128_000),
  'deepseek-r1': { vision: false, nativeTools: false, contextWindow: 128_000 },
  'devstral-medium': textModel(128_000),
  'devstral-small': textModel(128_000),
  devstral: textModel(128_000),
  'mistral-large': textModel(128_000),
  'mistral-medium': visionModel(128_000),
  codestral: textModel(256_000),
  'gemini-2-5-pro': visionModel(1_048_576),
  'gemini-2-5-flash': visionModel(1_048_576),
  'grok-4': visionModel(256_000),
  'grok-code-fast-1': textModel(256_000),
  'qwen2-5-coder': textModel(32_768),
  'qwen3-coder': textModel(262_144),
  'llama3-2-vision': visionModel(128_000),
  llava: { vision: true, nativeTools: false, contextWindow: 4_096 },
  gemma3: { vision: true, nativeTools: false, contextWindow: 128_000 },
};

export function modelFacts(model: string): ModelFacts | undefined {
  return lookupModel(MODELS, model);
}

/** Whether the model takes images; unknown models do not (agent-behaviour §6.6). */
export function supportsVision(model: string): boolean {
  return modelFacts(model)?.vision ?? false;
}

/** Whether tools are sent natively; unknown models are tried natively (a 400 about tools switches). */
export function supportsNativeTools(model: string): boolean {
  return modelFacts(model)?.nativeTools ?? true;
}

/** The model's context window from the table, if known (else the provider or a 32k default decides). */
export function contextWindowOf(model: string): number | undefined {
  return modelFacts(model)?.contextWindow;
}
