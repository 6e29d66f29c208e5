import { z } from 'zod';
import { AgentKind } from './agents';
import { ConversationId, ConversationInfo, TRIGGERS } from './conversations';
import { laxBool, pageLimit } from './fields';
import { RepositoryOrLocalPath } from './local-repository';
import { EGRESS_PRESETS, GitProvider } from './settings';

const TextPart = z.strictObject({ type: z.literal('text'), text: z.string().max(200_000) });
const ImagePart = z.strictObject({ type: z.literal('image'), image_urls: z.array(z.string()).max(20) });

/** V1 `initial_message`: a user message of text and image parts. */
export const InitialMessage = z.strictObject({
  role: z.literal('user').default('user'),
  content: z.array(z.discriminatedUnion('type', [TextPart, ImagePart])).min(1),
  run: laxBool().default(true),
});

export const AppConversationStartRequest = z.strictObject({
  sandbox_id: z.string().nullable().optional(),
  conversation_id: ConversationId.nullable().optional(),
  initial_message: InitialMessage.nullable().optional(),
  system_message_suffix: z.string().max(50_000).nullable().optional(),
  processors: z.array(z.unknown()).max(0).nullable().optional(),
  llm_model: z.string().nullable().optional(),
  /** `owner/repo`, or a git working tree on this machine (an absolute path or a `file://` URL). */
  selected_repository: RepositoryOrLocalPath.nullable().optional(),
  selected_branch: z.string().min(1).max(255).nullable().optional(),
  git_provider: GitProvider.nullable().optional(),
  title: z.string().max(200).nullable().optional(),
  trigger: z.enum(TRIGGERS).nullable().optional(),
  pr_number: z.array(z.number().int()).default([]),
  parent_conversation_id: z.string().nullable().optional(),
  agent_type: z.literal('default').default('default'),
  /** Dockhand: the agent this conversation runs (default: the setting `default_agent`). */
  agent: AgentKind.nullable().optional(),
  network_policy: z.enum(EGRESS_PRESETS).nullable().optional(), // Dockhand: egress policy of its gated sandbox
});
export type AppConversationStartRequest = z.infer<typeof AppConversationStartRequest>;

export const START_TASK_STATUSES = [
  'WORKING',
  'WAITING_FOR_SANDBOX',
  'PREPARING_REPOSITORY',
  'RUNNING_SETUP_SCRIPT',
  'SETTING_UP_GIT_HOOKS',
  'SETTING_UP_SKILLS',
  'STARTING_CONVERSATION',
  'READY',
  'ERROR',
] as const;
export type StartTaskStatus = (typeof START_TASK_STATUSES)[number];

export const AppConversationStartTask = z.object({
  id: z.string(),
  created_by_user_id: z.null(),
  status: z.enum(START_TASK_STATUSES),
  detail: z.string().nullable(),
  app_conversation_id: z.string().nullable(),
  sandbox_id: z.string().nullable(),
  agent_server_url: z.string().nullable(),
  request: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AppConversationStartTask = z.infer<typeof AppConversationStartTask>;

export const EXECUTION_STATUSES = [
  'idle',
  'running',
  'paused',
  'waiting_for_confirmation',
  'finished',
  'error',
  'stuck',
] as const;

/** The SDK's accumulated `TokenUsage` of a conversation's model calls. */
const TokenUsage = z.object({
  model: z.string(),
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  cache_read_tokens: z.number().int().nonnegative(),
  cache_write_tokens: z.number().int().nonnegative(),
  reasoning_tokens: z.number().int().nonnegative(),
  context_window: z.number().int().nonnegative(),
  per_turn_token: z.number().int().nonnegative(),
  response_id: z.string(),
});

/** The SDK's `MetricsSnapshot` of a conversation, and whether its cost is known. */
export const ConversationMetrics = z.object({
  model_name: z.string(),
  /** USD of the priced calls. */
  accumulated_cost: z.number().nonnegative(),
  max_budget_per_task: z.number().nullable(),
  accumulated_token_usage: TokenUsage.nullable(),
  cost_known: z
    .boolean()
    .describe(
      'False once a model call had no known price: `accumulated_cost` then counts only the priced calls',
    ),
});
export type ConversationMetrics = z.infer<typeof ConversationMetrics>;

export const AppConversation = z.object({
  id: z.string(),
  created_by_user_id: z.null(),
  sandbox_id: z.string().nullable(),
  selected_repository: z.string().nullable(),
  selected_branch: z.string().nullable(),
  git_provider: z.string().nullable(),
  title: z.string(),
  trigger: z.string().nullable(),
  pr_number: z.array(z.number().int()),
  llm_model: z.string().nullable(),
  /** Null until the agent made a model call. */
  metrics: ConversationMetrics.nullable(),
  parent_conversation_id: z.string().nullable(),
  sub_conversation_ids: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  sandbox_status: z.string().nullable(),
  execution_status: z.enum(EXECUTION_STATUSES).nullable(),
  /** The sandbox's agent-server endpoint while it runs, else null. */
  conversation_url: z.string().nullable(),
  session_api_key: z.string().nullable(),
  /** Dockhand: the agent the conversation runs. */
  agent: AgentKind,
  /** Dockhand: as in the V0 conversation info. */
  dockhand_state: ConversationInfo.shape.dockhand_state,
  changed_files: ConversationInfo.shape.changed_files,
});
export type AppConversation = z.infer<typeof AppConversation>;

const datetime = z.iso.datetime({ offset: true, local: true });

export const AppConversationSearchQuery = z.object({
  title__contains: z.string().optional(),
  created_at__gte: datetime.optional(),
  created_at__lt: datetime.optional(),
  updated_at__gte: datetime.optional(),
  updated_at__lt: datetime.optional(),
  sandbox_id__eq: z.string().optional(),
  include_sub_conversations: laxBool().default(false),
  sort_order: z
    .enum(['CREATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT', 'UPDATED_AT_DESC', 'TITLE', 'TITLE_DESC'])
    .default('CREATED_AT_DESC'),
  page_id: z.string().optional(),
  limit: pageLimit(100),
});
export type AppConversationSearchQuery = z.infer<typeof AppConversationSearchQuery>;

export const StartTaskSearchQuery = z.object({
  conversation_id__eq: z.string().optional(),
  created_at__gte: datetime.optional(),
  sort_order: z
    .enum(['CREATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT', 'UPDATED_AT_DESC'])
    .default('CREATED_AT_DESC'),
  page_id: z.string().optional(),
  limit: pageLimit(100),
});
export type StartTaskSearchQuery = z.infer<typeof StartTaskSearchQuery>;

export const AppConversationPage = z.object({
  items: z.array(AppConversation),
  next_page_id: z.string().nullable(),
});

export const AppConversationStartTaskPage = z.object({
  items: z.array(AppConversationStartTask),
  next_page_id: z.string().nullable(),
});

/** Conversations aligned with the requested ids, null for unknown ones. */
export const AppConversationBatch = z.array(AppConversation.nullable());

/** Start tasks aligned with the requested ids, null for unknown ones. */
export const AppConversationStartTaskBatch = z.array(AppConversationStartTask.nullable());
