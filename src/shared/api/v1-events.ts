import { z } from 'zod';

export const V1_EVENT_KINDS = [
  'MessageEvent',
  'SystemPromptEvent',
  'PauseEvent',
  'Condensation',
  'ActionEvent',
  'ConversationStateUpdateEvent',
  'AgentErrorEvent',
  'UserRejectObservation',
  'CondensationSummaryEvent',
  'ObservationEvent',
] as const;

/** A V0 event seen through the V1 events API: its kind, and the V0 event itself. */
export const V1EventBody = z.object({
  id: z.string(),
  kind: z.enum(V1_EVENT_KINDS),
  timestamp: z.string(),
  source: z.string(),
  conversation_id: z.string(),
  v0: z.record(z.string(), z.unknown()),
});

export const V1EventPage = z.object({ items: z.array(V1EventBody), next_page_id: z.string().nullable() });

/** Events aligned with the requested ids, null for unknown ones. */
export const V1EventBatch = z.array(V1EventBody.nullable());
