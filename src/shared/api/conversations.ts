import { z } from 'zod';
import { AgentKind } from './agents';
import { boundedInt, laxBool, laxInt, pageLimit, valueError } from './fields';
import { MCPConfig } from './mcp';
import { NetworkLogEntry } from './network';
import { isLocalRepository, RepositoryOrLocalPath } from './local-repository';
import { RepositoryName } from './repository-name';
import { EGRESS_PRESETS, GitProvider } from './settings';

export const CONVERSATION_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
const RESERVED_IDS = ['search', 'count', 'start-tasks', 'stream-start'];

/** A client-supplied conversation id: `^[A-Za-z0-9_-]{1,100}$`, not a reserved word. */
export const ConversationId = z
  .string()
  .regex(CONVERSATION_ID_PATTERN)
  .superRefine((id, ctx) => {
    if (RESERVED_IDS.includes(id)) valueError(ctx, `${id} is a reserved word`, id);
  });

const Repository = RepositoryName.max(200);

export const TASK_TYPES = ['OPEN_ISSUE', 'MERGE_CONFLICTS', 'FAILING_CHECKS', 'UNRESOLVED_COMMENTS'] as const;

export const SuggestedTask = z.strictObject({
  repo: Repository,
  issue_number: laxInt(),
  title: z.string(),
  git_provider: GitProvider.nullable().optional(),
  task_type: z.enum(TASK_TYPES).default('OPEN_ISSUE'),
});

export const CreateMicroagent = z.strictObject({
  repo: Repository,
  title: z.string().nullable().optional(),
  git_provider: GitProvider.nullable().optional(),
});

export const ImageUrl = z.string().superRefine((url, ctx) => {
  const http = /^https?:\/\//.test(url) && url.length <= 2048;
  const data =
    /^data:image\/(png|jpeg|gif|webp);base64,/.test(url) &&
    url.length <= Math.ceil((5 * 1024 * 1024 * 4) / 3) + 64;
  if (!http && !data) {
    valueError(
      ctx,
      'an image must be an http(s) URL (at most 2048 characters) or a PNG, JPEG, GIF or WebP data URL (at most 5 MiB)',
      url,
    );
  }
});

/** POST /api/conversations. */
export const ConversationCreateRequest = z
  .strictObject({
    /** `owner/repo`, or a git working tree on this machine: an absolute path or a `file://` URL. */
    repository: RepositoryOrLocalPath.nullable().optional(),
    git_provider: GitProvider.nullable().optional(),
    selected_branch: z.string().min(1).max(255).nullable().optional(),
    initial_user_msg: z.string().max(200_000).nullable().optional(),
    image_urls: z.array(ImageUrl).max(20).nullable().optional(),
    replay_json: z.string().nullable().optional(),
    suggested_task: SuggestedTask.nullable().optional(),
    create_microagent: CreateMicroagent.nullable().optional(),
    conversation_instructions: z.string().max(50_000).nullable().optional(),
    mcp_config: MCPConfig.nullable().optional(),
    conversation_id: ConversationId.optional(),
    /** Dockhand: false keeps the user's custom secrets out of the sandbox (provider tokens stay). Default true. */
    expose_custom_secrets: z.boolean().nullable().optional(),
    /** Dockhand: the agent this conversation runs (default: the setting `default_agent`). */
    agent: AgentKind.nullable().optional(),
    network_policy: z.enum(EGRESS_PRESETS).nullable().optional(), // Dockhand: egress policy of its gated sandbox
  })
  .superRefine((request, ctx) => {
    const repos = [request.repository, request.suggested_task?.repo, request.create_microagent?.repo].filter(
      Boolean,
    );
    if (new Set(repos).size > 1)
      valueError(ctx, 'repository, suggested_task.repo and create_microagent.repo differ', repos, [
        'repository',
      ]);
    if (request.repository && isLocalRepository(request.repository) && request.git_provider)
      valueError(ctx, 'git_provider must be null for a repository on this machine', request.git_provider, [
        'git_provider',
      ]);
    if (request.replay_json !== null && request.replay_json !== undefined) {
      if (request.initial_user_msg || request.suggested_task) {
        valueError(ctx, 'replay_json cannot be combined with initial_user_msg or suggested_task', null, [
          'replay_json',
        ]);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(request.replay_json);
      } catch {
        parsed = undefined;
      }
      if (!Array.isArray(parsed))
        valueError(ctx, 'replay_json must be a JSON array of events', request.replay_json, ['replay_json']);
    }
  });
export type ConversationCreateRequest = z.infer<typeof ConversationCreateRequest>;

export const CONVERSATION_STATUSES = ['STARTING', 'RUNNING', 'STOPPED'] as const;
export const ConversationStatus = z.enum(CONVERSATION_STATUSES);
export type ConversationStatus = z.infer<typeof ConversationStatus>;

export const ConversationStartResponse = z.object({
  status: z.string(),
  conversation_id: z.string(),
  message: z.string().nullable(),
  conversation_status: ConversationStatus.nullable(),
});

export const TRIGGERS = [
  'resolver',
  'gui',
  'suggested_task',
  'openhands_api',
  'slack',
  'microagent_management',
  'jira',
  'jira_dc',
  'linear',
] as const;

export const CONVERSATION_PHASES = [
  'starting',
  'working',
  'needs_you',
  'idle',
  'paused',
  'stopped',
  'error',
] as const;

