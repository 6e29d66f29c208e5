import { z } from 'zod';
import { ModelProbe } from './model-probe';
import { SettingsUpdate } from './settings';

/**
 * POST /api/settings/llm-check: one tiny model call with these values, before they are saved.
 * `llm_api_key` absent or null uses the stored key; `""` checks without a key.
 */
export const LlmCheckRequest = z.strictObject({
  llm_model: z.string().trim().min(1).max(500),
  llm_base_url: SettingsUpdate.shape.llm_base_url,
  llm_api_key: z.string().max(10_000).nullable().optional(),
});
export type LlmCheckRequest = z.infer<typeof LlmCheckRequest>;

export const LLM_CHECK_PROBLEMS = [
  'auth',
  'unreachable',
  'not_found',
  'rate_limit',
  'out_of_credits',
  'unavailable',
  'missing_key',
  'other',
] as const;
export type LlmCheckProblem = (typeof LLM_CHECK_PROBLEMS)[number];

/** The outcome; a failed check is a 200 too, as the check itself ran. Never contains the key. */
export const LlmCheckResult = z.object({
  ok: z.boolean(),
  /** What went wrong, or null when the model answered. */
  problem: z.enum(LLM_CHECK_PROBLEMS).nullable(),
  /** What happened, in words. */
  message: z.string(),
  /** What to do about it, or null. */
  fix: z.string().nullable(),
  /** The model as the provider named it in its answer. */
  model: z.string().nullable(),
  latency_ms: z.number().int().nullable(),
  /** Which key was sent: the one in the request, the stored one, or none. */
  key_source: z.enum(['request', 'stored', 'none']),
  /** When the model answered: its server's facts, the context decided and the tool-call probe's result. */
  probe: ModelProbe.nullable().optional(),
});
export type LlmCheckResult = z.infer<typeof LlmCheckResult>;
