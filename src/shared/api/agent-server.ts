import { z } from 'zod';
import { laxBool, pageLimit } from './fields';
import { ImageUrl } from './conversations';
import { ConversationMetrics, EXECUTION_STATUSES } from './app-conversations';

/**
 * The agent-server protocol OpenHands V1 clients speak to a sandbox (upstream `openhands-agent-server`):
 * requests and responses of its REST calls; events are the kind-discriminated SDK events.
 */

export const SDK_EVENT_KINDS = [
  'MessageEvent',
  'SystemPromptEvent',
  'ActionEvent',
  'ObservationEvent',
  'AgentErrorEvent',
  'UserRejectObservation',
  'PauseEvent',
  'ConversationStateUpdateEvent',
  'Condensation',
  'CondensationSummaryEvent',
] as const;

/** An event of the SDK schema: `kind` names its model; the other keys are that model's fields. */
export const SdkEvent = z
  .object({
    kind: z.enum(SDK_EVENT_KINDS),
    id: z.string(),
    timestamp: z.string(),
    source: z.enum(['agent', 'user', 'environment']),
  })
  .loose();
export type SdkEvent = z.infer<typeof SdkEvent>;

const TextContent = z.strictObject({
  type: z.literal('text'),
  text: z.string().min(1).max(200_000),
  cache_prompt: z.boolean().optional(),
});
const ImageContent = z.strictObject({
  type: z.literal('image'),
  image_urls: z.array(ImageUrl).min(1).max(20),
  cache_prompt: z.boolean().optional(),
});

/** A message as the SDK's `Message` carries it over the events socket: a user's text and images. */
export const SdkMessage = z.object({
  role: z.literal('user').default('user'),
  content: z
    .array(z.discriminatedUnion('type', [TextContent, ImageContent]))
    .min(1)
    .max(21)
    .refine((parts) => parts.some((p) => p.type === 'text'), 'A message needs a text part'),
});
export type SdkMessage = z.infer<typeof SdkMessage>;

/** `POST /api/conversations/{id}/events`. */
export const SendMessageRequest = SdkMessage.extend({ run: laxBool().default(false) });

/** `POST /api/conversations/{id}/events/respond_to_confirmation`. */
export const ConfirmationResponseRequest = z.object({
  accept: z.boolean(),
  reason: z.string().max(10_000).default('User rejected the action.'),
});

export const Success = z.object({ success: z.literal(true) });

const datetime = z.iso.datetime({ offset: true, local: true });
export const SdkEventFilters = z.object({
  kind: z.enum(SDK_EVENT_KINDS).optional(),
  source: z.enum(['agent', 'user', 'environment']).optional(),
  /** Case-insensitive text the event's message, thought or output contains. */
  body: z.string().max(1000).optional(),
  timestamp__gte: datetime.optional(),
  timestamp__lt: datetime.optional(),
});
export const SdkEventSearchQuery = SdkEventFilters.extend({
  sort_order: z.enum(['TIMESTAMP', 'TIMESTAMP_DESC']).default('TIMESTAMP'),
  page_id: z.string().optional(),
  limit: pageLimit(100),
});
export const SdkEventPage = z.object({ items: z.array(SdkEvent), next_page_id: z.string().nullable() });

export const EventIdPath = z.object({ id: z.string(), event_id: z.string() });

/** The events socket's query: the key, and which stored events to send before the live ones. */
export const EventsSocketQuery = z.object({
  session_api_key: z.string().optional(),
  resend_all: laxBool().default(false),
  resend_mode: z.enum(['all', 'since']).optional(),
  after_timestamp: datetime.optional(),
});

/** `GET /api/conversations/{id}`: the parts of the SDK's ConversationInfo that Dockhand has. */
export const AgentServerConversationInfo = z.object({
  id: z.string(),
  title: z.string(),
  execution_status: z.enum(EXECUTION_STATUSES),
  confirmation_policy: z.object({ kind: z.enum(['NeverConfirm', 'AlwaysConfirm', 'ConfirmRisky']) }),
  workspace: z.object({ kind: z.literal('LocalWorkspace'), working_dir: z.string() }),
  created_at: z.string(),
  updated_at: z.string(),
  metrics: ConversationMetrics.nullable(),
});

/** A sandbox path: the path form `/api/git/changes/{path}` or the query form `?path=`. */
export const SandboxPathQuery = z.object({ path: z.string().min(1).max(4096) });
export const SandboxPathParam = z.object({ path: z.string().min(1).max(4096) });

export const SdkGitChange = z.object({
  status: z.enum(['ADDED', 'DELETED', 'UPDATED', 'MOVED']),
  path: z.string(),
});
export const SdkGitDiff = z.object({ modified: z.string().nullable(), original: z.string().nullable() });

export const UploadFileForm = z.object({ file: z.string() });

export const AgentServerVscodeUrl = z.object({ url: z.null() });

/** Events aligned with the requested ids, null for unknown ones. */
export const SdkEventBatch = z.array(SdkEvent.nullable());

export const SdkGitChangeList = z.array(SdkGitChange);
