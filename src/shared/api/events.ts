import { z } from 'zod';

export const EventSource = z.enum(['agent', 'user', 'environment']);

/**
 * A V0 event as OpenHands clients read it: an action (`action` + `args`) or an observation
 * (`observation` + `content` + `extras` + `cause`). Unknown keys pass through; null top-level keys are omitted.
 */
export const V0Event = z
  .object({
    id: z.number().int(),
    timestamp: z.string(),
    source: EventSource,
    message: z.string(),
    action: z.string().optional(),
    args: z.record(z.string(), z.unknown()).optional(),
    observation: z.string().optional(),
    content: z.string().optional(),
    extras: z.record(z.string(), z.unknown()).optional(),
    cause: z.number().int().optional(),
    success: z.boolean().optional(),
    tool_call_metadata: z.record(z.string(), z.unknown()).optional(),
    llm_metrics: z.record(z.string(), z.unknown()).optional(),
    security_risk: z.number().int().optional(),
  })
  .loose();
export type V0Event = z.infer<typeof V0Event>;

/** An event before the log numbers and stamps it. */
export type NewEvent = Omit<V0Event, 'id' | 'timestamp'> & { timestamp?: string };