/** Dockhand: the one state a person sees for a conversation (`src/shared/conversation-state.ts`). */
export const DockhandState = z.object({
  phase: z.enum(CONVERSATION_PHASES),
  /** One or two words for the pill. */
  label: z.string(),
  tone: z.enum(['info', 'ok', 'warning', 'error', 'neutral']),
  /** While starting: the current stage; on an error: what went wrong. */
  stage: z.string().nullable(),
  /** The underlying facts, one per line, for a tooltip. */
  details: z.array(z.string()),
  /** Why a message cannot be sent now, or null when it can. */
  blocked: z.string().nullable(),
});
export type DockhandState = z.infer<typeof DockhandState>;

export const ConversationInfo = z.object({
  conversation_id: z.string(),
  title: z.string(),
  last_updated_at: z.string(),
  status: ConversationStatus,
  runtime_status: z.string().nullable(),
  selected_repository: z.string().nullable(),
  selected_branch: z.string().nullable(),
  git_provider: z.string().nullable(),
  trigger: z.string().nullable(),
  num_connections: z.number().int(),
  /** V0: this service's path of the conversation; V1: its agent-server `conversation_url` (null while stopped). */
  url: z.string().nullable(),
  session_api_key: z.string().nullable(),
  created_at: z.string(),
  pr_number: z.array(z.number().int()),
  conversation_version: z.enum(['V0', 'V1']),
  sub_conversation_ids: z.array(z.string()),
  sandbox_id: z.string().nullable(),
  agent_state: z.string().nullable(),
  /** Dockhand: the environment variables of the sandbox's shell that hold secrets (names only). */
  sandbox_secrets: z.array(z.string()),
  /** Dockhand: the agent the conversation runs, Dockhand's own or a coding agent over ACP. */
  agent: AgentKind,
  /** Dockhand: the conversation's one state, derived from its start stage, its agent and its sandbox. */
  dockhand_state: DockhandState,
  /** Dockhand: files changed in its repository as its last `git status` saw them; null before one ran. */
  changed_files: z.number().int().nullable(),
  /** Dockhand: what the conversation's gated sandbox may reach (its start request's policy, else the settings'). */
  network_policy: z.enum(EGRESS_PRESETS),
});
export type ConversationInfo = z.infer<typeof ConversationInfo>;

export const ConversationList = z.object({
  results: z.array(ConversationInfo),
  next_page_id: z.string().nullable(),
});

export const ConversationListQuery = z.object({
  page_id: z.string().optional(),
  limit: pageLimit(20),
  selected_repository: z.string().optional(),
  conversation_trigger: z.enum(TRIGGERS).optional(),
  include_sub_conversations: laxBool().default(false),
});

export const ConversationPath = z.object({ id: z.string() });

export const RenameRequest = z.strictObject({
  title: z
    .string()
    .transform((t) => t.trim())
    .pipe(z.string().min(1).max(200)),
});

export const StartRequest = z.strictObject({ providers_set: z.array(z.unknown()).nullable().optional() });

export const EventsQuery = z.object({
  start_id: laxInt().pipe(z.number().min(0)).default(0),
  end_id: laxInt().pipe(z.number().min(0)).optional(),
  reverse: laxBool().default(false),
  limit: boundedInt(1, 100).default(20),
});

export const MessageRequest = z.strictObject({
  message: z.string().min(1).max(200_000),
  image_urls: z.array(ImageUrl).max(20).nullable().optional(),
});

/** POST /api/conversations/{id}/events: the user actions a client may send. */
export const UserActionRequest = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('message'),
    args: z.strictObject({
      content: z.string().min(1).max(200_000),
      image_urls: z.array(ImageUrl).max(20).nullable().optional(),
      file_urls: z.array(z.string()).nullable().optional(),
      timestamp: z.unknown().optional(),
    }),
  }),
  z.strictObject({
    action: z.literal('change_agent_state'),
    args: z.strictObject({
      agent_state: z.enum(['running', 'paused', 'stopped', 'user_confirmed', 'user_rejected']),
      thought: z.string().optional(),
      reason: z.string().optional(),
      /** Dockhand: which of a coding agent's permission options answers it (`args.acp_options` of the action). */
      option_id: z.string().max(200).optional(),
    }),
  }),
  z.strictObject({
    action: z.literal('run'),
    args: z.strictObject({
      command: z.string(),
      hidden: laxBool().optional(),
      is_input: laxBool().optional(),
      thought: z.string().optional(),
    }),
  }),
]);
export type UserActionRequest = z.infer<typeof UserActionRequest>;

export const EventPageBody = z.object({
  events: z.array(z.record(z.string(), z.unknown())),
  has_more: z.boolean(),
});

/** `GET /api/conversations/{id}/config`: the conversation's sandbox (runtime) and session ids. */
export const ConversationConfigBody = z.object({ runtime_id: z.string().nullable(), session_id: z.string() });

/** `GET /api/conversations/{id}/trajectory`: every event that is not hidden, for export. */
export const TrajectoryBody = z.object({
  trajectory: z.array(z.record(z.string(), z.unknown())),
  /** Dockhand extension: what the conversation's gated sandbox tried to reach, allowed and refused. */
  network_log: z.array(NetworkLogEntry).optional(),
});
