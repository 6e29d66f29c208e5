import { z } from 'zod';
import { SettingsUpdate } from './settings';

/** How a model takes tools: native tool calls, the text format, or not at all (refused for agent work). */
export const TOOL_MODES = ['native', 'text', 'none'] as const;
export const ToolMode = z.enum(TOOL_MODES);
export type ToolMode = z.infer<typeof ToolMode>;

export const MODEL_SERVER_KINDS = ['ollama', 'lm_studio', 'llama_cpp', 'vllm'] as const;

/** What Dockhand read about a model from its server (or its built-in table) and what it decided. */
export const ModelProbe = z.object({
  model: z.string(),
  /** The server recognised, or null (a remote provider, or no server answered). */
  server: z.enum(MODEL_SERVER_KINDS).nullable(),
  /** `server` when the server answered, `table` when the facts are the built-in table's. */
  source: z.enum(['server', 'table']),
  trained_context: z.number().int().nullable(),
  /** The context the server runs the model with now (null: not loaded, or not said). */
  loaded_context: z.number().int().nullable(),
  /** What an agent turn needs: system prompt, tool schemas, plus a working budget. */
  context_needed: z.number().int(),
  /** The context a conversation will run in (asked of Ollama, loaded in LM Studio, else the server's). */
  context_window: z.number().int(),
  context_enough: z.boolean(),
  /** What was decided, in words; with the numbers when the server cannot give enough. */
  context_summary: z.string(),
  /** The server's word on tool use and images (null: it says nothing). */
  tools: z.boolean().nullable(),
  vision: z.boolean().nullable(),
  vram_bytes: z.number().nullable(),
  /** The tool-call probe's result; null until "Test connection" or a first conversation ran it. */
  tool_mode: ToolMode.nullable(),
});
export type ModelProbe = z.infer<typeof ModelProbe>;

/** POST /api/settings/llm-probe: the facts of a model as selected (cached per model; `refresh` reads again). */
export const ModelProbeRequest = z.strictObject({
  llm_model: z.string().trim().min(1).max(500),
  llm_base_url: SettingsUpdate.shape.llm_base_url,
  refresh: z.boolean().optional(),
});
export type ModelProbeRequest = z.infer<typeof ModelProbeRequest>;

/** GET /api/settings/local-models: the Ollama and LM Studio servers answering on this machine, with their models. */
export const LocalModelServers = z.object({
  servers: z.array(
    z.object({
      server: z.enum(['ollama', 'lm_studio']),
      /** The base URL to save with one of its models. */
      base_url: z.string(),
      models: z.array(ModelProbe),
    }),
  ),
});
export type LocalModelServers = z.infer<typeof LocalModelServers>;
